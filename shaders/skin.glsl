// Matrix-palette skinning, shared by every program that draws the mesh.
// Defines prepended at run time:
//   SKIN_DQS          dual quaternion skinning instead of linear blending
//   PALETTE_TEXTURE   read the palette from a float texture, not uniforms
//   PALETTE_VECTORS   size of the uniform array (uniform palette only)
//   BONE_STRIDE       vec4s per bone: 3 for LBS, 5 for DQS
//
// Per bone, LBS stores the three rows of the 4x3 matrix M_i; DQS stores the
// rotation quaternion q_r, the dual part q_d, and the three rows of the
// scale/shear part S_i (Kavan et al. 2008), applied before the rigid part.

#ifdef PALETTE_TEXTURE
uniform highp sampler2D u_bone_texture;
vec4 boneTexel(uint bone, int k) {
  return texelFetch(u_bone_texture, ivec2(k, int(bone)), 0);
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

// Three rows (xyz of each) as a column-major mat3.
mat3 fromRows(vec4 r0, vec4 r1, vec4 r2) {
  return transpose(mat3(r0.xyz, r1.xyz, r2.xyz));
}

void skin(vec3 position, vec3 normal, uvec4 joints, vec4 weights,
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
  mat3 scaleShear = mat3(0.0);
  for (int k = 0; k < 4; k++) {
    float w = weights[k];
    if (w <= 0.0) continue;
    uint bone = joints[k];
    vec4 r = boneTexel(bone, 0);
    float signedWeight = dot(r, pivot) < 0.0 ? -w : w;
    real += signedWeight * r;
    dual += signedWeight * boneTexel(bone, 1);
    scaleShear += w * fromRows(boneTexel(bone, 2), boneTexel(bone, 3), boneTexel(bone, 4));
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
    uint bone = joints[k];
    r0 += w * boneTexel(bone, 0);
    r1 += w * boneTexel(bone, 1);
    r2 += w * boneTexel(bone, 2);
  }
  vec4 p = vec4(position, 1.0);
  skinnedPosition = vec3(dot(r0, p), dot(r1, p), dot(r2, p));
  skinnedNormal = normalize(normalMatrix(fromRows(r0, r1, r2)) * normal);
#endif
}
