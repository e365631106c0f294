//! Pieces drawn once and kept: a road, a settlement or an outline looks
//! the same in every picture that has it at that place, so each is drawn
//! alone the first time it is needed and kept as the palette indices of
//! the pixels it covers. A picture copies its fixed layer's indices and
//! puts its pieces' on them, in drawing order: the same pixels as drawing
//! them all (no anti-aliasing, so a piece's pixels do not depend on what
//! lies under it), without drawing or looking a colour up per picture
//! (docs/performance.md, "The board picture in mails").

use super::draw::{self, Piece};
use super::geometry::Frame;
use super::palette::{self, CLEAR};
use std::sync::{Arc, LazyLock};

/// A piece's pixels: the indices of its bounding box, CLEAR where it does
/// not cover the picture, and the runs of each row that it covers.
pub struct Sprite {
    left: usize,
    top: usize,
    width: usize,
    indices: Vec<u8>,
    /// (row, first column, length) of each run of covered pixels.
    runs: Vec<(usize, usize, usize)>,
}

/// Every piece at every place of the board, in both frames, the fixed
/// layers' fields, harbors and tokens included, is some 4,500: all are
/// kept (a few MB), so none is drawn twice.
const KEPT: usize = 8192;

static SPRITES: LazyLock<quick_cache::sync::Cache<(Piece, u32), Arc<Sprite>>> =
    LazyLock::new(|| quick_cache::sync::Cache::new(KEPT));

/// `piece` in `frame`, drawn now or kept from before.
pub fn of(piece: Piece, frame: &Frame) -> Result<Arc<Sprite>, String> {
    SPRITES.get_or_insert_with(&(piece, frame.height), || {
        Sprite::drawn(piece, frame).map(Arc::new)
    })
}

impl Sprite {
    fn drawn(piece: Piece, frame: &Frame) -> Result<Sprite, String> {
        let empty = Sprite {
            left: 0,
            top: 0,
            width: 0,
            indices: Vec::new(),
            runs: Vec::new(),
        };
        let Some((pixmap, (x, y))) = draw::alone(piece, frame)? else {
            return Ok(empty);
        };
        let indices = palette::indices(pixmap.data())?;
        let rows: Vec<&[u8]> = indices.chunks_exact(pixmap.width() as usize).collect();
        let covered = |row: &&[u8]| row.iter().any(|&i| i != CLEAR);
        let (Some(top), Some(bottom)) = (
            rows.iter().position(covered),
            rows.iter().rposition(covered),
        ) else {
            return Ok(empty);
        };
        let rows = &rows[top..=bottom];
        let left = rows
            .iter()
            .filter_map(|r| r.iter().position(|&i| i != CLEAR))
            .min()
            .unwrap_or(0);
        let right = rows
            .iter()
            .filter_map(|r| r.iter().rposition(|&i| i != CLEAR))
            .max()
            .unwrap_or(left);
        let width = right + 1 - left;
        let indices: Vec<u8> = rows
            .iter()
            .flat_map(|r| r[left..=right].iter().copied())
            .collect();
        let mut runs = Vec::new();
        for (row, line) in indices.chunks_exact(width).enumerate() {
            let mut col = 0;
            while col < width {
                let start = col + line[col..].iter().take_while(|&&i| i == CLEAR).count();
                let len = line[start..].iter().take_while(|&&i| i != CLEAR).count();
                if len > 0 {
                    runs.push((row, start, len));
                }
                col = start + len;
            }
        }
        Ok(Sprite {
            left: x as usize + left,
            top: y as usize + top,
            width,
            indices,
            runs,
        })
    }

    /// Puts the piece's pixels on `picture`, `width` indices a row: each
    /// run copied whole (a pixel-by-pixel test for CLEAR was a sixth of a
    /// picture's time).
    pub fn put_on(&self, picture: &mut [u8], width: usize) {
        if self.width == 0 || self.left + self.width > width {
            return;
        }
        for &(row, start, len) in &self.runs {
            let at = (self.top + row) * width + self.left + start;
            let Some(under) = picture.get_mut(at..at + len) else {
                return;
            };
            let from = row * self.width + start;
            under.copy_from_slice(&self.indices[from..from + len]);
        }
    }
}
