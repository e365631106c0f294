//! RULES.md §1 Costs, Supply (piece limits), the distance and connection
//! rules, and cities.
//!
//! Seat 0 starts with a settlement on node 0 and a road 0-4 (top-left
//! corner of the board); its network grows 4-8-13.

use crate::common::*;
use hexpost_engine::cards::cost;
use hexpost_engine::state::{Building, BuildingKind};
use hexpost_engine::testkit::{Scenario, edge};
use hexpost_engine::{Action, ActionError, Event};

fn base() -> Scenario {
    let mut s = Scenario::standard();
    s.settlement(S0, 0).road(S0, edge(0, 4)).main_phase(S0);
    s
}

fn road(a: u8, b: u8) -> Action {
    Action::BuildRoad { edge: edge(a, b) }
}

fn settle(node: u8) -> Action {
    Action::BuildSettlement { node }
}

fn city(node: u8) -> Action {
    Action::BuildCity { node }
}

#[test]
fn a_road_costs_one_brick_and_one_lumber_paid_to_the_bank() {
    let mut s = base();
    s.give(S0, rc(2, 1, 1, 0, 0));
    assert_eq!(
        s.ok(S0, road(4, 8)),
        vec![Event::RoadBuilt {
            seat: S0,
            edge: edge(4, 8),
            free: false
        }]
    );
    assert_eq!(s.hand(S0), rc(1, 0, 1, 0, 0));
    assert_eq!(s.state.bank, bank_minus(rc(1, 0, 1, 0, 0)));
    assert_eq!(s.state.road_at(edge(4, 8)), Some(S0));
    assert_eq!(s.state.player(S0).roads_left, 13);
    assert_eq!(s.state.player(S0).road_length, 2);
    consistent(&s);
}

#[test]
fn a_settlement_costs_brick_lumber_wool_grain_and_scores_one() {
    let mut s = base();
    s.road(S0, edge(4, 8));
    s.give(S0, rc(1, 1, 1, 1, 1));
    assert_eq!(
        s.ok(S0, settle(8)),
        vec![Event::SettlementBuilt {
            seat: S0,
            node: 8,
            free: false
        }]
    );
    assert_eq!(s.hand(S0), rc(0, 0, 0, 0, 1));
    assert_eq!(s.state.bank, bank_minus(rc(0, 0, 0, 0, 1)));
    assert_eq!(
        s.state.building_at(8),
        Some(Building {
            owner: S0,
            kind: BuildingKind::Settlement
        })
    );
    let p = s.state.player(S0);
    assert_eq!((p.settlements_left, p.visible_vp), (3, 2));
    consistent(&s);
}

#[test]
fn a_city_costs_three_ore_two_grain_and_returns_the_settlement_to_supply() {
    let mut s = base();
    s.give(S0, rc(0, 0, 0, 3, 3));
    assert_eq!(
        (
            s.state.player(S0).settlements_left,
            s.state.player(S0).visible_vp
        ),
        (4, 1)
    );
    assert_eq!(
        s.ok(S0, city(0)),
        vec![Event::CityBuilt { seat: S0, node: 0 }]
    );
    assert_eq!(s.hand(S0), rc(0, 0, 0, 1, 0));
    assert_eq!(s.state.bank, bank_minus(rc(0, 0, 0, 1, 0)));
    assert_eq!(
        s.state.building_at(0),
        Some(Building {
            owner: S0,
            kind: BuildingKind::City
        })
    );
    let p = s.state.player(S0);
    assert_eq!((p.settlements_left, p.cities_left, p.visible_vp), (5, 3, 2));
    consistent(&s);
}

#[test]
fn one_card_short_cannot_afford() {
    let mut s = base();
    s.road(S0, edge(4, 8));
    s.give(S0, rc(1, 0, 0, 1, 3));
    assert_eq!(
        s.refused(S0, road(8, 13)),
        ActionError::CannotAfford { cost: cost::ROAD }
    );
    assert_eq!(
        s.refused(S0, settle(8)),
        ActionError::CannotAfford {
            cost: cost::SETTLEMENT
        }
    );
    assert_eq!(
        s.refused(S0, city(0)),
        ActionError::CannotAfford { cost: cost::CITY }
    );
    assert_eq!(
        s.refused(S0, Action::BuyDevelopmentCard),
        ActionError::CannotAfford {
            cost: rc(0, 0, 1, 1, 1)
        }
    );
    assert_eq!(cost::ROAD, rc(1, 1, 0, 0, 0));
    assert_eq!(cost::SETTLEMENT, rc(1, 1, 1, 1, 0));
    assert_eq!(cost::CITY, rc(0, 0, 0, 2, 3));
    assert_eq!(cost::DEV_CARD, rc(0, 0, 1, 1, 1));
}

#[test]
fn no_road_left_in_supply() {
    let mut s = Scenario::standard();
    s.settlement(S0, 0);
    // Fifteen roads along the coast from node 3 to node 50.
    s.road_path(
        S0,
        &[3, 0, 4, 1, 5, 2, 6, 10, 15, 20, 26, 32, 37, 42, 46, 50],
    );
    s.main_phase(S0).give(S0, rc(1, 1, 0, 0, 0));
    assert_eq!(s.state.player(S0).roads_left, 0);
    assert_eq!(
        s.refused(S0, road(50, 53)),
        ActionError::NoPiecesLeft { piece: "road" }
    );
}

#[test]
fn no_settlement_left_in_supply_until_a_city_frees_one() {
    let mut s = base();
    s.road(S0, edge(4, 8));
    for n in [2, 16, 20, 45] {
        s.settlement(S0, n);
    }
    s.give(S0, rc(1, 1, 1, 3, 3));
    assert_eq!(s.state.player(S0).settlements_left, 0);
    assert_eq!(
        s.refused(S0, settle(8)),
        ActionError::NoPiecesLeft {
            piece: "settlement"
        }
    );
    s.ok(S0, city(45));
    assert_eq!(s.state.player(S0).settlements_left, 1);
    s.ok(S0, settle(8));
    assert_eq!(s.state.player(S0).settlements_left, 0);
    assert_eq!(s.hand(S0), rc(0, 0, 0, 0, 0));
    assert_eq!(s.state.player(S0).visible_vp, 7);
    consistent(&s);
}

#[test]
fn no_city_left_in_supply() {
    let mut s = base();
    for n in [2, 16, 20, 45] {
        s.city(S0, n);
    }
    s.give(S0, rc(0, 0, 0, 2, 3));
    assert_eq!(s.state.player(S0).cities_left, 0);
    assert_eq!(
        s.refused(S0, city(0)),
        ActionError::NoPiecesLeft { piece: "city" }
    );
}

#[test]
fn distance_rule_applies_to_own_and_opponent_buildings() {
    let mut s = base();
    s.road(S0, edge(4, 8));
    s.settlement(S1, 12);
    s.give(S0, rc(1, 1, 1, 1, 0));
    // Node 4 neighbours seat 0's own settlement, node 8 seat 1's on node 12.
    assert_eq!(s.refused(S0, settle(4)), ActionError::DistanceRule);
    assert_eq!(s.refused(S0, settle(8)), ActionError::DistanceRule);
    assert_eq!(s.refused(S0, settle(0)), ActionError::Occupied);
    // One step further is fine.
    s.road(S0, edge(8, 13));
    s.ok(S0, settle(13));
}

#[test]
fn settlements_and_roads_must_connect_to_your_roads() {
    let mut s = base();
    s.give(S0, rc(3, 3, 1, 1, 0));
    // Node 45 is far from seat 0's network.
    assert_eq!(s.refused(S0, settle(45)), ActionError::NotConnected);
    assert_eq!(s.refused(S0, road(45, 49)), ActionError::NotConnected);
    // An opponent's road does not connect yours.
    s.road(S1, edge(8, 13));
    assert_eq!(s.refused(S0, settle(13)), ActionError::NotConnected);
    assert_eq!(s.refused(S0, road(13, 18)), ActionError::NotConnected);
    // A road from your settlement or from the end of your road connects.
    s.ok(S0, road(0, 3));
    s.ok(S0, road(4, 8));
    assert_eq!(s.refused(S0, road(4, 8)), ActionError::Occupied);
    assert_eq!(s.refused(S0, road(8, 13)), ActionError::Occupied);
    assert_eq!(s.refused(S0, settle(13)), ActionError::NotConnected);
    s.ok(S0, settle(8));
    assert_eq!(s.hand(S0), rc(0, 0, 0, 0, 0));
}

#[test]
fn a_road_cannot_continue_through_an_opponents_settlement() {
    let mut s = base();
    s.settlement(S1, 8);
    s.give(S0, rc(3, 3, 0, 0, 0));
    // Reaching the opponent's settlement is allowed...
    s.ok(S0, road(4, 8));
    // ...but going on past it is not.
    assert_eq!(s.refused(S0, road(8, 13)), ActionError::NotConnected);
    assert_eq!(s.refused(S0, road(8, 12)), ActionError::NotConnected);
    // Without the settlement the same road would be fine.
    let mut control = base();
    control.road(S0, edge(4, 8)).give(S0, rc(1, 1, 0, 0, 0));
    control.ok(S0, road(8, 13));
}

#[test]
fn a_city_only_replaces_your_own_settlement() {
    let mut s = base();
    s.settlement(S1, 12).city(S0, 45);
    s.give(S0, rc(0, 0, 0, 4, 6));
    assert_eq!(s.refused(S0, city(12)), ActionError::NotYourSettlement);
    assert_eq!(s.refused(S0, city(8)), ActionError::NotYourSettlement);
    assert_eq!(s.refused(S0, city(45)), ActionError::NotYourSettlement);
    assert_eq!(
        s.refused(S0, city(54)),
        ActionError::InvalidNode { node: 54 }
    );
    s.ok(S0, city(0));
    assert_eq!(s.state.player(S0).visible_vp, 4);
}

#[test]
fn building_happens_after_the_roll_on_your_own_turn() {
    let mut s = base();
    s.before_roll(S0);
    s.give(S0, rc(1, 1, 1, 3, 3));
    for (a, name) in [
        (road(4, 8), "build_road"),
        (settle(8), "build_settlement"),
        (city(0), "build_city"),
        (Action::BuyDevelopmentCard, "buy_development_card"),
    ] {
        assert_eq!(
            s.refused(S0, a.clone()),
            ActionError::WrongPhase {
                action: name,
                phase: "before the roll"
            }
        );
        assert_eq!(
            s.refused(S1, a),
            ActionError::NotYourDecision {
                awaiting: seats(&[S0])
            }
        );
    }
    s.main_phase(S0);
    s.ok(S0, road(4, 8));
}
