//! catan_for_two (RULES.md §3): one scenario per rule, exact outcomes.

use hexpost_engine::Redact;
use hexpost_engine::actions::LegalAction;
use hexpost_engine::board::{Board, topology};
use hexpost_engine::events::TokenReason;
use hexpost_engine::phases::Piece;
use hexpost_engine::rulesets::Step;
use hexpost_engine::rulesets::catan_for_two::{FIXED_NEUTRAL_NODES, mirror, mirrored_start_pairs};
use hexpost_engine::seats::SeatKind;
use hexpost_engine::testkit::{Scenario, edge};
use hexpost_engine::{
    Action, ActionError, DevCard, Event, GameConfig, GameState, Phase, Resource, ResourceCounts,
    Seat, Variant,
};

const N2: Seat = Seat(2);
const N3: Seat = Seat(3);
const ROAD: ResourceCounts = ResourceCounts::new(1, 1, 0, 0, 0);
const SETTLEMENT: ResourceCounts = ResourceCounts::new(1, 1, 1, 1, 0);

fn game() -> Scenario {
    Scenario::after_setup(Variant::CatanForTwo)
}

fn step(s: &Scenario) -> Option<Step> {
    match s.state.phase() {
        Phase::Variant(step) => Some(step.clone()),
        _ => None,
    }
}

fn edges_at(n: u8) -> Vec<u8> {
    topology().nodes[n as usize].edges.clone()
}

/// Seat 0 on turn 1 after the roll, with a settlement on node 37 (mountains
/// 8 and pasture 5, on the coast).
fn seat0_at_37() -> Scenario {
    let mut s = game();
    s.settlement(Seat(0), 37).main_phase(Seat(0));
    s
}

#[test]
fn neutral_colours_start_on_the_fixed_mirrored_spots() {
    let (state, events) = GameState::new(
        &{
            let mut c = GameConfig::new(Variant::CatanForTwo);
            c.options.board = Some(hexpost_engine::board::LayoutKind::Beginner);
            c
        },
        5,
    )
    .unwrap();
    assert_eq!(state.players.len(), 4);
    assert_eq!(state.players[2].kind, SeatKind::Neutral);
    assert_eq!(state.players[3].kind, SeatKind::Neutral);
    assert_eq!(FIXED_NEUTRAL_NODES, [12, 41]);
    assert_eq!(mirror(12), Some(41));
    let t = topology();
    let desert = state.board.desert().unwrap();
    for (seat, node) in [(N2, 12u8), (N3, 41)] {
        assert_eq!(state.building_at(node).unwrap().owner, seat);
        let hexes = &t.nodes[node as usize].hexes;
        assert_eq!(hexes.len(), 3, "node {node} touches three land hexes");
        assert!(!hexes.contains(&desert));
        assert!(events.contains(&Event::SettlementBuilt {
            seat,
            node,
            free: true
        }));
    }
    assert!(!t.nodes[12].neighbors.contains(&41));
    assert_eq!(state.player(N2).settlements_left, 4);
    assert_eq!(state.player(N2).roads_left, 15);
    let s = Scenario { state };
    assert_eq!((s.tokens_of(Seat(0)), s.tokens_of(Seat(1))), (5, 5));
    assert_eq!(s.token_supply(), 10);
    s.check();
    // Set-up starts with the players; the distance rule counts the neutrals.
    let mut s = s;
    assert_eq!(
        s.refused(Seat(0), Action::BuildSettlement { node: 8 }),
        ActionError::DistanceRule
    );
}

#[test]
fn random_neutral_start_picks_a_mirrored_pair_away_from_the_desert() {
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..40 {
        let mut c = GameConfig::new(Variant::CatanForTwo);
        c.set_option("neutral_start", "random").unwrap();
        let (state, _) = GameState::new(&c, seed).unwrap();
        let nodes: Vec<u8> = (0..54u8)
            .filter(|&n| state.building_at(n).is_some_and(|b| !b.owner.is_real()))
            .collect();
        assert_eq!(nodes.len(), 2);
        let pair = [nodes[0], nodes[1]];
        assert!(
            mirrored_start_pairs(&state.board).contains(&pair),
            "{pair:?}"
        );
        assert_eq!(mirror(pair[0]), Some(pair[1]));
        let desert = state.board.desert().unwrap();
        for n in pair {
            assert!(!topology().nodes[n as usize].hexes.contains(&desert));
        }
        seen.insert(pair);
    }
    assert!(seen.len() > 3, "random start always picks {seen:?}");
    // On the beginner board 9 of the 12 mirrored inland pairs avoid the desert.
    assert_eq!(mirrored_start_pairs(&Board::beginner()).len(), 9);
}

#[test]
fn second_roll_must_differ_and_each_roll_produces() {
    let mut s = game();
    s.settlement(Seat(0), 37).rig_rolls(&[8, 8, 5]);
    let ev = s.ok(Seat(0), Action::RollDice);
    let totals: Vec<_> = ev
        .iter()
        .filter_map(|e| match e {
            Event::DiceRolled { total, .. } => Some(*total),
            _ => None,
        })
        .collect();
    assert_eq!(totals, vec![8, 5]);
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::SecondRollRepeated { total: 8, .. }))
    );
    assert_eq!(s.hand(Seat(0)), ResourceCounts::new(0, 0, 1, 0, 1));
    assert_eq!(s.state.phase(), &Phase::Main);
    assert_eq!(s.state.last_roll.map(|d| d[0] + d[1]), Some(5));
    s.check();
}

#[test]
fn a_seven_on_the_first_roll_is_resolved_before_the_second_roll() {
    let mut s = game();
    s.settlement(Seat(0), 37)
        .give(Seat(1), ResourceCounts::new(2, 2, 2, 2, 0))
        .rig_rolls(&[7, 5]);
    let ev = s.ok(Seat(0), Action::RollDice);
    assert!(ev.contains(&Event::DiscardsRequired {
        owed: vec![(Seat(1), 4)]
    }));
    assert_eq!(
        ev.iter()
            .filter(|e| matches!(e, Event::DiceRolled { .. }))
            .count(),
        1,
        "the second roll waits for the seven"
    );
    assert_eq!(s.state.awaiting().to_vec(), vec![Seat(1)]);
    s.ok(
        Seat(1),
        Action::Discard {
            cards: ResourceCounts::new(2, 2, 0, 0, 0),
        },
    );
    assert_eq!(s.state.phase(), &Phase::MoveRobber { seat: Seat(0) });
    assert_eq!(
        s.hand(Seat(0)),
        ResourceCounts::ZERO,
        "nothing produced yet"
    );
    // Hex 0 touches only the neutral's settlement, which holds no cards.
    let ev = s.ok(
        Seat(0),
        Action::MoveRobber {
            hex: 0,
            victim: None,
        },
    );
    let pos = |f: fn(&Event) -> bool| ev.iter().position(f).unwrap();
    assert!(
        pos(|e| matches!(e, Event::RobberMoved { .. }))
            < pos(|e| matches!(e, Event::DiceRolled { total: 5, .. }))
    );
    assert_eq!(s.hand(Seat(0)), ResourceCounts::new(0, 0, 1, 0, 0));
    assert_eq!(s.state.phase(), &Phase::Main);
    s.check();
}

#[test]
fn a_road_obliges_a_free_neutral_road_of_the_builders_choice() {
    let mut s = seat0_at_37();
    s.give(Seat(0), ROAD);
    let e = edge(37, 32);
    s.ok(Seat(0), Action::BuildRoad { edge: e });
    assert_eq!(
        step(&s),
        Some(Step::NeutralBuild {
            seat: Seat(0),
            piece: Piece::Road
        })
    );
    let legal = s.state.legal_actions(Seat(0));
    let options: Vec<(Seat, Vec<u8>)> = legal
        .iter()
        .filter_map(|l| match l {
            LegalAction::BuildNeutralRoad { neutral, edges } => {
                Some((*neutral, edges.iter().collect()))
            }
            _ => None,
        })
        .collect();
    let mut at12 = edges_at(12);
    at12.sort();
    let mut at41 = edges_at(41);
    at41.sort();
    assert_eq!(options, vec![(N2, at12), (N3, at41.clone())]);
    assert_eq!(
        legal.len(),
        2,
        "nothing else while the neutral piece is owed"
    );
    assert!(matches!(
        s.refused(Seat(0), Action::EndTurn),
        ActionError::WrongPhase { .. }
    ));
    assert!(matches!(
        s.refused(
            Seat(0),
            Action::BuildNeutralSettlement {
                neutral: N2,
                node: 7
            }
        ),
        ActionError::WrongNeutralPiece { .. }
    ));
    assert_eq!(
        s.refused(
            Seat(0),
            Action::BuildNeutralRoad {
                neutral: Seat(1),
                edge: at41[0]
            }
        ),
        ActionError::NotANeutral { seat: Seat(1) }
    );
    assert_eq!(
        s.refused(
            Seat(0),
            Action::BuildNeutralRoad {
                neutral: N2,
                edge: at41[0]
            }
        ),
        ActionError::NotConnected
    );
    let ev = s.ok(
        Seat(0),
        Action::BuildNeutralRoad {
            neutral: N3,
            edge: at41[0],
        },
    );
    assert!(ev.contains(&Event::RoadBuilt {
        seat: N3,
        edge: at41[0],
        free: true
    }));
    assert_eq!(s.state.phase(), &Phase::Main);
    assert_eq!(s.state.player(N3).roads_left, 14);
    assert_eq!(s.hand(N3), ResourceCounts::ZERO);
    s.check();
}

#[test]
fn a_settlement_obliges_a_neutral_settlement_where_one_is_legal() {
    let mut s = seat0_at_37();
    // Neutral 2 has a road 12-7-3 to node 3, a legal spot for it.
    s.road_path(N2, &[12, 7, 3])
        .road_path(Seat(0), &[37, 32, 26]);
    s.give(Seat(0), SETTLEMENT);
    let ev = s.ok(Seat(0), Action::BuildSettlement { node: 26 });
    // Node 26 is on the coast: one token.
    assert!(ev.contains(&Event::TokensEarned {
        seat: Seat(0),
        tokens: 1,
        reason: TokenReason::Coast
    }));
    assert_eq!(s.tokens_of(Seat(0)), 6);
    assert_eq!(
        step(&s),
        Some(Step::NeutralBuild {
            seat: Seat(0),
            piece: Piece::Settlement
        })
    );
    let legal = s.state.legal_actions(Seat(0));
    assert_eq!(legal.len(), 1);
    let LegalAction::BuildNeutralSettlement { neutral, nodes } = &legal[0] else {
        panic!("{legal:?}")
    };
    assert_eq!(*neutral, N2);
    assert_eq!(nodes.iter().collect::<Vec<_>>(), vec![3]);
    assert!(matches!(
        s.refused(
            Seat(0),
            Action::BuildNeutralRoad {
                neutral: N2,
                edge: edge(3, 0)
            }
        ),
        ActionError::WrongNeutralPiece { .. }
    ));
    assert_eq!(
        s.refused(
            Seat(0),
            Action::BuildNeutralSettlement {
                neutral: N3,
                node: 3
            }
        ),
        ActionError::NotConnected
    );
    s.ok(
        Seat(0),
        Action::BuildNeutralSettlement {
            neutral: N2,
            node: 3,
        },
    );
    assert_eq!(s.state.building_at(3).unwrap().owner, N2);
    assert_eq!(s.state.player(N2).visible_vp, 2);
    // A neutral's settlement earns nobody tokens, even on the coast.
    assert_eq!(s.tokens_of(Seat(0)), 6);
    assert_eq!(s.state.phase(), &Phase::Main);
    s.check();
}

#[test]
fn with_no_legal_neutral_settlement_for_either_neutral_a_road_is_owed() {
    let mut s = seat0_at_37();
    s.road_path(Seat(0), &[37, 32, 26])
        .give(Seat(0), SETTLEMENT);
    s.ok(Seat(0), Action::BuildSettlement { node: 26 });
    assert_eq!(
        step(&s),
        Some(Step::NeutralBuild {
            seat: Seat(0),
            piece: Piece::Road
        })
    );
    let e = edges_at(12)[0];
    s.ok(
        Seat(0),
        Action::BuildNeutralRoad {
            neutral: N2,
            edge: e,
        },
    );
    assert_eq!(s.state.phase(), &Phase::Main);
    s.check();
}

#[test]
fn with_nothing_legal_for_either_neutral_nothing_is_built() {
    let mut s = seat0_at_37();
    // Seat 1's roads close every edge at both neutral settlements.
    for e in edges_at(12).into_iter().chain(edges_at(41)) {
        s.road(Seat(1), e);
    }
    s.give(Seat(0), ROAD);
    let ev = s.ok(Seat(0), Action::BuildRoad { edge: edge(37, 32) });
    assert!(ev.contains(&Event::NeutralBuildSkipped {
        seat: Seat(0),
        piece: Piece::Road
    }));
    assert_eq!(s.state.phase(), &Phase::Main);
    // A settlement with neither a neutral settlement nor a road possible.
    s.road(Seat(0), edge(32, 26)).give(Seat(0), SETTLEMENT);
    let ev = s.ok(Seat(0), Action::BuildSettlement { node: 26 });
    assert!(ev.contains(&Event::NeutralBuildSkipped {
        seat: Seat(0),
        piece: Piece::Settlement
    }));
    assert_eq!(s.state.phase(), &Phase::Main);
    s.check();
}

#[test]
fn road_building_owes_a_neutral_road_after_each_free_road() {
    let mut s = seat0_at_37();
    s.dev_card(Seat(0), DevCard::RoadBuilding, false);
    s.ok(Seat(0), Action::PlayRoadBuilding);
    s.ok(Seat(0), Action::BuildRoad { edge: edge(37, 32) });
    assert!(matches!(
        step(&s),
        Some(Step::NeutralBuild {
            piece: Piece::Road,
            ..
        })
    ));
    s.ok(
        Seat(0),
        Action::BuildNeutralRoad {
            neutral: N2,
            edge: edge(12, 7),
        },
    );
    assert_eq!(
        s.state.phase(),
        &Phase::RoadBuilding {
            seat: Seat(0),
            remaining: 1
        }
    );
    s.ok(Seat(0), Action::BuildRoad { edge: edge(32, 26) });
    s.ok(
        Seat(0),
        Action::BuildNeutralRoad {
            neutral: N2,
            edge: edge(7, 3),
        },
    );
    assert_eq!(s.state.phase(), &Phase::Main);
    assert_eq!(s.state.player(N2).road_length, 2);
    s.check();
}

#[test]
fn a_neutral_road_that_takes_the_last_free_edge_ends_road_building() {
    let mut s = game();
    // Seat 0 at 28 can only go 28-22, then 22-17, which neutral 2 can
    // also reach from its road 12-17.
    s.settlement(Seat(0), 28).road(N2, edge(12, 17));
    for (a, b) in [(28, 33), (28, 34), (22, 16)] {
        s.road(Seat(1), edge(a, b));
    }
    s.main_phase(Seat(0))
        .dev_card(Seat(0), DevCard::RoadBuilding, false);
    s.ok(Seat(0), Action::PlayRoadBuilding);
    s.ok(Seat(0), Action::BuildRoad { edge: edge(28, 22) });
    s.ok(
        Seat(0),
        Action::BuildNeutralRoad {
            neutral: N2,
            edge: edge(17, 22),
        },
    );
    assert_eq!(s.state.phase(), &Phase::Main, "no edge left for the card");
    assert_eq!(s.state.player(Seat(0)).roads_left, 14);
    s.check();
}

#[test]
fn cities_development_cards_and_set_up_build_nothing_for_the_neutrals() {
    let mut s = seat0_at_37();
    s.give(Seat(0), ResourceCounts::new(0, 0, 1, 3, 4));
    s.ok(Seat(0), Action::BuildCity { node: 37 });
    s.ok(Seat(0), Action::BuyDevelopmentCard);
    assert_eq!(s.state.phase(), &Phase::Main);

    let mut s = Scenario::in_setup(Variant::CatanForTwo);
    s.ok(Seat(0), Action::BuildSettlement { node: 37 });
    s.ok(Seat(0), Action::BuildRoad { edge: edge(37, 32) });
    assert_eq!(s.state.phase(), &Phase::Setup);
    assert_eq!(s.state.current_setup_step().unwrap().seat, Seat(1));
}

#[test]
fn neutrals_never_receive_resources() {
    let mut s = game();
    // Hex 0 (mountains 10) touches neutral 2 at node 12 and seat 1 at node 0.
    s.settlement(Seat(1), 0).rig_rolls(&[10, 6]);
    s.ok(Seat(0), Action::RollDice);
    assert_eq!(s.hand(N2), ResourceCounts::ZERO);
    assert_eq!(s.hand(Seat(1)), ResourceCounts::new(0, 0, 0, 0, 1));
    s.check();
}

#[test]
fn a_neutral_can_take_longest_road_but_never_wins() {
    let mut s = Scenario::with_options(Variant::CatanForTwo, &[("vp_target", "3")]);
    s.settlement(Seat(0), 37).main_phase(Seat(0));
    s.road_path(N2, &[12, 7, 3, 0, 4]).give(Seat(0), ROAD);
    s.ok(Seat(0), Action::BuildRoad { edge: edge(37, 32) });
    let ev = s.ok(
        Seat(0),
        Action::BuildNeutralRoad {
            neutral: N2,
            edge: edge(4, 8),
        },
    );
    assert!(ev.contains(&Event::LongestRoadChanged {
        from: None,
        to: Some(N2),
        length: 5
    }));
    assert_eq!(s.state.player(N2).visible_vp, 3);
    assert_eq!(s.state.winner, None, "a neutral never wins");
    s.ok(Seat(0), Action::EndTurn);
    assert_eq!(s.state.winner, None);
    s.check();
}

#[test]
fn token_actions_cost_one_when_not_ahead_and_two_when_ahead() {
    let mut s = seat0_at_37();
    s.settlement(Seat(1), 0).robber(0);
    // Equal visible VP: 1 token.
    assert!(
        s.state
            .legal_actions(Seat(0))
            .contains(&LegalAction::RobberToDesert { cost: 1 })
    );
    s.settlement(Seat(0), 20);
    assert!(
        s.state
            .legal_actions(Seat(0))
            .contains(&LegalAction::RobberToDesert { cost: 2 })
    );
    let ev = s.ok(Seat(0), Action::RobberToDesert);
    assert!(ev.contains(&Event::TokensPaid {
        seat: Seat(0),
        tokens: 2
    }));
    assert!(ev.contains(&Event::RobberMoved {
        seat: Seat(0),
        hex: 9
    }));
    assert_eq!(s.state.robber, 9);
    assert_eq!((s.tokens_of(Seat(0)), s.token_supply()), (3, 12));
    s.check();
}

#[test]
fn one_token_action_per_turn_and_tokens_needed() {
    let mut s = seat0_at_37();
    s.robber(0)
        .give(Seat(1), ResourceCounts::new(0, 0, 0, 0, 2))
        .give(Seat(0), ResourceCounts::new(1, 0, 0, 0, 0));
    s.ok(Seat(0), Action::RobberToDesert);
    assert_eq!(
        s.refused(Seat(0), Action::ForcedTrade),
        ActionError::TokenActionUsed
    );
    assert!(
        !s.state
            .legal_actions(Seat(0))
            .iter()
            .any(|l| matches!(l, LegalAction::ForcedTrade { .. }))
    );
    // The robber is on the desert: it cannot be moved there again.
    s.ok(Seat(0), Action::EndTurn);
    s.main_phase(Seat(1));
    assert_eq!(
        s.refused(Seat(1), Action::RobberToDesert),
        ActionError::RobberMustMove
    );
    s.tokens(Seat(1), 0);
    assert_eq!(
        s.refused(Seat(1), Action::ForcedTrade),
        ActionError::NoTokens { cost: 1, held: 0 }
    );
    s.check();
}

#[test]
fn token_actions_are_taken_before_or_after_the_roll_on_ones_own_turn() {
    let mut s = game();
    s.robber(0);
    // Before the roll.
    s.ok(Seat(0), Action::RobberToDesert);
    assert_eq!(s.state.phase(), &Phase::BeforeRoll);
    // Not on the opponent's turn, not while a decision is pending.
    let mut s = game();
    s.robber(0)
        .give(Seat(0), ResourceCounts::new(0, 0, 1, 0, 0));
    s.main_phase(Seat(0));
    s.ok(
        Seat(0),
        Action::OfferTrade {
            give: ResourceCounts::new(0, 0, 1, 0, 0),
            receive: ResourceCounts::new(1, 0, 0, 0, 0),
        },
    );
    assert!(matches!(
        s.refused(Seat(1), Action::RobberToDesert),
        ActionError::WrongPhase { .. }
    ));
}

#[test]
fn forced_trade_draws_two_then_gives_two_of_the_players_choice() {
    let mut s = seat0_at_37();
    s.give(Seat(1), ResourceCounts::new(0, 0, 0, 0, 2))
        .give(Seat(0), ResourceCounts::new(0, 0, 3, 0, 0));
    let ev = s.ok(Seat(0), Action::ForcedTrade);
    let drew = Event::ForcedTradeDrew {
        seat: Seat(0),
        from: Seat(1),
        cards: Some(ResourceCounts::new(0, 0, 0, 0, 2)),
    };
    assert!(ev.contains(&drew));
    // Known to the two parties only.
    assert_eq!(drew.redacted_for(Some(Seat(1))), drew);
    assert_eq!(
        drew.redacted_for(None),
        Event::ForcedTradeDrew {
            seat: Seat(0),
            from: Seat(1),
            cards: None
        }
    );
    assert_eq!(s.hand(Seat(0)), ResourceCounts::new(0, 0, 3, 0, 2));
    assert_eq!(s.hand(Seat(1)), ResourceCounts::ZERO);
    assert_eq!(
        step(&s),
        Some(Step::ForcedTradeGive {
            seat: Seat(0),
            to: Seat(1),
            resources_only: false
        })
    );
    assert_eq!(
        s.state.legal_actions(Seat(0)),
        vec![LegalAction::ForcedTradeGive {
            count: 2,
            resources_only: false
        }]
    );
    assert!(matches!(
        s.refused(
            Seat(0),
            Action::ForcedTradeGive {
                cards: ResourceCounts::new(0, 0, 1, 0, 0)
            }
        ),
        ActionError::InvalidTrade { .. }
    ));
    assert_eq!(
        s.refused(
            Seat(0),
            Action::ForcedTradeGive {
                cards: ResourceCounts::new(2, 0, 0, 0, 0)
            }
        ),
        ActionError::CardsNotHeld
    );
    let ev = s.ok(
        Seat(0),
        Action::ForcedTradeGive {
            cards: ResourceCounts::new(0, 0, 2, 0, 0),
        },
    );
    assert!(ev.contains(&Event::ForcedTradeGave {
        seat: Seat(0),
        to: Seat(1),
        cards: Some(ResourceCounts::new(0, 0, 2, 0, 0))
    }));
    assert_eq!(s.hand(Seat(0)), ResourceCounts::new(0, 0, 1, 0, 2));
    assert_eq!(s.hand(Seat(1)), ResourceCounts::new(0, 0, 2, 0, 0));
    // Seat 0 is ahead on visible VP (1 to 0): the action cost 2.
    assert_eq!(s.tokens_of(Seat(0)), 3);
    assert_eq!(s.state.phase(), &Phase::Main);
    s.check();
}

#[test]
fn forced_trade_against_a_one_card_hand_takes_it_and_still_gives_two() {
    let mut s = seat0_at_37();
    s.give(Seat(1), ResourceCounts::new(1, 0, 0, 0, 0))
        .give(Seat(0), ResourceCounts::new(0, 0, 0, 1, 0));
    s.ok(Seat(0), Action::ForcedTrade);
    assert_eq!(s.hand(Seat(0)), ResourceCounts::new(1, 0, 0, 1, 0));
    assert_eq!(
        s.refused(
            Seat(0),
            Action::ForcedTradeGive {
                cards: ResourceCounts::new(1, 0, 0, 0, 0)
            }
        ),
        ActionError::InvalidTrade {
            reason: "a forced trade gives exactly two cards"
        }
    );
    s.ok(
        Seat(0),
        Action::ForcedTradeGive {
            cards: ResourceCounts::new(1, 0, 0, 1, 0),
        },
    );
    assert_eq!(s.hand(Seat(0)), ResourceCounts::ZERO);
    assert_eq!(s.hand(Seat(1)), ResourceCounts::new(1, 0, 0, 1, 0));
    s.check();
}

#[test]
fn forced_trade_refused_against_an_empty_hand_or_with_too_few_cards_to_give() {
    let mut s = seat0_at_37();
    s.give(Seat(0), ResourceCounts::new(0, 0, 5, 0, 0));
    assert_eq!(
        s.refused(Seat(0), Action::ForcedTrade),
        ActionError::OpponentHasNoCards
    );
    let mut s = seat0_at_37();
    s.give(Seat(1), ResourceCounts::new(1, 0, 0, 0, 0));
    assert_eq!(
        s.refused(Seat(0), Action::ForcedTrade),
        ActionError::TooFewCardsToGive { held: 1 }
    );
    assert!(
        !s.state
            .legal_actions(Seat(0))
            .iter()
            .any(|l| matches!(l, LegalAction::ForcedTrade { .. }))
    );
    // An empty hand of one's own is fine when the draw brings two.
    s.give(Seat(1), ResourceCounts::new(0, 1, 0, 0, 0));
    assert!(
        s.state
            .legal_actions(Seat(0))
            .contains(&LegalAction::ForcedTrade { cost: 2 })
    );
}

#[test]
fn settlements_on_the_desert_and_the_coast_earn_tokens_in_set_up() {
    // Node 18 touches the desert (inland): +2.
    let mut s = Scenario::in_setup(Variant::CatanForTwo);
    let ev = s.ok(Seat(0), Action::BuildSettlement { node: 18 });
    assert!(ev.contains(&Event::TokensEarned {
        seat: Seat(0),
        tokens: 2,
        reason: TokenReason::Desert
    }));
    // Node 37 is on the coast: +1. Node 22 neither.
    s.ok(Seat(0), Action::BuildRoad { edge: edge(18, 13) });
    s.ok(Seat(1), Action::BuildSettlement { node: 37 });
    assert_eq!(s.tokens_of(Seat(1)), 6);
    s.ok(Seat(1), Action::BuildRoad { edge: edge(37, 32) });
    s.ok(Seat(1), Action::BuildSettlement { node: 22 });
    assert_eq!(s.tokens_of(Seat(1)), 6);
    assert_eq!((s.tokens_of(Seat(0)), s.token_supply()), (7, 7));
    s.check();

    // The desert on the coast: a node touching both earns 3.
    let mut s = Scenario::in_setup(Variant::CatanForTwo);
    s.state.board.tiles.swap(9, 0);
    let ev = s.ok(Seat(0), Action::BuildSettlement { node: 0 });
    assert!(ev.contains(&Event::TokensEarned {
        seat: Seat(0),
        tokens: 3,
        reason: TokenReason::DesertAndCoast
    }));
}

#[test]
fn the_token_supply_runs_dry() {
    let mut s = Scenario::in_setup(Variant::CatanForTwo);
    s.tokens(Seat(0), 14);
    assert_eq!(s.token_supply(), 1);
    let ev = s.ok(Seat(0), Action::BuildSettlement { node: 18 });
    assert!(ev.contains(&Event::TokensEarned {
        seat: Seat(0),
        tokens: 1,
        reason: TokenReason::Desert
    }));
    assert_eq!((s.tokens_of(Seat(0)), s.token_supply()), (15, 0));
    s.ok(Seat(0), Action::BuildRoad { edge: edge(18, 13) });
    let ev = s.ok(Seat(1), Action::BuildSettlement { node: 37 });
    assert!(!ev.iter().any(|e| matches!(e, Event::TokensEarned { .. })));
    s.check();

    let mut s = seat0_at_37();
    s.tokens(Seat(0), 15).knights_played(Seat(0), 1);
    assert_eq!(s.token_supply(), 0);
    assert_eq!(
        s.refused(Seat(0), Action::DiscardKnight),
        ActionError::TokenSupplyEmpty
    );
    assert!(
        !s.state
            .legal_actions(Seat(0))
            .contains(&LegalAction::DiscardKnight)
    );
}

#[test]
fn discarding_a_played_knight_earns_two_tokens_once_per_turn() {
    let mut s = seat0_at_37();
    assert_eq!(
        s.refused(Seat(0), Action::DiscardKnight),
        ActionError::NoPlayedKnight
    );
    s.knights_played(Seat(0), 2);
    let ev = s.ok(Seat(0), Action::DiscardKnight);
    assert!(ev.contains(&Event::KnightDiscarded { seat: Seat(0) }));
    assert!(ev.contains(&Event::TokensEarned {
        seat: Seat(0),
        tokens: 2,
        reason: TokenReason::Knight
    }));
    let p = s.state.dev_hand(Seat(0));
    assert_eq!(
        (
            p.knights_played,
            p.knights_discarded,
            p.played[DevCard::Knight]
        ),
        (1, 1, 2)
    );
    assert_eq!((s.tokens_of(Seat(0)), s.token_supply()), (7, 8));
    assert_eq!(
        s.refused(Seat(0), Action::DiscardKnight),
        ActionError::KnightAlreadyDiscarded
    );
    s.check();
}

#[test]
fn discarding_a_knight_at_exactly_three_sets_largest_army_aside() {
    let mut s = seat0_at_37();
    s.knights_played(Seat(0), 3).knights_played(Seat(1), 2);
    assert_eq!(s.state.largest_army(), Some(Seat(0)));
    assert_eq!(s.state.player(Seat(0)).visible_vp, 3);
    let ev = s.ok(Seat(0), Action::DiscardKnight);
    assert!(ev.contains(&Event::LargestArmyChanged {
        from: Some(Seat(0)),
        to: None,
        knights: 2
    }));
    assert_eq!(s.state.largest_army(), None);
    assert_eq!(s.state.player(Seat(0)).visible_vp, 1);
    s.check();
}

#[test]
fn discarding_a_knight_to_a_tie_sets_it_aside_and_behind_passes_it_on() {
    // 4 against 3: after the discard 3 against 3, set aside, nobody ahead.
    let mut s = seat0_at_37();
    s.knights_played(Seat(0), 4).knights_played(Seat(1), 3);
    s.ok(Seat(0), Action::DiscardKnight);
    assert_eq!(s.state.largest_army(), None);
    s.check();
    // The holder at 4 tied by the opponent's 4: after the discard the
    // opponent has the most and takes it.
    let mut s = seat0_at_37();
    s.knights_played(Seat(0), 4).knights_played(Seat(1), 4);
    assert_eq!(s.state.largest_army(), Some(Seat(0)));
    let ev = s.ok(Seat(0), Action::DiscardKnight);
    assert!(ev.contains(&Event::LargestArmyChanged {
        from: Some(Seat(0)),
        to: Some(Seat(1)),
        knights: 4
    }));
    assert_eq!(s.state.player(Seat(1)).visible_vp, 2);
    s.check();
    // Discarding while not the holder changes nothing for the holder.
    let mut s = seat0_at_37();
    s.knights_played(Seat(1), 3).knights_played(Seat(0), 1);
    s.ok(Seat(0), Action::DiscardKnight);
    assert_eq!(s.state.largest_army(), Some(Seat(1)));
    s.check();
}

#[test]
fn variant_actions_are_refused_in_other_variants() {
    let mut s = Scenario::standard();
    s.main_phase(Seat(0));
    assert_eq!(
        s.refused(Seat(0), Action::ForcedTrade),
        ActionError::NotInVariant {
            action: "forced_trade",
            variant: "standard"
        }
    );
    assert!(matches!(
        s.refused(Seat(0), Action::PassBid),
        ActionError::NotInVariant { .. }
    ));
}

#[test]
fn tokens_show_in_every_view() {
    let s = game();
    let v = serde_json::to_value(s.state.view(None)).unwrap();
    assert_eq!(v["variant"]["variant"], "catan_for_two");
    assert_eq!(v["variant"]["held"], serde_json::json!([5, 5]));
    assert_eq!(v["players"][2]["kind"], "neutral");
}

#[test]
fn a_resource_count_check_holds_through_forced_trades() {
    let mut s = seat0_at_37();
    s.give(Seat(1), ResourceCounts::new(1, 1, 1, 1, 1));
    s.ok(Seat(0), Action::ForcedTrade);
    let held = s.hand(Seat(0));
    assert_eq!(held.total(), 2);
    assert_eq!(s.hand(Seat(1)).total(), 3);
    s.ok(Seat(0), Action::ForcedTradeGive { cards: held });
    assert_eq!(s.hand(Seat(1)).total(), 5);
    for r in Resource::ALL {
        assert_eq!(s.hand(Seat(1))[r], 1);
    }
    s.check();
}
