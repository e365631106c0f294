//! RULES.md §1 Victory: 10 VP, checked on the player's own turn, hidden VP
//! cards included; the game ends at once.

use crate::common::*;
use hexpost_engine::Phase;
use hexpost_engine::Redact;
use hexpost_engine::cards::DevCounts;
use hexpost_engine::seats::SeatKind;
use hexpost_engine::state::Player;
use hexpost_engine::testkit::{Scenario, edge, hex};
use hexpost_engine::{Action, ActionError, DevCard, Event, Seat};

/// Seat 0 on its turn after the roll: a settlement on node 0 with roads
/// 0-4-8, cities on `cities`; holds the cost of a settlement.
fn near_win(cities: &[u8]) -> Scenario {
    let mut s = Scenario::standard();
    s.settlement(S0, 0).road_path(S0, &[0, 4, 8]);
    for &n in cities {
        s.city(S0, n);
    }
    s.settlement(S1, 18)
        .main_phase(S0)
        .give(S0, rc(1, 1, 1, 1, 0));
    s
}

fn vp(n: u8) -> DevCounts {
    DevCounts::single(DevCard::VictoryPoint, n)
}

#[test]
fn reaching_ten_on_your_turn_ends_the_game_at_once() {
    let mut s = near_win(&[16, 20, 45, 50]);
    assert_eq!(s.state.total_vp(S0), 9);
    assert_eq!(
        s.ok(S0, Action::BuildSettlement { node: 8 }),
        vec![
            Event::SettlementBuilt {
                seat: S0,
                node: 8,
                free: false
            },
            Event::GameWon {
                seat: S0,
                victory_points: 10,
                revealed: DevCounts::default()
            },
        ]
    );
    assert_eq!(s.state.winner, Some(S0));
    assert_eq!(s.state.phases, vec![Phase::Ended]);
    assert!(s.state.is_over());
    assert!(s.state.awaiting().is_empty());
    assert!(s.state.legal_actions(S0).is_empty());
    assert!(s.state.legal_actions(S1).is_empty());
    // Nothing more can happen.
    for (seat, a) in [
        (S0, Action::EndTurn),
        (S0, Action::BuildRoad { edge: edge(0, 3) }),
        (S1, Action::RollDice),
        (S1, Action::AcceptTrade),
    ] {
        assert_eq!(s.refused(seat, a), ActionError::GameOver);
    }
    let v = s.state.view(None);
    assert_eq!(v.winner, Some(S0));
    assert_eq!(v.players[0].final_vp, Some(10));
    assert_eq!(v.players[1].final_vp, Some(1));
    consistent(&s);
}

#[test]
fn nine_points_do_not_end_the_game() {
    let mut s = near_win(&[16, 20, 45]);
    s.ok(S0, Action::BuildSettlement { node: 8 });
    assert_eq!(s.state.total_vp(S0), 8);
    s.settlement(S0, 50); // 9
    s.ok(S0, Action::EndTurn);
    assert_eq!(s.state.winner, None);
    assert_eq!(*s.state.phase(), Phase::BeforeRoll);
}

#[test]
fn hidden_victory_point_cards_count_and_are_revealed_in_the_win() {
    let mut s = near_win(&[16, 20, 45]);
    s.dev_card(S0, DevCard::VictoryPoint, false)
        .dev_card(S0, DevCard::VictoryPoint, true);
    assert_eq!(s.state.player(S0).visible_vp, 7);
    assert_eq!(s.state.total_vp(S0), 9);
    let ev = s.ok(S0, Action::BuildSettlement { node: 8 });
    assert_eq!(
        ev[1],
        Event::GameWon {
            seat: S0,
            victory_points: 10,
            revealed: vp(2)
        }
    );
    // The GameWon event is public: everyone sees the revealed cards.
    assert!(ev[1].is_visible_to(None));
    let v = s.state.view(Some(S1));
    assert_eq!(v.players[0].visible_vp, 8);
    assert_eq!(v.players[0].final_vp, Some(10));
}

#[test]
fn buying_the_tenth_point_wins_at_once() {
    let mut s = near_win(&[16, 20, 45, 50]);
    let pos = s
        .state
        .dev_deck()
        .iter()
        .position(|&c| c == DevCard::VictoryPoint)
        .unwrap();
    let card = s.state.dev.as_mut().unwrap().deck.remove(pos);
    s.state.dev.as_mut().unwrap().deck.push(card);
    s.give(S0, rc(0, 0, 0, 0, 1));
    assert_eq!(
        s.ok(S0, Action::BuyDevelopmentCard),
        vec![
            Event::DevCardBought {
                seat: S0,
                card: Some(DevCard::VictoryPoint)
            },
            Event::GameWon {
                seat: S0,
                victory_points: 10,
                revealed: vp(1)
            },
        ]
    );
    assert_eq!(s.state.winner, Some(S0));
}

#[test]
fn a_knight_before_the_roll_can_win_the_game() {
    let mut s = near_win(&[16, 20, 45]);
    s.knights_played(S0, 2)
        .dev_card(S0, DevCard::Knight, false)
        .before_roll(S0);
    assert_eq!(s.state.total_vp(S0), 7);
    s.settlement(S0, 50);
    assert_eq!(s.state.total_vp(S0), 8);
    let ev = s.ok(
        S0,
        Action::PlayKnight {
            hex: hex(0, 2),
            victim: None,
        },
    );
    assert_eq!(
        ev.last(),
        Some(&Event::GameWon {
            seat: S0,
            victory_points: 10,
            revealed: DevCounts::default()
        })
    );
    assert_eq!(s.state.last_roll, None);
    assert_eq!(s.refused(S0, Action::RollDice), ActionError::GameOver);
}

/// Longest road can move to the player who is not on turn only when a third
/// road owner held it (with two players, the opponent breaking the holder
/// means the opponent *is* the other player). We add a neutral seat, as the
/// two-player variants with neutral colours do, to hold the card.
#[test]
fn reaching_ten_on_the_opponents_turn_wins_only_at_the_start_of_your_turn() {
    let mut s = Scenario::standard();
    let neutral = Seat(2);
    s.state
        .players
        .push(Player::new(neutral, SeatKind::Neutral));
    // Neutral: 8 segments through node 8.
    s.settlement(neutral, 3)
        .road_path(neutral, &[3, 0, 4, 8, 12, 7, 11, 16, 21]);
    // Seat 1: 8 VP in cities and a road of 6 along the bottom.
    for n in [26, 37, 41, 43] {
        s.city(S1, n);
    }
    s.road_path(S1, &[47, 51, 48, 52, 49, 53, 50]);
    // Seat 0: can reach node 8.
    s.settlement(S0, 18).road_path(S0, &[18, 13, 8]);
    assert_eq!(s.state.longest_road, Some(neutral));
    assert_eq!(s.state.total_vp(S1), 8);
    s.main_phase(S0).give(S0, rc(1, 1, 1, 1, 0));

    // Seat 0 breaks the neutral road on its own turn; the card moves to seat 1.
    assert_eq!(
        s.ok(S0, Action::BuildSettlement { node: 8 }),
        vec![
            Event::SettlementBuilt {
                seat: S0,
                node: 8,
                free: false
            },
            Event::LongestRoadChanged {
                from: Some(neutral),
                to: Some(S1),
                length: 6
            },
        ]
    );
    assert_eq!(s.state.total_vp(S1), 10);
    // Seat 1 has not won yet: it is seat 0's turn, which goes on.
    assert_eq!(s.state.winner, None);
    assert_eq!(*s.state.phase(), Phase::Main);
    assert_eq!(&*s.state.awaiting(), &[S0]);
    // At the start of seat 1's turn, before any roll, seat 1 wins.
    assert_eq!(
        s.ok(S0, Action::EndTurn),
        vec![
            Event::TurnEnded { seat: S0 },
            Event::TurnStarted { seat: S1, turn: 2 },
            Event::GameWon {
                seat: S1,
                victory_points: 10,
                revealed: DevCounts::default()
            },
        ]
    );
    assert_eq!(s.state.winner, Some(S1));
    assert_eq!(s.state.phases, vec![Phase::Ended]);
    assert_eq!(s.refused(S1, Action::RollDice), ActionError::GameOver);
}

#[test]
fn only_the_player_on_turn_wins_even_if_the_other_has_enough() {
    // A position where the player not on turn already has 10 (as after the
    // case above): seat 0's actions never make seat 1 the winner.
    let mut s = near_win(&[]);
    for n in [26, 37, 41, 43] {
        s.city(S1, n);
    }
    s.settlement(S1, 50);
    assert_eq!(s.state.total_vp(S1), 10);
    s.ok(S0, Action::BuildSettlement { node: 8 });
    assert_eq!(s.state.winner, None);
    let ev = s.ok(S0, Action::EndTurn);
    assert_eq!(
        ev.last(),
        Some(&Event::GameWon {
            seat: S1,
            victory_points: 10,
            revealed: DevCounts::default()
        })
    );
}
