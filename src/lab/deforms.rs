//! Which bones deform. A rig from another tool holds bones that deform
//! nothing in its author's hands: end bones, IK controllers, a root at the
//! floor, the nodes above the armature. Such a bone takes no weight on a
//! skinned mesh, from the automatic methods, the brush or typed weights.

use super::{EditError, Lab};
use crate::scene::MeshBinding;
use crate::skin::influences::VertexInfluences;
use crate::weights::auto_weights::{bone_segments, nearest_bone};

impl Lab {
    /// Whether bone `bone` may take skin.
    pub fn bone_deforms(&self, bone: usize) -> Result<bool, EditError> {
        self.check_bone(bone)?;
        Ok(self.scene.deforms[bone])
    }

    /// Marks bone `bone` as deforming or not. A bone turned off hands the
    /// weight it holds on skinned meshes to its nearest deforming ancestor,
    /// or, where it has none, to the deforming bone nearest each vertex.
    /// Returns how many vertices' weights moved; refused when the skin
    /// would be left with no bone to hang on.
    pub fn set_bone_deforms(&mut self, bone: usize, on: bool) -> Result<usize, EditError> {
        self.check_bone(bone)?;
        if self.scene.deforms[bone] == on {
            return Ok(0);
        }
        let held: Vec<usize> = self
            .skinned_vertices()
            .filter(|&v| self.scene.influences[v].weight_of(bone as u16) > 0.0)
            .collect();
        let others = (0..self.bone_count()).any(|b| b != bone && self.scene.deforms[b]);
        if !on && !held.is_empty() && !others {
            return Err(EditError::LastDeformingBone { bone });
        }
        self.scene.deforms[bone] = on;
        if on || held.is_empty() {
            self.changed();
            return Ok(0);
        }
        let skeleton = &self.scene.skeleton;
        let ancestor = std::iter::successors(skeleton.bones()[bone].parent, |&p| {
            skeleton.bones()[usize::from(p)].parent
        })
        .find(|&p| self.scene.deforms[usize::from(p)]);
        let segments = bone_segments(skeleton);
        for &vertex in &held {
            let heir = ancestor.unwrap_or_else(|| {
                let p = self.scene.mesh.positions_model[vertex];
                nearest_bone(p, &segments, |b| self.scene.deforms[b]).0
            });
            let mut pairs: Vec<(u16, f32)> = Vec::new();
            for (b, w) in self.scene.influences[vertex].pairs() {
                let b = if usize::from(b) == bone { heir } else { b };
                match pairs.iter_mut().find(|(kept, _)| *kept == b) {
                    Some(pair) => pair.1 += w,
                    None => pairs.push((b, w)),
                }
            }
            self.scene.influences[vertex] = VertexInfluences::from_pairs(&pairs).0;
        }
        self.influences_changed();
        self.changed();
        Ok(held.len())
    }

    /// The bones whose flag differs from the baseline the share link counts
    /// from ([`Lab::keep_weights_as_baseline`]), each with its flag now;
    /// nothing without a baseline.
    pub fn deform_edits(&self) -> Vec<(usize, bool)> {
        let Some(baseline) = &self.weight_editing.deforms_baseline else {
            return Vec::new();
        };
        (0..self.bone_count())
            .filter(|&b| baseline[b] != self.scene.deforms[b])
            .map(|b| (b, self.scene.deforms[b]))
            .collect()
    }

    /// The vertices of the skinned meshes, in order.
    pub(super) fn skinned_vertices(&self) -> impl Iterator<Item = usize> + '_ {
        self.scene
            .meshes
            .iter()
            .filter(|part| part.binding == MeshBinding::Skinned)
            .flat_map(|part| part.first_vertex..part.first_vertex + part.vertex_count)
    }

    /// Whether `vertex` belongs to a skinned mesh.
    pub(super) fn in_skinned_mesh(&self, vertex: usize) -> bool {
        self.scene.meshes.iter().any(|part| {
            part.binding == MeshBinding::Skinned
                && (part.first_vertex..part.first_vertex + part.vertex_count).contains(&vertex)
        })
    }

    /// Refuses weight on a bone that deforms nothing at `vertex` of a
    /// skinned mesh (a rigid part's vertices follow their node, deforming
    /// or not).
    pub(super) fn check_deforming(
        &self,
        vertex: usize,
        influences: &VertexInfluences,
    ) -> Result<(), EditError> {
        let skinned = self.in_skinned_mesh(vertex);
        match influences
            .pairs()
            .find(|&(b, w)| w > 0.0 && !self.scene.deforms[usize::from(b)])
        {
            Some((bone, _)) if skinned => Err(self.non_deforming(usize::from(bone))),
            _ => Ok(()),
        }
    }

    /// The error for weight asked of non-deforming `bone`.
    pub(super) fn non_deforming(&self, bone: usize) -> EditError {
        EditError::NonDeforming {
            bone,
            name: self.scene.skeleton.bones()[bone].name.clone(),
        }
    }

    /// The vertices of the skinned meshes that lie nearer to a bone that
    /// deforms nothing than to any that deforms: those an automatic method
    /// hands to the nearest deforming bone instead. None when every bone
    /// deforms.
    pub fn vertices_nearest_non_deforming(&self) -> Vec<u32> {
        if self.scene.deforms.iter().all(|&d| d) {
            return Vec::new();
        }
        let segments = bone_segments(&self.scene.skeleton);
        self.skinned_vertices()
            .filter(|&v| {
                let p = self.scene.mesh.positions_model[v];
                !self.scene.deforms[usize::from(nearest_bone(p, &segments, |_| true).0)]
            })
            .map(|v| v as u32)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::weights::auto_weights::AutoWeights;
    use crate::weights::paint::{Brush, Falloff, PaintMode};

    fn y_junction() -> Lab {
        Lab::example("y-junction").unwrap()
    }

    #[test]
    fn the_examples_bones_all_deform() {
        for name in ["two-bone", "y-junction", "tube", "fingers", "leg"] {
            let lab = Lab::example(name).unwrap();
            assert!(
                (0..lab.bone_count()).all(|b| lab.bone_deforms(b).unwrap()),
                "{name}"
            );
        }
    }

    #[test]
    fn a_root_turned_off_hands_its_skin_to_the_nearest_deforming_bone() {
        let mut lab = y_junction();
        // The stem is the root: no ancestor to inherit its skin.
        let moved = lab.set_bone_deforms(0, false).unwrap();
        assert!(moved > 0);
        assert!(lab.all_influences().iter().all(|i| i.weight_of(0) == 0.0));
        assert!(lab.all_influences().iter().all(|i| i.total_weight() > 0.99));
        // Automatic weights leave it out, and say how many it was nearest.
        let report = lab.apply_auto_weights(AutoWeights::NearestBone);
        assert!(!report.nearest_non_deforming.is_empty());
        assert!(lab.all_influences().iter().all(|i| i.weight_of(0) == 0.0));
    }

    #[test]
    fn the_last_deforming_bone_keeps_the_skin() {
        let mut lab = y_junction();
        lab.set_bone_deforms(1, false).unwrap();
        lab.set_bone_deforms(2, false).unwrap();
        assert!(matches!(
            lab.set_bone_deforms(0, false),
            Err(EditError::LastDeformingBone { bone: 0 })
        ));
        assert!(lab.bone_deforms(0).unwrap());
    }

    #[test]
    fn the_brush_and_typed_weights_give_no_skin_to_a_bone_that_deforms_nothing() {
        let mut lab = y_junction();
        lab.set_bone_deforms(2, false).unwrap();
        let before = lab.all_influences().to_vec();
        let points: Vec<glam::Vec2> = lab
            .scene()
            .mesh
            .positions_model
            .iter()
            .map(|p| p.truncate())
            .collect();
        let brush = Brush {
            radius: 100.0,
            strength: 1.0,
            falloff: Falloff::Smooth,
            mode: PaintMode::Add,
            value: 1.0,
        };
        let paintable = vec![true; points.len()];
        let refused = lab.paint_dab(&points, &paintable, 2, glam::Vec2::ZERO, &brush, false);
        assert!(matches!(
            refused,
            Err(EditError::NonDeforming { bone: 2, .. })
        ));
        let typed = lab.set_influences(0, &[(2, 1.0)]).unwrap_err().to_string();
        assert!(typed.contains("deforms nothing"), "{typed}");
        assert_eq!(lab.all_influences(), before.as_slice());
        // Turned on again, it paints.
        lab.set_bone_deforms(2, true).unwrap();
        let painted = lab.paint_dab(&points, &paintable, 2, glam::Vec2::ZERO, &brush, false);
        assert!(painted.unwrap().touched > 0);
    }

    #[test]
    fn the_share_links_baseline_names_the_flags_changed_since() {
        let mut lab = y_junction();
        lab.keep_weights_as_baseline();
        assert!(lab.deform_edits().is_empty());
        lab.set_bone_deforms(1, false).unwrap();
        assert_eq!(lab.deform_edits(), vec![(1, false)]);
    }

    #[test]
    fn scene_json_keeps_the_flag_and_refuses_weight_on_a_bone_that_deforms_nothing() {
        let mut lab = y_junction();
        lab.set_bone_deforms(2, false).unwrap();
        let json = lab.scene_json();
        assert!(json.contains("\"deforms\": false") || json.contains("\"deforms\":false"));
        let again = Lab::from_json(&json).unwrap();
        assert!(!again.bone_deforms(2).unwrap());
        // The same flag with weight still on the bone: refused by name.
        let mut doc: serde_json::Value =
            serde_json::from_str(&Lab::example("y-junction").unwrap().scene_json()).unwrap();
        doc["bones"][2]["deforms"] = false.into();
        let error = Lab::from_json(&doc.to_string()).unwrap_err().to_string();
        assert!(error.contains("bones[2].deforms is false"), "{error}");
    }
}
