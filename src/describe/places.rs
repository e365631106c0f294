//! Places a person can find on the board, with the ids commands use: "node
//! 12, between the 6 fields and the 9 forest".

use super::{Table, and_list};
use hexpost_engine::board::{EdgeId, HexId, NodeId, Terrain, topology};

fn terrain(t: Terrain) -> &'static str {
    match t {
        Terrain::Forest => "forest",
        Terrain::Pasture => "pasture",
        Terrain::Fields => "fields",
        Terrain::Hills => "hills",
        Terrain::Mountains => "mountains",
        Terrain::Desert => "desert",
    }
}

/// "the 6 fields", "the desert", "the removed 9 forest".
fn land(hex: HexId, table: &Table) -> String {
    let board = table.board();
    let Some(tile) = board.tiles.get(hex as usize) else {
        return format!("hex {hex}");
    };
    let removed = if board.in_play(hex) { "" } else { "removed " };
    match tile.number {
        Some(n) => format!("the {removed}{n} {}", terrain(tile.terrain)),
        None => format!("the {removed}{}", terrain(tile.terrain)),
    }
}

/// What a corner or a side touches: "between the 6 fields and the 9
/// forest", "on the coast of the 5 hills".
fn beside(hexes: &[HexId], table: &Table) -> String {
    let lands: Vec<String> = hexes.iter().map(|&h| land(h, table)).collect();
    match lands.as_slice() {
        [] => "on the coast".into(),
        [one] => format!("on the coast of {one}"),
        _ => format!("between {}", and_list(&lands)),
    }
}

/// "the 6 fields (hex 4)".
pub fn hex(hex: HexId, table: &Table) -> String {
    format!("{} (hex {hex})", land(hex, table))
}

/// "the fields (hex 4)": a hex whose number token is the point.
pub fn hex_without_number(hex: HexId, table: &Table) -> String {
    let name = table
        .board()
        .tiles
        .get(hex as usize)
        .map_or("hex", |t| terrain(t.terrain));
    format!("the {name} (hex {hex})")
}

/// "node 12, between the 6 fields and the 9 forest".
pub fn node(node: NodeId, table: &Table) -> String {
    match topology().nodes.get(node as usize) {
        Some(geom) => format!("node {node}, {}", beside(&geom.hexes, table)),
        None => format!("node {node}"),
    }
}

/// "edge 20, between the 6 fields and the 9 forest".
pub fn edge(edge: EdgeId, table: &Table) -> String {
    match topology().edges.get(edge as usize) {
        Some(geom) => format!("edge {edge}, {}", beside(&geom.hexes, table)),
        None => format!("edge {edge}"),
    }
}
