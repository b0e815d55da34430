//! Skinning with optimized centres of rotation on the lab: the centres are
//! derived from the weights by an explicit job, which a caller runs after
//! the weights change (the page runs it off the main thread for a large
//! mesh); until then CoR skins with the stale centres, and says so.

use glam::Vec3;

use super::{EditError, Lab};
use crate::scene::SceneError;
use crate::skin::cor::posed_centre;
use crate::skin::SkinningMethod;

impl Lab {
    /// The centres job: each vertex's centre of rotation from the weights
    /// skinning uses now (see [`crate::skin::cor`]). Does nothing when the
    /// centres are current.
    pub fn update_centres(&mut self) {
        self.update_centres_reporting(&mut |_, _| {});
    }

    /// [`Lab::update_centres`], calling `progress(done, total)` as it goes
    /// (every 4,096 vertices), for a worker that shows how far it is.
    pub fn update_centres_reporting(&mut self, progress: &mut dyn FnMut(usize, usize)) {
        let revision = self.revisions.influences_revision;
        if self.centres_current() {
            return;
        }
        self.derived.centres_job(&self.scene, revision, progress);
        self.centres_changed();
    }

    /// Takes centres computed elsewhere (a worker's copy of this scene) for
    /// the weights of `influences_revision`; refused, changing nothing, when
    /// the weights changed since (the centres would be of other weights),
    /// the count is not the vertex count, or a centre is not finite.
    pub fn set_centres(
        &mut self,
        centres: Vec<Option<Vec3>>,
        influences_revision: u64,
    ) -> Result<(), EditError> {
        if influences_revision != self.revisions.influences_revision {
            return Err(EditError::StaleCentres {
                computed_for: influences_revision,
                current: self.revisions.influences_revision,
            });
        }
        if centres.len() != self.vertex_count() {
            return Err(EditError::WrongArity {
                what: "centres",
                expected: self.vertex_count(),
                found: centres.len(),
            });
        }
        if let Some(vertex) = centres
            .iter()
            .position(|c| c.is_some_and(|c| !c.is_finite()))
        {
            return Err(SceneError::NonFinite {
                field: format!("centres[{vertex}]"),
                value: f32::NAN,
            }
            .into());
        }
        self.derived.centres = Some((centres, influences_revision));
        self.centres_changed();
        Ok(())
    }

    /// A CoR skinning made about the old centres is made again.
    fn centres_changed(&mut self) {
        if self.derived.skinned_with == Some(SkinningMethod::Cor) {
            self.changed();
        }
    }

    /// Whether the centres of rotation were computed for the weights as
    /// they are (false before the first centres job and after a weight
    /// edit, until the job runs again).
    pub fn centres_current(&self) -> bool {
        self.derived
            .centres
            .as_ref()
            .is_some_and(|(_, revision)| *revision == self.revisions.influences_revision)
    }

    /// Each vertex's centre of rotation, model space at rest (`None`: the
    /// vertex keeps LBS), as the centres job last computed them; `None`
    /// before it first ran.
    pub fn centres_of_rotation(&self) -> Option<&[Option<Vec3>]> {
        self.derived.centres.as_ref().map(|(c, _)| c.as_slice())
    }

    /// The weights revision the centres job last ran for, or `None` before
    /// it first ran.
    pub fn centres_revision(&self) -> Option<u64> {
        self.derived.centres.as_ref().map(|(_, revision)| *revision)
    }

    /// The centres CoR skins with: the centres job's (stale after a weight
    /// edit until it runs again), or computed now when it never ran.
    pub fn centres_for_skinning(&self) -> std::borrow::Cow<'_, [Option<Vec3>]> {
        self.derived.centres_or_fresh(&self.scene)
    }

    /// Each vertex's centre of rotation where it is in the pose, `LBS(p*)`,
    /// for the vertices that have one (as [`Lab::centres_for_skinning`]).
    pub fn posed_centres(&self) -> Vec<Vec3> {
        let influences = self.derived.skinning_influences(&self.scene);
        self.centres_for_skinning()
            .iter()
            .zip(influences)
            .filter_map(|(centre, influence)| {
                centre.map(|c| posed_centre(influence, c, &self.derived.lbs_palette))
            })
            .collect()
    }
}
