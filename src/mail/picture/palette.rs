//! A palette PNG of a picture drawn in a few flat colours: one byte per
//! pixel instead of four, and long runs of one index that deflate well,
//! so a board is a few kB and quick to write.

/// A palette PNG of the opaque RGBA `pixels`; fails past 256 colours.
pub fn encode(width: u32, height: u32, pixels: &[u8]) -> Result<Vec<u8>, String> {
    let mut palette: Vec<u32> = Vec::new();
    let mut indices = Vec::with_capacity(pixels.len() / 4);
    // Neighbouring pixels mostly share their colour: look up only changes.
    let (mut last, mut last_index) = (None, 0u8);
    for pixel in pixels.chunks_exact(4) {
        let colour = u32::from_le_bytes([pixel[0], pixel[1], pixel[2], pixel[3]]);
        if last != Some(colour) {
            last_index = match palette.iter().position(|&c| c == colour) {
                Some(i) => i as u8,
                None if palette.len() < 256 => {
                    palette.push(colour);
                    (palette.len() - 1) as u8
                }
                None => return Err("more than 256 colours in a board picture".into()),
            };
            last = Some(colour);
        }
        indices.push(last_index);
    }
    let rgb: Vec<u8> = palette
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
    // zlib's level 2 (flate2): a third of the bytes of png's `Fast`
    // (fdeflate, tuned for filtered photographs) on these long runs of one
    // index, for little more time (docs/performance.md).
    encoder.set_deflate_compression(png::DeflateCompression::Level(2));
    // Filters predict smooth gradients; palette indices have none.
    encoder.set_filter(png::Filter::NoFilter);
    let mut writer = encoder.write_header().map_err(|e| e.to_string())?;
    writer
        .write_image_data(&indices)
        .map_err(|e| e.to_string())?;
    writer.finish().map_err(|e| e.to_string())?;
    Ok(png)
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

    #[test]
    fn too_many_colours_are_refused() {
        let pixels: Vec<u8> = (0..300u32)
            .flat_map(|i| [i as u8, (i >> 8) as u8, 0, 255])
            .collect();
        assert!(encode(300, 1, &pixels).is_err());
    }
}
