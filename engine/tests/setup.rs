//! RULES.md §1 Board, Geometry, Supply, Set-up.

use crate::common::*;
use hexpost_engine::board::layout::has_adjacent_red;
use hexpost_engine::board::{HarborKind, LayoutKind, Terrain, topology};
use hexpost_engine::cards::DevCard;
use hexpost_engine::testkit::{Scenario, corner, edge, hex};
use hexpost_engine::{
    Action, ActionError, Event, GameConfig, Resource, ResourceCounts, Variant, topology_view,
};
use hexpost_engine::{GameState, Phase};

fn settle(node: u8) -> Action {
    Action::BuildSettlement { node }
}

fn road(a: u8, b: u8) -> Action {
    Action::BuildRoad { edge: edge(a, b) }
}

// Set-up plan used below (beginner board):
//   seat 0 first:  node 0  (mountains 10 only),              road 0-4
//   seat 1 first:  node 10 (forest 9, hills 10),             road 10-14
//   seat 1 second: node 22 (fields 12, fields 9, forest 11),  road 22-28
//   seat 0 second: node 23 (hills 6, forest 11, desert),      road 23-29
const PLAN: [(u8, u8, u8, u8); 4] = [
    (0, 0, 0, 4),
    (1, 10, 10, 14),
    (1, 22, 22, 28),
    (0, 23, 23, 29),
];

#[test]
fn plan_nodes_touch_the_hexes_the_comments_say() {
    let t = topology();
    let hexes = |n: u8| t.nodes[n as usize].hexes.clone();
    assert_eq!(hexes(0), vec![hex(0, -2)]);
    assert_eq!(hexes(10), vec![hex(2, -2), hex(2, -1)]);
    assert_eq!(hexes(22), vec![hex(-1, -1), hex(-2, 0), hex(-1, 0)]);
    assert_eq!(hexes(23), vec![hex(0, -1), hex(-1, 0), hex(0, 0)]);
}

/// The scenario tests name nodes by their published, stable ids (sorted top
/// to bottom, then left to right). This pins each id they use to a corner of
/// a hex (corner 0 at the top, clockwise), so a change of numbering fails
/// here first, with the node named.
#[test]
fn node_ids_used_by_the_scenario_tests() {
    let pins: [(u8, (i8, i8), usize); 40] = [
        (0, (0, -2), 0),
        (1, (1, -2), 0),
        (2, (2, -2), 0),
        (3, (0, -2), 5),
        (4, (0, -2), 1),
        (5, (1, -2), 1),
        (6, (2, -2), 1),
        (7, (0, -2), 4),
        (8, (0, -2), 2),
        (9, (1, -2), 2),
        (10, (2, -2), 2),
        (11, (-1, -1), 5),
        (12, (0, -2), 3),
        (13, (1, -2), 3),
        (14, (2, -2), 3),
        (15, (2, -1), 1),
        (16, (-1, -1), 4),
        (18, (0, -1), 2),
        (20, (2, -1), 2),
        (21, (-2, 0), 5),
        (22, (-1, -1), 3),
        (23, (0, -1), 3),
        (26, (2, 0), 1),
        (28, (-2, 0), 2),
        (29, (-1, 0), 2),
        (32, (2, 0), 2),
        (37, (2, 0), 3),
        (38, (-2, 1), 4),
        (41, (0, 1), 2),
        (42, (1, 1), 2),
        (43, (-2, 1), 3),
        (45, (0, 1), 3),
        (46, (1, 1), 3),
        (47, (-2, 2), 4),
        (48, (-2, 2), 2),
        (49, (-1, 2), 2),
        (50, (0, 2), 2),
        (51, (-2, 2), 3),
        (52, (-1, 2), 3),
        (53, (0, 2), 3),
    ];
    for (node, (q, r), i) in pins {
        assert_eq!(corner(hex(q, r), i), node, "corner {i} of hex ({q},{r})");
    }
}

#[test]
fn new_game_has_the_full_supply_and_robber_on_the_desert() {
    let (state, events) = GameState::new(&GameConfig::new(Variant::Standard), 7).unwrap();
    assert_eq!(events, vec![Event::GameStarted { first: S0 }]);
    assert_eq!(state.bank, ResourceCounts::new(19, 19, 19, 19, 19));
    assert_eq!(state.players.len(), 2);
    for p in &state.players {
        assert_eq!(
            (p.roads_left, p.settlements_left, p.cities_left),
            (15, 5, 4)
        );
        assert_eq!(p.hand, ResourceCounts::ZERO);
        assert_eq!(p.visible_vp, 0);
    }
    assert_eq!(state.dev_deck().len(), 25);
    let count = |c| state.dev_deck().iter().filter(|&&d| d == c).count();
    assert_eq!(
        [
            count(DevCard::Knight),
            count(DevCard::VictoryPoint),
            count(DevCard::RoadBuilding),
            count(DevCard::YearOfPlenty),
            count(DevCard::Monopoly),
        ],
        [14, 5, 2, 2, 2]
    );
    assert_eq!(Some(state.robber), state.board.desert());
    assert_eq!(*state.phase(), Phase::Setup);
    assert_eq!(&*state.awaiting(), &[S0]);
    assert_eq!(state.rules.vp_target, 10);
    assert_eq!(state.rules.discard_limit, 7);
    assert!(!state.rules.friendly_robber && !state.rules.balanced_dice);
}

#[test]
fn development_deck_is_shuffled_per_seed() {
    let deck = |seed| {
        GameState::new(&GameConfig::new(Variant::Standard), seed)
            .unwrap()
            .0
            .dev_deck()
            .to_vec()
    };
    let decks: Vec<_> = (0..5).map(deck).collect();
    assert!(decks.windows(2).any(|w| w[0] != w[1]));
    assert_eq!(deck(3), deck(3));
}

#[test]
fn beginner_board_matches_the_rules_text() {
    use Terrain::*;
    let s = Scenario::in_setup(Variant::Standard);
    let expected: [(i8, i8, Terrain, Option<u8>); 19] = [
        (0, -2, Mountains, Some(10)),
        (1, -2, Pasture, Some(2)),
        (2, -2, Forest, Some(9)),
        (-1, -1, Fields, Some(12)),
        (0, -1, Hills, Some(6)),
        (1, -1, Pasture, Some(4)),
        (2, -1, Hills, Some(10)),
        (-2, 0, Fields, Some(9)),
        (-1, 0, Forest, Some(11)),
        (0, 0, Desert, None),
        (1, 0, Forest, Some(3)),
        (2, 0, Mountains, Some(8)),
        (-2, 1, Forest, Some(8)),
        (-1, 1, Mountains, Some(3)),
        (0, 1, Fields, Some(4)),
        (1, 1, Pasture, Some(5)),
        (-2, 2, Hills, Some(5)),
        (-1, 2, Fields, Some(6)),
        (0, 2, Pasture, Some(11)),
    ];
    for (q, r, terrain, number) in expected {
        let tile = s.state.board.tiles[hex(q, r) as usize];
        assert_eq!(
            (tile.terrain, tile.number),
            (terrain, number),
            "hex ({q},{r})"
        );
    }
    assert_eq!(s.state.robber, hex(0, 0));
    let mut numbers: Vec<u8> = s
        .state
        .board
        .tiles
        .iter()
        .filter_map(|t| t.number)
        .collect();
    numbers.sort();
    assert_eq!(
        numbers,
        vec![2, 3, 3, 4, 4, 5, 5, 6, 6, 8, 8, 9, 9, 10, 10, 11, 11, 12]
    );
    let harbors = &s.state.board.harbors;
    assert_eq!(harbors.len(), 9);
    assert_eq!(
        harbors
            .iter()
            .filter(|h| **h == HarborKind::Generic)
            .count(),
        4
    );
    for r in Resource::ALL {
        assert_eq!(
            harbors
                .iter()
                .filter(|h| **h == HarborKind::Specific(r))
                .count(),
            1,
            "{r} harbor"
        );
    }
}

#[test]
fn random_boards_shuffle_the_full_sets_and_keep_reds_apart() {
    use Terrain::*;
    let mut layouts = std::collections::BTreeSet::new();
    for seed in 0..40 {
        let (s, _) = GameState::new(&GameConfig::new(Variant::Standard), seed).unwrap();
        assert_eq!(s.rules.board, LayoutKind::Random);
        let count = |t| s.board.tiles.iter().filter(|x| x.terrain == t).count();
        assert_eq!(
            [
                count(Forest),
                count(Pasture),
                count(Fields),
                count(Hills),
                count(Mountains),
                count(Desert)
            ],
            [4, 4, 4, 3, 3, 1]
        );
        let mut numbers: Vec<u8> = s.board.tiles.iter().filter_map(|t| t.number).collect();
        numbers.sort();
        assert_eq!(
            numbers,
            vec![2, 3, 3, 4, 4, 5, 5, 6, 6, 8, 8, 9, 9, 10, 10, 11, 11, 12]
        );
        // The desert carries no number, every other hex one.
        for t in &s.board.tiles {
            assert_eq!(t.terrain == Desert, t.number.is_none());
        }
        assert!(!has_adjacent_red(&s.board.tiles), "seed {seed}");
        assert_eq!(Some(s.robber), s.board.desert());
        let generic = s
            .board
            .harbors
            .iter()
            .filter(|h| **h == HarborKind::Generic)
            .count();
        assert_eq!(generic, 4);
        layouts.insert(format!("{:?}", s.board.tiles));
    }
    assert!(layouts.len() > 30, "boards are not shuffled");
}

#[test]
fn adjacent_reds_are_allowed_when_the_option_is_off() {
    let mut config = GameConfig::new(Variant::Standard);
    config.set_option("no_adjacent_red", "false").unwrap();
    let adjacent = (0..60)
        .filter(|&seed| has_adjacent_red(&GameState::new(&config, seed).unwrap().0.board.tiles))
        .count();
    assert!(adjacent > 0, "no board out of 60 had adjacent reds");
}

#[test]
fn geometry_publishes_stable_ids_and_coordinates() {
    let v = topology_view();
    assert_eq!((v.hexes.len(), v.nodes.len(), v.edges.len()), (19, 54, 72));
    assert_eq!(v.harbor_edges.len(), 9);
    for (i, h) in v.hexes.iter().enumerate() {
        assert_eq!(h.id as usize, i);
        assert_eq!(hex(h.q, h.r), h.id);
    }
    for (i, n) in v.nodes.iter().enumerate() {
        assert_eq!(n.id as usize, i);
    }
    for (i, e) in v.edges.iter().enumerate() {
        assert_eq!(e.id as usize, i);
        assert_eq!(edge(e.nodes[0], e.nodes[1]), e.id);
    }
    // Corners clockwise from the top: corner 0 is above corner 3.
    let centre = hex(0, 0);
    assert!(v.nodes[corner(centre, 0) as usize].y < v.nodes[corner(centre, 3) as usize].y);
    // The published JSON carries ids and integer coordinates.
    let json = serde_json::to_value(&v).unwrap();
    assert_eq!(json["nodes"][0]["id"], 0);
    assert!(json["nodes"][53]["x"].is_i64() && json["nodes"][53]["y"].is_i64());
    assert_eq!(json["hexes"][18]["nodes"].as_array().unwrap().len(), 6);
}

#[test]
fn setup_runs_in_snake_order_0_1_1_0() {
    let mut s = Scenario::in_setup(Variant::Standard);
    for (seat, node, a, b) in PLAN {
        let seat = hexpost_engine::Seat(seat);
        let other = seat.opponent();
        assert_eq!(&*s.state.awaiting(), &[seat]);
        assert_eq!(
            s.refused(other, settle(node)),
            ActionError::NotYourDecision {
                awaiting: seats(&[seat])
            }
        );
        s.ok(seat, settle(node));
        assert_eq!(&*s.state.awaiting(), &[seat]);
        assert_eq!(
            s.refused(other, road(a, b)),
            ActionError::NotYourDecision {
                awaiting: seats(&[seat])
            }
        );
        s.ok(seat, road(a, b));
    }
    assert_eq!(*s.state.phase(), Phase::BeforeRoll);
    assert_eq!((s.state.active, s.state.turn), (S0, 1));
    assert_eq!(&*s.state.awaiting(), &[S0]);
    consistent(&s);
}

#[test]
fn setup_places_a_settlement_then_a_road_touching_it() {
    let mut s = Scenario::in_setup(Variant::Standard);
    // A road first is refused.
    assert_eq!(
        s.refused(S0, road(0, 4)),
        ActionError::WrongPhase {
            action: "build_road",
            phase: "set-up: place a settlement"
        }
    );
    assert_eq!(
        s.ok(S0, settle(0)),
        vec![Event::SettlementBuilt {
            seat: S0,
            node: 0,
            free: true
        }]
    );
    // Now a second settlement is refused: the road comes next.
    assert_eq!(
        s.refused(S0, settle(10)),
        ActionError::WrongPhase {
            action: "build_settlement",
            phase: "set-up: place a road"
        }
    );
    // The road must touch the settlement just placed.
    assert_eq!(
        s.refused(S0, road(4, 8)),
        ActionError::SetupRoadMustTouchSettlement
    );
    assert_eq!(
        s.ok(S0, road(0, 4)),
        vec![Event::RoadBuilt {
            seat: S0,
            edge: edge(0, 4),
            free: true
        }]
    );
    // Other actions are not part of set-up.
    assert_eq!(
        s.refused(S1, Action::RollDice),
        ActionError::WrongPhase {
            action: "roll_dice",
            phase: "set-up"
        }
    );
    assert_eq!(
        s.refused(S1, Action::EndTurn),
        ActionError::WrongPhase {
            action: "end_turn",
            phase: "set-up"
        }
    );
    // Set-up pieces are free and come from the supply.
    assert_eq!(s.hand(S0), ResourceCounts::ZERO);
    let p = s.state.player(S0);
    assert_eq!((p.roads_left, p.settlements_left, p.visible_vp), (14, 4, 1));
}

#[test]
fn second_setup_road_must_touch_the_second_settlement() {
    let mut s = Scenario::in_setup(Variant::Standard);
    for (seat, node, a, b) in &PLAN[..3] {
        let seat = hexpost_engine::Seat(*seat);
        s.ok(seat, settle(*node));
        s.ok(seat, road(*a, *b));
    }
    s.ok(S0, settle(23));
    // Touching seat 0's first settlement (node 0) is not enough.
    assert_eq!(
        s.refused(S0, road(0, 3)),
        ActionError::SetupRoadMustTouchSettlement
    );
    // Extending the first road is not enough either.
    assert_eq!(
        s.refused(S0, road(4, 8)),
        ActionError::SetupRoadMustTouchSettlement
    );
    s.ok(S0, road(23, 18));
}

#[test]
fn setup_settlements_obey_the_distance_rule() {
    let mut s = Scenario::in_setup(Variant::Standard);
    s.ok(S0, settle(0));
    s.ok(S0, road(0, 4));
    // Node 4 is next to seat 0's settlement on node 0; node 3 too.
    assert_eq!(s.refused(S1, settle(4)), ActionError::DistanceRule);
    assert_eq!(s.refused(S1, settle(3)), ActionError::DistanceRule);
    assert_eq!(s.refused(S1, settle(0)), ActionError::Occupied);
    assert_eq!(
        s.refused(S1, settle(54)),
        ActionError::InvalidNode { node: 54 }
    );
    // Two away (node 8, past the road) is fine: set-up needs no road.
    s.ok(S1, settle(8));
    assert_eq!(s.refused(S1, road(0, 4)), ActionError::Occupied);
    s.ok(S1, road(8, 13));
    // Own buildings count too.
    assert_eq!(s.refused(S1, settle(12)), ActionError::DistanceRule);
    assert_eq!(s.refused(S1, settle(13)), ActionError::DistanceRule);
}

#[test]
fn first_settlements_give_nothing() {
    let mut s = Scenario::in_setup(Variant::Standard);
    let ev = s.ok(S0, settle(0));
    assert!(
        !ev.iter()
            .any(|e| matches!(e, Event::StartingResources { .. }))
    );
    s.ok(S0, road(0, 4));
    // Node 10 touches two producing hexes; still nothing on the first round.
    let ev = s.ok(S1, settle(10));
    assert_eq!(
        ev,
        vec![Event::SettlementBuilt {
            seat: S1,
            node: 10,
            free: true
        }]
    );
    s.ok(S1, road(10, 14));
    assert_eq!(s.hand(S0), ResourceCounts::ZERO);
    assert_eq!(s.hand(S1), ResourceCounts::ZERO);
    assert_eq!(s.state.bank, ResourceCounts::new(19, 19, 19, 19, 19));
}

#[test]
fn second_settlement_yields_one_card_per_adjacent_producing_hex() {
    let mut s = Scenario::in_setup(Variant::Standard);
    s.ok(S0, settle(0));
    s.ok(S0, road(0, 4));
    s.ok(S1, settle(10));
    s.ok(S1, road(10, 14));
    // Node 22: fields 12, fields 9, forest 11 -> 2 grain + 1 lumber.
    assert_eq!(
        s.ok(S1, settle(22)),
        vec![
            Event::SettlementBuilt {
                seat: S1,
                node: 22,
                free: true
            },
            Event::StartingResources {
                seat: S1,
                resources: rc(0, 1, 0, 2, 0)
            },
        ]
    );
    assert_eq!(s.hand(S1), rc(0, 1, 0, 2, 0));
    s.ok(S1, road(22, 28));
    // Node 23: hills, forest and the desert -> 1 brick + 1 lumber, nothing
    // for the desert.
    assert_eq!(
        s.ok(S0, settle(23)),
        vec![
            Event::SettlementBuilt {
                seat: S0,
                node: 23,
                free: true
            },
            Event::StartingResources {
                seat: S0,
                resources: rc(1, 1, 0, 0, 0)
            },
        ]
    );
    assert_eq!(s.hand(S0), rc(1, 1, 0, 0, 0));
    assert_eq!(s.state.bank, bank_minus(rc(1, 2, 0, 2, 0)));
    assert_eq!(
        s.ok(S0, road(23, 29)),
        vec![
            Event::RoadBuilt {
                seat: S0,
                edge: edge(23, 29),
                free: true
            },
            Event::TurnStarted { seat: S0, turn: 1 },
        ]
    );
    assert_eq!(s.state.player(S0).visible_vp, 2);
    assert_eq!(s.state.player(S1).visible_vp, 2);
    consistent(&s);
}

#[test]
fn second_settlement_on_a_single_hex_coast_node_yields_one_card() {
    let mut s = Scenario::in_setup(Variant::Standard);
    s.ok(S0, settle(23));
    s.ok(S0, road(23, 29));
    s.ok(S1, settle(10));
    s.ok(S1, road(10, 14));
    s.ok(S1, settle(22));
    s.ok(S1, road(22, 28));
    // Node 0 touches only mountains.
    let ev = s.ok(S0, settle(0));
    assert_eq!(
        ev[1],
        Event::StartingResources {
            seat: S0,
            resources: rc(0, 0, 0, 0, 1)
        }
    );
    assert_eq!(s.hand(S0), rc(0, 0, 0, 0, 1));
}

#[test]
fn nothing_but_setup_moves_happen_until_setup_ends() {
    let mut s = Scenario::in_setup(Variant::Standard);
    s.ok(S0, settle(0));
    s.ok(S0, road(0, 4));
    for a in [
        Action::BuyDevelopmentCard,
        Action::BuildCity { node: 0 },
        Action::MaritimeTrade {
            give: Resource::Ore,
            receive: Resource::Wool,
            ratio: None,
        },
    ] {
        let name = a.name();
        assert_eq!(
            s.refused(S1, a),
            ActionError::WrongPhase {
                action: name,
                phase: "set-up"
            }
        );
    }
}
