//! Skinning four vertices at a time, one per SIMD lane.
//!
//! Each vertex's blend (four palette entries times four weights) is done
//! one 128-bit vector per matrix row, quaternion or scale/shear column; the
//! four vertices' blends are then transposed so that everything after them,
//! the point and normal transforms, the cofactor's cross products and the
//! normalisation, works on four vertices per instruction with no shuffles
//! (structure of arrays). The loops in [`crate::skin::skinning`] run every
//! vertex through these kernels, the last `count mod 4` and a single vertex
//! padded to four. glam's `Vec4` is SSE2 natively and `simd128` in wasm, so
//! this is plain safe code on both.

use glam::{BVec4A, Mat4, Vec3, Vec4};

use crate::skin::dual_quat::RigidScale;
use crate::skin::influences::{VertexInfluences, MAX_INFLUENCES};
use crate::skin::matrix_rows::MatrixRows;

/// Four 3-vectors, one per lane: `x` holds the four x components.
#[derive(Clone, Copy)]
pub(crate) struct Vec3x4 {
    x: Vec4,
    y: Vec4,
    z: Vec4,
}

impl Vec3x4 {
    /// The lanes' x, y and z components.
    #[inline(always)]
    fn new(x: Vec4, y: Vec4, z: Vec4) -> Self {
        Self { x, y, z }
    }

    /// Four vectors, transposed into lanes.
    ///
    /// In wasm the four vectors' 12 floats are contiguous: three 16-byte
    /// loads and six shuffles take them apart, where a vector built from
    /// each float took 12 loads and 12 lane inserts (LBS at 100,000
    /// vertices in Node 20: 68 M vertices/s before, see `cargo xtask bench`).
    #[inline(always)]
    fn load(v: &[Vec3]) -> Self {
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        {
            use std::arch::wasm32::u32x4_shuffle;
            let floats: &[f32] = bytemuck::cast_slice(&v[..4]);
            let [a, b, c] = [0, 4, 8].map(|k| Vec4::from_slice(&floats[k..k + 4]).into());
            // a = x0 y0 z0 x1, b = y1 z1 x2 y2, c = z2 x3 y3 z3.
            let x = u32x4_shuffle::<0, 1, 2, 5>(u32x4_shuffle::<0, 3, 6, 6>(a, b), c);
            let y = u32x4_shuffle::<0, 1, 2, 6>(u32x4_shuffle::<1, 4, 7, 7>(a, b), c);
            let z = u32x4_shuffle::<0, 1, 4, 7>(u32x4_shuffle::<2, 5, 5, 5>(a, b), c);
            Self::new(x.into(), y.into(), z.into())
        }
        #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
        {
            let m = Mat4::from_cols(
                v[0].extend(0.0),
                v[1].extend(0.0),
                v[2].extend(0.0),
                v[3].extend(0.0),
            )
            .transpose();
            Self::new(m.x_axis, m.y_axis, m.z_axis)
        }
    }

    /// Writes the four lanes back as four vectors: in wasm six shuffles and
    /// three 16-byte stores, as [`Vec3x4::load`] reads them.
    #[inline(always)]
    fn store(self, out: &mut [Vec3]) {
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        {
            use std::arch::wasm32::u32x4_shuffle;
            let (x, y, z) = (self.x.into(), self.y.into(), self.z.into());
            let a = u32x4_shuffle::<0, 1, 4, 3>(u32x4_shuffle::<0, 4, 4, 1>(x, y), z);
            let b = u32x4_shuffle::<0, 1, 6, 3>(u32x4_shuffle::<1, 5, 5, 2>(y, z), x);
            let c = u32x4_shuffle::<6, 1, 2, 7>(u32x4_shuffle::<3, 3, 7, 7>(x, y), z);
            let floats: &mut [f32] = bytemuck::cast_slice_mut(&mut out[..4]);
            for (k, lanes) in [a, b, c].into_iter().enumerate() {
                Vec4::from(lanes).write_to_slice(&mut floats[4 * k..4 * k + 4]);
            }
        }
        #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
        {
            let m = Mat4::from_cols(self.x, self.y, self.z, Vec4::ZERO).transpose();
            out[0] = m.x_axis.truncate();
            out[1] = m.y_axis.truncate();
            out[2] = m.z_axis.truncate();
            out[3] = m.w_axis.truncate();
        }
    }

    /// The x, y and z rows of four lanes' 4-vectors (their w is dropped).
    #[inline(always)]
    fn from_lanes(lanes: [Vec4; 4]) -> (Self, Vec4) {
        let m = Mat4::from_cols(lanes[0], lanes[1], lanes[2], lanes[3]).transpose();
        (
            Self {
                x: m.x_axis,
                y: m.y_axis,
                z: m.z_axis,
            },
            m.w_axis,
        )
    }

    #[inline(always)]
    fn scale(self, s: Vec4) -> Self {
        Self {
            x: self.x * s,
            y: self.y * s,
            z: self.z * s,
        }
    }

    #[inline(always)]
    fn add(self, o: Self) -> Self {
        Self {
            x: self.x + o.x,
            y: self.y + o.y,
            z: self.z + o.z,
        }
    }

    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        Self {
            x: self.x - o.x,
            y: self.y - o.y,
            z: self.z - o.z,
        }
    }

    #[inline(always)]
    fn dot(self, o: Self) -> Vec4 {
        self.x * o.x + self.y * o.y + self.z * o.z
    }

    #[inline(always)]
    fn cross(self, o: Self) -> Self {
        Self {
            x: self.y * o.z - self.z * o.y,
            y: self.z * o.x - self.x * o.z,
            z: self.x * o.y - self.y * o.x,
        }
    }

    /// Per lane: `if_true` where `mask` is set, else `if_false`.
    #[inline(always)]
    fn select(mask: BVec4A, if_true: Self, if_false: Self) -> Self {
        Self {
            x: Vec4::select(mask, if_true.x, if_false.x),
            y: Vec4::select(mask, if_true.y, if_false.y),
            z: Vec4::select(mask, if_true.z, if_false.z),
        }
    }

    /// `v / |v|` per lane, or `fallback` where `|v|²` is zero or not finite
    /// (what `Vec3::try_normalize` refuses).
    #[inline(always)]
    fn normalize_or(self, fallback: Self) -> Self {
        let length_squared = self.dot(self);
        let usable = length_squared.cmpgt(Vec4::ZERO) & length_squared.cmplt(Vec4::INFINITY);
        Self::select(usable, self.scale(sqrt(length_squared).recip()), fallback)
    }
}

/// `√v` per lane: one instruction on SSE and in wasm `simd128` (glam's
/// `Vec4` has no lane-wise square root).
#[inline(always)]
fn sqrt(v: Vec4) -> Vec4 {
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        Vec4::from(std::arch::wasm32::f32x4_sqrt(v.into()))
    }
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    {
        Vec4::from_array(v.to_array().map(f32::sqrt))
    }
}

/// `blend` of each of four vertices' influences, in lane order.
#[inline(always)]
fn per_lane<T>(influences: &[VertexInfluences], blend: impl Fn(&VertexInfluences) -> T) -> [T; 4] {
    [
        blend(&influences[0]),
        blend(&influences[1]),
        blend(&influences[2]),
        blend(&influences[3]),
    ]
}

/// The first weight of each of four vertices: a vertex whose first weight
/// is not positive has no influence and keeps its rest position.
#[inline(always)]
fn influenced(influences: &[VertexInfluences]) -> BVec4A {
    Vec4::new(
        influences[0].weights[0],
        influences[1].weights[0],
        influences[2].weights[0],
        influences[3].weights[0],
    )
    .cmpgt(Vec4::ZERO)
}

/// LBS of four vertices (`positions`, `normals`, `influences` and both
/// outputs hold four entries): `Z = (Σ w_i M_i) · P`, the normal by the
/// blend's cofactor with the sign of its determinant removed, normalised;
/// the formulas of [`crate::skin::skinning::skin_lbs`]. Each `M_i` comes as
/// its three rows, so a vertex's blend is 12 multiply-adds per influence.
#[inline(always)]
pub(crate) fn lbs(
    positions: &[Vec3],
    normals: &[Vec3],
    influences: &[VertexInfluences],
    palette: &[MatrixRows],
    out_positions: &mut [Vec3],
    out_normals: &mut [Vec3],
) {
    let [a, b, c] = lbs_positions(positions, influences, palette, out_positions);
    let keep = influenced(influences);
    let n = Vec3x4::load(normals);
    let normal = cofactor_normal([a, b, c], n).normalize_or(n);
    Vec3x4::select(keep, normal, n).store(out_normals);
}

/// The positions alone of [`lbs`]: `Z = (Σ w_i M_i) · P` for four vertices,
/// stored; returns the blend's 3x3 columns for the normals. Positions
/// asked for alone are skinned without the normals' cofactor and
/// normalisation, about a third of LBS's work.
#[inline(always)]
pub(crate) fn lbs_positions(
    positions: &[Vec3],
    influences: &[VertexInfluences],
    palette: &[MatrixRows],
    out_positions: &mut [Vec3],
) -> [Vec3x4; 3] {
    let [r0, r1, r2] = lbs_rows(influences, palette);
    let a = Vec3x4::new(r0.x_axis, r1.x_axis, r2.x_axis);
    let b = Vec3x4::new(r0.y_axis, r1.y_axis, r2.y_axis);
    let c = Vec3x4::new(r0.z_axis, r1.z_axis, r2.z_axis);
    let t = Vec3x4::new(r0.w_axis, r1.w_axis, r2.w_axis);
    let keep = influenced(influences);
    // The position first and stored at once, then the normal: fewer values
    // alive at a time, which matters to wasm engines' register allocation.
    let p = Vec3x4::load(positions);
    let skinned = a.scale(p.x).add(b.scale(p.y)).add(c.scale(p.z)).add(t);
    Vec3x4::select(keep, skinned, p).store(out_positions);
    [a, b, c]
}

/// The blends `Σ w_k M_k` of four vertices, row `r` transposed into the
/// `r`-th matrix: its columns are the entries `m_r0`, `m_r1`, `m_r2`, `t_r`,
/// one vertex per lane.
///
/// A function of its own in wasm, and so is each vertex's blend
/// ([`blend_rows`]): V8 allocates registers in the order the wasm gives its
/// instructions and LLVM puts all of an inlined blend's 48 palette loads
/// first, so that one function of the whole spilled about 50 vectors to
/// the stack per four vertices. Measured in Node 20 on 100,000 vertices,
/// positions alone: 79 M vertices/s as one function with the blends
/// inlined, 91 M without the transposes' loop over `[0, 1, 2]`, 100–106 M
/// with the blends called (see `cargo xtask bench`). Inlined natively,
/// where it makes no difference.
#[cfg_attr(target_arch = "wasm32", inline(never))]
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
fn lbs_rows(influences: &[VertexInfluences], palette: &[MatrixRows]) -> [Mat4; 3] {
    // Blended into one array per lane, then transposed: writing each
    // blend into lane `k` of a vector would cost a masked insert apiece.
    let lanes = per_lane(influences, |influence| blend_rows(influence, palette));
    let row =
        |r: usize| Mat4::from_cols(lanes[0][r], lanes[1][r], lanes[2][r], lanes[3][r]).transpose();
    [row(0), row(1), row(2)]
}

/// `Σ w_k M_k` of one vertex, as its three rows. Not inlined in wasm, so
/// that its loads come right before its arithmetic (see [`lbs_rows`]).
#[cfg_attr(target_arch = "wasm32", inline(never))]
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
fn blend_rows(influence: &VertexInfluences, palette: &[MatrixRows]) -> [Vec4; 3] {
    let (w, b) = (influence.weights, influence.bones);
    let m = &palette[usize::from(b[0])];
    let mut blend = m.0.map(|row| row * w[0]);
    for k in 1..MAX_INFLUENCES {
        let m = &palette[usize::from(b[k])].0;
        blend[0] += m[0] * w[k];
        blend[1] += m[1] * w[k];
        blend[2] += m[2] * w[k];
    }
    blend
}

/// The blended rigid part of four vertices' DQS, ready to apply: the blend
/// `q̂ = Σ w_i s_i q̂_i` of [`crate::skin::skinning::skin_dqs`] with
/// `q = (v, w)` its real part, `s = 2 / |q|²` and `d` its dual part, which
/// turns `x ↦ x + s (w (v × x) + v × (v × x))` (the rotation of `q / |q|`)
/// and moves by `t = s (w d_v − d_w v + v × d_v)`.
pub(crate) struct RigidLanes {
    v: Vec3x4,
    w: Vec4,
    s: Vec4,
    d: Vec3x4,
    d_w: Vec4,
}

impl RigidLanes {
    /// Blends the rigid parts of four vertices' influences; `called`: each
    /// vertex's blend through a call (see [`blend_dual_called`]).
    #[inline(always)]
    fn blend(influences: &[VertexInfluences], palette: &[RigidScale], called: bool) -> Self {
        let lanes = if called {
            per_lane(influences, |influence| {
                blend_dual_called(influence, palette)
            })
        } else {
            per_lane(influences, |influence| blend_dual(influence, palette))
        };
        let (v, w) = Vec3x4::from_lanes(lanes.map(|[real, _]| real));
        let (d, d_w) = Vec3x4::from_lanes(lanes.map(|[_, dual]| dual));
        let length_squared = v.dot(v) + w * w;
        // A blend that cancels out (opposite quaternions, equal weights) is
        // taken as the identity, as in the one-vertex loop.
        let degenerate = length_squared.cmplt(Vec4::splat(1e-16));
        let (v, d, w, d_w, length_squared) = if degenerate.any() {
            let zero = Vec3x4::new(Vec4::ZERO, Vec4::ZERO, Vec4::ZERO);
            (
                Vec3x4::select(degenerate, zero, v),
                Vec3x4::select(degenerate, zero, d),
                Vec4::select(degenerate, Vec4::ONE, w),
                Vec4::select(degenerate, Vec4::ZERO, d_w),
                Vec4::select(degenerate, Vec4::ONE, length_squared),
            )
        } else {
            (v, d, w, d_w, length_squared)
        };
        let s = Vec4::splat(2.0) / length_squared;
        Self { v, w, s, d, d_w }
    }

    /// `x` turned and moved by the blend: the turn and `t` together,
    /// `x + s (w u + v × u − d_w v)` with `u = v × x + d_v`, which is
    /// `x + s (w (v × x) + v × (v × x)) + t` with one cross product and
    /// six multiplications fewer.
    #[inline(always)]
    fn apply(&self, x: Vec3x4) -> Vec3x4 {
        let u = self.v.cross(x).add(self.d);
        let sum = u
            .scale(self.w)
            .add(self.v.cross(u))
            .sub(self.v.scale(self.d_w));
        x.add(sum.scale(self.s))
    }

    /// `x` turned by the blended rotation.
    #[inline(always)]
    fn turn(&self, x: Vec3x4) -> Vec3x4 {
        let vx = self.v.cross(x);
        x.add(vx.scale(self.w).add(self.v.cross(vx)).scale(self.s))
    }
}

/// [`blend_dual`] as a function of its own in wasm, as [`blend_rows`] is
/// for LBS, for the positions alone: in Node 20 on 100,000 vertices, 96–101
/// → 103–109 M vertices/s in four alternating runs (1,000,000: 97 → 101
/// M). With the normals, whose turn keeps the blend alive longer, it was
/// slower (80–83 → 75–78 M), so there the blends stay inlined.
#[cfg_attr(target_arch = "wasm32", inline(never))]
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
fn blend_dual_called(influence: &VertexInfluences, palette: &[RigidScale]) -> [Vec4; 2] {
    blend_dual(influence, palette)
}

/// One vertex's blended dual quaternion `Σ w_i s_i q̂_i`, its real part
/// first, each `s_i` the sign that puts `q_i` in the first's hemisphere.
#[inline(always)]
fn blend_dual(influence: &VertexInfluences, palette: &[RigidScale]) -> [Vec4; 2] {
    let (w, b) = (influence.weights, influence.bones);
    let first = &palette[usize::from(b[0])].rigid;
    let pivot = Vec4::from(first.real);
    let mut real = pivot * w[0];
    let mut dual = Vec4::from(first.dual) * w[0];
    for k in 1..MAX_INFLUENCES {
        let entry = &palette[usize::from(b[k])].rigid;
        let entry_real = Vec4::from(entry.real);
        let sign = if entry_real.dot(pivot) < 0.0 {
            -w[k]
        } else {
            w[k]
        };
        real += entry_real * sign;
        dual += Vec4::from(entry.dual) * sign;
    }
    [real, dual]
}

/// `cof(M) n = (b × c) n_x + (c × a) n_y + (a × b) n_z` for the 3x3 matrix
/// with columns `a`, `b`, `c`, turned round where `det M = a · (b × c) < 0`:
/// the inverse-transpose's direction, not normalised.
#[inline(always)]
fn cofactor_normal([a, b, c]: [Vec3x4; 3], n: Vec3x4) -> Vec3x4 {
    let bc = b.cross(c);
    let flipped = a.dot(bc).cmplt(Vec4::ZERO);
    // (c × a) n_y + (a × b) n_z = a × (b n_z − c n_y): one cross product
    // fewer.
    let turned = bc.scale(n.x).add(a.cross(b.scale(n.z).sub(c.scale(n.y))));
    Vec3x4::select(flipped, turned.scale(Vec4::NEG_ONE), turned)
}

/// DQS of four vertices with a rigid palette (every scale/shear part the
/// identity): the point and the normal turned by the blend (see
/// [`RigidLanes`]), the point moved.
#[inline(always)]
pub(crate) fn dqs_rigid(
    positions: &[Vec3],
    normals: &[Vec3],
    influences: &[VertexInfluences],
    palette: &[RigidScale],
    out_positions: &mut [Vec3],
    out_normals: &mut [Vec3],
) {
    let rigid = RigidLanes::blend(influences, palette, false);
    // A vertex without influence blends to nothing, taken as the identity:
    // it keeps its rest position without a select.
    rigid.apply(Vec3x4::load(positions)).store(out_positions);
    let keep = influenced(influences);
    let n = Vec3x4::load(normals);
    Vec3x4::select(keep, rigid.turn(n), n).store(out_normals);
}

/// The positions alone of [`dqs_rigid`], stored.
#[inline(always)]
pub(crate) fn dqs_rigid_positions(
    positions: &[Vec3],
    influences: &[VertexInfluences],
    palette: &[RigidScale],
    out_positions: &mut [Vec3],
) {
    let rigid = RigidLanes::blend(influences, palette, true);
    rigid.apply(Vec3x4::load(positions)).store(out_positions);
}

/// DQS of four vertices with scale or shear in the palette: the
/// scale/shear parts blended linearly, `S = Σ w_i S_i`, applied first, then
/// the rigid blend (see [`RigidLanes`]): `Z = q̂ (S · P)`, the normal
/// `normalize(q̂ (cof(S) n))`.
#[inline(always)]
pub(crate) fn dqs_scaled(
    positions: &[Vec3],
    normals: &[Vec3],
    influences: &[VertexInfluences],
    palette: &[RigidScale],
    out_positions: &mut [Vec3],
    out_normals: &mut [Vec3],
) {
    let rigid = RigidLanes::blend(influences, palette, false);
    let blend = |influence: &VertexInfluences| {
        let (w, b) = (influence.weights, influence.bones);
        let columns = |bone: u16| {
            let m = &palette[usize::from(bone)].scale_shear;
            [m.x_axis, m.y_axis, m.z_axis].map(|column| column.extend(0.0))
        };
        let mut blend = columns(b[0]).map(|column| column * w[0]);
        for k in 1..MAX_INFLUENCES {
            for (sum, column) in blend.iter_mut().zip(columns(b[k])) {
                *sum += column * w[k];
            }
        }
        blend
    };
    let lanes = per_lane(influences, blend);
    // Column `j` of the four blends `S`, one vertex per lane.
    let columns = [0, 1, 2]
        .map(|j| Vec3x4::from_lanes([lanes[0][j], lanes[1][j], lanes[2][j], lanes[3][j]]).0);
    let [a, b, c] = columns;
    let keep = influenced(influences);
    let p = Vec3x4::load(positions);
    let scaled = a.scale(p.x).add(b.scale(p.y)).add(c.scale(p.z));
    let skinned = rigid.apply(scaled);
    Vec3x4::select(keep, skinned, p).store(out_positions);
    let n = Vec3x4::load(normals);
    let normal = rigid.turn(cofactor_normal(columns, n)).normalize_or(n);
    Vec3x4::select(keep, normal, n).store(out_normals);
}
