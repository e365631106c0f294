//! ck_for_two (RULES.md §6.9, §6.10): knights, their actions, blocking,
//! and the neutral colours' knights.
//!
//! The usual position: seat 0's settlement on node 37 and roads along
//! 37 – 31 – 25 – 19 – 24 (nodes 31, 25, 19, 24 are empty). The neutral
//! colours start on nodes 12 (seat 2) and 41 (seat 3).

use crate::common::ck::*;
use crate::common::{S0, S1};
use hexpost_engine::actions::LegalAction;
use hexpost_engine::cards::Track;
use hexpost_engine::events::{KnightRemoval, TokenReason};
use hexpost_engine::phases::Piece;
use hexpost_engine::rulesets::Step;
use hexpost_engine::rulesets::ck_for_two::Knight;
use hexpost_engine::rulesets::ck_for_two::wire::KnightMoves;
use hexpost_engine::testkit::{Scenario, edge};
use hexpost_engine::{Action, ActionError, Event, Phase, ResourceCounts, Seat};

const KNIGHT: ResourceCounts = ResourceCounts::new(0, 0, 1, 0, 1);
const GRAIN: ResourceCounts = ResourceCounts::new(0, 0, 0, 1, 0);

fn position() -> Scenario {
    let mut s = main_phase();
    s.settlement(S0, 37).road_path(S0, &[37, 31, 25, 19, 24]);
    s
}

/// Seat 0 recruits on `node`, and a neutral road is owed for it.
fn recruit_owing_a_neutral_road(s: &mut Scenario, node: u8) {
    s.ok(S0, Action::RecruitKnight { node });
    assert_eq!(
        step(s),
        Some(Step::NeutralBuild {
            seat: S0,
            piece: Piece::Road
        })
    );
}

fn knight(s: &Scenario, node: u8) -> Option<Knight> {
    s.ck().knight_at(node).copied()
}

fn legal(s: &Scenario, seat: Seat) -> Vec<LegalAction> {
    s.state.legal_actions(seat)
}

/// Places whatever neutral piece is owed on its first legal spot.
fn settle_owed(s: &mut Scenario, seat: Seat) {
    while let Some(step) = step(s) {
        let action = match (step, legal(s, seat).first().cloned()) {
            (Step::NeutralBuild { .. }, Some(LegalAction::BuildNeutralRoad { neutral, edges })) => {
                Action::BuildNeutralRoad {
                    neutral,
                    edge: edges.nth(0).unwrap(),
                }
            }
            (
                Step::NeutralKnight { .. },
                Some(LegalAction::PlaceNeutralKnight { neutral, nodes }),
            ) => Action::PlaceNeutralKnight {
                neutral,
                node: nodes.nth(0).unwrap(),
            },
            other => panic!("not a neutral piece owed: {other:?}"),
        };
        s.ok(seat, action);
    }
}

fn moves(s: &Scenario, seat: Seat) -> Vec<KnightMoves> {
    legal(s, seat)
        .into_iter()
        .find_map(|l| match l {
            LegalAction::MoveKnight { moves } => Some(moves),
            _ => None,
        })
        .unwrap_or_default()
}

// ---- 6.9 Knights ----

#[test]
fn recruit_costs_wool_and_ore_a_basic_knight_inactive_on_an_empty_road_end() {
    let mut s = position();
    s.give(S0, KNIGHT);
    assert!(matches!(
        s.refused(S0, Action::RecruitKnight { node: 37 }),
        ActionError::KnightRefused { .. }
    ));
    assert!(
        matches!(
            s.refused(S0, Action::RecruitKnight { node: 36 }),
            ActionError::KnightRefused { .. }
        ),
        "node 36 is at no end of seat 0's roads"
    );
    assert!(legal(&s, S0).contains(&LegalAction::RecruitKnight {
        nodes: [19u8, 24, 25, 31].into_iter().collect()
    }));
    let ev = s.ok(S0, Action::RecruitKnight { node: 25 });
    assert!(ev.contains(&Event::KnightPlaced {
        seat: S0,
        node: 25,
        level: BASIC,
        active: false,
        free: false
    }));
    assert_eq!(s.hand(S0), ResourceCounts::ZERO);
    settle_owed(&mut s, S0);
    s.check();
}

#[test]
fn recruit_knights_follow_no_distance_rule_and_a_colour_has_two_basic_ones() {
    let mut s = position();
    s.knight(S0, 31, BASIC, false)
        .knight(S0, 19, BASIC, false)
        .give(S0, KNIGHT);
    assert_eq!(
        s.refused(S0, Action::RecruitKnight { node: 25 }),
        ActionError::NoPiecesLeft {
            piece: "basic knight"
        }
    );
    // One back in supply: a knight may stand beside another.
    s.ck_mut().take_knight(19);
    s.ok(S0, Action::RecruitKnight { node: 25 });
    assert!(knight(&s, 25).is_some() && knight(&s, 31).is_some());
    settle_owed(&mut s, S0);
    s.check();
}

#[test]
fn activate_costs_grain_and_may_be_the_turn_it_was_recruited() {
    let mut s = position();
    s.give(S0, KNIGHT).give(S0, GRAIN);
    s.ok(S0, Action::RecruitKnight { node: 25 });
    settle_owed(&mut s, S0);
    let ev = s.ok(S0, Action::ActivateKnight { node: 25 });
    assert!(ev.contains(&Event::KnightActivated {
        seat: S0,
        node: 25,
        free: false
    }));
    let k = knight(&s, 25).unwrap();
    assert!(k.active && k.activated);
    assert_eq!(s.hand(S0), ResourceCounts::ZERO);
    s.give(S0, GRAIN);
    assert!(matches!(
        s.refused(S0, Action::ActivateKnight { node: 25 }),
        ActionError::KnightRefused { .. }
    ));
}

#[test]
fn promote_basic_to_strong_for_wool_and_ore_keeping_its_status_once_per_turn() {
    let mut s = position();
    s.knight(S0, 25, BASIC, true)
        .give(S0, KNIGHT)
        .give(S0, KNIGHT);
    let ev = s.ok(S0, Action::PromoteKnight { node: 25 });
    assert!(ev.contains(&Event::KnightPromoted {
        seat: S0,
        node: 25,
        level: STRONG,
        free: false
    }));
    let k = knight(&s, 25).unwrap();
    assert_eq!((k.level, k.active), (STRONG, true));
    assert!(matches!(
        s.refused(S0, Action::PromoteKnight { node: 25 }),
        ActionError::KnightRefused { .. }
    ));
    assert_eq!(s.hand(S0), KNIGHT);
    s.check();
}

#[test]
fn promote_strong_to_mighty_only_with_the_fortress_and_a_mighty_knight_in_supply() {
    let mut s = position();
    s.knight(S0, 25, STRONG, false).give(S0, KNIGHT);
    assert_eq!(
        s.refused(S0, Action::PromoteKnight { node: 25 }),
        ActionError::KnightRefused {
            reason: "promoting to mighty needs the Fortress"
        }
    );
    s.levels(S0, [0, 3, 0]);
    s.ok(S0, Action::PromoteKnight { node: 25 });
    assert_eq!(knight(&s, 25).unwrap().level, MIGHTY);
    s.check();
    let mut s = position();
    s.levels(S0, [0, 3, 0])
        .knight(S0, 31, MIGHTY, false)
        .knight(S0, 19, MIGHTY, false)
        .knight(S0, 25, STRONG, false)
        .give(S0, KNIGHT);
    assert_eq!(
        s.refused(S0, Action::PromoteKnight { node: 25 }),
        ActionError::NoPiecesLeft {
            piece: "mighty knight"
        }
    );
}

#[test]
fn promote_is_allowed_on_the_recruit_turn_but_never_two_levels_in_a_turn() {
    let mut s = position();
    s.levels(S0, [0, 3, 0])
        .give(S0, KNIGHT)
        .give(S0, KNIGHT)
        .give(S0, KNIGHT);
    s.ok(S0, Action::RecruitKnight { node: 25 });
    settle_owed(&mut s, S0);
    s.ok(S0, Action::PromoteKnight { node: 25 });
    settle_owed(&mut s, S0);
    assert_eq!(knight(&s, 25).unwrap().level, STRONG);
    assert_eq!(
        s.refused(S0, Action::PromoteKnight { node: 25 }),
        ActionError::KnightRefused {
            reason: "a knight is promoted once per turn"
        }
    );
}

#[test]
fn knights_act_only_on_their_owners_turn() {
    // Seat 1's roads, knights and cards, in seat 0's main phase.
    let mut s = main_phase();
    s.settlement(S1, 37)
        .road_path(S1, &[37, 31, 25, 19, 24])
        .knight(S1, 31, BASIC, false)
        .knight(S1, 19, STRONG, true)
        .give(S1, KNIGHT)
        .give(S1, ResourceCounts::new(0, 0, 0, 1, 0));
    for action in [
        Action::RecruitKnight { node: 25 },
        Action::ActivateKnight { node: 31 },
        Action::PromoteKnight { node: 31 },
        Action::MoveKnight { from: 19, to: 24 },
        Action::RemoveKnight { node: 31 },
    ] {
        assert!(
            matches!(
                s.refused(S1, action.clone()),
                ActionError::NotYourDecision { .. }
            ),
            "{action:?}"
        );
    }
    assert!(legal(&s, S1).is_empty());
    // The same on seat 1's own turn.
    s.main_phase(S1);
    s.ok(S1, Action::ActivateKnight { node: 31 });
    s.ok(S1, Action::MoveKnight { from: 19, to: 24 });
    assert!(knight(&s, 31).unwrap().active);
    assert_eq!(knight(&s, 24).unwrap().owner, S1);
}

#[test]
fn actions_only_an_active_knight_not_activated_this_turn_acts_and_acting_deactivates_it() {
    let mut s = position();
    s.knight(S0, 25, BASIC, false).give(S0, GRAIN);
    assert!(matches!(
        s.refused(S0, Action::MoveKnight { from: 25, to: 24 }),
        ActionError::KnightRefused {
            reason: "only an active knight acts"
        }
    ));
    s.ok(S0, Action::ActivateKnight { node: 25 });
    assert!(matches!(
        s.refused(S0, Action::MoveKnight { from: 25, to: 24 }),
        ActionError::KnightRefused {
            reason: "a knight activated this turn acts from the next"
        }
    ));
    assert!(moves(&s, S0).is_empty());
    // Active from an earlier turn: it moves, and is then inactive; it may
    // be activated again but not act again this turn.
    let mut s = position();
    s.knight(S0, 25, BASIC, true).give(S0, GRAIN);
    let ev = s.ok(S0, Action::MoveKnight { from: 25, to: 24 });
    assert!(ev.contains(&Event::KnightMoved {
        seat: S0,
        from: 25,
        to: 24
    }));
    assert!(!knight(&s, 24).unwrap().active);
    s.ok(S0, Action::ActivateKnight { node: 24 });
    assert!(matches!(
        s.refused(S0, Action::MoveKnight { from: 24, to: 19 }),
        ActionError::KnightRefused { .. }
    ));
    s.check();
}

#[test]
fn move_along_own_roads_to_an_empty_node_passing_only_empty_nodes_or_own_pieces() {
    let mut s = position();
    s.knight(S0, 31, BASIC, true);
    assert_eq!(
        moves(&s, S0),
        vec![KnightMoves {
            from: 31,
            to: [19u8, 24, 25].into_iter().collect()
        }],
        "the settlement on 37 is passed but is no destination"
    );
    // Another colour's knight on 19 stops the path there.
    s.knight(S1, 19, BASIC, false);
    assert_eq!(
        moves(&s, S0),
        vec![KnightMoves {
            from: 31,
            to: [25u8].into_iter().collect()
        }]
    );
    assert!(matches!(
        s.refused(S0, Action::MoveKnight { from: 31, to: 24 }),
        ActionError::KnightRefused { .. }
    ));
    // One's own knight is passed.
    let mut s = position();
    s.knight(S0, 31, BASIC, true).knight(S0, 19, BASIC, false);
    s.ok(S0, Action::MoveKnight { from: 31, to: 24 });
    // Another colour's building stops it too.
    let mut s = position();
    s.knight(S0, 31, BASIC, true).settlement(S1, 19);
    assert!(matches!(
        s.refused(S0, Action::MoveKnight { from: 31, to: 24 }),
        ActionError::KnightRefused { .. }
    ));
}

#[test]
fn displace_only_a_strictly_weaker_knight_of_another_colour_and_its_owner_retreats_it() {
    let mut s = position();
    s.road_path(S1, &[36, 30, 24])
        .knight(S0, 31, BASIC, true)
        .knight(S1, 24, BASIC, true);
    assert!(matches!(
        s.refused(S0, Action::DisplaceKnight { from: 31, to: 24 }),
        ActionError::KnightRefused { .. }
    ));
    let mut s = position();
    s.road_path(S1, &[36, 30, 24])
        .knight(S0, 31, STRONG, true)
        .knight(S1, 24, BASIC, true);
    assert!(legal(&s, S0).contains(&LegalAction::DisplaceKnight {
        moves: vec![KnightMoves {
            from: 31,
            to: [24u8].into_iter().collect()
        }]
    }));
    let ev = s.ok(S0, Action::DisplaceKnight { from: 31, to: 24 });
    assert!(ev.contains(&Event::KnightDisplaced {
        seat: S0,
        from: Some(31),
        node: 24,
        owner: S1
    }));
    let mover = knight(&s, 24).unwrap();
    assert_eq!((mover.owner, mover.active), (S0, false));
    // Seat 1's knight retreats along its roads (to 30 or 36), seat 1's choice.
    assert_eq!(s.state.awaiting().to_vec(), vec![S1]);
    assert_eq!(
        legal(&s, S1),
        vec![LegalAction::RetreatKnight {
            nodes: [30u8, 36].into_iter().collect()
        }]
    );
    assert!(legal(&s, S0).is_empty(), "the active player waits");
    let ev = s.ok(S1, Action::RetreatKnight { node: 36 });
    assert!(ev.contains(&Event::KnightRetreated {
        seat: S1,
        from: 24,
        to: 36
    }));
    let k = knight(&s, 36).unwrap();
    assert_eq!(
        (k.owner, k.level, k.active),
        (S1, BASIC, true),
        "status kept"
    );
    assert_eq!(s.state.phase(), &Phase::Main);
    s.check();
}

#[test]
fn displace_with_no_node_to_retreat_to_the_knight_returns_to_its_owners_supply() {
    let mut s = position();
    s.road(S1, edge(30, 24))
        .knight(S0, 31, STRONG, true)
        .knight(S1, 24, BASIC, false)
        .knight(S1, 30, BASIC, false);
    let ev = s.ok(S0, Action::DisplaceKnight { from: 31, to: 24 });
    assert!(ev.contains(&Event::KnightRemoved {
        seat: S1,
        node: 24,
        level: BASIC,
        reason: KnightRemoval::NoRetreat
    }));
    assert_eq!(s.state.phase(), &Phase::Main);
    assert_eq!(s.ck().knights_of(S1, BASIC), 1);
    s.check();
}

#[test]
fn displace_a_neutral_knight_is_moved_by_the_active_player() {
    let mut s = position();
    s.road_path(N3, &[41, 36, 30, 24])
        .knight(S0, 31, STRONG, true)
        .knight(N3, 24, BASIC, false);
    s.ok(S0, Action::DisplaceKnight { from: 31, to: 24 });
    assert_eq!(s.state.awaiting().to_vec(), vec![S0]);
    assert_eq!(
        legal(&s, S0),
        vec![LegalAction::RetreatKnight {
            nodes: [30u8, 36].into_iter().collect()
        }]
    );
    s.ok(S0, Action::RetreatKnight { node: 30 });
    assert_eq!(knight(&s, 30).unwrap().owner, N3);
    s.check();
}

#[test]
fn a_retreat_with_a_single_node_is_made_without_asking() {
    let mut s = position();
    s.road_path(S1, &[30, 24])
        .knight(S0, 31, STRONG, true)
        .knight(S1, 24, BASIC, false);
    let ev = s.ok(S0, Action::DisplaceKnight { from: 31, to: 24 });
    assert!(ev.contains(&Event::KnightRetreated {
        seat: S1,
        from: 24,
        to: 30
    }));
    assert_eq!(s.state.phase(), &Phase::Main);
}

#[test]
fn chase_the_robber_from_a_corner_of_its_hex_to_a_numbered_hex_and_steal() {
    let mut s = position();
    // The robber on hex 10 (forest 3), whose corners include node 24.
    s.barbarians(0, 1)
        .robber(10)
        .knight(S0, 24, BASIC, true)
        .settlement(S1, 42)
        .give(S1, ResourceCounts::new(0, 0, 0, 1, 0));
    let chase = legal(&s, S0)
        .into_iter()
        .find_map(|l| match l {
            LegalAction::ChaseRobber { knight, targets } => Some((knight, targets)),
            _ => None,
        })
        .expect("a chase on offer");
    assert_eq!(chase.0, 24);
    assert!(
        chase.1.iter().all(|t| t.hex != 9 && t.hex != 10),
        "another hex, with a number token"
    );
    assert_eq!(
        s.refused(
            S0,
            Action::ChaseRobber {
                knight: 24,
                hex: 9,
                victim: None
            }
        ),
        ActionError::InvalidHex { hex: 9 }
    );
    let ev = s.ok(
        S0,
        Action::ChaseRobber {
            knight: 24,
            hex: 15,
            victim: Some(S1),
        },
    );
    assert!(ev.contains(&Event::RobberChased {
        seat: S0,
        knight: 24
    }));
    assert_eq!(s.state.robber, 15);
    assert_eq!(s.hand(S0), GRAIN);
    assert!(!knight(&s, 24).unwrap().active);
    // Not from a knight away from the robber's corners.
    let mut s = position();
    s.barbarians(0, 1).knight(S0, 25, BASIC, true);
    assert!(matches!(
        s.refused(
            S0,
            Action::ChaseRobber {
                knight: 25,
                hex: 15,
                victim: None
            }
        ),
        ActionError::KnightRefused { .. }
    ));
}

#[test]
fn blocking_a_knight_takes_the_node_from_settlements_and_other_knights_even_ones_own() {
    let mut s = position();
    s.road_path(S0, &[24, 30])
        .knight(S0, 30, BASIC, false)
        .give(S0, ResourceCounts::new(1, 1, 1, 1, 0));
    assert_eq!(
        s.refused(S0, Action::BuildSettlement { node: 30 }),
        ActionError::Occupied
    );
    s.give(S0, KNIGHT);
    assert!(matches!(
        s.refused(S0, Action::RecruitKnight { node: 30 }),
        ActionError::KnightRefused { .. }
    ));
}

#[test]
fn blocking_another_colours_knight_stops_roads_at_its_node_and_ones_own_does_not() {
    let mut s = position();
    s.knight(S1, 24, BASIC, false)
        .give(S0, ResourceCounts::new(1, 1, 0, 0, 0));
    assert_eq!(
        s.refused(S0, Action::BuildRoad { edge: edge(24, 30) }),
        ActionError::NotConnected
    );
    let mut s = position();
    s.knight(S0, 24, BASIC, false)
        .give(S0, ResourceCounts::new(1, 1, 0, 0, 0));
    s.ok(S0, Action::BuildRoad { edge: edge(24, 30) });
}

#[test]
fn longest_road_is_re_evaluated_after_a_knight_is_placed_moved_or_removed() {
    let mut s = position();
    // Seat 0: 37-31-25-19-24-30: 5 roads, Longest Road.
    s.road(S0, edge(24, 30));
    assert_eq!(s.state.longest_road, Some(S0));
    // Seat 1 recruits a knight on 19 (at an end of its road 14-19): it
    // breaks seat 0's road, which loses the card.
    s.settlement(S1, 14).road(S1, edge(14, 19));
    s.main_phase(S1).give(S1, KNIGHT);
    let ev = s.ok(S1, Action::RecruitKnight { node: 19 });
    assert!(ev.contains(&Event::LongestRoadChanged {
        from: Some(S0),
        to: None,
        length: 3
    }));
    settle_owed(&mut s, S1);
    s.check();
    // Removed for tokens: the road is whole again.
    let ev = s.ok(S1, Action::RemoveKnight { node: 19 });
    assert!(ev.contains(&Event::LongestRoadChanged {
        from: None,
        to: Some(S0),
        length: 5
    }));
    s.check();
}

#[test]
fn knight_removal_for_tokens_once_a_turn_earns_one_two_or_three_by_level() {
    for (level, tokens) in [(BASIC, 1), (STRONG, 2), (MIGHTY, 3)] {
        let mut s = position();
        s.knight(S0, 25, level, true).knight(S0, 19, BASIC, false);
        let ev = s.ok(S0, Action::RemoveKnight { node: 25 });
        assert!(ev.contains(&Event::KnightRemoved {
            seat: S0,
            node: 25,
            level,
            reason: KnightRemoval::Tokens
        }));
        assert!(ev.contains(&Event::TokensEarned {
            seat: S0,
            tokens,
            reason: TokenReason::Knight
        }));
        assert_eq!(s.ck().tokens.held[0], 5 + tokens);
        assert_eq!(
            s.refused(S0, Action::RemoveKnight { node: 19 }),
            ActionError::KnightAlreadyDiscarded
        );
        s.check();
    }
    // Before the roll too; the supply caps what is earned.
    let mut s = game();
    s.settlement(S0, 37)
        .road_path(S0, &[37, 31, 25])
        .knight(S0, 31, MIGHTY, false)
        .knight(S0, 25, BASIC, false)
        .tokens(S0, 13);
    s.ok(S0, Action::RemoveKnight { node: 31 });
    assert_eq!((s.ck().tokens.held[0], s.ck().tokens.supply), (15, 0));
    // With the supply empty, a removal would earn nothing and is refused.
    s.ck_mut().tokens.knight_discarded = false;
    assert_eq!(
        s.refused(S0, Action::RemoveKnight { node: 25 }),
        ActionError::TokenSupplyEmpty
    );
    // Not the opponent's knight.
    let mut s = position();
    s.knight(S1, 25, BASIC, false);
    assert!(matches!(
        s.refused(S0, Action::RemoveKnight { node: 25 }),
        ActionError::KnightRefused { .. }
    ));
}

// ---- 6.10 Neutral colours ----

#[test]
fn neutral_knight_each_recruited_knight_owes_a_basic_knight_for_a_neutral_of_the_players_choice() {
    let mut s = position();
    s.road(N2, edge(12, 17))
        .road(N3, edge(41, 36))
        .give(S0, KNIGHT);
    s.ok(S0, Action::RecruitKnight { node: 25 });
    assert_eq!(step(&s), Some(Step::NeutralKnight { seat: S0 }));
    assert_eq!(
        legal(&s, S0),
        vec![
            LegalAction::PlaceNeutralKnight {
                neutral: N2,
                nodes: [17u8].into_iter().collect()
            },
            LegalAction::PlaceNeutralKnight {
                neutral: N3,
                nodes: [36u8].into_iter().collect()
            },
        ]
    );
    assert!(matches!(
        s.refused(S0, Action::BuildRoad { edge: edge(24, 30) }),
        ActionError::WrongPhase { .. }
    ));
    let ev = s.ok(
        S0,
        Action::PlaceNeutralKnight {
            neutral: N3,
            node: 36,
        },
    );
    assert!(ev.contains(&Event::KnightPlaced {
        seat: N3,
        node: 36,
        level: BASIC,
        active: false,
        free: true
    }));
    assert_eq!(s.state.phase(), &Phase::Main);
    s.check();
}

#[test]
fn neutral_knight_when_no_neutral_can_take_one_a_neutral_road_is_owed_never_a_settlement() {
    let mut s = position();
    s.give(S0, KNIGHT);
    // The neutrals have no road: no knight site, so a road is owed.
    recruit_owing_a_neutral_road(&mut s, 25);
    // With no neutral road legal either: nothing.
    let mut s = position();
    s.give(S0, KNIGHT);
    for e in [
        edge(12, 7),
        edge(12, 8),
        edge(12, 17),
        edge(41, 36),
        edge(41, 45),
        edge(41, 46),
    ] {
        s.road(S1, e);
    }
    let ev = s.ok(S0, Action::RecruitKnight { node: 25 });
    assert!(ev.contains(&Event::NeutralBuildSkipped {
        seat: S0,
        piece: Piece::Road
    }));
    assert_eq!(s.state.phase(), &Phase::Main);
    s.check();
}

#[test]
fn neutral_supply_two_basic_knights_a_third_recruit_owes_a_road_instead() {
    // One basic knight of seat 2 out: the owed knight goes to its only site.
    let mut s = position();
    s.road(N2, edge(12, 17))
        .knight(N2, 8, BASIC, false)
        .give(S0, KNIGHT);
    s.ok(S0, Action::RecruitKnight { node: 25 });
    assert_eq!(
        knight(&s, 17).map(|k| (k.owner, k.level)),
        Some((N2, BASIC))
    );
    // Both out: seat 2 has a site but no basic knight, so a road is owed.
    let mut s = position();
    s.road(N2, edge(12, 17))
        .knight(N2, 7, BASIC, false)
        .knight(N2, 8, BASIC, false)
        .give(S0, KNIGHT);
    recruit_owing_a_neutral_road(&mut s, 25);
    assert!(knight(&s, 17).is_none());
    s.check();
}

#[test]
fn neutral_promotion_basic_to_strong_owes_one_of_a_neutral_basic_knight_mighty_owes_nothing() {
    let mut s = position();
    s.levels(S0, [0, 3, 0])
        .knight(S0, 25, BASIC, false)
        .knight(N2, 8, BASIC, false)
        .knight(N3, 36, BASIC, false)
        .give(S0, KNIGHT);
    s.ok(S0, Action::PromoteKnight { node: 25 });
    assert_eq!(step(&s), Some(Step::NeutralPromotion { seat: S0 }));
    assert_eq!(
        legal(&s, S0),
        vec![LegalAction::PromoteNeutralKnight {
            nodes: [8u8, 36].into_iter().collect()
        }]
    );
    let ev = s.ok(S0, Action::PromoteNeutralKnight { node: 36 });
    assert!(ev.contains(&Event::KnightPromoted {
        seat: N3,
        node: 36,
        level: STRONG,
        free: true
    }));
    s.check();
    // Next turn, strong → mighty owes nothing.
    let mut s = position();
    s.levels(S0, [0, 3, 0])
        .knight(S0, 25, STRONG, false)
        .knight(N2, 8, BASIC, false)
        .give(S0, KNIGHT);
    s.ok(S0, Action::PromoteKnight { node: 25 });
    assert_eq!(s.state.phase(), &Phase::Main);
    assert_eq!(knight(&s, 8).unwrap().level, BASIC);
}

#[test]
fn neutral_promotion_with_a_single_candidate_is_made_without_asking_and_none_means_nothing() {
    let mut s = position();
    s.knight(S0, 25, BASIC, false)
        .knight(N2, 8, BASIC, false)
        .give(S0, KNIGHT);
    s.ok(S0, Action::PromoteKnight { node: 25 });
    assert_eq!(knight(&s, 8).unwrap().level, STRONG);
    assert_eq!(s.state.phase(), &Phase::Main);
    // No neutral basic knight (or no strong in its supply): nothing owed.
    let mut s = position();
    s.knight(S0, 25, BASIC, false)
        .knight(N2, 8, STRONG, false)
        .knight(N2, 7, STRONG, false)
        .knight(N2, 17, BASIC, false)
        .give(S0, KNIGHT);
    s.ok(S0, Action::PromoteKnight { node: 25 });
    assert_eq!(s.state.phase(), &Phase::Main);
    assert_eq!(knight(&s, 17).unwrap().level, BASIC);
    s.check();
}

#[test]
fn neutral_knights_never_act_or_count_and_are_displaced_by_a_stronger_active_knight() {
    let mut s = position();
    s.road_path(N3, &[41, 36, 30, 24])
        .knight(N3, 24, STRONG, false)
        .knight(S0, 31, MIGHTY, true)
        .city(S1, 7)
        .barbarians(6, 0);
    // A mighty knight may displace the neutral's strong one.
    assert!(legal(&s, S0).contains(&LegalAction::DisplaceKnight {
        moves: vec![KnightMoves {
            from: 31,
            to: [24u8].into_iter().collect()
        }]
    }));
    // At the attack the neutral's knight is no defence: 1 city against 3.
    let mut s2 = s.clone();
    s2.before_roll(S0);
    let ev = roll(&mut s2, S0, [1, 1, SHIP], QUIET_12);
    assert!(ev.contains(&Event::BarbarianAttack {
        strength: 1,
        defence: 3,
        contributions: vec![(S0, 3), (S1, 0)],
    }));
}

#[test]
fn nothing_else_owes_a_neutral_piece() {
    let mut s = position();
    s.road(N2, edge(12, 17))
        .city(S0, 44)
        .knight(S0, 25, BASIC, false)
        .give(S0, ResourceCounts::new(2, 0, 0, 3, 3))
        .give(S0, cards([0, 0, 0, 0, 0, 0, 1, 0]));
    s.ok(S0, Action::BuildCity { node: 37 });
    s.ok(S0, Action::BuildWall { node: 44 });
    s.ok(
        S0,
        Action::BuyImprovement {
            track: Track::Trade,
            crane: false,
        },
    );
    s.ok(S0, Action::ActivateKnight { node: 25 });
    assert_eq!(s.state.phase(), &Phase::Main, "nothing owed");
    assert!(s.ck().knights.iter().all(|k| k.owner.is_real()));
    assert_eq!(s.state.player(N2).roads_left, 14);
}
