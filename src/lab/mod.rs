//! The lab: one scene, its current pose and the buffers that skinning fills.
//!
//! This is the state behind the JavaScript `Lab`, kept free of
//! wasm-bindgen so that every edit and every error is tested natively. The
//! undo history lives in `history`, the weight editing in `weights`.

mod animate;
mod capture;
mod cor;
mod deforms;
mod derived;
mod dynamics;
mod gait;
mod history;
mod ik;
mod measure;
mod morphs;
mod palette_formats;
mod rigging;
mod seams;
mod speech;
mod weights;

pub use gait::GaitTrace;
pub use history::{UNDO_BUDGET_BYTES, UNDO_DEPTH};
pub use ik::{IkGoal, DEFAULT_IK_ITERATIONS, LIMIT_OUTLINE_SAMPLES};
pub use palette_formats::{FormatFigures, OTHER_UNIFORM_VECTORS};

use std::borrow::Cow;

use glam::{Mat4, Quat, Vec3};

use crate::rig::pose::BoneTransform;
use crate::scene::validate::bone_transform;
use crate::scene::{Scene, SceneError};
use crate::skin::cor::cor_vertex;
use crate::skin::dual_quat::RigidScale;
use crate::skin::skinning::{dqs_vertex, is_rigid, lbs_vertex};
pub use crate::skin::SkinningMethod;

impl std::str::FromStr for SkinningMethod {
    type Err = EditError;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        match name {
            "lbs" => Ok(Self::Lbs),
            "dqs" => Ok(Self::Dqs),
            "cor" => Ok(Self::Cor),
            _ => Err(EditError::UnknownMethod {
                name: name.to_owned(),
            }),
        }
    }
}

/// Why an edit or a query was refused. The lab is unchanged when it is.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum EditError {
    /// No bone has this index.
    #[error("bone {bone} is out of range (the scene has {bone_count} bones)")]
    BoneOutOfRange {
        /// The index asked for.
        bone: usize,
        /// Bones in the scene.
        bone_count: usize,
    },
    /// No vertex has this index.
    #[error("vertex {vertex} is out of range (the mesh has {vertex_count} vertices)")]
    VertexOutOfRange {
        /// The index asked for.
        vertex: usize,
        /// Vertices in the mesh.
        vertex_count: usize,
    },
    /// An index argument is negative, fractional or not a number.
    #[error("{what}: {value} is not a valid index")]
    NotAnIndex {
        /// Which argument.
        what: &'static str,
        /// The value given.
        value: f64,
    },
    /// An argument has the wrong number of components.
    #[error("{what}: expected {expected} numbers, got {found}")]
    WrongArity {
        /// Which argument.
        what: &'static str,
        /// How many it needs.
        expected: usize,
        /// How many it got.
        found: usize,
    },
    /// The skinning method is neither `lbs` nor `dqs`.
    #[error("unknown skinning method '{name}'; use 'lbs', 'dqs' or 'cor'")]
    UnknownMethod {
        /// The name given.
        name: String,
    },
    /// The example is made by the second module (the file readers', which
    /// builds the examples a first frame does not show), not the module
    /// asked.
    #[error(
        "example '{name}' comes with the file readers: load them first (await loadConverters())"
    )]
    ExampleNeedsReader {
        /// The example's name.
        name: String,
    },
    /// No built-in example has this name.
    #[error("unknown example '{name}'; known examples: {known}")]
    UnknownExample {
        /// The name given.
        name: String,
        /// The names that exist.
        known: String,
    },
    /// Two-bone IK needs a parent to turn.
    #[error("bone {bone} has no parent, so it cannot reach with a two-bone chain")]
    NoParent {
        /// The root bone asked to reach.
        bone: usize,
    },
    /// The scene has no animation clip with this index.
    #[error("animation {clip} does not exist (the scene has {clip_count})")]
    NoSuchClip {
        /// The index asked for.
        clip: usize,
        /// Clips in the scene.
        clip_count: usize,
    },
    /// The scene has no path with this index.
    #[error("path {path} does not exist (the scene has {path_count})")]
    NoSuchPath {
        /// The index asked for.
        path: usize,
        /// Paths in the scene.
        path_count: usize,
    },
    /// A bone with no joint of its own (the common root added under a
    /// glTF skin's several roots) cannot be keyed.
    #[error("bone {bone} has no joint of its own to key")]
    NotKeyable {
        /// The bone.
        bone: usize,
    },
    /// A key reduction's tolerance is negative or not a number.
    #[error("the tolerance {value} is not a distance (0 or more)")]
    BadTolerance {
        /// The value given.
        value: f32,
    },
    /// A clip with more key times than key reduction reads.
    #[error("clip {clip} has more than {max} key times to reduce")]
    TooManyKeyTimes {
        /// The clip.
        clip: usize,
        /// [`crate::rig::key_reduction::MAX_REDUCED_FRAMES`].
        max: usize,
    },
    /// A pose whose transforms are finite but whose product is not: a
    /// translation near `f32`'s largest on two chained bones overflows the
    /// posed frame `R'_i`, and every vertex on it would land at infinity.
    #[error("the pose puts bone {bone} beyond the range of f32: its posed frame is not finite")]
    PoseOverflows {
        /// The first bone whose posed frame is not finite.
        bone: usize,
    },
    /// A clip to put on this scene by joint names names none of its joints.
    #[error("the clip's {unmatched} joints share no name with this scene's bones")]
    NoSharedJoints {
        /// The clip's joints, none matched.
        unmatched: usize,
    },
    /// Centres of rotation computed for weights that have changed since.
    #[error("the centres were computed for weights revision {computed_for}, the weights are at {current}")]
    StaleCentres {
        /// The weights revision they were computed for.
        computed_for: u64,
        /// The weights revision now.
        current: u64,
    },
    /// Weight asked for on a bone that deforms nothing.
    #[error("bone {bone} ('{name}') deforms nothing, so it takes no weight: turn it on first (setBoneDeforms({bone}, true))")]
    NonDeforming {
        /// The bone.
        bone: usize,
        /// Its name.
        name: String,
    },
    /// Every bone would deform nothing while the skin still has weight.
    #[error(
        "bone {bone} is the last bone that deforms: the skin's weight has no other bone to go to"
    )]
    LastDeformingBone {
        /// The bone asked to stop deforming.
        bone: usize,
    },
    /// A value failed the same check a scene file would.
    #[error(transparent)]
    Invalid(#[from] SceneError),
    /// An edit of the skeleton refused.
    #[error(transparent)]
    Rig(#[from] crate::scene::rig_edit::RigEditError),
    /// An IK request that cannot be solved as asked.
    #[error(transparent)]
    Ik(#[from] crate::rig::chain_ik::IkError),
}

/// A scene with its pose, the data derived from them, the undo history and
/// the editing settings. Every change runs the cheap jobs of
/// [`derived::Derived`] at once, so every read takes `&self`.
#[derive(Clone, Debug)]
pub struct Lab {
    scene: Scene,
    /// Each bone's stretch along its own +Y from stretchy IK (1: none):
    /// part of the pose, kept beside the scene's `A_i`.
    stretch: Vec<f32>,
    derived: derived::Derived,
    revisions: Revisions,
    history: history::History,
    settings: Settings,
    weight_editing: weights::WeightEditing,
    /// The swinging bones, when any swing.
    dynamics: Option<crate::rig::dynamics::Dynamics>,
    /// The clip and time [`Lab::set_animation_time`] posed, until the next
    /// other change.
    clip_time: Option<(usize, f32)>,
}

/// The counters a renderer and the autosave compare to know what changed.
#[derive(Clone, Debug)]
struct Revisions {
    /// Grows by one on every change.
    revision: u64,
    /// The skeleton's and the meshes' bindings' number: each new structure
    /// gets the next of `structures_made`, and undo brings back an old
    /// one's, so equal numbers mean the same structure.
    structure: u64,
    /// Structures numbered so far.
    structures_made: u64,
    /// Grows when the weights change.
    influences_revision: u64,
    /// Grows whenever the skinned mesh may have changed anywhere (not when
    /// a dab skins again only the vertices it changed).
    skinning_epoch: u64,
    /// A number no other lab in this process has.
    id: u64,
}

/// How edits are made.
#[derive(Clone, Debug)]
struct Settings {
    /// Whether hand posing keeps to the joint limits.
    limit_posing: bool,
    /// Bones whose weights the brushes leave alone.
    locked: Vec<bool>,
    /// The engine note's 8-bit weights on.
    eight_bit: bool,
    /// At most this many influences per vertex in skinning (1–4).
    influence_cap: usize,
}

static NEXT_LAB_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

impl Lab {
    /// Wraps a validated scene.
    pub fn new(scene: Scene) -> Self {
        let bones = scene.skeleton.len();
        let mut derived = derived::Derived::new(&scene);
        let stretch = vec![1.0; bones];
        derived.pose_job(&scene, &stretch);
        derived.morph_job(&scene);
        Self {
            derived,
            stretch,
            revisions: Revisions {
                revision: 0,
                structure: 0,
                structures_made: 0,
                influences_revision: 0,
                skinning_epoch: 0,
                id: NEXT_LAB_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            },
            history: history::History::default(),
            settings: Settings {
                limit_posing: false,
                locked: vec![false; bones],
                eight_bit: false,
                influence_cap: crate::skin::influences::MAX_INFLUENCES,
            },
            weight_editing: weights::WeightEditing::default(),
            dynamics: None,
            clip_time: None,
            scene,
        }
    }

    /// A number no other lab in this process has: with [`Lab::revision`] it
    /// tells a renderer whether what it uploaded is still current.
    pub fn id(&self) -> u64 {
        self.revisions.id
    }

    /// `F_i = R'_i · A_i⁻¹ = C'_p(i) · T(origin_i) · O_i`: bone `i`'s posed
    /// frame without its own animation, the frame a drag rotates in.
    pub fn model_from_bone_unanimated(&self, bone: usize) -> Result<Mat4, EditError> {
        self.check_bone(bone)?;
        let animation = self.scene.skeleton.bones()[bone].animated(&self.scene.pose[bone]);
        let unstretch = Mat4::from_scale(Vec3::new(1.0, 1.0 / self.stretch[bone], 1.0));
        Ok(self.model_from_bone_posed()[bone] * unstretch * animation.inverse())
    }

    /// Bone `bone`'s stretch along its own +Y (stretchy IK; 1 when none).
    pub fn bone_stretch(&self, bone: usize) -> Result<f32, EditError> {
        self.check_bone(bone)?;
        Ok(self.stretch[bone])
    }

    /// Parses and validates scene JSON.
    pub fn from_json(text: &str) -> Result<Self, SceneError> {
        Scene::from_json(text).map(Self::new)
    }

    /// Reads the first skinned mesh of an embedded glTF 2.0 document, with
    /// its animations.
    pub fn from_gltf(text: &str) -> Result<Self, crate::formats::gltf::GltfError> {
        crate::formats::gltf::read_gltf(text).map(Self::new)
    }

    /// Reads a `.gltf` whose buffers are separate files (`files`: name →
    /// bytes), with its animations.
    pub fn from_gltf_files(
        text: &str,
        files: &std::collections::HashMap<String, Vec<u8>>,
    ) -> Result<Self, crate::formats::gltf::GltfError> {
        crate::formats::gltf::read_gltf_files(text, files).map(Self::new)
    }

    /// Reads the first skinned mesh of a binary glTF 2.0 file (`.glb`), with
    /// its animations.
    pub fn from_glb(bytes: &[u8]) -> Result<Self, crate::formats::gltf::GltfError> {
        crate::formats::gltf::read_glb(bytes).map(Self::new)
    }

    /// The scene as binary glTF: mesh, skin, the weights as edited (not
    /// 8-bit quantised), the current pose as the joints' node transforms,
    /// and every clip.
    pub fn to_glb(&self) -> Result<Vec<u8>, crate::formats::gltf::GltfError> {
        crate::formats::export::glb_from_scene(&self.scene)
    }

    /// One of [`crate::examples::EXAMPLES`].
    pub fn example(name: &str) -> Result<Self, EditError> {
        Self::known_example(name, crate::examples::example(name))
    }

    /// One of [`crate::examples::EXAMPLES`] that this build makes without
    /// the file readers: in the page's wasm module, the examples it builds
    /// itself; the capture (a BVH file) and those of
    /// [`crate::examples::Source::SecondModule`] come from the second module.
    pub fn built_example(name: &str) -> Result<Self, EditError> {
        if crate::examples::find(name).is_some() && !crate::examples::built_here(name) {
            return Err(EditError::ExampleNeedsReader {
                name: name.to_owned(),
            });
        }
        Self::known_example(name, crate::examples::built_example(name))
    }

    fn known_example(name: &str, scene: Option<Scene>) -> Result<Self, EditError> {
        scene
            .map(Self::new)
            .ok_or_else(|| EditError::UnknownExample {
                name: name.to_owned(),
                known: crate::examples::listed_names().join(", "),
            })
    }

    /// The scene, for reading.
    pub fn scene(&self) -> &Scene {
        &self.scene
    }

    /// The scene with the current pose and influences, as JSON.
    pub fn scene_json(&self) -> String {
        self.scene.to_json()
    }

    /// Number of bones.
    pub fn bone_count(&self) -> usize {
        self.scene.skeleton.len()
    }

    /// Number of vertices.
    pub fn vertex_count(&self) -> usize {
        self.scene.mesh.vertex_count()
    }

    /// Grows by one on every change; a renderer compares it to know when to
    /// draw again.
    pub fn revision(&self) -> u64 {
        self.revisions.revision
    }

    /// Grows whenever the skinned mesh may have changed anywhere; between
    /// two values that are equal, only weight-painting dabs changed it, at
    /// their [`Lab::last_dab_changed`] vertices: a brush that projected the
    /// mesh need only project those again.
    pub fn skinning_epoch(&self) -> u64 {
        self.revisions.skinning_epoch
    }

    /// Counts a change and runs the pose and morph jobs; the skinned mesh
    /// is made again when next asked for.
    fn changed(&mut self) {
        self.revisions.revision += 1;
        self.revisions.skinning_epoch += 1;
        self.clip_time = None;
        self.derived.skinned_with = None;
        self.derived.pose_job(&self.scene, &self.stretch);
        self.derived.morph_job(&self.scene);
    }

    /// A change of the weights at `vertices` alone (the pose, morphs and
    /// mesh as they were): a current skinning is brought up to date at
    /// those vertices instead of being dropped, since every vertex is
    /// skinned on its own (the same four-lane kernel, so the same bits as
    /// skinning them all).
    fn weights_changed_at(&mut self, vertices: &[u32]) {
        let Some(method) = self.derived.skinned_with else {
            self.changed();
            return;
        };
        self.revisions.revision += 1;
        let rigid = method == SkinningMethod::Dqs && is_rigid(&self.derived.dqs_palette);
        for &vertex in vertices {
            let vertex = vertex as usize;
            let (position, normal) = self.skin_one(method, vertex, rigid);
            self.derived.skinned_positions[vertex] = position;
            self.derived.skinned_normals[vertex] = normal;
        }
    }

    /// Vertex `vertex` skinned by `method` with the palette, morphs and
    /// weights as they are now (the caller has brought them up to date):
    /// `(position, normal)`, the bits the whole-mesh loop gives it (the
    /// same four-lane kernel). `rigid`: the DQS palette has no scale.
    fn skin_one(&self, method: SkinningMethod, vertex: usize, rigid: bool) -> (Vec3, Vec3) {
        let mesh = self.derived.skinning_base(&self.scene);
        let influences = self.derived.skinning_influences(&self.scene);
        let (position, normal) = (mesh.positions_model[vertex], mesh.normals_model[vertex]);
        let influence = &influences[vertex];
        match method {
            SkinningMethod::Lbs => {
                lbs_vertex(position, normal, influence, &self.derived.lbs_palette)
            }
            SkinningMethod::Dqs => dqs_vertex(
                position,
                normal,
                influence,
                &self.derived.dqs_palette,
                rigid,
            ),
            SkinningMethod::Cor => cor_vertex(
                position,
                normal,
                influence,
                self.derived.centres_or_fresh(&self.scene)[vertex],
                &self.derived.lbs_palette,
                &self.derived.dqs_palette,
            ),
        }
    }

    fn check_bone(&self, bone: usize) -> Result<(), EditError> {
        if bone < self.bone_count() {
            Ok(())
        } else {
            Err(EditError::BoneOutOfRange {
                bone,
                bone_count: self.bone_count(),
            })
        }
    }

    fn check_vertex(&self, vertex: usize) -> Result<(), EditError> {
        if vertex < self.vertex_count() {
            Ok(())
        } else {
            Err(EditError::VertexOutOfRange {
                vertex,
                vertex_count: self.vertex_count(),
            })
        }
    }

    /// Sets bone `bone`'s animation `A_i = T(translation) · Rot(rotation) ·
    /// S(scale)`. The rotation is normalised; NaN, infinity and the zero
    /// quaternion are refused and leave the pose as it was.
    pub fn set_bone_pose(
        &mut self,
        bone: usize,
        rotation: [f32; 4],
        translation: [f32; 3],
        scale: [f32; 3],
    ) -> Result<(), EditError> {
        self.check_bone(bone)?;
        let transform = bone_transform(
            &format!("pose[{bone}]"),
            Some(rotation),
            Some(translation),
            Some(scale),
        )?;
        self.set_bone_transform(bone, transform)
    }

    /// Sets a validated transform (see [`Lab::set_bone_pose`]).
    pub fn set_bone_transform(
        &mut self,
        bone: usize,
        transform: BoneTransform,
    ) -> Result<(), EditError> {
        self.check_bone(bone)?;
        let before = self.scene.pose[bone];
        self.scene.pose[bone] = self.within_limits(bone, transform);
        self.changed();
        self.refuse_overflow(&[(bone, before)])
    }

    /// `transform` with its rotation clamped to bone `bone`'s limits while
    /// posing keeps to them.
    fn within_limits(&self, bone: usize, mut transform: BoneTransform) -> BoneTransform {
        if let (true, Some(limit)) = (self.settings.limit_posing, self.scene.limits[bone]) {
            transform.rotation = limit.clamp(transform.rotation);
        }
        transform
    }

    /// Sets every bone's animation at once: `rotations` (`x, y, z, w` per
    /// bone), `translations` and `scales` (`x, y, z` per bone), in bone
    /// order, each validated as [`Lab::set_bone_pose`] validates one. The
    /// posed frames and palettes are made once for the whole pose, where
    /// setting the bones one by one makes them once per bone. A bad entry,
    /// or a pose whose frames overflow, refuses the whole pose and leaves
    /// the one before.
    pub fn set_pose_arrays(
        &mut self,
        rotations: &[f32],
        translations: &[f32],
        scales: &[f32],
    ) -> Result<(), EditError> {
        let n = self.bone_count();
        let arrays = [
            ("rotations", 4, rotations.len()),
            ("translations", 3, translations.len()),
            ("scales", 3, scales.len()),
        ];
        for (what, per_bone, found) in arrays {
            if found != per_bone * n {
                return Err(EditError::WrongArity {
                    what,
                    expected: per_bone * n,
                    found,
                });
            }
        }
        let mut pose = Vec::with_capacity(n);
        for bone in 0..n {
            let three =
                |values: &[f32]| [values[3 * bone], values[3 * bone + 1], values[3 * bone + 2]];
            let rotation = [0, 1, 2, 3].map(|k| rotations[4 * bone + k]);
            let transform = bone_transform(
                &format!("pose[{bone}]"),
                Some(rotation),
                Some(three(translations)),
                Some(three(scales)),
            )?;
            pose.push(self.within_limits(bone, transform));
        }
        let before: Vec<(usize, BoneTransform)> =
            self.scene.pose.iter().copied().enumerate().collect();
        self.scene.pose = pose;
        self.changed();
        self.refuse_overflow(&before)
    }

    /// Every bone's animation as [`Lab::set_pose_arrays`] takes it:
    /// rotations (4 numbers a bone), translations and scales (3 each).
    pub fn pose_arrays(&self) -> (Vec<f32>, Vec<f32>, Vec<f32>) {
        let pose = &self.scene.pose;
        (
            pose.iter().flat_map(|t| t.rotation.to_array()).collect(),
            pose.iter().flat_map(|t| t.translation.to_array()).collect(),
            pose.iter().flat_map(|t| t.scale.to_array()).collect(),
        )
    }

    /// Puts the bones of `before` back as they were, and says so, when the
    /// pose just set overflows a posed frame ([`EditError::PoseOverflows`]).
    fn refuse_overflow(&mut self, before: &[(usize, BoneTransform)]) -> Result<(), EditError> {
        let Some(bone) = self
            .derived
            .model_from_bone_posed
            .iter()
            .position(|frame| !frame.is_finite())
        else {
            return Ok(());
        };
        for &(index, transform) in before {
            self.scene.pose[index] = transform;
        }
        self.changed();
        Err(EditError::PoseOverflows { bone })
    }

    /// Turns bone `bone` and its parent so that `bone`'s tip reaches
    /// `target_model` (or gets as close as the chain allows): the analytic
    /// two-bone inverse kinematics of [`crate::rig::ik::solve_two_bone`], bending
    /// in the plane of the current bend, or across `fallback_normal` when
    /// the chain is straight. Refused for a root bone.
    pub fn reach(
        &mut self,
        bone: usize,
        target_model: Vec3,
        fallback_normal: Vec3,
    ) -> Result<(), EditError> {
        self.check_bone(bone)?;
        let upper = self.scene.skeleton.bones()[bone]
            .parent
            .map(usize::from)
            .ok_or(EditError::NoParent { bone })?;
        if !target_model.is_finite() {
            return Err(SceneError::NonFinite {
                field: "target".to_owned(),
                value: f32::NAN,
            }
            .into());
        }
        let bones = self.scene.skeleton.bones().to_vec();
        let frames = self.model_from_bone_posed().to_vec();
        let solution = crate::rig::ik::solve_two_bone(
            &frames[upper],
            &frames[bone],
            bones[bone].length,
            target_model,
            fallback_normal,
        );
        let unanimated_upper = self.model_from_bone_unanimated(upper)?;
        let unanimated_lower = solution.model_from_upper
            * crate::rig::skeleton::own_from_child_frame(bones[upper].length)
            * crate::rig::skeleton::parent_tip_from_bone(&bones[bone]);
        let to_transform = |bone: usize, animated: Mat4| {
            bones[bone]
                .animation_from(animated)
                .unwrap_or(BoneTransform::IDENTITY)
        };
        let upper_pose = to_transform(
            upper,
            unanimated_upper.inverse() * solution.model_from_upper,
        );
        let lower_pose = to_transform(bone, unanimated_lower.inverse() * solution.model_from_lower);
        for (index, pose) in [(upper, upper_pose), (bone, lower_pose)] {
            bone_transform(
                &format!("pose[{index}]"),
                Some(pose.rotation.to_array()),
                Some(pose.translation.to_array()),
                Some(pose.scale.to_array()),
            )?;
        }
        let before = [
            (upper, self.scene.pose[upper]),
            (bone, self.scene.pose[bone]),
        ];
        self.scene.pose[upper] = upper_pose;
        self.scene.pose[bone] = lower_pose;
        self.changed();
        self.refuse_overflow(&before)
    }

    /// Bone `bone`'s animation.
    pub fn bone_pose(&self, bone: usize) -> Result<BoneTransform, EditError> {
        self.check_bone(bone)?;
        Ok(self.scene.pose[bone])
    }

    /// Puts every bone back in its rest pose.
    pub fn reset_pose(&mut self) {
        self.scene.pose.fill(BoneTransform::IDENTITY);
        self.stretch.fill(1.0);
        self.changed();
    }

    /// `R'_i` for every bone: the posed own frames, model space.
    pub fn model_from_bone_posed(&self) -> &[Mat4] {
        &self.derived.model_from_bone_posed
    }

    /// The palette `M_i = R'_i · R_i⁻¹` for every bone.
    pub fn palette(&self) -> &[Mat4] {
        &self.derived.palette
    }

    /// Both palettes at once, `M_i` and its DQS split, for a renderer that
    /// uploads one of them without copying either.
    pub fn palettes(&self) -> (&[Mat4], &[RigidScale]) {
        (&self.derived.palette, &self.derived.dqs_palette)
    }

    /// The palette split for DQS, one entry per bone.
    pub fn dqs_palette(&self) -> &[RigidScale] {
        &self.derived.dqs_palette
    }

    /// `M_i` of one bone.
    pub fn skinning_matrix(&self, bone: usize) -> Result<Mat4, EditError> {
        self.check_bone(bone)?;
        Ok(self.palette()[bone])
    }

    /// The skinning job: skins the whole mesh by `method` and keeps the
    /// result until the next change, so that the reads below borrow it
    /// instead of skinning again. A caller that reads the skinned mesh
    /// often (a brush, a renderer's overlay) runs it first.
    pub fn skin(&mut self, method: SkinningMethod) {
        // CoR keeps the centres it skins about: without them, a dab's
        // re-skin of the vertices it changed would compute every centre
        // again for each vertex.
        if method == SkinningMethod::Cor && self.derived.centres.is_none() {
            self.update_centres();
        }
        self.derived.skin_job(&self.scene, method);
    }

    /// The CPU reference: every vertex skinned by `method`, model space
    /// (the skinning job's result when current, otherwise skinned now).
    pub fn skinned_positions(&self, method: SkinningMethod) -> Cow<'_, [Vec3]> {
        self.derived.skinned_positions(&self.scene, method)
    }

    /// Skinned positions and normals together, model space.
    pub fn skinned(&self, method: SkinningMethod) -> (Cow<'_, [Vec3]>, Cow<'_, [Vec3]>) {
        self.derived.skinned(&self.scene, method)
    }

    /// The skinned normals matching [`Lab::skinned_positions`].
    pub fn skinned_normals(&self, method: SkinningMethod) -> Cow<'_, [Vec3]> {
        self.derived.skinned(&self.scene, method).1
    }

    /// One vertex skinned by `method`, without skinning the rest of the
    /// mesh (the whole mesh's result when it is current anyway): what the
    /// page needs per frame for a selected vertex.
    pub fn skinned_vertex(&self, method: SkinningMethod, vertex: usize) -> Result<Vec3, EditError> {
        self.check_vertex(vertex)?;
        if self.derived.skinned_with == Some(method) {
            return Ok(self.derived.skinned_positions[vertex]);
        }
        let rigid = method == SkinningMethod::Dqs && is_rigid(&self.derived.dqs_palette);
        Ok(self.skin_one(method, vertex, rigid).0)
    }
}

/// Turns a number from JavaScript into an index, refusing negative,
/// fractional, NaN and too-large values.
pub fn index_from_f64(what: &'static str, value: f64) -> Result<usize, EditError> {
    if value.is_finite() && value >= 0.0 && value.fract() == 0.0 && value <= u32::MAX as f64 {
        Ok(value as usize)
    } else {
        Err(EditError::NotAnIndex { what, value })
    }
}

/// Checks that `values` has exactly `N` components and narrows them to `f32`.
pub fn fixed_from_f64<const N: usize>(
    what: &'static str,
    values: &[f64],
) -> Result<[f32; N], EditError> {
    if values.len() != N {
        return Err(EditError::WrongArity {
            what,
            expected: N,
            found: values.len(),
        });
    }
    Ok(std::array::from_fn(|k| values[k] as f32))
}

/// A rotation about `axis` by `angle` radians, the quaternion `[x, y, z, w]`
/// the pose API takes.
pub fn rotation_about(axis: Vec3, angle: f32) -> [f32; 4] {
    Quat::from_axis_angle(axis.normalize(), angle).to_array()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refused_edit_changes_nothing() {
        let mut lab = Lab::example("two-bone").unwrap();
        lab.set_bone_pose(1, rotation_about(Vec3::Z, 0.5), [0.0; 3], [1.0; 3])
            .unwrap();
        let before = lab.scene_json();
        let revision = lab.revision();
        let nan = lab.set_bone_pose(1, [f32::NAN, 0.0, 0.0, 1.0], [0.0; 3], [1.0; 3]);
        assert!(nan.unwrap_err().to_string().contains("pose[1].rotation[0]"));
        assert!(lab
            .set_bone_pose(9, [0.0, 0.0, 0.0, 1.0], [0.0; 3], [1.0; 3])
            .is_err());
        let negative = lab.set_influences(0, &[(0, -1.0)]).unwrap_err();
        assert!(negative.to_string().contains("negative"), "{negative}");
        assert!(lab.set_influences(0, &[(5, 1.0)]).is_err());
        assert!(lab.influences(1000).is_err());
        assert_eq!(lab.scene_json(), before);
        assert_eq!(lab.revision(), revision);
    }

    #[test]
    fn unknown_names_list_what_exists() {
        let error = Lab::example("three-bone").unwrap_err().to_string();
        assert!(
            error.contains("'three-bone'") && error.contains("y-junction"),
            "{error}"
        );
        let error = "lsb".parse::<SkinningMethod>().unwrap_err().to_string();
        assert!(error.contains("'lsb'"), "{error}");
    }

    #[test]
    fn reaching_moves_the_tip_of_bone_2_to_the_target() {
        let mut lab = Lab::example("two-bone").unwrap();
        // The strip lies along +X: bone 2 runs from (2,0) to (4,0).
        let target = Vec3::new(3.0, 1.5, 0.0);
        lab.reach(1, target, Vec3::Z).unwrap();
        let tip = lab.model_from_bone_posed()[1].transform_point3(Vec3::new(0.0, 2.0, 0.0));
        assert!(tip.abs_diff_eq(target, 1e-4), "{tip}");
        let root = lab.model_from_bone_posed()[0].transform_point3(Vec3::ZERO);
        assert!(root.abs_diff_eq(Vec3::ZERO, 1e-6));
        let error = lab.reach(0, target, Vec3::Z).unwrap_err().to_string();
        assert!(error.contains("no parent"), "{error}");
        assert!(lab
            .reach(1, Vec3::new(f32::NAN, 0.0, 0.0), Vec3::Z)
            .is_err());
    }

    #[test]
    fn indices_from_javascript_numbers() {
        assert_eq!(index_from_f64("bone", 3.0).unwrap(), 3);
        for bad in [-1.0, 0.5, f64::NAN, f64::INFINITY] {
            assert!(index_from_f64("bone", bad).is_err(), "{bad}");
        }
        assert!(fixed_from_f64::<3>("translation", &[1.0, 2.0]).is_err());
    }

    #[test]
    fn skinned_output_follows_edits() {
        let mut lab = Lab::example("two-bone").unwrap();
        let rest = lab.skinned_positions(SkinningMethod::Lbs).to_vec();
        assert_eq!(rest, lab.scene().mesh.positions_model);
        lab.set_bone_pose(1, rotation_about(Vec3::Z, 1.0), [0.0; 3], [1.0; 3])
            .unwrap();
        assert_ne!(lab.skinned_positions(SkinningMethod::Lbs), rest.as_slice());
        lab.reset_pose();
        assert_eq!(lab.skinned_positions(SkinningMethod::Dqs), rest.as_slice());
    }

    #[test]
    fn one_vertex_skins_as_the_whole_mesh_does() {
        let mut lab = Lab::example("tube").unwrap();
        lab.set_bone_transform(1, BoneTransform::from_rotation(Quat::from_rotation_x(1.3)))
            .unwrap();
        lab.set_bone_transform(
            0,
            BoneTransform {
                scale: Vec3::new(1.0, 1.4, 0.8),
                ..BoneTransform::IDENTITY
            },
        )
        .unwrap();
        for method in [SkinningMethod::Lbs, SkinningMethod::Dqs] {
            let one: Vec<Vec3> = (0..lab.vertex_count())
                .map(|v| lab.skinned_vertex(method, v).unwrap())
                .collect();
            let all = lab.skinned_positions(method).to_vec();
            assert_eq!(one, all, "{method:?}");
        }
        assert!(lab.skinned_vertex(SkinningMethod::Lbs, 99_999).is_err());
    }

    #[test]
    fn a_pose_that_overflows_the_posed_frames_is_refused_and_undone() {
        let mut lab = Lab::example("two-bone").unwrap();
        let huge = [3e38, 0.0, 0.0];
        lab.set_bone_pose(0, [0.0, 0.0, 0.0, 1.0], huge, [1.0; 3])
            .unwrap();
        let before = lab.bone_pose(1).unwrap();
        let error = lab
            .set_bone_pose(1, [0.0, 0.0, 0.0, 1.0], huge, [1.0; 3])
            .unwrap_err();
        assert_eq!(error, EditError::PoseOverflows { bone: 1 });
        assert!(error.to_string().contains("bone 1"), "{error}");
        assert_eq!(lab.bone_pose(1).unwrap(), before);
        assert!(lab
            .skinned_positions(SkinningMethod::Lbs)
            .iter()
            .all(|p| p.is_finite()));
    }
}
