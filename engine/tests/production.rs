//! RULES.md §1 Turn: the roll and production, with the bank-shortage rule.
//!
//! Beginner board: a 10 hits mountains (hex (0,-2), corners 0,4,8,12,7,3)
//! and hills (hex (2,-1), corners 10,15,20,25,19,14).

use crate::common::*;
use hexpost_engine::Phase;
use hexpost_engine::dice::Dice;
use hexpost_engine::testkit::{Scenario, hex, node_of};
use hexpost_engine::{Action, ActionError, Event, Resource};

/// Seat 0 settlements on nodes 0 and 12 (both on the mountains 10), seat 1
/// a city on node 10 (hills 10 and forest 9).
fn tens() -> Scenario {
    let mut s = Scenario::standard();
    let mountains = hex(0, -2);
    let hills = hex(2, -1);
    let forest9 = hex(2, -2);
    assert_eq!(node_of(&[hills, forest9]), 10);
    assert_eq!(node_of(&[mountains, hex(-1, -1), hex(0, -1)]), 12);
    s.settlement(S0, 0).settlement(S0, 12).city(S1, 10);
    s
}

#[test]
fn settlement_yields_one_city_yields_two() {
    let mut s = tens();
    let ev = roll(&mut s, S0, 10);
    assert_eq!(
        ev,
        vec![
            Event::Produced {
                seat: S0,
                resources: rc(0, 0, 0, 0, 2)
            },
            Event::Produced {
                seat: S1,
                resources: rc(2, 0, 0, 0, 0)
            },
        ]
    );
    assert_eq!(s.hand(S0), rc(0, 0, 0, 0, 2));
    assert_eq!(s.hand(S1), rc(2, 0, 0, 0, 0));
    assert_eq!(s.state.bank, bank_minus(rc(2, 0, 0, 0, 2)));
    assert_eq!(*s.state.phase(), Phase::Main);
    assert_eq!(&*s.state.awaiting(), &[S0]);
    consistent(&s);
}

#[test]
fn only_hexes_with_the_rolled_number_produce() {
    let mut s = tens();
    // 9: forest (2,-2) touches seat 1's city -> 2 lumber; fields (-2,0) nobody.
    let ev = roll(&mut s, S0, 9);
    assert_eq!(
        ev,
        vec![Event::Produced {
            seat: S1,
            resources: rc(0, 2, 0, 0, 0)
        }]
    );
    assert_eq!(s.hand(S0), rc(0, 0, 0, 0, 0));
    // 6: hills (0,-1) touches node 12 -> 1 brick for seat 0.
    s.before_roll(S1);
    let ev = roll(&mut s, S1, 6);
    assert_eq!(
        ev,
        vec![Event::Produced {
            seat: S0,
            resources: rc(1, 0, 0, 0, 0)
        }]
    );
    // A number nobody touches produces nothing.
    s.before_roll(S0);
    assert_eq!(roll(&mut s, S0, 2), vec![]);
    assert_eq!(s.hand(S0), rc(1, 0, 0, 0, 0));
    assert_eq!(s.hand(S1), rc(0, 2, 0, 0, 0));
}

#[test]
fn the_robber_hex_produces_nothing() {
    let mut s = tens();
    s.robber(hex(0, -2));
    let ev = roll(&mut s, S0, 10);
    // Mountains are blocked; the other 10 (hills) still produces.
    assert_eq!(
        ev,
        vec![Event::Produced {
            seat: S1,
            resources: rc(2, 0, 0, 0, 0)
        }]
    );
    assert_eq!(s.hand(S0), rc(0, 0, 0, 0, 0));
    assert_eq!(s.state.bank, bank_minus(rc(2, 0, 0, 0, 0)));
}

#[test]
fn shortage_with_one_player_owed_pays_what_is_left() {
    let mut s = Scenario::standard();
    s.city(S0, 0).city(S1, 10);
    // Seat 1 holds 18 ore: the bank has one left, seat 0 is owed two.
    s.give(S1, rc(0, 0, 0, 0, 18));
    let ev = roll(&mut s, S0, 10);
    assert_eq!(
        ev,
        vec![
            Event::Produced {
                seat: S0,
                resources: rc(0, 0, 0, 0, 1)
            },
            Event::Produced {
                seat: S1,
                resources: rc(2, 0, 0, 0, 0)
            },
        ]
    );
    assert_eq!(s.state.bank[Resource::Ore], 0);
    assert_eq!(s.hand(S0), rc(0, 0, 0, 0, 1));
    consistent(&s);
}

#[test]
fn shortage_with_one_player_owed_and_an_empty_bank_pays_nothing() {
    let mut s = Scenario::standard();
    s.city(S0, 0);
    s.give(S1, rc(0, 0, 0, 0, 19));
    assert_eq!(roll(&mut s, S0, 10), vec![]);
    assert_eq!(s.hand(S0), rc(0, 0, 0, 0, 0));
    assert_eq!(s.hand(S1), rc(0, 0, 0, 0, 19));
}

#[test]
fn shortage_with_two_players_owed_pays_nobody() {
    let mut s = Scenario::standard();
    // Both on the mountains 10; seat 1 also a city on the hills 10.
    s.settlement(S0, 0).settlement(S1, 12).city(S1, 10);
    s.give(S0, rc(0, 0, 0, 0, 9)).give(S1, rc(0, 0, 0, 0, 9));
    assert_eq!(s.state.bank[Resource::Ore], 1);
    let ev = roll(&mut s, S0, 10);
    assert_eq!(
        ev,
        vec![
            Event::ProductionWithheld {
                resource: Resource::Ore
            },
            Event::Produced {
                seat: S1,
                resources: rc(2, 0, 0, 0, 0)
            },
        ]
    );
    assert_eq!(s.state.bank[Resource::Ore], 1);
    assert_eq!(s.hand(S0), rc(0, 0, 0, 0, 9));
    assert_eq!(s.hand(S1), rc(2, 0, 0, 0, 9));
    consistent(&s);
}

#[test]
fn a_bank_holding_exactly_enough_pays_everyone() {
    let mut s = Scenario::standard();
    s.settlement(S0, 0).settlement(S1, 12);
    s.give(S0, rc(0, 0, 0, 0, 9)).give(S1, rc(0, 0, 0, 0, 8));
    assert_eq!(s.state.bank[Resource::Ore], 2);
    let ev = roll(&mut s, S0, 10);
    assert_eq!(
        ev,
        vec![
            Event::Produced {
                seat: S0,
                resources: rc(0, 0, 0, 0, 1)
            },
            Event::Produced {
                seat: S1,
                resources: rc(0, 0, 0, 0, 1)
            },
        ]
    );
    assert_eq!(s.state.bank[Resource::Ore], 0);
}

#[test]
fn rolling_records_the_dice_and_happens_once_per_turn() {
    let mut s = tens();
    assert_eq!(
        s.refused(S1, Action::RollDice),
        ActionError::NotYourDecision {
            awaiting: seats(&[S0])
        }
    );
    assert_eq!(
        s.refused(S0, Action::EndTurn),
        ActionError::WrongPhase {
            action: "end_turn",
            phase: "before the roll"
        }
    );
    roll(&mut s, S0, 10);
    let dice = s.state.last_roll.expect("roll recorded");
    assert_eq!(dice[0] + dice[1], 10);
    assert_eq!(
        s.refused(S0, Action::RollDice),
        ActionError::WrongPhase {
            action: "roll_dice",
            phase: "after the roll"
        }
    );
    assert_eq!(
        s.ok(S0, Action::EndTurn),
        vec![
            Event::TurnEnded { seat: S0 },
            Event::TurnStarted { seat: S1, turn: 2 }
        ]
    );
    assert_eq!(*s.state.phase(), Phase::BeforeRoll);
    assert_eq!((s.state.active, s.state.turn), (S1, 2));
    assert_eq!(&*s.state.awaiting(), &[S1]);
}

#[test]
fn fair_dice_are_two_independent_d6() {
    let mut rng = hexpost_engine::rng::GameRng::from_seed(11);
    let mut dice = Dice::new(false);
    assert_eq!(dice, Dice::Fair);
    let mut faces = [[0u32; 6]; 2];
    for _ in 0..36_000 {
        let d = dice.roll(&mut rng);
        faces[0][d[0] as usize - 1] += 1;
        faces[1][d[1] as usize - 1] += 1;
    }
    for die in faces {
        for n in die {
            assert!((5_700..=6_300).contains(&n), "{die:?}");
        }
    }
}
