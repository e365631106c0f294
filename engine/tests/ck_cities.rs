//! ck_for_two (RULES.md §6.7, §6.8): city improvements, their abilities,
//! metropolises, and city walls.

use crate::common::ck::*;
use crate::common::{S0, S1};
use hexpost_engine::actions::LegalAction;
use hexpost_engine::cards::{Card, Track};
use hexpost_engine::rulesets::Step;
use hexpost_engine::rulesets::ck_for_two::wire::ImprovementOption;
use hexpost_engine::testkit::Scenario;
use hexpost_engine::{Action, ActionError, Event, Phase, Resource, ResourceCounts};

fn buy(s: &mut Scenario, track: Track) -> Vec<Event> {
    s.ok(
        S0,
        Action::BuyImprovement {
            track,
            crane: false,
        },
    )
}

fn improvement_options(s: &Scenario) -> Vec<ImprovementOption> {
    s.state
        .legal_actions(S0)
        .into_iter()
        .find_map(|l| match l {
            LegalAction::BuyImprovement { options } => Some(options),
            _ => None,
        })
        .unwrap_or_default()
}

// ---- 6.7 City improvements ----

#[test]
fn improvement_level_n_costs_n_of_the_tracks_commodity_bought_in_order() {
    let mut s = main_phase();
    s.city(S0, 31).give(S0, cards([0, 0, 0, 0, 0, 3, 6, 1]));
    let ev = buy(&mut s, Track::Trade);
    assert!(ev.contains(&Event::ImprovementBought {
        seat: S0,
        track: Track::Trade,
        level: 1,
        paid: cards([0, 0, 0, 0, 0, 0, 1, 0]),
        crane: false
    }));
    buy(&mut s, Track::Trade);
    buy(&mut s, Track::Trade);
    assert_eq!(s.ck().player(S0).levels, [3, 0, 0]);
    assert_eq!(
        s.hand(S0),
        cards([0, 0, 0, 0, 0, 3, 0, 1]),
        "1 + 2 + 3 cloth"
    );
    buy(&mut s, Track::Politics);
    buy(&mut s, Track::Science);
    buy(&mut s, Track::Science);
    assert_eq!(s.ck().player(S0).levels, [3, 1, 2]);
    assert_eq!(s.hand(S0), ResourceCounts::ZERO);
    assert!(matches!(
        s.refused(
            S0,
            Action::BuyImprovement {
                track: Track::Politics,
                crane: false
            }
        ),
        ActionError::CannotAfford { .. }
    ));
    s.check();
}

#[test]
fn improvement_only_on_ones_own_turn_in_the_main_phase() {
    let trade = Action::BuyImprovement {
        track: Track::Trade,
        crane: false,
    };
    let mut s = game();
    s.city(S0, 31)
        .city(S1, 44)
        .give(S0, cards([0, 0, 0, 0, 0, 0, 1, 0]))
        .give(S1, cards([0, 0, 0, 0, 0, 0, 1, 0]));
    assert!(matches!(
        s.refused(S0, trade.clone()),
        ActionError::WrongPhase { .. }
    ));
    s.main_phase(S0);
    assert!(matches!(
        s.refused(S1, trade.clone()),
        ActionError::NotYourDecision { .. }
    ));
    assert!(s.state.legal_actions(S1).is_empty());
    s.ok(S0, trade.clone());
    s.main_phase(S1);
    s.ok(S1, trade);
    assert_eq!(
        [S0, S1].map(|p| s.ck().player(p).levels),
        [[1, 0, 0], [1, 0, 0]]
    );
}

#[test]
fn improvement_needs_a_city_on_the_board_and_a_tipped_city_does_not_count() {
    let mut s = main_phase();
    s.settlement(S0, 31)
        .give(S0, cards([0, 0, 0, 0, 0, 1, 1, 1]));
    assert!(matches!(
        s.refused(
            S0,
            Action::BuyImprovement {
                track: Track::Trade,
                crane: false
            }
        ),
        ActionError::ImprovementRefused { .. }
    ));
    assert!(improvement_options(&s).is_empty());
    s.ck_mut().tipped.insert(31);
    s.state.player_mut(S0).settlements_left += 1;
    s.state.player_mut(S0).cities_left -= 1;
    assert!(matches!(
        s.refused(
            S0,
            Action::BuyImprovement {
                track: Track::Trade,
                crane: false
            }
        ),
        ActionError::ImprovementRefused { .. }
    ));
    s.check();
    let mut s = main_phase();
    s.city(S0, 31)
        .levels(S0, [0, 4, 0])
        .metropolis(Track::Politics, 31);
    s.give(S0, cards([0, 0, 0, 0, 0, 1, 0, 0]));
    buy(&mut s, Track::Science);
    assert_eq!(
        s.ck().player(S0).level(Track::Science),
        1,
        "a metropolis counts as a city"
    );
}

#[test]
fn improvement_levels_four_and_five_need_a_city_without_a_metropolis_unless_holding_the_tracks() {
    let mut s = main_phase();
    s.city(S0, 31)
        .levels(S0, [4, 3, 0])
        .metropolis(Track::Trade, 31)
        .give(S0, cards([0, 0, 0, 0, 0, 0, 5, 4]));
    // Politics 4: the only city holds a metropolis (of another track).
    assert!(matches!(
        s.refused(
            S0,
            Action::BuyImprovement {
                track: Track::Politics,
                crane: false
            }
        ),
        ActionError::ImprovementRefused { .. }
    ));
    // Trade 5: the buyer holds the trade metropolis.
    buy(&mut s, Track::Trade);
    assert_eq!(s.ck().player(S0).level(Track::Trade), 5);
    assert_eq!(
        improvement_options(&s),
        vec![],
        "trade is complete, politics 4 waits for a city without a metropolis"
    );
    assert!(matches!(
        s.refused(
            S0,
            Action::BuyImprovement {
                track: Track::Trade,
                crane: false
            }
        ),
        ActionError::ImprovementRefused { .. }
    ));
}

#[test]
fn improvements_stay_when_every_city_is_lost_and_buying_waits_for_a_city() {
    let mut s = game();
    s.city(S0, 31).levels(S0, [1, 2, 2]).barbarians(6, 0);
    roll(&mut s, S0, [1, 1, SHIP], QUIET_12);
    assert_eq!(s.ck().player(S0).levels, [1, 2, 2]);
    s.give(S0, cards([0, 0, 0, 0, 0, 0, 2, 0]));
    assert!(matches!(
        s.refused(
            S0,
            Action::BuyImprovement {
                track: Track::Trade,
                crane: false
            }
        ),
        ActionError::ImprovementRefused { .. }
    ));
}

#[test]
fn merchant_guild_trade_three_gives_two_of_a_commodity_for_any_card() {
    let mut s = main_phase();
    s.city(S0, 31).give(S0, cards([0, 0, 0, 0, 0, 2, 0, 0]));
    assert!(matches!(
        s.refused(
            S0,
            Action::BankTrade {
                give: Card::Paper,
                receive: Card::Ore,
                ratio: None
            }
        ),
        ActionError::CannotAfford { .. }
    ));
    s.levels(S0, [3, 0, 0]);
    let ev = s.ok(
        S0,
        Action::BankTrade {
            give: Card::Paper,
            receive: Card::Coin,
            ratio: Some(2),
        },
    );
    assert!(ev.contains(&Event::BankTraded {
        seat: S0,
        gave: cards([0, 0, 0, 0, 0, 2, 0, 0]),
        received: Card::Coin
    }));
    // Only commodities: a resource stays at 4:1.
    s.give(S0, ResourceCounts::new(3, 0, 0, 0, 0));
    assert!(matches!(
        s.refused(
            S0,
            Action::BankTrade {
                give: Card::Brick,
                receive: Card::Ore,
                ratio: None
            }
        ),
        ActionError::CannotAfford { .. }
    ));
}

#[test]
fn aqueduct_a_roll_that_gave_nothing_lets_science_three_take_a_resource_or_decline() {
    let mut s = game();
    s.levels(S1, [0, 0, 3]).settlement(S0, 31);
    // Roll 1 (8): seat 0 gets ore, seat 1 nothing and is asked.
    let ev = roll_first(&mut s, S0, [4, 4, POLITICS]);
    assert_eq!(produced(&ev, S0), ResourceCounts::new(0, 0, 0, 0, 1));
    assert_eq!(step(&s), Some(Step::Aqueduct { owed: vec![S1] }));
    assert_eq!(s.state.legal_actions(S1), vec![LegalAction::AqueductPick]);
    s.rig_dice(&[4, 1, POLITICS]);
    let ev = s.ok(
        S1,
        Action::AqueductPick {
            resource: Some(Resource::Wool),
        },
    );
    assert!(ev.contains(&Event::AqueductTaken {
        seat: S1,
        resource: Resource::Wool
    }));
    // Roll 2 (5): seat 0 gets wool; seat 1 again nothing and declines.
    assert_eq!(step(&s), Some(Step::Aqueduct { owed: vec![S1] }));
    let ev = s.ok(S1, Action::AqueductPick { resource: None });
    assert!(ev.contains(&Event::AqueductDeclined { seat: S1 }));
    assert_eq!(s.hand(S1), ResourceCounts::new(0, 0, 1, 0, 0));
    assert_eq!(s.state.phase(), &Phase::Main);
    s.check();
}

#[test]
fn aqueduct_both_players_at_once_never_after_a_seven_and_the_robber_or_a_short_bank_counts_as_nothing()
 {
    // Both receive nothing on a 2: both asked at once.
    let mut s = game();
    s.levels(S0, [0, 0, 3]).levels(S1, [0, 0, 4]);
    roll_first(&mut s, S0, QUIET_2);
    let mut awaited = s.state.awaiting().to_vec();
    awaited.sort();
    assert_eq!(awaited, vec![S0, S1]);
    // Never after a seven.
    let mut s = game();
    s.levels(S1, [0, 0, 3]);
    let ev = roll(&mut s, S0, [3, 4, POLITICS], [6, 6, SCIENCE]);
    let rolls = ev
        .iter()
        .filter(|e| matches!(e, Event::DiceRolled { .. }))
        .count();
    assert_eq!(rolls, 2, "the 7 asked nothing, so roll 2 followed at once");
    assert_eq!(
        step(&s),
        Some(Step::Aqueduct { owed: vec![S1] }),
        "only after the 12"
    );
    // The robber's hex gave nothing: asked.
    let mut s = game();
    s.levels(S1, [0, 0, 3])
        .settlement(S1, 31)
        .barbarians(0, 1)
        .robber(11);
    roll_first(&mut s, S0, [4, 4, POLITICS]);
    assert_eq!(step(&s), Some(Step::Aqueduct { owed: vec![S1] }));
    // A level-2 player is never asked.
    let mut s = game();
    s.levels(S1, [0, 0, 2]);
    roll(&mut s, S0, QUIET_2, QUIET_12);
    assert_eq!(s.state.phase(), &Phase::Main);
}

#[test]
fn aqueduct_a_resource_the_bank_lacks_is_refused_and_commodities_are_never_taken() {
    let mut s = game();
    s.levels(S1, [0, 0, 3])
        .give(S0, ResourceCounts::new(0, 0, 19, 0, 0));
    roll_first(&mut s, S0, QUIET_2);
    assert_eq!(
        s.refused(
            S1,
            Action::AqueductPick {
                resource: Some(Resource::Wool)
            }
        ),
        ActionError::BankShortage {
            resource: Resource::Wool
        }
    );
}

#[test]
fn metropolis_the_first_to_level_four_places_it_on_a_city_of_their_choice() {
    let mut s = main_phase();
    s.city(S0, 31)
        .city(S0, 44)
        .levels(S0, [3, 0, 0])
        .give(S0, cards([0, 0, 0, 0, 0, 0, 4, 0]));
    let vp = s.state.player(S0).visible_vp;
    buy(&mut s, Track::Trade);
    assert_eq!(
        step(&s),
        Some(Step::Metropolis {
            seat: S0,
            track: Track::Trade
        })
    );
    assert_eq!(
        s.state.legal_actions(S0),
        vec![LegalAction::PlaceMetropolis {
            nodes: [31u8, 44].into_iter().collect()
        }]
    );
    let ev = s.ok(S0, Action::PlaceMetropolis { node: 44 });
    assert!(ev.contains(&Event::MetropolisPlaced {
        seat: S0,
        track: Track::Trade,
        node: 44,
        from: None
    }));
    assert_eq!(
        s.state.player(S0).visible_vp,
        vp + 2,
        "a metropolis city is worth 4"
    );
    s.check();
}

#[test]
fn metropolis_one_per_city_placed_at_once_when_a_single_city_qualifies() {
    let mut s = main_phase();
    s.city(S0, 31)
        .city(S0, 44)
        .levels(S0, [4, 3, 0])
        .metropolis(Track::Trade, 44)
        .give(S0, cards([0, 0, 0, 0, 0, 0, 0, 4]));
    let ev = buy(&mut s, Track::Politics);
    assert!(ev.contains(&Event::MetropolisPlaced {
        seat: S0,
        track: Track::Politics,
        node: 31,
        from: None
    }));
    assert_eq!(step(&s), None);
    s.check();
}

#[test]
fn metropolis_reaching_five_takes_it_from_a_holder_at_four_and_a_holder_at_five_keeps_it() {
    let mut s = main_phase();
    s.city(S0, 31)
        .city(S1, 7)
        .levels(S0, [4, 0, 0])
        .levels(S1, [4, 0, 0])
        .metropolis(Track::Trade, 7)
        .give(S0, cards([0, 0, 0, 0, 0, 0, 5, 0]));
    let (vp0, vp1) = (s.state.player(S0).visible_vp, s.state.player(S1).visible_vp);
    let ev = buy(&mut s, Track::Trade);
    assert!(ev.contains(&Event::MetropolisPlaced {
        seat: S0,
        track: Track::Trade,
        node: 31,
        from: Some(S1)
    }));
    assert_eq!(s.state.player(S0).visible_vp, vp0 + 2);
    assert_eq!(s.state.player(S1).visible_vp, vp1 - 2);
    assert_eq!(
        s.state.building_at(7).unwrap().kind,
        hexpost_engine::state::BuildingKind::City,
        "the city that lost it is an ordinary city"
    );
    s.check();
    // Seat 1 reaching 5 now takes nothing: the holder is at 5.
    let mut s2 = s.clone();
    s2.main_phase(S1).give(S1, cards([0, 0, 0, 0, 0, 0, 5, 0]));
    let ev = s2.ok(
        S1,
        Action::BuyImprovement {
            track: Track::Trade,
            crane: false,
        },
    );
    assert!(
        !ev.iter()
            .any(|e| matches!(e, Event::MetropolisPlaced { .. }))
    );
    assert_eq!(
        s2.ck().metropolis_of(&s2.state, Track::Trade),
        Some((S0, 31))
    );
}

#[test]
fn metropolis_reaching_four_while_it_is_held_gives_nothing() {
    let mut s = main_phase();
    s.city(S0, 31)
        .city(S1, 7)
        .levels(S0, [3, 0, 0])
        .levels(S1, [4, 0, 0])
        .metropolis(Track::Trade, 7)
        .give(S0, cards([0, 0, 0, 0, 0, 0, 4, 0]));
    let ev = buy(&mut s, Track::Trade);
    assert!(
        !ev.iter()
            .any(|e| matches!(e, Event::MetropolisPlaced { .. }))
    );
    assert_eq!(s.ck().metropolis_of(&s.state, Track::Trade), Some((S1, 7)));
}

// ---- 6.8 City walls ----

#[test]
fn wall_costs_two_brick_under_a_city_without_one_at_most_three() {
    let mut s = main_phase();
    for n in [31, 44, 7, 19] {
        s.city(S0, n);
    }
    s.settlement(S0, 2)
        .give(S0, ResourceCounts::new(9, 0, 0, 0, 0));
    assert!(matches!(
        s.refused(S0, Action::BuildWall { node: 2 }),
        ActionError::WallRefused { .. }
    ));
    let ev = s.ok(S0, Action::BuildWall { node: 31 });
    assert!(ev.contains(&Event::WallBuilt {
        seat: S0,
        node: 31,
        free: false
    }));
    assert_eq!(s.hand(S0), ResourceCounts::new(7, 0, 0, 0, 0));
    assert!(matches!(
        s.refused(S0, Action::BuildWall { node: 31 }),
        ActionError::WallRefused { .. }
    ));
    s.ok(S0, Action::BuildWall { node: 44 });
    s.ok(S0, Action::BuildWall { node: 7 });
    assert_eq!(
        s.refused(S0, Action::BuildWall { node: 19 }),
        ActionError::NoPiecesLeft { piece: "city wall" }
    );
    assert!(
        !s.state
            .legal_actions(S0)
            .iter()
            .any(|l| matches!(l, LegalAction::BuildWall { .. }))
    );
    s.check();
}

#[test]
fn wall_of_a_pillaged_city_returns_and_can_be_built_again() {
    let mut s = game();
    for n in [31, 44, 7] {
        s.city(S0, n).wall(n);
    }
    s.city(S0, 19).barbarians(6, 0);
    roll_first(&mut s, S0, [1, 1, SHIP]);
    s.rig_dice(&QUIET_12);
    s.ok(S0, Action::LoseCity { node: 31 });
    assert!(!s.ck().walls.contains(31));
    s.give(S0, ResourceCounts::new(2, 0, 0, 0, 0));
    s.ok(S0, Action::BuildWall { node: 19 });
    assert_eq!(s.ck().walls.len(), 3);
    s.check();
}
