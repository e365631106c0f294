//! ck_for_two (RULES.md §6.13): the 18 Science (green) progress cards —
//! each card's effect and each condition under which it cannot be played.

use crate::common::ck::*;
use crate::common::{S0, S1};
use hexpost_engine::actions::LegalAction;
use hexpost_engine::cards::{ProgressCard as C, Track};
use hexpost_engine::phases::Piece;
use hexpost_engine::rulesets::Step;
use hexpost_engine::rulesets::ck_for_two::wire::{
    ImprovementOption, InventorHex, ProgressOption, ProgressPlay as P,
};
use hexpost_engine::testkit::edge;
use hexpost_engine::{Action, ActionError, Event, Phase, ResourceCounts};

fn spent(ev: &[Event], card: C) -> bool {
    ev.contains(&Event::ProgressPlayed { seat: S0, card })
}

// ---- Alchemist (2) ----

#[test]
fn alchemist_may_choose_a_seven() {
    let mut s = game();
    s.progress(S0, C::Alchemist)
        .give(S1, ResourceCounts::new(2, 2, 2, 2, 0));
    s.rig_dice(&[POLITICS]);
    let ev = play(&mut s, S0, P::Alchemist { yellow: 3, red: 4 });
    assert!(spent(&ev, C::Alchemist));
    assert!(ev.contains(&Event::DiscardsRequired {
        owed: vec![(S1, 4)]
    }));
    assert!(!s.ck().holds(S0, C::Alchemist));
    assert_eq!(
        s.ck().decks[Track::Science.index()].cards.as_ref().unwrap()[0],
        C::Alchemist,
        "a played card goes face down under its deck"
    );
}

// ---- Crane (2) ----

#[test]
fn crane_makes_one_improvement_one_commodity_cheaper_and_level_one_free() {
    let mut s = main_phase();
    s.city(S0, 31).progress(S0, C::Crane).progress(S0, C::Crane);
    // Level 1 of politics for nothing.
    let ev = s.ok(
        S0,
        Action::BuyImprovement {
            track: Track::Politics,
            crane: true,
        },
    );
    assert!(spent(&ev, C::Crane));
    assert!(ev.contains(&Event::ImprovementBought {
        seat: S0,
        track: Track::Politics,
        level: 1,
        paid: ResourceCounts::ZERO,
        crane: true
    }));
    // Level 2 of politics for 1 coin, with the second Crane.
    s.give(S0, cards([0, 0, 0, 0, 0, 0, 0, 1]));
    assert_eq!(
        s.state
            .legal_actions(S0)
            .into_iter()
            .find_map(|l| match l {
                LegalAction::BuyImprovement { options } => Some(options),
                _ => None,
            })
            .unwrap()
            .into_iter()
            .filter(|o| o.track == Track::Politics)
            .collect::<Vec<_>>(),
        vec![ImprovementOption {
            track: Track::Politics,
            level: 2,
            crane: true
        }],
        "only with the Crane is level 2 affordable"
    );
    s.ok(
        S0,
        Action::BuyImprovement {
            track: Track::Politics,
            crane: true,
        },
    );
    assert_eq!(s.hand(S0), ResourceCounts::ZERO);
    assert_eq!(s.ck().player(S0).levels, [0, 2, 0]);
    // No Crane left: refused.
    assert_eq!(
        s.refused(
            S0,
            Action::BuyImprovement {
                track: Track::Science,
                crane: true
            }
        ),
        ActionError::ProgressCardNotHeld { card: C::Crane }
    );
    s.check();
}

// ---- Engineer (1) ----

#[test]
fn engineer_builds_a_city_wall_free_under_the_wall_rules() {
    let mut s = main_phase();
    s.city(S0, 31).settlement(S0, 44).progress(S0, C::Engineer);
    assert!(matches!(
        refused_card(&mut s, S0, P::Engineer { node: 44 }),
        ActionError::WallRefused { .. }
    ));
    let ev = play(&mut s, S0, P::Engineer { node: 31 });
    assert!(spent(&ev, C::Engineer));
    assert!(ev.contains(&Event::WallBuilt {
        seat: S0,
        node: 31,
        free: true
    }));
    assert!(s.ck().walls.contains(31));
    s.check();
}

#[test]
fn engineer_is_not_playable_without_a_city_that_can_take_a_wall() {
    let mut s = main_phase();
    s.city(S0, 31).wall(31).progress(S0, C::Engineer);
    assert!(!offers(&s, S0, C::Engineer));
    assert!(matches!(
        refused_card(&mut s, S0, P::Engineer { node: 31 }),
        ActionError::WallRefused { .. }
    ));
}

// ---- Inventor (2) ----

#[test]
fn inventor_swaps_two_different_tokens_among_3_4_5_9_10_11_and_the_robber_stays() {
    let mut s = main_phase();
    s.progress(S0, C::Inventor);
    let offered = offered(&s, S0);
    let hexes = offered
        .iter()
        .find_map(|o| match o {
            ProgressOption::Inventor { hexes } => Some(hexes.clone()),
            _ => None,
        })
        .unwrap();
    let numbers: Vec<u8> = hexes.iter().map(|h| h.number).collect();
    assert!(numbers.iter().all(|n| [3, 4, 5, 9, 10, 11].contains(n)));
    assert_eq!(hexes.len(), 12, "on the beginner board");
    assert!(hexes.contains(&InventorHex { hex: 10, number: 3 }));
    // Hex 4 holds a 6, hex 1 a 2: neither may move.
    assert!(matches!(
        refused_card(&mut s, S0, P::Inventor { hexes: [4, 10] }),
        ActionError::ProgressCardRefused { .. }
    ));
    // Hexes 10 and 13 both hold a 3.
    assert!(matches!(
        refused_card(&mut s, S0, P::Inventor { hexes: [10, 13] }),
        ActionError::ProgressCardRefused { .. }
    ));
    assert!(matches!(
        refused_card(&mut s, S0, P::Inventor { hexes: [10, 10] }),
        ActionError::ProgressCardRefused { .. }
    ));
    let robber = s.state.robber;
    let ev = play(&mut s, S0, P::Inventor { hexes: [10, 6] });
    assert!(ev.contains(&Event::NumberTokensSwapped {
        seat: S0,
        hexes: vec![10, 6]
    }));
    assert_eq!(s.state.board.tiles[10].number, Some(10));
    assert_eq!(s.state.board.tiles[6].number, Some(3));
    assert_eq!(s.state.robber, robber);
    s.check();
}

// ---- Irrigation (2), Mining (2) ----

#[test]
fn irrigation_takes_two_grain_per_fields_hex_touching_the_players_buildings_each_once() {
    let mut s = main_phase();
    // Node 22 touches fields 12 (hex 3), fields 9 (hex 7) and forest 11;
    // a city on node 17 touches fields 12 again: counted once.
    s.city(S0, 22).city(S0, 17).progress(S0, C::Irrigation);
    let ev = play(&mut s, S0, P::Irrigation);
    assert!(spent(&ev, C::Irrigation));
    assert!(ev.contains(&Event::Harvested {
        seat: S0,
        resources: ResourceCounts::new(0, 0, 0, 4, 0)
    }));
    assert_eq!(s.hand(S0), ResourceCounts::new(0, 0, 0, 4, 0));
    s.check();
}

#[test]
fn irrigation_ignores_the_robber_takes_what_the_bank_has_and_is_refused_when_it_gives_nothing() {
    let mut s = main_phase();
    s.settlement(S0, 22)
        .barbarians(0, 1)
        .robber(3)
        .give(S1, ResourceCounts::new(0, 0, 0, 16, 0))
        .progress(S0, C::Irrigation);
    play(&mut s, S0, P::Irrigation);
    assert_eq!(
        s.hand(S0),
        ResourceCounts::new(0, 0, 0, 3, 0),
        "what was left"
    );
    let mut s = main_phase();
    s.settlement(S0, 31).progress(S0, C::Irrigation);
    assert!(!offers(&s, S0, C::Irrigation));
    assert!(matches!(
        refused_card(&mut s, S0, P::Irrigation),
        ActionError::ProgressCardRefused { .. }
    ));
    let mut s = main_phase();
    s.settlement(S0, 22)
        .give(S1, ResourceCounts::new(0, 0, 0, 19, 0))
        .progress(S0, C::Irrigation);
    assert_eq!(
        refused_card(&mut s, S0, P::Irrigation),
        ActionError::BankShortage {
            resource: hexpost_engine::Resource::Grain
        }
    );
}

#[test]
fn mining_takes_two_ore_per_mountains_hex_touching_the_players_buildings() {
    let mut s = main_phase();
    // Node 31 touches mountains 8; node 34 mountains 3.
    s.settlement(S0, 31)
        .settlement(S0, 34)
        .progress(S0, C::Mining);
    let ev = play(&mut s, S0, P::Mining);
    assert!(ev.contains(&Event::Harvested {
        seat: S0,
        resources: ResourceCounts::new(0, 0, 0, 0, 4)
    }));
    let mut s = main_phase();
    s.settlement(S0, 22).progress(S0, C::Mining);
    assert!(!offers(&s, S0, C::Mining));
    assert!(matches!(
        refused_card(&mut s, S0, P::Mining),
        ActionError::ProgressCardRefused { .. }
    ));
}

// ---- Medicine (2) ----

#[test]
fn medicine_upgrades_a_settlement_to_a_city_for_two_ore_and_one_grain() {
    let mut s = main_phase();
    s.settlement(S0, 31)
        .give(S0, ResourceCounts::new(0, 0, 0, 1, 2))
        .progress(S0, C::Medicine);
    let ev = play(&mut s, S0, P::Medicine { node: 31 });
    assert!(spent(&ev, C::Medicine));
    assert!(ev.contains(&Event::CityBuilt { seat: S0, node: 31 }));
    assert_eq!(s.hand(S0), ResourceCounts::ZERO);
    s.check();
}

#[test]
fn medicine_needs_the_price_a_settlement_and_a_city_piece_unless_the_settlement_is_tipped() {
    let mut s = main_phase();
    s.settlement(S0, 31)
        .give(S0, ResourceCounts::new(0, 0, 0, 1, 1))
        .progress(S0, C::Medicine);
    assert!(!offers(&s, S0, C::Medicine));
    assert!(matches!(
        refused_card(&mut s, S0, P::Medicine { node: 31 }),
        ActionError::CannotAfford { .. }
    ));
    s.give(S0, ResourceCounts::new(0, 0, 0, 0, 1));
    assert_eq!(
        refused_card(&mut s, S0, P::Medicine { node: 44 }),
        ActionError::NotYourSettlement
    );
    for n in [7, 19, 44, 2] {
        s.city(S0, n);
    }
    assert_eq!(s.state.player(S0).cities_left, 0);
    assert_eq!(
        refused_card(&mut s, S0, P::Medicine { node: 31 }),
        ActionError::NoPiecesLeft { piece: "city" }
    );
}

// ---- Printer (1), and Constitution with it ----

#[test]
fn printer_is_laid_down_when_drawn_one_vp_never_held_never_counted_toward_the_limit() {
    let mut s = game();
    s.levels(S1, [0, 0, 2]).deck_top(C::Printer);
    four_science_cards(&mut s, S1);
    let vp = s.state.player(S1).visible_vp;
    let ev = roll(&mut s, S0, [2, 1, SCIENCE], QUIET_12);
    assert!(ev.contains(&Event::VictoryCardLaidDown {
        seat: S1,
        card: C::Printer
    }));
    assert_eq!(s.state.player(S1).visible_vp, vp + 1);
    assert_eq!(s.ck().player(S1).laid_down[C::Printer], 1);
    assert!(!s.ck().holds(S1, C::Printer));
    assert_eq!(s.ck().player(S1).progress.count, 4);
    assert_eq!(s.state.phase(), &Phase::Main, "no discard owed for it");
    s.check();
}

// ---- Road Building (2) ----

#[test]
fn road_building_places_two_free_roads_each_owing_a_neutral_road_for_either_neutral() {
    let mut s = main_phase();
    s.settlement(S0, 37).progress(S0, C::RoadBuilding);
    let ev = play(&mut s, S0, P::RoadBuilding);
    assert!(spent(&ev, C::RoadBuilding));
    assert_eq!(
        s.state.phase(),
        &Phase::RoadBuilding {
            seat: S0,
            remaining: 2
        }
    );
    s.ok(S0, Action::BuildRoad { edge: edge(37, 31) });
    assert_eq!(
        step(&s),
        Some(Step::NeutralBuild {
            seat: S0,
            piece: Piece::Road
        })
    );
    s.ok(
        S0,
        Action::BuildNeutralRoad {
            neutral: N2,
            edge: edge(12, 17),
        },
    );
    s.ok(S0, Action::BuildRoad { edge: edge(31, 25) });
    s.ok(
        S0,
        Action::BuildNeutralRoad {
            neutral: N3,
            edge: edge(41, 36),
        },
    );
    assert_eq!(s.state.phase(), &Phase::Main);
    assert_eq!(s.state.player(S0).roads_left, 13);
    assert_eq!(s.hand(S0), ResourceCounts::ZERO, "the roads were free");
    s.check();
}

#[test]
fn road_building_with_one_road_left_places_one_and_without_a_legal_edge_cannot_be_played() {
    let mut s = main_phase();
    s.settlement(S0, 37).progress(S0, C::RoadBuilding);
    s.road_path(
        S0,
        &[0, 3, 7, 11, 16, 21, 27, 33, 38, 43, 47, 51, 48, 52, 49],
    );
    assert_eq!(s.state.player(S0).roads_left, 1);
    play(&mut s, S0, P::RoadBuilding);
    assert_eq!(
        s.state.phase(),
        &Phase::RoadBuilding {
            seat: S0,
            remaining: 1
        }
    );
    let mut s = main_phase();
    s.progress(S0, C::RoadBuilding);
    assert!(!offers(&s, S0, C::RoadBuilding));
    assert!(matches!(
        refused_card(&mut s, S0, P::RoadBuilding),
        ActionError::ProgressCardRefused { .. }
    ));
}

// ---- Smith (2) ----

#[test]
fn smith_promotes_up_to_two_different_knights_free_each_basic_one_owing_a_neutral_promotion() {
    let mut s = main_phase();
    s.knight(S0, 31, BASIC, false)
        .knight(S0, 25, BASIC, true)
        .knight(N2, 8, BASIC, false)
        .knight(N3, 36, BASIC, false)
        .progress(S0, C::Smith);
    assert!(offered(&s, S0).contains(&ProgressOption::Smith {
        nodes: [25u8, 31].into_iter().collect()
    }));
    let ev = play(&mut s, S0, P::Smith { node: 31 });
    assert!(spent(&ev, C::Smith));
    assert!(ev.contains(&Event::KnightPromoted {
        seat: S0,
        node: 31,
        level: STRONG,
        free: true
    }));
    // The neutral promotion first, then the second knight.
    assert_eq!(step(&s), Some(Step::NeutralPromotion { seat: S0 }));
    s.ok(S0, Action::PromoteNeutralKnight { node: 8 });
    assert_eq!(step(&s), Some(Step::SmithSecond { seat: S0 }));
    assert_eq!(
        s.state.legal_actions(S0),
        vec![LegalAction::SmithPromote {
            nodes: [25u8].into_iter().collect()
        }],
        "a different knight"
    );
    s.ok(S0, Action::SmithPromote { node: Some(25) });
    // The second basic → strong owes one more: seat 3's is the only one.
    assert_eq!(s.ck().knight_at(36).unwrap().level, STRONG);
    assert_eq!(s.ck().knight_at(25).unwrap().level, STRONG);
    assert_eq!(s.state.phase(), &Phase::Main);
    assert_eq!(s.hand(S0), ResourceCounts::ZERO, "free");
    s.check();
}

#[test]
fn smith_the_second_knight_may_be_declined_and_no_knight_to_promote_refuses_the_card() {
    let mut s = main_phase();
    s.knight(S0, 31, BASIC, false)
        .knight(S0, 25, BASIC, true)
        .progress(S0, C::Smith);
    play(&mut s, S0, P::Smith { node: 31 });
    s.ok(S0, Action::SmithPromote { node: None });
    assert_eq!(s.ck().knight_at(25).unwrap().level, BASIC);
    assert_eq!(s.state.phase(), &Phase::Main);
    let mut s = main_phase();
    s.knight(S0, 31, STRONG, false).progress(S0, C::Smith);
    assert!(
        !offers(&s, S0, C::Smith),
        "strong → mighty needs the Fortress"
    );
    assert!(matches!(
        refused_card(&mut s, S0, P::Smith { node: 31 }),
        ActionError::KnightRefused { .. }
    ));
}
