//! A mesh model's geometry as drawable vertices: FBX stores control
//! points and polygons (`PolygonVertexIndex`, the last corner of each
//! polygon written as `-(i + 1)`), with layers mapped per control point,
//! per polygon corner or per polygon. A vertex is made for each control
//! point and UV pair, polygons are cut into fans of triangles and grouped
//! by material, and skin weights and blend shapes, which FBX gives per
//! control point, go to every vertex made from that point.

use std::collections::HashMap;

use glam::{DMat4, DVec3};

use super::objects::{Object, Objects};
use super::FbxError;
use crate::formats::polygons::{triangulate, Ears};

/// The most influences a vertex keeps: the largest, renormalised.
pub const MAX_INFLUENCES: usize = 4;

/// A mesh's vertices, ready for a glTF primitive per material.
pub struct MeshData {
    /// Positions in the model's geometry space (the geometric transform
    /// applied).
    pub positions: Vec<DVec3>,
    /// A UV per vertex (`v` downwards, as glTF has it), when the geometry has UVs.
    pub uvs: Option<Vec<[f32; 2]>>,
    /// Triangles per material slot (an index into the model's materials;
    /// one past the last for polygons without a material).
    pub triangles: Vec<(usize, Vec<u32>)>,
    /// The control point each vertex was made from.
    pub source: Vec<usize>,
    /// How many control points the geometry has (skins and blend shapes
    /// index them).
    pub point_count: usize,
}

/// A blend shape channel: its name, default weight (0–1) and offsets per
/// control point.
pub struct Shape {
    /// The channel's name.
    pub name: String,
    /// `DeformPercent` / 100.
    pub weight: f64,
    /// The channel's id, which animation curves name.
    pub channel: i64,
    /// Offsets per control point, in geometry space.
    pub offsets: HashMap<usize, DVec3>,
}

/// A skin: the bones (model ids) with their `TransformLink`s, and each
/// control point's influences as (joint, weight), at most
/// [`MAX_INFLUENCES`], summing to 1.
pub struct Skin {
    /// Per joint: the bone model's id; its global transform at bind
    /// (`TransformLink`), if the cluster has one; and the mesh model's
    /// transform into the bone's frame at bind (`Transform`, stored in bone
    /// space whatever the FBX SDK's documentation says, as Blender's
    /// exporter and ufbx read it), if the cluster has one. With it, a mesh
    /// moved after it was bound is drawn where it was bound, as MotionBuilder
    /// and 3ds Max draw it; it is left out of a file of Maya's, which draws
    /// such a mesh where its model now stands (exactly so while the bones
    /// rest where they were bound), as three.js's `FBXLoader` draws every
    /// file.
    pub joints: Vec<(i64, Option<DMat4>, Option<DMat4>)>,
    /// Per control point.
    pub influences: Vec<Vec<(usize, f32)>>,
}

/// How a layer element maps its values.
#[derive(Clone, Copy, PartialEq)]
enum Mapping {
    PerCorner,
    PerPoint,
    PerPolygon,
    AllSame,
}

/// A layer element's values, mapping and indices.
struct Layer {
    mapping: Mapping,
    indices: Option<Vec<i64>>,
    count: usize,
    path: String,
}

impl Layer {
    fn of(
        element: &super::tree::Node,
        values: &str,
        index: &str,
        width: usize,
        path: String,
    ) -> Result<(Self, Vec<f64>), FbxError> {
        let text = |name: &str| element.child(name).and_then(|n| n.text()).unwrap_or("");
        let mapping = match text("MappingInformationType") {
            "ByPolygonVertex" => Mapping::PerCorner,
            "ByVertice" | "ByVertex" | "ByControlPoint" => Mapping::PerPoint,
            "ByPolygon" => Mapping::PerPolygon,
            "AllSame" => Mapping::AllSame,
            other => {
                return Err(FbxError::Malformed {
                    path,
                    problem: format!("the mapping '{other}' is not one FBX defines"),
                })
            }
        };
        let data = element
            .child(values)
            .and_then(|n| n.reals())
            .ok_or_else(|| FbxError::Missing {
                path: path.clone(),
                what: values.to_owned(),
            })?;
        // A material layer's values are themselves the indices.
        let indices = match text("ReferenceInformationType") {
            "IndexToDirect" | "Index" if !index.is_empty() => {
                Some(element.child(index).and_then(|n| n.ints()).ok_or_else(|| {
                    FbxError::Missing {
                        path: path.clone(),
                        what: index.to_owned(),
                    }
                })?)
            }
            _ => None,
        };
        Ok((
            Layer {
                mapping,
                indices,
                count: data.len() / width.max(1),
                path,
            },
            data,
        ))
    }

    /// The value index for polygon `polygon`, corner `corner` (its index in
    /// `PolygonVertexIndex`) of control point `point`.
    fn index(&self, corner: usize, polygon: usize, point: usize) -> Result<usize, FbxError> {
        let at = match self.mapping {
            Mapping::PerCorner => corner,
            Mapping::PerPoint => point,
            Mapping::PerPolygon => polygon,
            Mapping::AllSame => 0,
        };
        let at = match &self.indices {
            Some(indices) => {
                let i = *indices
                    .get(at)
                    .ok_or_else(|| self.past(at, indices.len()))?;
                usize::try_from(i).map_err(|_| self.past(at, indices.len()))?
            }
            None => at,
        };
        if at >= self.count {
            return Err(self.past(at, self.count));
        }
        Ok(at)
    }

    /// Whether every corner of `corners` (a `PolygonVertexIndex`) finds
    /// its value.
    fn fits(&self, corners: &[i64]) -> bool {
        let mut polygon = 0;
        for (corner, &raw) in corners.iter().enumerate() {
            let point = usize::try_from(if raw < 0 { !raw } else { raw }).unwrap_or(usize::MAX);
            if self.index(corner, polygon, point).is_err() {
                return false;
            }
            polygon += usize::from(raw < 0);
        }
        true
    }

    fn past(&self, index: usize, count: usize) -> FbxError {
        FbxError::Malformed {
            path: self.path.clone(),
            problem: format!("index {index} is past its {count} values"),
        }
    }
}

/// Reads `geometry` (a `Geometry` of kind `Mesh`), its points put through
/// `geometric` (the model's geometric transform).
///
/// Longer than a screen: the geometry's layers (points, polygons, normals, UVs,
/// materials) read in the order FBX stores them, each checked against the
/// polygon corners read first.
pub fn mesh_data(geometry: &Object, geometric: DMat4) -> Result<MeshData, FbxError> {
    let points = geometry
        .required("Vertices")?
        .reals()
        .ok_or_else(|| FbxError::Missing {
            path: geometry.at("Vertices"),
            what: "an array".to_owned(),
        })?;
    let point_count = points.len() / 3;
    let corners = geometry
        .required("PolygonVertexIndex")?
        .ints()
        .ok_or_else(|| FbxError::Missing {
            path: geometry.at("PolygonVertexIndex"),
            what: "an array of integers".to_owned(),
        })?;
    // UVs and material slots that do not add up (no mapping, an index past
    // the values) leave the mesh without UVs or in its first material, as
    // three.js draws it, rather than refusing the file; the points and
    // polygons, checked above and below, are what must be right.
    let uv_layer = geometry
        .node
        .child("LayerElementUV")
        .and_then(|e| Layer::of(e, "UV", "UVIndex", 2, geometry.at("LayerElementUV")).ok())
        .filter(|(layer, _)| layer.fits(&corners));
    let material_layer = geometry
        .node
        .child("LayerElementMaterial")
        .and_then(|e| Layer::of(e, "Materials", "", 1, geometry.at("LayerElementMaterial")).ok())
        .filter(|(layer, _)| layer.fits(&corners));
    let mut positions = Vec::new();
    let mut uvs: Vec<[f32; 2]> = Vec::new();
    let mut source = Vec::new();
    let mut made: HashMap<(usize, usize), u32> = HashMap::new();
    let mut by_material: HashMap<usize, Vec<u32>> = HashMap::new();
    let mut polygon_vertices: Vec<u32> = Vec::new();
    let mut ears = Ears::default();
    let mut polygon = 0usize;
    for (corner, &raw) in corners.iter().enumerate() {
        let last = raw < 0;
        let point = if last { !raw } else { raw };
        let point = usize::try_from(point)
            .ok()
            .filter(|&p| p < point_count)
            .ok_or_else(|| FbxError::Malformed {
                path: geometry.at("PolygonVertexIndex"),
                problem: format!(
                    "corner {corner} names point {point}, past the {point_count} points"
                ),
            })?;
        let uv = match &uv_layer {
            Some((layer, _)) => layer.index(corner, polygon, point)?,
            None => usize::MAX,
        };
        let vertex = *made.entry((point, uv)).or_insert_with(|| {
            let p = DVec3::new(
                points[3 * point],
                points[3 * point + 1],
                points[3 * point + 2],
            );
            positions.push(geometric.transform_point3(p));
            source.push(point);
            if let Some((_, data)) = &uv_layer {
                uvs.push([data[2 * uv] as f32, 1.0 - data[2 * uv + 1] as f32]);
            }
            (positions.len() - 1) as u32
        });
        polygon_vertices.push(vertex);
        if last {
            let slot = match &material_layer {
                Some((layer, data)) => {
                    let at = layer.index(corner, polygon, point)?;
                    usize::try_from(data[at] as i64).unwrap_or(usize::MAX)
                }
                None => 0,
            };
            let triangles = by_material.entry(slot).or_default();
            triangulate(&polygon_vertices, &positions, &mut ears, triangles);
            polygon_vertices.clear();
            polygon += 1;
        }
    }
    let mut triangles: Vec<(usize, Vec<u32>)> = by_material.into_iter().collect();
    triangles.sort_by_key(|(slot, _)| *slot);
    Ok(MeshData {
        positions,
        uvs: uv_layer.map(|_| uvs),
        triangles,
        source,
        point_count,
    })
}

/// The skin deforming `geometry`, if any: its clusters' bones, bind
/// transforms and weights; `point_count` control points.
pub fn skin_of(
    objects: &Objects,
    geometry: &Object,
    point_count: usize,
) -> Result<Option<Skin>, FbxError> {
    let Some((skin, _)) = objects
        .children_of_class(geometry.id, "Deformer")
        .find(|(d, _)| d.kind == "Skin")
    else {
        return Ok(None);
    };
    let mut joints = Vec::new();
    let mut influences: Vec<Vec<(usize, f32)>> = vec![Vec::new(); point_count];
    for (cluster, _) in objects
        .children_of_class(skin.id, "Deformer")
        .filter(|(d, _)| d.kind == "Cluster")
    {
        let Some((bone, _)) = objects.children_of_class(cluster.id, "Model").next() else {
            continue; // a cluster without a bone moves nothing
        };
        let joint = joints.len();
        let (link, mesh_to_bone) = cluster_binds(cluster, objects.by_maya)?;
        joints.push((bone.id, link, mesh_to_bone));
        cluster_weights(cluster, joint, &mut influences)?;
    }
    if joints.is_empty() {
        return Ok(None);
    }
    for list in &mut influences {
        // The largest influences, renormalised, as glTF files are treated.
        list.sort_by(|a, b| b.1.total_cmp(&a.1));
        list.truncate(MAX_INFLUENCES);
        let sum: f32 = list.iter().map(|(_, w)| w).sum();
        if sum > 0.0 {
            for (_, w) in list.iter_mut() {
                *w /= sum;
            }
        }
    }
    Ok(Some(Skin { joints, influences }))
}

/// A cluster's bind: its `TransformLink` (the bone's world at bind; none
/// where the bone was bound where it rests) and its `Transform` (the mesh
/// in the bone's frame at bind), the latter left out in files Maya wrote.
fn cluster_binds(
    cluster: &Object,
    by_maya: bool,
) -> Result<(Option<DMat4>, Option<DMat4>), FbxError> {
    let link = match cluster.node.child("TransformLink") {
        None => None,
        Some(node) => Some(
            node.reals()
                .filter(|m| m.len() == 16)
                .map(|m| DMat4::from_cols_slice(&m))
                .ok_or_else(|| FbxError::Malformed {
                    path: cluster.at("TransformLink"),
                    problem: "not 16 numbers".to_owned(),
                })?,
        ),
    };
    let mesh_to_bone = cluster
        .node
        .child("Transform")
        .and_then(|n| n.reals())
        .filter(|m| m.len() == 16)
        .map(|m| DMat4::from_cols_slice(&m))
        .filter(|m| m.is_finite() && m.determinant().abs() > 1e-300 && !by_maya);
    Ok((link, mesh_to_bone))
}

/// Adds a cluster's positive weights, as joint `joint`, to the
/// influences of the control points it names.
fn cluster_weights(
    cluster: &Object,
    joint: usize,
    influences: &mut [Vec<(usize, f32)>],
) -> Result<(), FbxError> {
    let (Some(indexes), Some(weights)) =
        (cluster.node.child("Indexes"), cluster.node.child("Weights"))
    else {
        return Ok(());
    };
    let indexes = indexes.ints().unwrap_or_default();
    let weights = weights.reals().unwrap_or_default();
    if indexes.len() != weights.len() {
        return Err(FbxError::Malformed {
            path: cluster.at("Weights"),
            problem: format!("{} weights for {} indexes", weights.len(), indexes.len()),
        });
    }
    let point_count = influences.len();
    for (&point, &weight) in indexes.iter().zip(&weights) {
        let slot = usize::try_from(point)
            .ok()
            .and_then(|p| influences.get_mut(p))
            .ok_or_else(|| FbxError::Malformed {
                path: cluster.at("Indexes"),
                problem: format!("point {point} is past the {point_count} points"),
            })?;
        if weight > 0.0 && weight.is_finite() {
            slot.push((joint, weight as f32));
        }
    }
    Ok(())
}

/// The blend shape channels deforming `geometry`: for a channel with
/// in-betweens, its full shape (the last, at the largest full weight). In
/// a file of Blender's, a channel's `FullWeights` with one number per
/// point of its shape are those points' weights in percent (a shape key's
/// vertex group), as ufbx reads them.
pub fn shapes_of(
    objects: &Objects,
    geometry: &Object,
    point_count: usize,
    geometric: DMat4,
) -> Result<Vec<Shape>, FbxError> {
    let mut shapes = Vec::new();
    for (blend, _) in objects
        .children_of_class(geometry.id, "Deformer")
        .filter(|(d, _)| d.kind == "BlendShape")
    {
        for (channel, _) in objects
            .children_of_class(blend.id, "Deformer")
            .filter(|(d, _)| d.kind == "BlendShapeChannel")
        {
            let Some((shape, _)) = objects.children_of_class(channel.id, "Geometry").last() else {
                continue;
            };
            let indexes = shape.required("Indexes")?.ints().unwrap_or_default();
            let deltas = shape.required("Vertices")?.reals().unwrap_or_default();
            if deltas.len() != 3 * indexes.len() {
                return Err(FbxError::Malformed {
                    path: shape.at("Vertices"),
                    problem: format!("{} numbers for {} indexes", deltas.len(), indexes.len()),
                });
            }
            let point_weights = objects
                .by_blender
                .then(|| channel.node.child("FullWeights").and_then(|n| n.reals()))
                .flatten()
                .filter(|w| w.len() == indexes.len() && w.iter().all(|w| w.is_finite()));
            let mut offsets = HashMap::new();
            for (k, &point) in indexes.iter().enumerate() {
                let point = usize::try_from(point)
                    .ok()
                    .filter(|&p| p < point_count)
                    .ok_or_else(|| FbxError::Malformed {
                        path: shape.at("Indexes"),
                        problem: format!("point {point} is past the {point_count} points"),
                    })?;
                let mut d = DVec3::new(deltas[3 * k], deltas[3 * k + 1], deltas[3 * k + 2]);
                if let Some(weights) = &point_weights {
                    d *= weights[k] / 100.0;
                }
                offsets.insert(point, geometric.transform_vector3(d));
            }
            let percent = channel
                .number("DeformPercent")
                .or_else(|| {
                    channel
                        .node
                        .child("DeformPercent")
                        .and_then(|n| n.reals())
                        .and_then(|v| v.first().copied())
                })
                .unwrap_or(0.0);
            shapes.push(Shape {
                name: channel.name.clone(),
                weight: percent / 100.0,
                channel: channel.id,
                offsets,
            });
        }
    }
    Ok(shapes)
}

/// A mesh model read: its node, data, skin and shapes.
pub struct ReadMesh<'o, 'a> {
    /// Its model's node.
    pub node: usize,
    /// Its model.
    pub model: &'o Object<'a>,
    /// Its vertices and triangles.
    pub data: MeshData,
    /// Its skin, if any.
    pub skin: Option<Skin>,
    /// Its blend shapes.
    pub shapes: Vec<Shape>,
}
