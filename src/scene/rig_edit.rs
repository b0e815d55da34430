//! Editing a skeleton at rest, on the scene's document: adding a bone,
//! moving a bone's head, tail and roll, removing a bone (its children and
//! its weights go to its parent) and reparenting (a cycle refused). Every
//! edit keeps the other bones where they rest in model space, and keeps
//! the document's rule that parents come before their children, renumbering
//! the weights, the pose, the clips, the paths and the rigid meshes with
//! the bones.
//!
//! A bone's rest is told as Blender's edit mode tells it: a **head** (its
//! origin in model space), a **tail** (its tip, `head + length` along its
//! own +Y) and a **roll**, the turn about the bone's axis of its own +X
//! from the +X that the shortest turn of model +Y onto the bone carries.

use glam::{Mat4, Quat, Vec3};

use super::doc::{BoneDoc, SceneDoc};
use super::SceneError;
use crate::rig::pose::BoneTransform;
use crate::rig::skeleton::{own_from_child_frame, Bone, Skeleton};

/// Where a bone rests, in model space.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoneRest {
    /// The bone's origin.
    pub head: Vec3,
    /// Its tip.
    pub tail: Vec3,
    /// Radians about the bone's axis (see the module documentation).
    pub roll: f32,
}

/// Why an edit of the skeleton was refused; nothing changed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RigEditError {
    /// Head and tail at one point.
    #[error("bone {bone}: its head and tail are at one point; a bone needs a length")]
    ZeroLength {
        /// The bone (the new bone's index when adding).
        bone: usize,
    },
    /// A parent that is the bone itself or one of its descendants.
    #[error("bone {bone} cannot hang from bone {parent}: {parent} is {bone} or below it, a cycle")]
    Cycle {
        /// The bone moved.
        bone: usize,
        /// The parent asked for.
        parent: usize,
    },
    /// A clip keys the bone to be removed.
    #[error(
        "bone {bone} ('{name}') is driven by the clip '{clip}': remove the clip or its keys first"
    )]
    DrivenByClip {
        /// The bone.
        bone: usize,
        /// Its name.
        name: String,
        /// The clip's name.
        clip: String,
    },
    /// A path carries the bone to be removed.
    #[error("bone {bone} ('{name}') rides the path '{path}': remove the path first")]
    RidesPath {
        /// The bone.
        bone: usize,
        /// Its name.
        name: String,
        /// The path's name.
        path: String,
    },
    /// Removing a root that has no single child to take its place.
    #[error("bone {bone} is the root and has {children} children: a scene keeps one root, so remove or reparent them first")]
    RootWithChildren {
        /// The root.
        bone: usize,
        /// Its children.
        children: usize,
    },
    /// The one bone of the scene.
    #[error("bone {bone} is the scene's only bone; a scene keeps at least one")]
    LastBone {
        /// The bone.
        bone: usize,
    },
    /// A number that is NaN or infinite.
    #[error("{field}: {value} is not a finite number")]
    NonFinite {
        /// The field.
        field: &'static str,
        /// The value.
        value: f32,
    },
    /// An empty name, or one over 200 characters.
    #[error("a bone's name must have 1 to 200 characters; '{name}' has {count}")]
    BadName {
        /// The name given.
        name: String,
        /// Its characters.
        count: usize,
    },
    /// A template's markers that do not fit.
    #[error(transparent)]
    Template(#[from] crate::rig::templates::TemplateError),
    /// A template fitted to a scene that has a skeleton already.
    #[error("the scene has {bones} bones already: a template is fitted to a mesh with its root alone (open it without its rig)")]
    AlreadyRigged {
        /// Its bones.
        bones: usize,
    },
    /// What the edited document failed of the scene's own checks.
    #[error(transparent)]
    Scene(#[from] SceneError),
}

/// The longest name a bone may be given.
const MAX_NAME_CHARS: usize = 200;

/// Every bone's rest in model space.
pub fn rests(skeleton: &Skeleton) -> Vec<BoneRest> {
    skeleton
        .bones()
        .iter()
        .zip(skeleton.model_from_bone_rest())
        .map(|(bone, frame)| rest_of(bone, frame))
        .collect()
}

/// The rest of `bone`, whose rest frame is `model_from_bone`.
fn rest_of(bone: &Bone, model_from_bone: &Mat4) -> BoneRest {
    let head = model_from_bone.transform_point3(Vec3::ZERO);
    let tail = model_from_bone.transform_point3(Vec3::new(0.0, bone.length, 0.0));
    let axis = model_from_bone.transform_vector3(Vec3::Y);
    let x = model_from_bone.transform_vector3(Vec3::X);
    BoneRest {
        head,
        tail,
        roll: roll_of(axis, x),
    }
}

/// The angle about `axis` from the +X the shortest turn of +Y onto `axis`
/// carries to `x` (both as seen across `axis`).
fn roll_of(axis: Vec3, x: Vec3) -> f32 {
    let Some(axis) = axis.try_normalize() else {
        return 0.0;
    };
    let reference = Quat::from_rotation_arc(Vec3::Y, axis) * Vec3::X;
    let across = x - axis * x.dot(axis);
    reference
        .cross(across)
        .dot(axis)
        .atan2(reference.dot(across))
}

/// The document fields (origin, orientation, length) that rest bone
/// `bone` at `rest` below the frame `parent_hands` its parent hands on,
/// its turn and rest scale kept.
fn local_fields(bone: &Bone, parent_hands: Mat4, rest: BoneRest) -> ([f32; 3], [f32; 4], f32) {
    let to_parent = parent_hands.inverse();
    let origin = to_parent.transform_point3(rest.head);
    let along = to_parent.transform_vector3(rest.tail - rest.head);
    // The rest frame ends in the joint's own scale and turn, M = U⁻¹·S·U.
    let own = bone.animated(&BoneTransform::IDENTITY);
    let axis = own.transform_vector3(Vec3::Y);
    let length = along.length() / axis.length().max(f32::MIN_POSITIVE);
    let aimed = Quat::from_rotation_arc(axis.normalize(), along.normalize());
    let frame = |orientation: Quat| {
        parent_hands * Mat4::from_translation(origin) * Mat4::from_quat(orientation) * own
    };
    let spin = |orientation: Quat, angle: f32| {
        orientation * Quat::from_axis_angle(axis.normalize(), angle)
    };
    let rolled = |orientation: Quat| {
        let f = frame(orientation);
        roll_of(f.transform_vector3(Vec3::Y), f.transform_vector3(Vec3::X))
    };
    let wrap = |a: f32| {
        (a + std::f32::consts::PI).rem_euclid(std::f32::consts::TAU) - std::f32::consts::PI
    };
    let delta = wrap(rest.roll - rolled(aimed));
    // A mirroring parent frame turns the spin the other way.
    let orientation = [spin(aimed, delta), spin(aimed, -delta)]
        .into_iter()
        .min_by(|a, b| {
            wrap(rolled(*a) - rest.roll)
                .abs()
                .total_cmp(&wrap(rolled(*b) - rest.roll).abs())
        })
        .unwrap_or(aimed)
        .normalize();
    (origin.to_array(), orientation.to_array(), length)
}

/// The frame bone `bone` hands its children, from its rest frame.
fn hands_on(skeleton: &Skeleton, bone: usize) -> Mat4 {
    skeleton.model_from_bone_rest()[bone] * own_from_child_frame(skeleton.bones()[bone].length)
}

/// The skeleton of `doc`'s bones.
fn skeleton_of(doc: &SceneDoc) -> Result<Skeleton, RigEditError> {
    Ok(super::Scene::skeleton_of_doc(doc)?)
}

/// Rewrites the local fields of `bones` (parents first) so that each
/// rests at `wanted[bone]` in model space, below its parent as `doc` has
/// it now.
fn place(doc: &mut SceneDoc, bones: &[usize], wanted: &[BoneRest]) -> Result<(), RigEditError> {
    for &bone in bones {
        let skeleton = skeleton_of(doc)?;
        let parent_hands = doc.bones[bone]
            .parent
            .map_or(Mat4::IDENTITY, |p| hands_on(&skeleton, p as usize));
        let (origin, orientation, length) =
            local_fields(&skeleton.bones()[bone], parent_hands, wanted[bone]);
        let entry = &mut doc.bones[bone];
        (entry.origin, entry.orientation, entry.length) = (origin, orientation, length);
    }
    Ok(())
}

fn check_point(field: &'static str, point: Vec3) -> Result<(), RigEditError> {
    match point.to_array().into_iter().find(|c| !c.is_finite()) {
        Some(value) => Err(RigEditError::NonFinite { field, value }),
        None => Ok(()),
    }
}

fn check_name(name: &str) -> Result<(), RigEditError> {
    let count = name.chars().count();
    if count == 0 || count > MAX_NAME_CHARS {
        return Err(RigEditError::BadName {
            name: name.chars().take(40).collect(),
            count,
        });
    }
    Ok(())
}

/// The bones directly below `bone`.
fn children(doc: &SceneDoc, bone: usize) -> Vec<usize> {
    (0..doc.bones.len())
        .filter(|&b| doc.bones[b].parent == Some(bone as u32))
        .collect()
}

/// Adds a bone below `parent` resting from `head` to `tail` with roll 0,
/// named `name` or "Bone N"; returns its index (the last).
pub fn add_bone(
    doc: &mut SceneDoc,
    parent: usize,
    head: Vec3,
    tail: Vec3,
    name: Option<&str>,
) -> Result<usize, RigEditError> {
    check_point("head", head)?;
    check_point("tail", tail)?;
    let index = doc.bones.len();
    if head.distance(tail) <= 1e-6 * (1.0 + head.length()) {
        return Err(RigEditError::ZeroLength { bone: index });
    }
    let name = match name {
        Some(name) => {
            check_name(name)?;
            name.to_owned()
        }
        None => (index..)
            .map(|n| format!("Bone {n}"))
            .find(|n| doc.bones.iter().all(|b| &b.name != n))
            .unwrap_or_default(),
    };
    let skeleton = skeleton_of(doc)?;
    let mut wanted = rests(&skeleton);
    wanted.push(BoneRest {
        head,
        tail,
        roll: 0.0,
    });
    doc.bones
        .push(BoneDoc::plain(&name, Some(parent as u32), [0.0; 3], 0.0));
    place(doc, &[index], &wanted)?;
    Ok(index)
}

/// A bone to add: its parent's index in the scene, its head and tail
/// (model space, at rest) and its name.
#[derive(Clone, Debug, PartialEq)]
pub struct NewBone {
    /// The index of the bone it hangs from.
    pub parent: usize,
    /// Its origin, model space.
    pub head: Vec3,
    /// Its tip, model space.
    pub tail: Vec3,
    /// Its name; "Bone N" when `None`.
    pub name: Option<String>,
}

/// The bones of template `name` fitted to `markers`, to hang below the
/// root of a scene of `bones` bones, which must be its root alone, inside
/// the mesh of `points` bounded by `min`–`max`: each parent is a scene
/// index, the bones in the order [`add_bone`] adds them.
pub fn template_bones(
    bones: usize,
    name: &str,
    markers: &dyn crate::rig::templates::Markers,
    ((min, max), points): ((Vec3, Vec3), &[Vec3]),
) -> Result<Vec<NewBone>, RigEditError> {
    if bones != 1 {
        return Err(RigEditError::AlreadyRigged { bones });
    }
    let fitted = crate::rig::templates::fit(name, markers, (min, max), points)?;
    Ok(fitted
        .into_iter()
        .map(|bone| NewBone {
            parent: bone.parent.map_or(0, |p| p + 1),
            head: bone.head,
            tail: bone.tail,
            name: Some(bone.name),
        })
        .collect())
}

/// Moves `bone`'s head, tail and roll (those given); its children stay
/// where they rest. It is bound where it now rests.
pub fn set_rest(
    doc: &mut SceneDoc,
    bone: usize,
    head: Option<Vec3>,
    tail: Option<Vec3>,
    roll: Option<f32>,
) -> Result<(), RigEditError> {
    let mut wanted = rests(&skeleton_of(doc)?);
    let rest = &mut wanted[bone];
    if let Some(head) = head {
        check_point("head", head)?;
        rest.head = head;
    }
    if let Some(tail) = tail {
        check_point("tail", tail)?;
        rest.tail = tail;
    }
    if let Some(roll) = roll {
        if !roll.is_finite() {
            return Err(RigEditError::NonFinite {
                field: "roll",
                value: roll,
            });
        }
        rest.roll = roll;
    }
    if rest.head.distance(rest.tail) <= 1e-6 * (1.0 + rest.head.length()) {
        return Err(RigEditError::ZeroLength { bone });
    }
    doc.bones[bone].inverse_bind = None;
    let mut moved = vec![bone];
    moved.extend(children(doc, bone));
    place(doc, &moved, &wanted)
}

/// Renames `bone`.
pub fn rename(doc: &mut SceneDoc, bone: usize, name: &str) -> Result<(), RigEditError> {
    check_name(name)?;
    doc.bones[bone].name = name.to_owned();
    Ok(())
}

/// Hangs `bone` from `parent`, where it rests; the bones are renumbered so
/// that parents come first. Returns each new bone's old index.
pub fn set_parent(
    doc: &mut SceneDoc,
    bone: usize,
    parent: usize,
) -> Result<Vec<usize>, RigEditError> {
    let below = |b: usize| {
        std::iter::successors(Some(b), |&a| doc.bones[a].parent.map(|p| p as usize))
            .any(|a| a == bone)
    };
    if below(parent) {
        return Err(RigEditError::Cycle { bone, parent });
    }
    let wanted = rests(&skeleton_of(doc)?);
    doc.bones[bone].parent = Some(parent as u32);
    let order = parents_first(doc);
    renumber(doc, &order);
    let wanted: Vec<BoneRest> = order.iter().map(|&old| wanted[old]).collect();
    let new_index = order.iter().position(|&old| old == bone).unwrap_or(bone);
    place(doc, &[new_index], &wanted)?;
    Ok(order)
}

/// Removes `bone`: its children hang from its parent where they rest, and
/// its weights go to its parent (a root with one child gives way to that
/// child, which takes its weights). Refused while a clip keys it or a path
/// carries it. Returns each new bone's old index.
pub fn remove_bone(doc: &mut SceneDoc, bone: usize) -> Result<Vec<usize>, RigEditError> {
    let name = doc.bones[bone].name.clone();
    if doc.bones.len() == 1 {
        return Err(RigEditError::LastBone { bone });
    }
    if let Some(clip) = doc
        .animations
        .iter()
        .find(|clip| clip.channels.iter().any(|c| c.bone == Some(bone as u32)))
    {
        return Err(RigEditError::DrivenByClip {
            bone,
            name,
            clip: clip.name.clone(),
        });
    }
    if let Some(path) = doc.paths.iter().find(|p| p.bone == Some(bone as u32)) {
        return Err(RigEditError::RidesPath {
            bone,
            name,
            path: path.name.clone(),
        });
    }
    let below = children(doc, bone);
    let heir = match doc.bones[bone].parent {
        Some(parent) => parent as usize,
        None if below.len() == 1 => below[0],
        None => {
            return Err(RigEditError::RootWithChildren {
                bone,
                children: below.len(),
            })
        }
    };
    let wanted = rests(&skeleton_of(doc)?);
    for &child in &below {
        doc.bones[child].parent = doc.bones[bone].parent;
    }
    // Its weights and its rigid meshes go to the heir.
    for vertex in &mut doc.influences {
        let mut pairs: Vec<(u32, f32)> = Vec::with_capacity(vertex.len());
        for &(b, w) in vertex.iter() {
            let b = if b as usize == bone { heir as u32 } else { b };
            match pairs.iter_mut().find(|(kept, _)| *kept == b) {
                Some(pair) => pair.1 += w,
                None => pairs.push((b, w)),
            }
        }
        *vertex = pairs;
    }
    for part in &mut doc.meshes {
        if part.bone == Some(bone as u32) {
            part.bone = Some(heir as u32);
        }
    }
    // The heir takes skin now if the removed bone had any.
    if doc.bones[bone].deforms {
        doc.bones[heir].deforms = true;
    }
    let order: Vec<usize> = parents_first(doc)
        .into_iter()
        .filter(|&b| b != bone)
        .collect();
    renumber(doc, &order);
    let wanted: Vec<BoneRest> = order.iter().map(|&old| wanted[old]).collect();
    let moved: Vec<usize> = (0..order.len())
        .filter(|&new| below.contains(&order[new]))
        .collect();
    place(doc, &moved, &wanted)?;
    Ok(order)
}

/// The bones in an order that lists each parent before its children (the
/// document's own order where it can), as old indices.
fn parents_first(doc: &SceneDoc) -> Vec<usize> {
    let count = doc.bones.len();
    let mut placed = vec![false; count];
    let mut order = Vec::with_capacity(count);
    while order.len() < count {
        let before = order.len();
        for bone in 0..count {
            let ready = doc.bones[bone].parent.is_none_or(|p| placed[p as usize]);
            if !placed[bone] && ready {
                placed[bone] = true;
                order.push(bone);
            }
        }
        if order.len() == before {
            // A loop (refused before): keep the rest as they are.
            order.extend((0..count).filter(|&b| !placed[b]));
        }
    }
    order
}

/// Renumbers `doc`'s bones to `order` (each new bone's old index; a bone
/// left out is gone): parents, weights, pose, clips, paths and rigid meshes.
fn renumber(doc: &mut SceneDoc, order: &[usize]) {
    let mut new_of = vec![None; doc.bones.len()];
    for (new, &old) in order.iter().enumerate() {
        new_of[old] = Some(new as u32);
    }
    let map = |b: u32| new_of.get(b as usize).copied().flatten();
    let bones = std::mem::take(&mut doc.bones);
    doc.bones = order
        .iter()
        .map(|&old| {
            let mut bone = bones[old].clone();
            bone.parent = bone.parent.and_then(map);
            bone
        })
        .collect();
    for vertex in &mut doc.influences {
        *vertex = vertex
            .iter()
            .filter_map(|&(b, w)| map(b).map(|b| (b, w)))
            .collect();
    }
    let pose = std::mem::take(&mut doc.pose);
    doc.pose = order
        .iter()
        .map(|&old| pose.get(old).cloned().unwrap_or_default())
        .collect();
    for channel in doc
        .animations
        .iter_mut()
        .flat_map(|clip| &mut clip.channels)
    {
        channel.bone = channel.bone.and_then(map);
    }
    for path in &mut doc.paths {
        path.bone = path.bone.and_then(map);
    }
    for part in &mut doc.meshes {
        part.bone = part.bone.and_then(map);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_near(a: Vec3, b: Vec3) {
        assert!(a.distance(b) < 1e-4, "{a} is not {b}");
    }

    #[test]
    fn a_rest_set_in_model_space_reads_back_under_a_turned_parent() {
        let mut doc = SceneDoc {
            bones: vec![BoneDoc {
                orientation: Quat::from_rotation_z(0.7).to_array(),
                ..BoneDoc::plain("root", None, [1.0, 2.0, 3.0], 2.0)
            }],
            ..SceneDoc::default()
        };
        let bone = add_bone(
            &mut doc,
            0,
            Vec3::new(0.0, 1.0, 0.0),
            Vec3::new(0.0, 1.0, 2.0),
            None,
        )
        .unwrap();
        set_rest(&mut doc, bone, None, None, Some(0.5)).unwrap();
        let rest = rests(&skeleton_of(&doc).unwrap())[bone];
        assert_near(rest.head, Vec3::new(0.0, 1.0, 0.0));
        assert_near(rest.tail, Vec3::new(0.0, 1.0, 2.0));
        assert!((rest.roll - 0.5).abs() < 1e-4, "{}", rest.roll);
    }

    #[test]
    fn moving_a_parent_leaves_its_children_where_they_rest() {
        let mut doc = SceneDoc {
            bones: vec![BoneDoc::plain("root", None, [0.0; 3], 1.0)],
            ..SceneDoc::default()
        };
        let arm = add_bone(&mut doc, 0, Vec3::Y, Vec3::new(1.0, 1.0, 0.0), Some("arm")).unwrap();
        let hand = add_bone(
            &mut doc,
            arm,
            Vec3::new(1.0, 1.0, 0.0),
            Vec3::new(2.0, 1.0, 0.0),
            None,
        )
        .unwrap();
        let before = rests(&skeleton_of(&doc).unwrap())[hand];
        set_rest(&mut doc, arm, None, Some(Vec3::new(0.0, 3.0, 0.0)), None).unwrap();
        let after = rests(&skeleton_of(&doc).unwrap());
        assert_near(after[hand].head, before.head);
        assert_near(after[hand].tail, before.tail);
        assert_near(after[arm].tail, Vec3::new(0.0, 3.0, 0.0));
    }
}
