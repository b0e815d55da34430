// Bones, frames and markers: model-space positions computed on the CPU.

in vec3 a_position;
in vec4 a_colour;

uniform mat4 u_clip_from_model;
uniform float u_point_size;

out vec4 v_colour;

void main() {
  v_colour = a_colour;
  gl_PointSize = u_point_size;
  gl_Position = u_clip_from_model * vec4(a_position, 1.0);
}
