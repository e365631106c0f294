//! The fixed geometry of the 19-hex board: stable ids for hexes, nodes
//! (intersections) and edges (paths), their adjacency, and integer
//! coordinates a client can draw from.
//!
//! Coordinates: hexes are pointy-top in axial `(q, r)`; nodes and edge
//! midpoints use an integer lattice `(x, y)` where one unit of `x` is
//! `sqrt(3)/2` hex radii and one unit of `y` is half a hex radius, so every
//! corner lands on an integer point. Ids are assigned top to bottom, then left
//! to right, which makes them stable across versions.

use serde::Serialize;
use std::sync::OnceLock;

pub type HexId = u8;
pub type NodeId = u8;
pub type EdgeId = u8;

pub const HEX_COUNT: usize = 19;
pub const NODE_COUNT: usize = 54;
pub const EDGE_COUNT: usize = 72;
pub const HARBOR_COUNT: usize = 9;

/// Corner offsets of a pointy-top hex in the lattice, clockwise from the top.
const CORNERS: [(i32, i32); 6] = [(0, -2), (1, -1), (1, 1), (0, 2), (-1, 1), (-1, -1)];

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Serialize)]
pub struct HexGeom {
    pub id: HexId,
    pub q: i8,
    pub r: i8,
    /// Centre in the node lattice.
    pub x: i32,
    pub y: i32,
    /// Corner nodes clockwise from the top.
    pub nodes: [NodeId; 6],
    /// Edges clockwise, `edges[i]` joining `nodes[i]` and `nodes[(i+1)%6]`.
    pub edges: [EdgeId; 6],
    #[serde(skip)]
    pub neighbors: Vec<HexId>,
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Serialize)]
pub struct NodeGeom {
    pub id: NodeId,
    pub x: i32,
    pub y: i32,
    pub hexes: Vec<HexId>,
    #[serde(skip)]
    pub neighbors: Vec<NodeId>,
    #[serde(skip)]
    pub edges: Vec<EdgeId>,
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Serialize)]
pub struct EdgeGeom {
    pub id: EdgeId,
    pub nodes: [NodeId; 2],
    pub hexes: Vec<HexId>,
}

#[derive(Debug)]
pub struct Topology {
    pub hexes: Vec<HexGeom>,
    pub nodes: Vec<NodeGeom>,
    pub edges: Vec<EdgeGeom>,
    /// Coastal edges (one land hex) clockwise, starting at the first edge
    /// clockwise from straight up.
    pub coast: Vec<EdgeId>,
    /// The nine harbor positions on the frame, as coastal edges.
    pub harbor_edges: [EdgeId; HARBOR_COUNT],
    /// For each node, the harbor slot it touches, if any.
    pub node_harbor: [Option<u8>; NODE_COUNT],
    /// The 18 harbor nodes with their slots.
    pub harbor_nodes: Vec<(NodeId, u8)>,
}

/// Positions (indices into `coast`) of the nine harbors: gaps of 3, 3, 4
/// around the 30 coastal edges, the spacing of the printed frame.
const HARBOR_COAST_INDICES: [usize; HARBOR_COUNT] = [0, 3, 6, 10, 13, 16, 20, 23, 26];

pub fn topology() -> &'static Topology {
    static TOPOLOGY: OnceLock<Topology> = OnceLock::new();
    TOPOLOGY.get_or_init(build)
}

fn build() -> Topology {
    let mut axial = Vec::new();
    for r in -2i8..=2 {
        for q in (-2i8).max(-2 - r)..=2i8.min(2 - r) {
            axial.push((q, r));
        }
    }
    let centre = |q: i8, r: i8| (2 * q as i32 + r as i32, 3 * r as i32);

    let mut points: Vec<(i32, i32)> = Vec::new();
    for &(q, r) in &axial {
        let (cx, cy) = centre(q, r);
        for (dx, dy) in CORNERS {
            points.push((cx + dx, cy + dy));
        }
    }
    points.sort_by_key(|&(x, y)| (y, x));
    points.dedup();
    assert_eq!(points.len(), NODE_COUNT);
    let node_at = |p: (i32, i32)| {
        points
            .binary_search_by_key(&(p.1, p.0), |&(x, y)| (y, x))
            .ok()
    };

    let mut segs: Vec<(i32, i32, NodeId, NodeId)> = Vec::new();
    let mut hex_nodes = Vec::new();
    for &(q, r) in &axial {
        let (cx, cy) = centre(q, r);
        let ids: [NodeId; 6] = std::array::from_fn(|i| {
            let (dx, dy) = CORNERS[i];
            node_at((cx + dx, cy + dy)).expect("corner exists") as NodeId
        });
        for i in 0..6 {
            let (a, b) = (ids[i], ids[(i + 1) % 6]);
            let (a, b) = (a.min(b), a.max(b));
            let (ax, ay) = points[a as usize];
            let (bx, by) = points[b as usize];
            segs.push((ay + by, ax + bx, a, b));
        }
        hex_nodes.push(ids);
    }
    segs.sort();
    segs.dedup();
    assert_eq!(segs.len(), EDGE_COUNT);
    let edge_of = |a: NodeId, b: NodeId| {
        let (a, b) = (a.min(b), a.max(b));
        segs.iter()
            .position(|s| s.2 == a && s.3 == b)
            .expect("edge exists") as EdgeId
    };

    let mut nodes: Vec<NodeGeom> = points
        .iter()
        .enumerate()
        .map(|(i, &(x, y))| NodeGeom {
            id: i as NodeId,
            x,
            y,
            hexes: Vec::new(),
            neighbors: Vec::new(),
            edges: Vec::new(),
        })
        .collect();
    let mut edges: Vec<EdgeGeom> = segs
        .iter()
        .enumerate()
        .map(|(i, s)| EdgeGeom {
            id: i as EdgeId,
            nodes: [s.2, s.3],
            hexes: Vec::new(),
        })
        .collect();
    let mut hexes = Vec::new();
    for (h, (&(q, r), ids)) in axial.iter().zip(hex_nodes.iter()).enumerate() {
        let (x, y) = centre(q, r);
        let hex_edges: [EdgeId; 6] = std::array::from_fn(|i| edge_of(ids[i], ids[(i + 1) % 6]));
        for &n in ids {
            nodes[n as usize].hexes.push(h as HexId);
        }
        for &e in &hex_edges {
            edges[e as usize].hexes.push(h as HexId);
        }
        let neighbors = axial
            .iter()
            .enumerate()
            .filter(|&(_, &(q2, r2))| {
                let (dq, dr) = (q2 - q, r2 - r);
                matches!(
                    (dq, dr),
                    (1, 0) | (-1, 0) | (0, 1) | (0, -1) | (1, -1) | (-1, 1)
                )
            })
            .map(|(i, _)| i as HexId)
            .collect();
        hexes.push(HexGeom {
            id: h as HexId,
            q,
            r,
            x,
            y,
            nodes: *ids,
            edges: hex_edges,
            neighbors,
        });
    }
    for e in &edges {
        let [a, b] = e.nodes;
        nodes[a as usize].neighbors.push(b);
        nodes[b as usize].neighbors.push(a);
        nodes[a as usize].edges.push(e.id);
        nodes[b as usize].edges.push(e.id);
    }

    let mut coast: Vec<EdgeId> = edges
        .iter()
        .filter(|e| e.hexes.len() == 1)
        .map(|e| e.id)
        .collect();
    let clockwise_from_up = |e: &EdgeId| {
        let [a, b] = edges[*e as usize].nodes;
        let mx = (nodes[a as usize].x + nodes[b as usize].x) as f64 * 3f64.sqrt() / 2.0;
        let my = (nodes[a as usize].y + nodes[b as usize].y) as f64 / 2.0;
        let angle = mx.atan2(-my);
        if angle < 0.0 {
            angle + std::f64::consts::TAU
        } else {
            angle
        }
    };
    coast.sort_by(|a, b| clockwise_from_up(a).total_cmp(&clockwise_from_up(b)));
    assert_eq!(coast.len(), 30);
    let harbor_edges = HARBOR_COAST_INDICES.map(|i| coast[i]);
    let mut node_harbor = [None; NODE_COUNT];
    let mut harbor_nodes = Vec::new();
    for (slot, &e) in harbor_edges.iter().enumerate() {
        for n in edges[e as usize].nodes {
            node_harbor[n as usize] = Some(slot as u8);
            harbor_nodes.push((n, slot as u8));
        }
    }

    Topology {
        hexes,
        nodes,
        edges,
        coast,
        harbor_edges,
        node_harbor,
        harbor_nodes,
    }
}

impl Topology {
    pub fn hex_by_axial(&self, q: i8, r: i8) -> Option<HexId> {
        self.hexes
            .iter()
            .find(|h| h.q == q && h.r == r)
            .map(|h| h.id)
    }

    /// The edge joining two nodes, if they are adjacent.
    pub fn edge_between(&self, a: NodeId, b: NodeId) -> Option<EdgeId> {
        let na = self.nodes.get(a as usize)?;
        na.edges
            .iter()
            .copied()
            .find(|&e| self.edges[e as usize].nodes.contains(&b))
    }

    /// A node touching fewer than three land hexes lies on the coast.
    pub fn is_coastal_node(&self, n: NodeId) -> bool {
        self.nodes[n as usize].hexes.len() < 3
    }
}

/// Indices of the set bits of a node mask, lowest first.
pub fn bits(m: u64) -> impl Iterator<Item = usize> {
    bits128(m as u128)
}

/// Indices of the set bits of an edge mask, lowest first.
pub fn bits128(mut m: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            i
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_adjacency_are_those_of_the_printed_board() {
        let t = topology();
        assert_eq!(t.hexes.len(), HEX_COUNT);
        assert_eq!(t.nodes.len(), NODE_COUNT);
        assert_eq!(t.edges.len(), EDGE_COUNT);
        // Every node has two or three neighbours, and the degree sum is twice
        // the edge count.
        let deg: usize = t.nodes.iter().map(|n| n.neighbors.len()).sum();
        assert_eq!(deg, 2 * EDGE_COUNT);
        assert!(t.nodes.iter().all(|n| (2..=3).contains(&n.neighbors.len())));
        // Of the 30 coastal nodes, 18 touch one hex (two on each of the six
        // corner hexes, one on each of the six side hexes) and 12 touch two;
        // the 24 inland nodes touch three.
        let by_hexes = |k| t.nodes.iter().filter(|n| n.hexes.len() == k).count();
        assert_eq!((by_hexes(1), by_hexes(2), by_hexes(3)), (18, 12, 24));
        // The centre hex has six neighbours, a corner hex three.
        assert_eq!(t.hexes[9].neighbors.len(), 6);
        assert_eq!(t.hexes[0].neighbors.len(), 3);
    }

    #[test]
    fn harbors_sit_on_distinct_coastal_nodes() {
        let t = topology();
        let mut seen = std::collections::BTreeSet::new();
        for &e in &t.harbor_edges {
            assert_eq!(t.edges[e as usize].hexes.len(), 1);
            for n in t.edges[e as usize].nodes {
                assert!(seen.insert(n), "node {n} touches two harbors");
            }
        }
        assert_eq!(seen.len(), 18);
    }

    #[test]
    fn ids_run_top_to_bottom_then_left_to_right() {
        let t = topology();
        for w in t.nodes.windows(2) {
            assert!((w[0].y, w[0].x) < (w[1].y, w[1].x));
        }
        assert_eq!((t.hexes[0].q, t.hexes[0].r), (0, -2));
        assert_eq!((t.hexes[18].q, t.hexes[18].r), (0, 2));
    }
}
