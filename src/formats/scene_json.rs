//! The scene JSON as text: [`Scene::from_json`] reads a document into the
//! validated scene, naming the path of a syntax error; the writers give it
//! pretty, compact, or in the pieces and chunks the page's autosave stores.

use super::{json_path, pretty_json};
use crate::scene::doc::{influence_docs, position_docs, MeshDoc, SceneDoc};
use crate::scene::{Scene, SceneError};

/// One of the scene JSON's bulky lists, for [`Scene::bulk_json_chunk`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BulkList {
    /// The mesh's positions, counted in vertices (three numbers each).
    Positions,
    /// The mesh's triangle corners, counted one by one.
    Indices,
    /// The influences, counted in vertices.
    Influences,
}

impl Scene {
    /// Parses and validates scene JSON.
    pub fn from_json(text: &str) -> Result<Self, SceneError> {
        let doc: SceneDoc = serde_json::from_str(text).map_err(|error| {
            let path = json_path::path_at(text, error.line(), error.column());
            SceneError::Json {
                path: if path.is_empty() {
                    "document".to_owned()
                } else {
                    path
                },
                message: error.to_string(),
            }
        })?;
        let mut scene = Self::from_doc(&doc)?;
        if let Some(look) = &doc.look {
            super::look_json::apply_look(&mut scene, look)?;
        }
        Ok(scene)
    }

    /// The scene as pretty-printed JSON.
    pub fn to_json(&self) -> String {
        pretty_json::indent(&self.to_json_compact())
    }

    /// The same document without white space: less than half the text of
    /// [`Scene::to_json`] (a 30,000-vertex character: 3.2 MB for 8.3 MB),
    /// which is this re-indented; the page's autosave writes it in the
    /// pieces of [`Scene::to_json_around_bulk`].
    pub fn to_json_compact(&self) -> String {
        // A SceneDoc holds only strings, numbers and arrays: serialising it
        // cannot fail.
        let mut doc = self.to_doc();
        doc.look = super::look_json::look_value(self);
        serde_json::to_string(&doc).unwrap_or_default()
    }

    /// The compact JSON of the scene's look alone (`"look"`'s value, see
    /// `formats::look_json`), or empty for a scene in the page's colours:
    /// the autosave writes it once per scene, apart from the text it
    /// rewrites on every change ([`Scene::to_json_around_bulk`] leaves it
    /// out).
    pub fn look_json(&self) -> String {
        super::look_json::look_value(self)
            .map(|look| look.0.get().to_owned())
            .unwrap_or_default()
    }

    /// [`Scene::to_json_compact`] without its two bulky values, the mesh
    /// and the influences: `(head, between, tail)` such that
    /// `head + mesh + between + influences + tail` is the whole
    /// ([`Scene::mesh_json`], [`Scene::influences_json`]). A lab's mesh never
    /// changes and its influences change only when weights are edited, so
    /// the page's autosave writes the mesh (two thirds of the text on
    /// `dense`) once per scene, the influences when they changed, and only
    /// these pieces after a pose change (a 1,000,000-vertex scene: kilobytes
    /// instead of 40 MB of influences a drag).
    pub fn to_json_around_bulk(&self) -> (String, String, String) {
        // Neither bulky value is copied into this document: their empty
        // stand-ins mark where their values go.
        let doc = self.to_doc_with_mesh(MeshDoc::default());
        let text = serde_json::to_string(&doc).unwrap_or_default();
        // Top-level fields are written in order, `mesh` right before
        // `influences`, and `bones` (before them) holds no key named "mesh";
        // a string's quotes are escaped, so the pattern cannot start inside
        // one.
        let empty = format!(
            "\"mesh\":{},\"influences\":[]",
            serde_json::to_string(&MeshDoc::default()).unwrap_or_default()
        );
        match text.find(&empty) {
            Some(at) => (
                text[..at + "\"mesh\":".len()].to_owned(),
                ",\"influences\":".to_owned(),
                text[at + empty.len()..].to_owned(),
            ),
            None => (text, String::new(), String::new()),
        }
    }

    /// The compact JSON of the influences alone (see
    /// [`Scene::to_json_around_bulk`]).
    pub fn influences_json(&self) -> String {
        serde_json::to_string(&influence_docs(&self.influences)).unwrap_or_default()
    }

    /// Elements `first .. first + count` of one of the scene JSON's bulky
    /// lists, as [`Scene::to_json_compact`] writes them, comma-separated,
    /// without the brackets (clamped to the list's end). The page's
    /// autosave writes a large mesh or its influences in such chunks, each
    /// its own short task (a 1,000,000-vertex mesh at once is one task of
    /// half a second), and puts the brackets around them itself:
    /// `{"positions":[…],"indices":[…]}` is [`Scene::mesh_json`], `[…]` of
    /// the influences [`Scene::influences_json`].
    pub fn bulk_json_chunk(&self, list: BulkList, first: usize, count: usize) -> String {
        let range = |len: usize| first.min(len)..first.saturating_add(count).min(len);
        let text = match list {
            BulkList::Positions => {
                let vertices = range(self.mesh.positions_model.len());
                serde_json::to_string(&position_docs(&self.mesh.positions_model[vertices]))
            }
            BulkList::Indices => {
                serde_json::to_string(&self.mesh.indices[range(self.mesh.indices.len())])
            }
            BulkList::Influences => {
                let vertices = range(self.influences.len());
                serde_json::to_string(&influence_docs(&self.influences[vertices]))
            }
        }
        .unwrap_or_default();
        // Without the list's own brackets.
        text[1..text.len() - 1].to_owned()
    }

    /// The compact JSON of the mesh alone (see
    /// [`Scene::to_json_around_bulk`]).
    pub fn mesh_json(&self) -> String {
        serde_json::to_string(&self.to_doc_mesh()).unwrap_or_default()
    }
}
