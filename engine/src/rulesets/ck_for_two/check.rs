//! The invariants of `ck_for_two`, checked after every action by the
//! simulator and the property tests (the core checks cards of all eight
//! kinds, roads, settlements and cities, and every VP recounted).

use super::state::{
    BARBARIAN_SPACES, DEFENDER_CARDS, KNIGHTS_PER_LEVEL, KnightLevel, METROPOLIS_LEVEL,
    WALLS_PER_PLAYER,
};
use super::{cities, ck, decisions};
use crate::board::topology::NODE_COUNT;
use crate::cards::Track;
use crate::phases::Phase;
use crate::rulesets::Step;
use crate::seats::SeatKind;
use crate::state::{BuildingKind, GameState};

pub(super) fn check(s: &GameState) -> Result<(), String> {
    let c = ck(s);
    c.tokens.check()?;
    if s.players.len() != 4 || s.neutrals().count() != 2 {
        return Err("ck_for_two needs two neutral seats".into());
    }
    if s.dev.is_some() {
        return Err("ck_for_two deals no development cards".into());
    }
    c.check_progress()?;
    if c.hand_counts.is_some() || c.shown_hand.is_some() {
        return Err("the public counts and shown cards belong to views only".into());
    }
    check_knights(s)?;
    check_buildings(s)?;
    check_metropolises(s)?;
    if c.barbarians >= BARBARIAN_SPACES {
        return Err(format!("the ship on space {}", c.barbarians));
    }
    if c.attacks == 0 && Some(s.robber) != s.board.desert() {
        return Err("the robber left the desert before the first attack".into());
    }
    let defenders: u8 = c.players.iter().map(|p| p.defenders).sum();
    if c.defenders_left != DEFENDER_CARDS.saturating_sub(defenders) {
        return Err(format!(
            "{} Defender cards left after {defenders} awarded",
            c.defenders_left
        ));
    }
    if c.merchant.is_some_and(|m| !m.owner.is_real()) {
        return Err("the merchant held by a neutral".into());
    }
    if !c.fleet.is_empty() && s.phases.first() == Some(&Phase::BeforeRoll) {
        return Err("a Merchant Fleet outlived its turn".into());
    }
    if let Phase::Variant(step) = s.phase()
        && decisions::resolves_itself(s, step)
    {
        return Err(format!("{step:?} awaits a player though it has one answer"));
    }
    Ok(())
}

/// Knights: at most one per node, never on a building, at most two of a
/// level per colour (counting a knight in retreat), neutrals never mighty
/// and never active.
fn check_knights(s: &GameState) -> Result<(), String> {
    let c = ck(s);
    let mut seen = 0u64;
    for w in c.knights.windows(2) {
        if w[0].node >= w[1].node {
            return Err("knights out of node order".into());
        }
    }
    for k in &c.knights {
        if k.node as usize >= NODE_COUNT || seen & (1 << k.node) != 0 {
            return Err(format!("two knights on node {}", k.node));
        }
        seen |= 1 << k.node;
        if s.building_at(k.node).is_some() {
            return Err(format!("a knight on the building at node {}", k.node));
        }
        match s.players.get(k.owner.index()).map(|p| p.kind) {
            Some(SeatKind::Real) => {}
            Some(SeatKind::Neutral) if k.active => {
                return Err(format!("an active neutral knight on node {}", k.node));
            }
            Some(SeatKind::Neutral) if k.level == KnightLevel::Mighty => {
                return Err(format!("a mighty neutral knight on node {}", k.node));
            }
            Some(SeatKind::Neutral) => {}
            _ => return Err(format!("a knight of {} on node {}", k.owner, k.node)),
        }
    }
    let retreating: Vec<_> = s
        .phases
        .iter()
        .filter_map(|p| match p {
            Phase::Variant(Step::Retreat { knight, .. }) => Some(*knight),
            _ => None,
        })
        .collect();
    for p in &s.players {
        for level in KnightLevel::ALL {
            let n = c.knights_of(p.seat, level) as usize
                + retreating
                    .iter()
                    .filter(|k| k.owner == p.seat && k.level == level)
                    .count();
            if n > KNIGHTS_PER_LEVEL as usize {
                return Err(format!("{}: {n} {level:?} knights", p.seat));
            }
        }
    }
    Ok(())
}

/// Walls under cities, at most three a player; tipped cities are
/// settlements of real players.
fn check_buildings(s: &GameState) -> Result<(), String> {
    let c = ck(s);
    for n in c.walls.iter() {
        if !matches!(s.building_at(n), Some(b) if b.kind == BuildingKind::City && b.owner.is_real())
        {
            return Err(format!("a wall at node {n} without a city"));
        }
    }
    for seat in GameState::real_seats() {
        if cities::walls_of(s, seat) > WALLS_PER_PLAYER {
            return Err(format!("{seat} has more than 3 walls"));
        }
    }
    for n in c.tipped.iter() {
        if !matches!(s.building_at(n), Some(b) if b.kind == BuildingKind::Settlement && b.owner.is_real())
        {
            return Err(format!("a tipped city at node {n} that is no settlement"));
        }
    }
    Ok(())
}

/// One metropolis per track, each on a distinct city of a player at level
/// 4 or more of its track; and no track left without one while a player
/// has reached level 4 (unless its placement is awaited).
fn check_metropolises(s: &GameState) -> Result<(), String> {
    let c = ck(s);
    let pending: Vec<Track> = s
        .phases
        .iter()
        .filter_map(|p| match p {
            Phase::Variant(Step::Metropolis { track, .. }) => Some(*track),
            _ => None,
        })
        .collect();
    let mut nodes = Vec::new();
    for track in Track::ALL {
        match c.metropolis_of(s, track) {
            Some((holder, node)) => {
                if s.building_at(node).map(|b| b.kind) != Some(BuildingKind::City) {
                    return Err(format!("{track} metropolis at node {node} on no city"));
                }
                if c.player(holder).level(track) < METROPOLIS_LEVEL {
                    return Err(format!("{track} metropolis held below level 4"));
                }
                if nodes.contains(&node) {
                    return Err(format!("two metropolises on node {node}"));
                }
                nodes.push(node);
            }
            None if c.metropolises[track.index()].is_some() => {
                return Err(format!("{track} metropolis on an empty node"));
            }
            None => {
                let reached = c.players.iter().any(|p| p.level(track) >= METROPOLIS_LEVEL);
                if reached && !pending.contains(&track) {
                    return Err(format!("{track} level 4 reached but no metropolis placed"));
                }
            }
        }
    }
    Ok(())
}
