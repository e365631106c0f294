//! Why an action was refused. Every variant has a stable machine-readable
//! `code` (the serde tag) and a human sentence (Display).

use crate::board::{EdgeId, HexId, NodeId};
use crate::cards::{CardKind, Cards, Commodity, DevCard, ProgressCard, Resource, Track};
use crate::seats::{Seat, SeatList};
use serde::Serialize;

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize)]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum ActionError {
    #[error("the game is over")]
    GameOver,
    #[error("{seat} is not a real player of this game")]
    UnknownSeat { seat: Seat },
    #[error("it is not your decision: waiting for {}", seats(awaiting))]
    NotYourDecision { awaiting: SeatList },
    #[error("`{action}` is not allowed now ({phase})")]
    WrongPhase {
        action: &'static str,
        phase: &'static str,
    },
    #[error("cannot afford it: it costs {}", cards(cost))]
    CannotAfford { cost: Cards },
    #[error("no {piece} left in your supply")]
    NoPiecesLeft { piece: &'static str },
    #[error("node {node} does not exist")]
    InvalidNode { node: NodeId },
    #[error("edge {edge} does not exist")]
    InvalidEdge { edge: EdgeId },
    #[error("hex {hex} does not exist")]
    InvalidHex { hex: HexId },
    #[error("that place is already taken")]
    Occupied,
    #[error("distance rule: a neighbouring intersection has a building")]
    DistanceRule,
    #[error("not connected to your road network")]
    NotConnected,
    #[error("the set-up road must touch the settlement just placed")]
    SetupRoadMustTouchSettlement,
    #[error("a city replaces one of your own settlements")]
    NotYourSettlement,
    #[error("you have no {resource} harbor for {ratio}:1, your best ratio is {best}:1")]
    HarborNotOwned {
        resource: Resource,
        ratio: u8,
        best: u8,
    },
    #[error("you hold no playable {} card", words(card.name()))]
    NoSuchCard { card: DevCard },
    #[error("a {} card bought this turn cannot be played until your next turn", words(card.name()))]
    CardBoughtThisTurn { card: DevCard },
    #[error("you have already played a development card this turn")]
    DevCardAlreadyPlayed,
    #[error("victory point cards are never played; they count while hidden")]
    VictoryPointNotPlayable,
    #[error("the development deck is empty")]
    DeckEmpty,
    #[error("the robber must move to a different hex")]
    RobberMustMove,
    #[error("friendly robber: hex {hex} touches a building of a player with 2 or fewer visible VP")]
    FriendlyRobber { hex: HexId },
    #[error("{} cannot be robbed here: {reason}", victim.map_or("nobody".to_string(), |s| s.to_string()))]
    InvalidVictim {
        victim: Option<Seat>,
        reason: &'static str,
    },
    #[error("choose whom to rob: {}", seats(candidates))]
    VictimRequired { candidates: SeatList },
    #[error("you must discard exactly {expected} cards, not {got}")]
    WrongDiscardCount { expected: u8, got: u32 },
    #[error("you do not hold those cards")]
    CardsNotHeld,
    #[error("invalid trade: {reason}")]
    InvalidTrade { reason: &'static str },
    #[error("there is no open trade offer")]
    NoOpenOffer,
    #[error("a trade offer is already open; withdraw it first")]
    OfferAlreadyOpen,
    #[error("the bank has no {resource} left")]
    BankShortage { resource: Resource },
    #[error("choose {expected} resource(s)")]
    WrongResourceCount { expected: u8 },
    #[error("`{action}` is not part of the {variant} variant")]
    NotInVariant {
        action: &'static str,
        variant: &'static str,
    },
    #[error("players may not trade with each other in this game (option no_player_trade)")]
    DomesticTradeDisabled,
    #[error("this takes {cost} trade token(s) and you hold {held}")]
    NoTokens { cost: u8, held: u8 },
    #[error("you have already taken a trade-token action this turn")]
    TokenActionUsed,
    #[error("your opponent holds no cards")]
    OpponentHasNoCards,
    #[error("after the draw you would hold {held} card(s), fewer than the 2 you must give")]
    TooFewCardsToGive { held: u32 },
    #[error("you have no played knight to discard")]
    NoPlayedKnight,
    #[error("you have already discarded a knight this turn")]
    KnightAlreadyDiscarded,
    #[error("the trade-token supply is empty")]
    TokenSupplyEmpty,
    #[error("{seat} is not a neutral colour you may build for now")]
    NotANeutral { seat: Seat },
    #[error("you must build a neutral {expected} now")]
    WrongNeutralPiece { expected: &'static str },
    #[error("you have already traded with the neutral this turn")]
    NeutralTradeUsed,
    #[error("the chart's proposal does not offer {resource}")]
    NotOffered { resource: Resource },
    #[error("a bid must hold at least one card")]
    EmptyBid,
    #[error("a raise must bring your bid to at least {needed} cards")]
    BidTooLow { needed: u32 },
    #[error("the bank has no {commodity} left")]
    CommodityShortage { commodity: Commodity },
    #[error("the robber stays on the desert until the barbarians have attacked once")]
    RobberLocked,
    #[error("you hold no {card} card")]
    ProgressCardNotHeld { card: ProgressCard },
    #[error("{card} cannot be played now: {reason}")]
    ProgressCardRefused {
        card: ProgressCard,
        reason: &'static str,
    },
    #[error("you hold {held} progress cards: discard down to 4 before ending your turn")]
    ProgressLimit { held: u8 },
    #[error("city wall refused: {reason}")]
    WallRefused { reason: &'static str },
    #[error("{track} improvement refused: {reason}")]
    ImprovementRefused { track: Track, reason: &'static str },
    #[error("knight action refused: {reason}")]
    KnightRefused { reason: &'static str },
    #[error("not one of the choices offered: {reason}")]
    InvalidChoice { reason: &'static str },
}

impl ActionError {
    /// The stable code clients match on.
    pub fn code(&self) -> String {
        let v = serde_json::to_value(self).expect("errors serialize");
        v["code"].as_str().unwrap_or("invalid_action").to_string()
    }
}

/// The codes only Cities & Knights gives (RULES.md §6), in the enum's
/// order. The test below derives them from the rules' sources, so a code
/// added there cannot be left out here.
pub const CK_CODES: [&str; 9] = [
    "commodity_shortage",
    "robber_locked",
    "progress_card_not_held",
    "progress_card_refused",
    "progress_limit",
    "wall_refused",
    "improvement_refused",
    "knight_refused",
    "invalid_choice",
];

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;
    use std::path::Path;

    /// `ActionError::Name`s written in the `.rs` files under `dir`.
    fn named(dir: &Path, skip: &dyn Fn(&Path) -> bool, out: &mut BTreeSet<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if skip(&path) {
                continue;
            }
            if path.is_dir() {
                named(&path, skip, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                for (at, _) in text.match_indices("ActionError::") {
                    let name: String = text[at + "ActionError::".len()..]
                        .chars()
                        .take_while(char::is_ascii_alphanumeric)
                        .collect();
                    out.insert(name);
                }
            }
        }
    }

    fn snake_case(name: &str) -> String {
        let mut out = String::new();
        for c in name.chars() {
            if c.is_ascii_uppercase() && !out.is_empty() {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        }
        out
    }

    /// The refusals the ck_for_two ruleset writes that no other rules code
    /// does (this file defines them; the simulator only matches on them).
    #[test]
    fn ck_codes_are_the_refusals_only_the_ck_ruleset_gives() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let ck_dir = src.join("rulesets/ck_for_two");
        let mut ck = BTreeSet::new();
        named(&ck_dir, &|_| false, &mut ck);
        let mut others = BTreeSet::new();
        let not_rules =
            |p: &Path| p == ck_dir || ["error.rs", "sim.rs"].iter().any(|f| p == src.join(f));
        named(&src, &not_rules, &mut others);
        let only_ck: BTreeSet<String> = ck.difference(&others).map(|n| snake_case(n)).collect();
        let listed: BTreeSet<String> = super::CK_CODES.iter().map(|c| c.to_string()).collect();
        assert_eq!(only_ck, listed);
        assert_eq!(listed.len(), super::CK_CODES.len(), "a code listed twice");
    }
}

/// Seats as a sentence says them: "seat 1", "seat 0 or seat 1".
fn seats(list: &SeatList) -> String {
    match list
        .iter()
        .map(Seat::to_string)
        .collect::<Vec<_>>()
        .as_slice()
    {
        [] => "nobody".to_string(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// Card counts as a sentence says them: "1 brick, 1 lumber and 1 wool".
fn cards(cards: &Cards) -> String {
    let parts: Vec<String> = cards
        .iter()
        .filter(|(_, n)| *n > 0)
        .map(|(kind, n)| format!("{n} {}", words(kind.name())))
        .collect();
    match parts.as_slice() {
        [] => "nothing".to_string(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// A wire name in words: `road_building` → "road building".
fn words(name: &str) -> String {
    name.replace('_', " ")
}

#[cfg(test)]
mod wording {
    use super::*;

    #[test]
    fn refusals_name_seats_cards_and_costs_in_words() {
        let both: SeatList = [Seat(0), Seat(1)].into_iter().collect();
        let one: SeatList = [Seat(1)].into_iter().collect();
        assert_eq!(
            ActionError::NotYourDecision { awaiting: one }.to_string(),
            "it is not your decision: waiting for seat 1"
        );
        assert_eq!(
            ActionError::VictimRequired { candidates: both }.to_string(),
            "choose whom to rob: seat 0 or seat 1"
        );
        let mut cost = Cards::ZERO;
        cost[Resource::Brick] = 1;
        cost[Resource::Lumber] = 1;
        assert_eq!(
            ActionError::CannotAfford { cost }.to_string(),
            "cannot afford it: it costs 1 brick and 1 lumber"
        );
        assert_eq!(
            ActionError::NoSuchCard {
                card: DevCard::RoadBuilding
            }
            .to_string(),
            "you hold no playable road building card"
        );
        assert_eq!(
            ActionError::InvalidVictim {
                victim: Some(Seat(1)),
                reason: "they hold no cards"
            }
            .to_string(),
            "seat 1 cannot be robbed here: they hold no cards"
        );
    }
}
