//! ck_for_two (RULES.md §6.4, §6.5): the turn, the three dice and their
//! order, progress draws at the gates, the seven and the locked robber.

use crate::common::ck::*;
use crate::common::{S0, S1};
use hexpost_engine::actions::LegalAction;
use hexpost_engine::cards::{ProgressCard, Track};
use hexpost_engine::dice::EventFace;
use hexpost_engine::rulesets::Step;
use hexpost_engine::rulesets::ck_for_two::wire::{ProgressOption, ProgressPlay};
use hexpost_engine::testkit::Scenario;
use hexpost_engine::{Action, ActionError, Event, Phase, ResourceCounts, Seat, Variant};

fn kinds(ev: &[Event]) -> Vec<&'static str> {
    ev.iter()
        .map(|e| match e {
            Event::DiceRolled { .. } => "dice",
            Event::EventDieRolled { .. } => "event die",
            Event::BarbariansAdvanced { .. } => "ship",
            Event::BarbarianAttack { .. } => "attack",
            Event::ProgressDrawn { .. } => "draw",
            Event::Produced { .. } => "produced",
            Event::SecondRollRepeated { .. } => "repeated",
            _ => "other",
        })
        .filter(|k| *k != "other")
        .collect()
}

fn drawn(ev: &[Event]) -> Vec<(Seat, Track, ProgressCard)> {
    ev.iter()
        .filter_map(|e| match e {
            Event::ProgressDrawn {
                seat,
                track,
                card: Some(c),
            } => Some((*seat, *track, *c)),
            _ => None,
        })
        .collect()
}

// ---- 6.4 The turn and the dice ----

#[test]
fn turn_before_the_first_roll_only_the_alchemist_a_token_action_and_a_knight_removal() {
    let mut s = game();
    s.progress(S0, ProgressCard::Alchemist)
        .progress(S0, ProgressCard::Warlord)
        .knight(S0, 31, BASIC, false)
        .give(S0, ResourceCounts::new(1, 1, 1, 1, 3))
        .give(S1, ResourceCounts::new(1, 1, 0, 0, 0))
        .settlement(S0, 37)
        .road_path(S0, &[37, 31]);
    let legal = s.state.legal_actions(S0);
    let types: Vec<String> = legal
        .iter()
        .map(|l| {
            serde_json::to_value(l).unwrap()["type"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(
        types,
        [
            "roll_dice",
            "play_progress",
            "forced_trade_resources",
            "forced_trade",
            "remove_knight"
        ]
    );
    assert!(legal.contains(&LegalAction::PlayProgress {
        play: Box::new(ProgressOption::Alchemist)
    }));
    assert!(matches!(
        s.refused(
            S0,
            Action::PlayProgress {
                play: ProgressPlay::Warlord
            }
        ),
        ActionError::ProgressCardRefused { .. }
    ));
    assert!(matches!(
        s.refused(S0, Action::BuildRoad { edge: 0 }),
        ActionError::WrongPhase { .. }
    ));
    assert!(matches!(
        s.refused(S0, Action::ActivateKnight { node: 31 }),
        ActionError::WrongPhase { .. }
    ));
}

#[test]
fn roll_one_resolves_the_event_die_before_the_number_dice() {
    let mut s = game();
    s.city(S0, 31).levels(S0, [0, 0, 1]);
    let ev = roll(&mut s, S0, [6, 2, SCIENCE], QUIET_2);
    // The gate's draw (red 2 ≤ level 1 + 1) comes before roll 1's production.
    assert_eq!(
        kinds(&ev),
        ["dice", "event die", "draw", "produced", "dice", "event die"]
    );
    assert_eq!(s.ck().player(S0).progress.count, 1);
    s.check();
}

#[test]
fn an_attack_is_resolved_before_that_rolls_number_dice_are_used() {
    let mut s = game();
    s.city(S0, 31).barbarians(6, 0);
    let ev = roll(&mut s, S0, [4, 4, SHIP], QUIET_2);
    assert_eq!(
        kinds(&ev),
        [
            "dice",
            "event die",
            "ship",
            "attack",
            "produced",
            "dice",
            "event die"
        ]
    );
    assert_eq!(
        produced(&ev, S0),
        ResourceCounts::new(0, 0, 0, 0, 1),
        "the city pillaged before the 8 was used yields as a settlement"
    );
}

#[test]
fn roll_two_rethrows_only_the_number_dice_while_they_repeat_roll_one() {
    // Roll 1: 8; roll 2: 8 again (politics gate), re-thrown as 3.
    let mut s = game();
    s.settlement(S0, 31);
    s.rig_dice(&[4, 4, POLITICS, 5, 3, POLITICS, 1, 2]);
    let ev = s.ok(S0, Action::RollDice);
    assert_eq!(
        kinds(&ev),
        [
            "dice",
            "event die",
            "produced",
            "dice",
            "event die",
            "repeated",
            "dice",
            "produced"
        ]
    );
    let faces = ev
        .iter()
        .filter(|e| matches!(e, Event::EventDieRolled { .. }))
        .count();
    assert_eq!(faces, 2, "at most two event-die results a turn");
    assert!(ev.contains(&Event::DiceRolled {
        seat: S0,
        dice: [1, 2],
        total: 3
    }));
    assert_eq!(s.hand(S0), ResourceCounts::new(0, 1, 0, 0, 1));
    assert_eq!(s.state.phase(), &Phase::Main);
}

#[test]
fn each_roll_is_resolved_completely_before_the_next() {
    let mut s = game();
    s.give(S1, ResourceCounts::new(2, 2, 2, 2, 0));
    let ev = roll_first(&mut s, S0, [3, 4, POLITICS]);
    assert_eq!(
        ev.iter()
            .filter(|e| matches!(e, Event::DiceRolled { .. }))
            .count(),
        1,
        "roll 2 waits for the seven's discards"
    );
    assert_eq!(s.state.awaiting().to_vec(), vec![S1]);
    let ev = s.ok(
        S1,
        Action::Discard {
            cards: ResourceCounts::new(2, 2, 0, 0, 0),
        },
    );
    assert!(
        ev.iter().any(|e| matches!(e, Event::EventDieRolled { .. })),
        "roll 2 follows the last discard"
    );
}

#[test]
fn gate_a_player_at_level_l_draws_when_the_red_die_is_at_most_l_plus_1() {
    for level in 0..=5u8 {
        for red in 1..=6u8 {
            let mut s = game();
            s.levels(S0, [0, 0, level]);
            let yellow = if red == 1 { 2 } else { 1 };
            let ev = roll(&mut s, S0, [yellow, red, SCIENCE], QUIET_12);
            let draws = drawn(&ev).len();
            let expected = usize::from(level >= 1 && red <= level + 1);
            assert_eq!(draws, expected, "level {level}, red {red}");
        }
    }
}

#[test]
fn gate_only_the_deck_of_its_colour_deals_and_the_active_player_draws_first() {
    let mut s = game();
    s.levels(S0, [2, 0, 0])
        .levels(S1, [3, 0, 0])
        .deck_top(ProgressCard::Wedding)
        .deck_top(ProgressCard::Merchant)
        .deck_top(ProgressCard::Spy);
    // Trade (yellow) gate, red 3: both draw from the trade deck, seat 0
    // (active) first. The politics deck's top (Spy) is untouched.
    let top_trade = {
        let d = s.ck().decks[Track::Trade.index()].cards.clone().unwrap();
        [d[d.len() - 1], d[d.len() - 2]]
    };
    let ev = roll(&mut s, S0, [1, 3, TRADE], QUIET_12);
    assert_eq!(
        drawn(&ev),
        vec![
            (S0, Track::Trade, top_trade[0]),
            (S1, Track::Trade, top_trade[1])
        ]
    );
    assert_eq!(top_trade[0], ProgressCard::Merchant);
    let politics = s.ck().decks[Track::Politics.index()].cards.clone().unwrap();
    assert_eq!(
        (politics.len(), politics.last()),
        (18, Some(&ProgressCard::Spy))
    );
    assert!(s.ck().holds(S0, ProgressCard::Merchant));
    assert!(s.ck().holds(S1, top_trade[1]));
}

#[test]
fn gate_an_empty_deck_gives_nothing() {
    let mut s = game();
    s.levels(S1, [0, 2, 0]).drain_deck(Track::Politics, S0);
    let ev = roll(&mut s, S0, [2, 1, POLITICS], QUIET_12);
    assert!(drawn(&ev).is_empty());
    assert_eq!(s.ck().player(S1).progress.count, 0);
    s.check();
}

#[test]
fn decision_second_rolls_gate_uses_the_red_die_thrown_with_the_event_die() {
    // Roll 1: 8. Roll 2: 8 again with the green gate and red 3; the
    // re-thrown number dice show red 1. Level 1 draws on red ≤ 2: the red
    // thrown with the event die (3) decides, so nothing is drawn.
    let mut s = game();
    s.levels(S0, [0, 0, 1]);
    s.rig_dice(&[4, 4, POLITICS, 5, 3, SCIENCE, 3, 1]);
    let ev = s.ok(S0, Action::RollDice);
    assert!(drawn(&ev).is_empty(), "{ev:?}");
    // And the other way round: red 2 with the event die, re-thrown red 6.
    let mut s = game();
    s.levels(S0, [0, 0, 1]);
    s.rig_dice(&[4, 4, POLITICS, 6, 2, SCIENCE, 1, 6]);
    let ev = s.ok(S0, Action::RollDice);
    assert_eq!(drawn(&ev).len(), 1);
    assert!(ev.contains(&Event::DiceRolled {
        seat: S0,
        dice: [1, 6],
        total: 7
    }));
}

#[test]
fn decision_alchemist_sets_roll_ones_number_dice_only_and_its_red_die_decides_draws() {
    let mut s = game();
    s.progress(S0, ProgressCard::Alchemist)
        .levels(S0, [0, 0, 1])
        .settlement(S0, 31);
    // The event die (green gate) is still thrown, then roll 2's three dice.
    s.rig_dice(&[SCIENCE, 1, 1, POLITICS]);
    let ev = s.ok(
        S0,
        Action::PlayProgress {
            play: ProgressPlay::Alchemist { yellow: 6, red: 2 },
        },
    );
    assert!(ev.contains(&Event::DiceRolled {
        seat: S0,
        dice: [6, 2],
        total: 8
    }));
    assert!(ev.contains(&Event::EventDieRolled {
        seat: S0,
        face: EventFace::Science
    }));
    assert_eq!(drawn(&ev).len(), 1, "red 2 ≤ level 1 + 1");
    assert!(ev.contains(&Event::DiceRolled {
        seat: S0,
        dice: [1, 1],
        total: 2
    }));
    assert_eq!(
        s.hand(S0),
        ResourceCounts::new(0, 0, 0, 0, 1),
        "the 8 produced"
    );
    assert_eq!(s.state.phase(), &Phase::Main);
    // Only before the first roll.
    let mut s = main_phase();
    s.progress(S0, ProgressCard::Alchemist);
    assert!(matches!(
        s.refused(
            S0,
            Action::PlayProgress {
                play: ProgressPlay::Alchemist { yellow: 1, red: 1 }
            }
        ),
        ActionError::ProgressCardRefused { .. }
    ));
    let mut s = game();
    s.progress(S0, ProgressCard::Alchemist);
    assert!(matches!(
        s.refused(
            S0,
            Action::PlayProgress {
                play: ProgressPlay::Alchemist { yellow: 7, red: 1 }
            }
        ),
        ActionError::ProgressCardRefused { .. }
    ));
}

#[test]
fn an_off_turn_draw_above_four_is_discarded_before_the_number_dice() {
    let mut s = game();
    s.levels(S1, [0, 0, 1]).settlement(S0, 31);
    four_science_cards(&mut s, S1);
    let ev = roll_first(&mut s, S0, [4, 1, SCIENCE]);
    assert_eq!(drawn(&ev).len(), 1);
    assert_eq!(step(&s), Some(Step::ProgressDiscard { seat: S1 }));
    assert_eq!(
        s.hand(S0),
        ResourceCounts::ZERO,
        "the 5 waits for the discard"
    );
    assert_eq!(
        s.state.legal_actions(S1),
        vec![LegalAction::DiscardProgress]
    );
    assert!(s.state.legal_actions(S0).is_empty());
    s.rig_dice(&[1, 1, POLITICS]);
    let ev = s.ok(
        S1,
        Action::DiscardProgress {
            card: ProgressCard::Crane,
        },
    );
    assert!(ev.contains(&Event::ProgressDiscarded {
        seat: S1,
        card: ProgressCard::Crane
    }));
    assert_eq!(s.ck().player(S1).progress.count, 4);
    assert_eq!(
        s.hand(S0),
        ResourceCounts::new(0, 0, 1, 0, 0),
        "then the 5 produced"
    );
    assert_eq!(
        s.ck().decks[Track::Science.index()].cards.as_ref().unwrap()[0],
        ProgressCard::Crane,
        "under its deck"
    );
}

// ---- 6.5 The seven and the robber ----

#[test]
fn seven_each_wall_raises_its_owners_discard_limit_by_two() {
    let mut s = game();
    s.city(S1, 37)
        .wall(37)
        .give(S1, cards([2, 2, 2, 2, 1, 0, 0, 0]));
    let ev = roll(&mut s, S0, [3, 4, POLITICS], QUIET_2);
    assert!(
        !ev.iter()
            .any(|e| matches!(e, Event::DiscardsRequired { .. })),
        "9 cards under a limit of 9"
    );
    let mut s = game();
    s.city(S1, 37)
        .wall(37)
        .give(S1, cards([2, 2, 2, 2, 2, 0, 0, 0]));
    let ev = roll_first(&mut s, S0, [3, 4, POLITICS]);
    assert!(ev.contains(&Event::DiscardsRequired {
        owed: vec![(S1, 5)]
    }));
}

#[test]
fn seven_counts_resources_and_commodities_never_progress_cards() {
    let mut s = game();
    s.give(S1, cards([1, 1, 1, 1, 0, 2, 1, 1]))
        .progress(S1, ProgressCard::Spy)
        .progress(S1, ProgressCard::Bishop);
    let ev = roll_first(&mut s, S0, [3, 4, POLITICS]);
    assert!(ev.contains(&Event::DiscardsRequired {
        owed: vec![(S1, 4)]
    }));
    let mut s = game();
    s.give(S1, cards([1, 1, 1, 1, 0, 2, 1, 0]))
        .progress(S1, ProgressCard::Spy)
        .progress(S1, ProgressCard::Bishop);
    let ev = roll(&mut s, S0, [3, 4, POLITICS], QUIET_2);
    assert!(
        !ev.iter()
            .any(|e| matches!(e, Event::DiscardsRequired { .. }))
    );
}

#[test]
fn robber_locked_until_the_first_attack_a_seven_causes_discards_and_nothing_else() {
    let mut s = game();
    s.settlement(S1, 31)
        .give(S1, cards([0, 0, 1, 0, 0, 0, 0, 0]));
    let desert = s.state.board.desert().unwrap();
    let ev = roll(&mut s, S0, [3, 4, POLITICS], QUIET_2);
    assert!(
        !ev.iter()
            .any(|e| matches!(e, Event::RobberMoved { .. } | Event::Stole { .. }))
    );
    assert_eq!(s.state.robber, desert);
    assert_eq!(s.state.phase(), &Phase::Main);
    assert_eq!(s.hand(S1), cards([0, 0, 1, 0, 0, 0, 0, 0]));
}

#[test]
fn robber_locked_bishop_chasing_and_the_token_robber_are_unavailable() {
    let mut s = main_phase();
    s.progress(S0, ProgressCard::Bishop)
        .knight(S0, 24, STRONG, true)
        .settlement(S0, 19)
        .road_path(S0, &[19, 24]);
    assert_eq!(
        s.refused(
            S0,
            Action::PlayProgress {
                play: ProgressPlay::Bishop {
                    hex: 11,
                    victim: None
                }
            }
        ),
        ActionError::RobberLocked
    );
    assert_eq!(
        s.refused(
            S0,
            Action::ChaseRobber {
                knight: 24,
                hex: 11,
                victim: None
            }
        ),
        ActionError::RobberLocked
    );
    assert_eq!(
        s.refused(S0, Action::RobberToDesert),
        ActionError::RobberMustMove
    );
    let legal = s.state.legal_actions(S0);
    for l in &legal {
        assert!(
            !matches!(
                l,
                LegalAction::ChaseRobber { .. } | LegalAction::RobberToDesert { .. }
            ),
            "{l:?}"
        );
    }
    assert!(!offers(&s, S0, ProgressCard::Bishop));
}

#[test]
fn robber_after_the_first_attack_a_seven_moves_it_and_steals_a_resource_or_commodity() {
    let mut s = game();
    s.barbarians(0, 1)
        .settlement(S1, 31)
        .give(S1, cards([0, 0, 0, 0, 0, 0, 0, 1]));
    roll_first(&mut s, S0, [3, 4, POLITICS]);
    assert_eq!(s.state.phase(), &Phase::MoveRobber { seat: S0 });
    let ev = s.ok(
        S0,
        Action::MoveRobber {
            hex: 11,
            victim: Some(S1),
        },
    );
    let stole = ev
        .iter()
        .find(|e| matches!(e, Event::StoleCommodity { .. }))
        .expect("a commodity stolen");
    use hexpost_engine::Redact;
    assert_eq!(
        stole,
        &Event::StoleCommodity {
            thief: S0,
            victim: S1,
            commodity: Some(hexpost_engine::Commodity::Coin)
        }
    );
    assert_eq!(
        stole.redacted_for(None),
        Event::StoleCommodity {
            thief: S0,
            victim: S1,
            commodity: None
        }
    );
    assert_eq!(s.hand(S0)[hexpost_engine::Commodity::Coin], 1);
}

#[test]
fn the_first_attack_unlocks_the_robber_for_the_same_rolls_seven() {
    let mut s = game();
    s.barbarians(6, 0);
    roll_first(&mut s, S0, [3, 4, SHIP]);
    assert_eq!(s.ck().attacks, 1);
    assert_eq!(s.state.phase(), &Phase::MoveRobber { seat: S0 });
}

#[test]
fn robber_friendly_robber_applies_unchanged() {
    let mut s = Scenario::with_options(Variant::CkForTwo, &[("friendly_robber", "true")]);
    // Seat 1 has 1 visible VP: the hexes its settlement touches are protected.
    s.barbarians(0, 1)
        .settlement(S1, 31)
        .city(S0, 7)
        .settlement(S0, 19);
    roll_first(&mut s, S0, [3, 4, POLITICS]);
    assert_eq!(
        s.refused(
            S0,
            Action::MoveRobber {
                hex: 11,
                victim: None
            }
        ),
        ActionError::FriendlyRobber { hex: 11 }
    );
}
