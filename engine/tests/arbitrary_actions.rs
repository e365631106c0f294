//! Nothing panics on any input: arbitrary actions (any ids, seats, card
//! counts, including out-of-range values) are applied to positions taken
//! from random games. A refused action must leave the state unchanged, an
//! accepted one must leave it consistent.

use hexpost_engine::invariants::{apply_checked, check_state};
use hexpost_engine::sim::{Checks, play_game};
use hexpost_engine::{Action, GameConfig, GameState, Resource, ResourceCounts, Seat, Variant};
use proptest::prelude::*;
use std::sync::OnceLock;

/// Positions from several points of several games, set-up included.
fn positions() -> &'static Vec<GameState> {
    static POSITIONS: OnceLock<Vec<GameState>> = OnceLock::new();
    POSITIONS.get_or_init(|| {
        let mut out = Vec::new();
        for (variant, seed, options) in [
            (Variant::Standard, 3, &[][..]),
            (Variant::Duel, 4, &[]),
            (Variant::Standard, 5, &[]),
            (Variant::CatanForTwo, 6, &[]),
            (Variant::NeutralTrader, 7, &[]),
            (Variant::Shadow, 8, &[]),
            (
                Variant::Shadow,
                9,
                &[("edition", "1998"), ("removal_reroll", "agree")],
            ),
        ] {
            let mut config = GameConfig::new(variant);
            for (k, v) in options {
                config.set_option(k, v).unwrap();
            }
            let record = play_game(&config, seed, 1000, Checks::None).unwrap();
            let (mut s, _) = GameState::new(&config, seed).unwrap();
            for (i, (seat, action)) in record.actions.iter().enumerate() {
                if i % 37 == 0 {
                    out.push(s.clone());
                }
                s.apply(*seat, action).unwrap();
            }
            out.push(s);
        }
        out
    })
}

fn resource() -> impl Strategy<Value = Resource> {
    prop::sample::select(Resource::ALL.to_vec())
}

fn counts() -> impl Strategy<Value = ResourceCounts> {
    prop::array::uniform5(prop_oneof![3 => 0u8..4, 1 => any::<u8>()])
        .prop_map(|[b, l, w, g, o]| ResourceCounts::new(b, l, w, g, o))
}

fn action() -> impl Strategy<Value = Action> {
    let id = any::<u8>();
    let seat = prop::option::of(any::<u8>().prop_map(Seat));
    prop_oneof![
        Just(Action::RollDice),
        Just(Action::EndTurn),
        id.prop_map(|edge| Action::BuildRoad { edge }),
        id.prop_map(|node| Action::BuildSettlement { node }),
        id.prop_map(|node| Action::BuildCity { node }),
        Just(Action::BuyDevelopmentCard),
        (id, seat.clone()).prop_map(|(hex, victim)| Action::PlayKnight { hex, victim }),
        Just(Action::PlayRoadBuilding),
        prop::collection::vec(resource(), 0..4)
            .prop_map(|resources| Action::PlayYearOfPlenty { resources }),
        resource().prop_map(|resource| Action::PlayMonopoly { resource }),
        (id, seat).prop_map(|(hex, victim)| Action::MoveRobber { hex, victim }),
        counts().prop_map(|cards| Action::Discard { cards }),
        (resource(), resource(), prop::option::of(any::<u8>())).prop_map(
            |(give, receive, ratio)| Action::MaritimeTrade {
                give,
                receive,
                ratio
            }
        ),
        (counts(), counts()).prop_map(|(give, receive)| Action::OfferTrade { give, receive }),
        Just(Action::AcceptTrade),
        Just(Action::DeclineTrade),
        Just(Action::WithdrawTrade),
        (any::<u8>(), id).prop_map(|(n, edge)| Action::BuildNeutralRoad {
            neutral: Seat(n % 6),
            edge
        }),
        (any::<u8>(), id).prop_map(|(n, node)| Action::BuildNeutralSettlement {
            neutral: Seat(n % 6),
            node
        }),
        Just(Action::ForcedTrade),
        counts().prop_map(|cards| Action::ForcedTradeGive { cards }),
        Just(Action::RobberToDesert),
        Just(Action::DiscardKnight),
        Just(Action::AskNeutralTrade),
        (counts(), resource())
            .prop_map(|(give, receive)| Action::AcceptNeutralTrade { give, receive }),
        Just(Action::DeclineNeutralTrade),
        any::<bool>().prop_map(|reroll| Action::VoteReroll { reroll }),
        counts().prop_map(|cards| Action::Bid { cards }),
        Just(Action::PassBid),
        counts().prop_map(|cards| Action::RaiseBid { cards }),
        Just(Action::Concede),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn arbitrary_actions_never_panic_or_corrupt(pick in any::<prop::sample::Index>(), seat in 0u8..6, a in action()) {
        let mut s = positions()[pick.index(positions().len())].clone();
        let result = apply_checked(&mut s, Seat(seat), &a);
        prop_assert!(result.is_ok(), "{}", result.unwrap_err());
        check_state(&s).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn arbitrary_json_never_panics(json in "\\{\"type\":\"[a-z_]{3,22}\"(,\"[a-z]{2,9}\":[0-9a-z\\[\\]{}\",:]{0,20}){0,2}\\}") {
        // Whatever parses is applied; whatever does not is a clean error.
        if let Ok(a) = serde_json::from_str::<Action>(&json) {
            let mut s = positions()[0].clone();
            let _ = apply_checked(&mut s, Seat(0), &a);
        }
    }
}

#[test]
fn unknown_fields_and_wrong_types_are_rejected_by_the_wire_format() {
    for bad in [
        r#"{"type":"build_road"}"#,
        r#"{"type":"build_road","edge":-1}"#,
        r#"{"type":"build_road","edge":"3"}"#,
        r#"{"type":"build_road","edge":3,"extra":1}"#,
        r#"{"type":"discard","cards":{"gold":1}}"#,
        r#"{"type":"fly"}"#,
        r#"{"edge":3}"#,
    ] {
        assert!(serde_json::from_str::<Action>(bad).is_err(), "{bad} parsed");
    }
    let ok: Action = serde_json::from_str(r#"{"type":"discard","cards":{"ore":2}}"#).unwrap();
    assert_eq!(
        ok,
        Action::Discard {
            cards: ResourceCounts::new(0, 0, 0, 0, 2)
        }
    );
}
