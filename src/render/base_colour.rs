//! A glTF file's base colour texture on the GPU: the image the page decoded
//! (the browser decodes PNG and JPEG; the core never does), uploaded once per
//! lab and sampled by the skin's fill at the file's UVs, times the
//! material's factor.

use super::uniforms::MeshUniforms;
use glow::HasContext;

/// The texture unit the base colour uses (0: the palette, 1: the morphs).
const BASE_COLOUR_UNIT: u32 = 2;

/// The largest texture side accepted, in pixels: WebGL2 promises 2048.
pub const MAX_TEXTURE_SIDE: u32 = 2048;

/// The base colour texture and the lab it belongs to.
#[derive(Default)]
pub struct BaseColourGpu {
    texture: Option<(u64, glow::Texture)>,
    /// The texture's width and height, pixels.
    size: [u32; 2],
}

impl BaseColourGpu {
    /// Uploads `width × height` RGBA pixels, rows from the image's top, as
    /// lab `lab_id`'s base colour (glTF's UV `(0, 0)` is the top left, which
    /// is where WebGL puts the first row).
    pub fn upload(
        &mut self,
        gl: &glow::Context,
        lab_id: u64,
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
        self.delete(gl);
        // SAFETY: plain WebGL calls on a live context; `rgba` outlives them.
        #[allow(unsafe_code)]
        unsafe {
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
            self.texture = Some((lab_id, texture));
            self.size = [width, height];
        }
        Ok(())
    }

    /// The width and height of lab `lab_id`'s texture, when it has one.
    pub fn size_for(&self, lab_id: u64) -> Option<[u32; 2]> {
        self.texture
            .filter(|(id, _)| *id == lab_id)
            .map(|_| self.size)
    }

    /// Binds the texture for lab `lab_id` to the program's `u_base_colour`,
    /// if it has one; whether it did.
    pub fn bind(&self, gl: &glow::Context, lab_id: u64, uniforms: &MeshUniforms) -> bool {
        let Some((_, texture)) = self.texture.filter(|(id, _)| *id == lab_id) else {
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

    /// Frees the texture if it belongs to a lab other than `lab_id`.
    pub fn keep_only(&mut self, gl: &glow::Context, lab_id: u64) {
        if self.texture.is_some_and(|(id, _)| id != lab_id) {
            self.delete(gl);
        }
    }

    /// Frees the texture.
    pub fn delete(&mut self, gl: &glow::Context) {
        if let Some((_, texture)) = self.texture.take() {
            #[allow(unsafe_code)]
            unsafe {
                gl.delete_texture(texture);
            }
        }
    }
}
