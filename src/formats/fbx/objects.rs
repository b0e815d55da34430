//! The objects of a parsed file and the connections between them: every
//! child of `Objects` is an object with an id, a class (`Model`,
//! `Geometry`, `Deformer`, …), a name and a kind (`Mesh`, `LimbNode`,
//! `Skin`, `Cluster`, …); `Connections` links a child object to a parent
//! object (`OO`) or to one of its properties (`OP`, e.g. an animation
//! curve node to a model's `Lcl Rotation`).

use std::collections::HashMap;

use super::tree::{Node, NodePath, Value};
use super::FbxError;

/// One object.
pub struct Object<'a> {
    /// Its id.
    pub id: i64,
    /// Its class: the node's name (`Model`, `Geometry`, …).
    pub class: &'a str,
    /// Its name without the class (`mixamorig:Hips`).
    pub name: String,
    /// Its kind (`Mesh`, `LimbNode`, `Cluster`, …).
    pub kind: String,
    /// Its node.
    pub node: &'a Node,
    /// Its place in the file, for errors.
    pub path: NodePath,
}

impl Object<'_> {
    /// The values of property `name` of its `Properties70`.
    pub fn property(&self, name: &str) -> Option<&[Value]> {
        property(self.node, name)
    }

    /// Property `name` as a vector of three numbers.
    pub fn vector(&self, name: &str) -> Option<[f64; 3]> {
        let values = self.property(name)?;
        Some([
            values.first()?.number()?,
            values.get(1)?.number()?,
            values.get(2)?.number()?,
        ])
    }

    /// Property `name` as one number.
    pub fn number(&self, name: &str) -> Option<f64> {
        self.property(name)?.first()?.number()
    }

    /// The child node `name`, or an error naming where it was expected.
    pub fn required(&self, name: &str) -> Result<&Node, FbxError> {
        self.node.child(name).ok_or_else(|| FbxError::Missing {
            path: self.path.to_string(),
            what: name.to_owned(),
        })
    }

    /// Where child `name` is, for errors.
    pub fn at(&self, name: &str) -> String {
        self.path.with(name, 0).to_string()
    }
}

/// The values of property `name` in `node`'s `Properties70`: a `P` node's
/// values after its name, type, label and flags.
pub fn property<'a>(node: &'a Node, name: &str) -> Option<&'a [Value]> {
    node.child("Properties70")?
        .children_named("P")
        .find(|p| p.props.first().and_then(Value::text) == Some(name))
        .map(|p| p.props.get(4..).unwrap_or_default())
}

/// A connection's end: the other object and, for `OP`, the property.
#[derive(Clone, Debug)]
pub struct Link {
    /// The other object's id.
    pub id: i64,
    /// The property of the parent it connects to (`OP`), if any.
    pub property: Option<String>,
}

/// Every object by id, and the connections both ways.
pub struct Objects<'a> {
    /// The objects in file order.
    pub list: Vec<Object<'a>>,
    by_id: HashMap<i64, usize>,
    parents: HashMap<i64, Vec<Link>>,
    children: HashMap<i64, Vec<Link>>,
    /// Whether Blender's exporter wrote the file (its `Creator` names
    /// Blender): its blend shapes' `FullWeights` are per-point weights.
    pub by_blender: bool,
    /// Whether Maya wrote the file (its scene info's
    /// `Original|ApplicationName`): Maya draws a skinned mesh where its
    /// model stands, not where its clusters bound it.
    pub by_maya: bool,
}

impl<'a> Objects<'a> {
    /// Reads `Objects` and `Connections` from the top-level nodes.
    pub fn of(top: &'a [Node]) -> Result<Self, FbxError> {
        let objects_node =
            top.iter()
                .find(|n| n.name == "Objects")
                .ok_or_else(|| FbxError::Missing {
                    path: "(top)".to_owned(),
                    what: "Objects".to_owned(),
                })?;
        let objects_path = NodePath::top("Objects");
        let mut list = Vec::new();
        let mut by_id = HashMap::new();
        let mut counts: HashMap<&str, usize> = HashMap::new();
        for node in &objects_node.children {
            let index = counts.entry(node.name.as_str()).or_insert(0);
            let path = objects_path.with(&node.name, *index);
            *index += 1;
            let Some(id) = node.props.first().and_then(Value::integer) else {
                continue; // not an object (no id)
            };
            let (name, kind) = names(node);
            by_id.insert(id, list.len());
            list.push(Object {
                id,
                class: &node.name,
                name,
                kind,
                node,
                path,
            });
        }
        let mut parents: HashMap<i64, Vec<Link>> = HashMap::new();
        let mut children: HashMap<i64, Vec<Link>> = HashMap::new();
        if let Some(connections) = top.iter().find(|n| n.name == "Connections") {
            for c in connections.children_named("C") {
                let kind = c.props.first().and_then(Value::text).unwrap_or("");
                let (Some(child), Some(parent)) = (
                    c.props.get(1).and_then(Value::integer),
                    c.props.get(2).and_then(Value::integer),
                ) else {
                    continue;
                };
                let property = if kind == "OP" {
                    c.props.get(3).and_then(Value::text).map(str::to_owned)
                } else {
                    None
                };
                parents.entry(child).or_default().push(Link {
                    id: parent,
                    property: property.clone(),
                });
                children.entry(parent).or_default().push(Link {
                    id: child,
                    property,
                });
            }
        }
        let creator = top
            .iter()
            .chain(
                top.iter()
                    .filter(|n| n.name == "FBXHeaderExtension")
                    .flat_map(|n| n.children.iter()),
            )
            .filter(|n| n.name == "Creator")
            .find_map(|n| n.props.first().and_then(Value::text));
        Ok(Objects {
            list,
            by_id,
            parents,
            children,
            by_blender: creator.is_some_and(|c| c.starts_with("Blender")),
            by_maya: application(top).is_some_and(|a| a.eq_ignore_ascii_case("maya")),
        })
    }

    /// The object with id `id`.
    pub fn get(&self, id: i64) -> Option<&Object<'a>> {
        self.by_id.get(&id).map(|&k| &self.list[k])
    }

    /// The objects `id` is connected to as a child, in file order.
    pub fn parents(&self, id: i64) -> &[Link] {
        self.parents.get(&id).map_or(&[], Vec::as_slice)
    }

    /// The objects connected to `id` as its children, in file order.
    pub fn children(&self, id: i64) -> &[Link] {
        self.children.get(&id).map_or(&[], Vec::as_slice)
    }

    /// The children of `id` of class `class`.
    pub fn children_of_class<'s>(
        &'s self,
        id: i64,
        class: &'s str,
    ) -> impl Iterator<Item = (&'s Object<'a>, &'s Link)> + 's {
        self.children(id)
            .iter()
            .filter_map(move |l| self.get(l.id).filter(|o| o.class == class).map(|o| (o, l)))
    }

    /// The parents of `id` of class `class`.
    pub fn parents_of_class<'s>(
        &'s self,
        id: i64,
        class: &'s str,
    ) -> impl Iterator<Item = (&'s Object<'a>, &'s Link)> + 's {
        self.parents(id)
            .iter()
            .filter_map(move |l| self.get(l.id).filter(|o| o.class == class).map(|o| (o, l)))
    }
}

/// An object's name and kind from its node: `"Hips\0\x01Model"` (binary)
/// or `"Model::Hips"` (ASCII), then its kind.
fn names(node: &Node) -> (String, String) {
    let full = node.props.get(1).and_then(Value::text).unwrap_or("");
    let name = if let Some((name, _class)) = full.split_once("\u{0}\u{1}") {
        name
    } else if let Some((_class, name)) = full.split_once("::") {
        name
    } else {
        full
    };
    let kind = node.props.get(2).and_then(Value::text).unwrap_or("");
    (name.to_owned(), kind.to_owned())
}

/// The application that first wrote the file, as its scene info names it
/// (`FBXHeaderExtension/SceneInfo`'s `Original|ApplicationName`).
fn application(top: &[Node]) -> Option<&str> {
    top.iter()
        .filter(|n| n.name == "FBXHeaderExtension")
        .flat_map(|n| n.children_named("SceneInfo"))
        .flat_map(|n| n.children_named("Properties70"))
        .flat_map(|n| n.children_named("P"))
        .find(|p| p.props.first().and_then(Value::text) == Some("Original|ApplicationName"))
        .and_then(|p| p.props.get(4).and_then(Value::text))
}
