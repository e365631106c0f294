//! What a client author reads besides the schemas: how each legal-action
//! entry becomes an action, and every reason an `illegal_move` can give.
//! Both are in the OpenAPI document and in docs/clients.md, made from the
//! engine's own types, and checked here against each other.
//!
//! After a change to either, rewrite docs/clients.md's generated sections
//! with `HEXPOST_WRITE_DOCS=1 cargo test --test server client_docs::`.

use hexpost_engine::cards::{Commodity, DevCard, ProgressCard, Resource, Track};
use hexpost_engine::{ActionError, Cards, Seat};
use serde_json::Value;
use std::collections::BTreeSet;

const DOC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/clients.md");

/// One of each reason the engine gives.
fn one_of_each() -> Vec<ActionError> {
    use ActionError::*;
    let seats = || [Seat(1)].into_iter().collect();
    vec![
        GameOver,
        UnknownSeat { seat: Seat(3) },
        NotYourDecision { awaiting: seats() },
        WrongPhase {
            action: "roll_dice",
            phase: "after the roll",
        },
        CannotAfford { cost: Cards::ZERO },
        NoPiecesLeft { piece: "city" },
        InvalidNode { node: 99 },
        InvalidEdge { edge: 99 },
        InvalidHex { hex: 99 },
        Occupied,
        DistanceRule,
        NotConnected,
        SetupRoadMustTouchSettlement,
        NotYourSettlement,
        HarborNotOwned {
            resource: Resource::Wool,
            ratio: 2,
            best: 4,
        },
        NoSuchCard {
            card: DevCard::Knight,
        },
        CardBoughtThisTurn {
            card: DevCard::Knight,
        },
        DevCardAlreadyPlayed,
        VictoryPointNotPlayable,
        DeckEmpty,
        RobberMustMove,
        FriendlyRobber { hex: 4 },
        InvalidVictim {
            victim: Some(Seat(1)),
            reason: "they have no building on the hex",
        },
        VictimRequired {
            candidates: seats(),
        },
        WrongDiscardCount {
            expected: 4,
            got: 3,
        },
        CardsNotHeld,
        InvalidTrade {
            reason: "give and receive overlap",
        },
        NoOpenOffer,
        OfferAlreadyOpen,
        BankShortage {
            resource: Resource::Ore,
        },
        WrongResourceCount { expected: 2 },
        NotInVariant {
            action: "forced_trade",
            variant: "standard",
        },
        DomesticTradeDisabled,
        NoTokens { cost: 2, held: 1 },
        TokenActionUsed,
        OpponentHasNoCards,
        TooFewCardsToGive { held: 1 },
        NoPlayedKnight,
        KnightAlreadyDiscarded,
        TokenSupplyEmpty,
        NotANeutral { seat: Seat(1) },
        WrongNeutralPiece { expected: "road" },
        NeutralTradeUsed,
        NotOffered {
            resource: Resource::Grain,
        },
        EmptyBid,
        BidTooLow { needed: 3 },
        CommodityShortage {
            commodity: Commodity::Coin,
        },
        RobberLocked,
        ProgressCardNotHeld {
            card: ProgressCard::Alchemist,
        },
        ProgressCardRefused {
            card: ProgressCard::Alchemist,
            reason: "only before the roll",
        },
        ProgressLimit { held: 5 },
        WallRefused {
            reason: "that city has a wall",
        },
        ImprovementRefused {
            track: Track::Trade,
            reason: "no city for level 4",
        },
        KnightRefused {
            reason: "the knight is not active",
        },
        InvalidChoice {
            reason: "not offered",
        },
    ]
}

/// Which variant `e` is, numbered in declaration order. Exhaustive: a new
/// reason does not compile until it is numbered here, and the test then
/// wants it in `one_of_each`.
fn variant_index(e: &ActionError) -> usize {
    use ActionError::*;
    match e {
        GameOver => 0,
        UnknownSeat { .. } => 1,
        NotYourDecision { .. } => 2,
        WrongPhase { .. } => 3,
        CannotAfford { .. } => 4,
        NoPiecesLeft { .. } => 5,
        InvalidNode { .. } => 6,
        InvalidEdge { .. } => 7,
        InvalidHex { .. } => 8,
        Occupied => 9,
        DistanceRule => 10,
        NotConnected => 11,
        SetupRoadMustTouchSettlement => 12,
        NotYourSettlement => 13,
        HarborNotOwned { .. } => 14,
        NoSuchCard { .. } => 15,
        CardBoughtThisTurn { .. } => 16,
        DevCardAlreadyPlayed => 17,
        VictoryPointNotPlayable => 18,
        DeckEmpty => 19,
        RobberMustMove => 20,
        FriendlyRobber { .. } => 21,
        InvalidVictim { .. } => 22,
        VictimRequired { .. } => 23,
        WrongDiscardCount { .. } => 24,
        CardsNotHeld => 25,
        InvalidTrade { .. } => 26,
        NoOpenOffer => 27,
        OfferAlreadyOpen => 28,
        BankShortage { .. } => 29,
        WrongResourceCount { .. } => 30,
        NotInVariant { .. } => 31,
        DomesticTradeDisabled => 32,
        NoTokens { .. } => 33,
        TokenActionUsed => 34,
        OpponentHasNoCards => 35,
        TooFewCardsToGive { .. } => 36,
        NoPlayedKnight => 37,
        KnightAlreadyDiscarded => 38,
        TokenSupplyEmpty => 39,
        NotANeutral { .. } => 40,
        WrongNeutralPiece { .. } => 41,
        NeutralTradeUsed => 42,
        NotOffered { .. } => 43,
        EmptyBid => 44,
        BidTooLow { .. } => 45,
        CommodityShortage { .. } => 46,
        RobberLocked => 47,
        ProgressCardNotHeld { .. } => 48,
        ProgressCardRefused { .. } => 49,
        ProgressLimit { .. } => 50,
        WallRefused { .. } => 51,
        ImprovementRefused { .. } => 52,
        KnightRefused { .. } => 53,
        InvalidChoice { .. } => 54,
    }
}

const VARIANTS: usize = 55;

fn document() -> Value {
    hexpost::openapi::document()
}

fn members<'a>(doc: &'a Value, schema: &str) -> &'a Vec<Value> {
    doc["components"]["schemas"][schema]["oneOf"]
        .as_array()
        .unwrap_or_else(|| panic!("{schema} is not a oneOf"))
}

fn tag<'a>(member: &'a Value, field: &str) -> &'a str {
    member["properties"][field]["enum"][0].as_str().unwrap()
}

#[test]
fn the_samples_cover_every_reason_once() {
    let indices: Vec<usize> = one_of_each().iter().map(variant_index).collect();
    assert_eq!(indices, (0..VARIANTS).collect::<Vec<_>>());
}

#[test]
fn the_spec_lists_every_illegal_move_reason() {
    let doc = document();
    let listed: BTreeSet<&str> = members(&doc, "ActionError")
        .iter()
        .map(|m| tag(m, "code"))
        .collect();
    let engine: BTreeSet<String> = one_of_each().iter().map(ActionError::code).collect();
    let engine: BTreeSet<&str> = engine.iter().map(String::as_str).collect();
    assert_eq!(listed, engine);
    // The moves endpoint points at them.
    let problem = &doc["components"]["schemas"]["IllegalMoveProblem"];
    assert_eq!(
        problem["allOf"][1]["properties"]["reason"]["oneOf"][0]["$ref"],
        "#/components/schemas/ActionError"
    );
}

#[test]
fn every_legal_action_kind_shows_the_action_sent_for_it() {
    let doc = document();
    let actions: Vec<&Value> = members(&doc, "Action").iter().collect();
    for member in members(&doc, "LegalAction") {
        let kind = tag(member, "type");
        let entry = &member["example"];
        assert_eq!(entry["type"], kind, "{kind}: no entry from a game");
        let action = actions
            .iter()
            .find(|a| tag(a, "type") == kind)
            .unwrap_or_else(|| panic!("{kind}: no action of that type"));
        assert_eq!(action["example"]["type"], kind, "{kind}: no action example");
        let sent = format!("Sent as, for example: `{}`.", action["example"]);
        assert!(
            member["description"].as_str().unwrap().contains(&sent),
            "{kind}: the description does not show the action"
        );
    }
}

/// The generated sections of docs/clients.md, from the document.
fn generated_sections(doc: &Value) -> Vec<(&'static str, String)> {
    let mut pairs =
        String::from("| kind | legal-action entry | an action sent for it |\n|---|---|---|\n");
    for member in members(doc, "LegalAction") {
        let kind = tag(member, "type");
        let action = members(doc, "Action")
            .iter()
            .find(|a| tag(a, "type") == kind)
            .map(|a| a["example"].to_string())
            .unwrap_or_default();
        pairs += &format!("| `{kind}` | `{}` | `{action}` |\n", member["example"]);
    }
    let mut reasons =
        String::from("| `reason.code` | other members | for example |\n|---|---|---|\n");
    let samples = one_of_each();
    for member in members(doc, "ActionError") {
        let code = tag(member, "code");
        let fields: Vec<String> = member["properties"]
            .as_object()
            .unwrap()
            .keys()
            .filter(|k| *k != "code")
            .map(|k| format!("`{k}`"))
            .collect();
        let sample = samples.iter().find(|e| e.code() == code).unwrap();
        reasons += &format!("| `{code}` | {} | {sample} |\n", fields.join(", "));
    }
    vec![
        ("legal-action-pairs", pairs),
        ("illegal-move-reasons", reasons),
    ]
}

fn replace_section(text: &str, name: &str, body: &str) -> Option<String> {
    let start = format!("<!-- generated: {name} -->\n");
    let end = format!("<!-- end: {name} -->");
    let from = text.find(&start)? + start.len();
    let to = from + text[from..].find(&end)?;
    Some(format!("{}{body}{}", &text[..from], &text[to..]))
}

#[test]
fn docs_clients_md_shows_the_same_pairs_and_reasons() {
    let doc = document();
    let on_disk = std::fs::read_to_string(DOC).unwrap();
    let mut text = on_disk.clone();
    for (name, body) in generated_sections(&doc) {
        text = replace_section(&text, name, &body)
            .unwrap_or_else(|| panic!("docs/clients.md has no section {name}"));
    }
    if std::env::var_os("HEXPOST_WRITE_DOCS").is_some() {
        std::fs::write(DOC, &text).unwrap();
        return;
    }
    assert!(
        text == on_disk,
        "docs/clients.md is out of date: run `HEXPOST_WRITE_DOCS=1 cargo test --test server client_docs::`"
    );
}
