//! Bones and their rest frames, as seed 000 defines them.
//!
//! A bone has an origin (in the frame its parent hands on), a rest
//! orientation and a length along its own +Y. It owns two frames: its **own
//! frame** (green in the seed's figure), which turns about the origin, and the
//! **frame it hands to its children** (red), the own frame moved `length`
//! along +Y, so a child starts at its parent's tip.

use glam::{Mat4, Quat, Vec3};

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
}

/// A validated skeleton: bones ordered parent before child, with the rest
/// frames `R_i` and their inverses precomputed.
#[derive(Clone, Debug)]
pub struct Skeleton {
    bones: Vec<Bone>,
    model_from_bone_rest: Vec<Mat4>,
    bone_from_model_rest: Vec<Mat4>,
}

/// The most bones a skeleton may have: joint indices travel to the GPU as
/// 16-bit integers.
pub const MAX_BONES: usize = u16::MAX as usize;

impl Skeleton {
    /// Validates `bones` and precomputes the rest frames.
    ///
    /// Refuses an empty list, a parent that does not exist, a parent listed
    /// after its child, a cycle, a second root, a non-finite number, a zero
    /// orientation and a negative length. A non-unit orientation is
    /// normalised.
    pub fn new(mut bones: Vec<Bone>) -> Result<Self, SkeletonError> {
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
            if bone.length < 0.0 {
                return Err(SkeletonError::NegativeLength {
                    bone: index,
                    length: bone.length,
                });
            }
            let norm = bone.orientation.length();
            if norm < 1e-6 {
                return Err(SkeletonError::ZeroQuaternion {
                    field: format!("bones[{index}].orientation"),
                });
            }
            // Unit to float rounding stays bit for bit, so a scene survives a
            // save and a reload exactly.
            if (norm - 1.0).abs() > 1e-6 {
                bone.orientation /= norm;
            }
        }
        let mut model_from_bone_rest = vec![Mat4::IDENTITY; bones.len()];
        let identity_pose = vec![crate::rig::pose::BoneTransform::IDENTITY; bones.len()];
        compose_frames(&bones, &identity_pose, &mut model_from_bone_rest);
        let bone_from_model_rest = model_from_bone_rest.iter().map(Mat4::inverse).collect();
        Ok(Self {
            bones,
            model_from_bone_rest,
            bone_from_model_rest,
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

    /// `R_i⁻¹`: takes a model-space point into bone `i`'s own frame (step 1 of
    /// seed 000).
    pub fn bone_from_model_rest(&self) -> &[Mat4] {
        &self.bone_from_model_rest
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
/// `F_i = F_p(i) · T(0, length_p, 0) · T(origin_i) · O_i · A_i`.
///
/// With identity animations this is the rest frame `R_i`; with a pose it is
/// the posed frame `R'_i`.
///
/// # Panics
///
/// If the slices' lengths differ from the number of bones.
pub(crate) fn compose_frames(
    bones: &[Bone],
    pose: &[crate::rig::pose::BoneTransform],
    model_from_bone: &mut [Mat4],
) {
    assert_eq!(pose.len(), bones.len(), "one transform per bone");
    assert_eq!(model_from_bone.len(), bones.len(), "one frame per bone");
    for (index, bone) in bones.iter().enumerate() {
        let model_from_parent_tip = match bone.parent {
            Some(parent) => {
                let parent = usize::from(parent);
                model_from_bone[parent] * own_from_child_frame(bones[parent].length)
            }
            None => Mat4::IDENTITY,
        };
        model_from_bone[index] =
            model_from_parent_tip * parent_tip_from_bone(bone) * pose[index].to_mat4();
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
        Bone {
            name: String::new(),
            parent,
            origin_in_parent: Vec3::ZERO,
            orientation: Quat::IDENTITY,
            length,
        }
    }

    #[test]
    fn rest_frames_chain_through_the_parents_tip() {
        let skeleton = Skeleton::new(vec![bone(None, 2.0), bone(Some(0), 3.0)]).unwrap();
        let child_origin = skeleton.model_from_bone_rest()[1].transform_point3(Vec3::ZERO);
        assert_eq!(child_origin, Vec3::new(0.0, 2.0, 0.0));
        let roundtrip = skeleton.bone_from_model_rest()[1] * skeleton.model_from_bone_rest()[1];
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
