//! A glTF file's base colour textures on the GPU: the images the page
//! decoded (the browser decodes PNG and JPEG; the core never does), each
//! uploaded once per lab and sampled by the fill of the surfaces whose
//! material shows it, at the file's UVs, times the material's factor.

use super::uniforms::MeshUniforms;
use glow::HasContext;

/// The texture unit the base colour uses (0: the palette, 1: the morphs).
const BASE_COLOUR_UNIT: u32 = 2;

/// The largest texture side accepted, in pixels: WebGL2 promises 2048.
pub const MAX_TEXTURE_SIDE: u32 = 2048;

/// The most textures one lab draws with: each up to 16 MiB of pixels, so
/// 64 of them stay within 1 GiB of GPU memory at the worst.
pub const MAX_TEXTURES: usize = 64;

/// The base colour textures of one lab, by image index (`Scene::images`;
/// index 0 too for a scene whose only image is its base colour's).
#[derive(Default)]
pub struct BaseColourGpu {
    lab_id: Option<u64>,
    /// Each image's texture and its width and height, pixels.
    textures: Vec<Option<(glow::Texture, [u32; 2])>>,
}

impl BaseColourGpu {
    /// Uploads `width × height` RGBA pixels, rows from the image's top, as
    /// image `index` of lab `lab_id` (glTF's UV `(0, 0)` is the top left,
    /// which is where WebGL puts the first row). Another lab's textures are
    /// freed first.
    pub fn upload(
        &mut self,
        gl: &glow::Context,
        lab_id: u64,
        index: usize,
        width: u32,
        height: u32,
        rgba: &[u8],
    ) -> Result<(), String> {
        if width == 0 || height == 0 || width > MAX_TEXTURE_SIDE || height > MAX_TEXTURE_SIDE {
            return Err(format!(
                "a {width} × {height} texture: each side must be 1 to {MAX_TEXTURE_SIDE} pixels"
            ));
        }
        let expected = 4 * width as usize * height as usize;
        if rgba.len() != expected {
            return Err(format!(
                "{} bytes of pixels for a {width} × {height} texture, which needs {expected}",
                rgba.len()
            ));
        }
        if index >= MAX_TEXTURES {
            return Err(format!("texture {index}: at most {MAX_TEXTURES} are drawn"));
        }
        self.keep_only(gl, lab_id);
        self.lab_id = Some(lab_id);
        if self.textures.len() <= index {
            self.textures.resize(index + 1, None);
        }
        // SAFETY: plain WebGL calls on a live context; `rgba` outlives them.
        #[allow(unsafe_code)]
        unsafe {
            if let Some((old, _)) = self.textures[index].take() {
                gl.delete_texture(old);
            }
            let texture = gl.create_texture()?;
            gl.active_texture(glow::TEXTURE0 + BASE_COLOUR_UNIT);
            gl.bind_texture(glow::TEXTURE_2D, Some(texture));
            gl.tex_image_2d(
                glow::TEXTURE_2D,
                0,
                glow::RGBA8 as i32,
                width as i32,
                height as i32,
                0,
                glow::RGBA,
                glow::UNSIGNED_BYTE,
                glow::PixelUnpackData::Slice(Some(rgba)),
            );
            gl.generate_mipmap(glow::TEXTURE_2D);
            gl.tex_parameter_i32(
                glow::TEXTURE_2D,
                glow::TEXTURE_MIN_FILTER,
                glow::LINEAR_MIPMAP_LINEAR as i32,
            );
            gl.tex_parameter_i32(
                glow::TEXTURE_2D,
                glow::TEXTURE_MAG_FILTER,
                glow::LINEAR as i32,
            );
            gl.active_texture(glow::TEXTURE0);
            self.textures[index] = Some((texture, [width, height]));
        }
        Ok(())
    }

    /// The width and height of image `index` of lab `lab_id`, when it is
    /// on the GPU.
    pub fn size_for(&self, lab_id: u64, index: usize) -> Option<[u32; 2]> {
        self.texture(lab_id, index).map(|(_, size)| size)
    }

    fn texture(&self, lab_id: u64, index: usize) -> Option<(glow::Texture, [u32; 2])> {
        if self.lab_id != Some(lab_id) {
            return None;
        }
        self.textures.get(index).copied().flatten()
    }

    /// Binds image `index` of lab `lab_id` to the program's
    /// `u_base_colour`, if it is on the GPU; whether it was.
    pub fn bind(
        &self,
        gl: &glow::Context,
        lab_id: u64,
        index: usize,
        uniforms: &MeshUniforms,
    ) -> bool {
        let Some((texture, _)) = self.texture(lab_id, index) else {
            return false;
        };
        #[allow(unsafe_code)]
        unsafe {
            gl.active_texture(glow::TEXTURE0 + BASE_COLOUR_UNIT);
            gl.bind_texture(glow::TEXTURE_2D, Some(texture));
            gl.active_texture(glow::TEXTURE0);
            gl.uniform_1_i32(uniforms.base_colour.as_ref(), BASE_COLOUR_UNIT as i32);
        }
        true
    }

    /// Frees the textures if they belong to a lab other than `lab_id`.
    pub fn keep_only(&mut self, gl: &glow::Context, lab_id: u64) {
        if self.lab_id.is_some_and(|id| id != lab_id) {
            self.delete(gl);
        }
    }

    /// Frees the textures.
    pub fn delete(&mut self, gl: &glow::Context) {
        for (texture, _) in self.textures.drain(..).flatten() {
            #[allow(unsafe_code)]
            unsafe {
                gl.delete_texture(texture);
            }
        }
        self.lab_id = None;
    }
}
