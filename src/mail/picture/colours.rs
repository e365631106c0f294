//! The picture's colours: the web client's board (web/public/style.css),
//! so a player sees one board in both places. Opaque, and few enough for a
//! palette PNG.

use hexpost_engine::Resource;
use hexpost_engine::board::{HarborKind, Terrain};

pub type Rgb = [u8; 3];

pub const SEA: Rgb = [0x3d, 0x7f, 0xb8];
pub const REMOVED: Rgb = [0x2d, 0x4f, 0x6e];
pub const HEX_BORDER: Rgb = [0xe9, 0xdc, 0xb0];
pub const TOKEN: Rgb = [0xf7, 0xf0, 0xdc];
pub const TOKEN_RING: Rgb = [0x6b, 0x5b, 0x3a];
pub const INK: Rgb = [0x22, 0x22, 0x22];
/// The numbers rolled most often, 6 and 8.
pub const HOT_NUMBER: Rgb = [0xc2, 0x1d, 0x1d];
pub const HARBOR_RING: Rgb = [0x4a, 0x3b, 0x1e];
pub const HARBOR_OUT: Rgb = [0x9f, 0xb6, 0xcc];
pub const WHITE: Rgb = [0xff, 0xff, 0xff];
/// What changed since the reader's last decision.
pub const HIGHLIGHT: Rgb = [0xff, 0xbf, 0x00];
pub const WALL: Rgb = [0x6b, 0x4a, 0x2b];
pub const METROPOLIS: Rgb = [0xd4, 0xa0, 0x17];
pub const TRACK: Rgb = [0x1d, 0x3a, 0x54];

/// By seat: red, blue, then the automated seats' white and orange.
pub const SEATS: [Rgb; 4] = [
    [0xc8, 0x30, 0x2a],
    [0x24, 0x56, 0xb8],
    [0xf4, 0xf4, 0xf0],
    [0xe5, 0x8a, 0x1f],
];

pub fn seat(seat: u8) -> Rgb {
    SEATS.get(seat as usize).copied().unwrap_or(INK)
}

pub fn terrain(terrain: Terrain) -> Rgb {
    match terrain {
        Terrain::Forest => [0x2f, 0x7a, 0x3a],
        Terrain::Pasture => [0x98, 0xc9, 0x5b],
        Terrain::Fields => [0xe8, 0xc5, 0x47],
        Terrain::Hills => [0xc4, 0x68, 0x3a],
        Terrain::Mountains => [0x8b, 0x8f, 0x96],
        Terrain::Desert => [0xe2, 0xcf, 0xa0],
    }
}

pub fn harbor(kind: HarborKind) -> Rgb {
    match kind {
        HarborKind::Generic => TOKEN,
        HarborKind::Specific(Resource::Brick) => [0xe3, 0xa0, 0x7e],
        HarborKind::Specific(Resource::Lumber) => [0x7f, 0xbf, 0x86],
        HarborKind::Specific(Resource::Wool) => [0xcf, 0xe6, 0xa9],
        HarborKind::Specific(Resource::Grain) => [0xf3, 0xdd, 0x86],
        HarborKind::Specific(Resource::Ore) => [0xbf, 0xc3, 0xc9],
    }
}

/// Ink that reads on `background`: dark on light seats, white on dark.
pub fn ink_on(background: Rgb) -> Rgb {
    let [r, g, b] = background.map(u32::from);
    if r * 299 + g * 587 + b * 114 > 150_000 {
        INK
    } else {
        WHITE
    }
}
