//! neutral_trader (RULES.md §4): one scenario per rule, exact outcomes.

use hexpost_engine::Redact;
use hexpost_engine::actions::LegalAction;
use hexpost_engine::board::{ResourceSet, topology};
use hexpost_engine::events::{ChartOutcome, RollOffPurpose};
use hexpost_engine::phases::Piece;
use hexpost_engine::rulesets::Step;
use hexpost_engine::rulesets::neutral_trader::{chart, conversion_due, neutral_discard};
use hexpost_engine::seats::SeatKind;
use hexpost_engine::testkit::{Scenario, edge};
use hexpost_engine::{Action, ActionError, Event, Phase, Resource, ResourceCounts, Seat, Variant};

const N: Seat = Seat(2);

/// The neutral with a settlement on node 12 (mountains 10, fields 12,
/// hills 6); seat 0 to roll on turn 1.
fn game() -> Scenario {
    let mut s = Scenario::after_setup(Variant::NeutralTrader);
    s.settlement(N, 12);
    s
}

fn step(s: &Scenario) -> Option<Step> {
    match s.state.phase() {
        Phase::Variant(step) => Some(step.clone()),
        _ => None,
    }
}

/// Seat 1's roads close every edge at node 12, so the neutral cannot build.
fn block_neutral(s: &mut Scenario) {
    for e in topology().nodes[12].edges.clone() {
        s.road(Seat(1), e);
    }
}

fn chart_total(ev: &[Event]) -> Option<u8> {
    ev.iter().find_map(|e| match e {
        Event::ChartRolled { total, .. } => Some(*total),
        _ => None,
    })
}

/// Rigs the generator so that seat 0's chart roll totals `total`.
fn rig_chart(s: &mut Scenario, total: u8) {
    s.rig(|c| chart_total(&c.ok(Seat(0), Action::AskNeutralTrade)) == Some(total));
}

#[test]
fn set_up_snake_then_neutral_placements_then_its_road() {
    let mut s = Scenario::in_setup(Variant::NeutralTrader);
    assert_eq!(s.state.players[2].kind, SeatKind::Neutral);
    let owners: Vec<(u8, u8, Piece, bool)> = s
        .state
        .setup
        .steps
        .iter()
        .map(|st| (st.seat.0, st.owner.0, st.piece, st.yields))
        .collect();
    assert_eq!(owners.len(), 12);
    assert_eq!(
        owners[8..],
        [
            (0, 2, Piece::Settlement, false),
            (0, 2, Piece::Road, false),
            (1, 2, Piece::Settlement, true),
            (1, 2, Piece::Road, false),
        ]
    );
    for (seat, node, (a, b)) in [
        (0, 37, (37, 32)),
        (1, 22, (22, 16)),
        (1, 0, (0, 3)),
        (0, 44, (44, 48)),
        (0, 12, (12, 8)),
    ] {
        s.ok(Seat(seat), Action::BuildSettlement { node });
        s.ok(Seat(seat), Action::BuildRoad { edge: edge(a, b) });
    }
    assert_eq!(s.state.building_at(12).unwrap().owner, N);
    assert_eq!(
        s.hand(N),
        ResourceCounts::ZERO,
        "the first neutral settlement yields nothing"
    );
    // Seat 1's neutral settlement on node 19 (pasture 4, hills 10, forest
    // 3) yields a brick and a lumber: once set-up is over the neutral's road
    // is due, and the roll-off may hand the decision to seat 1 although it
    // is seat 0's turn.
    s.ok(Seat(1), Action::BuildSettlement { node: 19 });
    assert_eq!(s.hand(N), ResourceCounts::new(1, 1, 1, 0, 0));
    let last = Action::BuildRoad { edge: edge(19, 14) };
    s.rig(|c| {
        c.ok(Seat(1), last.clone()).iter().any(|e| {
            matches!(
                e,
                Event::RollOff {
                    winner: Seat(1),
                    ..
                }
            )
        })
    });
    let ev = s.ok(Seat(1), last);
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::RollOff {
            purpose: RollOffPurpose::NeutralRoad,
            winner: Seat(1),
            ..
        }
    )));
    assert_eq!(s.state.active, Seat(0));
    assert_eq!(s.state.turn, 1);
    assert_eq!(
        step(&s),
        Some(Step::NeutralRoad {
            seat: Seat(1),
            neutral: N
        })
    );
    assert_eq!(s.state.awaiting().to_vec(), vec![Seat(1)]);
    assert!(matches!(
        s.refused(Seat(0), Action::RollDice),
        ActionError::NotYourDecision { .. }
    ));
    let legal = s.state.legal_actions(Seat(1));
    let LegalAction::BuildNeutralRoad { neutral, edges } = &legal[0] else {
        panic!("{legal:?}")
    };
    assert_eq!(*neutral, N);
    // Edges continuing the neutral's two networks (at 12-8 and 19-14).
    assert!(edges.contains(edge(8, 4)) && edges.contains(edge(14, 9)));
    assert!(!edges.contains(edge(37, 31)));
    assert_eq!(
        s.refused(
            Seat(1),
            Action::BuildNeutralRoad {
                neutral: N,
                edge: edge(37, 31)
            }
        ),
        ActionError::NotConnected
    );
    let bank_brick = s.state.bank[Resource::Brick];
    let ev = s.ok(
        Seat(1),
        Action::BuildNeutralRoad {
            neutral: N,
            edge: edge(14, 9),
        },
    );
    assert!(ev.contains(&Event::RoadBuilt {
        seat: N,
        edge: edge(14, 9),
        free: false
    }));
    assert_eq!(s.hand(N), ResourceCounts::new(0, 0, 1, 0, 0));
    assert_eq!(s.state.bank[Resource::Brick], bank_brick + 1);
    assert_eq!(s.state.phase(), &Phase::BeforeRoll);
    assert_eq!(s.state.awaiting().to_vec(), vec![Seat(0)]);
    s.check();
}

#[test]
fn the_neutral_collects_production() {
    let mut s = game();
    s.rig_next_roll(6);
    s.ok(Seat(0), Action::RollDice);
    assert_eq!(s.hand(N), ResourceCounts::new(1, 0, 0, 0, 0));
    s.check();
}

#[test]
fn on_a_seven_the_neutral_discards_surplus_first() {
    let mut s = game();
    s.give(N, ResourceCounts::new(5, 0, 3, 3, 3))
        .rig_next_roll(7);
    let ev = s.ok(Seat(0), Action::RollDice);
    assert!(ev.contains(&Event::Discarded {
        seat: N,
        cards: ResourceCounts::new(0, 0, 3, 2, 2)
    }));
    assert_eq!(s.hand(N), ResourceCounts::new(5, 0, 0, 1, 1));
    // Nobody else owed: straight on to the robber.
    assert_eq!(s.state.phase(), &Phase::MoveRobber { seat: Seat(0) });
    s.check();
}

#[test]
fn when_it_must_give_up_brick_or_lumber_it_evens_the_two_piles() {
    let mut s = game();
    block_neutral(&mut s);
    s.give(N, ResourceCounts::new(5, 2, 1, 0, 0))
        .give(Seat(1), ResourceCounts::new(0, 0, 4, 4, 0))
        .rig_next_roll(7);
    s.ok(Seat(0), Action::RollDice);
    assert_eq!(s.hand(N), ResourceCounts::new(2, 2, 0, 0, 0));
    // Seat 1 still owes its own discard.
    assert_eq!(s.state.awaiting().to_vec(), vec![Seat(1)]);
    assert_eq!(
        neutral_discard(ResourceCounts::new(2, 2, 0, 0, 0), 1),
        ResourceCounts::new(0, 1, 0, 0, 0),
        "a tie gives up lumber"
    );
    assert_eq!(
        neutral_discard(ResourceCounts::new(1, 1, 2, 3, 3), 5),
        ResourceCounts::new(0, 0, 1, 2, 2)
    );
    // Seven cards is within the limit: no discard.
    let mut s = game();
    block_neutral(&mut s);
    s.give(N, ResourceCounts::new(3, 1, 1, 1, 1))
        .rig_next_roll(7);
    let ev = s.ok(Seat(0), Action::RollDice);
    assert!(
        !ev.iter()
            .any(|e| matches!(e, Event::DiscardsRequired { .. }))
    );
    s.check();
}

#[test]
fn the_neutral_can_be_robbed_and_the_card_is_public() {
    let mut s = game();
    s.give(N, ResourceCounts::new(0, 0, 0, 2, 0))
        .rig_next_roll(7);
    s.ok(Seat(0), Action::RollDice);
    let legal = s.state.legal_actions(Seat(0));
    let LegalAction::MoveRobber { targets } = &legal[0] else {
        panic!()
    };
    let t = targets.iter().find(|t| t.hex == 0).unwrap();
    assert_eq!(t.victims.to_vec(), vec![N]);
    let ev = s.ok(
        Seat(0),
        Action::MoveRobber {
            hex: 0,
            victim: Some(N),
        },
    );
    let stole = Event::Stole {
        thief: Seat(0),
        victim: N,
        resource: Some(Resource::Grain),
    };
    assert!(ev.contains(&stole));
    assert_eq!(stole.redacted_for(Some(Seat(1))), stole);
    assert_eq!(s.hand(Seat(0)), ResourceCounts::new(0, 0, 0, 1, 0));
    assert_eq!(s.hand(N), ResourceCounts::new(0, 0, 0, 1, 0));
    s.check();
}

#[test]
fn four_of_a_surplus_resource_convert_at_once_to_the_scarcer_of_brick_and_lumber() {
    // Ore 3 + 1 from the 10: four ore become one brick (tie: brick).
    let mut s = game();
    s.give(N, ResourceCounts::new(0, 0, 0, 3, 3))
        .rig_next_roll(10);
    let ev = s.ok(Seat(0), Action::RollDice);
    assert!(ev.contains(&Event::NeutralConverted {
        seat: N,
        gave: ResourceCounts::new(0, 0, 0, 0, 4),
        received: Resource::Brick
    }));
    assert_eq!(s.hand(N), ResourceCounts::new(1, 0, 0, 3, 0));
    s.check();

    // More brick than lumber: lumber; and with a brick and a lumber in hand
    // the road roll-off follows in the same move.
    let mut s = game();
    s.give(N, ResourceCounts::new(1, 0, 0, 0, 3))
        .rig_next_roll(10);
    let ev = s.ok(Seat(0), Action::RollDice);
    let conv = ev
        .iter()
        .position(|e| {
            *e == Event::NeutralConverted {
                seat: N,
                gave: ResourceCounts::new(0, 0, 0, 0, 4),
                received: Resource::Lumber,
            }
        })
        .unwrap();
    let roll_off = ev
        .iter()
        .position(|e| matches!(e, Event::RollOff { .. }))
        .unwrap();
    assert!(conv < roll_off);
    assert!(matches!(step(&s), Some(Step::NeutralRoad { .. })));
    s.check();
}

#[test]
fn conversion_takes_the_other_resource_when_the_bank_is_out() {
    let mut s = game();
    s.give(Seat(1), ResourceCounts::new(19, 0, 0, 0, 0))
        .give(N, ResourceCounts::new(0, 0, 0, 0, 3))
        .rig_next_roll(10);
    s.ok(Seat(0), Action::RollDice);
    assert_eq!(s.hand(N), ResourceCounts::new(0, 1, 0, 0, 0));
    s.check();
    let bank_empty_of_both = ResourceCounts::new(0, 0, 5, 5, 5);
    assert_eq!(
        conversion_due(&ResourceCounts::new(0, 0, 4, 0, 0), &bank_empty_of_both),
        None
    );
    assert_eq!(
        conversion_due(
            &ResourceCounts::new(2, 1, 0, 4, 0),
            &ResourceCounts::new(1, 1, 0, 0, 0)
        ),
        Some((Resource::Grain, Resource::Lumber))
    );
}

#[test]
fn a_neutral_road_with_no_legal_edge_keeps_its_cards() {
    let mut s = game();
    block_neutral(&mut s);
    s.main_phase(Seat(0))
        .give(N, ResourceCounts::new(1, 1, 0, 0, 0));
    let ev = s.ok(Seat(0), Action::EndTurn);
    assert!(!ev.iter().any(|e| matches!(e, Event::RollOff { .. })));
    assert_eq!(s.hand(N), ResourceCounts::new(1, 1, 0, 0, 0));
    assert_eq!(s.state.phase(), &Phase::BeforeRoll);
    s.check();
}

#[test]
fn the_roll_off_winner_places_the_road_even_on_the_opponents_turn() {
    let mut s = game();
    // The neutral comes to hold a brick and a lumber; the roll-off runs
    // after seat 0's next move, here the end of its turn.
    s.main_phase(Seat(0))
        .give(N, ResourceCounts::new(1, 1, 0, 0, 0));
    s.rig(|c| {
        c.ok(Seat(0), Action::EndTurn).iter().any(|e| {
            matches!(
                e,
                Event::RollOff {
                    winner: Seat(0),
                    ..
                }
            )
        })
    });
    let ev = s.ok(Seat(0), Action::EndTurn);
    assert!(ev.contains(&Event::TurnStarted {
        seat: Seat(1),
        turn: 2
    }));
    assert_eq!(
        step(&s),
        Some(Step::NeutralRoad {
            seat: Seat(0),
            neutral: N
        })
    );
    assert_eq!(s.state.active, Seat(1));
    assert!(matches!(
        s.refused(Seat(1), Action::RollDice),
        ActionError::NotYourDecision { .. }
    ));
    s.ok(
        Seat(0),
        Action::BuildNeutralRoad {
            neutral: N,
            edge: edge(12, 8),
        },
    );
    assert_eq!(s.state.phase(), &Phase::BeforeRoll);
    assert_eq!(s.state.awaiting().to_vec(), vec![Seat(1)]);
    assert_eq!(s.hand(N), ResourceCounts::ZERO);
    s.check();
}

#[test]
fn neutral_roads_can_take_longest_road() {
    let mut s = game();
    s.road_path(N, &[12, 7, 3, 0, 4]).main_phase(Seat(0));
    s.give(N, ResourceCounts::new(1, 1, 0, 0, 0));
    s.rig(|c| {
        c.ok(Seat(0), Action::EndTurn).iter().any(|e| {
            matches!(
                e,
                Event::RollOff {
                    winner: Seat(1),
                    ..
                }
            )
        })
    });
    s.ok(Seat(0), Action::EndTurn);
    let ev = s.ok(
        Seat(1),
        Action::BuildNeutralRoad {
            neutral: N,
            edge: edge(4, 8),
        },
    );
    assert!(ev.contains(&Event::LongestRoadChanged {
        from: None,
        to: Some(N),
        length: 5
    }));
    assert_eq!(s.state.longest_road, Some(N));
    s.check();
}

#[test]
fn chart_trade_once_per_turn_after_the_roll_accepted_exactly() {
    let mut s = game();
    s.give(N, ResourceCounts::new(2, 0, 0, 0, 0))
        .give(Seat(0), ResourceCounts::new(0, 0, 1, 1, 0));
    block_neutral(&mut s);
    assert!(matches!(
        s.refused(Seat(0), Action::AskNeutralTrade),
        ActionError::WrongPhase { .. }
    ));
    s.main_phase(Seat(0));
    assert!(
        s.state
            .legal_actions(Seat(0))
            .contains(&LegalAction::AskNeutralTrade)
    );
    rig_chart(&mut s, 5);
    let ev = s.ok(Seat(0), Action::AskNeutralTrade);
    let brick = ResourceSet(1 << Resource::Brick.index());
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::ChartRolled {
            total: 5,
            outcome: ChartOutcome::Offer { give: 1, receive },
            ..
        } if *receive == brick
    )));
    assert_eq!(
        step(&s),
        Some(Step::ChartOffer {
            seat: Seat(0),
            give: 1,
            receive: brick
        })
    );
    assert_eq!(
        s.state.legal_actions(Seat(0)),
        vec![
            LegalAction::AcceptNeutralTrade {
                give: 1,
                receive: brick
            },
            LegalAction::DeclineNeutralTrade
        ]
    );
    assert_eq!(
        s.refused(
            Seat(0),
            Action::AcceptNeutralTrade {
                give: ResourceCounts::new(0, 0, 1, 0, 0),
                receive: Resource::Ore
            }
        ),
        ActionError::NotOffered {
            resource: Resource::Ore
        }
    );
    assert!(matches!(
        s.refused(
            Seat(0),
            Action::AcceptNeutralTrade {
                give: ResourceCounts::new(0, 0, 1, 1, 0),
                receive: Resource::Brick
            }
        ),
        ActionError::InvalidTrade { .. }
    ));
    assert!(matches!(
        s.refused(Seat(0), Action::EndTurn),
        ActionError::WrongPhase { .. }
    ));
    let ev = s.ok(
        Seat(0),
        Action::AcceptNeutralTrade {
            give: ResourceCounts::new(0, 0, 1, 0, 0),
            receive: Resource::Brick,
        },
    );
    assert!(ev.contains(&Event::NeutralTraded {
        seat: Seat(0),
        neutral: N,
        gave: ResourceCounts::new(0, 0, 1, 0, 0),
        received: Resource::Brick
    }));
    assert_eq!(s.hand(Seat(0)), ResourceCounts::new(1, 0, 0, 1, 0));
    assert_eq!(s.hand(N), ResourceCounts::new(1, 0, 1, 0, 0));
    assert_eq!(s.state.phase(), &Phase::Main);
    assert_eq!(
        s.refused(Seat(0), Action::AskNeutralTrade),
        ActionError::NeutralTradeUsed
    );
    assert!(
        !s.state
            .legal_actions(Seat(0))
            .contains(&LegalAction::AskNeutralTrade)
    );
    s.check();
}

#[test]
fn chart_trade_can_be_declined() {
    let mut s = game();
    s.give(N, ResourceCounts::new(0, 0, 0, 0, 1))
        .give(Seat(0), ResourceCounts::new(0, 0, 1, 0, 0))
        .main_phase(Seat(0));
    rig_chart(&mut s, 11);
    s.ok(Seat(0), Action::AskNeutralTrade);
    let ev = s.ok(Seat(0), Action::DeclineNeutralTrade);
    assert_eq!(ev, vec![Event::NeutralTradeDeclined { seat: Seat(0) }]);
    assert_eq!(s.hand(Seat(0)), ResourceCounts::new(0, 0, 1, 0, 0));
    assert_eq!(s.state.phase(), &Phase::Main);
}

#[test]
fn a_seven_on_the_chart_ends_the_turn_with_no_robber_and_no_discards() {
    let mut s = game();
    s.give(Seat(0), ResourceCounts::new(3, 3, 3, 0, 0))
        .give(Seat(1), ResourceCounts::new(0, 0, 0, 5, 5))
        .main_phase(Seat(0));
    let robber = s.state.robber;
    rig_chart(&mut s, 7);
    let ev = s.ok(Seat(0), Action::AskNeutralTrade);
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::ChartRolled {
            total: 7,
            outcome: ChartOutcome::TurnEnds,
            ..
        }
    )));
    assert!(ev.contains(&Event::TurnEnded { seat: Seat(0) }));
    assert!(ev.contains(&Event::TurnStarted {
        seat: Seat(1),
        turn: 2
    }));
    assert!(!ev.iter().any(|e| matches!(
        e,
        Event::DiscardsRequired { .. } | Event::RobberMoved { .. }
    )));
    assert_eq!(s.hand(Seat(0)).total(), 9);
    assert_eq!(s.hand(Seat(1)).total(), 10);
    assert_eq!(s.state.robber, robber);
    assert_eq!(s.state.phase(), &Phase::BeforeRoll);
    assert_eq!(s.state.active, Seat(1));
    // The next player may ask again on their own turn.
    s.rig_next_roll(8);
    s.ok(Seat(1), Action::RollDice);
    assert!(
        s.state
            .legal_actions(Seat(1))
            .contains(&LegalAction::AskNeutralTrade)
    );
    s.check();
}

#[test]
fn when_the_neutral_lacks_the_card_there_is_no_trade_and_the_turn_goes_on() {
    let mut s = game();
    s.give(N, ResourceCounts::new(1, 0, 0, 0, 0))
        .give(Seat(0), ResourceCounts::new(0, 0, 1, 0, 0))
        .main_phase(Seat(0));
    block_neutral(&mut s);
    rig_chart(&mut s, 4);
    let ev = s.ok(Seat(0), Action::AskNeutralTrade);
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::ChartRolled {
            total: 4,
            outcome: ChartOutcome::NeutralLacks,
            ..
        }
    )));
    assert_eq!(s.state.phase(), &Phase::Main);
    assert_eq!(s.state.active, Seat(0));
    assert_eq!(s.hand(Seat(0)), ResourceCounts::new(0, 0, 1, 0, 0));
    assert_eq!(
        s.refused(Seat(0), Action::AskNeutralTrade),
        ActionError::NeutralTradeUsed
    );
    s.ok(Seat(0), Action::EndTurn);
}

#[test]
fn a_ten_asks_two_cards_for_one_of_choice_and_a_nine_wool_or_grain() {
    let mut s = game();
    s.give(N, ResourceCounts::new(0, 0, 0, 1, 2))
        .give(Seat(0), ResourceCounts::new(1, 1, 0, 0, 1))
        .main_phase(Seat(0));
    rig_chart(&mut s, 10);
    s.ok(Seat(0), Action::AskNeutralTrade);
    let both = ResourceSet((1 << Resource::Grain.index()) | (1 << Resource::Ore.index()));
    assert_eq!(
        step(&s),
        Some(Step::ChartOffer {
            seat: Seat(0),
            give: 2,
            receive: both
        })
    );
    assert!(matches!(
        s.refused(
            Seat(0),
            Action::AcceptNeutralTrade {
                give: ResourceCounts::new(1, 0, 0, 0, 0),
                receive: Resource::Grain
            }
        ),
        ActionError::InvalidTrade { .. }
    ));
    assert!(matches!(
        s.refused(
            Seat(0),
            Action::AcceptNeutralTrade {
                give: ResourceCounts::new(1, 0, 0, 0, 1),
                receive: Resource::Ore
            }
        ),
        ActionError::InvalidTrade { .. }
    ));
    s.ok(
        Seat(0),
        Action::AcceptNeutralTrade {
            give: ResourceCounts::new(1, 1, 0, 0, 0),
            receive: Resource::Ore,
        },
    );
    assert_eq!(s.hand(Seat(0)), ResourceCounts::new(0, 0, 0, 0, 2));
    // The neutral now holds a brick and a lumber: its road is due.
    assert!(matches!(step(&s), Some(Step::NeutralRoad { .. })));
    s.check();

    assert_eq!(
        chart(9),
        Some((
            1,
            ResourceSet((1 << Resource::Wool.index()) | (1 << Resource::Grain.index()))
        ))
    );
    assert_eq!(chart(2), Some((1, ResourceSet::ALL)));
    assert_eq!(chart(12), chart(2));
    assert_eq!(chart(3), chart(11));
    assert_eq!(chart(7), None);
    let mut s = game();
    s.give(N, ResourceCounts::new(0, 0, 0, 2, 0))
        .give(Seat(0), ResourceCounts::new(0, 0, 0, 0, 1))
        .main_phase(Seat(0));
    rig_chart(&mut s, 9);
    s.ok(Seat(0), Action::AskNeutralTrade);
    assert_eq!(
        step(&s),
        Some(Step::ChartOffer {
            seat: Seat(0),
            give: 1,
            receive: ResourceSet(1 << Resource::Grain.index())
        })
    );
}

#[test]
fn cards_given_to_the_neutral_convert_at_once() {
    let mut s = game();
    block_neutral(&mut s);
    s.give(N, ResourceCounts::new(0, 0, 3, 0, 1))
        .give(Seat(0), ResourceCounts::new(0, 0, 1, 0, 0))
        .main_phase(Seat(0));
    rig_chart(&mut s, 3);
    s.ok(Seat(0), Action::AskNeutralTrade);
    let ev = s.ok(
        Seat(0),
        Action::AcceptNeutralTrade {
            give: ResourceCounts::new(0, 0, 1, 0, 0),
            receive: Resource::Ore,
        },
    );
    assert!(ev.contains(&Event::NeutralConverted {
        seat: N,
        gave: ResourceCounts::new(0, 0, 4, 0, 0),
        received: Resource::Brick
    }));
    assert_eq!(s.hand(N), ResourceCounts::new(1, 0, 0, 0, 0));
    s.check();
}

#[test]
fn no_player_trade_forbids_offers_between_players() {
    let mut s = Scenario::with_options(Variant::NeutralTrader, &[("no_player_trade", "true")]);
    s.give(Seat(0), ResourceCounts::new(0, 0, 1, 0, 0))
        .main_phase(Seat(0));
    assert_eq!(
        s.refused(
            Seat(0),
            Action::OfferTrade {
                give: ResourceCounts::new(0, 0, 1, 0, 0),
                receive: ResourceCounts::new(1, 0, 0, 0, 0)
            }
        ),
        ActionError::DomesticTradeDisabled
    );
    assert!(
        !s.state
            .legal_actions(Seat(0))
            .contains(&LegalAction::OfferTrade)
    );
    // Without the option they may.
    let mut s = game();
    s.give(Seat(0), ResourceCounts::new(0, 0, 1, 0, 0))
        .main_phase(Seat(0));
    assert!(
        s.state
            .legal_actions(Seat(0))
            .contains(&LegalAction::OfferTrade)
    );
}

#[test]
fn the_neutral_hand_is_public_in_every_view() {
    let mut s = game();
    s.give(N, ResourceCounts::new(0, 0, 2, 0, 0));
    let v = s.state.view(Some(Seat(1)));
    assert_eq!(
        v.players[2].public_hand,
        Some(ResourceCounts::new(0, 0, 2, 0, 0))
    );
    assert_eq!(v.players[0].public_hand, None);
}
