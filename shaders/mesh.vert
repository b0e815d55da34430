// The skin: positions and normals skinned on the GPU. v_position_model is
// also what transform feedback reads back to check against the CPU.

in vec3 a_position;
in vec3 a_normal;
in uvec4 a_joints;
in vec4 a_weights;
in vec3 a_color;

uniform mat4 u_clip_from_model;
uniform float u_skinned;     // 0: draw the rest pose (the ghost)
uniform float u_point_size;

out vec3 v_position_model;
out vec3 v_normal_model;
out vec3 v_color;

void main() {
  vec3 position = a_position;
  vec3 normal = a_normal;
  if (u_skinned > 0.5) {
    skin(a_position, a_normal, a_joints, a_weights, position, normal);
  }
  v_position_model = position;
  v_normal_model = normal;
  v_color = a_color;
  gl_PointSize = u_point_size;
  gl_Position = u_clip_from_model * vec4(position, 1.0);
}
