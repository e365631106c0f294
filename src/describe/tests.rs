//! Every event's sentence, snapshotted so the wording is reviewed in the
//! diff, and what a reader may not know left out of it.

use super::*;
use hexpost_engine::LegalAction;
use hexpost_engine::board::{NodeSet, ResourceSet, topology};
use hexpost_engine::cards::{
    Card, Cards, Commodity, DevCard, DevCounts, ProgressCard, ProgressCounts, Resource, Track,
};
use hexpost_engine::dice::EventFace;
use hexpost_engine::events::{
    AuctionWin, ChartOutcome, KnightRemoval, RerollReason, RollOffPurpose, TokenReason, TradeEnd,
};
use hexpost_engine::phases::Piece;
use hexpost_engine::rulesets::ck_for_two::KnightLevel;
use hexpost_engine::rulesets::ck_for_two::wire::ProgressOption;

const ADA: Seat = Seat(0);
const BOB: Seat = Seat(1);
const WHITE: Seat = Seat(2);
const ORANGE: Seat = Seat(3);

/// Ada and Bob on the beginner board, with a neutral and a fictional seat.
fn table() -> Table {
    Table::new(
        ["Ada".into(), "Bob".into()],
        vec![
            SeatKind::Real,
            SeatKind::Real,
            SeatKind::Neutral,
            SeatKind::Fictional,
        ],
        Board::beginner(),
    )
}

fn coin(n: u8) -> Cards {
    Cards::single(Commodity::Coin, n)
}

/// One event of each kind, with what it hides filled in.
fn every_event() -> Vec<Event> {
    use Event as E;
    let brick_ore = Cards::new(1, 0, 0, 0, 1);
    vec![
        E::GameStarted { first: BOB },
        E::RoadBuilt {
            seat: ADA,
            edge: 20,
            free: true,
        },
        E::SettlementBuilt {
            seat: WHITE,
            node: 12,
            free: false,
        },
        E::CityBuilt { seat: BOB, node: 0 },
        E::StartingResources {
            seat: ADA,
            resources: Cards::new(0, 1, 1, 1, 0),
        },
        E::DiceRolled {
            seat: ADA,
            dice: [3, 4],
            total: 7,
        },
        E::Produced {
            seat: BOB,
            resources: Cards::new(0, 0, 0, 2, 0),
        },
        E::ProductionWithheld {
            resource: Resource::Ore,
        },
        E::DiscardsRequired {
            owed: vec![(ADA, 4), (BOB, 1)],
        },
        E::Discarded {
            seat: ADA,
            cards: Cards::new(2, 0, 2, 0, 0),
        },
        E::RobberMoved { seat: ADA, hex: 4 },
        E::Stole {
            thief: ADA,
            victim: BOB,
            resource: Some(Resource::Wool),
        },
        E::DevCardBought {
            seat: BOB,
            card: Some(DevCard::Knight),
        },
        E::DevCardPlayed {
            seat: BOB,
            card: DevCard::YearOfPlenty,
        },
        E::YearOfPlenty {
            seat: BOB,
            resources: Cards::new(1, 0, 0, 0, 1),
        },
        E::Monopoly {
            seat: ADA,
            resource: Resource::Grain,
            taken: vec![(BOB, 3), (WHITE, 0)],
        },
        E::MaritimeTraded {
            seat: ADA,
            gave: Cards::new(0, 3, 0, 0, 0),
            received: Resource::Ore,
        },
        E::TradeOffered {
            seat: ADA,
            to: BOB,
            give: brick_ore,
            receive: Cards::new(0, 0, 2, 0, 0),
        },
        E::TradeAccepted {
            seat: ADA,
            by: BOB,
            give: brick_ore,
            receive: Cards::new(0, 0, 2, 0, 0),
        },
        E::TradeDeclined { seat: ADA, by: BOB },
        E::TradeWithdrawn {
            seat: ADA,
            reason: TradeEnd::Withdrawn,
        },
        E::TradeWithdrawn {
            seat: BOB,
            reason: TradeEnd::TurnEnded,
        },
        E::TradeWithdrawn {
            seat: BOB,
            reason: TradeEnd::OffererCannotPay,
        },
        E::LongestRoadChanged {
            from: Some(WHITE),
            to: Some(ADA),
            length: 6,
        },
        E::LongestRoadChanged {
            from: Some(ADA),
            to: None,
            length: 4,
        },
        E::LargestArmyChanged {
            from: None,
            to: Some(BOB),
            knights: 3,
        },
        E::TurnEnded { seat: ADA },
        E::TurnStarted {
            seat: BOB,
            turn: 12,
        },
        E::GameWon {
            seat: BOB,
            victory_points: 10,
            revealed: DevCounts::from_counts([0, 2, 0, 0, 0]),
        },
        E::TokensEarned {
            seat: ADA,
            tokens: 1,
            reason: TokenReason::Coast,
        },
        E::TokensEarned {
            seat: BOB,
            tokens: 2,
            reason: TokenReason::Knight,
        },
        E::TokensPaid {
            seat: ADA,
            tokens: 2,
        },
        E::SecondRollRepeated {
            seat: ADA,
            dice: [2, 6],
            total: 8,
        },
        E::NeutralBuildSkipped {
            seat: ADA,
            piece: Piece::Road,
        },
        E::KnightDiscarded { seat: BOB },
        E::ForcedTradeDrew {
            seat: ADA,
            from: BOB,
            cards: Some(brick_ore),
        },
        E::ForcedTradeGave {
            seat: ADA,
            to: BOB,
            cards: Some(Cards::new(0, 2, 0, 0, 0)),
        },
        E::NeutralConverted {
            seat: WHITE,
            gave: Cards::new(4, 0, 0, 0, 0),
            received: Resource::Grain,
        },
        E::RollOff {
            purpose: RollOffPurpose::Robber,
            rounds: vec![[3, 3], [5, 2]],
            winner: ADA,
        },
        E::ChartRolled {
            seat: ADA,
            dice: [1, 4],
            total: 5,
            outcome: ChartOutcome::Offer {
                give: 2,
                receive: ResourceSet(0b01100),
            },
        },
        E::ChartRolled {
            seat: BOB,
            dice: [3, 4],
            total: 7,
            outcome: ChartOutcome::TurnEnds,
        },
        E::NeutralTraded {
            seat: ADA,
            neutral: WHITE,
            gave: Cards::new(1, 1, 0, 0, 0),
            received: Resource::Wool,
        },
        E::NeutralTradeDeclined { seat: BOB },
        E::HexesRemoved {
            dice: vec![2, 5],
            sides: vec![2, 5],
            hexes: vec![4, 7],
            red_tokens: 1,
        },
        E::RemovalRerolled {
            reason: RerollReason::TooManyRedTokens,
        },
        E::RerollVoted {
            seat: ADA,
            reroll: true,
        },
        E::FictionalTurnStarted { seat: ORANGE },
        E::CardLost {
            seat: ADA,
            by: BOB,
            resource: Some(Resource::Brick),
        },
        E::BankCardTaken {
            seat: BOB,
            rolls: vec![5],
            resource: Some(Resource::Ore),
        },
        E::CardOffered {
            seat: ORANGE,
            rolls: vec![6],
            resource: None,
        },
        E::AuctionOpened {
            resource: Resource::Wool,
            bidders: [ADA, BOB].into_iter().collect(),
        },
        E::BidSubmitted { seat: ADA },
        E::BidsRevealed {
            bids: vec![(ADA, Some(Cards::new(2, 0, 0, 0, 0))), (BOB, None)],
        },
        E::BidRaised {
            seat: BOB,
            added: Cards::new(0, 0, 0, 0, 1),
            total: brick_ore,
        },
        E::Conceded { seat: ADA },
        E::AuctionWon {
            seat: BOB,
            paid: brick_ore,
            resource: Resource::Wool,
            by: AuctionWin::OtherConceded,
        },
        E::MonopolyFromFictional {
            seat: ADA,
            resource: Resource::Grain,
            draws: vec![(ORANGE, 4, 1)],
        },
        E::StoleCommodity {
            thief: BOB,
            victim: ADA,
            commodity: Some(Commodity::Paper),
        },
        E::CommodityWithheld {
            commodity: Commodity::Cloth,
        },
        E::EventDieRolled {
            seat: ADA,
            face: EventFace::Science,
        },
        E::BarbariansAdvanced { position: 4 },
        E::BarbariansAdvanced { position: 7 },
        E::BarbarianAttack {
            strength: 3,
            defence: 2,
            contributions: vec![(ADA, 2), (BOB, 0)],
        },
        E::CityPillaged {
            seat: BOB,
            node: 12,
            tipped: false,
            wall: true,
        },
        E::DefenderOfCatan { seat: ADA },
        E::BarbariansReturned { attacks: 1 },
        E::ProgressDrawn {
            seat: ADA,
            track: Track::Science,
            card: Some(ProgressCard::Alchemist),
        },
        E::VictoryCardLaidDown {
            seat: BOB,
            card: ProgressCard::Printer,
        },
        E::ProgressPlayed {
            seat: ADA,
            card: ProgressCard::Irrigation,
        },
        E::ProgressDiscarded {
            seat: BOB,
            card: ProgressCard::Spy,
        },
        E::AqueductTaken {
            seat: ADA,
            resource: Resource::Brick,
        },
        E::AqueductDeclined { seat: BOB },
        E::WallBuilt {
            seat: ADA,
            node: 12,
            free: true,
        },
        E::ImprovementBought {
            seat: ADA,
            track: Track::Politics,
            level: 3,
            paid: coin(2),
            crane: true,
        },
        E::MetropolisPlaced {
            seat: ADA,
            track: Track::Trade,
            node: 12,
            from: Some(BOB),
        },
        E::KnightPlaced {
            seat: WHITE,
            node: 14,
            level: KnightLevel::Basic,
            active: false,
            free: true,
        },
        E::KnightActivated {
            seat: ADA,
            node: 14,
            free: false,
        },
        E::KnightPromoted {
            seat: ADA,
            node: 14,
            level: KnightLevel::Mighty,
            free: false,
        },
        E::KnightMoved {
            seat: ADA,
            from: 14,
            to: 25,
        },
        E::KnightDisplaced {
            seat: ADA,
            from: Some(14),
            node: 25,
            owner: BOB,
        },
        E::KnightDisplaced {
            seat: ADA,
            from: None,
            node: 25,
            owner: WHITE,
        },
        E::KnightRetreated {
            seat: BOB,
            from: 25,
            to: 26,
        },
        E::KnightRemoved {
            seat: BOB,
            node: 26,
            level: KnightLevel::Strong,
            reason: KnightRemoval::Tokens,
        },
        E::KnightRemoved {
            seat: WHITE,
            node: 26,
            level: KnightLevel::Basic,
            reason: KnightRemoval::NoRetreat,
        },
        E::RobberChased {
            seat: ADA,
            knight: 14,
        },
        E::BankTraded {
            seat: ADA,
            gave: Cards::single(Commodity::Cloth, 2),
            received: Card::Ore,
        },
        E::CardsGiven {
            seat: BOB,
            to: ADA,
            cards: Some(Cards::new(0, 0, 1, 1, 0)),
        },
        E::CardsTaken {
            seat: ADA,
            from: BOB,
            cards: Some(coin(1)),
        },
        E::HandShown {
            seat: ADA,
            of: BOB,
            cards: Some(brick_ore),
        },
        E::ProgressHandShown {
            seat: ADA,
            of: BOB,
            cards: Some(ProgressCounts::single(ProgressCard::Bishop, 2)),
        },
        E::ProgressTaken {
            seat: ADA,
            from: BOB,
            card: Some(ProgressCard::Bishop),
        },
        E::NumberTokensSwapped {
            seat: ADA,
            hexes: vec![4, 7],
        },
        E::MerchantPlaced {
            seat: ADA,
            hex: 4,
            from: Some(BOB),
        },
        E::MerchantFleet {
            seat: BOB,
            card: Card::Wool,
        },
        E::Harvested {
            seat: ADA,
            resources: Cards::new(0, 0, 0, 4, 0),
        },
        E::RoadRemoved {
            seat: BOB,
            edge: 20,
            by: ADA,
        },
    ]
}

#[test]
fn every_event_reads_as_a_sentence() {
    let t = table();
    let lines: Vec<String> = every_event()
        .iter()
        .map(|e| event_unredacted(e, &t))
        .collect();
    for line in &lines {
        assert!(line.ends_with('.') || line.ends_with('!'), "{line}");
        assert!(!line.contains('_'), "a wire name shows: {line}");
    }
    insta::assert_snapshot!(lines.join("\n"));
}

/// What a player (or anyone outside the game) reads where an event hides
/// something from them: never the hidden part.
#[test]
fn a_reader_reads_no_more_than_they_may_know() {
    let t = table();
    let mut lines = Vec::new();
    for e in every_event() {
        for reader in [Some(ADA), Some(BOB), None] {
            let hidden = e.redacted_for(reader);
            if hidden != e {
                let line = event(&e, reader, &t);
                assert_eq!(line, event_unredacted(&hidden, &t));
                assert_ne!(line, event_unredacted(&e, &t));
                let who = reader.map_or_else(|| "anyone else".into(), |r| t.seat(r));
                lines.push(format!("to {who}: {line}"));
            }
        }
    }
    assert!(lines.len() > 10, "{lines:?}");
    insta::assert_snapshot!(lines.join("\n"));
}

#[test]
fn automated_seats_are_named_by_colour() {
    let t = table();
    assert_eq!(t.seat(WHITE), "neutral white");
    assert_eq!(t.seat(ORANGE), "fictional orange");
    let built = Event::RoadBuilt {
        seat: WHITE,
        edge: 3,
        free: true,
    };
    assert!(event(&built, None, &t).starts_with("Neutral white built a road for free on edge 3, "));
}

/// A place names its id and every land hex around it, with its number.
#[test]
fn places_name_the_hexes_around_them() {
    let t = table();
    let board = Board::beginner();
    let geom = topology()
        .nodes
        .iter()
        .find(|n| n.hexes.len() == 3)
        .unwrap();
    let text = places::node(geom.id, &t);
    assert!(
        text.starts_with(&format!("node {}, between ", geom.id)),
        "{text}"
    );
    for &h in &geom.hexes {
        let tile = board.tiles[h as usize];
        if let Some(n) = tile.number {
            assert!(text.contains(&format!("the {n} ")), "{text} lacks hex {h}");
        } else {
            assert!(text.contains("the desert"), "{text}");
        }
    }
    let coast = topology()
        .nodes
        .iter()
        .find(|n| n.hexes.len() == 1)
        .unwrap();
    assert!(places::node(coast.id, &t).contains(", on the coast of the "));
}

#[test]
fn decisions_read_as_what_to_do() {
    let t = table();
    let legal = vec![
        LegalAction::RollDice,
        LegalAction::PlayMonopoly,
        LegalAction::Discard { count: 4 },
        LegalAction::BuildNeutralRoad {
            neutral: WHITE,
            edges: Default::default(),
        },
        LegalAction::PlayProgress {
            play: Box::new(ProgressOption::MasterMerchant),
        },
        LegalAction::EndTurn,
        LegalAction::RollDice,
    ];
    assert_eq!(
        decisions(&legal, &t),
        [
            "roll the dice",
            "play Monopoly",
            "discard 4 cards",
            "build a road for neutral white",
            "play Master Merchant",
            "end your turn"
        ]
    );
}

/// Each decision Cities & Knights awaits outside the main phase is named
/// for what it is, as the mails ask for it.
#[test]
fn cities_and_knights_decisions_say_why_they_are_asked() {
    let t = table();
    let nodes = NodeSet::default;
    let legal = vec![
        LegalAction::LoseCity { nodes: nodes() },
        LegalAction::DrawProgress {
            tracks: vec![Track::Trade, Track::Science],
        },
        LegalAction::DiscardProgress,
        LegalAction::AqueductPick,
        LegalAction::GiveCards {
            count: 2,
            commodities_only: false,
        },
        LegalAction::GiveCards {
            count: 1,
            commodities_only: true,
        },
        LegalAction::RetreatKnight { nodes: nodes() },
        LegalAction::GiveUpKnight { nodes: nodes() },
        LegalAction::SpyTake,
        LegalAction::TakeCards { count: 2 },
        LegalAction::PlaceMetropolis { nodes: nodes() },
    ];
    assert_eq!(
        decisions(&legal, &t),
        [
            "choose the city the barbarians pillage",
            "as a tied defender, draw a progress card from the trade (yellow) or science (green) deck",
            "discard a progress card (you hold more than 4)",
            "take a resource with the Aqueduct, or none",
            "give 2 cards as a Wedding gift",
            "give 1 commodity in return for the Commercial Harbor",
            "choose where your displaced knight retreats",
            "give up a knight to the Deserter",
            "take one of the progress cards shown, or none",
            "take 2 cards from the hand shown",
            "choose the city for your metropolis",
        ]
    );
}
