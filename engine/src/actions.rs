//! The one action type clients send (internally tagged JSON), and the legal
//! action list a seat is offered.

use crate::board::{EdgeId, EdgeSet, HexId, NodeId, NodeSet, ResourceSet};
use crate::cards::{Cards, Resource};
use crate::seats::{Seat, SeatList};
use serde::{Deserialize, Serialize};

/// Everything a real player can do. Build actions are the same in set-up and
/// in play: the phase decides whether they cost resources.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    RollDice,
    EndTurn,
    BuildRoad {
        edge: EdgeId,
    },
    BuildSettlement {
        node: NodeId,
    },
    BuildCity {
        node: NodeId,
    },
    BuyDevelopmentCard,
    /// Move the robber to `hex` and steal from `victim` (null when nobody
    /// on the hex holds cards).
    PlayKnight {
        hex: HexId,
        #[serde(default)]
        victim: Option<Seat>,
    },
    PlayRoadBuilding,
    /// Two resources from the bank (one only when the bank holds fewer than two cards).
    PlayYearOfPlenty {
        resources: Vec<Resource>,
    },
    PlayMonopoly {
        resource: Resource,
    },
    /// After a 7: move the robber and steal.
    MoveRobber {
        hex: HexId,
        #[serde(default)]
        victim: Option<Seat>,
    },
    Discard {
        cards: Cards,
    },
    /// Give `ratio` of `give` to the bank for one `receive`; the ratio is
    /// the best the player's harbors allow.
    MaritimeTrade {
        give: Resource,
        receive: Resource,
        /// Optional: the ratio the client expects; refused if the player
        /// has no harbor for it.
        #[serde(default)]
        ratio: Option<u8>,
    },
    /// Offer the opponent `give` in exchange for `receive`.
    OfferTrade {
        give: Cards,
        receive: Cards,
    },
    AcceptTrade,
    DeclineTrade,
    WithdrawTrade,

    // --- Rulesets' own actions: refused with `not_in_variant` elsewhere. ---
    /// catan_for_two: the free neutral road owed after building one;
    /// neutral_trader: the neutral road won in a roll-off.
    BuildNeutralRoad {
        neutral: Seat,
        edge: EdgeId,
    },
    /// catan_for_two: the free neutral settlement owed after building one.
    BuildNeutralSettlement {
        neutral: Seat,
        node: NodeId,
    },
    /// catan_for_two token action: draw two random cards from the opponent,
    /// then give two (`forced_trade_give`).
    ForcedTrade,
    /// catan_for_two: the two cards given back after a forced trade's draw.
    ForcedTradeGive {
        cards: Cards,
    },
    /// catan_for_two token action: move the robber to the desert, no steal.
    RobberToDesert,
    /// catan_for_two: discard one played knight for two trade tokens.
    DiscardKnight,
    /// neutral_trader: roll on the chart for a trade with the neutral.
    AskNeutralTrade,
    /// neutral_trader: take the chart's proposal, giving `give` for one `receive`.
    AcceptNeutralTrade {
        give: Cards,
        receive: Resource,
    },
    DeclineNeutralTrade,
    /// shadow, re-roll policy `agree`: ask (true) or refuse (false) to
    /// re-roll the removed hexes.
    VoteReroll {
        reroll: bool,
    },
    /// shadow auction: a sealed first bid of some cards for the offered card.
    Bid {
        cards: Cards,
    },
    /// shadow auction: no bid.
    PassBid,
    /// shadow auction: add `cards` to one's bid, reaching at least the other's.
    RaiseBid {
        cards: Cards,
    },
    /// shadow auction: give up to the higher bid.
    Concede,
}

impl Action {
    /// The action's wire name, used in error messages.
    pub fn name(&self) -> &'static str {
        match self {
            Action::RollDice => "roll_dice",
            Action::EndTurn => "end_turn",
            Action::BuildRoad { .. } => "build_road",
            Action::BuildSettlement { .. } => "build_settlement",
            Action::BuildCity { .. } => "build_city",
            Action::BuyDevelopmentCard => "buy_development_card",
            Action::PlayKnight { .. } => "play_knight",
            Action::PlayRoadBuilding => "play_road_building",
            Action::PlayYearOfPlenty { .. } => "play_year_of_plenty",
            Action::PlayMonopoly { .. } => "play_monopoly",
            Action::MoveRobber { .. } => "move_robber",
            Action::Discard { .. } => "discard",
            Action::MaritimeTrade { .. } => "maritime_trade",
            Action::OfferTrade { .. } => "offer_trade",
            Action::AcceptTrade => "accept_trade",
            Action::DeclineTrade => "decline_trade",
            Action::WithdrawTrade => "withdraw_trade",
            Action::BuildNeutralRoad { .. } => "build_neutral_road",
            Action::BuildNeutralSettlement { .. } => "build_neutral_settlement",
            Action::ForcedTrade => "forced_trade",
            Action::ForcedTradeGive { .. } => "forced_trade_give",
            Action::RobberToDesert => "robber_to_desert",
            Action::DiscardKnight => "discard_knight",
            Action::AskNeutralTrade => "ask_neutral_trade",
            Action::AcceptNeutralTrade { .. } => "accept_neutral_trade",
            Action::DeclineNeutralTrade => "decline_neutral_trade",
            Action::VoteReroll { .. } => "vote_reroll",
            Action::Bid { .. } => "bid",
            Action::PassBid => "pass_bid",
            Action::RaiseBid { .. } => "raise_bid",
            Action::Concede => "concede",
        }
    }

    /// True for the actions only some rulesets have; the base game refuses
    /// them with `not_in_variant` when the ruleset did not take them.
    pub fn variant_only(&self) -> bool {
        matches!(
            self,
            Action::BuildNeutralRoad { .. }
                | Action::BuildNeutralSettlement { .. }
                | Action::ForcedTrade
                | Action::ForcedTradeGive { .. }
                | Action::RobberToDesert
                | Action::DiscardKnight
                | Action::AskNeutralTrade
                | Action::AcceptNeutralTrade { .. }
                | Action::DeclineNeutralTrade
                | Action::VoteReroll { .. }
                | Action::Bid { .. }
                | Action::PassBid
                | Action::RaiseBid { .. }
                | Action::Concede
        )
    }
}

/// Where the robber may go and whom it may rob there. An empty `victims`
/// list means the action carries `victim: null`.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RobberTarget {
    pub hex: HexId,
    pub victims: SeatList,
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MaritimeOption {
    pub give: Resource,
    pub ratio: u8,
    pub receive: ResourceSet,
}

/// One entry of a seat's legal-action list: an action type with the choices
/// that make it legal. Small choice sets are listed in full; large ones
/// (discards, trade offers, Year of Plenty) are templates with their bounds.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum LegalAction {
    RollDice,
    EndTurn,
    /// `free`: set-up or Road Building, no cost.
    BuildRoad {
        edges: EdgeSet,
        free: bool,
    },
    BuildSettlement {
        nodes: NodeSet,
        free: bool,
    },
    BuildCity {
        nodes: NodeSet,
    },
    BuyDevelopmentCard,
    PlayKnight {
        targets: Vec<RobberTarget>,
    },
    PlayRoadBuilding,
    /// Choose `count` resources; the bank's composition is hidden, so a
    /// resource it has run out of is refused with `bank_shortage`.
    PlayYearOfPlenty {
        count: u8,
    },
    PlayMonopoly,
    MoveRobber {
        targets: Vec<RobberTarget>,
    },
    /// Choose exactly `count` cards of your hand.
    Discard {
        count: u8,
    },
    MaritimeTrade {
        options: Vec<MaritimeOption>,
    },
    /// Offer any non-empty part of your hand for any non-empty set of other
    /// resources.
    OfferTrade,
    AcceptTrade,
    DeclineTrade,
    WithdrawTrade,

    // --- Variant entries ---
    BuildNeutralRoad {
        neutral: Seat,
        edges: EdgeSet,
    },
    BuildNeutralSettlement {
        neutral: Seat,
        nodes: NodeSet,
    },
    /// `cost`: the trade tokens it takes (1 or 2).
    ForcedTrade {
        cost: u8,
    },
    /// Give exactly `count` cards of your hand.
    ForcedTradeGive {
        count: u8,
    },
    RobberToDesert {
        cost: u8,
    },
    DiscardKnight,
    AskNeutralTrade,
    /// Give `give` cards of your choice, none of the resource received, for
    /// one of `receive` (what the chart names and the neutral holds).
    AcceptNeutralTrade {
        give: u8,
        receive: ResourceSet,
    },
    DeclineNeutralTrade,
    /// `reroll` true or false.
    VoteReroll,
    /// Bid any non-empty part of your hand.
    Bid,
    PassBid,
    /// Add at least `min` cards (to reach the other bid) from the `available`
    /// cards of your hand not already bid.
    RaiseBid {
        min: u8,
        available: u8,
    },
    Concede,
}

impl LegalAction {
    /// How many concrete actions this entry stands for, counting a template
    /// as one; used to sample uniformly over concrete actions.
    pub fn weight(&self) -> usize {
        match self {
            LegalAction::BuildRoad { edges, .. } => edges.len(),
            LegalAction::BuildSettlement { nodes, .. } => nodes.len(),
            LegalAction::BuildCity { nodes } => nodes.len(),
            LegalAction::PlayKnight { targets } | LegalAction::MoveRobber { targets } => {
                targets.iter().map(|t| t.victims.len().max(1)).sum()
            }
            LegalAction::MaritimeTrade { options } => options.iter().map(|o| o.receive.len()).sum(),
            LegalAction::BuildNeutralRoad { edges, .. } => edges.len(),
            LegalAction::BuildNeutralSettlement { nodes, .. } => nodes.len(),
            LegalAction::AcceptNeutralTrade { receive, .. } => receive.len(),
            LegalAction::VoteReroll => 2,
            _ => 1,
        }
    }
}
