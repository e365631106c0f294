//! Nothing panics on any input: arbitrary actions (any ids, seats, card
//! counts, including out-of-range values) are applied to positions taken
//! from random games. A refused action must leave the state unchanged, an
//! accepted one must leave it consistent.

use hexpost_engine::cards::{Card, CardKind, Commodity, ProgressCard, Track};
use hexpost_engine::invariants::{apply_checked, check_state};
use hexpost_engine::rulesets::ck_for_two::wire::ProgressPlay;
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
            (Variant::CkForTwo, 10, &[]),
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
        ck_action(),
    ]
}

fn card() -> impl Strategy<Value = Card> {
    prop::sample::select(<Card as CardKind>::ALL.to_vec())
}

fn track() -> impl Strategy<Value = Track> {
    prop::sample::select(Track::ALL.to_vec())
}

fn progress_card() -> impl Strategy<Value = ProgressCard> {
    prop::sample::select(ProgressCard::ALL.to_vec())
}

/// Cities & Knights' actions, with any ids and cards.
fn ck_action() -> impl Strategy<Value = Action> {
    let id = any::<u8>();
    prop_oneof![
        id.prop_map(|node| Action::BuildWall { node }),
        (track(), any::<bool>()).prop_map(|(track, crane)| Action::BuyImprovement { track, crane }),
        id.prop_map(|node| Action::RecruitKnight { node }),
        id.prop_map(|node| Action::ActivateKnight { node }),
        id.prop_map(|node| Action::PromoteKnight { node }),
        (id, id).prop_map(|(from, to)| Action::MoveKnight { from, to }),
        (id, id).prop_map(|(from, to)| Action::DisplaceKnight { from, to }),
        (id, id, prop::option::of(any::<u8>().prop_map(Seat))).prop_map(|(knight, hex, victim)| {
            Action::ChaseRobber {
                knight,
                hex,
                victim,
            }
        }),
        id.prop_map(|node| Action::RemoveKnight { node }),
        (card(), card(), prop::option::of(any::<u8>())).prop_map(|(give, receive, ratio)| {
            Action::BankTrade {
                give,
                receive,
                ratio,
            }
        }),
        Just(Action::ForcedTradeResources),
        progress_play().prop_map(|play| Action::PlayProgress { play }),
        progress_card().prop_map(|card| Action::DiscardProgress { card }),
        id.prop_map(|node| Action::LoseCity { node }),
        track().prop_map(|track| Action::DrawProgress { track }),
        prop::option::of(resource()).prop_map(|resource| Action::AqueductPick { resource }),
        counts().prop_map(|cards| Action::GiveCards { cards }),
        id.prop_map(|node| Action::GiveUpKnight { node }),
        id.prop_map(|node| Action::RetreatKnight { node }),
        (any::<u8>(), id).prop_map(|(n, node)| Action::PlaceNeutralKnight {
            neutral: Seat(n % 6),
            node
        }),
        id.prop_map(|node| Action::PromoteNeutralKnight { node }),
        prop::option::of(id).prop_map(|node| Action::PlaceDeserterKnight { node }),
        prop::option::of(id).prop_map(|edge| Action::ReplaceRoad { edge }),
        prop::option::of(progress_card()).prop_map(|card| Action::SpyTake { card }),
        counts().prop_map(|cards| Action::TakeCards { cards }),
        prop::option::of(id).prop_map(|node| Action::SmithPromote { node }),
        id.prop_map(|node| Action::PlaceMetropolis { node }),
    ]
}

fn progress_play() -> impl Strategy<Value = ProgressPlay> {
    let id = any::<u8>();
    prop_oneof![
        (any::<u8>(), any::<u8>())
            .prop_map(|(yellow, red)| ProgressPlay::Alchemist { yellow, red }),
        id.prop_map(|node| ProgressPlay::Engineer { node }),
        (id, id).prop_map(|(a, b)| ProgressPlay::Inventor { hexes: [a, b] }),
        Just(ProgressPlay::Irrigation),
        id.prop_map(|node| ProgressPlay::Medicine { node }),
        Just(ProgressPlay::Mining),
        Just(ProgressPlay::RoadBuilding),
        id.prop_map(|node| ProgressPlay::Smith { node }),
        (id, prop::option::of(any::<u8>().prop_map(Seat)))
            .prop_map(|(hex, victim)| ProgressPlay::Bishop { hex, victim }),
        (any::<u8>(), prop::option::of(id)).prop_map(|(t, node)| ProgressPlay::Deserter {
            target: Seat(t % 6),
            node
        }),
        id.prop_map(|edge| ProgressPlay::Diplomat { edge }),
        id.prop_map(|node| ProgressPlay::Intrigue { node }),
        Just(ProgressPlay::Saboteur),
        Just(ProgressPlay::Spy),
        Just(ProgressPlay::Warlord),
        Just(ProgressPlay::Wedding),
        resource().prop_map(|resource| ProgressPlay::CommercialHarbor { resource }),
        Just(ProgressPlay::MasterMerchant),
        id.prop_map(|hex| ProgressPlay::Merchant { hex }),
        card().prop_map(|named| ProgressPlay::MerchantFleet { named }),
        resource().prop_map(|resource| ProgressPlay::ResourceMonopoly { resource }),
        prop::sample::select(Commodity::ALL.to_vec())
            .prop_map(|commodity| ProgressPlay::TradeMonopoly { commodity }),
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
