//! ck_for_two (RULES.md §6.12, §6.16): playing progress cards and their
//! limit, the order in which a roll's decisions are owed and asked, who is
//! awaited, and the `auto` timeout policy's answer to every decision.

use crate::common::ck::*;
use crate::common::{S0, S1};
use hexpost_engine::actions::LegalAction;
use hexpost_engine::cards::{ProgressCard as C, Track};
use hexpost_engine::rulesets::Step;
use hexpost_engine::rulesets::ck_for_two::wire::ProgressPlay as P;
use hexpost_engine::testkit::{Scenario, edge};
use hexpost_engine::{Action, ActionError, Event, Phase, Resource, ResourceCounts, Seat};

// ---- 6.12 Progress cards: general rules ----

#[test]
fn playing_any_number_in_the_main_phase_including_a_card_drawn_this_turn() {
    let mut s = game();
    s.levels(S0, [0, 2, 0])
        .deck_top(C::Warlord)
        .knight(S0, 31, BASIC, false)
        .progress(S0, C::Saboteur)
        .give(S1, ResourceCounts::new(2, 2, 0, 0, 0));
    let ev = roll(&mut s, S0, [1, 2, POLITICS], QUIET_12);
    assert!(ev.contains(&Event::ProgressDrawn {
        seat: S0,
        track: Track::Politics,
        card: Some(C::Warlord)
    }));
    play(&mut s, S0, P::Warlord);
    play(&mut s, S0, P::Saboteur);
    assert_eq!(s.state.awaiting().to_vec(), vec![S1]);
    s.check();
}

#[test]
fn playing_never_on_the_opponents_turn_nor_while_a_decision_is_pending() {
    let mut s = main_phase();
    s.progress(S1, C::Warlord)
        .knight(S1, 17, BASIC, false)
        .give(S0, ResourceCounts::new(1, 0, 0, 0, 0))
        .give(S1, ResourceCounts::new(0, 1, 0, 0, 0));
    assert!(matches!(
        s.refused(S1, Action::PlayProgress { play: P::Warlord }),
        ActionError::NotYourDecision { .. }
    ));
    // Answering a trade offer, seat 1 is awaited, yet may not play.
    s.ok(
        S0,
        Action::OfferTrade {
            give: ResourceCounts::new(1, 0, 0, 0, 0),
            receive: ResourceCounts::new(0, 1, 0, 0, 0),
        },
    );
    assert!(matches!(
        s.refused(S1, Action::PlayProgress { play: P::Warlord }),
        ActionError::WrongPhase { .. }
    ));
    // With a neutral road owed, seat 0 may not play either.
    let mut s = main_phase();
    s.settlement(S0, 37)
        .progress(S0, C::Warlord)
        .knight(S0, 31, BASIC, false)
        .give(S0, ResourceCounts::new(1, 1, 0, 0, 0));
    s.ok(S0, Action::BuildRoad { edge: edge(37, 31) });
    assert!(matches!(step(&s), Some(Step::NeutralBuild { .. })));
    assert!(matches!(
        s.refused(S0, Action::PlayProgress { play: P::Warlord }),
        ActionError::WrongPhase { .. }
    ));
}

#[test]
fn limit_the_active_player_may_hold_more_than_four_but_cannot_end_the_turn_above_it() {
    let mut s = main_phase();
    four_science_cards(&mut s, S0);
    s.progress(S0, C::Spy);
    let legal = s.state.legal_actions(S0);
    assert!(legal.contains(&LegalAction::DiscardProgress));
    assert!(!legal.contains(&LegalAction::EndTurn));
    assert_eq!(
        s.refused(S0, Action::EndTurn),
        ActionError::ProgressLimit { held: 5 }
    );
    assert!(matches!(
        s.refused(S0, Action::DiscardProgress { card: C::Bishop }),
        ActionError::ProgressCardNotHeld { .. }
    ));
    let ev = s.ok(S0, Action::DiscardProgress { card: C::Spy });
    assert!(ev.contains(&Event::ProgressDiscarded {
        seat: S0,
        card: C::Spy
    }));
    assert!(matches!(
        s.refused(S0, Action::DiscardProgress { card: C::Crane }),
        ActionError::InvalidChoice { .. }
    ));
    assert_eq!(
        s.ck().decks[Track::Politics.index()]
            .cards
            .as_ref()
            .unwrap()[0],
        C::Spy,
        "shown, then face down under its deck"
    );
    s.ok(S0, Action::EndTurn);
    s.check();
}

// ---- 6.16 The order within a roll ----

#[test]
fn order_an_attack_then_tied_defenders_then_the_off_turn_discard_then_the_seven_then_the_robber() {
    let mut s = game();
    s.barbarians(6, 0)
        .knight(S0, 24, BASIC, true)
        .knight(S1, 17, BASIC, true)
        .settlement(S1, 31)
        .give(S0, ResourceCounts::new(2, 2, 2, 2, 0))
        .give(S1, ResourceCounts::new(2, 2, 2, 2, 0));
    four_science_cards(&mut s, S1);
    roll_first(&mut s, S0, [3, 4, SHIP]);
    // (1) the attack: tied defenders, active player first.
    assert_eq!(
        step(&s),
        Some(Step::DefenderDraws {
            seats: vec![S0, S1]
        })
    );
    s.ok(
        S0,
        Action::DrawProgress {
            track: Track::Trade,
        },
    );
    s.ok(
        S1,
        Action::DrawProgress {
            track: Track::Trade,
        },
    );
    // ... then the off-turn progress discard.
    assert_eq!(step(&s), Some(Step::ProgressDiscard { seat: S1 }));
    s.ok(S1, Action::DiscardProgress { card: C::Crane });
    // (3) the 7: both discards at once, then the robber (unlocked by the
    // attack just resolved).
    let mut awaited = s.state.awaiting().to_vec();
    awaited.sort();
    assert_eq!(awaited, vec![S0, S1]);
    s.ok(
        S1,
        Action::Discard {
            cards: ResourceCounts::new(2, 2, 0, 0, 0),
        },
    );
    s.ok(
        S0,
        Action::Discard {
            cards: ResourceCounts::new(2, 2, 0, 0, 0),
        },
    );
    assert_eq!(s.state.phase(), &Phase::MoveRobber { seat: S0 });
    let ev = s.ok(
        S0,
        Action::MoveRobber {
            hex: 11,
            victim: Some(S1),
        },
    );
    // Only now roll 2.
    assert!(ev.iter().any(|e| matches!(e, Event::EventDieRolled { .. })));
    s.check();
}

#[test]
fn order_roll_twos_rethrows_come_after_its_event_dies_decisions() {
    let mut s = game();
    s.city(S0, 31).city(S1, 7);
    s.barbarians(6, 0);
    // Roll 1: 8 with a politics gate; roll 2: 8 again with the ship, which
    // attacks: both lose a city first (each has one), then the number dice
    // are re-thrown to a 3.
    s.rig_dice(&[4, 4, POLITICS, 5, 3, SHIP, 1, 2]);
    let ev = s.ok(S0, Action::RollDice);
    let attack = ev
        .iter()
        .position(|e| matches!(e, Event::BarbarianAttack { .. }))
        .unwrap();
    let repeated = ev
        .iter()
        .position(|e| matches!(e, Event::SecondRollRepeated { .. }))
        .unwrap();
    assert!(attack < repeated);
    assert_eq!(s.state.phase(), &Phase::Main);
}

#[test]
fn order_an_aqueduct_pick_blocks_the_next_roll_like_discards() {
    let mut s = game();
    s.levels(S1, [0, 0, 3]);
    let ev = roll_first(&mut s, S0, QUIET_2);
    let rolls = ev
        .iter()
        .filter(|e| matches!(e, Event::DiceRolled { .. }))
        .count();
    assert_eq!(rolls, 1);
    assert_eq!(s.state.awaiting().to_vec(), vec![S1]);
}

#[test]
fn in_the_main_phase_an_effect_that_needs_the_opponent_stops_the_active_player() {
    let mut s = main_phase();
    s.settlement(S1, 31)
        .give(S1, ResourceCounts::new(1, 1, 1, 0, 0))
        .progress(S0, C::Wedding);
    play(&mut s, S0, P::Wedding);
    assert_eq!(s.state.awaiting().to_vec(), vec![S1]);
    assert!(s.state.legal_actions(S0).is_empty());
    assert!(matches!(
        s.refused(S0, Action::EndTurn),
        ActionError::NotYourDecision { .. }
    ));
}

// ---- 6.16 Timeout defaults (policy `auto`) ----

fn timeout(s: &Scenario, seat: Seat) -> Action {
    s.state
        .timeout_decision(seat)
        .unwrap_or_else(|| panic!("no timeout decision in {:?}", s.state.phase()))
}

#[test]
fn timeout_loses_the_eligible_city_with_the_lowest_node() {
    let mut s = game();
    s.city(S0, 44)
        .city(S0, 31)
        .levels(S0, [0, 4, 0])
        .city(S0, 7);
    s.metropolis(Track::Politics, 7);
    s.barbarians(6, 0);
    roll_first(&mut s, S0, [1, 1, SHIP]);
    assert_eq!(timeout(&s, S0), Action::LoseCity { node: 31 });
}

#[test]
fn timeout_draws_science_else_politics_else_trade() {
    let mut s = game();
    s.knight(S0, 24, BASIC, true)
        .knight(S1, 17, BASIC, true)
        .barbarians(6, 0);
    roll_first(&mut s, S0, [1, 1, SHIP]);
    assert_eq!(
        timeout(&s, S0),
        Action::DrawProgress {
            track: Track::Science
        }
    );
    let mut s = game();
    s.knight(S0, 24, BASIC, true)
        .knight(S1, 17, BASIC, true)
        .barbarians(6, 0)
        .drain_deck(Track::Science, S1);
    roll_first(&mut s, S0, [1, 1, SHIP]);
    assert_eq!(
        timeout(&s, S0),
        Action::DrawProgress {
            track: Track::Politics
        }
    );
}

#[test]
fn timeout_discards_and_gives_cards_in_the_order_brick_to_coin() {
    let mut s = main_phase();
    s.settlement(S1, 31)
        .give(S1, cards([0, 1, 0, 0, 0, 1, 0, 1]))
        .progress(S0, C::Wedding);
    play(&mut s, S0, P::Wedding);
    assert_eq!(
        timeout(&s, S1),
        Action::GiveCards {
            cards: cards([0, 1, 0, 0, 0, 1, 0, 0])
        }
    );
    let mut s = main_phase();
    s.give(S0, ResourceCounts::new(1, 0, 0, 0, 0))
        .give(S1, cards([0, 0, 0, 0, 0, 1, 1, 1]))
        .progress(S0, C::CommercialHarbor);
    play(
        &mut s,
        S0,
        P::CommercialHarbor {
            resource: Resource::Brick,
        },
    );
    assert_eq!(
        timeout(&s, S1),
        Action::GiveCards {
            cards: cards([0, 0, 0, 0, 0, 1, 0, 0])
        },
        "commodities only, paper first"
    );
}

#[test]
fn timeout_discards_the_first_progress_card_held() {
    let mut s = game();
    s.levels(S1, [0, 0, 1]);
    s.progress(S1, C::Warlord)
        .progress(S1, C::Spy)
        .progress(S1, C::Merchant)
        .progress(S1, C::Smith);
    roll_first(&mut s, S0, [4, 1, SCIENCE]);
    assert_eq!(step(&s), Some(Step::ProgressDiscard { seat: S1 }));
    let first = s.ck().held_kinds(S1).next().unwrap();
    assert_eq!(timeout(&s, S1), Action::DiscardProgress { card: first });
    assert!(
        first <= C::Smith,
        "kind order: the science cards come first"
    );
    // The active player above the limit at the end of the turn.
    let mut s = main_phase();
    four_science_cards(&mut s, S0);
    s.progress(S0, C::Alchemist);
    assert_eq!(
        timeout(&s, S0),
        Action::DiscardProgress { card: C::Alchemist }
    );
}

#[test]
fn timeout_declines_the_aqueduct() {
    let mut s = game();
    s.levels(S1, [0, 0, 3]);
    roll_first(&mut s, S0, QUIET_2);
    assert_eq!(timeout(&s, S1), Action::AqueductPick { resource: None });
}

#[test]
fn timeout_gives_up_the_weakest_knight_with_the_lowest_node() {
    let mut s = main_phase();
    s.knight(S1, 30, STRONG, false)
        .knight(S1, 24, BASIC, false)
        .knight(S1, 17, BASIC, false)
        .progress(S0, C::Deserter);
    play(
        &mut s,
        S0,
        P::Deserter {
            target: S1,
            node: None,
        },
    );
    assert_eq!(timeout(&s, S1), Action::GiveUpKnight { node: 17 });
}

#[test]
fn timeout_retreats_to_the_lowest_legal_node() {
    let mut s = main_phase();
    s.settlement(S0, 37)
        .road_path(S0, &[37, 31, 25, 19, 24])
        .road_path(S1, &[36, 30, 24])
        .knight(S0, 31, STRONG, true)
        .knight(S1, 24, BASIC, true);
    s.ok(S0, Action::DisplaceKnight { from: 31, to: 24 });
    assert_eq!(timeout(&s, S1), Action::RetreatKnight { node: 30 });
}

#[test]
fn timeout_declines_what_can_be_declined_and_takes_the_first_forced_choice() {
    // The Smith's second knight: none.
    let mut s = main_phase();
    s.knight(S0, 31, BASIC, false)
        .knight(S0, 25, BASIC, false)
        .progress(S0, C::Smith);
    play(&mut s, S0, P::Smith { node: 31 });
    assert_eq!(timeout(&s, S0), Action::SmithPromote { node: None });
    // The Spy's pick: none.
    let mut s = main_phase();
    s.progress(S1, C::Crane).progress(S0, C::Spy);
    play(&mut s, S0, P::Spy);
    assert_eq!(timeout(&s, S0), Action::SpyTake { card: None });
    // The metropolis: the lowest node.
    let mut s = main_phase();
    s.city(S0, 44)
        .city(S0, 31)
        .levels(S0, [3, 0, 0])
        .give(S0, cards([0, 0, 0, 0, 0, 0, 4, 0]));
    s.ok(
        S0,
        Action::BuyImprovement {
            track: Track::Trade,
            crane: false,
        },
    );
    assert_eq!(timeout(&s, S0), Action::PlaceMetropolis { node: 31 });
}
