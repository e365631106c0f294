//! Each command's forms (case, spacing, long words, node pairs, names) and
//! every `CommandError` code, on legal-action lists written as the API
//! serves them.

use hexpost::commands::{
    CommandError, ERROR_CODES, InvitationReply, MenuLine, menu, parse, parse_for, parse_invitation,
};
use hexpost::describe::Table;
use hexpost_engine::board::{Board, topology};
use hexpost_engine::cards::{Card, Cards, ProgressCard, Resource, Track};
use hexpost_engine::rulesets::ck_for_two::wire::ProgressPlay;
use hexpost_engine::seats::SeatKind;
use hexpost_engine::{Action, LegalAction, Seat};
use serde_json::{Value, json};

fn legal(v: Value) -> Vec<LegalAction> {
    serde_json::from_value(v).expect("a legal-action list")
}

fn table() -> Table {
    table_named("Ada", "Bob")
}

fn table_named(a: &str, b: &str) -> Table {
    let kinds = vec![
        SeatKind::Real,
        SeatKind::Real,
        SeatKind::Neutral,
        SeatKind::Neutral,
    ];
    Table::new([a.into(), b.into()], kinds, Board::beginner())
}

fn cards(pairs: &[(Card, u8)]) -> Cards {
    let mut c = Cards::ZERO;
    for &(card, n) in pairs {
        c[card] += n;
    }
    c
}

/// The main phase of a base game after the roll.
fn main_phase() -> Vec<LegalAction> {
    legal(json!([
        {"type": "build_road", "edges": [20, 21], "free": false},
        {"type": "build_settlement", "nodes": [3, 14], "free": false},
        {"type": "build_city", "nodes": [9]},
        {"type": "buy_development_card"},
        {"type": "play_knight", "targets": [
            {"hex": 4, "victims": [1]}, {"hex": 7, "victims": []}, {"hex": 12, "victims": [1, 2]}]},
        {"type": "play_year_of_plenty", "count": 2},
        {"type": "play_monopoly"},
        {"type": "maritime_trade", "options": [
            {"give": "wool", "ratio": 2, "receive": ["brick", "lumber", "grain", "ore"]},
            {"give": "ore", "ratio": 4, "receive": ["brick", "grain"]}]},
        {"type": "offer_trade"},
        {"type": "end_turn"}
    ]))
}

fn ok(line: &str, legal: &[LegalAction]) -> Action {
    parse_for(line, legal, &table()).unwrap_or_else(|e| panic!("{line:?}: {e}"))
}

fn err(line: &str, legal: &[LegalAction]) -> CommandError {
    match parse_for(line, legal, &table()) {
        Ok(a) => panic!("{line:?} read as {a:?}"),
        Err(e) => e,
    }
}

#[test]
fn codes_read_in_any_case_with_any_spacing_and_their_long_words() {
    let l = main_phase();
    for line in ["E", "e", "  e  ", "END", "End.", "done"] {
        assert_eq!(ok(line, &l), Action::EndTurn, "{line:?}");
    }
    for line in [
        "S14",
        "s14",
        "S 14",
        "  settle   14 ",
        "SETTLEMENT 14",
        "s-14",
    ] {
        assert_eq!(
            ok(line, &l),
            Action::BuildSettlement { node: 14 },
            "{line:?}"
        );
    }
    assert_eq!(ok("c9", &l), Action::BuildCity { node: 9 });
    assert_eq!(ok("City 9", &l), Action::BuildCity { node: 9 });
    assert_eq!(ok("dev", &l), Action::BuyDevelopmentCard);
    assert_eq!(ok("BUY", &l), Action::BuyDevelopmentCard);
}

#[test]
fn a_road_is_named_by_its_edge_or_by_the_two_nodes_it_joins() {
    let l = main_phase();
    let [a, b] = topology().edges[20].nodes;
    assert_eq!(ok("D20", &l), Action::BuildRoad { edge: 20 });
    assert_eq!(ok("road 20", &l), Action::BuildRoad { edge: 20 });
    for line in [
        format!("D{a}-{b}"),
        format!("d {b} {a}"),
        format!("ROAD {a} - {b}"),
    ] {
        assert_eq!(ok(&line, &l), Action::BuildRoad { edge: 20 }, "{line:?}");
    }
    assert_eq!(err("D 22", &l).code, "bad_edge");
    assert_eq!(err(&format!("D {a} {a}"), &l).code, "bad_edge");
}

#[test]
fn the_robbed_player_is_named_by_name_colour_or_opp_and_may_be_left_out_when_alone() {
    let l = main_phase();
    let bob = Some(Seat(1));
    for line in [
        "K 4 bob",
        "k4 BOB",
        "K 4 opp",
        "knight 4 opponent",
        "K 4 blue",
        "K4",
    ] {
        assert_eq!(
            ok(line, &l),
            Action::PlayKnight {
                hex: 4,
                victim: bob
            },
            "{line:?}"
        );
    }
    assert_eq!(
        ok("K 7", &l),
        Action::PlayKnight {
            hex: 7,
            victim: None
        }
    );
    assert_eq!(
        ok("K 7 none", &l),
        Action::PlayKnight {
            hex: 7,
            victim: None
        }
    );
    let white = Some(Seat(2));
    for line in ["K 12 white", "K 12 neutral white", "k12 Neutral White"] {
        assert_eq!(
            ok(line, &l),
            Action::PlayKnight {
                hex: 12,
                victim: white
            },
            "{line:?}"
        );
    }
    // Without the table, names are unknown but colours and `opp` are not.
    assert_eq!(
        parse("K 12 opp", &l),
        Ok(Action::PlayKnight {
            hex: 12,
            victim: bob
        })
    );
    assert_eq!(parse("K 12 bob", &l).unwrap_err().code, "unknown_player");
    let two = err("K 12", &l);
    assert_eq!(two.code, "missing_argument");
    assert!(
        two.detail.contains("Bob or neutral white"),
        "{}",
        two.detail
    );
    assert_eq!(err("K 7 bob", &l).code, "bad_player");
    assert_eq!(err("K 4 ada", &l).code, "bad_player");
    assert_eq!(err("K 4 carol", &l).code, "unknown_player");
    assert_eq!(err("K 5 bob", &l).code, "bad_hex");
    // A player whose name is a colour: the colour is then ambiguous.
    let named = table_named("Ada", "White");
    let e = parse_for("K 12 white", &l, &named).unwrap_err();
    assert_eq!(e.code, "ambiguous_player");
    assert_eq!(
        parse_for("K 12 neutral white", &l, &named),
        Ok(Action::PlayKnight {
            hex: 12,
            victim: white
        })
    );
}

#[test]
fn card_lists_take_counts_repeats_plurals_and_other_names() {
    let l = legal(json!([{"type": "discard", "count": 4}]));
    let want = Action::Discard {
        cards: cards(&[(Card::Brick, 2), (Card::Wool, 1), (Card::Lumber, 1)]),
    };
    for line in [
        "X brick brick wool lumber",
        "x 2 brick wool wood",
        "DISCARD 2bricks, sheep, 1 lumber",
        "X clay clay wool lum",
    ] {
        assert_eq!(ok(line, &l), want, "{line:?}");
    }
    assert_eq!(err("X brick wool", &l).code, "wrong_count");
    assert_eq!(err("X 2 brick wool bricc", &l).code, "unknown_card");
    assert_eq!(err("X 3 woo brick", &l).code, "ambiguous_card");
    assert_eq!(err("X 2 2 brick", &l).code, "bad_number");
    assert_eq!(err("X 2 brick wool 2", &l).code, "missing_argument");
    assert_eq!(err("X", &l).code, "missing_argument");
}

#[test]
fn trades_with_the_bank_and_offers_to_the_opponent() {
    let l = main_phase();
    let t = |give, receive, ratio| Action::MaritimeTrade {
        give,
        receive,
        ratio,
    };
    assert_eq!(ok("T wool ore", &l), t(Resource::Wool, Resource::Ore, None));
    assert_eq!(
        ok("trade 2 wool ore", &l),
        t(Resource::Wool, Resource::Ore, Some(2))
    );
    assert_eq!(
        ok("t ore grain", &l),
        t(Resource::Ore, Resource::Grain, None)
    );
    assert_eq!(err("T brick ore", &l).code, "card_not_allowed");
    assert_eq!(err("T ore lumber", &l).code, "card_not_allowed");
    assert_eq!(err("T wool paper", &l).code, "card_not_allowed");
    assert_eq!(err("T wool", &l).code, "missing_argument");
    assert_eq!(
        ok("OFFER 1 brick 1 wool FOR 1 ore", &l),
        Action::OfferTrade {
            give: cards(&[(Card::Brick, 1), (Card::Wool, 1)]),
            receive: cards(&[(Card::Ore, 1)]),
        }
    );
    assert_eq!(err("OFFER brick ore", &l).code, "missing_argument");
    assert_eq!(err("OFFER brick FOR", &l).code, "missing_argument");
    let answers = legal(json!([{"type": "accept_trade"}, {"type": "decline_trade"}]));
    assert_eq!(ok("accept", &answers), Action::AcceptTrade);
    assert_eq!(ok("Decline", &answers), Action::DeclineTrade);
    let mine = legal(json!([{"type": "withdraw_trade"}]));
    assert_eq!(ok("WITHDRAW", &mine), Action::WithdrawTrade);
}

#[test]
fn development_cards_name_their_resources_in_order() {
    let l = main_phase();
    assert_eq!(
        ok("YOP ore grain", &l),
        Action::PlayYearOfPlenty {
            resources: vec![Resource::Ore, Resource::Grain]
        }
    );
    assert_eq!(
        ok("yop 2 ore", &l),
        Action::PlayYearOfPlenty {
            resources: vec![Resource::Ore, Resource::Ore]
        }
    );
    assert_eq!(err("YOP ore", &l).code, "wrong_count");
    assert_eq!(err("YOP ore coin", &l).code, "card_not_allowed");
    assert_eq!(
        ok("MONO wheat", &l),
        Action::PlayMonopoly {
            resource: Resource::Grain
        }
    );
    assert_eq!(err("MONO wool ore", &l).code, "extra_argument");
}

#[test]
fn catan_for_two_neutral_builds_and_token_actions() {
    let l = legal(json!([
        {"type": "build_neutral_road", "neutral": 2, "edges": [5, 6]},
        {"type": "build_neutral_road", "neutral": 3, "edges": [6, 7]},
        {"type": "forced_trade", "cost": 1},
        {"type": "robber_to_desert", "cost": 2},
        {"type": "discard_knight"}
    ]));
    assert_eq!(
        ok("ND5", &l),
        Action::BuildNeutralRoad {
            neutral: Seat(2),
            edge: 5
        }
    );
    assert_eq!(
        ok("nd 6 orange", &l),
        Action::BuildNeutralRoad {
            neutral: Seat(3),
            edge: 6
        }
    );
    assert_eq!(err("ND6", &l).code, "missing_argument");
    assert_eq!(err("ND 7 white", &l).code, "bad_player");
    assert_eq!(ok("FT", &l), Action::ForcedTrade);
    assert_eq!(ok("desert", &l), Action::RobberToDesert);
    assert_eq!(ok("DK", &l), Action::DiscardKnight);
    let give = legal(json!([{"type": "forced_trade_give", "count": 2}]));
    assert_eq!(
        ok("GIVE ore wool", &give),
        Action::ForcedTradeGive {
            cards: cards(&[(Card::Ore, 1), (Card::Wool, 1)])
        }
    );
    let settle = legal(json!([{"type": "build_neutral_settlement", "neutral": 2, "nodes": [30]}]));
    assert_eq!(
        ok("NS 30", &settle),
        Action::BuildNeutralSettlement {
            neutral: Seat(2),
            node: 30
        }
    );
}

#[test]
fn neutral_trader_chart_answers() {
    let l = legal(json!([
        {"type": "accept_neutral_trade", "give": 2, "receive": ["grain", "ore"]},
        {"type": "decline_neutral_trade"}
    ]));
    assert_eq!(
        ok("ACCEPT brick wool FOR grain", &l),
        Action::AcceptNeutralTrade {
            give: cards(&[(Card::Brick, 1), (Card::Wool, 1)]),
            receive: Resource::Grain
        }
    );
    assert_eq!(ok("decline", &l), Action::DeclineNeutralTrade);
    assert_eq!(err("ACCEPT", &l).code, "missing_argument");
    assert_eq!(err("ACCEPT brick FOR grain", &l).code, "wrong_count");
    assert_eq!(err("ACCEPT 2 brick FOR wool", &l).code, "card_not_allowed");
    assert_eq!(err("ACCEPT 2 brick FOR 2 ore", &l).code, "wrong_count");
    let ask = legal(json!([{"type": "ask_neutral_trade"}, {"type": "end_turn"}]));
    assert_eq!(ok("ask", &ask), Action::AskNeutralTrade);
    // Both answers open at once would make DECLINE ambiguous.
    let both = legal(json!([{"type": "decline_trade"}, {"type": "decline_neutral_trade"}]));
    assert_eq!(err("DECLINE", &both).code, "ambiguous_command");
}

#[test]
fn shadow_votes_and_auction_bids() {
    let vote = legal(json!([{"type": "vote_reroll"}]));
    assert_eq!(ok("VOTE YES", &vote), Action::VoteReroll { reroll: true });
    assert_eq!(ok("reroll no", &vote), Action::VoteReroll { reroll: false });
    assert_eq!(err("VOTE maybe", &vote).code, "bad_choice");
    let auction = legal(json!([{"type": "bid"}, {"type": "pass_bid"}]));
    assert_eq!(
        ok("BID 2 ore", &auction),
        Action::Bid {
            cards: cards(&[(Card::Ore, 2)])
        }
    );
    assert_eq!(ok("pass", &auction), Action::PassBid);
    let raise =
        legal(json!([{"type": "raise_bid", "min": 2, "available": 3}, {"type": "concede"}]));
    assert_eq!(
        ok("RAISE grain grain", &raise),
        Action::RaiseBid {
            cards: cards(&[(Card::Grain, 2)])
        }
    );
    assert_eq!(err("RAISE grain", &raise).code, "wrong_count");
    assert_eq!(err("RAISE 4 grain", &raise).code, "wrong_count");
    assert_eq!(ok("CONCEDE", &raise), Action::Concede);
}

#[test]
fn cities_and_knights_decisions() {
    let l = legal(json!([
        {"type": "build_wall", "nodes": [9]},
        {"type": "buy_improvement", "options": [
            {"track": "science", "level": 2, "crane": false},
            {"track": "science", "level": 2, "crane": true},
            {"track": "politics", "level": 1, "crane": true}]},
        {"type": "recruit_knight", "nodes": [14]},
        {"type": "move_knight", "moves": [{"from": 14, "to": [20, 31]}]},
        {"type": "chase_robber", "knight": 14, "targets": [{"hex": 4, "victims": [1]}]},
        {"type": "chase_robber", "knight": 20, "targets": [{"hex": 5, "victims": []}]},
        {"type": "bank_trade", "options": [{"give": "paper", "ratio": 2, "receive": ["brick", "coin"]}]},
        {"type": "forced_trade_resources", "cost": 2},
        {"type": "discard_progress"}
    ]));
    assert_eq!(ok("W9", &l), Action::BuildWall { node: 9 });
    assert_eq!(
        ok("I science", &l),
        Action::BuyImprovement {
            track: Track::Science,
            crane: false
        }
    );
    assert_eq!(
        ok("improve green crane", &l),
        Action::BuyImprovement {
            track: Track::Science,
            crane: true
        }
    );
    assert_eq!(err("I politics", &l).code, "bad_choice");
    assert_eq!(err("I purple", &l).code, "unknown_track");
    assert_eq!(ok("KR14", &l), Action::RecruitKnight { node: 14 });
    assert_eq!(ok("KM14-31", &l), Action::MoveKnight { from: 14, to: 31 });
    assert_eq!(
        ok("move 14 20", &l),
        Action::MoveKnight { from: 14, to: 20 }
    );
    assert_eq!(err("KM14-9", &l).code, "bad_node");
    assert_eq!(err("KM9-14", &l).code, "bad_node");
    assert_eq!(
        ok("KC14 4 bob", &l),
        Action::ChaseRobber {
            knight: 14,
            hex: 4,
            victim: Some(Seat(1))
        }
    );
    assert_eq!(
        ok("chase 20 5", &l),
        Action::ChaseRobber {
            knight: 20,
            hex: 5,
            victim: None
        }
    );
    assert_eq!(err("KC20 4", &l).code, "bad_hex");
    assert_eq!(
        ok("T paper coin", &l),
        Action::BankTrade {
            give: Card::Paper,
            receive: Card::Coin,
            ratio: None
        }
    );
    assert_eq!(ok("FT", &l), Action::ForcedTradeResources);
    assert_eq!(ok("FTR", &l), Action::ForcedTradeResources);
    let both = legal(
        json!([{"type": "forced_trade", "cost": 2}, {"type": "forced_trade_resources", "cost": 1}]),
    );
    assert_eq!(ok("FT", &both), Action::ForcedTrade);
    assert_eq!(ok("ftr", &both), Action::ForcedTradeResources);
    assert_eq!(
        ok("XP printer", &l),
        Action::DiscardProgress {
            card: ProgressCard::Printer
        }
    );
    assert_eq!(
        ok("xp road building", &l),
        Action::DiscardProgress {
            card: ProgressCard::RoadBuilding
        }
    );
    assert_eq!(err("XP fireball", &l).code, "unknown_progress_card");
}

#[test]
fn cities_and_knights_answers_with_none() {
    let one = |v: Value| legal(json!([v]));
    assert_eq!(
        ok("AQ none", &one(json!({"type": "aqueduct_pick"}))),
        Action::AqueductPick { resource: None }
    );
    assert_eq!(
        ok("aqueduct ore", &one(json!({"type": "aqueduct_pick"}))),
        Action::AqueductPick {
            resource: Some(Resource::Ore)
        }
    );
    let smith = one(json!({"type": "smith_promote", "nodes": [14]}));
    assert_eq!(
        ok("SMITH none", &smith),
        Action::SmithPromote { node: None }
    );
    assert_eq!(
        ok("SMITH 14", &smith),
        Action::SmithPromote { node: Some(14) }
    );
    let pd = one(json!({"type": "place_deserter_knight", "nodes": [14]}));
    assert_eq!(
        ok("PD NONE", &pd),
        Action::PlaceDeserterKnight { node: None }
    );
    let replace = one(json!({"type": "replace_road", "edges": [20]}));
    assert_eq!(
        ok("REPLACE none", &replace),
        Action::ReplaceRoad { edge: None }
    );
    assert_eq!(
        ok("replace 20", &replace),
        Action::ReplaceRoad { edge: Some(20) }
    );
    let spy = one(json!({"type": "spy_take"}));
    assert_eq!(
        ok("SPY crane", &spy),
        Action::SpyTake {
            card: Some(ProgressCard::Crane)
        }
    );
    assert_eq!(ok("spy none", &spy), Action::SpyTake { card: None });
    let draw = one(json!({"type": "draw_progress", "tracks": ["trade", "politics"]}));
    assert_eq!(
        ok("DRAW blue", &draw),
        Action::DrawProgress {
            track: Track::Politics
        }
    );
    assert_eq!(err("DRAW science", &draw).code, "bad_choice");
    let give = one(json!({"type": "give_cards", "count": 2, "commodities_only": true}));
    assert_eq!(
        ok("GIVE paper cloth", &give),
        Action::GiveCards {
            cards: cards(&[(Card::Paper, 1), (Card::Cloth, 1)])
        }
    );
    assert_eq!(err("GIVE paper ore", &give).code, "card_not_allowed");
    for (line, entry, action) in [
        (
            "LOSE9",
            json!({"type": "lose_city", "nodes": [9]}),
            Action::LoseCity { node: 9 },
        ),
        (
            "GU 14",
            json!({"type": "give_up_knight", "nodes": [14]}),
            Action::GiveUpKnight { node: 14 },
        ),
        (
            "retreat 31",
            json!({"type": "retreat_knight", "nodes": [31]}),
            Action::RetreatKnight { node: 31 },
        ),
        (
            "NK30 white",
            json!({"type": "place_neutral_knight", "neutral": 2, "nodes": [30]}),
            Action::PlaceNeutralKnight {
                neutral: Seat(2),
                node: 30,
            },
        ),
        (
            "NKP 30",
            json!({"type": "promote_neutral_knight", "nodes": [30]}),
            Action::PromoteNeutralKnight { node: 30 },
        ),
        (
            "METRO 9",
            json!({"type": "place_metropolis", "nodes": [9]}),
            Action::PlaceMetropolis { node: 9 },
        ),
        (
            "TAKE ore paper",
            json!({"type": "take_cards", "count": 2}),
            Action::TakeCards {
                cards: cards(&[(Card::Ore, 1), (Card::Paper, 1)]),
            },
        ),
        (
            "KA 14",
            json!({"type": "activate_knight", "nodes": [14]}),
            Action::ActivateKnight { node: 14 },
        ),
        (
            "KP 14",
            json!({"type": "promote_knight", "nodes": [14]}),
            Action::PromoteKnight { node: 14 },
        ),
        (
            "KX 14",
            json!({"type": "remove_knight", "nodes": [14]}),
            Action::RemoveKnight { node: 14 },
        ),
        (
            "KD 14-20",
            json!({"type": "displace_knight", "moves": [{"from": 14, "to": [20]}]}),
            Action::DisplaceKnight { from: 14, to: 20 },
        ),
    ] {
        assert_eq!(ok(line, &one(entry)), action, "{line:?}");
    }
}

#[test]
fn progress_cards_with_their_choices() {
    let l = legal(json!([
        {"type": "play_progress", "play": {"card": "alchemist"}},
        {"type": "play_progress", "play": {"card": "inventor", "hexes": [{"hex": 4, "number": 9}, {"hex": 5, "number": 9}, {"hex": 6, "number": 3}]}},
        {"type": "play_progress", "play": {"card": "deserter", "targets": [{"target": 1, "nodes": []}, {"target": 2, "nodes": [30, 31]}]}},
        {"type": "play_progress", "play": {"card": "master_merchant"}},
        {"type": "play_progress", "play": {"card": "merchant_fleet", "cards": ["wool", "paper"]}},
        {"type": "play_progress", "play": {"card": "trade_monopoly"}},
        {"type": "play_progress", "play": {"card": "commercial_harbor", "resources": ["ore"]}},
        {"type": "play_progress", "play": {"card": "bishop", "targets": [{"hex": 4, "victims": [1]}]}}
    ]));
    let play = |p| Action::PlayProgress { play: p };
    assert_eq!(
        ok("P alchemist 3 5", &l),
        play(ProgressPlay::Alchemist { yellow: 3, red: 5 })
    );
    assert_eq!(err("P alchemist 3 7", &l).code, "bad_number");
    assert_eq!(err("P alchemist 3", &l).code, "missing_argument");
    assert_eq!(
        ok("play inventor 6 4", &l),
        play(ProgressPlay::Inventor { hexes: [6, 4] })
    );
    assert_eq!(err("P inventor 4 5", &l).code, "bad_hex");
    assert_eq!(
        ok("P deserter bob", &l),
        play(ProgressPlay::Deserter {
            target: Seat(1),
            node: None
        })
    );
    assert_eq!(
        ok("P deserter neutral white 31", &l),
        play(ProgressPlay::Deserter {
            target: Seat(2),
            node: Some(31)
        })
    );
    assert_eq!(err("P deserter white", &l).code, "missing_argument");
    for line in [
        "P mm",
        "P master merchant",
        "p mastermerchant",
        "P master_merchant",
    ] {
        assert_eq!(ok(line, &l), play(ProgressPlay::MasterMerchant), "{line:?}");
    }
    assert_eq!(
        ok("P fleet paper", &l),
        play(ProgressPlay::MerchantFleet { named: Card::Paper })
    );
    assert_eq!(err("P fleet ore", &l).code, "card_not_allowed");
    assert_eq!(
        ok("P tm cloth", &l),
        play(ProgressPlay::TradeMonopoly {
            commodity: hexpost_engine::Commodity::Cloth
        })
    );
    assert_eq!(err("P tm ore", &l).code, "card_not_allowed");
    assert_eq!(
        ok("P harbor ore", &l),
        play(ProgressPlay::CommercialHarbor {
            resource: Resource::Ore
        })
    );
    assert_eq!(
        ok("P bishop 4", &l),
        play(ProgressPlay::Bishop {
            hex: 4,
            victim: Some(Seat(1))
        })
    );
    assert_eq!(err("P spy", &l).code, "not_legal_now");
}

#[test]
fn lines_that_are_not_commands_say_why() {
    let l = main_phase();
    assert_eq!(err("", &l).code, "empty_command");
    assert_eq!(err("   .", &l).code, "empty_command");
    let unknown = err("FLY 3", &l);
    assert_eq!(unknown.code, "unknown_command");
    assert!(unknown.detail.contains("S<node>"), "{}", unknown.detail);
    let not_now = err("R", &l);
    assert_eq!(not_now.code, "not_legal_now");
    assert!(
        not_now.detail.contains("you may now: D<edge>, S<node>"),
        "{}",
        not_now.detail
    );
    assert_eq!(err("E now", &l).code, "extra_argument");
    assert_eq!(err("S fourteen", &l).code, "bad_number");
    assert_eq!(err("S 300", &l).code, "bad_number");
    let bad_node = err("S 15", &l);
    assert_eq!(bad_node.code, "bad_node");
    assert_eq!(
        bad_node.detail,
        "node 15 cannot be chosen here; choose 3, 14"
    );
    assert_eq!(err("S", &l).code, "missing_argument");
    assert_eq!(
        err("R", &[]).detail,
        "R is not something you can do now; nothing is asked of you now"
    );
}

#[test]
fn every_error_code_is_produced_by_some_line() {
    let l = main_phase();
    let ck = legal(json!([
        {"type": "buy_improvement", "options": [{"track": "science", "level": 2, "crane": false}]},
        {"type": "discard_progress"},
        {"type": "vote_reroll"},
        {"type": "decline_trade"}, {"type": "decline_neutral_trade"}
    ]));
    let cases: [(&str, &[LegalAction]); 20] = [
        ("", &l),
        ("FLY", &l),
        ("R", &l),
        ("DECLINE", &ck),
        ("S", &l),
        ("E 2", &l),
        ("S x", &l),
        ("S 15", &l),
        ("D 22", &l),
        ("K 5", &l),
        ("MONO gold", &l),
        ("MONO woo", &l),
        ("MONO paper", &l),
        ("YOP ore", &l),
        ("K 12 carol", &l),
        ("K 12 opp", &[]),
        ("K 4 ada", &l),
        ("I purple", &ck),
        ("XP fireball", &ck),
        ("VOTE maybe", &ck),
    ];
    let mut produced: Vec<&str> = cases.iter().map(|(line, l)| err(line, l).code).collect();
    // Two seats answering to one word.
    produced.push(
        parse_for("K 12 white", &l, &table_named("Ada", "White"))
            .unwrap_err()
            .code,
    );
    for code in ERROR_CODES {
        assert!(
            produced.contains(&code),
            "no line produced {code}: {produced:?}"
        );
    }
    for code in &produced {
        assert!(
            ERROR_CODES.contains(code),
            "{code} is not listed in ERROR_CODES"
        );
    }
}

#[test]
fn invitations_are_answered_with_their_own_two_words() {
    assert_eq!(parse_invitation("Accept"), Ok(InvitationReply::Accept));
    assert_eq!(parse_invitation(" yes. "), Ok(InvitationReply::Accept));
    assert_eq!(parse_invitation("DECLINE"), Ok(InvitationReply::Decline));
    assert_eq!(parse_invitation("no"), Ok(InvitationReply::Decline));
    assert_eq!(parse_invitation("").unwrap_err().code, "empty_command");
    assert_eq!(parse_invitation("R").unwrap_err().code, "unknown_command");
}

#[test]
fn the_menu_has_a_line_per_kind_with_its_code_and_choices() {
    let lines = menu(&main_phase(), &table());
    let line = |code: &str, text: &str| MenuLine {
        code: code.into(),
        text: text.into(),
    };
    assert_eq!(
        lines,
        vec![
            line("D<edge>", "build a road: edges 20, 21"),
            line("S<node>", "build a settlement: nodes 3, 14"),
            line("C<node>", "build a city: nodes 9"),
            line("DEV", "buy a development card"),
            line(
                "K <hex> <player>",
                "play a knight: hex 4 (Bob), hex 7, hex 12 (Bob or neutral white)"
            ),
            line("YOP <resources>", "play Year of Plenty: name 2"),
            line("MONO <resource>", "play Monopoly"),
            line(
                "T <give> <receive>",
                "trade with the bank: 2 wool for brick/lumber/grain/ore, 4 ore for brick/grain"
            ),
            line("OFFER <cards> FOR <cards>", "offer a trade"),
            line("E", "end your turn"),
        ]
    );
    let chase = legal(json!([
        {"type": "chase_robber", "knight": 14, "targets": [{"hex": 4, "victims": [1]}]},
        {"type": "chase_robber", "knight": 20, "targets": [{"hex": 5, "victims": []}]},
        {"type": "play_progress", "play": {"card": "engineer", "nodes": [9]}},
        {"type": "play_progress", "play": {"card": "warlord"}}
    ]));
    assert_eq!(
        menu(&chase, &table()),
        vec![
            line(
                "KC<knight> <hex> <player>",
                "chase the robber away with a knight: knight 14 to hex 4 (Bob); knight 20 to hex 5"
            ),
            line("P engineer <node>", "play Engineer: nodes 9"),
            line("P warlord", "play Warlord"),
        ]
    );
}
