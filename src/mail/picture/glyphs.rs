//! Digits as bars, seven-segment style: the picture's only text is
//! numbers, and bars need no font to load or shape.

use super::geometry::Point;
use tiny_skia::{Path, PathBuilder, Rect};

/// Segments in a box one wide and two high: top, upper right, lower
/// right, bottom, lower left, upper left, middle.
const SEGMENTS: [[(f32, f32); 2]; 7] = [
    [(0.0, 0.0), (1.0, 0.0)],
    [(1.0, 0.0), (1.0, 1.0)],
    [(1.0, 1.0), (1.0, 2.0)],
    [(0.0, 2.0), (1.0, 2.0)],
    [(0.0, 1.0), (0.0, 2.0)],
    [(0.0, 0.0), (0.0, 1.0)],
    [(0.0, 1.0), (1.0, 1.0)],
];

/// The segments lit for each digit, a bit per segment in the order above.
const LIT: [u8; 10] = [
    0b011_1111, // 0
    0b000_0110, // 1
    0b101_1011, // 2
    0b100_1111, // 3
    0b110_0110, // 4
    0b110_1101, // 5
    0b111_1101, // 6
    0b000_0111, // 7
    0b111_1111, // 8
    0b110_1111, // 9
];

/// The path of `number`'s digits, `height` pixels high, centred on
/// `centre`, each segment a bar `thickness` wide: fill it. Segments are
/// upright or level, so they are rectangles, cheap to fill.
pub fn number(number: u8, centre: Point, height: f32, thickness: f32) -> Option<Path> {
    let text = number.to_string();
    let scale = height / 2.0;
    let advance = scale * 1.6;
    let width = advance * (text.len() as f32 - 1.0) + scale;
    let left = centre.0 - width / 2.0;
    let top = centre.1 - height / 2.0;
    let half = thickness / 2.0;
    let mut path = PathBuilder::new();
    for (i, digit) in text.bytes().enumerate() {
        let lit = LIT[(digit - b'0') as usize];
        let x0 = left + i as f32 * advance;
        for (s, [from, to]) in SEGMENTS.iter().enumerate() {
            if lit & (1 << s) != 0 {
                let (x1, y1) = (x0 + from.0 * scale, top + from.1 * scale);
                let (x2, y2) = (x0 + to.0 * scale, top + to.1 * scale);
                if let Some(bar) = Rect::from_ltrb(x1 - half, y1 - half, x2 + half, y2 + half) {
                    path.push_rect(bar);
                }
            }
        }
    }
    path.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_digit_lights_the_segments_of_its_shape() {
        let count = |d: usize| LIT[d].count_ones();
        assert_eq!(
            (0..10).map(count).collect::<Vec<_>>(),
            [6, 2, 5, 5, 4, 5, 6, 3, 7, 6]
        );
        // Two digits are wider than one, and both sit on the centre.
        let one = number(8, (50.0, 50.0), 10.0, 1.0).unwrap().bounds();
        let two = number(88, (50.0, 50.0), 10.0, 1.0).unwrap().bounds();
        assert!(two.width() > one.width());
        assert!((two.left() + two.right() - 100.0).abs() < 0.01);
        assert!((one.top() - 44.5).abs() < 0.01 && (one.bottom() - 55.5).abs() < 0.01);
    }
}
