//! What the lab derives from its scene and pose, apart from them: the posed
//! frames `R'_i`, the palette `M_i = R'_i · R_i⁻¹` in the forms the skinning
//! loops read, the morphed base `B + Σ m_k D_k`, the weights skinning uses
//! (capped or 8-bit) and the last skinned mesh.
//!
//! Explicit jobs bring it up to date, each with its inputs named, as
//! ozz-animation's jobs and three.js's `skeleton.update()` do: the lab runs
//! the pose and morph jobs after every change (both are cheap: a matrix
//! product per bone, a comparison of the morph weights), and the skinning
//! job when a caller asks for the whole skinned mesh. So every read of the
//! lab takes `&self`.

use std::borrow::Cow;

use glam::{Mat4, Vec3};

use crate::rig::pose::{pose_to_model_stretched, skinning_palette};
use crate::scene::Scene;
use crate::skin::cor::{centres_of_rotation, centres_with_progress, skin_cor};
use crate::skin::dual_quat::RigidScale;
use crate::skin::influences::VertexInfluences;
use crate::skin::matrix_rows::MatrixRows;
use crate::skin::mesh::Mesh;
use crate::skin::morph::{any_active, morph};
use crate::skin::skinning::{
    dqs_palette, lbs_palette, skin_dqs, skin_dqs_positions, skin_lbs_positions, skin_lbs_rows,
};
use crate::skin::SkinningMethod;

/// The lab's derived data.
#[derive(Clone, Debug)]
pub(super) struct Derived {
    /// `R'_i` for every bone, model space.
    pub(super) model_from_bone_posed: Vec<Mat4>,
    /// `M_i` for every bone.
    pub(super) palette: Vec<Mat4>,
    /// The palette as rows, what the fast LBS loop reads.
    pub(super) lbs_palette: Vec<MatrixRows>,
    /// The palette split for DQS.
    pub(super) dqs_palette: Vec<RigidScale>,
    /// The base morphed by the current weights, when any is not zero.
    pub(super) morphed: Mesh,
    /// The morph weights [`Derived::morphed`] was made with.
    morphed_for: Option<Vec<f32>>,
    /// The weights skinning uses when they differ from the stored ones
    /// (capped, 8-bit); see `weights::derive_skinning_influences`.
    pub(super) quantised: Option<Vec<VertexInfluences>>,
    /// The last whole-mesh skinning, model space.
    pub(super) skinned_positions: Vec<Vec3>,
    /// Its normals.
    pub(super) skinned_normals: Vec<Vec3>,
    /// The method of that skinning, while it is current.
    pub(super) skinned_with: Option<SkinningMethod>,
    /// Each vertex's centre of rotation for CoR (`None`: it keeps LBS), and
    /// the weights revision they were computed for; they stay, stale, after
    /// the weights change until the centres job runs again.
    pub(super) centres: Option<(Vec<Option<Vec3>>, u64)>,
}

impl Derived {
    /// Empty buffers sized for `scene`; run the jobs before reading.
    pub(super) fn new(scene: &Scene) -> Self {
        let bones = scene.skeleton.len();
        let vertices = scene.mesh.vertex_count();
        Self {
            model_from_bone_posed: vec![Mat4::IDENTITY; bones],
            palette: vec![Mat4::IDENTITY; bones],
            lbs_palette: vec![MatrixRows::from_affine(&Mat4::IDENTITY); bones],
            dqs_palette: vec![RigidScale::from_affine(&Mat4::IDENTITY); bones],
            morphed: Mesh::new(Vec::new(), Vec::new()),
            morphed_for: None,
            quantised: None,
            skinned_positions: vec![Vec3::ZERO; vertices],
            skinned_normals: vec![Vec3::ZERO; vertices],
            skinned_with: None,
            centres: None,
        }
    }

    /// The pose job. Inputs: the skeleton, the pose `A_i` and each bone's
    /// stretch. Outputs: `R'_i`, `M_i = R'_i · R_i⁻¹` and its LBS rows and
    /// DQS split.
    pub(super) fn pose_job(&mut self, scene: &Scene, stretch: &[f32]) {
        pose_to_model_stretched(
            &scene.skeleton,
            &scene.pose,
            stretch,
            &mut self.model_from_bone_posed,
        );
        skinning_palette(
            &scene.skeleton,
            &self.model_from_bone_posed,
            &mut self.palette,
        );
        lbs_palette(&self.palette, &mut self.lbs_palette);
        dqs_palette(&self.palette, &mut self.dqs_palette);
    }

    /// The morph job. Inputs: the rest mesh, the targets `D_k` and the
    /// weights `m_k`. Output: the base `B + Σ m_k D_k`, made again only when
    /// the weights differ from those it was made with (the mesh and targets
    /// of a lab never change).
    pub(super) fn morph_job(&mut self, scene: &Scene) {
        if self.morphed_for.as_deref() == Some(&scene.morph_weights[..]) {
            return;
        }
        if any_active(&scene.morph_weights) {
            morph(
                &scene.mesh,
                &scene.morphs,
                &scene.morph_weights,
                &mut self.morphed,
            );
        }
        self.morphed_for = Some(scene.morph_weights.clone());
    }

    /// The mesh skinning starts from: the morphed base, or the rest mesh
    /// when no weight is set.
    pub(super) fn skinning_base<'a>(&'a self, scene: &'a Scene) -> &'a Mesh {
        if any_active(&scene.morph_weights) {
            &self.morphed
        } else {
            &scene.mesh
        }
    }

    /// The influences skinning uses: the capped or 8-bit ones when they
    /// differ from the stored ones.
    pub(super) fn skinning_influences<'a>(&'a self, scene: &'a Scene) -> &'a [VertexInfluences] {
        self.quantised.as_deref().unwrap_or(&scene.influences)
    }

    /// Skins every vertex of `scene` by `method` into `positions` and
    /// `normals`, from the palette and morphed base as they are.
    pub(super) fn skin_into(
        &self,
        scene: &Scene,
        method: SkinningMethod,
        positions: &mut [Vec3],
        normals: &mut [Vec3],
    ) {
        let influences = self.skinning_influences(scene);
        self.skin_influences_into(scene, method, influences, positions, normals);
    }

    /// [`Derived::skin_into`] with `influences` in place of the skinning
    /// influences (what the weight errors compare).
    pub(super) fn skin_influences_into(
        &self,
        scene: &Scene,
        method: SkinningMethod,
        influences: &[VertexInfluences],
        positions: &mut [Vec3],
        normals: &mut [Vec3],
    ) {
        let mesh = self.skinning_base(scene);
        match method {
            SkinningMethod::Lbs => {
                skin_lbs_rows(mesh, influences, &self.lbs_palette, positions, normals)
            }
            SkinningMethod::Dqs => {
                skin_dqs(mesh, influences, &self.dqs_palette, positions, normals)
            }
            SkinningMethod::Cor => skin_cor(
                mesh,
                influences,
                &self.centres_or_fresh(scene),
                &self.lbs_palette,
                &self.dqs_palette,
                positions,
                normals,
            ),
        }
    }

    /// The centres job. Inputs: the rest mesh and the skinning influences.
    /// Output: each vertex's centre of rotation, tagged with
    /// `influences_revision`.
    pub(super) fn centres_job(
        &mut self,
        scene: &Scene,
        influences_revision: u64,
        progress: &mut dyn FnMut(usize, usize),
    ) {
        if self.centres.as_ref().map(|(_, r)| *r) == Some(influences_revision) {
            return;
        }
        let centres = centres_with_progress(&scene.mesh, self.skinning_influences(scene), progress);
        self.centres = Some((centres, influences_revision));
    }

    /// The centres of rotation as the centres job last left them (stale
    /// after a weight edit until it runs again), or computed now when it
    /// never ran.
    pub(super) fn centres_or_fresh(&self, scene: &Scene) -> Cow<'_, [Option<Vec3>]> {
        match &self.centres {
            Some((centres, _)) => Cow::Borrowed(centres),
            None => Cow::Owned(centres_of_rotation(
                &scene.mesh,
                self.skinning_influences(scene),
            )),
        }
    }

    /// The skinning job. Inputs: the palette, the morphed base and the
    /// skinning influences, all current. Output: the skinned mesh, kept
    /// until the next change.
    pub(super) fn skin_job(&mut self, scene: &Scene, method: SkinningMethod) {
        if self.skinned_with == Some(method) {
            return;
        }
        let mut positions = std::mem::take(&mut self.skinned_positions);
        let mut normals = std::mem::take(&mut self.skinned_normals);
        self.skin_into(scene, method, &mut positions, &mut normals);
        self.skinned_positions = positions;
        self.skinned_normals = normals;
        self.skinned_with = Some(method);
    }

    /// The whole mesh skinned by `method`: the job's result when it is
    /// current for that method, otherwise skinned now into new buffers.
    pub(super) fn skinned(
        &self,
        scene: &Scene,
        method: SkinningMethod,
    ) -> (Cow<'_, [Vec3]>, Cow<'_, [Vec3]>) {
        if self.skinned_with == Some(method) {
            return (
                Cow::Borrowed(&self.skinned_positions),
                Cow::Borrowed(&self.skinned_normals),
            );
        }
        let vertices = scene.mesh.vertex_count();
        let mut positions = vec![Vec3::ZERO; vertices];
        let mut normals = vec![Vec3::ZERO; vertices];
        self.skin_into(scene, method, &mut positions, &mut normals);
        (Cow::Owned(positions), Cow::Owned(normals))
    }

    /// The positions of [`Derived::skinned`] alone, bit for bit: LBS and DQS
    /// skin them without the normals (LBS's cofactor and normalisation are
    /// about a third of its work); CoR skins both.
    pub(super) fn skinned_positions(
        &self,
        scene: &Scene,
        method: SkinningMethod,
    ) -> Cow<'_, [Vec3]> {
        if self.skinned_with == Some(method) {
            return Cow::Borrowed(&self.skinned_positions);
        }
        let mesh = self.skinning_base(scene);
        let influences = self.skinning_influences(scene);
        let mut positions = vec![Vec3::ZERO; mesh.vertex_count()];
        match method {
            SkinningMethod::Lbs => {
                skin_lbs_positions(mesh, influences, &self.lbs_palette, &mut positions)
            }
            SkinningMethod::Dqs => {
                skin_dqs_positions(mesh, influences, &self.dqs_palette, &mut positions)
            }
            SkinningMethod::Cor => return self.skinned(scene, method).0,
        }
        Cow::Owned(positions)
    }
}
