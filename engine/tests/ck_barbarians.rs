//! ck_for_two (RULES.md §6.6): the barbarian ship and its attack.

use crate::common::ck::*;
use crate::common::{S0, S1};
use hexpost_engine::actions::LegalAction;
use hexpost_engine::cards::{ProgressCard, Track};
use hexpost_engine::rulesets::Step;
use hexpost_engine::testkit::Scenario;
use hexpost_engine::{Action, ActionError, Event, ResourceCounts};

/// Seat 0 rolls: the ship on space 6 attacks on roll 1 (its number dice a
/// quiet 2), roll 2 a quiet 12.
fn attack(s: &mut Scenario) -> Vec<Event> {
    s.barbarians(6, 0);
    roll(s, S0, [1, 1, SHIP], QUIET_12)
}

/// Seat 0 rolls roll 1 only (the attack awaits a decision).
fn attack_awaiting(s: &mut Scenario) -> Vec<Event> {
    s.barbarians(6, 0);
    roll_first(s, S0, [1, 1, SHIP])
}

fn attack_event(ev: &[Event]) -> Event {
    ev.iter()
        .find(|e| matches!(e, Event::BarbarianAttack { .. }))
        .cloned()
        .expect("an attack")
}

#[test]
fn ship_each_ship_face_moves_it_one_space() {
    let mut s = game();
    let ev = roll(&mut s, S0, [1, 1, SHIP], [6, 6, SHIP]);
    let moves: Vec<u8> = ev
        .iter()
        .filter_map(|e| match e {
            Event::BarbariansAdvanced { position } => Some(*position),
            _ => None,
        })
        .collect();
    assert_eq!(moves, [1, 2]);
    assert_eq!(s.ck().barbarians, 2);
    let mut s = game();
    roll(&mut s, S0, [1, 1, 3], [6, 6, TRADE]);
    assert_eq!(
        s.ck().barbarians,
        1,
        "faces 1 to 3 are the ship, a gate is not"
    );
}

#[test]
fn attack_strength_counts_every_city_a_metropolis_once_defence_only_real_active_knights() {
    let mut s = game();
    s.city(S0, 31)
        .city(S0, 44)
        .levels(S0, [4, 0, 0])
        .metropolis(Track::Trade, 44)
        .city(S1, 7)
        .knight(S0, 24, STRONG, true)
        .knight(S0, 30, MIGHTY, false)
        .knight(S1, 17, BASIC, true)
        .knight(N2, 8, STRONG, false);
    let ev = attack(&mut s);
    assert_eq!(
        attack_event(&ev),
        Event::BarbarianAttack {
            strength: 3,
            defence: 3,
            contributions: vec![(S0, 2), (S1, 1)],
        }
    );
    assert!(ev.contains(&Event::DefenderOfCatan { seat: S0 }));
    assert!(!ev.iter().any(|e| matches!(e, Event::CityPillaged { .. })));
    s.check();
}

#[test]
fn barbarians_win_the_lowest_contributor_loses_a_city_automatically_when_it_has_one() {
    let mut s = game();
    s.city(S0, 31).city(S1, 7).knight(S1, 17, BASIC, true);
    let vp = s.state.player(S0).visible_vp;
    let ev = attack(&mut s);
    assert_eq!(
        attack_event(&ev),
        Event::BarbarianAttack {
            strength: 2,
            defence: 1,
            contributions: vec![(S0, 0), (S1, 1)],
        }
    );
    assert!(ev.contains(&Event::CityPillaged {
        seat: S0,
        node: 31,
        tipped: false,
        wall: false
    }));
    assert_eq!(
        s.state.building_at(7).unwrap().kind,
        hexpost_engine::state::BuildingKind::City
    );
    assert_eq!(s.state.player(S0).visible_vp, vp - 1);
    s.check();
}

#[test]
fn barbarians_win_a_tie_for_the_lowest_costs_both_a_city() {
    let mut s = game();
    s.city(S0, 31)
        .city(S1, 7)
        .knight(S0, 24, BASIC, true)
        .knight(S1, 17, BASIC, true);
    s.city(S1, 44);
    // Strength 3 against 2; both contribute 1.
    let ev = attack_awaiting(&mut s);
    assert!(ev.contains(&Event::CityPillaged {
        seat: S0,
        node: 31,
        tipped: false,
        wall: false
    }));
    assert_eq!(step(&s), Some(Step::CityLosses { owed: vec![S1] }));
    assert_eq!(
        s.state.legal_actions(S1),
        vec![LegalAction::LoseCity {
            nodes: [7u8, 44].into_iter().collect()
        }]
    );
    s.rig_dice(&QUIET_12);
    s.ok(S1, Action::LoseCity { node: 44 });
    assert_eq!(
        s.state.building_at(44).unwrap().kind,
        hexpost_engine::state::BuildingKind::Settlement
    );
    s.check();
}

#[test]
fn barbarians_win_an_ineligible_player_is_skipped_and_the_other_loses_a_city() {
    let mut s = game();
    // Seat 0's only city holds a metropolis: not eligible, though it
    // contributes nothing. Seat 1 contributes more and still loses one.
    s.city(S0, 31)
        .levels(S0, [0, 4, 0])
        .metropolis(Track::Politics, 31)
        .city(S1, 7)
        .knight(S1, 17, BASIC, true);
    let ev = attack(&mut s);
    let pillaged: Vec<_> = ev
        .iter()
        .filter(|e| matches!(e, Event::CityPillaged { .. }))
        .collect();
    assert_eq!(
        pillaged,
        vec![&Event::CityPillaged {
            seat: S1,
            node: 7,
            tipped: false,
            wall: false
        }]
    );
    s.check();
}

#[test]
fn barbarians_win_both_owners_pick_their_city_at_once() {
    let mut s = game();
    s.city(S0, 31).city(S0, 44).city(S1, 7).city(S1, 24);
    attack_awaiting(&mut s);
    assert_eq!(step(&s), Some(Step::CityLosses { owed: vec![S0, S1] }));
    let mut awaited = s.state.awaiting().to_vec();
    awaited.sort();
    assert_eq!(awaited, vec![S0, S1]);
    assert!(matches!(
        s.refused(S1, Action::LoseCity { node: 31 }),
        ActionError::InvalidChoice { .. }
    ));
    s.ok(S1, Action::LoseCity { node: 24 });
    assert_eq!(step(&s), Some(Step::CityLosses { owed: vec![S0] }));
    s.rig_dice(&QUIET_12);
    s.ok(S0, Action::LoseCity { node: 44 });
    assert_eq!(s.state.phase(), &hexpost_engine::Phase::Main);
    s.check();
}

#[test]
fn pillage_the_city_becomes_a_settlement_its_wall_returns_and_improvements_stay() {
    let mut s = game();
    s.city(S0, 31).wall(31).levels(S0, [2, 1, 3]);
    let (st, ci) = (
        s.state.player(S0).settlements_left,
        s.state.player(S0).cities_left,
    );
    let ev = attack(&mut s);
    assert!(ev.contains(&Event::CityPillaged {
        seat: S0,
        node: 31,
        tipped: false,
        wall: true
    }));
    assert_eq!(s.state.player(S0).settlements_left, st - 1);
    assert_eq!(s.state.player(S0).cities_left, ci + 1);
    assert!(!s.ck().walls.contains(31));
    assert_eq!(s.ck().player(S0).levels, [2, 1, 3], "improvements are kept");
    s.check();
}

#[test]
fn pillage_with_no_settlement_piece_left_the_city_is_tipped_and_rebuilt_without_a_city_piece() {
    // 13 VP of buildings: a higher target keeps the game going.
    let mut s = Scenario::with_options(hexpost_engine::Variant::CkForTwo, &[("vp_target", "20")]);
    for node in [31, 19, 44, 28] {
        s.city(S0, node);
    }
    for node in [0, 2, 15, 47, 50] {
        s.settlement(S0, node);
    }
    assert_eq!(
        (
            s.state.player(S0).settlements_left,
            s.state.player(S0).cities_left
        ),
        (0, 0)
    );
    attack_awaiting(&mut s);
    s.rig_dice(&QUIET_12);
    let ev = s.ok(S0, Action::LoseCity { node: 31 });
    assert!(ev.contains(&Event::CityPillaged {
        seat: S0,
        node: 31,
        tipped: true,
        wall: false
    }));
    assert!(s.ck().tipped.contains(31));
    assert_eq!(
        s.state.building_at(31).unwrap().kind,
        hexpost_engine::state::BuildingKind::Settlement,
        "a settlement in every respect"
    );
    assert_eq!(
        (
            s.state.player(S0).settlements_left,
            s.state.player(S0).cities_left
        ),
        (0, 0),
        "the city piece stays on the board"
    );
    s.check();
    // Upgraded again at the normal cost, with no city piece in supply: it
    // takes none and frees no settlement piece.
    s.give(S0, ResourceCounts::new(0, 0, 0, 2, 3));
    match s
        .state
        .legal_actions(S0)
        .iter()
        .find(|l| matches!(l, LegalAction::BuildCity { .. }))
    {
        Some(LegalAction::BuildCity { nodes }) => assert_eq!(nodes.to_vec_ids(), vec![31]),
        other => panic!("{other:?}"),
    }
    s.ok(S0, Action::BuildCity { node: 31 });
    assert!(!s.ck().tipped.contains(31));
    assert_eq!(
        (
            s.state.player(S0).settlements_left,
            s.state.player(S0).cities_left
        ),
        (0, 0)
    );
    assert_eq!(s.hand(S0), ResourceCounts::ZERO);
    s.check();
}

trait Ids {
    fn to_vec_ids(&self) -> Vec<u8>;
}

impl Ids for hexpost_engine::board::NodeSet {
    fn to_vec_ids(&self) -> Vec<u8> {
        self.iter().collect()
    }
}

#[test]
fn catan_wins_the_single_highest_contributor_is_defender_of_catan() {
    let mut s = game();
    s.city(S0, 31)
        .knight(S1, 17, STRONG, true)
        .knight(S0, 24, BASIC, true);
    let vp = s.state.player(S1).visible_vp;
    let ev = attack(&mut s);
    assert!(ev.contains(&Event::DefenderOfCatan { seat: S1 }));
    assert_eq!(s.state.player(S1).visible_vp, vp + 1);
    assert_eq!(s.ck().player(S1).defenders, 1);
    assert_eq!(s.ck().defenders_left, 5);
    s.check();
}

#[test]
fn catan_wins_the_defenders_vp_outlasts_the_six_cards() {
    let mut s = game();
    s.defenders(S1, 6).knight(S1, 17, BASIC, true);
    assert_eq!(s.ck().defenders_left, 0);
    let vp = s.state.player(S1).visible_vp;
    let ev = attack(&mut s);
    assert!(ev.contains(&Event::DefenderOfCatan { seat: S1 }));
    assert_eq!(s.state.player(S1).visible_vp, vp + 1);
    s.check();
}

#[test]
fn catan_wins_tied_highest_contributors_each_draw_a_deck_of_their_choice_active_first() {
    let mut s = game();
    s.knight(S0, 24, BASIC, true)
        .knight(S1, 17, BASIC, true)
        .deck_top(ProgressCard::Spy)
        .deck_top(ProgressCard::Smith);
    attack_awaiting(&mut s);
    assert_eq!(
        step(&s),
        Some(Step::DefenderDraws {
            seats: vec![S0, S1]
        })
    );
    assert_eq!(s.state.awaiting().to_vec(), vec![S0]);
    assert_eq!(
        s.state.legal_actions(S0),
        vec![LegalAction::DrawProgress {
            tracks: Track::ALL.to_vec()
        }]
    );
    s.ok(
        S0,
        Action::DrawProgress {
            track: Track::Politics,
        },
    );
    assert!(s.ck().holds(S0, ProgressCard::Spy));
    assert_eq!(s.state.awaiting().to_vec(), vec![S1]);
    s.rig_dice(&QUIET_12);
    s.ok(
        S1,
        Action::DrawProgress {
            track: Track::Science,
        },
    );
    assert!(s.ck().holds(S1, ProgressCard::Smith));
    assert_eq!(s.state.phase(), &hexpost_engine::Phase::Main);
    s.check();
}

#[test]
fn catan_wins_a_tied_defender_with_one_non_empty_deck_is_not_asked() {
    let mut s = game();
    s.knight(S0, 24, BASIC, true)
        .knight(S1, 17, BASIC, true)
        .drain_deck(Track::Science, S0)
        .drain_deck(Track::Politics, S0);
    let top = *s.ck().decks[Track::Trade.index()]
        .cards
        .as_ref()
        .unwrap()
        .last()
        .unwrap();
    let ev = attack(&mut s);
    let draws: Vec<_> = ev
        .iter()
        .filter_map(|e| match e {
            Event::ProgressDrawn { seat, track, card } => Some((*seat, *track, *card)),
            _ => None,
        })
        .collect();
    assert_eq!(draws.len(), 2);
    assert_eq!(draws[0], (S0, Track::Trade, Some(top)));
    assert_eq!(draws[1].0, S1);
    s.check();
}

#[test]
fn catan_wins_with_nobody_contributing_nobody_is_rewarded() {
    let mut s = game();
    let ev = attack(&mut s);
    assert_eq!(
        attack_event(&ev),
        Event::BarbarianAttack {
            strength: 0,
            defence: 0,
            contributions: vec![(S0, 0), (S1, 0)],
        }
    );
    assert!(!ev.iter().any(|e| matches!(
        e,
        Event::DefenderOfCatan { .. } | Event::ProgressDrawn { .. }
    )));
    assert_eq!(step(&s), None);
}

#[test]
fn after_an_attack_knights_are_inactive_the_ship_is_back_and_the_counter_rises() {
    let mut s = game();
    s.knight(S0, 24, BASIC, true).knight(S1, 17, MIGHTY, true);
    let ev = attack(&mut s);
    assert!(ev.contains(&Event::BarbariansReturned { attacks: 1 }));
    assert!(s.ck().knights.iter().all(|k| !k.active));
    assert_eq!((s.ck().barbarians, s.ck().attacks), (0, 1));
    // The next attack is seven ship moves away.
    let mut s = game();
    s.barbarians(5, 3);
    roll(&mut s, S0, [1, 1, SHIP], [6, 6, TRADE]);
    assert_eq!((s.ck().barbarians, s.ck().attacks), (6, 3));
}

#[test]
fn an_off_turn_progress_discard_follows_a_tied_defenders_draw() {
    let mut s = game();
    s.knight(S0, 24, BASIC, true).knight(S1, 17, BASIC, true);
    four_science_cards(&mut s, S1);
    attack_awaiting(&mut s);
    s.ok(
        S0,
        Action::DrawProgress {
            track: Track::Trade,
        },
    );
    s.ok(
        S1,
        Action::DrawProgress {
            track: Track::Trade,
        },
    );
    assert_eq!(step(&s), Some(Step::ProgressDiscard { seat: S1 }));
    assert_eq!(s.ck().player(S1).progress.count, 5);
}
