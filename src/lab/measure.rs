//! Figures of the skinned mesh for the teaching views.

use glam::Vec3;

use super::Lab;
use crate::skin::volume::enclosed_volume;
use crate::skin::SkinningMethod;
use crate::weights::auto_weights::{bone_segments, closest_on_segment, segments_in};

impl Lab {
    /// The volume the skin encloses in the current pose, skinned by
    /// `method` (open ends closed by fans), model units³.
    pub fn volume(&self, method: SkinningMethod) -> f32 {
        enclosed_volume(&self.skinned_positions(method), &self.scene.mesh.indices)
    }

    /// What one keyframe costs, bytes, stored two ways (the engine note's
    /// contrast): every vertex's position (md2-style vertex animation,
    /// `3 × 4` bytes a vertex) against every bone's transform (skeletal,
    /// rotation, translation and scale: `10 × 4` bytes a bone).
    pub fn keyframe_bytes(&self) -> (usize, usize) {
        (12 * self.vertex_count(), 40 * self.bone_count())
    }

    /// How far the skin leaves the rest surface when skinned by `method`:
    /// each vertex's distance from the nearest of its bones (as segments,
    /// origin to tip) posed, against the same at rest. `(outward, inward)`:
    /// the largest growth (DQS's bulge at a bent joint) and the largest
    /// shrink (LBS's collapse at a twist), model units, both 0 or more.
    pub fn surface_departure(&self, method: SkinningMethod) -> (f32, f32) {
        // At rest: where the mesh was bound to each bone, the frame its
        // rest positions are in.
        let rest = bone_segments(&self.scene.skeleton);
        let posed = segments_in(self.model_from_bone_posed(), &self.scene.skeleton);
        let skinned = self.skinned_positions(method);
        let nearest = |segments: &[(Vec3, Vec3)], point: Vec3, vertex: usize| {
            self.scene.influences[vertex]
                .pairs()
                .map(|(bone, _)| {
                    let (a, b) = segments[usize::from(bone)];
                    point.distance(closest_on_segment(point, a, b))
                })
                .fold(f32::INFINITY, f32::min)
        };
        let mut outward = 0.0_f32;
        let mut inward = 0.0_f32;
        for (vertex, &at_rest) in self.scene.mesh.positions_model.iter().enumerate() {
            let before = nearest(&rest, at_rest, vertex);
            let after = nearest(&posed, skinned[vertex], vertex);
            if before.is_finite() && after.is_finite() {
                outward = outward.max(after - before);
                inward = inward.max(before - after);
            }
        }
        (outward, inward)
    }

    /// The volume the rest mesh encloses.
    pub fn rest_volume(&self) -> f32 {
        enclosed_volume(&self.scene.mesh.positions_model, &self.scene.mesh.indices)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::rotation_about;

    #[test]
    fn a_twist_collapses_lbs_a_bend_bulges_dqs_and_cor_does_neither_much() {
        let mut lab = Lab::example("tube").unwrap();
        lab.update_centres();
        lab.set_bone_pose(1, rotation_about(Vec3::Y, 3.0), [0.0; 3], [1.0; 3])
            .unwrap();
        const METHODS: [SkinningMethod; 3] = [
            SkinningMethod::Lbs,
            SkinningMethod::Dqs,
            SkinningMethod::Cor,
        ];
        let twist = METHODS.map(|m| lab.surface_departure(m));
        lab.set_bone_pose(1, rotation_about(Vec3::Z, 1.6), [0.0; 3], [1.0; 3])
            .unwrap();
        let bend = METHODS.map(|m| lab.surface_departure(m));
        println!(
            "twist (out, in): LBS {:?} DQS {:?} CoR {:?}",
            twist[0], twist[1], twist[2]
        );
        println!(
            "bend (out, in): LBS {:?} DQS {:?} CoR {:?}",
            bend[0], bend[1], bend[2]
        );
        assert!(twist[0].1 > 0.3, "LBS collapses at the twist");
        assert!(
            twist[1].1 < 0.05 && twist[2].1 < 0.05,
            "DQS and CoR keep it"
        );
        assert!(
            bend[1].0 > 1.5 * bend[2].0,
            "DQS bulges at the bend, CoR less"
        );
        assert!(
            bend[0].1 > 1.5 * bend[2].1,
            "LBS collapses inside the bend, CoR less"
        );
    }
}
