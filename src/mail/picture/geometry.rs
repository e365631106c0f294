//! Where things sit in the picture, in pixels, from the integer lattice the
//! API publishes (`GET /api/v1/topology`: one unit of x is sqrt(3)/2 hex
//! radii, one unit of y half a radius), as the web client draws it.

use hexpost_engine::board::topology::{EdgeId, HexId, NodeId, topology};

/// The hex radius in pixels: the board and its harbors fit in 476 × 446
/// pixels, narrower than a phone's mail view at its usual zoom.
pub const RADIUS: f32 = 46.0;
/// Sea around the outermost corners, in radii: room for the harbors.
const MARGIN: f32 = 0.85;
/// The lattice's extent: corners lie within |x| <= 5 and |y| <= 8.
const HALF_WIDTH_UNITS: f32 = 5.0;
const HALF_HEIGHT_UNITS: f32 = 8.0;
/// The barbarian track's strip below the board, in radii.
const TRACK_HEIGHT: f32 = 0.8;

const X_UNIT: f32 = RADIUS * 0.866_025_4;
const Y_UNIT: f32 = RADIUS * 0.5;

pub type Point = (f32, f32);

/// The picture's size and its mapping from the lattice.
#[derive(Clone, Copy, Debug)]
pub struct Frame {
    pub width: u32,
    pub height: u32,
    /// The height of the board part, above the barbarian track if any.
    pub board_height: u32,
}

impl Frame {
    /// The frame of a board, with room for the barbarian track below it
    /// when `track`.
    pub fn new(track: bool) -> Frame {
        let width = (2.0 * (HALF_WIDTH_UNITS * X_UNIT + MARGIN * RADIUS)).ceil() as u32;
        let board_height = (2.0 * (HALF_HEIGHT_UNITS * Y_UNIT + MARGIN * RADIUS)).ceil() as u32;
        let track_height = if track {
            (TRACK_HEIGHT * RADIUS).ceil() as u32
        } else {
            0
        };
        Frame {
            width,
            height: board_height + track_height,
            board_height,
        }
    }

    /// A lattice point in pixels.
    pub fn point(&self, x: i32, y: i32) -> Point {
        (
            self.width as f32 / 2.0 + x as f32 * X_UNIT,
            self.board_height as f32 / 2.0 + y as f32 * Y_UNIT,
        )
    }

    pub fn hex_centre(&self, hex: HexId) -> Point {
        let h = &topology().hexes[hex as usize];
        self.point(h.x, h.y)
    }

    pub fn hex_corners(&self, hex: HexId) -> [Point; 6] {
        let h = &topology().hexes[hex as usize];
        h.nodes.map(|n| self.node(n))
    }

    pub fn node(&self, node: NodeId) -> Point {
        let n = &topology().nodes[node as usize];
        self.point(n.x, n.y)
    }

    pub fn edge_ends(&self, edge: EdgeId) -> [Point; 2] {
        topology().edges[edge as usize].nodes.map(|n| self.node(n))
    }

    /// A harbor's marker: beyond its coastal edge, away from the edge's
    /// only land hex.
    pub fn harbor_anchor(&self, slot: u8) -> Point {
        let t = topology();
        let edge = &t.edges[t.harbor_edges[slot as usize] as usize];
        let [a, b] = self.edge_ends(edge.id);
        let mid = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
        let land = self.hex_centre(edge.hexes[0]);
        let (dx, dy) = (mid.0 - land.0, mid.1 - land.1);
        let len = dx.hypot(dy);
        let out = 0.5 * RADIUS;
        (mid.0 + dx / len * out, mid.1 + dy / len * out)
    }

    /// The centre of the barbarian track's space `space` (0: the start).
    pub fn track_space(&self, space: u8, spaces: u8) -> Point {
        let step = self.width as f32 / (spaces as f32 + 1.0);
        let y = self.board_height as f32 + (self.height - self.board_height) as f32 / 2.0;
        (step * (space as f32 + 1.0), y)
    }
}

/// A point `t` of the way from `a` to `b`.
pub fn lerp(a: Point, b: Point, t: f32) -> Point {
    (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t)
}
