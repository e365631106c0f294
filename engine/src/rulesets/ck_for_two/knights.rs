//! Knights (RULES.md §6.9) and the neutral colours' knights (§6.10):
//! recruiting, activating, promoting, moving, displacing, chasing the
//! robber, removal for tokens, and the retreat of a displaced knight.
//! Every placement, move and removal re-evaluates Longest Road, since
//! another colour's knight breaks a road through its node.

use super::progress::spend_card;
use super::state::{ABILITY_LEVEL, KNIGHTS_PER_LEVEL, Knight, KnightLevel};
use super::{ck, ck_mut, roll};
use crate::board::topology::NODE_COUNT;
use crate::board::{HexId, NodeId, NodeSet, topology};
use crate::cards::{ProgressCard, Track, cost};
use crate::error::ActionError;
use crate::events::{Event, KnightRemoval, TokenReason};
use crate::phases::{Phase, Piece};
use crate::rulesets::Step;
use crate::seats::Seat;
use crate::state::GameState;

fn refused(reason: &'static str) -> ActionError {
    ActionError::KnightRefused { reason }
}

/// Whether `owner` has a knight of `level` in its supply (a neutral never
/// uses mighty knights).
pub(super) fn in_supply(s: &GameState, owner: Seat, level: KnightLevel) -> bool {
    (owner.is_real() || level != KnightLevel::Mighty)
        && ck(s).knights_of(owner, level) < KNIGHTS_PER_LEVEL
}

/// Empty nodes (no building, no knight) at an end of one of `owner`'s roads.
pub(super) fn recruit_sites(s: &GameState, owner: Seat) -> NodeSet {
    let topo = topology();
    let mut ends = 0u64;
    for (e, r) in s.roads.iter().enumerate() {
        if *r == Some(owner) {
            for n in topo.edges[e].nodes {
                ends |= 1 << n;
            }
        }
    }
    let taken = ck(s).knight_nodes()
        | s.buildings
            .iter()
            .enumerate()
            .filter(|(_, b)| b.is_some())
            .fold(0u64, |m, (n, _)| m | (1 << n));
    NodeSet(ends & !taken)
}

/// Nodes reachable from `from` along `owner`'s roads, passing only nodes
/// that are empty or hold `owner`'s own pieces: the empty ones, and those
/// holding another colour's knight (where a path ends).
pub(super) fn reach(s: &GameState, owner: Seat, from: NodeId) -> (NodeSet, NodeSet) {
    let topo = topology();
    let (mut own_knights, mut other_knights) = (0u64, 0u64);
    for k in &ck(s).knights {
        if k.owner == owner {
            own_knights |= 1 << k.node;
        } else {
            other_knights |= 1 << k.node;
        }
    }
    let (mut empty, mut foreign) = (0u64, 0u64);
    let mut visited = 1u64 << from;
    let mut frontier = vec![from];
    while let Some(n) = frontier.pop() {
        for &e in &topo.nodes[n as usize].edges {
            if s.roads[e as usize] != Some(owner) {
                continue;
            }
            let [a, b] = topo.edges[e as usize].nodes;
            let m = if a == n { b } else { a };
            if visited & (1 << m) != 0 {
                continue;
            }
            visited |= 1 << m;
            match s.buildings[m as usize] {
                Some(b) if b.owner != owner => continue,
                Some(_) => {}
                None if other_knights & (1 << m) != 0 => {
                    foreign |= 1 << m;
                    continue;
                }
                None if own_knights & (1 << m) != 0 => {}
                None => empty |= 1 << m,
            }
            frontier.push(m);
        }
    }
    (NodeSet(empty), NodeSet(foreign))
}

/// Road lengths through `node` may have changed: a knight of `owner`
/// arrived or left, which breaks or joins the roads of every other colour
/// there (never its owner's).
pub(super) fn refresh_roads_at(s: &mut GameState, owner: Seat, node: NodeId, ev: &mut Vec<Event>) {
    let topo = topology();
    let mut seats = 0u8;
    for &e in &topo.nodes[node as usize].edges {
        if let Some(o) = s.roads[e as usize]
            && o != owner
        {
            seats |= 1 << o.0;
        }
    }
    if seats == 0 {
        return;
    }
    for i in 0..s.players.len() {
        if seats & (1 << i) != 0 {
            let seat = s.players[i].seat;
            s.refresh_road_length(seat);
        }
    }
    s.update_longest_road(ev);
}

/// Puts `knight` on its node and re-evaluates Longest Road.
fn put(s: &mut GameState, knight: Knight, ev: &mut Vec<Event>) {
    ck_mut(s).put_knight(knight);
    refresh_roads_at(s, knight.owner, knight.node, ev);
}

/// Takes the knight off `node` and re-evaluates Longest Road.
pub(super) fn take(s: &mut GameState, node: NodeId, ev: &mut Vec<Event>) -> Option<Knight> {
    let k = ck_mut(s).take_knight(node)?;
    refresh_roads_at(s, k.owner, node, ev);
    Some(k)
}

fn own_knight(s: &GameState, seat: Seat, node: NodeId) -> Result<Knight, ActionError> {
    if node as usize >= NODE_COUNT {
        return Err(ActionError::InvalidNode { node });
    }
    match ck(s).knight_at(node) {
        Some(k) if k.owner == seat => Ok(*k),
        _ => Err(refused("you have no knight there")),
    }
}

/// Places a new knight of `owner` (recruited, a neutral's, a Deserter's).
pub(super) fn place(
    s: &mut GameState,
    owner: Seat,
    node: NodeId,
    level: KnightLevel,
    active: bool,
    free: bool,
    ev: &mut Vec<Event>,
) {
    put(
        s,
        Knight {
            node,
            owner,
            level,
            active,
            activated: false,
            promoted: false,
        },
        ev,
    );
    ev.push(Event::KnightPlaced {
        seat: owner,
        node,
        level,
        active,
        free,
    });
}

pub(super) fn recruit(
    s: &mut GameState,
    seat: Seat,
    node: NodeId,
    ev: &mut Vec<Event>,
) -> Result<(), ActionError> {
    if !in_supply(s, seat, KnightLevel::Basic) {
        return Err(ActionError::NoPiecesLeft {
            piece: "basic knight",
        });
    }
    if node as usize >= NODE_COUNT {
        return Err(ActionError::InvalidNode { node });
    }
    if !recruit_sites(s, seat).contains(node) {
        return Err(refused(
            "a knight goes on an empty node at an end of one of your roads",
        ));
    }
    s.check_afford(seat, &cost::KNIGHT)?;
    s.spend(seat, &cost::KNIGHT);
    place(s, seat, node, KnightLevel::Basic, false, false, ev);
    owe_neutral_knight(s, seat, ev);
    Ok(())
}

/// The neutrals' choices for the basic knight owed: per neutral with a
/// basic knight in supply, its recruit sites.
pub(super) fn neutral_knight_options(s: &GameState) -> Vec<(Seat, NodeSet)> {
    s.neutrals()
        .filter(|&n| in_supply(s, n, KnightLevel::Basic))
        .map(|n| (n, recruit_sites(s, n)))
        .filter(|(_, nodes)| !nodes.is_empty())
        .collect()
}

/// A recruited knight owes a neutral basic knight; when no neutral can
/// take one, a neutral road (never a settlement).
fn owe_neutral_knight(s: &mut GameState, seat: Seat, ev: &mut Vec<Event>) {
    if neutral_knight_options(s).is_empty() {
        s.owe_neutral(seat, Piece::Road, ev);
    } else {
        s.phases.push(Phase::Variant(Step::NeutralKnight { seat }));
    }
}

pub(super) fn place_neutral_knight(
    s: &mut GameState,
    neutral: Seat,
    node: NodeId,
    ev: &mut Vec<Event>,
) -> Result<(), ActionError> {
    let options = neutral_knight_options(s);
    if !options
        .iter()
        .any(|(n, nodes)| *n == neutral && nodes.contains(node))
    {
        return Err(ActionError::InvalidChoice {
            reason: "an empty node at an end of that neutral's roads, with a basic knight in its supply",
        });
    }
    s.pop_phase();
    place(s, neutral, node, KnightLevel::Basic, false, true, ev);
    Ok(())
}

pub(super) fn activate(
    s: &mut GameState,
    seat: Seat,
    node: NodeId,
    ev: &mut Vec<Event>,
) -> Result<(), ActionError> {
    let k = own_knight(s, seat, node)?;
    if k.active {
        return Err(refused("that knight is already active"));
    }
    s.check_afford(seat, &cost::ACTIVATION)?;
    s.spend(seat, &cost::ACTIVATION);
    set_active(s, node);
    ev.push(Event::KnightActivated {
        seat,
        node,
        free: false,
    });
    Ok(())
}

/// Activates the knight on `node`: it may not act before the next turn.
pub(super) fn set_active(s: &mut GameState, node: NodeId) {
    if let Some(k) = ck_mut(s).knight_at_mut(node) {
        k.active = true;
        k.activated = true;
    }
}

/// The level `seat`'s knight on `node` would be promoted to.
fn check_promotion(s: &GameState, seat: Seat, node: NodeId) -> Result<KnightLevel, ActionError> {
    let k = own_knight(s, seat, node)?;
    if k.promoted {
        return Err(refused("a knight is promoted once per turn"));
    }
    let Some(next) = k.level.next() else {
        return Err(refused("a mighty knight cannot be promoted"));
    };
    if next == KnightLevel::Mighty && ck(s).player(seat).level(Track::Politics) < ABILITY_LEVEL {
        return Err(refused("promoting to mighty needs the Fortress"));
    }
    if !in_supply(s, seat, next) {
        return Err(ActionError::NoPiecesLeft {
            piece: match next {
                KnightLevel::Strong => "strong knight",
                _ => "mighty knight",
            },
        });
    }
    Ok(next)
}

/// `seat`'s knights that can be promoted now.
pub(super) fn promotable(s: &GameState, seat: Seat) -> NodeSet {
    ck(s)
        .knights
        .iter()
        .filter(|k| k.owner == seat && check_promotion(s, seat, k.node).is_ok())
        .map(|k| k.node)
        .collect()
}

/// Promotes the knight on `node` (validated); true when it went from
/// basic to strong, which owes a neutral promotion.
fn promote(s: &mut GameState, seat: Seat, node: NodeId, free: bool, ev: &mut Vec<Event>) -> bool {
    let Some(k) = ck_mut(s).knight_at_mut(node) else {
        return false;
    };
    let was = k.level;
    k.level = was.next().unwrap_or(was);
    k.promoted = true;
    let level = k.level;
    ev.push(Event::KnightPromoted {
        seat,
        node,
        level,
        free,
    });
    was == KnightLevel::Basic
}

pub(super) fn promote_paid(
    s: &mut GameState,
    seat: Seat,
    node: NodeId,
    ev: &mut Vec<Event>,
) -> Result<(), ActionError> {
    check_promotion(s, seat, node)?;
    s.check_afford(seat, &cost::KNIGHT)?;
    s.spend(seat, &cost::KNIGHT);
    if promote(s, seat, node, false, ev) {
        owe_neutral_promotion(s, seat);
    }
    Ok(())
}

/// Smith: the first knight promoted free; a second may follow.
pub(super) fn smith(
    s: &mut GameState,
    seat: Seat,
    node: NodeId,
    ev: &mut Vec<Event>,
) -> Result<(), ActionError> {
    check_promotion(s, seat, node)?;
    spend_card(s, seat, ProgressCard::Smith, ev);
    let owes = promote(s, seat, node, true, ev);
    if !promotable(s, seat).is_empty() {
        s.phases.push(Phase::Variant(Step::SmithSecond { seat }));
    }
    if owes {
        owe_neutral_promotion(s, seat);
    }
    Ok(())
}

/// The Smith's second knight, or none.
pub(super) fn smith_second(
    s: &mut GameState,
    seat: Seat,
    node: Option<NodeId>,
    ev: &mut Vec<Event>,
) -> Result<(), ActionError> {
    if let Some(n) = node {
        check_promotion(s, seat, n)?;
    }
    s.pop_phase();
    if let Some(n) = node
        && promote(s, seat, n, true, ev)
    {
        owe_neutral_promotion(s, seat);
    }
    Ok(())
}

/// Neutral basic knights that can become strong (the neutral has a strong
/// knight in supply).
pub(super) fn neutral_promotion_options(s: &GameState) -> NodeSet {
    ck(s)
        .knights
        .iter()
        .filter(|k| {
            !k.owner.is_real()
                && k.level == KnightLevel::Basic
                && in_supply(s, k.owner, KnightLevel::Strong)
        })
        .map(|k| k.node)
        .collect()
}

/// A basic → strong promotion owes one of a neutral basic knight; if none
/// can be promoted, nothing is owed.
fn owe_neutral_promotion(s: &mut GameState, seat: Seat) {
    if !neutral_promotion_options(s).is_empty() {
        s.phases
            .push(Phase::Variant(Step::NeutralPromotion { seat }));
    }
}

pub(super) fn promote_neutral(
    s: &mut GameState,
    node: NodeId,
    ev: &mut Vec<Event>,
) -> Result<(), ActionError> {
    if !neutral_promotion_options(s).contains(node) {
        return Err(ActionError::InvalidChoice {
            reason: "a neutral basic knight whose colour has a strong knight in supply",
        });
    }
    s.pop_phase();
    let owner = ck(s).knight_at(node).map(|k| k.owner).unwrap_or_default();
    promote(s, owner, node, true, ev);
    Ok(())
}

/// A knight of `seat` that may act: active, and not activated this turn.
fn check_can_act(s: &GameState, seat: Seat, node: NodeId) -> Result<Knight, ActionError> {
    let k = own_knight(s, seat, node)?;
    if !k.active {
        return Err(refused("only an active knight acts"));
    }
    if k.activated {
        return Err(refused("a knight activated this turn acts from the next"));
    }
    Ok(k)
}

/// `seat`'s knights that may act now.
pub(super) fn ready(s: &GameState, seat: Seat) -> impl Iterator<Item = &Knight> + '_ {
    ck(s)
        .knights
        .iter()
        .filter(move |k| k.owner == seat && k.active && !k.activated)
}

/// Takes `node`'s knight off, inactive, and puts it on `to`.
fn relocate(s: &mut GameState, node: NodeId, to: NodeId, ev: &mut Vec<Event>) {
    if let Some(mut k) = take(s, node, ev) {
        k.node = to;
        k.active = false;
        put(s, k, ev);
    }
}

pub(super) fn move_knight(
    s: &mut GameState,
    seat: Seat,
    from: NodeId,
    to: NodeId,
    ev: &mut Vec<Event>,
) -> Result<(), ActionError> {
    check_can_act(s, seat, from)?;
    if to as usize >= NODE_COUNT {
        return Err(ActionError::InvalidNode { node: to });
    }
    if !reach(s, seat, from).0.contains(to) {
        return Err(refused(
            "a knight moves to an empty node along your roads, passing only your own pieces",
        ));
    }
    relocate(s, from, to, ev);
    ev.push(Event::KnightMoved { seat, from, to });
    Ok(())
}

/// The other colours' knights the knight `k` may displace.
pub(super) fn displaceable(s: &GameState, seat: Seat, k: &Knight) -> NodeSet {
    weaker_among(s, k, reach(s, seat, k.node).1)
}

/// The knights on `nodes` strictly weaker than `k`.
pub(super) fn weaker_among(s: &GameState, k: &Knight, nodes: NodeSet) -> NodeSet {
    let c = ck(s);
    nodes
        .iter()
        .filter(|&n| c.knight_at(n).is_some_and(|o| o.level < k.level))
        .collect()
}

pub(super) fn displace(
    s: &mut GameState,
    seat: Seat,
    from: NodeId,
    to: NodeId,
    ev: &mut Vec<Event>,
) -> Result<(), ActionError> {
    let k = check_can_act(s, seat, from)?;
    if to as usize >= NODE_COUNT {
        return Err(ActionError::InvalidNode { node: to });
    }
    if !displaceable(s, seat, &k).contains(to) {
        return Err(refused(
            "a knight displaces a strictly weaker knight of another colour it reaches along your roads",
        ));
    }
    let victim = take(s, to, ev).expect("checked: a knight stands there");
    relocate(s, from, to, ev);
    ev.push(Event::KnightDisplaced {
        seat,
        from: Some(from),
        node: to,
        owner: victim.owner,
    });
    start_retreat(s, victim, to, ev);
    Ok(())
}

/// Where `knight`, driven off `lost`, may retreat: empty nodes along its
/// owner's roads from `lost`.
pub(super) fn retreat_nodes(s: &GameState, knight: &Knight, lost: NodeId) -> NodeSet {
    reach(s, knight.owner, lost).0
}

/// A displaced knight retreats, its owner choosing (the active player for
/// a neutral); with nowhere to go it returns to the supply.
pub(super) fn start_retreat(s: &mut GameState, knight: Knight, lost: NodeId, ev: &mut Vec<Event>) {
    if retreat_nodes(s, &knight, lost).is_empty() {
        ev.push(Event::KnightRemoved {
            seat: knight.owner,
            node: lost,
            level: knight.level,
            reason: KnightRemoval::NoRetreat,
        });
        return;
    }
    let seat = if knight.owner.is_real() {
        knight.owner
    } else {
        s.active
    };
    s.phases.push(Phase::Variant(Step::Retreat {
        seat,
        knight,
        from: lost,
    }));
}

pub(super) fn retreat(
    s: &mut GameState,
    knight: Knight,
    from: NodeId,
    node: NodeId,
    ev: &mut Vec<Event>,
) -> Result<(), ActionError> {
    if !retreat_nodes(s, &knight, from).contains(node) {
        return Err(ActionError::InvalidChoice {
            reason: "an empty node reached along the knight's roads",
        });
    }
    s.pop_phase();
    put(s, Knight { node, ..knight }, ev);
    ev.push(Event::KnightRetreated {
        seat: knight.owner,
        from,
        to: node,
    });
    Ok(())
}

/// Knights that may chase the robber: ready, on a corner of its hex.
pub(super) fn chasers(s: &GameState, seat: Seat) -> NodeSet {
    if !roll::robber_unlocked(s) {
        return NodeSet::default();
    }
    let corners = topology().hexes[s.robber as usize].nodes;
    ready(s, seat)
        .filter(|k| corners.contains(&k.node))
        .map(|k| k.node)
        .collect()
}

/// A chased robber goes to another hex with a number token.
pub(super) fn chase_hex_ok(s: &GameState, hex: HexId) -> bool {
    (hex as usize) < s.board.tiles.len() && s.board.tiles[hex as usize].number.is_some()
}

pub(super) fn chase_robber(
    s: &mut GameState,
    seat: Seat,
    knight: NodeId,
    hex: HexId,
    victim: Option<Seat>,
    ev: &mut Vec<Event>,
) -> Result<(), ActionError> {
    if !roll::robber_unlocked(s) {
        return Err(ActionError::RobberLocked);
    }
    check_can_act(s, seat, knight)?;
    if !chasers(s, seat).contains(knight) {
        return Err(refused(
            "the knight must stand on a corner of the robber's hex",
        ));
    }
    if !chase_hex_ok(s, hex) {
        return Err(ActionError::InvalidHex { hex });
    }
    s.check_robber_move(seat, hex, victim)?;
    if let Some(k) = ck_mut(s).knight_at_mut(knight) {
        k.active = false;
    }
    ev.push(Event::RobberChased { seat, knight });
    s.do_robber_move(seat, hex, victim, ev);
    Ok(())
}

/// Once per turn, a knight of one's own back to the supply for 1, 2 or 3
/// tokens by its level.
pub(super) fn remove_for_tokens(
    s: &mut GameState,
    seat: Seat,
    node: NodeId,
    ev: &mut Vec<Event>,
) -> Result<(), ActionError> {
    s.check_own_turn(seat, "remove_knight")?;
    let t = &ck(s).tokens;
    if t.knight_discarded {
        return Err(ActionError::KnightAlreadyDiscarded);
    }
    if t.supply == 0 {
        return Err(ActionError::TokenSupplyEmpty);
    }
    let k = own_knight(s, seat, node)?;
    take(s, node, ev);
    ck_mut(s).tokens.knight_discarded = true;
    ev.push(Event::KnightRemoved {
        seat,
        node,
        level: k.level,
        reason: KnightRemoval::Tokens,
    });
    s.earn_tokens(seat, k.level.strength(), TokenReason::Knight, ev);
    Ok(())
}

/// Whether `seat` may remove a knight for tokens now (besides owning one).
pub(super) fn may_remove_for_tokens(s: &GameState) -> bool {
    let t = &ck(s).tokens;
    !t.knight_discarded && t.supply > 0
}
