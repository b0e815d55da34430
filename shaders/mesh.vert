// The skin: positions and normals skinned on the GPU. v_position_model is
// also what transform feedback reads back to check against the CPU.

in vec3 a_position;
in vec3 a_normal;
in uvec4 a_joints;
in vec4 a_weights;
in vec3 a_colour;
in vec2 a_uv;
in vec4 a_centre;  // CoR: the centre of rotation p* and 1, or w = 0 for none

uniform mat4 u_clip_from_model;
uniform float u_skinned;     // 0: draw the rest pose (the ghost)
uniform float u_point_size;

// Morph targets (the bones note): the offsets of target t for vertex v at texel
// (2t)·V + v (position) and (2t + 1)·V + v (normal), rows of
// MORPH_TEXTURE_WIDTH texels; the active targets and weights as uniforms.
uniform highp sampler2D u_morph_texture;
uniform int u_morph_count;
uniform int u_vertex_count;
uniform ivec4 u_morph_targets[MAX_ACTIVE_MORPHS / 4];
uniform vec4 u_morph_weights[MAX_ACTIVE_MORPHS / 4];

vec3 morphTexel(int index) {
  return texelFetch(u_morph_texture, ivec2(index % MORPH_TEXTURE_WIDTH, index / MORPH_TEXTURE_WIDTH), 0).xyz;
}

out vec3 v_position_model;
out vec3 v_normal_model;
out vec3 v_colour;
out vec2 v_uv;
// The vertex's shape as a dot: its largest influence's bone, four shapes in
// turn, so dots are told apart by more than colour.
flat out uint v_shape;

void main() {
  vec3 position = a_position;
  vec3 normal = a_normal;
  if (u_skinned > 0.5) {
    // B + Σ m_k D_k, then skinning, as the CPU reference does.
    vec3 base = a_position;
    vec3 baseNormal = a_normal;
    for (int k = 0; k < u_morph_count; k++) {
      int first = u_morph_targets[k / 4][k % 4] * 2 * u_vertex_count + gl_VertexID;
      float weight = u_morph_weights[k / 4][k % 4];
      base += weight * morphTexel(first);
      baseNormal += weight * morphTexel(first + u_vertex_count);
    }
    skin(base, baseNormal, a_joints, a_weights, a_centre, position, normal);
  }
  v_position_model = position;
  v_normal_model = normal;
  v_colour = a_colour;
  v_uv = a_uv;
  v_shape = a_joints.x % 4u;
  gl_PointSize = u_point_size;
  gl_Position = u_clip_from_model * vec4(position, 1.0);
}
