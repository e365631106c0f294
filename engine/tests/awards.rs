//! RULES.md §1 Longest road and Largest army.
//!
//! Seat 0's long road runs 3-0-4-8-12-7-11-16-21 (8 segments) from its
//! settlement on node 3. Seat 1 breaks it by settling on node 8, reached by
//! its road 18-13-8 from its settlement on node 18; that splits seat 0's
//! road into 3-0-4-8 (3) and 8-12-7-11-16-21 (5). Seat 1's own long road
//! runs along the bottom coast 47-51-48-52-49-53-50.

use crate::common::*;
use hexpost_engine::board::topology;
use hexpost_engine::rng::GameRng;
use hexpost_engine::seats::SeatKind;
use hexpost_engine::state::Player;
use hexpost_engine::testkit::{Scenario, edge, hex};
use hexpost_engine::{Action, DevCard, Event, Seat};

const S0_LONG: [u8; 9] = [3, 0, 4, 8, 12, 7, 11, 16, 21];
const S1_BOTTOM: [u8; 7] = [47, 51, 48, 52, 49, 53, 50];

/// Seat 0 holds longest road with 8; seat 1 has the bottom road of
/// `bottom` segments and can reach node 8 to break seat 0's road.
fn broken_setup(bottom: usize) -> Scenario {
    let mut s = Scenario::standard();
    s.settlement(S0, 3).road_path(S0, &S0_LONG);
    s.settlement(S1, 18).road_path(S1, &[18, 13, 8]);
    s.settlement(S1, 47).road_path(S1, &S1_BOTTOM[..=bottom]);
    assert_eq!(s.state.longest_road, Some(S0));
    assert_eq!(s.state.player(S0).road_length, 8);
    assert_eq!(s.state.player(S1).road_length, bottom as u8);
    s.main_phase(S1).give(S1, rc(1, 1, 1, 1, 0));
    s
}

fn settle_8(s: &mut Scenario) -> Vec<Event> {
    s.ok(S1, Action::BuildSettlement { node: 8 })
}

#[test]
fn longest_road_needs_five_segments() {
    let mut s = Scenario::standard();
    s.settlement(S0, 3).road_path(S0, &S0_LONG[..5]);
    assert_eq!(s.state.player(S0).road_length, 4);
    assert_eq!(s.state.longest_road, None);
    s.main_phase(S0).give(S0, rc(1, 1, 0, 0, 0));
    assert_eq!(
        s.ok(S0, Action::BuildRoad { edge: edge(12, 7) }),
        vec![
            Event::RoadBuilt {
                seat: S0,
                edge: edge(12, 7),
                free: false
            },
            Event::LongestRoadChanged {
                from: None,
                to: Some(S0),
                length: 5
            },
        ]
    );
    assert_eq!(s.state.longest_road, Some(S0));
    assert_eq!(s.state.player(S0).visible_vp, 3);
    consistent(&s);
}

#[test]
fn a_challenger_must_exceed_the_holder() {
    let mut s = Scenario::standard();
    s.settlement(S0, 3).road_path(S0, &S0_LONG[..6]);
    s.settlement(S1, 47).road_path(S1, &S1_BOTTOM[..5]);
    assert_eq!(s.state.longest_road, Some(S0));
    s.main_phase(S1).give(S1, rc(2, 2, 0, 0, 0));
    // Tying at 5 is not enough.
    assert_eq!(
        s.ok(S1, Action::BuildRoad { edge: edge(49, 53) }),
        vec![Event::RoadBuilt {
            seat: S1,
            edge: edge(49, 53),
            free: false
        }]
    );
    assert_eq!(s.state.player(S1).road_length, 5);
    assert_eq!(s.state.longest_road, Some(S0));
    // Six beats five.
    assert_eq!(
        s.ok(S1, Action::BuildRoad { edge: edge(53, 50) }),
        vec![
            Event::RoadBuilt {
                seat: S1,
                edge: edge(53, 50),
                free: false
            },
            Event::LongestRoadChanged {
                from: Some(S0),
                to: Some(S1),
                length: 6
            },
        ]
    );
    assert_eq!(s.state.player(S0).visible_vp, 1);
    assert_eq!(s.state.player(S1).visible_vp, 3);
    consistent(&s);
}

#[test]
fn an_opponents_settlement_breaks_a_road_and_the_holder_keeps_it_on_a_tie() {
    let mut s = broken_setup(5);
    assert_eq!(
        settle_8(&mut s),
        vec![Event::SettlementBuilt {
            seat: S1,
            node: 8,
            free: false
        }]
    );
    assert_eq!(s.state.player(S0).road_length, 5);
    assert_eq!(s.state.player(S1).road_length, 5);
    assert_eq!(s.state.longest_road, Some(S0));
    assert_eq!(s.state.player(S0).visible_vp, 3);
    consistent(&s);
}

#[test]
fn a_broken_holder_loses_it_to_a_single_longer_road() {
    let mut s = broken_setup(6);
    assert_eq!(
        settle_8(&mut s),
        vec![
            Event::SettlementBuilt {
                seat: S1,
                node: 8,
                free: false
            },
            Event::LongestRoadChanged {
                from: Some(S0),
                to: Some(S1),
                length: 6
            },
        ]
    );
    assert_eq!(s.state.player(S0).road_length, 5);
    assert_eq!(s.state.player(S0).visible_vp, 1);
    assert_eq!(s.state.player(S1).visible_vp, 5);
    consistent(&s);
}

#[test]
fn a_broken_road_below_five_with_nobody_else_at_five_sets_the_card_aside() {
    let mut s = Scenario::standard();
    // Seat 0: 3-0-4-8-12-7-11 (6), split at 8 into 3 + 3.
    s.settlement(S0, 3).road_path(S0, &S0_LONG[..7]);
    s.settlement(S1, 18).road_path(S1, &[18, 13, 8]);
    s.settlement(S1, 47).road_path(S1, &S1_BOTTOM[..5]);
    assert_eq!(s.state.longest_road, Some(S0));
    s.main_phase(S1).give(S1, rc(1, 1, 1, 1, 0));
    assert_eq!(
        settle_8(&mut s)[1],
        Event::LongestRoadChanged {
            from: Some(S0),
            to: None,
            length: 4
        }
    );
    assert_eq!(s.state.player(S0).road_length, 3);
    assert_eq!(s.state.longest_road, None);
    assert_eq!(s.state.player(S0).visible_vp, 1);
    consistent(&s);
}

/// Only two players are real, so "the holder is no longer among the longest
/// and several others tie" needs a third road owner. We add a neutral seat
/// (as the catan_for_two / neutral_trader variants do) directly to
/// `state.players`; its road ties seat 1's after seat 0's road is broken.
#[test]
fn a_broken_holder_behind_a_tie_of_others_sets_the_card_aside() {
    let mut s = Scenario::standard();
    let neutral = Seat(2);
    s.state
        .players
        .push(Player::new(neutral, SeatKind::Neutral));
    s.settlement(S0, 3).road_path(S0, &S0_LONG);
    s.settlement(S1, 18).road_path(S1, &[18, 13, 8]);
    s.settlement(S1, 47).road_path(S1, &S1_BOTTOM);
    s.settlement(neutral, 15)
        .road_path(neutral, &[15, 20, 26, 32, 37, 42, 46]);
    assert_eq!([0, 1, 2].map(|i| s.state.players[i].road_length), [8, 6, 6]);
    assert_eq!(s.state.longest_road, Some(S0));
    s.main_phase(S1).give(S1, rc(1, 1, 1, 1, 0));
    assert_eq!(
        settle_8(&mut s),
        vec![
            Event::SettlementBuilt {
                seat: S1,
                node: 8,
                free: false
            },
            Event::LongestRoadChanged {
                from: Some(S0),
                to: None,
                length: 6
            },
        ]
    );
    assert_eq!(s.state.longest_road, None);
    assert_eq!(s.state.player(S0).visible_vp, 1);
    assert_eq!(s.state.player(S1).visible_vp, 3);
}

#[test]
fn road_length_is_the_longest_trail_not_the_number_of_roads() {
    // A fork: three arms of two from node 8 -> longest trail 4.
    let mut s = Scenario::standard();
    s.settlement(S0, 0)
        .road_path(S0, &[0, 4, 8, 12, 7])
        .road_path(S0, &[8, 13, 18]);
    assert_eq!(s.state.player(S0).road_length, 4);
    assert_eq!(s.state.longest_road, None);
    // A ring of six around the desert counts 6; a tail of two makes 8.
    let mut r = Scenario::standard();
    let ring = topology().hexes[hex(0, 0) as usize].nodes;
    let mut path = ring.to_vec();
    path.push(ring[0]);
    r.road_path(S0, &path);
    assert_eq!(r.state.player(S0).road_length, 6);
    r.road_path(S0, &[ring[0], 13, 8]);
    assert_eq!(r.state.player(S0).road_length, 8);
    // An opponent's building at the end of a road does not shorten it.
    let mut e = Scenario::standard();
    e.road_path(S0, &[3, 0, 4, 8, 12, 7]).settlement(S1, 7);
    assert_eq!(e.state.player(S0).road_length, 5);
}

#[test]
fn road_length_matches_a_brute_force_count_on_random_networks() {
    let t = topology();
    let mut rng = GameRng::from_seed(99);
    for case in 0..300 {
        let mut s = Scenario::standard();
        for e in 0..t.edges.len() {
            match rng.below(10) {
                0..=3 => s.state.roads[e] = Some(S0),
                4 => s.state.roads[e] = Some(S1),
                _ => {}
            }
        }
        for n in 0..t.nodes.len() {
            if rng.below(12) == 0 {
                s.state.buildings[n] = Some(hexpost_engine::state::Building {
                    owner: S1,
                    kind: hexpost_engine::state::BuildingKind::Settlement,
                });
            }
        }
        for seat in [S0, S1] {
            assert_eq!(
                s.state.longest_road_of(seat),
                s.state.longest_road_reference(seat),
                "case {case} {seat}"
            );
        }
    }
}

#[test]
fn largest_army_needs_three_knights() {
    let mut s = Scenario::standard();
    s.settlement(S0, 0).settlement(S1, 12);
    s.knights_played(S0, 2).dev_card(S0, DevCard::Knight, false);
    assert_eq!(s.state.largest_army(), None);
    let ev = s.ok(
        S0,
        Action::PlayKnight {
            hex: hex(0, 2),
            victim: None,
        },
    );
    assert_eq!(
        ev,
        vec![
            Event::DevCardPlayed {
                seat: S0,
                card: DevCard::Knight
            },
            Event::LargestArmyChanged {
                from: None,
                to: Some(S0),
                knights: 3
            },
            Event::RobberMoved {
                seat: S0,
                hex: hex(0, 2)
            },
        ]
    );
    assert_eq!(s.state.largest_army(), Some(S0));
    assert_eq!(s.state.player(S0).visible_vp, 3);
    consistent(&s);
}

#[test]
fn two_knights_are_not_an_army() {
    let mut s = Scenario::standard();
    s.knights_played(S0, 1).dev_card(S0, DevCard::Knight, false);
    let ev = s.ok(
        S0,
        Action::PlayKnight {
            hex: hex(0, 2),
            victim: None,
        },
    );
    assert_eq!(ev.len(), 2, "{ev:?}");
    assert_eq!(s.state.dev_hand(S0).knights_played, 2);
    assert_eq!(s.state.largest_army(), None);
}

#[test]
fn largest_army_challenger_must_exceed_the_holder() {
    // Seat 1 reaches 3 against a holder with 3: no change.
    let mut s = Scenario::standard();
    s.knights_played(S0, 3).knights_played(S1, 2);
    s.dev_card(S1, DevCard::Knight, false).before_roll(S1);
    assert_eq!(s.state.largest_army(), Some(S0));
    let ev = s.ok(
        S1,
        Action::PlayKnight {
            hex: hex(0, 2),
            victim: None,
        },
    );
    assert!(
        !ev.iter()
            .any(|e| matches!(e, Event::LargestArmyChanged { .. })),
        "{ev:?}"
    );
    assert_eq!(s.state.largest_army(), Some(S0));
    assert_eq!(s.state.dev_hand(S1).knights_played, 3);
    // With 4 against 3 it moves.
    let mut t = Scenario::standard();
    t.knights_played(S0, 3).knights_played(S1, 3);
    t.dev_card(S1, DevCard::Knight, false).before_roll(S1);
    let ev = t.ok(
        S1,
        Action::PlayKnight {
            hex: hex(0, 2),
            victim: None,
        },
    );
    assert_eq!(
        ev[1],
        Event::LargestArmyChanged {
            from: Some(S0),
            to: Some(S1),
            knights: 4
        }
    );
    assert_eq!(t.state.player(S0).visible_vp, 0);
    assert_eq!(t.state.player(S1).visible_vp, 2);
    consistent(&t);
}
