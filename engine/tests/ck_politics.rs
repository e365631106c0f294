//! ck_for_two (RULES.md §6.13): the 18 Politics (blue) progress cards —
//! each card's effect and each condition under which it cannot be played.

use crate::common::ck::*;
use crate::common::{S0, S1};
use hexpost_engine::actions::LegalAction;
use hexpost_engine::cards::ProgressCard as C;
use hexpost_engine::events::KnightRemoval;
use hexpost_engine::rulesets::Step;
use hexpost_engine::rulesets::ck_for_two::wire::{
    DeserterTarget, ProgressOption, ProgressPlay as P,
};
use hexpost_engine::testkit::{Scenario, edge};
use hexpost_engine::{Action, ActionError, Event, Phase, Redact, ResourceCounts};

fn spent(ev: &[Event], card: C) -> bool {
    ev.contains(&Event::ProgressPlayed { seat: S0, card })
}

// ---- Bishop (2) ----

#[test]
fn bishop_moves_the_robber_to_any_other_hex_the_desert_included_and_steals() {
    let mut s = main_phase();
    s.barbarians(0, 1)
        .robber(11)
        .settlement(S1, 24)
        .give(S1, ResourceCounts::new(0, 1, 0, 0, 0))
        .progress(S0, C::Bishop)
        .progress(S0, C::Bishop);
    let ev = play(
        &mut s,
        S0,
        P::Bishop {
            hex: 9,
            victim: Some(S1),
        },
    );
    assert!(spent(&ev, C::Bishop));
    assert_eq!(s.state.robber, 9, "the desert is allowed");
    assert_eq!(s.hand(S0), ResourceCounts::new(0, 1, 0, 0, 0));
    assert_eq!(
        refused_card(
            &mut s,
            S0,
            P::Bishop {
                hex: 9,
                victim: None
            }
        ),
        ActionError::RobberMustMove
    );
    s.check();
}

#[test]
fn bishop_follows_the_friendly_robber_and_waits_for_the_first_attack() {
    let mut s = Scenario::with_options(
        hexpost_engine::Variant::CkForTwo,
        &[("friendly_robber", "true")],
    );
    s.main_phase(S0)
        .barbarians(0, 1)
        .robber(11)
        .settlement(S1, 24)
        .progress(S0, C::Bishop);
    assert_eq!(
        refused_card(
            &mut s,
            S0,
            P::Bishop {
                hex: 10,
                victim: None
            }
        ),
        ActionError::FriendlyRobber { hex: 10 }
    );
    let mut s = main_phase();
    s.progress(S0, C::Bishop);
    assert!(!offers(&s, S0, C::Bishop));
}

// ---- Constitution (1) ----

#[test]
fn constitution_is_laid_down_when_obtained_even_off_turn() {
    let mut s = game();
    s.levels(S1, [0, 2, 0]).deck_top(C::Constitution);
    let vp = s.state.player(S1).visible_vp;
    let ev = roll(&mut s, S0, [2, 1, POLITICS], QUIET_12);
    assert!(ev.contains(&Event::VictoryCardLaidDown {
        seat: S1,
        card: C::Constitution
    }));
    assert_eq!(s.state.player(S1).visible_vp, vp + 1);
    assert_eq!(s.ck().player(S1).progress.count, 0);
    s.check();
}

// ---- Deserter (2) ----

fn deserter_position() -> Scenario {
    let mut s = main_phase();
    s.settlement(S0, 37)
        .road_path(S0, &[37, 31, 25])
        .progress(S0, C::Deserter);
    s
}

#[test]
fn deserter_the_opponent_gives_up_a_knight_of_their_choice_and_the_player_places_its_like() {
    let mut s = deserter_position();
    s.knight(S1, 17, STRONG, true).knight(S1, 7, BASIC, false);
    assert!(offered(&s, S0).contains(&ProgressOption::Deserter {
        targets: vec![DeserterTarget {
            target: S1,
            nodes: Default::default()
        }]
    }));
    assert!(matches!(
        refused_card(
            &mut s,
            S0,
            P::Deserter {
                target: S1,
                node: Some(17)
            }
        ),
        ActionError::ProgressCardRefused { .. }
    ));
    play(
        &mut s,
        S0,
        P::Deserter {
            target: S1,
            node: None,
        },
    );
    assert_eq!(step(&s), Some(Step::GiveUpKnight { seat: S1, to: S0 }));
    assert_eq!(s.state.awaiting().to_vec(), vec![S1]);
    let ev = s.ok(S1, Action::GiveUpKnight { node: 17 });
    assert!(ev.contains(&Event::KnightRemoved {
        seat: S1,
        node: 17,
        level: STRONG,
        reason: KnightRemoval::Deserter
    }));
    assert_eq!(
        step(&s),
        Some(Step::DeserterKnight {
            seat: S0,
            level: STRONG,
            active: true
        })
    );
    assert_eq!(
        s.state.legal_actions(S0),
        vec![LegalAction::PlaceDeserterKnight {
            nodes: [25u8, 31].into_iter().collect()
        }]
    );
    let ev = s.ok(S0, Action::PlaceDeserterKnight { node: Some(25) });
    assert!(ev.contains(&Event::KnightPlaced {
        seat: S0,
        node: 25,
        level: STRONG,
        active: true,
        free: true
    }));
    // Placed active, it may act this turn; no neutral knight is owed and
    // nobody earns tokens.
    assert!(!s.ck().knight_at(25).unwrap().activated);
    assert_eq!(s.state.phase(), &Phase::Main);
    assert_eq!(s.ck().tokens.held, [5, 5]);
    s.ok(S0, Action::MoveKnight { from: 25, to: 31 });
    s.check();
}

#[test]
fn deserter_a_neutral_loses_its_weakest_knight_the_player_choosing_among_equals() {
    let mut s = deserter_position();
    s.knight(N2, 17, STRONG, false)
        .knight(N2, 8, BASIC, false)
        .knight(N2, 7, BASIC, false);
    assert!(offered(&s, S0).contains(&ProgressOption::Deserter {
        targets: vec![DeserterTarget {
            target: N2,
            nodes: [7u8, 8].into_iter().collect()
        }]
    }));
    assert!(matches!(
        refused_card(
            &mut s,
            S0,
            P::Deserter {
                target: N2,
                node: Some(17)
            }
        ),
        ActionError::ProgressCardRefused { .. }
    ));
    assert!(matches!(
        refused_card(
            &mut s,
            S0,
            P::Deserter {
                target: N2,
                node: None
            }
        ),
        ActionError::ProgressCardRefused { .. }
    ));
    play(
        &mut s,
        S0,
        P::Deserter {
            target: N2,
            node: Some(8),
        },
    );
    assert!(s.ck().knight_at(8).is_none());
    assert_eq!(
        step(&s),
        Some(Step::DeserterKnight {
            seat: S0,
            level: BASIC,
            active: false
        }),
        "from a neutral: inactive"
    );
    s.ok(S0, Action::PlaceDeserterKnight { node: None });
    assert_eq!(s.state.phase(), &Phase::Main);
    s.check();
}

#[test]
fn deserter_places_a_basic_knight_when_the_removed_strength_is_not_in_supply_else_none() {
    let mut s = deserter_position();
    s.levels(S0, [0, 3, 0])
        .knight(S0, 19, MIGHTY, false)
        .knight(S0, 24, MIGHTY, false)
        .knight(S1, 17, MIGHTY, true);
    play(
        &mut s,
        S0,
        P::Deserter {
            target: S1,
            node: None,
        },
    );
    assert_eq!(
        step(&s),
        Some(Step::DeserterKnight {
            seat: S0,
            level: BASIC,
            active: true
        }),
        "the one knight was given up at once; no mighty left in supply"
    );
    let mut s = deserter_position();
    s.knight(S0, 0, BASIC, false)
        .knight(S0, 2, BASIC, false)
        .knight(S0, 47, STRONG, false)
        .knight(S0, 50, STRONG, false)
        .knight(S1, 17, STRONG, false);
    play(
        &mut s,
        S0,
        P::Deserter {
            target: S1,
            node: None,
        },
    );
    assert_eq!(
        s.state.phase(),
        &Phase::Main,
        "no strong, no basic in supply"
    );
    s.check();
}

#[test]
fn deserter_is_not_playable_when_nobody_else_has_a_knight() {
    let mut s = deserter_position();
    s.knight(S0, 31, BASIC, true);
    assert!(!offers(&s, S0, C::Deserter));
    assert!(matches!(
        refused_card(
            &mut s,
            S0,
            P::Deserter {
                target: S1,
                node: None
            }
        ),
        ActionError::ProgressCardRefused { .. }
    ));
}

// ---- Diplomat (2) ----

#[test]
fn diplomat_removes_an_open_road_of_another_colour_back_to_its_supply() {
    let mut s = main_phase();
    s.settlement(S1, 37)
        .road_path(S1, &[37, 31, 25])
        .progress(S0, C::Diplomat);
    let offered_edges = offered(&s, S0)
        .into_iter()
        .find_map(|o| match o {
            ProgressOption::Diplomat { edges } => Some(edges),
            _ => None,
        })
        .unwrap();
    assert!(offered_edges.contains(edge(31, 25)));
    assert!(!offered_edges.contains(edge(37, 31)), "closed at both ends");
    assert!(matches!(
        refused_card(&mut s, S0, P::Diplomat { edge: edge(37, 31) }),
        ActionError::ProgressCardRefused { .. }
    ));
    let ev = play(&mut s, S0, P::Diplomat { edge: edge(31, 25) });
    assert!(ev.contains(&Event::RoadRemoved {
        seat: S1,
        edge: edge(31, 25),
        by: S0
    }));
    assert_eq!(s.state.player(S1).roads_left, 14);
    assert_eq!(s.state.phase(), &Phase::Main, "no neutral road is owed");
    s.check();
}

#[test]
fn diplomat_an_open_end_ignores_other_colours_but_a_knight_of_its_colour_closes_the_road() {
    let mut s = main_phase();
    s.settlement(S1, 37)
        .road_path(S1, &[37, 31])
        .settlement(S0, 25)
        .road(S0, edge(25, 31))
        .progress(S0, C::Diplomat);
    // Seat 0's road at 31 does not close seat 1's road there.
    let mut s2 = s.clone();
    play(&mut s2, S0, P::Diplomat { edge: edge(37, 31) });
    // A knight of the road's colour at 31 closes that end, and removing
    // the road would leave it roadless.
    s.knight(S1, 31, BASIC, false);
    assert!(matches!(
        refused_card(&mut s, S0, P::Diplomat { edge: edge(37, 31) }),
        ActionError::ProgressCardRefused { .. }
    ));
    // Bare at one end, but its removal would leave the knight at the other
    // end without a road of its colour: not open.
    let mut s = main_phase();
    s.road(S1, edge(31, 25))
        .knight(S1, 31, BASIC, false)
        .progress(S0, C::Diplomat);
    assert!(!offers(&s, S0, C::Diplomat));
    assert!(matches!(
        refused_card(&mut s, S0, P::Diplomat { edge: edge(31, 25) }),
        ActionError::ProgressCardRefused { .. }
    ));
    s.road(S1, edge(31, 36));
    play(&mut s, S0, P::Diplomat { edge: edge(31, 25) });
}

#[test]
fn diplomat_ones_own_road_may_be_placed_again_free_or_kept_and_owes_no_neutral_road() {
    let mut s = main_phase();
    s.settlement(S0, 37)
        .road_path(S0, &[37, 31, 25])
        .progress(S0, C::Diplomat)
        .progress(S0, C::Diplomat);
    play(&mut s, S0, P::Diplomat { edge: edge(31, 25) });
    assert_eq!(
        step(&s),
        Some(Step::DiplomatRoad {
            seat: S0,
            removed: edge(31, 25)
        })
    );
    let edges = match s.state.legal_actions(S0).as_slice() {
        [LegalAction::ReplaceRoad { edges }] => *edges,
        other => panic!("{other:?}"),
    };
    assert!(!edges.contains(edge(31, 25)), "another edge");
    assert!(edges.contains(edge(37, 42)));
    let ev = s.ok(
        S0,
        Action::ReplaceRoad {
            edge: Some(edge(37, 42)),
        },
    );
    assert!(ev.contains(&Event::RoadBuilt {
        seat: S0,
        edge: edge(37, 42),
        free: true
    }));
    assert_eq!(s.state.phase(), &Phase::Main, "no neutral road owed");
    assert_eq!(s.state.player(S0).roads_left, 13);
    // Kept in supply instead.
    play(&mut s, S0, P::Diplomat { edge: edge(37, 42) });
    s.ok(S0, Action::ReplaceRoad { edge: None });
    assert_eq!(s.state.player(S0).roads_left, 14);
    s.check();
}

#[test]
fn diplomat_re_evaluates_longest_road() {
    let mut s = main_phase();
    s.settlement(S1, 37)
        .road_path(S1, &[37, 31, 25, 19, 24, 30])
        .progress(S0, C::Diplomat);
    assert_eq!(s.state.longest_road, Some(S1));
    let ev = play(&mut s, S0, P::Diplomat { edge: edge(24, 30) });
    assert!(ev.contains(&Event::LongestRoadChanged {
        from: Some(S1),
        to: None,
        length: 4
    }));
    s.check();
}

// ---- Intrigue (2) ----

#[test]
fn intrigue_displaces_a_knight_at_an_end_of_the_players_roads_without_placing_one() {
    let mut s = main_phase();
    s.settlement(S0, 37)
        .road_path(S0, &[37, 31])
        .road_path(S1, &[36, 31, 25])
        .knight(S1, 31, MIGHTY, true)
        .progress(S0, C::Intrigue);
    assert!(offered(&s, S0).contains(&ProgressOption::Intrigue {
        nodes: [31u8].into_iter().collect()
    }));
    let ev = play(&mut s, S0, P::Intrigue { node: 31 });
    assert!(ev.contains(&Event::KnightDisplaced {
        seat: S0,
        from: None,
        node: 31,
        owner: S1
    }));
    assert_eq!(
        s.state.legal_actions(S1),
        vec![LegalAction::RetreatKnight {
            nodes: [25u8, 36].into_iter().collect()
        }],
        "along seat 1's roads, not back to 31"
    );
    s.ok(S1, Action::RetreatKnight { node: 36 });
    assert!(s.ck().knight_at(31).is_none(), "no knight placed for it");
    assert_eq!(s.ck().knight_at(36).unwrap().level, MIGHTY);
    s.check();
}

#[test]
fn intrigue_reaches_neutral_knights_and_nothing_away_from_the_players_roads() {
    let mut s = main_phase();
    s.settlement(S0, 37)
        .road_path(S0, &[37, 31])
        .knight(N3, 31, BASIC, false)
        .knight(S1, 19, BASIC, false)
        .progress(S0, C::Intrigue);
    assert!(offered(&s, S0).contains(&ProgressOption::Intrigue {
        nodes: [31u8].into_iter().collect()
    }));
    assert!(matches!(
        refused_card(&mut s, S0, P::Intrigue { node: 19 }),
        ActionError::ProgressCardRefused { .. }
    ));
    let ev = play(&mut s, S0, P::Intrigue { node: 31 });
    assert!(ev.contains(&Event::KnightRemoved {
        seat: N3,
        node: 31,
        level: BASIC,
        reason: KnightRemoval::NoRetreat
    }));
}

// ---- Saboteur (2) ----

#[test]
fn saboteur_makes_an_opponent_with_as_many_vp_discard_half_their_cards_of_their_choice() {
    let mut s = main_phase();
    s.give(S1, cards([1, 1, 1, 0, 0, 1, 1, 0]))
        .progress(S0, C::Saboteur);
    let ev = play(&mut s, S0, P::Saboteur);
    assert!(ev.contains(&Event::DiscardsRequired {
        owed: vec![(S1, 2)]
    }));
    assert_eq!(s.state.awaiting().to_vec(), vec![S1]);
    s.ok(
        S1,
        Action::Discard {
            cards: cards([0, 0, 0, 0, 0, 1, 1, 0]),
        },
    );
    assert_eq!(s.hand(S1), ResourceCounts::new(1, 1, 1, 0, 0));
    assert_eq!(s.state.phase(), &Phase::Main);
}

#[test]
fn saboteur_is_not_playable_on_an_opponent_with_fewer_vp_or_nothing_to_halve() {
    let mut s = main_phase();
    s.settlement(S0, 31)
        .give(S1, ResourceCounts::new(2, 2, 0, 0, 0))
        .progress(S0, C::Saboteur);
    assert!(!offers(&s, S0, C::Saboteur));
    assert!(matches!(
        refused_card(&mut s, S0, P::Saboteur),
        ActionError::ProgressCardRefused { .. }
    ));
    let mut s = main_phase();
    s.give(S1, ResourceCounts::new(1, 0, 0, 0, 0))
        .progress(S0, C::Saboteur);
    assert!(!offers(&s, S0, C::Saboteur));
}

// ---- Spy (3) ----

#[test]
fn spy_looks_at_the_opponents_progress_cards_and_takes_one() {
    let mut s = main_phase();
    s.progress(S1, C::Warlord)
        .progress(S1, C::Crane)
        .progress(S0, C::Spy);
    let ev = play(&mut s, S0, P::Spy);
    let shown = ev
        .iter()
        .find(|e| matches!(e, Event::ProgressHandShown { .. }))
        .unwrap();
    let Event::ProgressHandShown {
        cards: Some(cards), ..
    } = shown
    else {
        panic!("{shown:?}")
    };
    assert_eq!((cards[C::Warlord], cards[C::Crane]), (1, 1));
    assert_eq!(
        shown.redacted_for(Some(S1)),
        Event::ProgressHandShown {
            seat: S0,
            of: S1,
            cards: None
        },
        "shown to the player only"
    );
    assert_eq!(step(&s), Some(Step::SpyPick { seat: S0 }));
    assert!(matches!(
        s.refused(
            S0,
            Action::SpyTake {
                card: Some(C::Bishop)
            }
        ),
        ActionError::InvalidChoice { .. }
    ));
    let ev = s.ok(
        S0,
        Action::SpyTake {
            card: Some(C::Warlord),
        },
    );
    assert!(ev.contains(&Event::ProgressTaken {
        seat: S0,
        from: S1,
        card: Some(C::Warlord)
    }));
    assert!(s.ck().holds(S0, C::Warlord) && !s.ck().holds(S1, C::Warlord));
    s.check();
}

#[test]
fn spy_may_take_none_and_is_not_playable_when_the_opponent_holds_no_progress_card() {
    let mut s = main_phase();
    s.progress(S1, C::Crane)
        .progress(S0, C::Spy)
        .progress(S0, C::Spy);
    play(&mut s, S0, P::Spy);
    s.ok(S0, Action::SpyTake { card: None });
    assert!(s.ck().holds(S1, C::Crane));
    let mut s = main_phase();
    s.progress(S0, C::Spy);
    assert!(!offers(&s, S0, C::Spy));
    assert!(matches!(
        refused_card(&mut s, S0, P::Spy),
        ActionError::ProgressCardRefused { .. }
    ));
}

// ---- Warlord (2) ----

#[test]
fn warlord_activates_all_the_players_inactive_knights_free_as_activated_this_turn() {
    let mut s = main_phase();
    s.knight(S0, 31, BASIC, false)
        .knight(S0, 25, STRONG, false)
        .knight(S0, 19, BASIC, true)
        .knight(S1, 17, BASIC, false)
        .progress(S0, C::Warlord);
    let ev = play(&mut s, S0, P::Warlord);
    let activated: Vec<u8> = ev
        .iter()
        .filter_map(|e| match e {
            Event::KnightActivated {
                node, free: true, ..
            } => Some(*node),
            _ => None,
        })
        .collect();
    assert_eq!(activated, [25, 31]);
    let k = s.ck().knight_at(31).unwrap();
    assert!(k.active && k.activated);
    assert!(
        !s.ck().knight_at(17).unwrap().active,
        "the opponent's are untouched"
    );
    assert_eq!(s.hand(S0), ResourceCounts::ZERO);
    let mut s = main_phase();
    s.knight(S0, 31, BASIC, true).progress(S0, C::Warlord);
    assert!(!offers(&s, S0, C::Warlord));
    assert!(matches!(
        refused_card(&mut s, S0, P::Warlord),
        ActionError::ProgressCardRefused { .. }
    ));
}

// ---- Wedding (2) ----

#[test]
fn wedding_an_opponent_with_more_vp_gives_two_cards_of_their_choice() {
    let mut s = main_phase();
    s.settlement(S1, 31)
        .give(S1, cards([1, 0, 0, 0, 2, 0, 0, 1]))
        .progress(S0, C::Wedding);
    play(&mut s, S0, P::Wedding);
    assert_eq!(
        step(&s),
        Some(Step::GiveCards {
            seat: S1,
            to: S0,
            count: 2,
            commodities_only: false
        })
    );
    assert_eq!(
        s.state.legal_actions(S1),
        vec![LegalAction::GiveCards {
            count: 2,
            commodities_only: false
        }]
    );
    let ev = s.ok(
        S1,
        Action::GiveCards {
            cards: cards([1, 0, 0, 0, 0, 0, 0, 1]),
        },
    );
    let given = ev
        .iter()
        .find(|e| matches!(e, Event::CardsGiven { .. }))
        .unwrap();
    assert_eq!(
        given.redacted_for(None),
        Event::CardsGiven {
            seat: S1,
            to: S0,
            cards: None
        }
    );
    assert_eq!(s.hand(S0), cards([1, 0, 0, 0, 0, 0, 0, 1]));
    s.check();
}

#[test]
fn wedding_takes_the_one_card_held_and_is_refused_unless_the_opponent_leads_and_holds_a_card() {
    let mut s = main_phase();
    s.settlement(S1, 31)
        .give(S1, ResourceCounts::new(0, 0, 1, 0, 0))
        .progress(S0, C::Wedding)
        .progress(S0, C::Wedding);
    play(&mut s, S0, P::Wedding);
    assert_eq!(s.hand(S0), ResourceCounts::new(0, 0, 1, 0, 0));
    assert_eq!(s.state.phase(), &Phase::Main, "a single possible answer");
    assert!(!offers(&s, S0, C::Wedding), "they hold nothing now");
    let mut s = main_phase();
    s.give(S1, ResourceCounts::new(0, 0, 1, 0, 0))
        .progress(S0, C::Wedding);
    assert!(matches!(
        refused_card(&mut s, S0, P::Wedding),
        ActionError::ProgressCardRefused { .. }
    ));
}
