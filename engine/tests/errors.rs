//! Refusals common to every rule: the wrong seat, the wrong phase, ids out
//! of range, unknown seats, and a sweep showing that no action in any phase
//! panics or changes the state when refused.

use crate::common::*;
use hexpost_engine::invariants::check_state;
use hexpost_engine::seats::SeatKind;
use hexpost_engine::state::{GameState, Player};
use hexpost_engine::testkit::{Scenario, edge, hex};
use hexpost_engine::{Action, ActionError, DevCard, Resource, ResourceCounts, Seat, Variant};

fn main_with_cards() -> Scenario {
    let mut s = Scenario::standard();
    s.settlement(S0, 0)
        .road(S0, edge(0, 4))
        .settlement(S1, 12)
        .main_phase(S0)
        .give(S0, rc(2, 2, 2, 2, 3))
        .give(S1, rc(1, 1, 1, 1, 1));
    s
}

#[test]
fn the_wrong_seat_is_told_whom_the_game_waits_for() {
    let mut s = main_with_cards();
    s.before_roll(S0);
    assert_eq!(
        s.refused(S1, Action::RollDice),
        ActionError::NotYourDecision {
            awaiting: seats(&[S0])
        }
    );
    s.main_phase(S0);
    for a in [
        Action::EndTurn,
        Action::BuildRoad { edge: edge(8, 13) },
        Action::BuyDevelopmentCard,
        Action::WithdrawTrade,
    ] {
        assert_eq!(
            s.refused(S1, a),
            ActionError::NotYourDecision {
                awaiting: seats(&[S0])
            }
        );
    }
    s.dev_card(S0, DevCard::RoadBuilding, false);
    s.ok(S0, Action::PlayRoadBuilding);
    assert_eq!(
        s.refused(S1, Action::BuildRoad { edge: edge(12, 8) }),
        ActionError::NotYourDecision {
            awaiting: seats(&[S0])
        }
    );
}

#[test]
fn actions_out_of_their_phase_are_wrong_phase() {
    let mut s = main_with_cards();
    s.before_roll(S0);
    assert_eq!(
        s.refused(S0, Action::BuildSettlement { node: 8 }),
        ActionError::WrongPhase {
            action: "build_settlement",
            phase: "before the roll"
        }
    );
    assert_eq!(
        s.refused(S0, Action::AcceptTrade),
        ActionError::WrongPhase {
            action: "accept_trade",
            phase: "before the roll"
        }
    );
    s.main_phase(S0);
    assert_eq!(
        s.refused(
            S0,
            Action::Discard {
                cards: rc(1, 0, 0, 0, 0)
            }
        ),
        ActionError::WrongPhase {
            action: "discard",
            phase: "after the roll"
        }
    );
    assert_eq!(
        s.refused(
            S0,
            Action::MoveRobber {
                hex: hex(0, 2),
                victim: None
            }
        ),
        ActionError::WrongPhase {
            action: "move_robber",
            phase: "after the roll"
        }
    );
}

#[test]
fn ids_out_of_range_are_refused_by_name() {
    let mut setup = Scenario::in_setup(Variant::Standard);
    assert_eq!(
        setup.refused(S0, Action::BuildSettlement { node: 54 }),
        ActionError::InvalidNode { node: 54 }
    );
    setup.ok(S0, Action::BuildSettlement { node: 0 });
    assert_eq!(
        setup.refused(S0, Action::BuildRoad { edge: 72 }),
        ActionError::InvalidEdge { edge: 72 }
    );

    let mut s = main_with_cards();
    assert_eq!(
        s.refused(S0, Action::BuildRoad { edge: 255 }),
        ActionError::InvalidEdge { edge: 255 }
    );
    assert_eq!(
        s.refused(S0, Action::BuildSettlement { node: 200 }),
        ActionError::InvalidNode { node: 200 }
    );
    assert_eq!(
        s.refused(S0, Action::BuildCity { node: 54 }),
        ActionError::InvalidNode { node: 54 }
    );
    s.dev_card(S0, DevCard::Knight, false);
    assert_eq!(
        s.refused(
            S0,
            Action::PlayKnight {
                hex: 255,
                victim: None
            }
        ),
        ActionError::InvalidHex { hex: 255 }
    );
    s.empty_hand(S0).before_roll(S0);
    roll(&mut s, S0, 7);
    assert_eq!(
        s.refused(
            S0,
            Action::MoveRobber {
                hex: 19,
                victim: None
            }
        ),
        ActionError::InvalidHex { hex: 19 }
    );
}

#[test]
fn seats_that_are_not_real_players_are_unknown() {
    let mut s = main_with_cards();
    for seat in [Seat(2), Seat(3), Seat(255)] {
        assert_eq!(
            s.refused(seat, Action::EndTurn),
            ActionError::UnknownSeat { seat }
        );
    }
}

#[test]
fn error_codes_are_stable_snake_case() {
    assert_eq!(
        ActionError::NotYourDecision {
            awaiting: seats(&[S0])
        }
        .code(),
        "not_your_decision"
    );
    assert_eq!(
        ActionError::WrongPhase {
            action: "x",
            phase: "y"
        }
        .code(),
        "wrong_phase"
    );
    assert_eq!(ActionError::InvalidNode { node: 60 }.code(), "invalid_node");
    assert_eq!(
        ActionError::HarborNotOwned {
            resource: Resource::Ore,
            ratio: 2,
            best: 4
        }
        .code(),
        "harbor_not_owned"
    );
    assert_eq!(ActionError::GameOver.code(), "game_over");
}

#[test]
fn a_robber_move_without_victim_reads_as_null() {
    let a: Action = serde_json::from_str(r#"{"type":"move_robber","hex":3}"#).unwrap();
    assert_eq!(
        a,
        Action::MoveRobber {
            hex: 3,
            victim: None
        }
    );
    assert!(serde_json::from_str::<Action>(r#"{"type":"move_robber","hex":3,"x":1}"#).is_err());
    assert!(serde_json::from_str::<Action>(r#"{"type":"build_road","edge":300}"#).is_err());
}

/// Positions in every phase, for the sweep below.
fn positions() -> Vec<(&'static str, GameState)> {
    let mut out = Vec::new();
    let mut setup = Scenario::in_setup(Variant::Standard);
    out.push(("setup start", setup.state.clone()));
    setup.ok(S0, Action::BuildSettlement { node: 0 });
    out.push(("setup road", setup.state.clone()));

    let mut before = main_with_cards();
    before
        .dev_card(S0, DevCard::Knight, false)
        .dev_card(S0, DevCard::RoadBuilding, false)
        .dev_card(S0, DevCard::YearOfPlenty, false)
        .dev_card(S0, DevCard::Monopoly, false)
        .dev_card(S0, DevCard::VictoryPoint, false)
        .dev_card(S1, DevCard::Knight, false)
        .before_roll(S0);
    out.push(("before roll", before.state.clone()));

    let mut main = before.clone();
    main.main_phase(S0);
    out.push(("main", main.state.clone()));
    main.ok(
        S0,
        Action::OfferTrade {
            give: rc(1, 0, 0, 0, 0),
            receive: rc(0, 0, 0, 0, 1),
        },
    );
    out.push(("main with offer", main.state.clone()));

    let mut rb = before.clone();
    rb.main_phase(S0);
    rb.ok(S0, Action::PlayRoadBuilding);
    out.push(("road building", rb.state.clone()));

    let mut seven = before.clone();
    seven.give(S1, rc(4, 4, 0, 0, 0));
    roll(&mut seven, S0, 7);
    out.push(("discard", seven.state.clone()));
    seven.ok(
        S0,
        Action::Discard {
            cards: rc(2, 2, 1, 0, 0),
        },
    );
    seven.ok(
        S1,
        Action::Discard {
            cards: rc(4, 2, 0, 0, 0),
        },
    );
    out.push(("move robber", seven.state.clone()));

    let mut duel = Scenario::after_setup(Variant::Duel);
    duel.settlement(S1, 12).give(S1, rc(1, 0, 0, 0, 0));
    roll(&mut duel, S0, 7);
    out.push(("duel robber", duel.state.clone()));

    let mut three = main_with_cards();
    three
        .state
        .players
        .push(Player::new(Seat(2), SeatKind::Neutral));
    three.road_path(Seat(2), &[47, 51, 48]);
    out.push(("neutral seat", three.state.clone()));

    let mut ended = main_with_cards();
    for n in [16, 20, 45, 50] {
        ended.city(S0, n);
    }
    ended.settlement(S0, 2);
    ended.ok(S0, Action::BuildRoad { edge: edge(4, 8) });
    out.push(("ended", ended.state.clone()));
    assert!(ended.state.is_over());
    out
}

fn adversarial_actions() -> Vec<Action> {
    let mut v = vec![
        Action::RollDice,
        Action::EndTurn,
        Action::BuyDevelopmentCard,
        Action::PlayRoadBuilding,
        Action::AcceptTrade,
        Action::DeclineTrade,
        Action::WithdrawTrade,
    ];
    let victims = [
        None,
        Some(Seat(0)),
        Some(Seat(1)),
        Some(Seat(2)),
        Some(Seat(255)),
    ];
    for id in 0..=255u8 {
        v.push(Action::BuildRoad { edge: id });
        v.push(Action::BuildSettlement { node: id });
        v.push(Action::BuildCity { node: id });
        if id < 24 || id == 255 {
            for victim in victims {
                v.push(Action::MoveRobber { hex: id, victim });
                v.push(Action::PlayKnight { hex: id, victim });
            }
        }
    }
    for give in Resource::ALL {
        v.push(Action::PlayMonopoly { resource: give });
        for receive in Resource::ALL {
            for ratio in [None, Some(0), Some(1), Some(2), Some(3), Some(4), Some(255)] {
                v.push(Action::MaritimeTrade {
                    give,
                    receive,
                    ratio,
                });
            }
            v.push(Action::PlayYearOfPlenty {
                resources: vec![give, receive],
            });
        }
    }
    for resources in [vec![], vec![Resource::Ore], vec![Resource::Ore; 3]] {
        v.push(Action::PlayYearOfPlenty { resources });
    }
    let hands = [
        ResourceCounts::ZERO,
        rc(1, 0, 0, 0, 0),
        rc(0, 0, 0, 0, 1),
        rc(2, 2, 1, 0, 0),
        rc(4, 2, 0, 0, 0),
        rc(255, 255, 255, 255, 255),
        rc(1, 1, 1, 1, 1),
    ];
    for a in hands {
        v.push(Action::Discard { cards: a });
        for b in hands {
            v.push(Action::OfferTrade {
                give: a,
                receive: b,
            });
        }
    }
    v
}

#[test]
fn no_action_in_any_phase_panics_and_refusals_change_nothing() {
    let actions = adversarial_actions();
    let mut accepted = 0;
    let mut refused = 0;
    for (name, state) in positions() {
        for seat in [Seat(0), Seat(1), Seat(2), Seat(255)] {
            for a in &actions {
                let mut s = state.clone();
                match s.apply(seat, a) {
                    Ok(_) => {
                        accepted += 1;
                        if s.players.len() == 2
                            && let Err(e) = check_state(&s)
                        {
                            panic!("{name}: {a:?} by {seat} broke the state: {e}");
                        }
                    }
                    Err(e) => {
                        refused += 1;
                        assert!(
                            s == state,
                            "{name}: refused {a:?} by {seat} ({e}) changed the state"
                        );
                        assert!(!e.code().is_empty() && !e.to_string().is_empty());
                    }
                }
            }
        }
    }
    println!("accepted {accepted}, refused {refused}");
    assert!(accepted > 100 && refused > 10_000, "{accepted} {refused}");
}
