//! shadow (RULES.md §5, both editions): one scenario per rule, exact outcomes.

use hexpost_engine::Redact;
use hexpost_engine::actions::LegalAction;
use hexpost_engine::events::{AuctionWin, RerollReason, RollOffPurpose};
use hexpost_engine::invariants::check_state;
use hexpost_engine::rulesets::shadow::{die_resource, removal_mask, side_row};
use hexpost_engine::rulesets::{Bid, Step};
use hexpost_engine::seats::SeatKind;
use hexpost_engine::testkit::{Scenario, edge};
use hexpost_engine::{
    Action, ActionError, DevCard, Event, GameConfig, GameState, Phase, Resource, ResourceCounts,
    Seat, Variant,
};

const F2: Seat = Seat(2);
const F3: Seat = Seat(3);

fn mask(hexes: &[u8]) -> u32 {
    hexes.iter().fold(0, |m, h| m | (1 << h))
}

/// Beginner board without the top and bottom rows (hexes 0-2 and 16-18);
/// seat 0 on node 37 (mountains 8, pasture 5), seat 1 on node 22 (fields
/// 12, fields 9, forest 11); seat 0 to roll on turn 1.
fn game(edition: &str) -> Scenario {
    let mut s = Scenario::with_options(
        Variant::Shadow,
        &[("edition", edition), ("removal_reroll", "never")],
    );
    s.removed_sides(&[1, 4])
        .settlement(Seat(0), 37)
        .settlement(Seat(1), 22);
    s
}

fn step(s: &Scenario) -> Option<Step> {
    match s.state.phase() {
        Phase::Variant(step) => Some(step.clone()),
        _ => None,
    }
}

fn auction_bids(s: &Scenario, viewer: Option<Seat>) -> [Bid; 2] {
    match s.state.view(viewer).phase {
        Phase::Variant(Step::Auction(a)) => a.bids,
        other => panic!("no auction: {other:?}"),
    }
}

/// Games of the given options, seed by seed, with their opening events.
fn openings(options: &[(&str, &str)]) -> impl Iterator<Item = (u64, GameState, Vec<Event>)> {
    let mut c = GameConfig::new(Variant::Shadow);
    for (k, v) in options {
        c.set_option(k, v).unwrap();
    }
    (0..5000u64).map(move |seed| {
        let (s, ev) = GameState::new(&c, seed).unwrap();
        (seed, s, ev)
    })
}

fn removals(ev: &[Event]) -> Vec<(Vec<u8>, Vec<u8>, usize, u8)> {
    ev.iter()
        .filter_map(|e| match e {
            Event::HexesRemoved {
                dice,
                sides,
                hexes,
                red_tokens,
            } => Some((dice.clone(), sides.clone(), hexes.len(), *red_tokens)),
            _ => None,
        })
        .collect()
}

/// Rigs seat 0's end of turn so that the fictional roll produces nothing
/// and an auction for `resource` opens.
fn rig_auction(s: &mut Scenario, resource: Resource) {
    s.rig(|c| {
        let ev = c.ok(Seat(0), Action::EndTurn);
        !ev.iter().any(|e| matches!(e, Event::Produced { .. }))
            && ev
                .iter()
                .any(|e| matches!(e, Event::AuctionOpened { resource: r, .. } if *r == resource))
    });
}

#[test]
fn sides_are_numbered_clockwise_from_the_top_row() {
    assert_eq!(side_row(1, 0), mask(&[0, 1, 2]));
    assert_eq!(side_row(2, 0), mask(&[2, 6, 11]));
    assert_eq!(side_row(3, 0), mask(&[11, 15, 18]));
    assert_eq!(side_row(4, 0), mask(&[16, 17, 18]));
    assert_eq!(side_row(5, 0), mask(&[7, 12, 16]));
    assert_eq!(side_row(6, 0), mask(&[0, 3, 7]));
    assert_eq!(side_row(1, 1), mask(&[3, 4, 5, 6]));
    assert_eq!(side_row(4, 1), mask(&[12, 13, 14, 15]));
    // Adjacent sides share a corner hex: 5 removed; others 6; doubles 7.
    assert_eq!(removal_mask(1, 2), mask(&[0, 1, 2, 6, 11]));
    assert_eq!(removal_mask(6, 1), mask(&[0, 1, 2, 3, 7]));
    assert_eq!(removal_mask(1, 4).count_ones(), 6);
    assert_eq!(removal_mask(2, 4).count_ones(), 6);
    assert_eq!(removal_mask(3, 3), mask(&[11, 15, 18, 6, 10, 14, 17]));
    assert_eq!(
        (die_resource(1), die_resource(2), die_resource(3)),
        (
            Some(Resource::Lumber),
            Some(Resource::Brick),
            Some(Resource::Wool)
        )
    );
    assert_eq!(
        (die_resource(4), die_resource(5), die_resource(6)),
        (Some(Resource::Grain), Some(Resource::Ore), None)
    );
}

#[test]
fn edited_doubles_remove_the_row_of_three_and_the_row_of_four_behind_it() {
    let (_, s, ev) = openings(&[("removal_reroll", "never")])
        .find(|(_, _, ev)| {
            removals(ev)[0].0.len() == 2 && removals(ev)[0].0[0] == removals(ev)[0].0[1]
        })
        .unwrap();
    let (dice, sides, n, _) = removals(&ev)[0].clone();
    assert_eq!(sides, vec![dice[0]]);
    assert_eq!(n, 7);
    assert_eq!(s.board.removed, side_row(dice[0], 0) | side_row(dice[0], 1));
    assert_eq!(s.players[2].kind, SeatKind::Fictional);
    assert_eq!(s.players[3].kind, SeatKind::Fictional);
    check_state(&s).unwrap();
}

#[test]
fn the_1998_edition_rerolls_a_doubled_second_die() {
    let (_, s, ev) = openings(&[("removal_reroll", "never"), ("edition", "1998")])
        .find(|(_, _, ev)| removals(ev)[0].0.len() > 2)
        .unwrap();
    let (dice, sides, n, _) = removals(&ev)[0].clone();
    assert_eq!(
        dice[0], dice[1],
        "the second die matched and was rolled again"
    );
    let last = *dice.last().unwrap();
    assert_ne!(last, dice[0]);
    assert_eq!(sides, vec![dice[0], last]);
    assert_eq!(s.board.removed, removal_mask(dice[0], last));
    assert!(n == 5 || n == 6);
    // No 1998 roll ever removes seven.
    assert!(
        openings(&[("removal_reroll", "never"), ("edition", "1998")])
            .take(300)
            .all(|(_, s, _)| s.board.removed.count_ones() <= 6)
    );
}

#[test]
fn adjacent_sides_remove_five_on_both_editions() {
    for edition in ["edited", "1998"] {
        let (_, s, ev) = openings(&[("removal_reroll", "never"), ("edition", edition)])
            .find(|(_, _, ev)| {
                let sides = &removals(ev)[0].1;
                sides.len() == 2 && (sides[0] % 6 + 1 == sides[1] || sides[1] % 6 + 1 == sides[0])
            })
            .unwrap();
        assert_eq!(removals(&ev)[0].2, 5);
        assert_eq!(s.board.removed.count_ones(), 5);
    }
}

#[test]
fn auto_policy_rerolls_while_more_than_two_red_tokens_would_go() {
    let (_, s, ev) = openings(&[("no_adjacent_red", "false")])
        .find(|(_, _, ev)| removals(ev)[0].3 > 2)
        .unwrap();
    let rolls = removals(&ev);
    assert!(rolls.len() >= 2);
    assert!(ev.contains(&Event::RemovalRerolled {
        reason: RerollReason::TooManyRedTokens
    }));
    assert!(rolls[..rolls.len() - 1].iter().all(|r| r.3 > 2));
    assert!(rolls.last().unwrap().3 <= 2);
    check_state(&s).unwrap();
    // Policy never keeps such a roll.
    let (_, _, ev) = openings(&[("no_adjacent_red", "false"), ("removal_reroll", "never")])
        .find(|(_, _, ev)| removals(ev)[0].3 > 2)
        .unwrap();
    assert_eq!(removals(&ev).len(), 1);
}

#[test]
fn agree_policy_asks_both_and_rerolls_only_if_both_ask() {
    let mut c = GameConfig::new(Variant::Shadow);
    c.set_option("removal_reroll", "agree").unwrap();
    let (state, _) = GameState::new(&c, 3).unwrap();
    let mut s = Scenario { state };
    assert_eq!(
        step(&s),
        Some(Step::RemovalVote {
            votes: [None, None]
        })
    );
    assert_eq!(s.state.awaiting().to_vec(), vec![Seat(0), Seat(1)]);
    assert_eq!(
        s.state.legal_actions(Seat(1)),
        vec![LegalAction::VoteReroll]
    );
    assert!(matches!(
        s.refused(Seat(0), Action::BuildSettlement { node: 22 }),
        ActionError::WrongPhase { .. }
    ));
    // Seat 1 asks first; then both ask: a new roll and a new vote.
    s.ok(Seat(1), Action::VoteReroll { reroll: true });
    assert_eq!(s.state.awaiting().to_vec(), vec![Seat(0)]);
    let ev = s.ok(Seat(0), Action::VoteReroll { reroll: true });
    assert!(ev.contains(&Event::RemovalRerolled {
        reason: RerollReason::BothAsked
    }));
    let (dice, sides, _, _) = removals(&ev)[0].clone();
    let expected = if sides.len() == 1 {
        removal_mask(sides[0], sides[0])
    } else {
        removal_mask(sides[0], sides[1])
    };
    assert_eq!(s.state.board.removed, expected);
    assert_eq!(dice.len(), 2);
    assert_eq!(s.state.awaiting().to_vec(), vec![Seat(0), Seat(1)]);
    // One refusal settles it; set-up begins.
    let before = s.state.board.removed;
    s.ok(Seat(0), Action::VoteReroll { reroll: false });
    assert_eq!(s.state.phase(), &Phase::Setup);
    assert_eq!(s.state.board.removed, before);
    assert_eq!(s.state.awaiting().to_vec(), vec![Seat(0)]);
    s.check();
}

#[test]
fn nothing_is_built_touching_removed_hexes_and_cut_off_harbors_are_out() {
    let mut s = Scenario::with_options(Variant::Shadow, &[("removal_reroll", "never")]);
    s.removed_sides(&[1, 4]);
    s.state.phases = vec![Phase::Setup];
    s.state.setup.pos = 0;
    // Node 0 and node 8 touch removed hexes 0 and 1.
    assert_eq!(
        s.refused(Seat(0), Action::BuildSettlement { node: 8 }),
        ActionError::InvalidNode { node: 8 }
    );
    let legal = s.state.legal_actions(Seat(0));
    let LegalAction::BuildSettlement { nodes, .. } = &legal[0] else {
        panic!()
    };
    assert!(!nodes.contains(0) && !nodes.contains(8) && nodes.contains(17));
    s.ok(Seat(0), Action::BuildSettlement { node: 17 });
    // Edge 12-8 borders removed hex 0; edge 17-12 only meets its corner.
    s.ok(Seat(0), Action::BuildRoad { edge: edge(17, 12) });
    let e = edge(12, 8);
    s.state.phases = vec![Phase::Main];
    s.state.active = Seat(0);
    s.give(Seat(0), ResourceCounts::new(1, 1, 0, 0, 0));
    assert_eq!(
        s.refused(Seat(0), Action::BuildRoad { edge: e }),
        ActionError::InvalidEdge { edge: e }
    );
    // The five harbors on removed hexes 0, 1, 2, 16 and 18 cannot be reached.
    assert_eq!(s.state.view(None).harbors_out, vec![0, 1, 4, 5, 8]);
    s.check();
}

#[test]
fn removed_hexes_never_produce() {
    let mut s = game("edited");
    // Forced onto node 0 (hex 0 only) against the rules, to show the roll
    // of its number pays nothing; the invariant check reports it.
    s.settlement(Seat(0), 0).rig_rolls(&[10]);
    let ev = s.ok(Seat(0), Action::RollDice);
    assert!(
        !ev.iter()
            .any(|e| matches!(e, Event::Produced { seat: Seat(0), .. }))
    );
    assert!(check_state(&s.state).unwrap_err().contains("removed hex"));
}

#[test]
fn a_fictional_turn_follows_each_real_turn() {
    let mut s = game("edited");
    s.main_phase(Seat(0));
    s.rig(|c| {
        let ev = c.ok(Seat(0), Action::EndTurn);
        ev.iter().any(|e| {
            matches!(
                e,
                Event::DiceRolled {
                    seat: F2,
                    total: 9,
                    ..
                }
            )
        }) && ev
            .iter()
            .any(|e| matches!(e, Event::CardOffered { resource: None, .. }))
    });
    let ev = s.ok(Seat(0), Action::EndTurn);
    let kinds: Vec<&Event> = ev.iter().collect();
    assert_eq!(kinds[0], &Event::TurnEnded { seat: Seat(0) });
    assert_eq!(kinds[1], &Event::FictionalTurnStarted { seat: F2 });
    assert!(ev.contains(&Event::Produced {
        seat: Seat(1),
        resources: ResourceCounts::new(0, 0, 0, 1, 0)
    }));
    assert!(ev.contains(&Event::CardOffered {
        seat: F2,
        rolls: vec![6],
        resource: None
    }));
    assert_eq!(
        ev.last(),
        Some(&Event::TurnStarted {
            seat: Seat(1),
            turn: 2
        })
    );
    assert_eq!(s.state.active, Seat(1));
    assert_eq!(s.state.phase(), &Phase::BeforeRoll);
    // After seat 1's turn, the other fictional player.
    s.main_phase(Seat(1));
    let ev = s.ok(Seat(1), Action::EndTurn);
    assert!(ev.contains(&Event::FictionalTurnStarted { seat: F3 }));
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::DiceRolled { seat: F3, .. }))
    );
    s.check();
}

#[test]
fn fictional_seven_discards_then_fewer_vp_moves_the_robber_edited() {
    let mut s = game("edited");
    s.settlement(Seat(0), 24)
        .give(Seat(0), ResourceCounts::new(2, 2, 2, 2, 0))
        .main_phase(Seat(0))
        .rig_rolls(&[7]);
    let ev = s.ok(Seat(0), Action::EndTurn);
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::DiceRolled {
            seat: F2,
            total: 7,
            ..
        }
    )));
    assert!(ev.contains(&Event::DiscardsRequired {
        owed: vec![(Seat(0), 4)]
    }));
    assert_eq!(s.state.active, F2);
    s.ok(
        Seat(0),
        Action::Discard {
            cards: ResourceCounts::new(2, 2, 0, 0, 0),
        },
    );
    // Seat 1 has 1 visible VP to seat 0's 2: seat 1 moves the robber.
    assert_eq!(step(&s), Some(Step::FictionalRobber { seat: Seat(1) }));
    let legal = s.state.legal_actions(Seat(1));
    let LegalAction::MoveRobber { targets } = &legal[0] else {
        panic!()
    };
    let victims = |h: u8| {
        targets
            .iter()
            .find(|t| t.hex == h)
            .map(|t| t.victims.to_vec())
    };
    assert_eq!(victims(11), Some(vec![Seat(0)]));
    assert_eq!(victims(4), Some(vec![]));
    assert_eq!(victims(0), Some(vec![]), "edited: removed hexes allowed");
    assert!(matches!(
        s.refused(
            Seat(1),
            Action::MoveRobber {
                hex: 4,
                victim: Some(Seat(0))
            }
        ),
        ActionError::InvalidVictim { .. }
    ));
    assert!(matches!(
        s.refused(
            Seat(1),
            Action::MoveRobber {
                hex: 11,
                victim: None
            }
        ),
        ActionError::VictimRequired { .. }
    ));
    let bank = s.state.bank.total();
    s.rig(|c| {
        !c.ok(
            Seat(1),
            Action::MoveRobber {
                hex: 11,
                victim: Some(Seat(0)),
            },
        )
        .iter()
        .any(|e| {
            matches!(
                e,
                Event::CardOffered {
                    resource: Some(_),
                    ..
                }
            )
        })
    });
    let ev = s.ok(
        Seat(1),
        Action::MoveRobber {
            hex: 11,
            victim: Some(Seat(0)),
        },
    );
    let lost = ev
        .iter()
        .find(|e| matches!(e, Event::CardLost { .. }))
        .unwrap()
        .clone();
    let Event::CardLost {
        seat: Seat(0),
        by: Seat(1),
        resource: Some(r),
    } = lost
    else {
        panic!("{lost:?}")
    };
    assert_eq!(
        lost.redacted_for(None),
        Event::CardLost {
            seat: Seat(0),
            by: Seat(1),
            resource: None
        }
    );
    assert_eq!(lost.redacted_for(Some(Seat(1))), lost);
    assert!(r == Resource::Wool || r == Resource::Grain);
    assert_eq!(s.state.robber, 11);
    assert_eq!(
        s.hand(Seat(1)),
        ResourceCounts::ZERO,
        "the card goes to the bank"
    );
    assert_eq!(s.hand(Seat(0)).total(), 3);
    assert_eq!(s.state.bank.total(), bank + 1);
    s.check();
}

#[test]
fn fictional_seven_in_1998_takes_from_the_opponent_anywhere() {
    let mut s = game("1998");
    s.settlement(Seat(1), 24)
        .give(Seat(0), ResourceCounts::new(0, 0, 1, 0, 0))
        .main_phase(Seat(0))
        .rig_rolls(&[7]);
    s.ok(Seat(0), Action::EndTurn);
    // Seat 0 has fewer VP (1 to 2).
    assert_eq!(step(&s), Some(Step::FictionalRobber { seat: Seat(0) }));
    let legal = s.state.legal_actions(Seat(0));
    let LegalAction::MoveRobber { targets } = &legal[0] else {
        panic!()
    };
    // Seat 1 holds no cards: nobody to choose; removed hexes are out.
    assert!(targets.iter().all(|t| t.victims.is_empty()));
    assert!(!targets.iter().any(|t| t.hex == 0));
    assert_eq!(
        s.refused(
            Seat(0),
            Action::MoveRobber {
                hex: 0,
                victim: None
            }
        ),
        ActionError::InvalidHex { hex: 0 }
    );

    let mut s = game("1998");
    s.settlement(Seat(0), 24)
        .give(Seat(0), ResourceCounts::new(0, 0, 0, 1, 0))
        .give(Seat(1), ResourceCounts::new(0, 0, 1, 0, 0))
        .main_phase(Seat(0))
        .rig_rolls(&[7]);
    s.ok(Seat(0), Action::EndTurn);
    assert_eq!(step(&s), Some(Step::FictionalRobber { seat: Seat(1) }));
    // Hex 4 has no building of seat 0, yet seat 0 is the one to lose a card.
    let ev = s.ok(
        Seat(1),
        Action::MoveRobber {
            hex: 4,
            victim: Some(Seat(0)),
        },
    );
    assert!(ev.contains(&Event::CardLost {
        seat: Seat(0),
        by: Seat(1),
        resource: Some(Resource::Grain)
    }));
    assert_eq!(s.hand(Seat(0)), ResourceCounts::ZERO);
    s.check();
}

#[test]
fn fictional_seven_with_equal_vp_rolls_off_for_the_robber() {
    let mut s = game("edited");
    s.main_phase(Seat(0)).rig_rolls(&[7]);
    let ev = s.ok(Seat(0), Action::EndTurn);
    let winner = ev
        .iter()
        .find_map(|e| match e {
            Event::RollOff {
                purpose: RollOffPurpose::Robber,
                winner,
                rounds,
            } => {
                let last = rounds.last().unwrap();
                assert_ne!(last[0], last[1]);
                Some(*winner)
            }
            _ => None,
        })
        .unwrap();
    assert_eq!(step(&s), Some(Step::FictionalRobber { seat: winner }));
}

#[test]
fn the_offer_die_names_a_resource_and_six_names_none_unless_rerolled() {
    let mut s = game("edited");
    s.main_phase(Seat(0));
    s.rig(|c| {
        let ev = c.ok(Seat(0), Action::EndTurn);
        ev.iter()
            .any(|e| matches!(e, Event::CardOffered { rolls, .. } if rolls == &vec![6]))
    });
    let ev = s.ok(Seat(0), Action::EndTurn);
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::CardOffered { resource: None, .. }))
    );

    let mut s = Scenario::with_options(
        Variant::Shadow,
        &[("removal_reroll", "never"), ("reroll_six", "true")],
    );
    s.removed_sides(&[1, 4]).main_phase(Seat(0));
    s.rig(|c| {
        let ev = c.ok(Seat(0), Action::EndTurn);
        ev.iter()
            .any(|e| matches!(e, Event::CardOffered { rolls, .. } if rolls[0] == 6))
    });
    let ev = s.ok(Seat(0), Action::EndTurn);
    let (rolls, resource) = ev
        .iter()
        .find_map(|e| match e {
            Event::CardOffered {
                rolls, resource, ..
            } => Some((rolls.clone(), *resource)),
            _ => None,
        })
        .unwrap();
    assert!(rolls.len() >= 2);
    assert_eq!(resource, die_resource(*rolls.last().unwrap()));
    assert!(resource.is_some());

    // The bank out of the named resource: no offer.
    let mut s = game("edited");
    s.give(Seat(1), ResourceCounts::new(0, 0, 0, 0, 19))
        .main_phase(Seat(0));
    s.rig(|c| {
        let ev = c.ok(Seat(0), Action::EndTurn);
        ev.iter()
            .any(|e| matches!(e, Event::CardOffered { rolls, .. } if rolls == &vec![5]))
    });
    let ev = s.ok(Seat(0), Action::EndTurn);
    assert!(ev.contains(&Event::CardOffered {
        seat: F2,
        rolls: vec![5],
        resource: None
    }));
}

#[test]
fn a_single_bid_wins_and_first_bids_are_sealed() {
    let mut s = game("edited");
    s.give(Seat(0), ResourceCounts::new(0, 0, 2, 0, 0))
        .give(Seat(1), ResourceCounts::new(0, 0, 0, 1, 0))
        .main_phase(Seat(0));
    rig_auction(&mut s, Resource::Ore);
    let ev = s.ok(Seat(0), Action::EndTurn);
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::AuctionOpened { resource: Resource::Ore, bidders } if bidders.to_vec() == vec![Seat(0), Seat(1)]
    )));
    assert_eq!(s.state.active, F2, "the fictional player's turn");
    assert_eq!(s.state.awaiting().to_vec(), vec![Seat(0), Seat(1)]);
    assert_eq!(
        s.state.legal_actions(Seat(0)),
        vec![LegalAction::Bid, LegalAction::PassBid]
    );
    assert!(matches!(
        s.refused(
            Seat(0),
            Action::OfferTrade {
                give: ResourceCounts::new(0, 0, 1, 0, 0),
                receive: ResourceCounts::new(0, 0, 0, 1, 0)
            }
        ),
        ActionError::WrongPhase { .. }
    ));
    assert_eq!(
        s.refused(
            Seat(0),
            Action::Bid {
                cards: ResourceCounts::ZERO
            }
        ),
        ActionError::EmptyBid
    );
    assert_eq!(
        s.refused(
            Seat(0),
            Action::Bid {
                cards: ResourceCounts::new(0, 0, 3, 0, 0)
            }
        ),
        ActionError::CardsNotHeld
    );
    assert!(s.state.sealed_answers().is_empty(), "nobody has answered");
    let wool = ResourceCounts::new(0, 0, 1, 0, 0);
    let ev = s.ok(Seat(0), Action::Bid { cards: wool });
    assert_eq!(ev, vec![Event::BidSubmitted { seat: Seat(0) }]);
    assert_eq!(auction_bids(&s, Some(Seat(0)))[0], Bid::Cards(wool));
    assert_eq!(auction_bids(&s, Some(Seat(1)))[0], Bid::Sealed);
    assert_eq!(auction_bids(&s, None)[0], Bid::Sealed);
    assert_eq!(s.state.sealed_answers().to_vec(), vec![Seat(0)]);
    assert!(matches!(
        s.refused(Seat(0), Action::PassBid),
        ActionError::NotYourDecision { .. }
    ));
    let bank_wool = s.state.bank[Resource::Wool];
    let ev = s.ok(Seat(1), Action::PassBid);
    assert!(ev.contains(&Event::BidsRevealed {
        bids: vec![(Seat(0), Some(wool)), (Seat(1), None)]
    }));
    assert!(s.state.sealed_answers().is_empty(), "revealed");
    assert!(ev.contains(&Event::AuctionWon {
        seat: Seat(0),
        paid: wool,
        resource: Resource::Ore,
        by: AuctionWin::OnlyBidder
    }));
    assert_eq!(s.hand(Seat(0)), ResourceCounts::new(0, 0, 1, 0, 1));
    assert_eq!(s.hand(Seat(1)), ResourceCounts::new(0, 0, 0, 1, 0));
    assert_eq!(s.state.bank[Resource::Wool], bank_wool + 1);
    assert_eq!(s.state.active, Seat(1));
    assert_eq!(s.state.phase(), &Phase::BeforeRoll);
    s.check();
}

/// A first pass is sealed like a bid: the other bidder must not learn
/// that it is alone until it has answered too.
#[test]
fn a_first_pass_is_a_sealed_answer_until_both_have_answered() {
    let mut s = game("edited");
    s.give(Seat(0), ResourceCounts::new(0, 0, 2, 0, 0))
        .give(Seat(1), ResourceCounts::new(0, 0, 0, 1, 0))
        .main_phase(Seat(0));
    rig_auction(&mut s, Resource::Ore);
    s.ok(Seat(0), Action::EndTurn);
    s.ok(Seat(1), Action::PassBid);
    assert_eq!(s.state.sealed_answers().to_vec(), vec![Seat(1)]);
    assert_eq!(auction_bids(&s, Some(Seat(0)))[1], Bid::Sealed);
    assert_eq!(auction_bids(&s, Some(Seat(1)))[1], Bid::Passed);
    assert_eq!(s.state.awaiting().to_vec(), vec![Seat(0)]);
    s.check();
    let ev = s.ok(
        Seat(0),
        Action::Bid {
            cards: ResourceCounts::new(0, 0, 1, 0, 0),
        },
    );
    assert!(ev.iter().any(|e| matches!(e, Event::BidsRevealed { .. })));
    assert!(s.state.sealed_answers().is_empty());
    s.check();
}

#[test]
fn the_lower_bidder_raises_to_equal_and_fewer_vp_takes_it() {
    let mut s = game("edited");
    s.settlement(Seat(0), 24)
        .give(Seat(0), ResourceCounts::new(0, 0, 3, 0, 0))
        .give(Seat(1), ResourceCounts::new(0, 0, 0, 3, 0))
        .main_phase(Seat(0));
    rig_auction(&mut s, Resource::Brick);
    s.ok(Seat(0), Action::EndTurn);
    s.ok(
        Seat(0),
        Action::Bid {
            cards: ResourceCounts::new(0, 0, 1, 0, 0),
        },
    );
    s.ok(
        Seat(1),
        Action::Bid {
            cards: ResourceCounts::new(0, 0, 0, 2, 0),
        },
    );
    assert_eq!(s.state.awaiting().to_vec(), vec![Seat(0)]);
    assert_eq!(
        s.state.legal_actions(Seat(0)),
        vec![
            LegalAction::RaiseBid {
                min: 1,
                available: 2
            },
            LegalAction::Concede
        ]
    );
    assert_eq!(
        s.refused(
            Seat(0),
            Action::RaiseBid {
                cards: ResourceCounts::ZERO
            }
        ),
        ActionError::EmptyBid
    );
    assert_eq!(
        s.refused(
            Seat(0),
            Action::RaiseBid {
                cards: ResourceCounts::new(0, 0, 3, 0, 0)
            }
        ),
        ActionError::CardsNotHeld
    );
    // Seat 0 at 2 VP raises to 2 cards: equal bids go to seat 1 (1 VP).
    let ev = s.ok(
        Seat(0),
        Action::RaiseBid {
            cards: ResourceCounts::new(0, 0, 1, 0, 0),
        },
    );
    assert!(ev.contains(&Event::BidRaised {
        seat: Seat(0),
        added: ResourceCounts::new(0, 0, 1, 0, 0),
        total: ResourceCounts::new(0, 0, 2, 0, 0)
    }));
    assert!(ev.contains(&Event::AuctionWon {
        seat: Seat(1),
        paid: ResourceCounts::new(0, 0, 0, 2, 0),
        resource: Resource::Brick,
        by: AuctionWin::FewerVp
    }));
    assert_eq!(s.hand(Seat(1)), ResourceCounts::new(1, 0, 0, 1, 0));
    assert_eq!(
        s.hand(Seat(0)),
        ResourceCounts::new(0, 0, 3, 0, 0),
        "the loser keeps its bid"
    );
    s.check();
}

#[test]
fn equal_bids_and_equal_vp_go_to_a_roll_off() {
    let mut s = game("edited");
    s.give(Seat(0), ResourceCounts::new(0, 0, 1, 0, 0))
        .give(Seat(1), ResourceCounts::new(0, 0, 0, 1, 0))
        .main_phase(Seat(0));
    rig_auction(&mut s, Resource::Lumber);
    s.ok(Seat(0), Action::EndTurn);
    s.ok(
        Seat(1),
        Action::Bid {
            cards: ResourceCounts::new(0, 0, 0, 1, 0),
        },
    );
    let ev = s.ok(
        Seat(0),
        Action::Bid {
            cards: ResourceCounts::new(0, 0, 1, 0, 0),
        },
    );
    let winner = ev
        .iter()
        .find_map(|e| match e {
            Event::RollOff {
                purpose: RollOffPurpose::Auction,
                winner,
                ..
            } => Some(*winner),
            _ => None,
        })
        .expect("a roll-off");
    let won = ev
        .iter()
        .find(|e| matches!(e, Event::AuctionWon { .. }))
        .unwrap();
    assert!(
        matches!(won, Event::AuctionWon { seat, by: AuctionWin::RollOff, resource: Resource::Lumber, .. } if *seat == winner)
    );
    assert_eq!(s.hand(winner), ResourceCounts::new(0, 1, 0, 0, 0));
    assert_eq!(s.hand(winner.opponent()).total(), 1);
    s.check();
}

#[test]
fn raising_past_the_other_passes_the_choice_back_until_one_concedes() {
    let mut s = game("edited");
    s.give(Seat(0), ResourceCounts::new(0, 0, 3, 0, 0))
        .give(Seat(1), ResourceCounts::new(0, 0, 0, 2, 0))
        .main_phase(Seat(0));
    rig_auction(&mut s, Resource::Grain);
    s.ok(Seat(0), Action::EndTurn);
    s.ok(
        Seat(0),
        Action::Bid {
            cards: ResourceCounts::new(0, 0, 1, 0, 0),
        },
    );
    s.ok(
        Seat(1),
        Action::Bid {
            cards: ResourceCounts::new(0, 0, 0, 2, 0),
        },
    );
    s.ok(
        Seat(0),
        Action::RaiseBid {
            cards: ResourceCounts::new(0, 0, 2, 0, 0),
        },
    );
    // Seat 1 bid 2 of its 2 cards: it can only concede.
    assert_eq!(s.state.awaiting().to_vec(), vec![Seat(1)]);
    assert_eq!(s.state.legal_actions(Seat(1)), vec![LegalAction::Concede]);
    assert_eq!(
        s.refused(
            Seat(1),
            Action::RaiseBid {
                cards: ResourceCounts::new(0, 0, 0, 1, 0)
            }
        ),
        ActionError::CardsNotHeld
    );
    let ev = s.ok(Seat(1), Action::Concede);
    assert!(ev.contains(&Event::AuctionWon {
        seat: Seat(0),
        paid: ResourceCounts::new(0, 0, 3, 0, 0),
        resource: Resource::Grain,
        by: AuctionWin::OtherConceded
    }));
    assert_eq!(s.hand(Seat(0)), ResourceCounts::new(0, 0, 0, 1, 0));
    assert_eq!(s.hand(Seat(1)), ResourceCounts::new(0, 0, 0, 2, 0));
    s.check();

    // A raise must reach the other bid.
    let mut s = game("edited");
    s.give(Seat(0), ResourceCounts::new(0, 0, 3, 0, 0))
        .give(Seat(1), ResourceCounts::new(0, 0, 0, 3, 0))
        .main_phase(Seat(0));
    rig_auction(&mut s, Resource::Grain);
    s.ok(Seat(0), Action::EndTurn);
    s.ok(
        Seat(0),
        Action::Bid {
            cards: ResourceCounts::new(0, 0, 1, 0, 0),
        },
    );
    s.ok(
        Seat(1),
        Action::Bid {
            cards: ResourceCounts::new(0, 0, 0, 3, 0),
        },
    );
    assert_eq!(
        s.refused(
            Seat(0),
            Action::RaiseBid {
                cards: ResourceCounts::new(0, 0, 1, 0, 0)
            }
        ),
        ActionError::BidTooLow { needed: 3 }
    );
}

#[test]
fn at_eight_vp_the_edited_edition_forbids_bidding_the_1998_does_not() {
    for (edition, asked) in [("edited", vec![Seat(1)]), ("1998", vec![Seat(0), Seat(1)])] {
        let mut s = game(edition);
        for n in [24, 20, 35] {
            s.settlement(Seat(0), n);
        }
        s.city(Seat(0), 33);
        s.knights_played(Seat(0), 3);
        assert_eq!(s.state.player(Seat(0)).visible_vp, 8);
        s.give(Seat(0), ResourceCounts::new(0, 0, 1, 0, 0))
            .give(Seat(1), ResourceCounts::new(0, 0, 0, 1, 0))
            .main_phase(Seat(0));
        rig_auction(&mut s, Resource::Ore);
        let ev = s.ok(Seat(0), Action::EndTurn);
        assert!(ev.iter().any(|e| matches!(
            e,
            Event::AuctionOpened { bidders, .. } if bidders.to_vec() == asked
        )));
        assert_eq!(s.state.awaiting().to_vec(), asked, "{edition}");
        if edition == "edited" {
            assert_eq!(auction_bids(&s, None)[0], Bid::Out);
            assert!(s.state.legal_actions(Seat(0)).is_empty());
            let ev = s.ok(
                Seat(1),
                Action::Bid {
                    cards: ResourceCounts::new(0, 0, 0, 1, 0),
                },
            );
            assert!(ev.iter().any(|e| matches!(
                e,
                Event::AuctionWon {
                    seat: Seat(1),
                    by: AuctionWin::OnlyBidder,
                    ..
                }
            )));
        }
        s.check();
    }
}

#[test]
fn monopoly_also_takes_die_minus_two_per_fictional_player_from_the_bank() {
    let mut s = game("edited");
    s.give(Seat(1), ResourceCounts::new(0, 0, 0, 0, 2))
        .dev_card(Seat(0), DevCard::Monopoly, false)
        .main_phase(Seat(0));
    let play = Action::PlayMonopoly {
        resource: Resource::Ore,
    };
    s.rig(|c| {
        c.ok(Seat(0), play.clone())
            .contains(&Event::MonopolyFromFictional {
                seat: Seat(0),
                resource: Resource::Ore,
                draws: vec![(F2, 5, 3), (F3, 1, 0)],
            })
    });
    s.ok(Seat(0), play.clone());
    assert_eq!(s.hand(Seat(0)), ResourceCounts::new(0, 0, 0, 0, 5));
    assert_eq!(s.hand(Seat(1)), ResourceCounts::ZERO);
    s.check();
}

#[test]
fn monopoly_when_the_bank_runs_short() {
    let mut s = game("edited");
    s.give(Seat(1), ResourceCounts::new(0, 0, 0, 0, 18))
        .dev_card(Seat(0), DevCard::Monopoly, false)
        .main_phase(Seat(0));
    let play = Action::PlayMonopoly {
        resource: Resource::Ore,
    };
    s.rig(|c| {
        c.ok(Seat(0), play.clone()).iter().any(|e| {
            matches!(e, Event::MonopolyFromFictional { draws, .. }
                if draws[0].1 == 6 && draws[1].1 == 6)
        })
    });
    let ev = s.ok(Seat(0), play.clone());
    assert!(ev.contains(&Event::MonopolyFromFictional {
        seat: Seat(0),
        resource: Resource::Ore,
        draws: vec![(F2, 6, 1), (F3, 6, 0)],
    }));
    assert_eq!(s.hand(Seat(0)), ResourceCounts::new(0, 0, 0, 0, 19));
    assert_eq!(s.state.bank[Resource::Ore], 0);
    s.check();
}

#[test]
fn edited_robber_on_a_removed_hex_blocks_nothing_and_takes_a_bank_card() {
    let mut s = game("edited");
    s.robber(11).rig_rolls(&[7]);
    s.ok(Seat(0), Action::RollDice);
    let to_removed = Action::MoveRobber {
        hex: 0,
        victim: None,
    };
    s.rig(|c| {
        c.ok(Seat(0), to_removed.clone())
            .contains(&Event::BankCardTaken {
                seat: Seat(0),
                rolls: vec![6, 2],
                resource: Some(Resource::Brick),
            })
    });
    s.ok(Seat(0), to_removed.clone());
    assert_eq!(s.state.robber, 0);
    assert_eq!(s.hand(Seat(0)), ResourceCounts::new(1, 0, 0, 0, 0));
    s.check();
    // Hex 11 (mountains 8), no longer robbed, produces again.
    s.before_roll(Seat(1)).rig_rolls(&[8]);
    let ev = s.ok(Seat(1), Action::RollDice);
    assert!(ev.contains(&Event::Produced {
        seat: Seat(0),
        resources: ResourceCounts::new(0, 0, 0, 0, 1)
    }));

    // A knight may go there too.
    let mut s = game("edited");
    s.dev_card(Seat(0), DevCard::Knight, false);
    let ev = s.ok(
        Seat(0),
        Action::PlayKnight {
            hex: 17,
            victim: None,
        },
    );
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::BankCardTaken { seat: Seat(0), .. }))
    );
    s.check();

    // 1998: removed hexes are not robber targets.
    let mut s = game("1998");
    s.rig_rolls(&[7]);
    s.ok(Seat(0), Action::RollDice);
    assert_eq!(
        s.refused(
            Seat(0),
            Action::MoveRobber {
                hex: 0,
                victim: None
            }
        ),
        ActionError::InvalidHex { hex: 0 }
    );
}
