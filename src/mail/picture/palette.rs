//! The picture as a palette PNG: every colour the drawing uses (`colours`)
//! has a fixed index, so a picture is one byte a pixel, made of the fixed
//! layer's indices and the kept pieces' (`sprites`) without looking any
//! colour up, and long runs of one index deflate well into a few kB.

use super::colours::{self, Rgb};
use hexpost_engine::Resource;
use hexpost_engine::board::{HarborKind, Terrain};
use std::sync::LazyLock;

/// Every colour a picture may have, in index order.
static PALETTE: LazyLock<Vec<Rgb>> = LazyLock::new(|| {
    let mut all = vec![
        colours::SEA,
        colours::REMOVED,
        colours::HEX_BORDER,
        colours::TOKEN,
        colours::TOKEN_RING,
        colours::INK,
        colours::HOT_NUMBER,
        colours::HARBOR_RING,
        colours::HARBOR_OUT,
        colours::WHITE,
        colours::HIGHLIGHT,
        colours::WALL,
        colours::METROPOLIS,
        colours::TRACK,
    ];
    all.extend(colours::SEATS);
    all.extend(
        [
            Terrain::Forest,
            Terrain::Pasture,
            Terrain::Fields,
            Terrain::Hills,
            Terrain::Mountains,
            Terrain::Desert,
        ]
        .map(colours::terrain),
    );
    all.extend(Resource::ALL.map(|r| colours::harbor(HarborKind::Specific(r))));
    let mut unique = Vec::new();
    for colour in all {
        if !unique.contains(&colour) {
            unique.push(colour);
        }
    }
    unique
});

/// The sea's index: the palette's first colour, under everything else.
pub const SEA: u8 = 0;

/// Where a kept piece does not cover the picture (no palette has 255
/// colours here).
pub const CLEAR: u8 = u8::MAX;

/// The index of opaque `colour`, or CLEAR for a transparent pixel.
fn index(pixel: &[u8]) -> Result<u8, String> {
    if pixel[3] == 0 {
        return Ok(CLEAR);
    }
    let colour = [pixel[0], pixel[1], pixel[2]];
    match PALETTE.iter().position(|c| *c == colour) {
        Some(i) if pixel[3] == 255 => Ok(i as u8),
        _ => Err(format!("{pixel:?} is not a colour of the board picture")),
    }
}

/// The indices of RGBA `pixels`, opaque ones in the palette's colours and
/// transparent ones CLEAR.
pub fn indices(pixels: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(pixels.len() / 4);
    // Neighbouring pixels mostly share their colour: look up only changes.
    let (mut last, mut last_index) = (None, 0u8);
    for pixel in pixels.chunks_exact(4) {
        if last != Some(pixel) {
            last_index = index(pixel)?;
            last = Some(pixel);
        }
        out.push(last_index);
    }
    Ok(out)
}

/// The palette PNG of `indices`, `width` by `height`.
pub fn png(indices: &[u8], width: u32, height: u32) -> Result<Vec<u8>, String> {
    let rgb: Vec<u8> = PALETTE.iter().flatten().copied().collect();
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
        .write_image_data(indices)
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
        let png = png(&indices(&pixels).unwrap(), 4, 3).unwrap();
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
    fn every_colour_has_its_own_index_and_others_are_refused() {
        assert!(PALETTE.len() < CLEAR as usize);
        for (i, colour) in PALETTE.iter().enumerate() {
            let [r, g, b] = *colour;
            assert_eq!(index(&[r, g, b, 255]), Ok(i as u8));
        }
        assert_eq!(index(&[0, 0, 0, 0]), Ok(CLEAR));
        assert_eq!(PALETTE[SEA as usize], colours::SEA);
        assert!(index(&[1, 2, 3, 255]).is_err());
        // Half covered: an anti-aliased edge would be a colour of its own.
        let [r, g, b] = colours::SEA;
        assert!(index(&[r, g, b, 128]).is_err());
    }
}
