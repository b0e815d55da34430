//! Bones and their rest frames, as the skinning note defines them.
//!
//! A bone has an origin (in the frame its parent hands on), a rest
//! orientation and a length along its own +Y. It owns two frames: its **own
//! frame** (green in the skinning note's figure), which turns about the origin, and the
//! **frame it hands to its children** (red), the own frame moved `length`
//! along +Y, so a child starts at its parent's tip.
//!
//! The same struct is a glTF joint (one joint model for every scene): a
//! joint may carry a rest scale `S_i` along its own axes and a constant turn
//! `U_i` from its own axes to the drawn bone's (so that +Y reaches its
//! first child), and its skin may bind it with any affine inverse bind
//! matrix. For a bone written as a bone, `S_i = 1`, `U_i = I` and the bind
//! is `R_i⁻¹`, and every formula below reduces to the lecture's.

use glam::{Mat4, Quat, Vec3};

use crate::rig::transform::{unit_rotation, BoneTransform};

/// Why a list of bones is not a skeleton. Each variant names the bone or
/// field at fault; the scene error wraps these unchanged.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SkeletonError {
    /// The list is empty.
    #[error("bones: a scene needs at least one bone")]
    EmptyBones,
    /// More bones than joint indices can address.
    #[error("bones: {count} bones, at most {max} are supported")]
    TooManyBones {
        /// Bones given.
        count: usize,
        /// The limit.
        max: usize,
    },
    /// `bones[bone].parent` is not a bone of this skeleton.
    #[error("bones[{bone}].parent: bone {parent} does not exist")]
    UnknownParent {
        /// The child.
        bone: usize,
        /// The missing parent.
        parent: usize,
    },
    /// `bones[bone].parent` comes after the bone; parents must come first.
    #[error("bones[{bone}].parent: parent {parent} is listed after its child; list parents first")]
    ParentAfterChild {
        /// The child.
        bone: usize,
        /// The parent listed too late.
        parent: usize,
    },
    /// Following parents from `bone` leads back to it.
    #[error("bones[{bone}].parent: the parent chain loops back to bone {bone}")]
    Cycle {
        /// A bone on the loop.
        bone: usize,
    },
    /// Two bones have no parent.
    #[error("bones[{second}].parent: a second root (bone {first} is already the root); a scene has exactly one")]
    MultipleRoots {
        /// The first root.
        first: usize,
        /// The second root.
        second: usize,
    },
    /// `bones[bone].length` is negative.
    #[error("bones[{bone}].length: {length} is negative")]
    NegativeLength {
        /// The bone.
        bone: usize,
        /// Its length.
        length: f32,
    },
    /// An orientation is the zero quaternion.
    #[error("{field}: the zero quaternion is not a rotation")]
    ZeroQuaternion {
        /// The field, e.g. `bones[2].orientation`.
        field: String,
    },
    /// A rest scale with a zero component.
    #[error("bones[{bone}].scale: a zero scale cannot be undone")]
    ZeroScale {
        /// The bone.
        bone: usize,
    },
    /// An inverse bind matrix that cannot be inverted.
    #[error("bones[{bone}].inverseBind: the matrix is not invertible")]
    SingularBind {
        /// The bone.
        bone: usize,
    },
    /// A number is NaN or infinite.
    #[error("{field}: {value} is not a finite number")]
    NonFinite {
        /// The field and index, e.g. `bones[0].origin[1]`.
        field: String,
        /// The value found.
        value: f32,
    },
}

/// A bone as authored: where it starts, which way it points, how long it is.
#[derive(Clone, Debug, PartialEq)]
pub struct Bone {
    /// A label for the views; need not be unique.
    pub name: String,
    /// Index of the parent bone, always smaller than this bone's index; `None`
    /// for the root.
    pub parent: Option<u16>,
    /// The origin, in the frame the parent hands on (model space for the root).
    pub origin_in_parent: Vec3,
    /// The rest orientation `O_i`, relative to the frame the parent hands on.
    /// A unit quaternion.
    pub orientation: Quat,
    /// Distance from origin to tip along the bone's own +Y; where its
    /// children's frame starts.
    pub length: f32,
    /// `U_i`: the turn from the joint's own axes to the bone's drawn axes
    /// (identity for a bone authored as a bone). Its rest scale and any
    /// scale of its pose act along the joint's own axes.
    pub turn: Quat,
    /// `S_i`: the joint's rest scale along its own axes; the pose's scale
    /// multiplies it. `(1, 1, 1)` for a bone authored as a bone.
    pub rest_scale: Vec3,
}

impl Bone {
    /// A bone as the lecture writes one: no rest scale, no turn.
    pub fn new(
        name: &str,
        parent: Option<u16>,
        origin: Vec3,
        orientation: Quat,
        length: f32,
    ) -> Self {
        Self {
            name: name.to_owned(),
            parent,
            origin_in_parent: origin,
            orientation,
            length,
            turn: Quat::IDENTITY,
            rest_scale: Vec3::ONE,
        }
    }

    /// The bone's length in model space, `|F · (0, length, 0)|` for its
    /// frame `F` (`model_from_bone`): its own length unless a glTF joint's
    /// frame carries scale.
    pub fn model_length(&self, model_from_bone: &Mat4) -> f32 {
        model_from_bone
            .transform_vector3(Vec3::new(0.0, self.length, 0.0))
            .length()
    }

    /// The bones note's relative matrix `L_i = T(origin_i) · O_i · T(0, length_i, 0)`:
    /// the frame this bone hands to its children, relative to the frame its
    /// parent hands on, at rest; returned as its three factors and their
    /// product.
    pub fn relative_factors(&self) -> [Mat4; 4] {
        let origin = Mat4::from_translation(self.origin_in_parent);
        let orientation = Mat4::from_quat(self.orientation);
        let length = own_from_child_frame(self.length);
        [origin, orientation, length, origin * orientation * length]
    }

    /// Whether this is a lecture bone: no rest scale and no turn, so that
    /// its animation is exactly the matrix `A_i`.
    pub fn is_plain(&self) -> bool {
        self.turn == Quat::IDENTITY && self.rest_scale == Vec3::ONE
    }

    /// The animated part of the bone's frame, right of `T(origin_i) · O_i`:
    /// `A_i = T(t) · Rot(q) · S(s)` for a lecture bone, and
    /// `T(t) · Rot(q) · U⁻¹ · S(S_i ⊙ s) · U` for a joint with a rest scale
    /// or a turn (scale along the joint's own axes, as glTF has it).
    pub fn animated(&self, animation: &BoneTransform) -> Mat4 {
        if self.is_plain() {
            return animation.to_mat4();
        }
        Mat4::from_rotation_translation(animation.rotation, animation.translation)
            * Mat4::from_quat(self.turn.inverse())
            * Mat4::from_scale(self.rest_scale * animation.scale)
            * Mat4::from_quat(self.turn)
    }

    /// The animation whose [`Bone::animated`] matrix is `animated` (as
    /// near as translation, rotation and scale along the joint's axes can
    /// come): the inverse of [`Bone::animated`]. `None` when it does not
    /// decompose.
    pub fn animation_from(&self, animated: Mat4) -> Option<BoneTransform> {
        let unturned = if self.is_plain() {
            animated
        } else {
            animated * Mat4::from_quat(self.turn.inverse())
        };
        let (scale, rotation, translation) = unturned.to_scale_rotation_translation();
        let (rotation, scale) = if self.is_plain() {
            (rotation, scale)
        } else {
            // `Rot(q) · U⁻¹ · S` decomposes as a rotation `q · U⁻¹` and `S`.
            (rotation * self.turn, scale / self.rest_scale)
        };
        let finite = scale.is_finite() && rotation.is_finite() && translation.is_finite();
        finite.then(|| BoneTransform {
            translation,
            rotation: rotation.normalize(),
            scale,
        })
    }
}

/// A validated skeleton: bones ordered parent before child, with the rest
/// frames `R_i` and their inverses precomputed.
#[derive(Clone, Debug)]
pub struct Skeleton {
    bones: Vec<Bone>,
    model_from_bone_rest: Vec<Mat4>,
    bone_from_model_bind: Vec<Mat4>,
    model_from_bone_bind: Vec<Mat4>,
    /// The inverse bind matrices as given (glTF's `IBM_i`, model space to
    /// the joint's own axes); `None` for a bone bound where it rests.
    inverse_binds: Vec<Option<Mat4>>,
}

/// The most bones a skeleton may have: joint indices travel to the GPU as
/// 16-bit integers.
pub const MAX_BONES: usize = u16::MAX as usize;

impl Skeleton {
    /// Validates `bones` and precomputes the rest frames; each bone is
    /// bound where it rests (`bind_i = R_i⁻¹`).
    ///
    /// Refuses an empty list, a parent that does not exist, a parent listed
    /// after its child, a cycle, a second root, a non-finite number, a zero
    /// orientation and a negative length. A non-unit orientation is
    /// normalised.
    pub fn new(bones: Vec<Bone>) -> Result<Self, SkeletonError> {
        let count = bones.len();
        Self::with_binds(bones, vec![None; count])
    }

    /// As [`Skeleton::new`], with bone `i` bound by the inverse bind matrix
    /// `inverse_binds[i]` where given (glTF's `IBM_i`: any invertible affine
    /// matrix, scale and shear allowed), so `bone_from_model_bind_i =
    /// U_i⁻¹ · IBM_i`. A bone left `None` is bound where it rests, `R_i⁻¹`.
    ///
    /// # Panics
    ///
    /// If `binds` does not have one entry per bone.
    ///
    /// Longer than a screen: the skeleton's checks (count, parents, one root)
    /// and then each bone's frames and binds in parent order, sharing the
    /// frames computed so far.
    pub fn with_binds(
        mut bones: Vec<Bone>,
        inverse_binds: Vec<Option<Mat4>>,
    ) -> Result<Self, SkeletonError> {
        assert_eq!(inverse_binds.len(), bones.len(), "one bind per bone");
        if bones.is_empty() {
            return Err(SkeletonError::EmptyBones);
        }
        if bones.len() > MAX_BONES {
            return Err(SkeletonError::TooManyBones {
                count: bones.len(),
                max: MAX_BONES,
            });
        }
        let mut root: Option<usize> = None;
        for index in 0..bones.len() {
            check_parent(&bones, index)?;
            if bones[index].parent.is_none() {
                if let Some(first) = root {
                    return Err(SkeletonError::MultipleRoots {
                        first,
                        second: index,
                    });
                }
                root = Some(index);
            }
            let bone = &mut bones[index];
            check_finite(
                &format!("bones[{index}].origin"),
                &bone.origin_in_parent.to_array(),
            )?;
            check_finite(
                &format!("bones[{index}].orientation"),
                &bone.orientation.to_array(),
            )?;
            check_finite(&format!("bones[{index}].length"), &[bone.length])?;
            check_finite(
                &format!("bones[{index}].scale"),
                &bone.rest_scale.to_array(),
            )?;
            check_finite(&format!("bones[{index}].turn"), &bone.turn.to_array())?;
            if bone.rest_scale.min_element().abs() < 1e-12 {
                return Err(SkeletonError::ZeroScale { bone: index });
            }
            bone.turn = unit_rotation(bone.turn).ok_or_else(|| SkeletonError::ZeroQuaternion {
                field: format!("bones[{index}].turn"),
            })?;
            if bone.length < 0.0 {
                return Err(SkeletonError::NegativeLength {
                    bone: index,
                    length: bone.length,
                });
            }
            // Unit to float rounding stays bit for bit, so a scene survives a
            // save and a reload exactly.
            bone.orientation =
                unit_rotation(bone.orientation).ok_or_else(|| SkeletonError::ZeroQuaternion {
                    field: format!("bones[{index}].orientation"),
                })?;
        }
        let mut model_from_bone_rest = vec![Mat4::IDENTITY; bones.len()];
        let identity_pose = vec![crate::rig::transform::BoneTransform::IDENTITY; bones.len()];
        compose_frames(&bones, &identity_pose, &mut model_from_bone_rest);
        let mut bone_from_model_bind = Vec::with_capacity(bones.len());
        for (index, bind) in inverse_binds.iter().enumerate() {
            let bind = match bind {
                None => model_from_bone_rest[index].inverse(),
                Some(bind) => {
                    check_finite(
                        &format!("bones[{index}].inverseBind"),
                        &bind.to_cols_array(),
                    )?;
                    if bind.determinant().abs() < 1e-18 {
                        return Err(SkeletonError::SingularBind { bone: index });
                    }
                    Mat4::from_quat(bones[index].turn.inverse()) * *bind
                }
            };
            bone_from_model_bind.push(bind);
        }
        let model_from_bone_bind = bone_from_model_bind.iter().map(Mat4::inverse).collect();

        Ok(Self {
            bones,
            model_from_bone_rest,
            bone_from_model_bind,
            model_from_bone_bind,
            inverse_binds,
        })
    }

    /// The bones, parent before child.
    pub fn bones(&self) -> &[Bone] {
        &self.bones
    }

    /// Each bone's length, in index order.
    pub fn lengths(&self) -> Vec<f32> {
        self.bones.iter().map(|bone| bone.length).collect()
    }

    /// Number of bones.
    pub fn len(&self) -> usize {
        self.bones.len()
    }

    /// Always false: a skeleton has at least one bone.
    pub fn is_empty(&self) -> bool {
        self.bones.is_empty()
    }

    /// `R_i = C_p(i) · T(origin_i) · O_i`: bone `i`'s own frame in model
    /// space, rest pose.
    pub fn model_from_bone_rest(&self) -> &[Mat4] {
        &self.model_from_bone_rest
    }

    /// The bind: takes a model-space point of the mesh as it was bound into
    /// bone `i`'s own frame (step 1 of the skinning note). `R_i⁻¹` for a bone bound
    /// where it rests; `U_i⁻¹ · IBM_i` for a glTF joint.
    pub fn bone_from_model_bind(&self) -> &[Mat4] {
        &self.bone_from_model_bind
    }

    /// The inverse of [`Skeleton::bone_from_model_bind`]: bone `i`'s frame
    /// where the mesh was bound to it, in model space.
    pub fn model_from_bone_bind(&self) -> &[Mat4] {
        &self.model_from_bone_bind
    }

    /// Whether bone `i` is bound somewhere else than its rest frame (by a
    /// glTF inverse bind matrix), so `M_i` is not `I` at rest.
    pub fn is_bound_elsewhere(&self, bone: usize) -> bool {
        self.inverse_binds[bone].is_some()
    }

    /// Bone `i`'s inverse bind matrix as given (glTF's `IBM_i`), or `None`
    /// for a bone bound where it rests.
    pub fn inverse_bind(&self, bone: usize) -> Option<Mat4> {
        self.inverse_binds[bone]
    }
}

/// `T(0, length, 0)`: from a bone's own frame to the frame it hands to its
/// children.
pub fn own_from_child_frame(length: f32) -> Mat4 {
    Mat4::from_translation(Vec3::new(0.0, length, 0.0))
}

/// `T(origin_i) · O_i`: the bone's own frame relative to the frame its parent
/// hands on, before any animation.
pub fn parent_tip_from_bone(bone: &Bone) -> Mat4 {
    Mat4::from_rotation_translation(bone.orientation, bone.origin_in_parent)
}

/// Composes the own frames of all bones, parent before child:
/// `F_i = F_p(i) · T(0, length_p, 0) · T(origin_i) · O_i · A_i` (with
/// [`Bone::animated`] standing for `A_i` on a joint with scale or a turn).
///
/// With identity animations this is the rest frame `R_i`; with a pose it is
/// the posed frame `R'_i`.
///
/// # Panics
///
/// If the slices' lengths differ from the number of bones.
pub(crate) fn compose_frames(
    bones: &[Bone],
    pose: &[crate::rig::transform::BoneTransform],
    model_from_bone: &mut [Mat4],
) {
    compose_stretched_frames(bones, pose, None, model_from_bone);
}

/// [`compose_frames`] with bone `i` stretched by `stretch[i]` along its own
/// +Y (IK's stretchy joints): `F_i = C_p · T(origin_i) · O_i · A_i ·
/// S_y(σ_i)` with the frame its parent hands on `C_p = F_p · T(0, ℓ_p, 0) ·
/// S_y(1/σ_p)`, so a child starts at the stretched tip `σ_p ℓ_p` but does
/// not inherit the stretch; the skinning palette `F_i · R_i⁻¹` carries it.
/// `None` (or every `σ = 1`) is [`compose_frames`].
///
/// # Panics
///
/// If the slices' lengths differ from the number of bones.
pub(crate) fn compose_stretched_frames(
    bones: &[Bone],
    pose: &[crate::rig::transform::BoneTransform],
    stretch: Option<&[f32]>,
    model_from_bone: &mut [Mat4],
) {
    assert_eq!(pose.len(), bones.len(), "one transform per bone");
    assert_eq!(model_from_bone.len(), bones.len(), "one frame per bone");
    let sigma = |bone: usize| stretch.and_then(|s| s.get(bone)).copied().unwrap_or(1.0);
    for (index, bone) in bones.iter().enumerate() {
        let model_from_parent_tip = match bone.parent {
            Some(parent) => {
                let parent = usize::from(parent);
                let hand_on = model_from_bone[parent] * own_from_child_frame(bones[parent].length);
                let s = sigma(parent);
                if s == 1.0 {
                    hand_on
                } else {
                    hand_on * Mat4::from_scale(Vec3::new(1.0, 1.0 / s, 1.0))
                }
            }
            None => Mat4::IDENTITY,
        };
        let frame =
            model_from_parent_tip * parent_tip_from_bone(bone) * bone.animated(&pose[index]);
        let s = sigma(index);
        model_from_bone[index] = if s == 1.0 {
            frame
        } else {
            frame * Mat4::from_scale(Vec3::new(1.0, s, 1.0))
        };
    }
}

fn check_parent(bones: &[Bone], index: usize) -> Result<(), SkeletonError> {
    let Some(parent) = bones[index].parent else {
        return Ok(());
    };
    let parent = usize::from(parent);
    if parent >= bones.len() {
        return Err(SkeletonError::UnknownParent {
            bone: index,
            parent,
        });
    }
    if parent < index {
        return Ok(());
    }
    // The parent comes later (or is the bone itself): tell a loop apart from a
    // mere ordering mistake by walking up until the chain ends or repeats.
    let mut current = parent;
    for _ in 0..=bones.len() {
        if current == index {
            return Err(SkeletonError::Cycle { bone: index });
        }
        match bones[current].parent {
            Some(next) if usize::from(next) < bones.len() => current = usize::from(next),
            _ => break,
        }
    }
    Err(SkeletonError::ParentAfterChild {
        bone: index,
        parent,
    })
}

/// The first NaN or infinity in `values`, named `field[k]` (or `field`
/// for a single number), with its value.
pub fn first_non_finite(field: &str, values: &[f32]) -> Option<(String, f32)> {
    let k = values.iter().position(|value| !value.is_finite())?;
    let name = if values.len() == 1 {
        field.to_owned()
    } else {
        format!("{field}[{k}]")
    };
    Some((name, values[k]))
}

fn check_finite(field: &str, values: &[f32]) -> Result<(), SkeletonError> {
    match first_non_finite(field, values) {
        None => Ok(()),
        Some((field, value)) => Err(SkeletonError::NonFinite { field, value }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bone(parent: Option<u16>, length: f32) -> Bone {
        Bone::new("", parent, Vec3::ZERO, Quat::IDENTITY, length)
    }

    #[test]
    fn rest_frames_chain_through_the_parents_tip() {
        let skeleton = Skeleton::new(vec![bone(None, 2.0), bone(Some(0), 3.0)]).unwrap();
        let child_origin = skeleton.model_from_bone_rest()[1].transform_point3(Vec3::ZERO);
        assert_eq!(child_origin, Vec3::new(0.0, 2.0, 0.0));
        let roundtrip = skeleton.bone_from_model_bind()[1] * skeleton.model_from_bone_rest()[1];
        assert!(roundtrip.abs_diff_eq(Mat4::IDENTITY, 1e-6));
    }

    #[test]
    fn orientation_turns_the_bone_and_its_children() {
        let mut root = bone(None, 2.0);
        root.orientation = Quat::from_rotation_z(-std::f32::consts::FRAC_PI_2);
        let skeleton = Skeleton::new(vec![root, bone(Some(0), 1.0)]).unwrap();
        let child_tip = skeleton.model_from_bone_rest()[1].transform_point3(Vec3::Y);
        assert!(child_tip.abs_diff_eq(Vec3::new(3.0, 0.0, 0.0), 1e-6));
    }

    #[test]
    fn origin_is_measured_in_the_parents_tip_frame() {
        let mut child = bone(Some(0), 1.0);
        child.origin_in_parent = Vec3::new(0.5, 0.0, 0.0);
        let skeleton = Skeleton::new(vec![bone(None, 2.0), child]).unwrap();
        let origin = skeleton.model_from_bone_rest()[1].transform_point3(Vec3::ZERO);
        assert_eq!(origin, Vec3::new(0.5, 2.0, 0.0));
    }

    #[test]
    fn orientation_is_normalised() {
        let mut root = bone(None, 1.0);
        root.orientation = Quat::from_xyzw(0.0, 0.0, 0.0, 2.0);
        let skeleton = Skeleton::new(vec![root]).unwrap();
        assert_eq!(skeleton.bones()[0].orientation, Quat::IDENTITY);
    }

    #[test]
    fn each_bad_hierarchy_gets_its_own_error() {
        assert_eq!(
            Skeleton::new(vec![]).unwrap_err(),
            SkeletonError::EmptyBones
        );
        assert_eq!(
            Skeleton::new(vec![bone(None, 1.0), bone(Some(7), 1.0)]).unwrap_err(),
            SkeletonError::UnknownParent { bone: 1, parent: 7 }
        );
        assert_eq!(
            Skeleton::new(vec![bone(Some(1), 1.0), bone(None, 1.0)]).unwrap_err(),
            SkeletonError::ParentAfterChild { bone: 0, parent: 1 }
        );
        assert_eq!(
            Skeleton::new(vec![
                bone(None, 1.0),
                bone(Some(2), 1.0),
                bone(Some(1), 1.0)
            ])
            .unwrap_err(),
            SkeletonError::Cycle { bone: 1 }
        );
        assert_eq!(
            Skeleton::new(vec![bone(Some(0), 1.0)]).unwrap_err(),
            SkeletonError::Cycle { bone: 0 }
        );
        assert_eq!(
            Skeleton::new(vec![bone(None, 1.0), bone(None, 1.0)]).unwrap_err(),
            SkeletonError::MultipleRoots {
                first: 0,
                second: 1
            }
        );
        assert_eq!(
            Skeleton::new(vec![bone(None, -1.0)]).unwrap_err(),
            SkeletonError::NegativeLength {
                bone: 0,
                length: -1.0
            }
        );
        let mut zero = bone(None, 1.0);
        zero.orientation = Quat::from_xyzw(0.0, 0.0, 0.0, 0.0);
        assert_eq!(
            Skeleton::new(vec![zero]).unwrap_err(),
            SkeletonError::ZeroQuaternion {
                field: "bones[0].orientation".to_owned()
            }
        );
        let mut nan = bone(None, 1.0);
        nan.origin_in_parent.y = f32::NAN;
        assert!(matches!(
            Skeleton::new(vec![nan]).unwrap_err(),
            SkeletonError::NonFinite { field, .. } if field == "bones[0].origin[1]"
        ));
    }
}
