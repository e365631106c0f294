//! ck_for_two (RULES.md §6.1–§6.3): components and supply, set-up with a
//! city, and production with commodities. One scenario per rule.

use crate::common::ck::*;
use crate::common::{S0, S1};
use hexpost_engine::cards::{Card, ProgressCard, Track};
use hexpost_engine::dice::EventFace;
use hexpost_engine::events::TokenReason;
use hexpost_engine::phases::Piece;
use hexpost_engine::rng::GameRng;
use hexpost_engine::rulesets::ck_for_two::CARD_SUPPLY;
use hexpost_engine::testkit::{Scenario, edge};
use hexpost_engine::{
    Action, ActionError, Event, GameConfig, GameState, LegalAction, Phase, ResourceCounts, Seat,
    Variant,
};

fn new_game(seed: u64) -> GameState {
    let mut c = GameConfig::new(Variant::CkForTwo);
    c.options.board = Some(hexpost_engine::board::LayoutKind::Beginner);
    GameState::new(&c, seed).unwrap().0
}

// ---- 6.1 Components and supply ----

#[test]
fn components_the_bank_holds_19_of_each_resource_and_12_of_each_commodity() {
    let s = new_game(1);
    assert_eq!(s.bank, cards([19, 19, 19, 19, 19, 12, 12, 12]));
    assert_eq!(CARD_SUPPLY.total(), 95 + 36);
    assert_eq!(s.rules.vp_target, 13, "13 VP to win (6.15)");
}

#[test]
fn components_three_progress_decks_of_18_each_shuffled_on_its_own() {
    let decks = |seed| {
        let s = Scenario {
            state: new_game(seed),
        };
        s.ck().decks.clone()
    };
    let a = decks(1);
    for track in Track::ALL {
        let d = &a[track.index()];
        assert_eq!(d.size, 18);
        let cards = d.cards.as_ref().unwrap();
        assert_eq!(cards.len(), 18);
        for card in ProgressCard::ALL.iter().filter(|c| c.track() == track) {
            let n = cards.iter().filter(|c| *c == card).count();
            assert_eq!(n, card.copies() as usize, "{card}");
        }
    }
    // Counts of RULES.md §6.13.
    use ProgressCard::*;
    for (card, n) in [
        (Alchemist, 2),
        (Engineer, 1),
        (Printer, 1),
        (Constitution, 1),
        (Spy, 3),
        (Merchant, 6),
        (ResourceMonopoly, 4),
        (TradeMonopoly, 2),
    ] {
        assert_eq!(card.copies(), n, "{card}");
    }
    let b = decks(2);
    assert!(
        Track::ALL
            .iter()
            .all(|t| a[t.index()].cards != b[t.index()].cards),
        "each deck is shuffled with the game's generator"
    );
}

#[test]
fn components_development_cards_and_largest_army_are_not_used() {
    let mut s = main_phase();
    s.give(S0, ResourceCounts::new(0, 0, 1, 1, 1));
    assert!(matches!(
        s.refused(S0, Action::BuyDevelopmentCard),
        ActionError::NotInVariant { .. }
    ));
    assert!(matches!(
        s.refused(
            S0,
            Action::PlayKnight {
                hex: 0,
                victim: None
            }
        ),
        ActionError::NotInVariant { .. }
    ));
    assert!(matches!(
        s.refused(S0, Action::DiscardKnight),
        ActionError::NotInVariant { .. }
    ));
    assert!(s.state.dev.is_none());
    let view = s.state.view(Some(S0));
    assert_eq!((view.dev_deck_remaining, view.largest_army), (0, None));
    assert!(
        !s.state
            .legal_actions(S0)
            .contains(&LegalAction::BuyDevelopmentCard)
    );
}

#[test]
fn components_the_event_die_has_three_ship_faces_and_one_gate_of_each_colour() {
    for seed in 0..200 {
        let mut a = GameRng::from_seed(seed);
        let mut b = a.clone();
        let face = EventFace::throw(&mut a);
        let expected = match b.die() {
            1..=3 => EventFace::Ship,
            4 => EventFace::Politics,
            5 => EventFace::Science,
            _ => EventFace::Trade,
        };
        assert_eq!(face, expected);
    }
    assert_eq!(EventFace::Trade.gate(), Some(Track::Trade));
    assert_eq!(EventFace::Ship.gate(), None);
}

#[test]
fn components_balanced_dice_draw_the_number_pair_and_the_event_die_stays_fair() {
    let mut s = Scenario::with_options(Variant::CkForTwo, &[("balanced_dice", "true")]);
    let before = match &s.state.dice {
        hexpost_engine::dice::Dice::Balanced { remaining } => remaining.len(),
        _ => panic!("balanced"),
    };
    let ev = s.ok(S0, Action::RollDice);
    let after = match &s.state.dice {
        hexpost_engine::dice::Dice::Balanced { remaining } => remaining.len(),
        _ => panic!("balanced"),
    };
    let rolls = ev
        .iter()
        .filter(|e| matches!(e, Event::DiceRolled { .. }))
        .count();
    let faces = ev
        .iter()
        .filter(|e| matches!(e, Event::EventDieRolled { .. }))
        .count();
    assert_eq!(faces, 2, "one event die per roll");
    assert_eq!(
        before - after,
        rolls,
        "each pair of number dice is one card of the deck"
    );
}

// ---- 6.2 Set-up ----

fn in_setup() -> Scenario {
    Scenario::in_setup(Variant::CkForTwo)
}

#[test]
fn set_up_neutrals_start_on_the_fixed_spots_with_no_road_no_knight_and_five_tokens_each() {
    let s = in_setup();
    for (seat, node) in [(N2, 12u8), (N3, 41)] {
        assert_eq!(s.state.building_at(node).unwrap().owner, seat);
        assert_eq!(s.state.player(seat).roads_left, 15);
    }
    assert!(s.ck().knights.is_empty());
    assert_eq!(s.ck().tokens.held, [5, 5]);
    assert_eq!(s.ck().tokens.supply, 10);
    assert_eq!(
        Some(s.state.robber),
        s.state.board.desert(),
        "robber on the desert"
    );
}

#[test]
fn set_up_is_a_settlement_round_then_a_city_round_in_snake_order() {
    let s = in_setup();
    let order: Vec<(u8, Piece, bool)> = s
        .state
        .setup
        .steps
        .iter()
        .map(|st| (st.seat.0, st.piece, st.yields))
        .collect();
    use Piece::*;
    assert_eq!(
        order,
        vec![
            (0, Settlement, false),
            (0, Road, false),
            (1, Settlement, false),
            (1, Road, false),
            (1, City, true),
            (1, Road, false),
            (0, City, true),
            (0, Road, false),
        ]
    );
}

/// Plays the set-up: seat 0 settles on `a`, seat 1 on `b`, then seat 1's
/// city on `c` and seat 0's on `d`, each with the first road listed.
fn play_setup(s: &mut Scenario, spots: [u8; 4]) -> Vec<Event> {
    let mut all = Vec::new();
    for (seat, node, city) in [
        (S0, spots[0], false),
        (S1, spots[1], false),
        (S1, spots[2], true),
        (S0, spots[3], true),
    ] {
        let build = if city {
            Action::BuildCity { node }
        } else {
            Action::BuildSettlement { node }
        };
        all.extend(s.ok(seat, build));
        let Some(LegalAction::BuildRoad { edges, .. }) = s.state.legal_actions(seat).pop() else {
            panic!("a set-up road");
        };
        all.extend(s.ok(
            seat,
            Action::BuildRoad {
                edge: edges.nth(0).unwrap(),
            },
        ));
    }
    all
}

#[test]
fn set_up_city_yields_one_resource_per_producing_hex_never_two_never_a_commodity() {
    let mut s = in_setup();
    // Seat 1's city on node 31: forest 3, mountains 8, pasture 5.
    let ev = play_setup(&mut s, [44, 28, 31, 19]);
    assert!(ev.contains(&Event::StartingResources {
        seat: S1,
        resources: ResourceCounts::new(0, 1, 1, 0, 1),
    }));
    assert_eq!(s.hand(S1), ResourceCounts::new(0, 1, 1, 0, 1));
    assert_eq!(s.state.player(S1).cities_left, 3);
    assert_eq!(s.state.player(S1).visible_vp, 3, "a settlement and a city");
    assert!(s.state.phase() == &Phase::BeforeRoll && s.state.active == S0);
    s.check();
}

#[test]
fn set_up_city_obeys_the_distance_rule_and_cannot_be_a_settlement() {
    let mut s = in_setup();
    s.ok(S0, Action::BuildSettlement { node: 44 });
    s.ok(S0, Action::BuildRoad { edge: edge(44, 40) });
    s.ok(S1, Action::BuildSettlement { node: 28 });
    s.ok(S1, Action::BuildRoad { edge: edge(28, 33) });
    assert_eq!(
        s.refused(S1, Action::BuildCity { node: 40 }),
        ActionError::DistanceRule
    );
    assert!(matches!(
        s.refused(S1, Action::BuildSettlement { node: 31 }),
        ActionError::WrongPhase {
            phase: "set-up: place a city",
            ..
        }
    ));
    match s.state.legal_actions(S1).as_slice() {
        [LegalAction::BuildCity { nodes }] => assert!(nodes.contains(31) && !nodes.contains(40)),
        other => panic!("{other:?}"),
    }
    s.ok(S1, Action::BuildCity { node: 31 });
}

#[test]
fn set_up_settlement_and_city_each_earn_desert_and_coast_tokens() {
    let mut s = in_setup();
    // Seat 0: settlement on coastal node 37 (+1), city on node 24 beside
    // the desert (+2). Seat 1: nothing on the coast or the desert.
    let ev = play_setup(&mut s, [37, 28, 44, 24]);
    let earned: Vec<(Seat, u8, TokenReason)> = ev
        .iter()
        .filter_map(|e| match e {
            Event::TokensEarned {
                seat,
                tokens,
                reason,
            } => Some((*seat, *tokens, *reason)),
            _ => None,
        })
        .collect();
    assert_eq!(
        earned,
        vec![(S0, 1, TokenReason::Coast), (S0, 2, TokenReason::Desert)]
    );
    assert_eq!(s.ck().tokens.held, [8, 5]);
    assert_eq!(s.ck().tokens.supply, 7);
}

#[test]
fn set_up_owes_no_neutral_piece() {
    let mut s = in_setup();
    let ev = play_setup(&mut s, [44, 28, 31, 19]);
    assert!(
        !ev.iter()
            .any(|e| matches!(e, Event::NeutralBuildSkipped { .. })),
        "nothing owed, so nothing skipped"
    );
    for n in [N2, N3] {
        assert_eq!(s.state.player(n).roads_left, 15);
    }
    assert_eq!(s.state.phase(), &Phase::BeforeRoll);
}

// ---- 6.3 Production ----

#[test]
fn production_a_city_yields_its_resource_and_the_terrains_commodity() {
    let mut s = game();
    // Node 31: forest 3, mountains 8, pasture 5.
    s.city(S0, 31);
    let ev = roll(&mut s, S0, [4, 4, POLITICS], QUIET_2);
    assert_eq!(
        produced(&ev, S0),
        cards([0, 0, 0, 0, 1, 0, 0, 1]),
        "8: ore and coin"
    );
    let mut s = game();
    s.city(S0, 31);
    let ev = roll(&mut s, S0, [1, 2, POLITICS], [2, 3, POLITICS]);
    assert_eq!(
        produced(&ev, S0),
        cards([0, 1, 1, 0, 0, 1, 1, 0]),
        "3: lumber and paper; 5: wool and cloth"
    );
}

#[test]
fn production_a_city_on_hills_or_fields_yields_two_resources() {
    let mut s = game();
    // Node 44: mountains 3, hills 5, fields 6.
    s.city(S0, 44);
    let ev = roll(&mut s, S0, [2, 3, POLITICS], [3, 3, POLITICS]);
    assert_eq!(produced(&ev, S0), cards([2, 0, 0, 2, 0, 0, 0, 0]));
}

#[test]
fn production_a_settlement_yields_one_resource() {
    let mut s = game();
    s.settlement(S1, 31);
    let ev = roll(&mut s, S0, [4, 4, POLITICS], [2, 3, POLITICS]);
    assert_eq!(produced(&ev, S1), cards([0, 0, 1, 0, 1, 0, 0, 0]));
}

#[test]
fn production_the_robbers_hex_yields_nothing() {
    let mut s = game();
    s.city(S0, 31).barbarians(0, 1).robber(11);
    let ev = roll(&mut s, S0, [4, 4, POLITICS], [1, 2, POLITICS]);
    assert_eq!(
        produced(&ev, S0),
        cards([0, 1, 0, 0, 0, 1, 0, 0]),
        "the mountains 8 under the robber gave nothing; the forest 3 did"
    );
}

#[test]
fn production_neutrals_never_receive_cards() {
    let mut s = game();
    // Neutral seat 2 stands on node 12: mountains 10, fields 12, hills 6.
    let ev = roll(&mut s, S0, [5, 5, POLITICS], [3, 3, POLITICS]);
    assert!(s.hand(N2).is_empty());
    assert!(
        ev.iter()
            .all(|e| !matches!(e, Event::Produced { seat, .. } if *seat == N2))
    );
}

#[test]
fn production_bank_shortage_applies_to_each_commodity_on_its_own() {
    let mut s = game();
    s.city(S0, 31).city(S1, 37);
    // Leave one coin in the bank: both are owed one on an 8.
    s.give(S0, cards([0, 0, 0, 0, 0, 0, 0, 11]));
    let ev = roll(&mut s, S0, [4, 4, POLITICS], QUIET_2);
    assert!(ev.contains(&Event::CommodityWithheld {
        commodity: hexpost_engine::Commodity::Coin
    }));
    assert_eq!(produced(&ev, S0), ResourceCounts::new(0, 0, 0, 0, 1));
    assert_eq!(produced(&ev, S1), ResourceCounts::new(0, 0, 0, 0, 1));
    assert_eq!(s.state.bank[Card::Coin], 1);
    // Only one owed: the one left goes to them.
    let mut s = game();
    s.city(S0, 31).give(S1, cards([0, 0, 0, 0, 0, 0, 0, 11]));
    let ev = roll(&mut s, S0, [4, 4, POLITICS], QUIET_2);
    assert_eq!(produced(&ev, S0), cards([0, 0, 0, 0, 1, 0, 0, 1]));
    assert_eq!(s.state.bank[Card::Coin], 0);
}

/// §6.3 with §1's shortage rule, read per card: a commodity is withheld
/// only when the bank cannot pay everyone owed it and more than one
/// player is owed it; then neither gets any of it, one event says so, and
/// the other cards of the roll are paid as usual.
#[test]
fn production_a_commodity_is_withheld_only_from_two_claimants_the_bank_cannot_pay() {
    let withheld = |ev: &[Event]| -> Vec<Event> {
        ev.iter()
            .filter(|e| {
                matches!(
                    e,
                    Event::CommodityWithheld { .. } | Event::ProductionWithheld { .. }
                )
            })
            .cloned()
            .collect()
    };
    let coin = hexpost_engine::Commodity::Coin;
    // Two coins owed, two in the bank: both are paid.
    let mut s = game();
    s.city(S0, 31).city(S1, 37);
    s.give(S0, cards([0, 0, 0, 0, 0, 0, 0, 10]));
    let ev = roll(&mut s, S0, [4, 4, POLITICS], QUIET_2);
    assert_eq!(withheld(&ev), []);
    assert_eq!(produced(&ev, S1), cards([0, 0, 0, 0, 1, 0, 0, 1]));
    assert_eq!(s.state.bank[Card::Coin], 0);
    // One coin short: one event, for the coin only.
    let mut s = game();
    s.city(S0, 31).city(S1, 37);
    s.give(S1, cards([0, 0, 0, 0, 0, 0, 0, 11]));
    let ev = roll(&mut s, S0, [4, 4, POLITICS], QUIET_2);
    assert_eq!(
        withheld(&ev),
        [Event::CommodityWithheld { commodity: coin }]
    );
    assert_eq!(s.hand(S0)[Card::Coin], 0);
    assert_eq!(s.hand(S1)[Card::Coin], 11);
    // A single claimant and an empty bank: nothing paid, nothing withheld.
    let mut s = game();
    s.city(S0, 31).give(S1, cards([0, 0, 0, 0, 0, 0, 0, 12]));
    let ev = roll(&mut s, S0, [4, 4, POLITICS], QUIET_2);
    assert_eq!(withheld(&ev), []);
    assert_eq!(produced(&ev, S0), ResourceCounts::new(0, 0, 0, 0, 1));
}
