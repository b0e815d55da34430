//! A clip of one skeleton played on another by joint names, as a motion
//! file without its character (a Mixamo animation, a BVH capture) is put
//! on an open model. Names match once their namespace is left off and
//! the case of Latin letters ignored (`mixamorig:LeftArm`,
//! `mixamorig1:LeftArm` and `leftarm` are one joint).
//!
//! Each matched joint takes the source's joint-local rotations
//! (`r = rot(P)⁻¹ · q_A · U⁻¹` in the source's [`BindSpace`], then
//! `q_A' = rot(P') · r · U'` in the target's); the topmost matched joint
//! (the hips) also takes its translation, and no other joint does, so the
//! target keeps its own proportions. This is exact where both skeletons
//! rest alike (one rig's animations on that rig's characters) and an
//! approximation otherwise. Both maps are constant products, so the keys
//! are converted one by one and interpolate as before.

use super::animation::{BindSpace, Channel, Clip, Target};
use super::skeleton::Skeleton;

/// A joint's name without its namespace, Latin letters in lower case (a
/// name's own script is kept as written): `mixamorig:Hips` → `hips`.
pub fn joint_key(name: &str) -> String {
    name.rsplit(':').next().unwrap_or(name).to_ascii_lowercase()
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
pub fn retarget(clip: &Clip, from: &Skeleton, to: &Skeleton) -> Retargeted {
    let from_spaces = BindSpace::of_skeleton(from);
    let to_spaces = BindSpace::of_skeleton(to);
    let target_of = |source: usize| -> Option<usize> {
        let key = joint_key(&from.bones()[source].name);
        to.bones().iter().position(|b| joint_key(&b.name) == key)
    };
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
        let (source, target) = (&from_spaces[channel.bone], &to_spaces[bone]);
        let convert = |v: [f32; 4]| -> Option<[f32; 4]> {
            match channel.target {
                Target::Rotation => {
                    let local = source.local_rotation(glam::Quat::from_array(v));
                    Some(target.rotation(local).to_array())
                }
                Target::Translation if Some(bone) == top => {
                    let local = source.local_translation(glam::Vec3::new(v[0], v[1], v[2]));
                    Some(target.translation(local).extend(0.0).to_array())
                }
                _ => None,
            }
        };
        let Some(values) = channel
            .values
            .iter()
            .map(|&v| convert(v))
            .collect::<Option<Vec<_>>>()
        else {
            continue;
        };
        // Tangents are linear in the values: the rotation map's constant
        // products, the translation map without its offset.
        let tangents = channel
            .tangents
            .iter()
            .map(|pair| {
                pair.map(|t| match channel.target {
                    Target::Rotation => {
                        let local = source.local_rotation(glam::Quat::from_array(t));
                        target.rotation(local).to_array()
                    }
                    _ => {
                        let v = glam::Vec3::new(t[0], t[1], t[2]);
                        let local = source.left_rotation.inverse() * v;
                        target.translation_tangent(local).extend(0.0).to_array()
                    }
                })
            })
            .collect();
        if !moved.contains(&bone) {
            moved.push(bone);
        }
        channels.push(Channel {
            bone,
            target: channel.target,
            times: channel.times.clone(),
            values,
            tangents,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_without_their_namespace_or_case() {
        assert_eq!(joint_key("mixamorig:LeftArm"), "leftarm");
        assert_eq!(joint_key("mixamorig1:LeftArm"), joint_key("LEFTARM"));
        assert_eq!(joint_key("Hips"), "hips");
    }
}
