// Lit (3D), flat (2D) or single-colour (wireframe, dots, ghost) shading.

in vec3 v_position_model;
in vec3 v_normal_model;
in vec3 v_colour;
in vec2 v_uv;
flat in uint v_shape;

uniform vec4 u_colour;
uniform float u_lit;          // 1: two-sided Lambert with a key and a fill light
uniform float u_vertex_colour; // 1: take the colour from the vertex
uniform float u_round;        // 1: points drawn as shapes (see v_shape)
uniform vec3 u_toward_eye;
uniform sampler2D u_base_colour; // a glTF file's base colour texture
uniform float u_textured;         // 1: u_colour times the texture at v_uv
uniform vec3 u_vertex_tint;       // what vertex colours are multiplied by
uniform float u_alpha_cutoff;     // MASK: fragments under it are not drawn; -1 draws all

out vec4 o_colour;

void main() {
  if (u_round > 0.5) {
    // A dot's shape, by its largest influence's bone (as the Bones list
    // draws the bone's mark): a circle, a square, a diamond, a triangle.
    vec2 p = gl_PointCoord - vec2(0.5);
    bool outside;
    if (v_shape == 0u) outside = length(p) > 0.5;
    else if (v_shape == 1u) outside = max(abs(p.x), abs(p.y)) > 0.42;
    else if (v_shape == 2u) outside = abs(p.x) + abs(p.y) > 0.55;
    else outside = p.y > 0.42 || abs(p.x) > (p.y + 0.5) * 0.54;
    if (outside) discard;
  }
  vec3 base = u_vertex_colour > 0.5 ? v_colour * u_vertex_tint : u_colour.rgb;
  vec4 texel = u_textured > 0.5 ? texture(u_base_colour, v_uv) : vec4(1.0);
  base *= texel.rgb;
  float alpha = u_colour.a * texel.a;
  if (alpha < u_alpha_cutoff) discard;
  if (u_lit > 0.5) {
    vec3 n = normalize(v_normal_model);
    if (dot(n, u_toward_eye) < 0.0) n = -n;
    vec3 key = normalize(u_toward_eye + vec3(0.4, 0.8, 0.2));
    float light = 0.35 + 0.55 * max(dot(n, key), 0.0) + 0.2 * max(dot(n, u_toward_eye), 0.0);
    o_colour = vec4(base * light, alpha);
  } else {
    o_colour = vec4(base, alpha);
  }
}
