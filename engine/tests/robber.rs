//! RULES.md §1 Seven: discards above the limit, then the roller moves the
//! robber and steals.
//!
//! Positions: seat 0 has a settlement on node 0, seat 1 on node 12; both
//! touch the mountains (hex (0,-2)). The robber starts on the desert.

use crate::common::*;
use hexpost_engine::Phase;
use hexpost_engine::Redact;
use hexpost_engine::actions::{LegalAction, RobberTarget};
use hexpost_engine::seats::SeatKind;
use hexpost_engine::state::Player;
use hexpost_engine::testkit::{Scenario, hex};
use hexpost_engine::{Action, ActionError, Event, Resource, ResourceCounts, Seat};

fn board() -> Scenario {
    let mut s = Scenario::standard();
    s.settlement(S0, 0).settlement(S1, 12);
    s
}

fn mountains() -> u8 {
    hex(0, -2)
}

fn discard(cards: ResourceCounts) -> Action {
    Action::Discard { cards }
}

fn move_to(hex: u8, victim: Option<Seat>) -> Action {
    Action::MoveRobber { hex, victim }
}

#[test]
fn both_players_over_the_limit_discard_at_the_same_time() {
    let mut s = board();
    s.give(S0, rc(3, 2, 2, 1, 1)); // 9 cards: owes 4
    s.give(S1, rc(2, 2, 2, 2, 3)); // 11 cards: owes 5 (half, rounded down)
    let ev = roll(&mut s, S0, 7);
    assert_eq!(
        ev,
        vec![Event::DiscardsRequired {
            owed: vec![(S0, 4), (S1, 5)]
        }]
    );
    assert_eq!(
        *s.state.phase(),
        Phase::Discard {
            owed: vec![(S0, 4), (S1, 5)]
        }
    );
    assert_eq!(&*s.state.awaiting(), &[S0, S1]);

    // Seat 1 answers first. Wrong count, then cards not held, are refused.
    assert_eq!(
        s.refused(S1, discard(rc(1, 1, 1, 1, 0))),
        ActionError::WrongDiscardCount {
            expected: 5,
            got: 4
        }
    );
    assert_eq!(
        s.refused(S1, discard(rc(1, 1, 1, 1, 2))),
        ActionError::WrongDiscardCount {
            expected: 5,
            got: 6
        }
    );
    assert_eq!(
        s.refused(S1, discard(rc(0, 0, 0, 0, 5))),
        ActionError::CardsNotHeld
    );
    assert_eq!(
        s.ok(S1, discard(rc(2, 0, 0, 0, 3))),
        vec![Event::Discarded {
            seat: S1,
            cards: rc(2, 0, 0, 0, 3)
        }]
    );
    assert_eq!(
        *s.state.phase(),
        Phase::Discard {
            owed: vec![(S0, 4)]
        }
    );
    assert_eq!(&*s.state.awaiting(), &[S0]);
    assert_eq!(
        s.refused(S1, discard(rc(0, 1, 0, 0, 0))),
        ActionError::NotYourDecision {
            awaiting: seats(&[S0])
        }
    );
    // The robber waits for the last discard.
    assert_eq!(
        s.refused(S0, move_to(mountains(), Some(S1))),
        ActionError::WrongPhase {
            action: "move_robber",
            phase: "waiting for discards"
        }
    );
    assert_eq!(
        s.ok(S0, discard(rc(3, 1, 0, 0, 0))),
        vec![Event::Discarded {
            seat: S0,
            cards: rc(3, 1, 0, 0, 0)
        }]
    );
    assert_eq!(*s.state.phase(), Phase::MoveRobber { seat: S0 });
    assert_eq!(&*s.state.awaiting(), &[S0]);
    assert_eq!(s.hand(S0), rc(0, 1, 2, 1, 1));
    assert_eq!(s.hand(S1), rc(0, 2, 2, 2, 0));
    assert_eq!(s.state.bank, bank_minus(rc(0, 3, 4, 3, 1)));
    consistent(&s);
}

#[test]
fn discards_may_come_in_either_order() {
    for first in [S0, S1] {
        let mut s = board();
        s.give(S0, rc(8, 0, 0, 0, 0)); // owes 4
        s.give(S1, rc(0, 0, 0, 0, 8)); // owes 4
        roll(&mut s, S0, 7);
        let cards = |seat: Seat| {
            if seat == S0 {
                rc(4, 0, 0, 0, 0)
            } else {
                rc(0, 0, 0, 0, 4)
            }
        };
        s.ok(first, discard(cards(first)));
        let second = first.opponent();
        assert_eq!(&*s.state.awaiting(), &[second]);
        s.ok(second, discard(cards(second)));
        assert_eq!(*s.state.phase(), Phase::MoveRobber { seat: S0 });
        assert_eq!(s.hand(S0), rc(4, 0, 0, 0, 0));
        assert_eq!(s.hand(S1), rc(0, 0, 0, 0, 4));
    }
}

#[test]
fn a_player_at_exactly_the_limit_does_not_discard() {
    let mut s = board();
    s.give(S0, rc(2, 2, 1, 1, 1)); // 7: at the limit
    s.give(S1, rc(2, 2, 2, 1, 1)); // 8: owes 4
    let ev = roll(&mut s, S0, 7);
    assert_eq!(
        ev,
        vec![Event::DiscardsRequired {
            owed: vec![(S1, 4)]
        }]
    );
    assert_eq!(&*s.state.awaiting(), &[S1]);
    assert_eq!(
        s.refused(S0, discard(rc(1, 1, 1, 1, 0))),
        ActionError::NotYourDecision {
            awaiting: seats(&[S1])
        }
    );
    assert_eq!(
        s.refused(S0, move_to(mountains(), Some(S1))),
        ActionError::NotYourDecision {
            awaiting: seats(&[S1])
        }
    );
    s.ok(S1, discard(rc(2, 2, 0, 0, 0)));
    assert_eq!(*s.state.phase(), Phase::MoveRobber { seat: S0 });
    assert_eq!(s.hand(S0), rc(2, 2, 1, 1, 1));
}

#[test]
fn a_seven_with_nobody_over_the_limit_goes_straight_to_the_robber_and_produces_nothing() {
    let mut s = board();
    s.give(S0, rc(1, 0, 0, 0, 0));
    let ev = roll(&mut s, S0, 7);
    assert_eq!(ev, vec![]);
    assert_eq!(
        s.state.phases,
        vec![Phase::Main, Phase::MoveRobber { seat: S0 }]
    );
    assert_eq!(&*s.state.awaiting(), &[S0]);
    // Nothing else until the robber moves.
    assert_eq!(
        s.refused(S0, Action::EndTurn),
        ActionError::WrongPhase {
            action: "end_turn",
            phase: "waiting for the robber to move"
        }
    );
    assert_eq!(
        s.refused(S1, move_to(hex(0, 2), None)),
        ActionError::NotYourDecision {
            awaiting: seats(&[S0])
        }
    );
    // The legal targets are every hex but the robber's own.
    let legal = s.state.legal_actions(S0);
    let [LegalAction::MoveRobber { targets }] = legal.as_slice() else {
        panic!("{legal:?}")
    };
    assert_eq!(targets.len(), 18);
    assert!(targets.iter().all(|t| t.hex != hex(0, 0)));
    assert!(targets.contains(&RobberTarget {
        hex: mountains(),
        victims: seats(&[])
    }));
}

#[test]
fn the_robber_must_move_to_a_different_hex() {
    let mut s = board();
    roll(&mut s, S0, 7);
    assert_eq!(
        s.refused(S0, move_to(hex(0, 0), None)),
        ActionError::RobberMustMove
    );
    s.robber(mountains());
    s.give(S1, rc(0, 0, 1, 0, 0));
    assert_eq!(
        s.refused(S0, move_to(mountains(), Some(S1))),
        ActionError::RobberMustMove
    );
    assert_eq!(
        s.refused(S0, move_to(19, None)),
        ActionError::InvalidHex { hex: 19 }
    );
    s.ok(S0, move_to(hex(0, 0), None));
    assert_eq!(s.state.robber, hex(0, 0));
}

#[test]
fn the_roller_steals_one_card_from_the_victim() {
    let mut s = board();
    s.give(S1, rc(0, 0, 3, 0, 0));
    roll(&mut s, S0, 7);
    let ev = s.ok(S0, move_to(mountains(), Some(S1)));
    assert_eq!(
        ev,
        vec![
            Event::RobberMoved {
                seat: S0,
                hex: mountains()
            },
            Event::Stole {
                thief: S0,
                victim: S1,
                resource: Some(Resource::Wool)
            },
        ]
    );
    assert_eq!(s.hand(S0), rc(0, 0, 1, 0, 0));
    assert_eq!(s.hand(S1), rc(0, 0, 2, 0, 0));
    assert_eq!(s.state.bank, bank_minus(rc(0, 0, 3, 0, 0)));
    assert_eq!(s.state.robber, mountains());
    assert_eq!(*s.state.phase(), Phase::Main);
    // Only thief and victim see which card.
    let stole = &ev[1];
    assert!(stole.is_visible_to(Some(S0)) && stole.is_visible_to(Some(S1)));
    assert_eq!(
        stole.redacted_for(None),
        Event::Stole {
            thief: S0,
            victim: S1,
            resource: None
        }
    );
    // The turn goes on.
    s.ok(S0, Action::EndTurn);
    assert_eq!(s.state.active, S1);
    consistent(&s);
}

#[test]
fn stolen_card_is_drawn_at_random_from_the_victims_hand() {
    let mut seen = [0u32; 5];
    for seed in 0..200u64 {
        let mut s = board();
        s.give(S1, rc(1, 1, 1, 1, 1));
        roll(&mut s, S0, 7);
        s.state.rng = hexpost_engine::rng::GameRng::from_seed(seed);
        let ev = s.ok(S0, move_to(mountains(), Some(S1)));
        let Event::Stole {
            resource: Some(r), ..
        } = ev[1]
        else {
            panic!("{ev:?}")
        };
        seen[r.index()] += 1;
        let mut left = rc(1, 1, 1, 1, 1);
        left[r] -= 1;
        assert_eq!(s.hand(S1), left);
        assert_eq!(s.hand(S0), ResourceCounts::single(r, 1));
    }
    assert!(seen.iter().all(|&n| n >= 20), "{seen:?}");
}

#[test]
fn a_victim_without_cards_cannot_be_named_and_the_victim_is_null() {
    let mut s = board();
    s.give(S0, rc(1, 0, 0, 0, 0));
    roll(&mut s, S0, 7);
    assert_eq!(
        s.refused(S0, move_to(mountains(), Some(S1))),
        ActionError::InvalidVictim {
            victim: Some(S1),
            reason: "they hold no cards"
        }
    );
    assert_eq!(
        s.ok(S0, move_to(mountains(), None)),
        vec![Event::RobberMoved {
            seat: S0,
            hex: mountains()
        }]
    );
    assert_eq!(s.hand(S0), rc(1, 0, 0, 0, 0));
    assert_eq!(*s.state.phase(), Phase::Main);
}

#[test]
fn a_victim_is_required_when_someone_on_the_hex_holds_cards() {
    let mut s = board();
    s.give(S1, rc(0, 0, 0, 1, 0));
    roll(&mut s, S0, 7);
    assert_eq!(
        s.refused(S0, move_to(mountains(), None)),
        ActionError::VictimRequired {
            candidates: seats(&[S1])
        }
    );
    s.ok(S0, move_to(mountains(), Some(S1)));
    assert_eq!(s.hand(S0), rc(0, 0, 0, 1, 0));
    assert_eq!(s.hand(S1), rc(0, 0, 0, 0, 0));
}

#[test]
fn robbing_yourself_is_refused() {
    let mut s = board();
    s.give(S0, rc(2, 0, 0, 0, 0));
    s.give(S1, rc(0, 1, 0, 0, 0));
    roll(&mut s, S0, 7);
    assert_eq!(
        s.refused(S0, move_to(mountains(), Some(S0))),
        ActionError::InvalidVictim {
            victim: Some(S0),
            reason: "you cannot rob yourself"
        }
    );
    // On a hex where only the mover has a building, there is nobody to rob.
    s.settlement(S0, 20); // hills (2,-1) and mountains (2,0)
    assert_eq!(
        s.refused(S0, move_to(hex(2, -1), Some(S0))),
        ActionError::InvalidVictim {
            victim: Some(S0),
            reason: "you cannot rob yourself"
        }
    );
    assert_eq!(
        s.ok(S0, move_to(hex(2, -1), None)),
        vec![Event::RobberMoved {
            seat: S0,
            hex: hex(2, -1)
        }]
    );
    assert_eq!(s.hand(S0), rc(2, 0, 0, 0, 0));
}

#[test]
fn the_victim_must_have_a_building_on_the_hex() {
    let mut s = board();
    s.give(S1, rc(0, 1, 0, 0, 0));
    roll(&mut s, S0, 7);
    assert_eq!(
        s.refused(S0, move_to(hex(0, 2), Some(S1))),
        ActionError::InvalidVictim {
            victim: Some(S1),
            reason: "they have no building on that hex"
        }
    );
    assert_eq!(
        s.refused(S0, move_to(hex(0, 2), Some(Seat(3)))),
        ActionError::InvalidVictim {
            victim: Some(Seat(3)),
            reason: "no such seat"
        }
    );
    s.ok(S0, move_to(hex(0, 2), None));
}

#[test]
fn a_city_owner_is_robbed_of_one_card_only() {
    let mut s = Scenario::standard();
    s.settlement(S0, 0).city(S1, 12);
    s.give(S1, rc(0, 0, 0, 0, 4));
    roll(&mut s, S0, 7);
    s.ok(S0, move_to(mountains(), Some(S1)));
    assert_eq!(s.hand(S0), rc(0, 0, 0, 0, 1));
    assert_eq!(s.hand(S1), rc(0, 0, 0, 0, 3));
}

/// RULES.md §1 Seven: "a player (or an automated seat that holds cards)".
/// Standard games have no automated seat, so one is added to the state as
/// the variants with neutral colours do.
#[test]
fn an_automated_seat_with_cards_can_be_robbed() {
    let mut s = Scenario::standard();
    let neutral = Seat(2);
    s.state
        .players
        .push(Player::new(neutral, SeatKind::Neutral));
    s.settlement(neutral, 12).settlement(S1, 0);
    roll(&mut s, S0, 7);
    // Neither holds cards yet: nobody to rob.
    let victims_on_mountains = |s: &Scenario| match s.state.legal_actions(S0).as_slice() {
        [LegalAction::MoveRobber { targets }] => {
            targets
                .iter()
                .find(|t| t.hex == mountains())
                .unwrap()
                .victims
        }
        other => panic!("{other:?}"),
    };
    assert_eq!(victims_on_mountains(&s), seats(&[]));
    s.give(neutral, rc(0, 0, 0, 2, 0))
        .give(S1, rc(1, 0, 0, 0, 0));
    assert_eq!(victims_on_mountains(&s), seats(&[S1, neutral]));
    assert_eq!(
        s.refused(S0, move_to(mountains(), None)),
        ActionError::VictimRequired {
            candidates: seats(&[S1, neutral])
        }
    );
    assert_eq!(
        s.ok(S0, move_to(mountains(), Some(neutral)))[1],
        Event::Stole {
            thief: S0,
            victim: neutral,
            resource: Some(Resource::Grain)
        }
    );
    assert_eq!(s.hand(S0), rc(0, 0, 0, 1, 0));
    assert_eq!(s.state.player(neutral).hand, rc(0, 0, 0, 1, 0));
}
