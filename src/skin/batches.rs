//! The engine note's draw-call split: a vertex shader holds only so many bones in
//! its uniforms, so a mesh whose skeleton has more is drawn in batches of
//! triangles, each touching at most that many bones and skinned with its
//! own sub-palette (joint indices renumbered into it).
//!
//! What a palette costs in `vec4` uniforms per bone: `mat4` 4, `mat4x3` 3
//! (the engine note's 4x3 matrices), quaternion + translation 2, dual quaternion 2.

use super::influences::VertexInfluences;

/// How the palette travels to the shader.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PaletteFormat {
    /// A full 4x4 matrix: 4 vectors a bone.
    Mat4,
    /// Three rows of the 4x3 matrix: 3 vectors a bone.
    Mat4x3,
    /// A rotation quaternion and a translation: 2 vectors, rigid only.
    QuatTranslation,
    /// A unit dual quaternion: 2 vectors, rigid only.
    DualQuat,
}

impl PaletteFormat {
    /// Every format, in the order the page lists them.
    pub const ALL: [PaletteFormat; 4] = [
        PaletteFormat::Mat4,
        PaletteFormat::Mat4x3,
        PaletteFormat::QuatTranslation,
        PaletteFormat::DualQuat,
    ];

    /// `vec4` uniforms one bone takes.
    pub fn vectors_per_bone(self) -> usize {
        match self {
            PaletteFormat::Mat4 => 4,
            PaletteFormat::Mat4x3 => 3,
            PaletteFormat::QuatTranslation | PaletteFormat::DualQuat => 2,
        }
    }

    /// The bones a draw can carry in `budget` vertex uniform vectors with
    /// `reserved` of them taken by the shader's other uniforms:
    /// `⌊(budget − reserved) / vectors_per_bone⌋`.
    pub fn bones_per_draw(self, budget: usize, reserved: usize) -> usize {
        budget.saturating_sub(reserved) / self.vectors_per_bone()
    }
}

/// Triangles drawn together with one sub-palette.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Batch {
    /// The bones of its palette; local joint `k` is global bone `bones[k]`.
    pub bones: Vec<u16>,
    /// Indices of its triangles in the mesh (triangle `t` is
    /// `indices[3t..3t + 3]`).
    pub triangles: Vec<u32>,
}

/// Why a mesh cannot be split.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BatchError {
    /// A budget of no bones.
    #[error("a draw must carry at least one bone")]
    ZeroBudget,
    /// One triangle alone needs more bones than a draw can carry.
    #[error("triangle {triangle} needs {needs} bones, more than the {max} a draw can carry")]
    TriangleTooRich {
        /// The triangle.
        triangle: usize,
        /// Bones its three vertices name.
        needs: usize,
        /// The budget.
        max: usize,
    },
}

/// Splits the triangles into batches of at most `max_bones` bones each,
/// greedily: each triangle joins the first batch it fits in, or opens a new
/// one. A vertex no bone moves needs none.
pub fn split_by_bone_budget(
    indices: &[u32],
    influences: &[VertexInfluences],
    max_bones: usize,
) -> Result<Vec<Batch>, BatchError> {
    if max_bones == 0 {
        return Err(BatchError::ZeroBudget);
    }
    // Bone sets as sorted lists without repeats: a triangle needs at most
    // twelve bones, a batch `max_bones`.
    let mut batches: Vec<(Vec<u16>, Vec<u32>)> = Vec::new();
    for (triangle, corners) in indices.chunks_exact(3).enumerate() {
        let mut needed: Vec<u16> = corners
            .iter()
            .filter_map(|&v| influences.get(v as usize))
            .flat_map(|vertex| vertex.pairs().map(|(bone, _)| bone))
            .collect();
        crate::rig::sorting::sort_stable_by_key(&mut needed, |&bone| bone);
        needed.dedup();
        if needed.len() > max_bones {
            return Err(BatchError::TriangleTooRich {
                triangle,
                needs: needed.len(),
                max: max_bones,
            });
        }
        let fits = batches
            .iter_mut()
            .find(|(bones, _)| union(bones, &needed).len() <= max_bones);
        match fits {
            Some((bones, triangles)) => {
                *bones = union(bones, &needed);
                triangles.push(triangle as u32);
            }
            None => batches.push((needed, vec![triangle as u32])),
        }
    }
    Ok(batches
        .into_iter()
        .map(|(bones, triangles)| Batch { bones, triangles })
        .collect())
}

/// The bones in `a` or `b`, each a sorted list without repeats, merged into
/// one such list.
fn union(a: &[u16], b: &[u16]) -> Vec<u16> {
    let mut merged = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        let next = a[i].min(b[j]);
        merged.push(next);
        i += usize::from(a[i] == next);
        j += usize::from(b[j] == next);
    }
    merged.extend_from_slice(&a[i..]);
    merged.extend_from_slice(&b[j..]);
    merged
}

/// A lower bound on the number of batches: no batch holds more than
/// `max_bones`, so at least `⌈bones used / max_bones⌉` are needed.
pub fn batch_lower_bound(influences: &[VertexInfluences], max_bones: usize) -> usize {
    let mut used = vec![false; usize::from(u16::MAX) + 1];
    for (bone, _) in influences.iter().flat_map(VertexInfluences::pairs) {
        used[usize::from(bone)] = true;
    }
    let used = used.iter().filter(|&&u| u).count();
    used.div_ceil(max_bones.max(1))
}

/// A batch as the renderer uploads it: its own vertices (a vertex shared
/// by two batches is in both, with different joint numbers), triangles
/// indexing them, and influences renumbered into the sub-palette.
#[derive(Clone, Debug, PartialEq)]
pub struct DrawBatch {
    /// The sub-palette: local joint `k` is global bone `bones[k]`.
    pub bones: Vec<u16>,
    /// The mesh vertex behind each local vertex.
    pub vertices: Vec<u32>,
    /// Triangles as local vertex indices.
    pub indices: Vec<u32>,
    /// Each local vertex's influences, joints renumbered.
    pub influences: Vec<VertexInfluences>,
}

/// [`split_by_bone_budget`], each batch with its own vertices and
/// renumbered joints, ready to draw with its sub-palette.
pub fn draw_batches(
    indices: &[u32],
    influences: &[VertexInfluences],
    max_bones: usize,
) -> Result<Vec<DrawBatch>, BatchError> {
    let batches = split_by_bone_budget(indices, influences, max_bones)?;
    Ok(batches
        .into_iter()
        .map(|batch| {
            let mut local_of = std::collections::HashMap::new();
            let mut out = DrawBatch {
                bones: batch.bones.clone(),
                vertices: Vec::new(),
                indices: Vec::with_capacity(3 * batch.triangles.len()),
                influences: Vec::new(),
            };
            for &triangle in &batch.triangles {
                for &vertex in &indices[3 * triangle as usize..3 * triangle as usize + 3] {
                    let local = *local_of.entry(vertex).or_insert_with(|| {
                        out.vertices.push(vertex);
                        // Every bone of the triangle is in the batch.
                        out.influences.push(
                            batch
                                .remap(&influences[vertex as usize])
                                .unwrap_or(VertexInfluences::NONE),
                        );
                        out.vertices.len() as u32 - 1
                    });
                    out.indices.push(local);
                }
            }
            out
        })
        .collect())
}

impl Batch {
    /// A vertex's influences with the joints renumbered into this batch's
    /// sub-palette (`None` if it names a bone the batch lacks).
    pub fn remap(&self, vertex: &VertexInfluences) -> Option<VertexInfluences> {
        let mut local = *vertex;
        for (slot, (bone, weight)) in vertex.bones.iter().zip(vertex.weights).enumerate() {
            if weight > 0.0 {
                let index = self.bones.binary_search(bone).ok()?;
                local.bones[slot] = index as u16;
            }
        }
        Some(local)
    }
}
