//! A clip of one skeleton played on another by joint names, as a motion
//! file without its character (a Mixamo animation, a BVH capture) is put
//! on an open model. Names match once their namespace is left off and
//! the case of Latin letters ignored (`mixamorig:LeftArm`,
//! `mixamorig1:LeftArm` and `leftarm` are one joint); where a name finds
//! none, the other common naming is tried (a BVH capture's `Chest` is
//! Mixamo's `Spine2`, its `LeftToe` Mixamo's `LeftToeBase`).
//!
//! Each matched joint points where the source's joint points. The two
//! skeletons are first brought to a common reference: each matched joint's
//! rest direction (its bone's axis in model space) is turned onto the
//! source's, by the shortest turn `C`, so a capture that rests arms down
//! plays on a character that rests in a T-pose or an A-pose with its arms
//! where the capture has them. Then the world delta `D = rot(R'ˢ) ·
//! rot(Rˢ)⁻¹` of the source's posed and rest frames is the target's on top
//! of that turn, `rot(R'ᵗ) = D · C · rot(Rᵗ)`. Where the parents
//! correspond, that is a constant product on each key,
//!
//! ```text
//! q_Aᵗ = L · q_Aˢ · R,   R = rot(Rˢ)⁻¹ · C · rot(Rᵗ),   L = rot(Rᵗ)⁻¹ · C_p⁻¹ · rot(Rˢ)
//! ```
//!
//! with `R` each skeleton's rest frame of the joint (model space, Y up) and
//! `C_p` the turn of the nearest matched joint above (the identity at the
//! top), so the keys are converted one by one and interpolate as before.
//! Where the rests point alike `C` is the identity and `L = R⁻¹`: two rigs
//! whose joints are oriented differently (a Mixamo rig and one from another
//! tool) move alike, and rigs alike copy the keys. A rest direction more
//! than 120° from the source's is taken for a rig that faces another way,
//! not for another rest pose, and is not turned. The topmost matched joint
//! (the hips) also takes its translation, turned by the same `L`, and no
//! other joint does, so the target keeps its own proportions.

use glam::{Quat, Vec3};

use super::animation::{Channel, Clip, Target};
use super::skeleton::Skeleton;

/// The cosine of the largest angle between a target joint's rest direction
/// and its source's that is taken for another rest pose (120°); beyond it
/// the rigs face different ways and the joint is not turned.
const MAX_REST_TURN_COS: f32 = -0.5;

/// A joint's name without its namespace, Latin letters in lower case (a
/// name's own script is kept as written): `mixamorig:Hips` → `hips`.
pub fn joint_key(name: &str) -> String {
    name.rsplit(':').next().unwrap_or(name).to_ascii_lowercase()
}

/// Names of one joint in two common namings (BVH captures and Mixamo's),
/// as [`joint_key`]s, each way round.
const ALIASES: [(&str, &str); 4] = [
    ("chest", "spine2"),
    ("upperchest", "spine2"),
    ("lefttoe", "lefttoebase"),
    ("righttoe", "righttoebase"),
];

/// The bone of `to` that source joint name `name` plays on: the same
/// [`joint_key`], or else its other common name.
fn matching_bone(name: &str, to: &Skeleton) -> Option<usize> {
    let key = joint_key(name);
    let find = |wanted: &str| to.bones().iter().position(|b| joint_key(&b.name) == wanted);
    find(&key).or_else(|| {
        ALIASES.iter().find_map(|&(a, b)| {
            if a == key {
                find(b)
            } else if b == key {
                find(a)
            } else {
                None
            }
        })
    })
}

/// What retargeting made: the clip on the target, and which of the
/// source's animated joints found no joint of the same name.
#[derive(Clone, Debug, PartialEq)]
pub struct Retargeted {
    /// The clip, its channels on the target's bones.
    pub clip: Clip,
    /// Target bones the clip moves.
    pub matched: usize,
    /// Names of the source's animated joints without a match.
    pub unmatched: Vec<String>,
}

/// `clip` of skeleton `from` as a clip of skeleton `to` (see the module
/// documentation).
///
/// Longer than a screen: the steps of the module documentation in order (joints
/// matched by name, the topmost matched joint, each joint's rest turn `C` and
/// its parent's `C_p`, the keys copied through them), sharing the two
/// skeletons' rest rotations.
pub fn retarget(clip: &Clip, from: &Skeleton, to: &Skeleton) -> Retargeted {
    let (from_rest, to_rest) = (rest_rotations(from), rest_rotations(to));
    let target_of = |source: usize| matching_bone(&from.bones()[source].name, to);
    // The topmost matched target joint: the fewest ancestors.
    let depth = |bone: usize| {
        let mut d = 0;
        let mut at = to.bones()[bone].parent;
        while let Some(p) = at {
            d += 1;
            at = to.bones()[usize::from(p)].parent;
        }
        d
    };
    let top = clip
        .channels
        .iter()
        .filter_map(|c| target_of(c.bone))
        .min_by_key(|&b| depth(b));
    // Each target joint the clip turns, with its source joint.
    let mut source_of: Vec<Option<usize>> = vec![None; to.len()];
    for channel in &clip.channels {
        if let (Some(bone), Target::Rotation) = (target_of(channel.bone), channel.target) {
            source_of[bone] = Some(channel.bone);
        }
    }
    // C: the turn of target joint `bone`'s rest direction onto its source's.
    let align = |bone: usize| -> Quat {
        let Some(source) = source_of[bone] else {
            return Quat::IDENTITY;
        };
        let (toward, from_direction) = (from_rest[source] * Vec3::Y, to_rest[bone] * Vec3::Y);
        if from_direction.dot(toward) < MAX_REST_TURN_COS {
            Quat::IDENTITY
        } else {
            Quat::from_rotation_arc(from_direction, toward)
        }
    };
    // C_p: the turn of the nearest joint above that the clip turns.
    let align_above = |bone: usize| -> Quat {
        let mut at = to.bones()[bone].parent;
        while let Some(parent) = at {
            let parent = usize::from(parent);
            if source_of[parent].is_some() {
                return align(parent);
            }
            at = to.bones()[parent].parent;
        }
        Quat::IDENTITY
    };
    let mut channels = Vec::new();
    let mut moved = Vec::new();
    let mut unmatched = Vec::new();
    for channel in &clip.channels {
        let Some(bone) = target_of(channel.bone) else {
            let name = from.bones()[channel.bone].name.clone();
            if !unmatched.contains(&name) {
                unmatched.push(name);
            }
            continue;
        };
        let moves = match channel.target {
            Target::Rotation => true,
            Target::Translation => Some(bone) == top,
            Target::Scale => false,
        };
        if !moves {
            continue;
        }
        let right = from_rest[channel.bone].inverse() * align(bone) * to_rest[bone];
        let left = to_rest[bone].inverse() * align_above(bone).inverse() * from_rest[channel.bone];
        // Values and tangents alike: the map is linear in either.
        let convert = |v: [f32; 4]| -> [f32; 4] {
            match channel.target {
                Target::Rotation => (left * Quat::from_array(v) * right).to_array(),
                _ => (left * Vec3::new(v[0], v[1], v[2])).extend(0.0).to_array(),
            }
        };
        if !moved.contains(&bone) {
            moved.push(bone);
        }
        channels.push(Channel {
            bone,
            target: channel.target,
            times: channel.times.clone(),
            values: channel.values.iter().map(|&v| convert(v)).collect(),
            tangents: channel
                .tangents
                .iter()
                .map(|pair| pair.map(convert))
                .collect(),
            interpolation: channel.interpolation,
        });
    }
    Retargeted {
        clip: Clip {
            name: clip.name.clone(),
            duration: clip.duration,
            channels,
            weights: None,
        },
        matched: moved.len(),
        unmatched,
    }
}

/// Each bone's rest orientation in model space, `rot(R_i)` (its rest
/// frame's rotation, any scale taken out).
fn rest_rotations(skeleton: &Skeleton) -> Vec<Quat> {
    skeleton
        .model_from_bone_rest()
        .iter()
        .map(|frame| frame.to_scale_rotation_translation().1.normalize())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rig::animation::{Animation, Interpolation};
    use crate::rig::pose::{pose_to_model, BoneTransform};
    use crate::rig::skeleton::Bone;
    use glam::Mat4;
    use proptest::prelude::*;

    #[test]
    fn names_match_without_their_namespace_or_case() {
        assert_eq!(joint_key("mixamorig:LeftArm"), "leftarm");
        assert_eq!(joint_key("mixamorig1:LeftArm"), joint_key("LEFTARM"));
        assert_eq!(joint_key("Hips"), "hips");
    }

    fn unit(q: [f32; 4]) -> Quat {
        let q = Quat::from_array(q);
        if q.length() < 0.1 {
            Quat::IDENTITY
        } else {
            q.normalize()
        }
    }

    /// A chain of four bones named as a rig names them, with the given
    /// rest orientations and turns (`namespace` prefixes the names).
    fn chain(namespace: &str, orientations: &[Quat], turns: &[Quat]) -> Skeleton {
        let names = ["Hips", "Spine", "Neck", "Head"];
        let bones = (0..4)
            .map(|i| Bone {
                turn: turns[i],
                ..Bone::new(
                    &format!("{namespace}{}", names[i]),
                    i.checked_sub(1).map(|p| p as u16),
                    Vec3::new(0.1 * i as f32, 0.0, 0.0),
                    orientations[i],
                    1.0,
                )
            })
            .collect();
        Skeleton::new(bones).expect("a valid chain")
    }

    fn frames(skeleton: &Skeleton, clip: &Clip, time: f32) -> Vec<Mat4> {
        let animation = Animation {
            clips: vec![clip.clone()],
        };
        let mut pose = vec![BoneTransform::IDENTITY; skeleton.len()];
        animation.pose_at(0, time, &mut pose);
        let mut posed = vec![Mat4::IDENTITY; skeleton.len()];
        pose_to_model(skeleton, &pose, &mut posed);
        posed
    }

    fn rotation_of(frame: &Mat4) -> Quat {
        frame.to_scale_rotation_translation().1
    }

    prop_compose! {
        fn rotation()(q in prop::array::uniform4(-1.0f32..1.0)) -> Quat { unit(q) }
    }

    proptest! {
        /// Two rigs of one hierarchy, their joints oriented and turned at
        /// random and resting in different poses: every joint of the target
        /// points where the source's joint points at every time of the clip
        /// (its rest turned onto the source's), unless its rest points more
        /// than 120° away, where it turns from its rest as the source's
        /// joint turns from its own (the same model-space delta); the hips
        /// move as far.
        #[test]
        fn the_target_points_where_the_source_points(
            from_orientations in prop::collection::vec(rotation(), 4),
            from_turns in prop::collection::vec(rotation(), 4),
            to_orientations in prop::collection::vec(rotation(), 4),
            to_turns in prop::collection::vec(rotation(), 4),
            keys in prop::collection::vec(rotation(), 8),
            shift in prop::array::uniform3(-1.0f32..1.0),
        ) {
            let from = chain("mixamorig:", &from_orientations, &from_turns);
            let to = chain("", &to_orientations, &to_turns);
            let mut channels: Vec<Channel> = (0..4)
                .map(|bone| Channel {
                    bone,
                    target: Target::Rotation,
                    times: vec![0.0, 1.0],
                    values: vec![keys[2 * bone].to_array(), keys[2 * bone + 1].to_array()],
                    tangents: Vec::new(),
                    interpolation: Interpolation::Linear,
                })
                .collect();
            channels.push(Channel {
                bone: 0,
                target: Target::Translation,
                times: vec![0.0, 1.0],
                values: vec![[0.0; 4], [shift[0], shift[1], shift[2], 0.0]],
                tangents: Vec::new(),
                interpolation: Interpolation::Linear,
            });
            let clip = Clip { name: "walk".into(), duration: 1.0, channels, weights: None };
            let result = retarget(&clip, &from, &to);
            prop_assert_eq!(result.matched, 4);
            for time in [0.0, 0.3, 0.75, 1.0] {
                let (source, target) = (frames(&from, &clip, time), frames(&to, &result.clip, time));
                for bone in 0..4 {
                    let rest_of = |skeleton: &Skeleton| rotation_of(&skeleton.model_from_bone_rest()[bone]);
                    if (rest_of(&from) * Vec3::Y).dot(rest_of(&to) * Vec3::Y) >= -0.49 {
                        let (pointing_source, pointing_target) = (rotation_of(&source[bone]) * Vec3::Y, rotation_of(&target[bone]) * Vec3::Y);
                        prop_assert!(pointing_source.dot(pointing_target) > 1.0 - 1e-4, "bone {} at {}: {} vs {}", bone, time, pointing_source, pointing_target);
                    } else if (rest_of(&from) * Vec3::Y).dot(rest_of(&to) * Vec3::Y) < -0.51 {
                        let delta_source = rotation_of(&source[bone]) * rest_of(&from).inverse();
                        let delta_target = rotation_of(&target[bone]) * rest_of(&to).inverse();
                        prop_assert!(delta_source.dot(delta_target).abs() > 1.0 - 1e-4, "bone {} at {}: {:?} vs {:?}", bone, time, delta_source, delta_target);
                    }
                }
                let moved = |posed: &[Mat4], skeleton: &Skeleton| posed[0].w_axis.truncate() - skeleton.model_from_bone_rest()[0].w_axis.truncate();
                prop_assert!((moved(&source, &from) - moved(&target, &to)).length() < 1e-4);
            }
        }
    }

    /// Rigs that rest alike and are oriented alike copy the keys as they are.
    #[test]
    fn alike_rigs_copy_the_keys() {
        let orientations = [
            Quat::IDENTITY,
            Quat::from_rotation_z(0.4),
            Quat::from_rotation_x(-0.3),
            Quat::IDENTITY,
        ];
        let turns = [Quat::from_rotation_y(0.7); 4];
        let (from, to) = (
            chain("mixamorig:", &orientations, &turns),
            chain("", &orientations, &turns),
        );
        let key = Quat::from_rotation_x(0.5).to_array();
        let clip = Clip {
            name: "nod".into(),
            duration: 1.0,
            channels: vec![Channel {
                bone: 2,
                target: Target::Rotation,
                times: vec![0.0],
                values: vec![key],
                tangents: Vec::new(),
                interpolation: Interpolation::Linear,
            }],
            weights: None,
        };
        let result = retarget(&clip, &from, &to);
        let copied = Quat::from_array(result.clip.channels[0].values[0]);
        assert!(copied.dot(Quat::from_array(key)) > 1.0 - 1e-6);
    }
}
