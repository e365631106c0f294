//! The one action type clients send (internally tagged JSON), and the legal
//! action list a seat is offered.

use crate::board::{EdgeId, EdgeSet, HexId, NodeId, NodeSet, ResourceSet};
use crate::cards::{Card, Cards, ProgressCard, Resource, Track};
use crate::rulesets::ck_for_two::wire::{
    BankTradeOption, ImprovementOption, KnightMoves, ProgressOption, ProgressPlay,
};
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
    /// the best the player's harbors allow. The bank's composition is
    /// hidden, so a `receive` it has run out of is refused with
    /// `bank_shortage`.
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

    // --- ck_for_two ---
    /// A city wall under one of your cities.
    BuildWall {
        node: NodeId,
    },
    /// The next level of `track`, with a Crane (one commodity less) if `crane`.
    BuyImprovement {
        track: Track,
        #[serde(default)]
        crane: bool,
    },
    RecruitKnight {
        node: NodeId,
    },
    ActivateKnight {
        node: NodeId,
    },
    PromoteKnight {
        node: NodeId,
    },
    MoveKnight {
        from: NodeId,
        to: NodeId,
    },
    /// Move the knight on `from` onto `to`, driving off the weaker knight there.
    DisplaceKnight {
        from: NodeId,
        to: NodeId,
    },
    /// The knight on `knight` chases the robber to `hex` and steals from `victim`.
    ChaseRobber {
        knight: NodeId,
        hex: HexId,
        #[serde(default)]
        victim: Option<Seat>,
    },
    /// Take one of your knights back for trade tokens.
    RemoveKnight {
        node: NodeId,
    },
    /// Give the bank `give` cards at your ratio for one `receive`.
    BankTrade {
        give: Card,
        receive: Card,
        #[serde(default)]
        ratio: Option<u8>,
    },
    /// Token action: a forced trade over resource cards only.
    ForcedTradeResources,
    PlayProgress {
        play: ProgressPlay,
    },
    /// Discard a progress card (over the limit of 4).
    DiscardProgress {
        card: ProgressCard,
    },
    /// The city lost to the barbarians.
    LoseCity {
        node: NodeId,
    },
    /// Draw the top card of a deck (a tied defender).
    DrawProgress {
        track: Track,
    },
    /// The Aqueduct's resource from the bank, or none.
    AqueductPick {
        #[serde(default)]
        resource: Option<Resource>,
    },
    /// The cards owed to the opponent (Wedding, Commercial Harbor).
    GiveCards {
        cards: Cards,
    },
    /// The knight given up to a Deserter.
    GiveUpKnight {
        node: NodeId,
    },
    /// Where a displaced knight retreats to.
    RetreatKnight {
        node: NodeId,
    },
    /// The basic knight owed to a neutral after recruiting one.
    PlaceNeutralKnight {
        neutral: Seat,
        node: NodeId,
    },
    /// The neutral knight promoted to strong, owed after a basic knight's promotion.
    PromoteNeutralKnight {
        node: NodeId,
    },
    /// The Deserter's knight on `node`, or none.
    PlaceDeserterKnight {
        #[serde(default)]
        node: Option<NodeId>,
    },
    /// Diplomat: your removed road placed again on `edge`, or kept (null).
    ReplaceRoad {
        #[serde(default)]
        edge: Option<EdgeId>,
    },
    /// Spy: take `card` of the opponent's progress cards, or none.
    SpyTake {
        #[serde(default)]
        card: Option<ProgressCard>,
    },
    /// Master Merchant: the opponent's cards you take.
    TakeCards {
        cards: Cards,
    },
    /// Smith: the second knight promoted, or none.
    SmithPromote {
        #[serde(default)]
        node: Option<NodeId>,
    },
    /// The city that receives a metropolis.
    PlaceMetropolis {
        node: NodeId,
    },
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
            Action::BuildWall { .. } => "build_wall",
            Action::BuyImprovement { .. } => "buy_improvement",
            Action::RecruitKnight { .. } => "recruit_knight",
            Action::ActivateKnight { .. } => "activate_knight",
            Action::PromoteKnight { .. } => "promote_knight",
            Action::MoveKnight { .. } => "move_knight",
            Action::DisplaceKnight { .. } => "displace_knight",
            Action::ChaseRobber { .. } => "chase_robber",
            Action::RemoveKnight { .. } => "remove_knight",
            Action::BankTrade { .. } => "bank_trade",
            Action::ForcedTradeResources => "forced_trade_resources",
            Action::PlayProgress { .. } => "play_progress",
            Action::DiscardProgress { .. } => "discard_progress",
            Action::LoseCity { .. } => "lose_city",
            Action::DrawProgress { .. } => "draw_progress",
            Action::AqueductPick { .. } => "aqueduct_pick",
            Action::GiveCards { .. } => "give_cards",
            Action::GiveUpKnight { .. } => "give_up_knight",
            Action::RetreatKnight { .. } => "retreat_knight",
            Action::PlaceNeutralKnight { .. } => "place_neutral_knight",
            Action::PromoteNeutralKnight { .. } => "promote_neutral_knight",
            Action::PlaceDeserterKnight { .. } => "place_deserter_knight",
            Action::ReplaceRoad { .. } => "replace_road",
            Action::SpyTake { .. } => "spy_take",
            Action::TakeCards { .. } => "take_cards",
            Action::SmithPromote { .. } => "smith_promote",
            Action::PlaceMetropolis { .. } => "place_metropolis",
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
                | Action::BuildWall { .. }
                | Action::BuyImprovement { .. }
                | Action::RecruitKnight { .. }
                | Action::ActivateKnight { .. }
                | Action::PromoteKnight { .. }
                | Action::MoveKnight { .. }
                | Action::DisplaceKnight { .. }
                | Action::ChaseRobber { .. }
                | Action::RemoveKnight { .. }
                | Action::BankTrade { .. }
                | Action::ForcedTradeResources
                | Action::PlayProgress { .. }
                | Action::DiscardProgress { .. }
                | Action::LoseCity { .. }
                | Action::DrawProgress { .. }
                | Action::AqueductPick { .. }
                | Action::GiveCards { .. }
                | Action::GiveUpKnight { .. }
                | Action::RetreatKnight { .. }
                | Action::PlaceNeutralKnight { .. }
                | Action::PromoteNeutralKnight { .. }
                | Action::PlaceDeserterKnight { .. }
                | Action::ReplaceRoad { .. }
                | Action::SpyTake { .. }
                | Action::TakeCards { .. }
                | Action::SmithPromote { .. }
                | Action::PlaceMetropolis { .. }
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
/// An entry becomes the `Action` of the same `type` by picking one of each
/// list: `edges` gives `edge`, `nodes` gives `node`, `targets[]` gives `hex`
/// and one of its `victims` as `victim` (null when `victims` is empty),
/// `options[]` gives `give` and one of its `receive`; a count (`count`,
/// `give`, `min`) is how many cards to send. Each kind's schema shows an
/// entry from a real game with the action sent for it.
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
    /// One action per `options[]` entry and each resource of its
    /// `receive`: `{"type": "maritime_trade", "give": …, "receive": …}`.
    /// The bank's composition is hidden, so a resource it has run out of is
    /// refused with `bank_shortage`.
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
    /// Give exactly `count` cards of your hand (resource cards only when
    /// `resources_only`).
    ForcedTradeGive {
        count: u8,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        resources_only: bool,
    },
    RobberToDesert {
        cost: u8,
    },
    DiscardKnight,
    AskNeutralTrade,
    /// Give `give` cards of your choice, none of the resource received, for
    /// one of `receive` (what the chart names and the neutral holds). Here
    /// `give` is a count; the action's `give` is the cards themselves, as
    /// counts by card (`{"brick": 1, "ore": 1}` for a `give` of 2), and its
    /// `receive` is one resource of this `receive`.
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

    // --- ck_for_two ---
    BuildWall {
        nodes: NodeSet,
    },
    /// Each track whose next level you can buy now, with or without a Crane.
    BuyImprovement {
        options: Vec<ImprovementOption>,
    },
    RecruitKnight {
        nodes: NodeSet,
    },
    ActivateKnight {
        nodes: NodeSet,
    },
    PromoteKnight {
        nodes: NodeSet,
    },
    MoveKnight {
        moves: Vec<KnightMoves>,
    },
    DisplaceKnight {
        moves: Vec<KnightMoves>,
    },
    /// The knight on `knight` may chase the robber to any of `targets`
    /// (one entry per knight that may).
    ChaseRobber {
        knight: NodeId,
        targets: Vec<RobberTarget>,
    },
    /// `tokens` per knight: 1 basic, 2 strong, 3 mighty (as far as the supply holds).
    RemoveKnight {
        nodes: NodeSet,
    },
    /// The bank's composition is hidden, so a card it has run out of is
    /// refused with `bank_shortage`.
    BankTrade {
        options: Vec<BankTradeOption>,
    },
    ForcedTradeResources {
        cost: u8,
    },
    /// One entry per progress card you may play now, with its choices
    /// (boxed: the list stays small for the other entries).
    PlayProgress {
        play: Box<ProgressOption>,
    },
    /// Discard any progress card of your hand.
    DiscardProgress,
    LoseCity {
        nodes: NodeSet,
    },
    DrawProgress {
        tracks: Vec<Track>,
    },
    /// A resource of your choice from the bank (`bank_shortage` if it has
    /// none of it), or none.
    AqueductPick,
    /// Give exactly `count` cards of your hand (commodities only when
    /// `commodities_only`).
    GiveCards {
        count: u8,
        commodities_only: bool,
    },
    GiveUpKnight {
        nodes: NodeSet,
    },
    RetreatKnight {
        nodes: NodeSet,
    },
    PlaceNeutralKnight {
        neutral: Seat,
        nodes: NodeSet,
    },
    PromoteNeutralKnight {
        nodes: NodeSet,
    },
    /// A node, or none.
    PlaceDeserterKnight {
        nodes: NodeSet,
    },
    /// An edge, or none (the road stays in your supply).
    ReplaceRoad {
        edges: EdgeSet,
    },
    /// One card of the progress cards you were shown, or none.
    SpyTake,
    /// Exactly `count` cards of the hand you were shown.
    TakeCards {
        count: u8,
    },
    /// A knight, or none.
    SmithPromote {
        nodes: NodeSet,
    },
    PlaceMetropolis {
        nodes: NodeSet,
    },
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
            // Cities & Knights' entries, out of line (see `ck_weight`).
            other if other.is_ck() => other.ck_weight(),
            _ => 1,
        }
    }

    /// Whether the entry is one of Cities & Knights'.
    fn is_ck(&self) -> bool {
        matches!(
            self,
            LegalAction::BuildWall { .. }
                | LegalAction::BuyImprovement { .. }
                | LegalAction::RecruitKnight { .. }
                | LegalAction::ActivateKnight { .. }
                | LegalAction::PromoteKnight { .. }
                | LegalAction::MoveKnight { .. }
                | LegalAction::DisplaceKnight { .. }
                | LegalAction::ChaseRobber { .. }
                | LegalAction::RemoveKnight { .. }
                | LegalAction::BankTrade { .. }
                | LegalAction::PlayProgress { .. }
                | LegalAction::LoseCity { .. }
                | LegalAction::DrawProgress { .. }
                | LegalAction::AqueductPick
                | LegalAction::GiveUpKnight { .. }
                | LegalAction::RetreatKnight { .. }
                | LegalAction::PlaceNeutralKnight { .. }
                | LegalAction::PromoteNeutralKnight { .. }
                | LegalAction::PlaceDeserterKnight { .. }
                | LegalAction::ReplaceRoad { .. }
                | LegalAction::SmithPromote { .. }
                | LegalAction::PlaceMetropolis { .. }
        )
    }

    // Out of line: the simulator weighs every entry of every list, and
    // these arms inlined into `weight` made the other variants' entries
    // cost more to weigh.
    #[inline(never)]
    fn ck_weight(&self) -> usize {
        match self {
            LegalAction::BuildWall { nodes }
            | LegalAction::RecruitKnight { nodes }
            | LegalAction::ActivateKnight { nodes }
            | LegalAction::PromoteKnight { nodes }
            | LegalAction::RemoveKnight { nodes }
            | LegalAction::LoseCity { nodes }
            | LegalAction::GiveUpKnight { nodes }
            | LegalAction::RetreatKnight { nodes }
            | LegalAction::PlaceNeutralKnight { nodes, .. }
            | LegalAction::PromoteNeutralKnight { nodes }
            | LegalAction::PlaceMetropolis { nodes } => nodes.len(),
            LegalAction::PlaceDeserterKnight { nodes } | LegalAction::SmithPromote { nodes } => {
                nodes.len() + 1
            }
            LegalAction::ReplaceRoad { edges } => edges.len() + 1,
            LegalAction::BuyImprovement { options } => options.len(),
            LegalAction::MoveKnight { moves } | LegalAction::DisplaceKnight { moves } => {
                moves.iter().map(|m| m.to.len()).sum()
            }
            LegalAction::ChaseRobber { targets, .. } => {
                targets.iter().map(|t| t.victims.len().max(1)).sum()
            }
            LegalAction::BankTrade { options } => options.iter().map(|o| o.receive.len()).sum(),
            LegalAction::PlayProgress { play } => play.weight(),
            LegalAction::DrawProgress { tracks } => tracks.len(),
            LegalAction::AqueductPick => Resource::ALL.len() + 1,
            _ => 1,
        }
    }
}
