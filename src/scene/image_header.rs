//! An encoded image's size read from its header, before any decoder sees
//! it: a stranger's 0.26 MB PNG may declare 16384 × 16384 pixels (1 GiB
//! decoded), and the page refuses it by these numbers instead of decoding
//! it first.

/// Width and height of a PNG (the IHDR chunk, bytes 16–23) or a baseline
/// or progressive JPEG (the first SOFn segment); `None` when `bytes` is
/// neither or its header is cut short.
pub fn encoded_size(bytes: &[u8]) -> Option<(u32, u32)> {
    png_size(bytes).or_else(|| jpeg_size(bytes))
}

fn be32(bytes: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
}

fn be16(bytes: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_be_bytes(bytes.get(at..at + 2)?.try_into().ok()?))
}

/// The signature, then the IHDR chunk first: length 13, "IHDR", width, height.
fn png_size(bytes: &[u8]) -> Option<(u32, u32)> {
    const SIGNATURE: [u8; 8] = [0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a];
    if bytes.get(..8)? != SIGNATURE || bytes.get(12..16)? != b"IHDR" {
        return None;
    }
    Some((be32(bytes, 16)?, be32(bytes, 20)?))
}

/// Walks the marker segments from SOI to the first start-of-frame (C0–CF
/// except C4 DHT, C8 JPG and CC DAC), which holds height then width.
fn jpeg_size(bytes: &[u8]) -> Option<(u32, u32)> {
    if bytes.get(..2)? != [0xff, 0xd8] {
        return None;
    }
    let mut at = 2;
    loop {
        // Fill bytes (0xff) may precede a marker.
        while *bytes.get(at)? == 0xff && *bytes.get(at + 1)? == 0xff {
            at += 1;
        }
        if *bytes.get(at)? != 0xff {
            return None;
        }
        let marker = *bytes.get(at + 1)?;
        let length = usize::from(be16(bytes, at + 2)?);
        if (0xc0..=0xcf).contains(&marker) && ![0xc4, 0xc8, 0xcc].contains(&marker) {
            let height = be16(bytes, at + 5)?;
            let width = be16(bytes, at + 7)?;
            return Some((u32::from(width), u32::from(height)));
        }
        if length < 2 {
            return None;
        }
        at += 2 + length;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_png_header_gives_its_size() {
        let mut png = vec![0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13];
        png.extend(b"IHDR");
        png.extend(16384_u32.to_be_bytes());
        png.extend(300_u32.to_be_bytes());
        png.extend([8, 6, 0, 0, 0]);
        assert_eq!(encoded_size(&png), Some((16384, 300)));
        assert_eq!(encoded_size(&png[..20]), None, "cut short");
    }

    #[test]
    fn a_jpeg_header_gives_its_size_past_other_segments() {
        // SOI, an APP0 segment of 16 bytes, a DHT (not a frame), then SOF2.
        let mut jpeg = vec![0xff, 0xd8, 0xff, 0xe0, 0, 16];
        jpeg.extend([0; 14]);
        jpeg.extend([0xff, 0xc4, 0, 4, 0, 0]);
        jpeg.extend([
            0xff, 0xff, 0xc2, 0, 11, 8, 0x02, 0x58, 0x03, 0x20, 3, 0, 0, 0,
        ]);
        assert_eq!(encoded_size(&jpeg), Some((800, 600)));
        assert_eq!(encoded_size(b"GIF89a"), None);
    }
}
