//! A palette PNG of a picture drawn in a few flat colours: one byte per
//! pixel instead of four, and long runs of one index that deflate well,
//! so a board is a few kB and quick to write.

/// A picture as palette indices, one byte a pixel.
#[derive(Clone)]
pub struct Indexed {
    palette: Palette,
    indices: Vec<u8>,
}

impl Indexed {
    /// The opaque RGBA `pixels`; fails past 256 colours.
    pub fn of(pixels: &[u8]) -> Result<Indexed, String> {
        let mut palette = Palette::default();
        let mut indices = Vec::with_capacity(pixels.len() / 4);
        // Neighbouring pixels mostly share their colour: look up only changes.
        let (mut last, mut last_index) = (None, 0u8);
        for pixel in pixels.chunks_exact(4) {
            let colour = u32::from_le_bytes([pixel[0], pixel[1], pixel[2], pixel[3]]);
            if last != Some(colour) {
                last_index = palette.index(colour)?;
                last = Some(colour);
            }
            indices.push(last_index);
        }
        Ok(Indexed { palette, indices })
    }

    /// `pixels` (`width` wide), drawn over `base`, whose indices these
    /// are: only the pixels that differ from `base` are looked up, found
    /// by comparing rows, then runs of a few pixels, as bytes. A board's
    /// pieces cover a small part of it, and the palette pass over every
    /// pixel cost a third of a picture.
    pub fn over(&self, base: &[u8], pixels: &[u8], width: usize) -> Result<Indexed, String> {
        const RUN: usize = 8 * 4;
        let mut out = self.clone();
        let row_bytes = width * 4;
        let rows = pixels
            .chunks_exact(row_bytes)
            .zip(base.chunks_exact(row_bytes));
        for ((row, base_row), indices) in rows.zip(out.indices.chunks_exact_mut(width)) {
            if row == base_row {
                continue;
            }
            let runs = row.chunks(RUN).zip(base_row.chunks(RUN));
            for ((run, base_run), indices) in runs.zip(indices.chunks_mut(RUN / 4)) {
                if run == base_run {
                    continue;
                }
                let pixels = run.chunks_exact(4).zip(base_run.chunks_exact(4));
                for ((pixel, base_pixel), index) in pixels.zip(indices.iter_mut()) {
                    if pixel != base_pixel {
                        let colour = u32::from_le_bytes([pixel[0], pixel[1], pixel[2], pixel[3]]);
                        *index = out.palette.index(colour)?;
                    }
                }
            }
        }
        Ok(out)
    }

    /// The palette PNG.
    pub fn png(&self, width: u32, height: u32) -> Result<Vec<u8>, String> {
        let rgb: Vec<u8> = self
            .palette
            .colours
            .iter()
            .flat_map(|c| {
                let [r, g, b, _] = c.to_le_bytes();
                [r, g, b]
            })
            .collect();
        let mut png = Vec::with_capacity(16 * 1024);
        let mut encoder = png::Encoder::new(&mut png, width, height);
        encoder.set_color(png::ColorType::Indexed);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_palette(rgb);
        // png's fast level (fdeflate) with each row told as its difference
        // from the row above, mostly zeros: about 20 kB in 0.16 ms, where
        // zlib's level 2 on the plain rows gives 13 kB in 0.7 ms
        // (docs/performance.md).
        encoder.set_compression(png::Compression::Fast);
        encoder.set_filter(png::Filter::Up);
        let mut writer = encoder.write_header().map_err(|e| e.to_string())?;
        writer
            .write_image_data(&self.indices)
            .map_err(|e| e.to_string())?;
        writer.finish().map_err(|e| e.to_string())?;
        Ok(png)
    }
}

/// A palette PNG of the opaque RGBA `pixels`; fails past 256 colours.
#[cfg(test)]
fn encode(width: u32, height: u32, pixels: &[u8]) -> Result<Vec<u8>, String> {
    Indexed::of(pixels)?.png(width, height)
}

/// The colours met so far, found by a small open-addressed hash table: a
/// picture changes colour some ten thousand times, and a linear search of
/// the palette at each change cost more than the drawing's fills.
#[derive(Clone)]
struct Palette {
    colours: Vec<u32>,
    slots: [Option<(u32, u8)>; SLOTS],
}

const SLOTS: usize = 1024;

impl Default for Palette {
    fn default() -> Palette {
        Palette {
            colours: Vec::new(),
            slots: [None; SLOTS],
        }
    }
}

impl Palette {
    fn index(&mut self, colour: u32) -> Result<u8, String> {
        let mut slot = (colour.wrapping_mul(0x9e37_79b1) >> 22) as usize;
        loop {
            match self.slots[slot] {
                Some((c, i)) if c == colour => return Ok(i),
                Some(_) => slot = (slot + 1) % SLOTS,
                None => {
                    if self.colours.len() == 256 {
                        return Err("more than 256 colours in a board picture".into());
                    }
                    let i = self.colours.len() as u8;
                    self.colours.push(colour);
                    self.slots[slot] = Some((colour, i));
                    return Ok(i);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_png_decodes_to_the_same_colours() {
        let (red, sea) = ([200, 48, 42, 255], [61, 127, 184, 255]);
        let pixels: Vec<u8> = (0..12)
            .flat_map(|i| if i % 5 == 0 { red } else { sea })
            .collect();
        let png = encode(4, 3, &pixels).unwrap();
        let mut decoder = png::Decoder::new(std::io::Cursor::new(png));
        decoder.set_transformations(png::Transformations::EXPAND);
        let mut reader = decoder.read_info().unwrap();
        let mut out = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut out).unwrap();
        assert_eq!(info.color_type, png::ColorType::Rgb);
        let rgba: Vec<u8> = out[..info.buffer_size()]
            .chunks_exact(3)
            .flat_map(|p| [p[0], p[1], p[2], 255])
            .collect();
        assert_eq!(rgba, pixels);
    }

    /// Indices found from a base picture's are those of the whole
    /// picture, whatever part of a row or run changed.
    #[test]
    fn indices_over_a_base_are_those_of_the_whole_picture() {
        let (width, height) = (37, 5);
        let sea = [61, 127, 184, 255];
        let base: Vec<u8> = (0..width * height)
            .flat_map(|i| {
                if i % 11 == 0 {
                    [232, 197, 71, 255]
                } else {
                    sea
                }
            })
            .collect();
        let mut drawn = base.clone();
        for (pixel, colour) in [(0, [200, 48, 42]), (40, [36, 86, 184]), (41, [36, 86, 184])]
            .into_iter()
            .chain([(100, [232, 197, 71]), (184, [61, 127, 184])])
        {
            drawn[pixel * 4..pixel * 4 + 3].copy_from_slice(&colour);
        }
        let over = Indexed::of(&base)
            .unwrap()
            .over(&base, &drawn, width)
            .unwrap();
        let whole = Indexed::of(&drawn).unwrap();
        let colours = |i: &Indexed| -> Vec<u32> {
            i.indices
                .iter()
                .map(|&n| i.palette.colours[n as usize])
                .collect()
        };
        assert_eq!(colours(&over), colours(&whole));
        assert_ne!(colours(&over), colours(&Indexed::of(&base).unwrap()));
    }

    #[test]
    fn too_many_colours_are_refused() {
        let pixels: Vec<u8> = (0..300u32)
            .flat_map(|i| [i as u8, (i >> 8) as u8, 0, 255])
            .collect();
        assert!(encode(300, 1, &pixels).is_err());
    }
}
