// Matrix-palette skinning, shared by every program that draws the mesh.
// Defines prepended at run time:
//   SKIN_DQS          dual quaternion skinning instead of linear blending
//   SKIN_COR          skinning about optimized centres of rotation
//   PALETTE_TEXTURE   read the palette from a float texture, not uniforms
//   PALETTE_VECTORS   size of the uniform array (uniform palette only)
//   BONE_STRIDE       vec4s per bone: 3 for LBS, 4 for CoR, 5 for DQS (or the format's)
//   PALETTE_MAT4, PALETTE_QUAT_TRANSLATION, PALETTE_DUAL_QUAT
//                     the engine note's palette formats (src/skin/palette_formats.rs):
//                     four rows; q and t rebuilt as [R(q) | t]; q_r and q_d
//                     without the scale/shear part. Without one of them LBS
//                     reads three rows (mat4x3) and DQS five vectors.
//
// Per bone, LBS stores the three rows of the 4x3 matrix M_i; DQS stores the
// rotation quaternion q_r, the dual part q_d, and the three rows of the
// scale/shear part S_i (Kavan et al. 2008), applied before the rigid part;
// CoR stores M_i's three rows and its rotation q_i (Le and Hodgins 2016).

#ifdef PALETTE_TEXTURE
uniform highp sampler2D u_bone_texture;
// Vector k of a bone is texel i = bone · BONE_STRIDE + k, in rows of
// PALETTE_TEXTURE_WIDTH texels (a texture one bone a row would outgrow
// MAX_TEXTURE_SIZE).
vec4 boneTexel(uint bone, int k) {
  int i = int(bone) * BONE_STRIDE + k;
  return texelFetch(u_bone_texture, ivec2(i % PALETTE_TEXTURE_WIDTH, i / PALETTE_TEXTURE_WIDTH), 0);
}
#else
uniform vec4 u_bones[PALETTE_VECTORS];
vec4 boneTexel(uint bone, int k) {
  return u_bones[int(bone) * BONE_STRIDE + k];
}
#endif

// The cofactor matrix, det(m) · m^-T, signed so it maps normals like the
// inverse-transpose even when m is singular.
mat3 normalMatrix(mat3 m) {
  mat3 cofactor = mat3(cross(m[1], m[2]), cross(m[2], m[0]), cross(m[0], m[1]));
  return determinant(m) < 0.0 ? -cofactor : cofactor;
}

// The three rows of bone `bone`'s matrix, as its palette format sends them.
void boneRows(uint bone, out vec4 r0, out vec4 r1, out vec4 r2) {
#ifdef PALETTE_QUAT_TRANSLATION
  vec4 q = boneTexel(bone, 0);
  vec3 t = boneTexel(bone, 1).xyz;
  r0 = vec4(1.0 - 2.0 * (q.y * q.y + q.z * q.z), 2.0 * (q.x * q.y - q.w * q.z), 2.0 * (q.x * q.z + q.w * q.y), t.x);
  r1 = vec4(2.0 * (q.x * q.y + q.w * q.z), 1.0 - 2.0 * (q.x * q.x + q.z * q.z), 2.0 * (q.y * q.z - q.w * q.x), t.y);
  r2 = vec4(2.0 * (q.x * q.z - q.w * q.y), 2.0 * (q.y * q.z + q.w * q.x), 1.0 - 2.0 * (q.x * q.x + q.y * q.y), t.z);
#else
  r0 = boneTexel(bone, 0);
  r1 = boneTexel(bone, 1);
  r2 = boneTexel(bone, 2);
#endif
}

// Three rows (xyz of each) as a column-major mat3.
mat3 fromRows(vec4 r0, vec4 r1, vec4 r2) {
  return transpose(mat3(r0.xyz, r1.xyz, r2.xyz));
}

// v turned by the unit quaternion q.
vec3 rotate(vec4 q, vec3 v) {
  return v + 2.0 * cross(q.xyz, cross(q.xyz, v) + q.w * v);
}

// `centre`: the vertex's centre of rotation p* (xyz) and 1 in w, or w = 0
// for a vertex without one (it keeps LBS); read by SKIN_COR only.
void skin(vec3 position, vec3 normal, uvec4 joints, vec4 weights, vec4 centre,
          out vec3 skinnedPosition, out vec3 skinnedNormal) {
  if (weights.x + weights.y + weights.z + weights.w <= 0.0) {
    skinnedPosition = position;
    skinnedNormal = normal;
    return;
  }
#ifdef SKIN_DQS
  vec4 pivot = boneTexel(joints.x, 0);
  vec4 real = vec4(0.0);
  vec4 dual = vec4(0.0);
#ifdef PALETTE_DUAL_QUAT
  // Rigid parts only: the format has no room for scale.
  mat3 scaleShear = mat3(1.0);
#else
  mat3 scaleShear = mat3(0.0);
#endif
  for (int k = 0; k < 4; k++) {
    float w = weights[k];
    if (w <= 0.0) continue;
    uint bone = joints[k];
    vec4 r = boneTexel(bone, 0);
    float signedWeight = dot(r, pivot) < 0.0 ? -w : w;
    real += signedWeight * r;
    dual += signedWeight * boneTexel(bone, 1);
#ifndef PALETTE_DUAL_QUAT
    scaleShear += w * fromRows(boneTexel(bone, 2), boneTexel(bone, 3), boneTexel(bone, 4));
#endif
  }
  float norm = length(real);
  real /= norm;
  dual /= norm;
  dual -= real * dot(real, dual);
  vec3 scaled = scaleShear * position;
  vec3 rotated = scaled + 2.0 * cross(real.xyz, cross(real.xyz, scaled) + real.w * scaled);
  vec3 translation = 2.0 * (real.w * dual.xyz - dual.w * real.xyz + cross(real.xyz, dual.xyz));
  skinnedPosition = rotated + translation;
  vec3 n = normalMatrix(scaleShear) * normal;
  skinnedNormal = normalize(n + 2.0 * cross(real.xyz, cross(real.xyz, n) + real.w * n));
#else
  vec4 r0 = vec4(0.0);
  vec4 r1 = vec4(0.0);
  vec4 r2 = vec4(0.0);
  for (int k = 0; k < 4; k++) {
    float w = weights[k];
    if (w <= 0.0) continue;
    vec4 b0, b1, b2;
    boneRows(joints[k], b0, b1, b2);
    r0 += w * b0;
    r1 += w * b1;
    r2 += w * b2;
  }
  vec4 p = vec4(position, 1.0);
  skinnedPosition = vec3(dot(r0, p), dot(r1, p), dot(r2, p));
  skinnedNormal = normalize(normalMatrix(fromRows(r0, r1, r2)) * normal);
#ifdef SKIN_COR
  if (centre.w > 0.5) {
    // q = normalise(Σ w_j q_j), each q_j in the first one's hemisphere;
    // v' = R(q) v + LBS(p*) − R(q) p*, n' = R(q) n.
    vec4 pivot = boneTexel(joints.x, 3);
    vec4 q = vec4(0.0);
    for (int k = 0; k < 4; k++) {
      float w = weights[k];
      if (w <= 0.0) continue;
      vec4 qk = boneTexel(joints[k], 3);
      q += (dot(qk, pivot) < 0.0 ? -w : w) * qk;
    }
    q = normalize(q);
    vec4 c = vec4(centre.xyz, 1.0);
    vec3 lbsCentre = vec3(dot(r0, c), dot(r1, c), dot(r2, c));
    skinnedPosition = rotate(q, position) + lbsCentre - rotate(q, centre.xyz);
    skinnedNormal = normalize(rotate(q, normal));
  }
#endif
#endif
}
