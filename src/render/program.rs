//! Compiling and linking GLSL programs from the files in `shaders/`.

use glow::HasContext;

/// The header every shader starts with; `#define`s follow it.
const HEADER: &str = "#version 300 es\nprecision highp float;\nprecision highp int;\n";

/// Shader sources, `include_str!`'d so the wasm carries them.
pub const SKIN_CHUNK: &str = include_str!("../../shaders/skin.glsl");
/// The mesh's vertex shader (needs [`SKIN_CHUNK`] before it).
pub const MESH_VERT: &str = include_str!("../../shaders/mesh.vert");
/// The mesh's fragment shader.
pub const MESH_FRAG: &str = include_str!("../../shaders/mesh.frag");
/// The overlays' vertex shader.
pub const OVERLAY_VERT: &str = include_str!("../../shaders/overlay.vert");
/// The overlays' fragment shader.
pub const OVERLAY_FRAG: &str = include_str!("../../shaders/overlay.frag");

/// Attribute locations, fixed before linking so every program shares them.
pub const ATTRIBUTES: [(u32, &str); 7] = [
    (0, "a_position"),
    (1, "a_normal"),
    (2, "a_joints"),
    (3, "a_weights"),
    (4, "a_colour"),
    (5, "a_uv"),
    (CENTRE, "a_centre"),
];

/// Attribute location of each vertex's centre of rotation (CoR).
pub const CENTRE: u32 = 6;

/// Attribute location of the overlays' colour.
pub const OVERLAY_COLOUR: u32 = 1;

/// Assembles `HEADER + defines + chunks` into one source.
pub fn assemble(defines: &[String], chunks: &[&str]) -> String {
    let mut source = String::from(HEADER);
    for define in defines {
        source.push_str("#define ");
        source.push_str(define);
        source.push('\n');
    }
    for chunk in chunks {
        source.push_str(chunk);
        source.push('\n');
    }
    source
}

fn compile(gl: &glow::Context, kind: u32, source: &str) -> Result<glow::Shader, String> {
    // SAFETY: plain WebGL calls on a live context; no pointers cross.
    #[allow(unsafe_code)]
    unsafe {
        let shader = gl.create_shader(kind)?;
        gl.shader_source(shader, source);
        gl.compile_shader(shader);
        if gl.get_shader_compile_status(shader) {
            Ok(shader)
        } else {
            let log = gl.get_shader_info_log(shader);
            gl.delete_shader(shader);
            let stage = if kind == glow::VERTEX_SHADER {
                "vertex"
            } else {
                "fragment"
            };
            Err(format!("{stage} shader: {log}"))
        }
    }
}

/// Compiles and links a program; `feedback` names the varyings transform
/// feedback records. Returns the info log as the error.
pub fn link(
    gl: &glow::Context,
    vertex_source: &str,
    fragment_source: &str,
    attributes: &[(u32, &str)],
    feedback: &[&str],
) -> Result<glow::Program, String> {
    let vertex = compile(gl, glow::VERTEX_SHADER, vertex_source)?;
    let fragment = compile(gl, glow::FRAGMENT_SHADER, fragment_source)?;
    // SAFETY: plain WebGL calls on a live context; no pointers cross.
    #[allow(unsafe_code)]
    unsafe {
        let program = gl.create_program()?;
        gl.attach_shader(program, vertex);
        gl.attach_shader(program, fragment);
        for &(location, name) in attributes {
            gl.bind_attrib_location(program, location, name);
        }
        if !feedback.is_empty() {
            gl.transform_feedback_varyings(program, feedback, glow::INTERLEAVED_ATTRIBS);
        }
        gl.link_program(program);
        gl.detach_shader(program, vertex);
        gl.detach_shader(program, fragment);
        gl.delete_shader(vertex);
        gl.delete_shader(fragment);
        if gl.get_program_link_status(program) {
            Ok(program)
        } else {
            let log = gl.get_program_info_log(program);
            gl.delete_program(program);
            Err(format!("link: {log}"))
        }
    }
}
