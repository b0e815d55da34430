//! What the example builders share: a mesh assembled triangle by triangle
//! with outward faces, and bones named and oriented in a line.

use glam::{Quat, Vec3};

use crate::scene::doc::{BoneDoc, MeshDoc, SceneDoc};

/// Collects triangles, turning each so its face normal points along
/// `outward` (counter-clockwise seen from there).
#[derive(Default)]
pub(crate) struct MeshBuilder {
    pub(crate) positions: Vec<Vec3>,
    indices: Vec<u32>,
    influences: Vec<Vec<(u32, f32)>>,
}

impl MeshBuilder {
    pub(crate) fn vertex(&mut self, position: Vec3, influences: Vec<(u32, f32)>) -> u32 {
        self.positions.push(position);
        self.influences.push(influences);
        (self.positions.len() - 1) as u32
    }

    pub(crate) fn triangle(&mut self, [a, b, c]: [u32; 3], outward: Vec3) {
        let [pa, pb, pc] = [a, b, c].map(|v| self.positions[v as usize]);
        if (pb - pa).cross(pc - pa).dot(outward) >= 0.0 {
            self.indices.extend([a, b, c]);
        } else {
            self.indices.extend([a, c, b]);
        }
    }

    /// The quad `a b c d` (in order around its edge) as two triangles.
    /// Vertices so far.
    pub(crate) fn vertex_count(&self) -> usize {
        self.positions.len()
    }

    /// Moves the vertices `range` by `offset`.
    pub(crate) fn shift(&mut self, range: std::ops::Range<usize>, offset: Vec3) {
        for position in &mut self.positions[range] {
            *position += offset;
        }
    }

    pub(crate) fn quad(&mut self, [a, b, c, d]: [u32; 4], outward: Vec3) {
        self.triangle([a, b, c], outward);
        self.triangle([a, c, d], outward);
    }

    pub(crate) fn into_doc(self, bones: Vec<BoneDoc>) -> SceneDoc {
        SceneDoc {
            bones,
            mesh: MeshDoc {
                positions: self.positions.iter().flat_map(|p| p.to_array()).collect(),
                indices: self.indices,
            },
            influences: self.influences,
            pose: Vec::new(),
            morphs: Vec::new(),
            morph_weights: Vec::new(),
            animations: Vec::new(),
            rig: None,
            paths: Vec::new(),
            meshes: Vec::new(),
            colours: Vec::new(),
            look: None,
        }
    }
}

/// `count` bones of `length` in a straight line up +Y, each the child of
/// the one before, named `"{prefix} 1"`, `"{prefix} 2"`, ….
pub(crate) fn bone_chain(prefix: &str, count: usize, length: f32) -> Vec<BoneDoc> {
    (0..count)
        .map(|k| {
            let parent = k.checked_sub(1).map(|p| p as u32);
            bone(
                &format!("{prefix} {}", k + 1),
                parent,
                Quat::IDENTITY,
                length,
            )
        })
        .collect()
}

pub(crate) fn bone(name: &str, parent: Option<u32>, orientation: Quat, length: f32) -> BoneDoc {
    BoneDoc {
        orientation: orientation.to_array(),
        ..BoneDoc::plain(name, parent, [0.0; 3], length)
    }
}
