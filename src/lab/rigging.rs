//! Making and changing a rig: bones added, moved at rest, renamed,
//! reparented and removed (see [`crate::scene::rig_edit`]), each one undo
//! step after [`Lab::checkpoint`]. The scene is rebuilt from its edited
//! document; what the document does not carry (materials, textures, what
//! was not drawn) moves over unchanged, and the locks and stretches follow
//! their bones.

use glam::Vec3;

use super::{derived, EditError, Lab};
use crate::scene::doc::SceneDoc;
use crate::scene::rig_edit::{self, BoneRest, NewBone, RigEditError};
use crate::scene::{MeshBinding, Scene};
use crate::weights::mesh_report::{mesh_report, MeshReport};

impl Lab {
    /// What the mesh brings to binding: loose parts, repeated vertices,
    /// non-manifold and open edges, degenerate and flipped triangles, and
    /// its size (see [`mesh_report`]).
    pub fn mesh_report(&self) -> MeshReport {
        mesh_report(&self.scene.mesh)
    }

    /// Bone `bone`'s head, tail and roll at rest, in model space.
    pub fn bone_rest(&self, bone: usize) -> Result<BoneRest, EditError> {
        self.check_bone(bone)?;
        let skeleton = &self.scene.skeleton;
        Ok(rig_edit::rests(skeleton)[bone])
    }

    /// Adds a bone below `parent` from `head` to `tail` (model space, at
    /// rest), named `name` or "Bone N"; returns its index, the last. Added
    /// to a static mesh's point of a root (length 0, no skin), the root
    /// stops deforming, so that automatic weights give it nothing.
    pub fn add_bone(
        &mut self,
        parent: usize,
        head: Vec3,
        tail: Vec3,
        name: Option<&str>,
    ) -> Result<usize, EditError> {
        let name = name.map(str::to_owned);
        self.add_bones(&[NewBone {
            parent,
            head,
            tail,
            name,
        }])
    }

    /// Adds `bones` in their order, as one edit (each may hang from one
    /// added before it); returns the first one's index. Nothing changes
    /// when one of them is refused. Added to a static mesh's point of a
    /// root (length 0, no skin), the root stops deforming, so that
    /// automatic weights give it nothing.
    pub fn add_bones(&mut self, bones: &[NewBone]) -> Result<usize, EditError> {
        let first = self.scene.skeleton.len();
        // Each hangs from a bone there before it.
        for (added, bone) in bones.iter().enumerate() {
            if bone.parent >= first + added {
                return Err(EditError::BoneOutOfRange {
                    bone: bone.parent,
                    bone_count: first + added,
                });
            }
        }
        let unskinned = self.skinned_vertices().next().is_none();
        self.edit_skeleton(|doc| {
            for bone in bones {
                rig_edit::add_bone(doc, bone.parent, bone.head, bone.tail, bone.name.as_deref())?;
            }
            let root = &mut doc.bones[0];
            if unskinned && !bones.is_empty() && root.length == 0.0 && root.parent.is_none() {
                root.deforms = false;
            }
            let mut order: Vec<usize> = (0..first).collect();
            order.extend(std::iter::repeat_n(usize::MAX, bones.len()));
            Ok((first, order))
        })
    }

    /// The bones template `name` (`"humanoid"`, `"quadruped"`, `"chain"`)
    /// fitted to `markers` would add to a scene that has its root alone (a
    /// mesh opened to be rigged), in the order [`Lab::add_bones`] takes
    /// them; the scene is left as it is.
    pub fn template_bones(
        &self,
        name: &str,
        markers: &dyn crate::rig::templates::Markers,
    ) -> Result<Vec<NewBone>, EditError> {
        let mesh = &self.scene.mesh;
        let bones = rig_edit::template_bones(
            self.scene.skeleton.len(),
            name,
            markers,
            (mesh.bounds(), &mesh.positions_model),
        )?;
        Ok(bones)
    }

    /// Fits template `name` to `markers` in a scene that has its root
    /// alone (a mesh opened to be rigged): its bones hang from the root,
    /// which stops deforming. Returns how many bones were added.
    pub fn fit_skeleton(
        &mut self,
        name: &str,
        markers: &dyn crate::rig::templates::Markers,
    ) -> Result<usize, EditError> {
        let bones = self.template_bones(name, markers)?;
        self.add_bones(&bones)?;
        Ok(bones.len())
    }

    /// The bone on the other side of `bone` by name (see
    /// [`crate::rig::mirror::mirrored_name`]), if the skeleton has one.
    pub fn bone_twin(&self, bone: usize) -> Result<Option<usize>, EditError> {
        self.check_bone(bone)?;
        let names: Vec<&str> = self
            .scene
            .skeleton
            .bones()
            .iter()
            .map(|b| b.name.as_str())
            .collect();
        Ok(crate::rig::mirror::twin_of(&names, bone))
    }

    /// Moves bone `bone`'s head, tail or roll at rest (those given); its
    /// children stay where they rest, and it is bound where it now rests.
    pub fn set_bone_rest(
        &mut self,
        bone: usize,
        head: Option<Vec3>,
        tail: Option<Vec3>,
        roll: Option<f32>,
    ) -> Result<(), EditError> {
        self.check_bone(bone)?;
        self.edit_bones(|doc| rig_edit::set_rest(doc, bone, head, tail, roll))
    }

    /// Renames bone `bone`.
    pub fn rename_bone(&mut self, bone: usize, name: &str) -> Result<(), EditError> {
        self.check_bone(bone)?;
        self.edit_bones(|doc| rig_edit::rename(doc, bone, name))
    }

    /// Hangs bone `bone` from `parent` where it rests; refuses a cycle.
    /// Bones are renumbered so that parents come first: returns `bone`'s
    /// new index.
    pub fn set_bone_parent(&mut self, bone: usize, parent: usize) -> Result<usize, EditError> {
        self.check_bone(bone)?;
        self.check_bone(parent)?;
        self.edit_skeleton(|doc| {
            let order = rig_edit::set_parent(doc, bone, parent)?;
            let index = order.iter().position(|&old| old == bone).unwrap_or(bone);
            Ok((index, order))
        })
    }

    /// Removes bone `bone`: its children hang from its parent and its
    /// weights go to its parent (see [`rig_edit::remove_bone`]). The bones
    /// after it move down by one.
    pub fn remove_bone(&mut self, bone: usize) -> Result<(), EditError> {
        self.check_bone(bone)?;
        self.edit_skeleton(|doc| {
            let order = rig_edit::remove_bone(doc, bone)?;
            Ok(((), order))
        })
    }

    /// Applies `edit` to the scene's document and rebuilds the scene from
    /// it; `edit` returns its result and each new bone's old index
    /// (`usize::MAX` for a new bone). Nothing changes when it fails.
    fn edit_skeleton<T>(
        &mut self,
        edit: impl FnOnce(&mut SceneDoc) -> Result<(T, Vec<usize>), RigEditError>,
    ) -> Result<T, EditError> {
        let mut doc = self.scene.to_doc();
        let (out, order) = edit(&mut doc)?;
        let mut scene = Scene::from_doc(&doc).map_err(RigEditError::from)?;
        scene.base_colour = self.scene.base_colour.take();
        scene.materials = std::mem::take(&mut self.scene.materials);
        scene.images = std::mem::take(&mut self.scene.images);
        scene.surfaces = std::mem::take(&mut self.scene.surfaces);
        scene.not_drawn = std::mem::take(&mut self.scene.not_drawn);
        self.settings.locked = reordered(&self.settings.locked, &order, false);
        self.stretch = reordered(&self.stretch, &order, 1.0);
        self.scene = scene;
        self.structure_changed();
        Ok(out)
    }

    /// An edit of the bones that keeps their number and order (a rest
    /// frame, a name): the mesh, the weights and the clips stay as they
    /// are, and the skeleton alone is built again. A dragged head or tail
    /// is an edit a frame; the whole scene's round trip through its
    /// document ([`Lab::edit_skeleton`]) took 28 ms on the 100,000-vertex
    /// tube.
    fn edit_bones(
        &mut self,
        edit: impl FnOnce(&mut SceneDoc) -> Result<(), RigEditError>,
    ) -> Result<(), EditError> {
        let mut doc = SceneDoc {
            bones: self.scene.bone_docs(),
            ..SceneDoc::default()
        };
        edit(&mut doc)?;
        self.scene.skeleton = Scene::skeleton_of_doc(&doc).map_err(RigEditError::from)?;
        self.structure_changed();
        Ok(())
    }

    /// After the skeleton or the meshes' bindings changed: everything
    /// derived from them is built again.
    pub(super) fn structure_changed(&mut self) {
        self.revisions.structures_made += 1;
        self.revisions.structure = self.revisions.structures_made;
        self.derived = derived::Derived::new(&self.scene);
        self.dynamics = None;
        self.influences_changed();
        self.changed();
    }

    /// Whether every mesh is static (a mesh opened to be rigged).
    pub(super) fn all_static(&self) -> bool {
        self.scene
            .meshes
            .iter()
            .all(|part| part.binding == MeshBinding::Static)
    }

    /// Binds a scene whose meshes are all static: each becomes a skinned
    /// mesh, for automatic weights to weight. False when some mesh is
    /// skinned or rigid already.
    pub(super) fn bind_static_meshes(&mut self) -> bool {
        if !self.all_static() || self.scene.skeleton.len() < 2 {
            return false;
        }
        for part in &mut self.scene.meshes {
            part.binding = MeshBinding::Skinned;
        }
        self.structure_changed();
        true
    }
}

/// `values` in the bones' new order (each new bone's old index), `fill`
/// for a new bone.
fn reordered<T: Copy>(values: &[T], order: &[usize], fill: T) -> Vec<T> {
    order
        .iter()
        .map(|&old| values.get(old).copied().unwrap_or(fill))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn static_quad() -> Lab {
        let doc = SceneDoc {
            bones: vec![crate::scene::doc::BoneDoc::plain(
                "root", None, [0.0; 3], 0.0,
            )],
            mesh: crate::scene::doc::MeshDoc {
                positions: vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 2.0, 0.0, 0.0, 2.0, 0.0],
                indices: vec![0, 1, 2, 0, 2, 3],
            },
            influences: vec![Vec::new(); 4],
            meshes: vec![crate::scene::doc::MeshPartDoc {
                name: "quad".into(),
                vertices: [0, 4],
                binding: "static".into(),
                bone: None,
                skin: None,
            }],
            ..SceneDoc::default()
        };
        Lab::new(Scene::from_doc(&doc).unwrap())
    }

    fn new_bone(parent: usize, head: [f32; 3], tail: [f32; 3]) -> NewBone {
        NewBone {
            parent,
            head: Vec3::from_array(head),
            tail: Vec3::from_array(tail),
            name: None,
        }
    }

    #[test]
    fn bones_added_together_hang_from_each_other_or_are_refused_together() {
        let mut lab = static_quad();
        let chain = [
            new_bone(0, [0.5, 0.0, 0.0], [0.5, 1.0, 0.0]),
            new_bone(1, [0.5, 1.0, 0.0], [0.5, 2.0, 0.0]),
        ];
        // The second hangs from a bone that is neither there nor before it.
        let wrong = [
            chain[0].clone(),
            new_bone(2, [0.5, 1.0, 0.0], [0.5, 2.0, 0.0]),
        ];
        assert!(matches!(
            lab.add_bones(&wrong),
            Err(EditError::BoneOutOfRange {
                bone: 2,
                bone_count: 2
            })
        ));
        // A bone of no length, second: the first is not kept either.
        let flat = [
            chain[0].clone(),
            new_bone(1, [0.5, 1.0, 0.0], [0.5, 1.0, 0.0]),
        ];
        assert!(lab.add_bones(&flat).is_err());
        assert_eq!(lab.bone_count(), 1);
        assert_eq!(lab.add_bones(&chain).unwrap(), 1);
        assert_eq!(lab.bone_count(), 3);
        assert_eq!(lab.scene().skeleton.bones()[2].parent, Some(1));
        assert!(
            !lab.bone_deforms(0).unwrap(),
            "the point of a root deforms nothing"
        );
        // One by one, the same skeleton.
        let mut one_by_one = static_quad();
        for bone in &chain {
            one_by_one
                .add_bone(bone.parent, bone.head, bone.tail, None)
                .unwrap();
        }
        assert_eq!(one_by_one.scene_json(), lab.scene_json());
    }

    #[test]
    fn bones_added_to_a_static_mesh_bind_it_and_undo_takes_them_back() {
        let mut lab = static_quad();
        lab.checkpoint();
        let lower = lab
            .add_bone(0, Vec3::new(0.5, 0.0, 0.0), Vec3::new(0.5, 1.0, 0.0), None)
            .unwrap();
        lab.checkpoint();
        let upper = lab
            .add_bone(
                lower,
                Vec3::new(0.5, 1.0, 0.0),
                Vec3::new(0.5, 2.0, 0.0),
                Some("upper"),
            )
            .unwrap();
        assert_eq!((lower, upper, lab.bone_count()), (1, 2, 3));
        assert!(
            !lab.bone_deforms(0).unwrap(),
            "the point of a root deforms nothing"
        );
        let report = lab.apply_auto_weights(crate::weights::auto_weights::AutoWeights::NearestBone);
        assert!(report.unreached.is_empty());
        assert_eq!(lab.scene().meshes[0].binding, MeshBinding::Skinned);
        // The top vertices follow the upper bone.
        assert_eq!(lab.influences(2).unwrap()[0].0, 2);
        // The weights and the second bone are one step: the mesh is static again.
        assert!(lab.undo());
        assert_eq!(lab.bone_count(), 2);
        assert_eq!(lab.scene().meshes[0].binding, MeshBinding::Static);
        assert!(lab.undo());
        assert_eq!(lab.bone_count(), 1);
        assert!(lab.redo() && lab.redo());
        assert_eq!(lab.bone_count(), 3);
    }
}
