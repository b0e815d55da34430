//! Wavefront OBJ with its MTL materials, as a static scene: each object or
//! group (`o`/`g`) and each material run within it is one static mesh; the
//! skeleton is the one root bone every scene has, at the origin, so that a
//! rig can be built on it. Parsing is `tobj`'s (positions, texture
//! coordinates, normals and faces with relative indices), its polygons cut
//! as FBX's are (convex ones as fans, concave ones by ear clipping); the
//! meshes, the materials (`Kd`, `d`, `map_Kd`)
//! and their textures then go through the glTF reader, so counts, budgets
//! and named errors are the glTF reader's.

use std::collections::HashMap;
use std::io::BufReader;

use glam::{DVec3, Vec3};
use serde_json::{json, Value};

use super::gltf::{read_built, GltfError, MAX_FILE_BYTES};
use super::gltf_write::{
    floats, vec3s, Builder, ARRAY_BUFFER, ELEMENT_ARRAY_BUFFER, FLOAT, UNSIGNED_INT,
};
use super::polygons::{triangulate, Ears};
use crate::scene::Scene;

/// Files chosen together with an OBJ file (its MTL and textures), by name.
pub type Files = HashMap<String, Vec<u8>>;

/// Why an OBJ file was not read.
#[derive(Debug, thiserror::Error)]
pub enum ObjError {
    /// Larger than [`MAX_FILE_BYTES`].
    #[error("OBJ: the file has {bytes} bytes; at most {max} are read")]
    TooLarge {
        /// The file's size.
        bytes: usize,
        /// [`MAX_FILE_BYTES`].
        max: usize,
    },
    /// A line the parser could not read.
    #[error("OBJ: {0}")]
    Parse(String),
    /// No face at all.
    #[error("OBJ: the file has no faces (a mesh needs at least one triangle)")]
    NoFaces,
    /// What the glTF reader refused of the meshes built from it.
    #[error("OBJ: {0}")]
    Scene(#[from] GltfError),
}

/// What each of `tobj`'s errors means, in words.
fn parse_error(error: &tobj::LoadError) -> String {
    use tobj::LoadError as E;
    match error {
        E::PositionParseError => "a vertex position (v) that is not three numbers".into(),
        E::NormalParseError => "a normal (vn) that is not three numbers".into(),
        E::TexcoordParseError => "a texture coordinate (vt) that is not two numbers".into(),
        E::FaceParseError => {
            "a face (f) whose corners are not v, v/vt, v//vn or v/vt/vn indices".into()
        }
        E::FaceVertexOutOfBounds => {
            "a face names a vertex past the vertices listed before it".into()
        }
        E::FaceTexCoordOutOfBounds => {
            "a face names a texture coordinate past those listed before it".into()
        }
        E::FaceNormalOutOfBounds => "a face names a normal past those listed before it".into(),
        E::InvalidPolygon => "a face with fewer than three corners".into(),
        E::InvalidObjectName => "an object or group (o/g) without a name".into(),
        E::MaterialParseError => "a material (MTL) line that cannot be read".into(),
        E::UnrecognizedCharacter => "a line that is not OBJ".into(),
        other => format!("the file cannot be read ({other})"),
    }
}

/// The file named `wanted` among `files`, by its name without folders, the
/// case of Latin letters aside.
fn find_file<'a>(files: &'a Files, wanted: &str) -> Option<&'a Vec<u8>> {
    let base = |name: &str| {
        name.rsplit(['/', '\\'])
            .next()
            .unwrap_or(name)
            .to_ascii_lowercase()
    };
    let wanted = base(wanted.trim());
    files
        .iter()
        .find(|(name, _)| base(name) == wanted)
        .map(|(_, bytes)| bytes)
}

/// What an empty `usemtl` becomes: a material no MTL defines, so that the
/// faces after it take the default look.
const NO_MATERIAL: &str = "usemtl (none)";

/// `text` with each `usemtl` that names no material (Blender writes one
/// for faces without a material) naming one no MTL defines: `tobj` refuses
/// the empty line, and three.js's `OBJLoader` gives such faces the default
/// material.
fn without_empty_materials(text: &str) -> std::borrow::Cow<'_, str> {
    let empty = |line: &str| line.trim() == "usemtl";
    if !text.lines().any(empty) {
        return std::borrow::Cow::Borrowed(text);
    }
    let lines: Vec<&str> = text
        .lines()
        .map(|line| if empty(line) { NO_MATERIAL } else { line })
        .collect();
    std::borrow::Cow::Owned(lines.join("\n"))
}

/// Reads an OBJ file without its materials' files.
pub fn scene_from_obj(text: &str) -> Result<Scene, ObjError> {
    scene_from_obj_files(text, &Files::new())
}

/// Reads an OBJ file; the MTL files it names (`mtllib`) and the textures
/// those name (`map_Kd`) are taken from `files`. A missing MTL or texture
/// is left out and named in the scene's list of what is not drawn.
pub fn scene_from_obj_files(text: &str, files: &Files) -> Result<Scene, ObjError> {
    if text.len() > MAX_FILE_BYTES {
        return Err(ObjError::TooLarge {
            bytes: text.len(),
            max: MAX_FILE_BYTES,
        });
    }
    let (models, materials, mut not_found) = parse(text, files)?;
    if models.iter().all(|model| model.mesh.indices.is_empty()) {
        return Err(ObjError::NoFaces);
    }
    let mut builder = Builder::default();
    let (gltf_materials, textures, images) =
        material_docs(&materials, files, &mut builder, &mut not_found);
    let mut meshes = Vec::new();
    let mut nodes = Vec::new();
    for model in models.iter().filter(|m| !m.mesh.indices.is_empty()) {
        meshes.push(mesh_doc(model, gltf_materials.len(), &mut builder));
        nodes.push(json!({"name": model.name, "mesh": meshes.len() - 1}));
    }
    let mut document = json!({
        "asset": {"version": "2.0", "generator": "Skinlab OBJ reader"},
        "scene": 0,
        "scenes": [{"nodes": (0..nodes.len()).collect::<Vec<_>>()}],
        "nodes": nodes,
        "meshes": meshes,
        "buffers": [{"byteLength": builder.bin.len()}],
        "bufferViews": builder.views,
        "accessors": builder.accessors,
    });
    for (key, list) in [
        ("materials", gltf_materials),
        ("textures", textures),
        ("images", images),
    ] {
        if !list.is_empty() {
            document[key] = Value::Array(list);
        }
    }
    let mut scene = read_built(&document.to_string(), &builder.bin)?;
    scene.not_drawn.extend(not_found);
    Ok(scene)
}

/// `tobj`'s models and materials, and the MTL files not found.
type Parsed = (Vec<tobj::Model>, Vec<tobj::Material>, Vec<String>);

/// `tobj`'s models and materials of `text`, its MTLs taken from `files`,
/// and the MTLs it names that are not among them.
fn parse(text: &str, files: &Files) -> Result<Parsed, ObjError> {
    let options = tobj::LoadOptions {
        single_index: true,
        // Polygons are cut here, concave ones too (tobj cuts fans).
        triangulate: false,
        ignore_points: true,
        ignore_lines: true,
    };
    let missing = std::cell::RefCell::new(Vec::new());
    let text = without_empty_materials(text);
    let (models, materials) =
        tobj::load_obj_buf(&mut BufReader::new(text.as_bytes()), &options, |path| {
            let name = path.to_string_lossy();
            match find_file(files, &name) {
                Some(bytes) => tobj::load_mtl_buf(&mut BufReader::new(bytes.as_slice())),
                None => {
                    missing
                        .borrow_mut()
                        .push(format!("the material file {name}"));
                    Err(tobj::LoadError::OpenFileFailed)
                }
            }
        })
        .map_err(|e| ObjError::Parse(parse_error(&e)))?;
    Ok((models, materials.unwrap_or_default(), missing.into_inner()))
}

/// The glTF mesh of one of `tobj`'s models: its positions, texture
/// coordinates (flipped to glTF's v) and triangles written to `builder`,
/// and its material where it is one of the `materials` first.
fn mesh_doc(model: &tobj::Model, materials: usize, builder: &mut Builder) -> Value {
    let mesh = &model.mesh;
    let positions: Vec<Vec3> = mesh
        .positions
        .chunks_exact(3)
        .map(|p| Vec3::new(p[0], p[1], p[2]))
        .collect();
    let mut attributes = json!({"POSITION": vec3s(builder, &positions, true)});
    if mesh.texcoords.len() == 2 * positions.len() {
        // OBJ's v grows upwards, glTF's downwards.
        let uvs = floats(
            mesh.texcoords
                .chunks_exact(2)
                .flat_map(|uv| [uv[0], 1.0 - uv[1]]),
        );
        let accessor = json!({"componentType": FLOAT, "count": positions.len(), "type": "VEC2"});
        attributes["TEXCOORD_0"] = builder.accessor(&uvs, Some(ARRAY_BUFFER), accessor).into();
    }
    let triangles = triangles_of(mesh, &positions);
    let indices: Vec<u8> = triangles.iter().flat_map(|i| i.to_le_bytes()).collect();
    let accessor =
        json!({"componentType": UNSIGNED_INT, "count": triangles.len(), "type": "SCALAR"});
    let indices = builder.accessor(&indices, Some(ELEMENT_ARRAY_BUFFER), accessor);
    let mut primitive = json!({"attributes": attributes, "indices": indices});
    if let Some(material) = mesh.material_id.filter(|&m| m < materials) {
        primitive["material"] = material.into();
    }
    json!({"name": model.name, "primitives": [primitive]})
}

/// The triangles of `mesh`'s faces (`face_arities` corners each, or three
/// where `tobj` lists none), each cut as [`triangulate`] cuts a polygon.
fn triangles_of(mesh: &tobj::Mesh, positions: &[Vec3]) -> Vec<u32> {
    if mesh.face_arities.is_empty() {
        return mesh.indices.clone();
    }
    let points: Vec<DVec3> = positions.iter().map(|p| p.as_dvec3()).collect();
    let mut ears = Ears::default();
    let mut triangles = Vec::with_capacity(mesh.indices.len());
    let mut first = 0usize;
    for &arity in &mesh.face_arities {
        let end = (first + arity as usize).min(mesh.indices.len());
        triangulate(
            &mesh.indices[first..end],
            &points,
            &mut ears,
            &mut triangles,
        );
        first = end;
    }
    triangles
}

/// The glTF materials, textures and images of the MTL's materials: `Kd` as
/// the base colour, `d` as its alpha (blended below 1), `map_Kd` as its
/// texture, found among `files`; a texture not found is named in
/// `not_found`.
fn material_docs(
    materials: &[tobj::Material],
    files: &Files,
    builder: &mut Builder,
    not_found: &mut Vec<String>,
) -> (Vec<Value>, Vec<Value>, Vec<Value>) {
    let (mut list, mut textures, mut images) = (Vec::new(), Vec::new(), Vec::new());
    for material in materials {
        let [r, g, b] = material.diffuse.unwrap_or([0.8, 0.8, 0.8]);
        let alpha = material.dissolve.unwrap_or(1.0).clamp(0.0, 1.0);
        let clamp = |c: f32| {
            if c.is_finite() {
                c.clamp(0.0, 1.0)
            } else {
                0.8
            }
        };
        let mut pbr = json!({
            "baseColorFactor": [clamp(r), clamp(g), clamp(b), alpha],
            "metallicFactor": 0.0,
            "roughnessFactor": 1.0,
        });
        if let Some(name) = material.diffuse_texture.as_deref() {
            // map_Kd may carry options before the file name (-s 1 1 1 name.png).
            let file = name.split_whitespace().last().unwrap_or(name);
            match find_file(files, file) {
                Some(bytes) => {
                    let mime = if bytes.starts_with(b"\x89PNG") {
                        "image/png"
                    } else {
                        "image/jpeg"
                    };
                    let view = builder.view(bytes, None);
                    images.push(json!({"bufferView": view, "mimeType": mime}));
                    textures.push(json!({"source": images.len() - 1}));
                    pbr["baseColorTexture"] = json!({"index": textures.len() - 1});
                }
                None => not_found.push(format!("the texture {file}")),
            }
        }
        let mut doc = json!({"name": material.name, "pbrMetallicRoughness": pbr});
        if alpha < 1.0 {
            doc["alphaMode"] = json!("BLEND");
        }
        list.push(doc);
    }
    (list, textures, images)
}
