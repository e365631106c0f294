//! The board in words, for a reader who cannot see its picture (the alt
//! text of a mail's board picture): whose decision is awaited, what
//! changed since the reader's last decision, each seat's pieces, the
//! robber, and the merchant and the barbarians in Cities & Knights. Read
//! from the reader's own view, so it says nothing they may not see.

use super::cards::track;
use super::cities_knights::knight;
use super::places::{edge, hex, node};
use super::{Table, and_list, seat_colour};
use hexpost_engine::board::{EdgeId, HexId, NodeId};
use hexpost_engine::cards::Track;
use hexpost_engine::rulesets::VariantState;
use hexpost_engine::rulesets::ck_for_two::state::{CkState, Knight};
use hexpost_engine::state::BuildingKind;
use hexpost_engine::{GameView, Seat};

/// The places a picture outlines as changed since its reader's last
/// decision.
#[derive(Clone, Copy, Debug, Default)]
pub struct Outlined<'a> {
    pub hexes: &'a [HexId],
    pub nodes: &'a [NodeId],
    pub edges: &'a [EdgeId],
}

/// The board of `view` (its viewer's own) in words, `outlined` named as
/// what changed.
pub fn position(view: &GameView, table: &Table, outlined: Outlined) -> String {
    let ck = match &view.variant {
        VariantState::CkForTwo(ck) => Some(&**ck),
        _ => None,
    };
    let mut sentences = vec![awaited(view, table)];
    let changes = changes(view, ck, table, outlined);
    if !changes.is_empty() {
        sentences.push(format!(
            "Outlined in yellow, what changed since your last decision: {}.",
            changes.join("; ")
        ));
    }
    for player in &view.players {
        sentences.push(super::capitalised(&format!(
            "{}: {}.",
            coloured(player.seat, table),
            pieces(view, ck, player.seat)
        )));
    }
    sentences.push(format!("The robber is on {}.", hex(view.robber, table)));
    let removed: Vec<String> = (0..view.board.tiles.len() as HexId)
        .filter(|&h| !view.board.in_play(h))
        .map(|h| hex(h, table))
        .collect();
    if !removed.is_empty() {
        sentences.push(format!("Out of the game: {}.", and_list(&removed)));
    }
    if let Some(ck) = ck {
        if let Some(merchant) = &ck.merchant {
            sentences.push(format!(
                "{} merchant is on {}.",
                table.seats(merchant.owner),
                hex(merchant.hex, table)
            ));
        }
        sentences.push(format!(
            "The barbarian ship is on space {} of {}; it attacks on the last.",
            ck.barbarians, BARBARIAN_SPACES
        ));
    }
    sentences.join(" ")
}

/// The barbarians attack when their ship moves onto this space (the
/// events' wording counts the same spaces).
const BARBARIAN_SPACES: u8 = 7;

/// "Your decision is awaited.", "Waiting for Bob.", "Ada won."
fn awaited(view: &GameView, table: &Table) -> String {
    if let Some(winner) = view.winner {
        return format!("{} won.", table.seat(winner));
    }
    if view.viewer.is_some_and(|v| view.awaiting.contains(&v)) {
        return "Your decision is awaited.".into();
    }
    let others: Vec<String> = view.awaiting.iter().map(|&s| table.seat(s)).collect();
    if others.is_empty() {
        "Nobody's decision is awaited.".into()
    } else {
        format!("Waiting for {}.", and_list(&others))
    }
}

/// "Ada (red)", "neutral white": each seat with the colour the picture
/// draws it in.
fn coloured(seat: Seat, table: &Table) -> String {
    let name = table.seat(seat);
    match seat_colour(seat) {
        Some(colour) if seat.is_real() => format!("{name} ({colour})"),
        _ => name,
    }
}

/// What stands on each outlined place now.
fn changes(
    view: &GameView,
    ck: Option<&CkState>,
    table: &Table,
    outlined: Outlined,
) -> Vec<String> {
    let mut out = Vec::new();
    for &h in outlined.hexes {
        let mut on = Vec::new();
        if h == view.robber {
            on.push("the robber".to_string());
        }
        if let Some(m) = ck
            .and_then(|ck| ck.merchant.as_ref())
            .filter(|m| m.hex == h)
        {
            on.push(format!("{} merchant", table.seats(m.owner)));
        }
        out.push(if on.is_empty() {
            hex(h, table)
        } else {
            format!("{} on {}", and_list(&on), hex(h, table))
        });
    }
    for &n in outlined.nodes {
        let building = view.buildings.iter().find(|b| b.node == n);
        let knight = ck.and_then(|ck| ck.knights.iter().find(|k| k.node == n));
        let piece = match (building, knight) {
            (Some(b), _) => Some(format!(
                "{} {}",
                table.seats(b.owner),
                building_name(b.kind)
            )),
            (None, Some(k)) => Some(format!("{} {}", table.seats(k.owner), knight_name(k))),
            (None, None) => None,
        };
        out.push(match piece {
            Some(piece) => format!("{piece} on {}", node(n, table)),
            None => format!("{}, now empty", node(n, table)),
        });
    }
    for &e in outlined.edges {
        out.push(match view.roads.iter().find(|r| r.edge == e) {
            Some(r) => format!("{} road on {}", table.seats(r.owner), edge(e, table)),
            None => format!("{}, now empty", edge(e, table)),
        });
    }
    out
}

fn building_name(kind: BuildingKind) -> &'static str {
    match kind {
        BuildingKind::Settlement => "settlement",
        BuildingKind::City => "city",
    }
}

/// "strong active knight".
fn knight_name(k: &Knight) -> String {
    let level = knight(k.level);
    let state = if k.active { "active" } else { "inactive" };
    format!("{level} {state} knight")
}

/// "settlements on nodes 3 and 12, a city on node 20, 4 roads".
fn pieces(view: &GameView, ck: Option<&CkState>, seat: Seat) -> String {
    let mut parts = Vec::new();
    for kind in [BuildingKind::Settlement, BuildingKind::City] {
        let nodes: Vec<NodeId> = view
            .buildings
            .iter()
            .filter(|b| b.owner == seat && b.kind == kind)
            .map(|b| b.node)
            .collect();
        let (one, many) = match kind {
            BuildingKind::Settlement => ("a settlement", "settlements"),
            BuildingKind::City => ("a city", "cities"),
        };
        if let Some(part) = on_nodes(&nodes, one, many) {
            parts.push(part);
        }
    }
    let roads = view.roads.iter().filter(|r| r.owner == seat).count();
    match roads {
        0 => {}
        1 => parts.push("1 road".into()),
        n => parts.push(format!("{n} roads")),
    }
    if let Some(ck) = ck {
        parts.extend(ck_pieces(view, ck, seat));
    }
    if parts.is_empty() {
        "nothing on the board".into()
    } else {
        parts.join(", ")
    }
}

/// A seat's city walls, metropolises and knights.
fn ck_pieces(view: &GameView, ck: &CkState, seat: Seat) -> Vec<String> {
    let mut parts = Vec::new();
    let owned = |n: &NodeId| {
        view.buildings
            .iter()
            .any(|b| b.node == *n && b.owner == seat)
    };
    let walls: Vec<NodeId> = ck.walls.iter().filter(owned).collect();
    parts.extend(on_nodes(&walls, "a city wall", "city walls"));
    for (t, at) in Track::ALL.into_iter().zip(ck.metropolises) {
        if let Some(at) = at.filter(owned) {
            parts.push(format!("the {} metropolis on node {at}", track(t)));
        }
    }
    let knights: Vec<String> = ck
        .knights
        .iter()
        .filter(|k| k.owner == seat)
        .map(|k| format!("a {} on node {}", knight_name(k), k.node))
        .collect();
    if !knights.is_empty() {
        parts.push(and_list(&knights));
    }
    parts
}

/// "a settlement on node 3", "settlements on nodes 3 and 12"; None for no
/// node.
fn on_nodes(nodes: &[NodeId], one: &str, many: &str) -> Option<String> {
    match nodes {
        [] => None,
        [n] => Some(format!("{one} on node {n}")),
        _ => {
            let ids: Vec<String> = nodes.iter().map(NodeId::to_string).collect();
            Some(format!("{many} on nodes {}", and_list(&ids)))
        }
    }
}
