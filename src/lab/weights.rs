//! Editing the weights: per-vertex lists, locks, brush dabs, automatic
//! weights and the engine note's 8-bit weights.

use glam::Vec3;

use super::{EditError, Lab, SkinningMethod};
use crate::formats::weight_edits::WeightEdit;
use crate::scene::validate::vertex_influences as validate_vertex_influences;
use crate::skin::influences::{
    cap_influences, quantisation_report, quantised_influences, Fitting, QuantisationReport,
    VertexInfluences, MAX_INFLUENCES,
};
use crate::weights::auto_weights::{AutoWeights, AutoWeightsReport};
use crate::weights::paint::{
    dab_with, mirror_bones, mirror_vertices, triangle_neighbours, Brush, DabReport, PaintMode,
    PaintTarget,
};

/// What painting reads of the mesh's shape, each part built when a dab
/// first needs it (on 100,000 vertices tens of milliseconds each): the
/// neighbours for the smoothing brush, the mirror maps for X-mirror.
#[derive(Clone, Debug, Default)]
pub(super) struct Topology {
    neighbours: Option<Vec<Vec<u32>>>,
    mirror: Option<Mirror>,
    /// The copies of each place (see [`super::seams`]).
    pub(super) copies: Option<super::seams::Copies>,
}

/// Each vertex's and each bone's mirror across x = 0.
#[derive(Clone, Debug)]
struct Mirror {
    vertices: Vec<Option<u32>>,
    bones: Vec<u16>,
}

/// What weight editing keeps between dabs: the mesh's neighbours and
/// mirror (built when first needed), the share link's baseline and the
/// buffers a dab reuses.
#[derive(Clone, Debug, Default)]
pub(super) struct WeightEditing {
    pub(super) topology: Topology,
    /// The weights the share link's edits are counted from (the scene as
    /// it opened), when kept.
    pub(super) weights_baseline: Option<Vec<VertexInfluences>>,
    /// Which bones deformed when the baseline was kept.
    pub(super) deforms_baseline: Option<Vec<bool>>,
    /// Buffers a brush dab reuses, so a stroke does not allocate per dab.
    pub(super) dab_scratch: crate::weights::paint::DabScratch,
}

/// The size mirror matching measures its tolerance in: the largest
/// coordinate of the mesh, at least 1.
fn mirror_scale(positions_model: &[Vec3]) -> f32 {
    positions_model
        .iter()
        .fold(0.0_f32, |m, p| m.max(p.abs().max_element()))
        .max(1.0)
}

impl Lab {
    pub(super) fn influences_changed(&mut self) {
        self.derive_skinning_influences();
        self.revisions.influences_revision += 1;
    }

    /// The weights skinning uses when they differ from the stored ones:
    /// each vertex cut to its `cap` largest influences and renormalised
    /// (the engine note's influence cap), then, with 8-bit weights on, their
    /// `unorm8` round trip.
    fn derive_skinning_influences(&mut self) {
        if !self.settings.eight_bit && self.settings.influence_cap >= MAX_INFLUENCES {
            self.derived.quantised = None;
            return;
        }
        let capped: Vec<VertexInfluences> = self
            .scene
            .influences
            .iter()
            .map(|vertex| cap_influences(vertex, self.settings.influence_cap))
            .collect();
        self.derived.quantised = Some(if self.settings.eight_bit {
            quantised_influences(&capped)
        } else {
            capped
        });
    }

    /// Keeps at most `cap` (1–4) influences per vertex for skinning, here and
    /// on the GPU; the stored weights are not changed.
    pub fn set_influence_cap(&mut self, cap: usize) {
        let cap = cap.clamp(1, MAX_INFLUENCES);
        if cap == self.settings.influence_cap {
            return;
        }
        self.settings.influence_cap = cap;
        self.derive_skinning_influences();
        self.revisions.influences_revision += 1;
        self.changed();
    }

    /// The influence cap, 4 when off.
    pub fn influence_cap(&self) -> usize {
        self.settings.influence_cap
    }

    /// Per vertex, the distance between the vertex skinned with its stored
    /// weights and with the weights skinning uses (capped, 8-bit): the
    /// error the GPU limits cost in this pose.
    pub fn influence_errors(&self, method: SkinningMethod) -> Vec<f32> {
        let used = self.skinning_influences().to_vec();
        let stored = self.scene.influences.clone();
        let count = self.vertex_count();
        let (mut exact, mut approximate, mut normals) = (
            vec![Vec3::ZERO; count],
            vec![Vec3::ZERO; count],
            vec![Vec3::ZERO; count],
        );
        for (influences, out) in [(&stored, &mut exact), (&used, &mut approximate)] {
            self.derived
                .skin_influences_into(&self.scene, method, influences, out, &mut normals);
        }
        exact
            .iter()
            .zip(&approximate)
            .map(|(a, b)| a.distance(*b))
            .collect()
    }

    /// Grows by one whenever the weights change (not the pose): the renderer
    /// re-uploads joint indices and weights only then.
    pub fn influences_revision(&self) -> u64 {
        self.revisions.influences_revision
    }

    /// Vertex `vertex`'s (bone, weight) pairs, normalised, largest first.
    pub fn influences(&self, vertex: usize) -> Result<Vec<(u16, f32)>, EditError> {
        self.check_vertex(vertex)?;
        Ok(self.scene.influences[vertex].pairs().collect())
    }

    /// Replaces vertex `vertex`'s influences, validated as in a scene file,
    /// normalised and pruned to four. Says how many pairs were pruned.
    pub fn set_influences(
        &mut self,
        vertex: usize,
        pairs: &[(u32, f32)],
    ) -> Result<Fitting, EditError> {
        self.check_vertex(vertex)?;
        let (influences, fitting) = validate_vertex_influences(vertex, pairs, self.bone_count())?;
        self.check_deforming(vertex, &influences)?;
        self.scene.influences[vertex] = influences;
        self.influences_changed();
        self.changed();
        Ok(fitting)
    }

    /// The vertices whose weights the last dab changed (one may repeat).
    pub fn last_dab_changed(&self) -> &[u32] {
        self.weight_editing.dab_scratch.changed_vertices()
    }

    /// Keeps the weights (and which bones deform) as they are now as the baseline
    /// [`Lab::weight_edits`] compares with: the scene as it opened, for the
    /// share link.
    pub fn keep_weights_as_baseline(&mut self) {
        self.weight_editing.weights_baseline = Some(self.scene.influences.clone());
        self.weight_editing.deforms_baseline = Some(self.scene.deforms.clone());
    }

    /// The vertices whose weights differ from the baseline, increasing,
    /// each with its pairs as [`Lab::influences`] lists them; nothing
    /// without a baseline. One pass over the slots, no copy out of the core.
    pub fn weight_edits(&self) -> Vec<WeightEdit> {
        let Some(baseline) = &self.weight_editing.weights_baseline else {
            return Vec::new();
        };
        self.scene
            .influences
            .iter()
            .zip(baseline)
            .enumerate()
            .filter(|(_, (now, before))| now != before)
            .map(|(vertex, (now, _))| {
                let pairs = now.pairs().map(|(b, w)| (u32::from(b), w)).collect();
                (vertex as u32, pairs)
            })
            .collect()
    }

    /// Sets each edited vertex's weights as [`Lab::set_influences`] does;
    /// all are checked first, so a bad edit changes nothing.
    pub fn apply_weight_edits(&mut self, edits: &[WeightEdit]) -> Result<(), EditError> {
        let mut fitted = Vec::with_capacity(edits.len());
        for (vertex, pairs) in edits {
            let vertex = *vertex as usize;
            self.check_vertex(vertex)?;
            let (influences, _) = validate_vertex_influences(vertex, pairs, self.bone_count())?;
            self.check_deforming(vertex, &influences)?;
            fitted.push((vertex, influences));
        }
        if fitted.is_empty() {
            return Ok(());
        }
        for (vertex, influences) in fitted {
            self.scene.influences[vertex] = influences;
        }
        self.influences_changed();
        self.changed();
        Ok(())
    }

    /// Locks or unlocks bone `bone`: painting and auto-normalisation never
    /// change a locked bone's weights.
    pub fn set_locked(&mut self, bone: usize, locked: bool) -> Result<(), EditError> {
        self.check_bone(bone)?;
        self.settings.locked[bone] = locked;
        Ok(())
    }

    /// Which bones are locked.
    pub fn locked(&self) -> &[bool] {
        &self.settings.locked
    }

    /// The mesh's neighbours, built on first use.
    fn neighbours(&mut self) -> &[Vec<u32>] {
        let mesh = &self.scene.mesh;
        self.weight_editing
            .topology
            .neighbours
            .get_or_insert_with(|| triangle_neighbours(mesh.vertex_count(), &mesh.indices))
    }

    /// The mirror maps, built on first use.
    fn mirror(&mut self) -> &Mirror {
        let scene = &self.scene;
        self.weight_editing.topology.mirror.get_or_insert_with(|| {
            let mesh = &scene.mesh;
            let scale = mirror_scale(&mesh.positions_model);
            let (origins, tips): (Vec<Vec3>, Vec<Vec3>) =
                crate::weights::auto_weights::bone_segments(&scene.skeleton)
                    .into_iter()
                    .unzip();
            Mirror {
                vertices: mirror_vertices(&mesh.positions_model, 1e-4 * scale),
                bones: mirror_bones(&origins, &tips, 1e-4 * scale),
            }
        })
    }

    /// Each bone's mirror across x = 0 (itself if it has none): the mirror
    /// maps' when built, otherwise found now from the bones alone.
    pub fn mirror_bones(&self) -> Vec<u16> {
        if let Some(mirror) = &self.weight_editing.topology.mirror {
            return mirror.bones.clone();
        }
        let (origins, tips): (Vec<Vec3>, Vec<Vec3>) =
            crate::weights::auto_weights::bone_segments(&self.scene.skeleton)
                .into_iter()
                .unzip();
        mirror_bones(
            &origins,
            &tips,
            1e-4 * mirror_scale(&self.scene.mesh.positions_model),
        )
    }

    /// Paints one dab of `brush` at `centre` on `bone`'s weights. `points`
    /// are where the vertices are in the brush's space (screen pixels of the
    /// posed mesh) and `paintable` says which may be painted. With `mirror`,
    /// the mirror vertices get the mirror bone's weight too.
    pub fn paint_dab(
        &mut self,
        points: &[glam::Vec2],
        paintable: &[bool],
        bone: usize,
        centre: glam::Vec2,
        brush: &Brush,
        mirror: bool,
    ) -> Result<DabReport, EditError> {
        self.check_bone(bone)?;
        if !self.scene.deforms[bone] {
            return Err(self.non_deforming(bone));
        }
        if points.len() != self.vertex_count() || paintable.len() != self.vertex_count() {
            return Err(EditError::WrongArity {
                what: "points",
                expected: self.vertex_count(),
                found: points.len().min(paintable.len()),
            });
        }
        if brush.mode == PaintMode::Smooth {
            self.neighbours();
        }
        if mirror {
            self.mirror();
        }
        let topology = &self.weight_editing.topology;
        let target = PaintTarget {
            points,
            paintable,
            // Read only by the smoothing brush, which built them above.
            neighbours: topology.neighbours.as_deref().unwrap_or_default(),
            locked: &self.settings.locked,
            // A mirror bone that deforms nothing takes no weight: the
            // stroke then paints this side alone.
            mirror: topology
                .mirror
                .as_ref()
                .filter(|m| mirror && self.scene.deforms[usize::from(m.bones[bone])])
                .map(|m| (m.vertices.as_slice(), m.bones.as_slice())),
        };
        let report = dab_with(
            &mut self.scene.influences,
            &target,
            bone as u16,
            centre,
            brush,
            &mut self.weight_editing.dab_scratch,
        );
        if report.touched > 0 {
            self.influences_changed();
            // A stroke's dab changes a few hundred vertices: those alone
            // are skinned again, not the whole mesh before the next dab.
            let mut changed = self.weight_editing.dab_scratch.changed_vertices().to_vec();
            // The copies of a painted place (a seam, meshes that meet) alike.
            let copied = self.paint_copies_alike(&changed);
            changed.extend(copied);
            self.weights_changed_at(&changed);
        }
        Ok(report)
    }

    /// Replaces every vertex's weights by automatic ones from the rest pose.
    pub fn apply_auto_weights(&mut self, method: AutoWeights) -> AutoWeightsReport {
        self.apply_auto_weights_with_progress(method, &mut |_, _| {})
    }

    /// [`Lab::apply_auto_weights`], calling `progress(done, total)` as it goes.
    pub fn apply_auto_weights_with_progress(
        &mut self,
        method: AutoWeights,
        progress: &mut dyn FnMut(usize, usize),
    ) -> AutoWeightsReport {
        // A mesh opened to be rigged is bound by its first weights.
        self.bind_static_meshes();
        // The skinned meshes are weighted to the bones that deform (less
        // a glTF joint's zero-length twins, where others are left); rigid
        // and static meshes keep their binding.
        let skeleton = &self.scene.skeleton;
        let deforming: Vec<usize> = (0..skeleton.len())
            .filter(|&b| self.scene.deforms[b])
            .collect();
        let long: Vec<usize> = deforming
            .iter()
            .copied()
            .filter(|&b| skeleton.bones()[b].length > 0.0)
            .collect();
        let bones = if long.is_empty() { deforming } else { long };
        let nearest_non_deforming = self.vertices_nearest_non_deforming();
        let (influences, mut report) = crate::weights::auto_weights::compute_with_progress(
            skeleton,
            &self.scene.mesh,
            method,
            &bones,
            progress,
        );
        for part in &self.scene.meshes {
            if part.binding != crate::scene::MeshBinding::Skinned {
                continue;
            }
            let range = part.first_vertex..part.first_vertex + part.vertex_count;
            self.scene.influences[range.clone()].clone_from_slice(&influences[range]);
        }
        report.nearest_non_deforming = nearest_non_deforming;
        // Only the skinned meshes' vertices were weighted.
        report
            .unreached
            .retain(|&v| self.in_skinned_mesh(v as usize));
        self.influences_changed();
        self.changed();
        report
    }

    /// Sets every vertex's influences at once from four `(bone, weight)`
    /// slots a vertex (`bones[4v + k]`, `weights[4v + k]`; weight 0 marks an
    /// empty slot), each vertex validated as [`Lab::set_influences`] does;
    /// nothing changes when one is refused.
    pub fn set_all_influences(&mut self, bones: &[u16], weights: &[f32]) -> Result<(), EditError> {
        let n = self.vertex_count();
        for (what, found) in [("bones", bones.len()), ("weights", weights.len())] {
            if found != 4 * n {
                return Err(EditError::WrongArity {
                    what,
                    expected: 4 * n,
                    found,
                });
            }
        }
        let mut all = Vec::with_capacity(n);
        for vertex in 0..n {
            let pairs: Vec<(u32, f32)> = (4 * vertex..4 * vertex + 4)
                .filter(|&k| weights[k] != 0.0)
                .map(|k| (u32::from(bones[k]), weights[k]))
                .collect();
            let influences = validate_vertex_influences(vertex, &pairs, self.bone_count())?.0;
            self.check_deforming(vertex, &influences)?;
            all.push(influences);
        }
        self.scene.influences = all;
        // Weights for a mesh opened to be rigged (from a worker's
        // automatic weights) bind it, as the automatic weights here do.
        if !self.bind_static_meshes() {
            self.influences_changed();
            self.changed();
        }
        Ok(())
    }

    /// All vertices' influences.
    pub fn all_influences(&self) -> &[VertexInfluences] {
        &self.scene.influences
    }

    /// Switches the engine note's 8-bit weights on or off. When on, the weights the
    /// skinning uses (here and on the GPU) are the `unorm8` round trip of the
    /// stored ones, `w = round(255 w) / 255` with the sum kept at 255; the
    /// stored `f32` weights are not changed.
    pub fn set_quantised(&mut self, on: bool) {
        if on == self.settings.eight_bit {
            return;
        }
        self.settings.eight_bit = on;
        self.derive_skinning_influences();
        self.revisions.influences_revision += 1;
        self.changed();
    }

    /// Whether 8-bit weights are on.
    pub fn is_quantised(&self) -> bool {
        self.settings.eight_bit
    }

    /// The weights the skinning uses: the stored ones, or their `unorm8`
    /// round trip when 8-bit weights are on.
    pub fn skinning_influences(&self) -> &[VertexInfluences] {
        self.derived
            .quantised
            .as_deref()
            .unwrap_or(&self.scene.influences)
    }

    /// What 8-bit weights cost in the current pose: the weight error, and
    /// the largest distance between a vertex skinned with `f32` and with
    /// `unorm8` weights.
    pub fn quantisation_error(&self, method: SkinningMethod) -> (QuantisationReport, f32) {
        let report = quantisation_report(&self.scene.influences);
        let rounded = quantised_influences(&self.scene.influences);
        let count = self.vertex_count();
        let mut exact = vec![Vec3::ZERO; count];
        let mut approximate = vec![Vec3::ZERO; count];
        let mut normals = vec![Vec3::ZERO; count];
        for (influences, out) in [
            (&self.scene.influences, &mut exact),
            (&rounded, &mut approximate),
        ] {
            self.derived
                .skin_influences_into(&self.scene, method, influences, out, &mut normals);
        }
        let worst = exact
            .iter()
            .zip(&approximate)
            .map(|(a, b)| a.distance(*b))
            .fold(0.0, f32::max);
        (report, worst)
    }
}

#[cfg(test)]
mod tests {
    use super::super::*;
    use crate::weights::paint::Brush;

    #[test]
    fn a_painted_stroke_is_one_undo_step_and_keeps_the_sums() {
        use crate::weights::paint::{Falloff, PaintMode};
        let mut lab = Lab::example("y-junction-unweighted").unwrap();
        let points: Vec<glam::Vec2> = lab
            .scene()
            .mesh
            .positions_model
            .iter()
            .map(|p| p.truncate() * 100.0)
            .collect();
        let paintable = vec![true; points.len()];
        let fork = crate::examples::tests::fork_vertex(lab.scene());
        let before = lab.all_influences().to_vec();
        lab.checkpoint();
        let brush = Brush {
            radius: 30.0,
            strength: 0.5,
            falloff: Falloff::Smooth,
            mode: PaintMode::Add,
            value: 1.0,
        };
        for step in 0..3 {
            let centre = points[fork] + glam::Vec2::new(step as f32 * 3.0, 0.0);
            lab.paint_dab(&points, &paintable, 2, centre, &brush, false)
                .unwrap();
        }
        assert!(lab.all_influences()[fork].weight_of(2) > 0.3);
        assert!(lab
            .all_influences()
            .iter()
            .all(|v| (v.total_weight() - 1.0).abs() < 1e-6));
        assert!(lab.undo());
        assert_eq!(lab.all_influences(), before.as_slice());
    }

    #[test]
    fn eight_bit_weights_are_what_the_skinning_uses() {
        let mut lab = Lab::example("two-bone-smooth").unwrap();
        lab.set_influences(5, &[(0, 0.7), (1, 0.3)]).unwrap();
        lab.set_bone_pose(1, rotation_about(Vec3::Z, 1.0), [0.0; 3], [1.0; 3])
            .unwrap();
        let exact = lab.skinned_positions(SkinningMethod::Lbs).to_vec();
        lab.set_quantised(true);
        let rounded = lab.skinned_positions(SkinningMethod::Lbs).to_vec();
        let expected = crate::skin::influences::quantised_influences(lab.all_influences());
        assert_eq!(lab.skinning_influences(), expected.as_slice());
        let (report, worst) = lab.quantisation_error(SkinningMethod::Lbs);
        let measured = exact
            .iter()
            .zip(&rounded)
            .map(|(a, b)| a.distance(*b))
            .fold(0.0, f32::max);
        assert!(
            worst > 0.0 && (worst - measured).abs() < 1e-6,
            "{worst} vs {measured}"
        );
        assert!(report.max_weight_error > 0.0 && report.max_weight_error <= 1.0 / 255.0);
        // Edits while on are quantised too; off gives the f32 weights back.
        lab.set_influences(6, &[(0, 0.123), (1, 0.877)]).unwrap();
        assert_eq!(lab.skinning_influences()[6].weights[0], 224.0 / 255.0);
        lab.set_quantised(false);
        assert_eq!(lab.skinned_positions(SkinningMethod::Lbs)[5], exact[5]);
    }

    #[test]
    fn the_influence_cap_keeps_the_largest_and_costs_an_error() {
        let mut lab = Lab::example("two-bone-smooth").unwrap();
        lab.set_bone_transform(
            1,
            crate::rig::pose::BoneTransform::from_rotation(glam::Quat::from_rotation_z(1.0)),
        )
        .unwrap();
        assert!(lab
            .influence_errors(SkinningMethod::Lbs)
            .iter()
            .all(|&e| e == 0.0));
        lab.set_influence_cap(1);
        assert_eq!(lab.influence_cap(), 1);
        assert!(lab
            .skinning_influences()
            .iter()
            .all(|v| v.weights[1] == 0.0));
        let errors = lab.influence_errors(SkinningMethod::Lbs);
        assert!(errors.iter().any(|&e| e > 0.1), "blended vertices move");
        lab.set_quantised(true);
        assert!(lab.is_quantised());
        lab.set_influence_cap(4);
        lab.set_quantised(false);
        assert!(lab
            .influence_errors(SkinningMethod::Lbs)
            .iter()
            .all(|&e| e == 0.0));
    }
}
