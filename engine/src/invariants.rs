//! Checks that must hold after every action of every game. The simulator
//! and the property tests run them; a failure names what broke.

use crate::board::topology::HEX_COUNT;
use crate::cards::{Card, CardKind};
use crate::contract::Ruleset;
use crate::hidden::Redact;
use crate::parts::awards::MIN_LONGEST_ROAD;
use crate::phases::Phase;
use crate::rng::GameRng;
use crate::seats::{Seat, SeatKind};
use crate::state::{BuildingKind, GameState};
use crate::{Action, ActionError, Event};

/// Conservation of cards and pieces, incremental counts against a
/// recount, each part's and the ruleset's own checks, and that the game
/// never waits on nobody.
pub fn check_state(s: &GameState) -> Result<(), String> {
    let ruleset = s.ruleset();
    let supply = ruleset.card_supply();
    for &c in Card::ALL {
        let total: u32 = s.bank[c] as u32 + s.players.iter().map(|p| p.hand[c] as u32).sum::<u32>();
        if total != supply[c] as u32 {
            return Err(format!("{c}: bank + hands = {total}, not {}", supply[c]));
        }
    }
    if let Some(dev) = &s.dev {
        if dev.hands.len() != s.players.len() {
            return Err("a development hand per seat".into());
        }
        dev.check()?;
    }
    for p in &s.players {
        let seat = p.seat;
        let roads = s.roads.iter().filter(|r| **r == Some(seat)).count() as u8;
        let count = |k| {
            s.buildings
                .iter()
                .flatten()
                .filter(|b| b.owner == seat && b.kind == k)
                .count() as u8
        };
        let (settlements, cities) = (count(BuildingKind::Settlement), count(BuildingKind::City));
        // A settlement standing on a city piece (a tipped city) takes a
        // city piece, not a settlement piece.
        let tipped = ruleset.city_pieces_as_settlements(s, seat);
        let (settlements, cities) = (settlements - tipped, cities + tipped);
        if roads + p.roads_left != crate::state::ROADS_PER_PLAYER {
            return Err(format!(
                "{seat}: roads on board {roads} + supply {} != 15",
                p.roads_left
            ));
        }
        if settlements + cities + p.settlements_left
            != crate::state::SETTLEMENTS_PER_PLAYER + cities
        {
            return Err(format!(
                "{seat}: settlements on board {settlements} + supply {} != 5 - cities",
                p.settlements_left
            ));
        }
        if cities + p.cities_left != crate::state::CITIES_PER_PLAYER {
            return Err(format!(
                "{seat}: cities on board {cities} + supply {} != 4",
                p.cities_left
            ));
        }
        let vp = s.recount_visible_vp(seat);
        if vp != p.visible_vp {
            return Err(format!(
                "{seat}: incremental VP {} but recount {vp}",
                p.visible_vp
            ));
        }
        let len = s.longest_road_reference(seat);
        if len != p.road_length {
            return Err(format!(
                "{seat}: stored road length {} but brute-force recount {len}",
                p.road_length
            ));
        }
        if p.kind == SeatKind::Fictional && !p.hand.is_empty() {
            return Err(format!("fictional {seat} holds cards"));
        }
    }
    check_removed_hexes(s)?;
    ruleset.check(s)?;
    if let Some(h) = s.longest_road {
        let hl = s.player(h).road_length;
        if hl < MIN_LONGEST_ROAD || s.players.iter().any(|p| p.road_length > hl) {
            return Err(format!(
                "longest road held by {h} with {hl}, which is not the longest or below 5"
            ));
        }
    }
    if s.robber as usize >= HEX_COUNT {
        return Err("robber off the board".into());
    }
    if s.phases.is_empty() {
        return Err("empty phase stack".into());
    }
    if !s.is_over() {
        let awaited = s.awaiting();
        if awaited.is_empty() {
            return Err(format!("nobody is awaited in phase {:?}", s.phase()));
        }
        if let Some(seat) = s
            .sealed_answers()
            .iter()
            .find(|seat| awaited.contains(seat))
        {
            return Err(format!(
                "{seat} is awaited while its last answer is sealed in {:?}",
                s.phase()
            ));
        }
        if awaited.iter().all(|&seat| s.legal_actions(seat).is_empty()) {
            return Err(format!(
                "awaited {awaited:?} have no legal action in {:?}",
                s.phase()
            ));
        }
    }
    if let Some(w) = s.winner {
        if s.total_vp(w) < s.rules.vp_target {
            return Err(format!("{w} won with {} VP", s.total_vp(w)));
        }
        if !matches!(s.phase(), Phase::Ended) {
            return Err("winner set but game not ended".into());
        }
    }
    Ok(())
}

/// No building or road touches a removed hex, so no removed hex can
/// produce for anyone: production only pays adjacent buildings.
fn check_removed_hexes(s: &GameState) -> Result<(), String> {
    if s.board.removed == 0 {
        return Ok(());
    }
    for (n, b) in s.buildings.iter().enumerate() {
        if b.is_some() && !s.node_in_play(n as u8) {
            return Err(format!("building on node {n}, which touches a removed hex"));
        }
    }
    for (e, r) in s.roads.iter().enumerate() {
        if r.is_some() && !s.edge_in_play(e as u8) {
            return Err(format!("road on edge {e}, which borders a removed hex"));
        }
    }
    if !s.hex_in_play(s.robber)
        && !s.ruleset().robber_may_enter_removed(s)
        && s.board.desert() != Some(s.robber)
    {
        return Err(format!("robber on removed hex {}", s.robber));
    }
    Ok(())
}

/// The view and legal actions of `viewer` must not change when everything
/// hidden from it changes: the other seats' hand composition (the same
/// counts of resources and of commodities; the bank absorbs the
/// difference), their development cards (same counts of new and old), the
/// deck order, the ruleset's own hidden facts, the dice deck and the RNG.
pub fn check_view_hides(s: &GameState, viewer: Seat, salt: u64) -> Result<(), String> {
    let before = serde_json::to_string(&s.view(Some(viewer))).map_err(|e| e.to_string())?;
    let legal_before =
        serde_json::to_string(&s.legal_actions(viewer)).map_err(|e| e.to_string())?;
    let mut alt = s.clone();
    let mut rng = GameRng::from_seed(salt);
    let supply = s.ruleset().card_supply();
    let kinds: Vec<Card> = Card::ALL
        .iter()
        .copied()
        .filter(|&c| supply[c] > 0)
        .collect();
    let n = kinds.len() as u32;
    for i in 0..alt.players.len() {
        // Automated seats' hands are public; only the opponent's is hidden.
        if alt.players[i].seat == viewer
            || alt.players[i].hand_is_public()
            || s.ruleset().opponent_hand_shown(s, viewer)
        {
            continue;
        }
        // Swap single cards between kinds of the same class (resource or
        // commodity) while both bank and hand allow.
        for _ in 0..4 {
            let from = kinds[rng.below(n) as usize];
            let to = kinds[rng.below(n) as usize];
            let same_class = from.resource().is_some() == to.resource().is_some();
            if from != to && same_class && alt.players[i].hand[from] > 0 && alt.bank[to] > 0 {
                alt.players[i].hand[from] -= 1;
                alt.players[i].hand[to] += 1;
                alt.bank[from] += 1;
                alt.bank[to] -= 1;
            }
        }
    }
    if let Some(dev) = &mut alt.dev {
        dev.perturb_hidden(viewer, &mut rng);
    }
    s.ruleset().perturb_hidden(&mut alt, viewer, &mut rng);
    alt.rng = GameRng::from_seed(salt ^ 0x9e37_79b9_7f4a_7c15);
    if let crate::dice::Dice::Balanced { remaining } = &mut alt.dice {
        rng.shuffle(remaining);
        remaining.truncate(remaining.len().saturating_sub(1).max(1));
    }
    let after = serde_json::to_string(&alt.view(Some(viewer))).map_err(|e| e.to_string())?;
    if before != after {
        return Err(format!(
            "view of {viewer} changed with hidden facts:\n{before}\n{after}"
        ));
    }
    let legal_after =
        serde_json::to_string(&alt.legal_actions(viewer)).map_err(|e| e.to_string())?;
    if legal_before != legal_after {
        return Err(format!("legal actions of {viewer} depend on hidden facts"));
    }
    Ok(())
}

/// Each event, redacted for a seat, carries no card that seat may not know.
pub fn check_events_redacted(events: &[Event], viewer: Option<Seat>) -> Result<(), String> {
    for e in events {
        match e.redacted_for(viewer) {
            Event::Stole {
                thief,
                victim,
                resource: Some(_),
            } if victim.is_real() && viewer != Some(thief) && viewer != Some(victim) => {
                return Err(format!("{viewer:?} sees the stolen card of {e:?}"));
            }
            Event::DevCardBought {
                seat,
                card: Some(_),
            } if viewer != Some(seat) => {
                return Err(format!("{viewer:?} sees the bought card of {e:?}"));
            }
            Event::ForcedTradeDrew {
                seat,
                from: other,
                cards: Some(_),
            }
            | Event::ForcedTradeGave {
                seat,
                to: other,
                cards: Some(_),
            }
            | Event::CardLost {
                seat,
                by: other,
                resource: Some(_),
                ..
            }
            | Event::CardsGiven {
                seat,
                to: other,
                cards: Some(_),
            }
            | Event::CardsTaken {
                seat,
                from: other,
                cards: Some(_),
            }
            | Event::ProgressTaken {
                seat,
                from: other,
                card: Some(_),
            } if viewer != Some(seat) && viewer != Some(other) => {
                return Err(format!("{viewer:?} sees the cards of {e:?}"));
            }
            Event::StoleCommodity {
                thief,
                victim,
                commodity: Some(_),
            } if victim.is_real() && viewer != Some(thief) && viewer != Some(victim) => {
                return Err(format!("{viewer:?} sees the stolen card of {e:?}"));
            }
            Event::ProgressDrawn {
                seat,
                card: Some(_),
                ..
            }
            | Event::HandShown {
                seat,
                cards: Some(_),
                ..
            } if viewer != Some(seat) => {
                return Err(format!("{viewer:?} sees the cards of {e:?}"));
            }
            Event::ProgressHandShown {
                seat,
                cards: Some(_),
                ..
            } if viewer != Some(seat) => {
                return Err(format!("{viewer:?} sees the progress cards of {e:?}"));
            }
            _ => {}
        }
    }
    Ok(())
}

/// Applies `action`; if it is refused, the state must be exactly as before.
pub fn apply_checked(
    s: &mut GameState,
    seat: Seat,
    action: &Action,
) -> Result<Result<Vec<Event>, ActionError>, String> {
    let before = s.clone();
    let res = s.apply(seat, action);
    if let Err(e) = &res
        && *s != before
    {
        return Err(format!(
            "refused {action:?} by {seat} changed the state: {e:?}"
        ));
    }
    Ok(res)
}
