//! The wire types of Cities & Knights that actions and legal-action
//! entries carry: a progress card played with its choices, and the
//! choices a seat is offered.

use crate::actions::RobberTarget;
use crate::board::{CardSet, EdgeId, EdgeSet, HexId, NodeId, NodeSet, ResourceSet};
use crate::cards::{Card, Commodity, ProgressCard, Resource, Track};
use crate::seats::Seat;
use serde::{Deserialize, Serialize};

/// A progress card played, with what it needs (RULES.md §6.13). Crane is
/// played with `buy_improvement`; Printer and Constitution are never played.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "card", rename_all = "snake_case", deny_unknown_fields)]
pub enum ProgressPlay {
    /// Before the first roll: the number dice of roll 1 (1–6 each).
    Alchemist {
        yellow: u8,
        red: u8,
    },
    /// A free city wall under the city on `node`.
    Engineer {
        node: NodeId,
    },
    /// Swap the number tokens of two hexes.
    Inventor {
        hexes: [HexId; 2],
    },
    Irrigation,
    /// The settlement on `node` becomes a city for 2 ore and 1 grain.
    Medicine {
        node: NodeId,
    },
    Mining,
    RoadBuilding,
    /// Promote the knight on `node` (a second may follow).
    Smith {
        node: NodeId,
    },
    Bishop {
        hex: HexId,
        #[serde(default)]
        victim: Option<Seat>,
    },
    /// The opponent gives up a knight of their choice; a neutral its
    /// weakest, `node` naming which when several are equally weak.
    Deserter {
        target: Seat,
        #[serde(default)]
        node: Option<NodeId>,
    },
    /// Remove the open road on `edge`.
    Diplomat {
        edge: EdgeId,
    },
    /// Drive off the knight on `node`.
    Intrigue {
        node: NodeId,
    },
    Saboteur,
    Spy,
    Warlord,
    Wedding,
    /// Give `resource`; the opponent gives back a commodity.
    CommercialHarbor {
        resource: Resource,
    },
    MasterMerchant,
    Merchant {
        hex: HexId,
    },
    /// `named`: the resource or commodity traded 2:1 for the rest of the turn.
    MerchantFleet {
        named: Card,
    },
    ResourceMonopoly {
        resource: Resource,
    },
    TradeMonopoly {
        commodity: Commodity,
    },
}

impl ProgressPlay {
    pub fn card(&self) -> ProgressCard {
        use ProgressPlay as P;
        match self {
            P::Alchemist { .. } => ProgressCard::Alchemist,
            P::Engineer { .. } => ProgressCard::Engineer,
            P::Inventor { .. } => ProgressCard::Inventor,
            P::Irrigation => ProgressCard::Irrigation,
            P::Medicine { .. } => ProgressCard::Medicine,
            P::Mining => ProgressCard::Mining,
            P::RoadBuilding => ProgressCard::RoadBuilding,
            P::Smith { .. } => ProgressCard::Smith,
            P::Bishop { .. } => ProgressCard::Bishop,
            P::Deserter { .. } => ProgressCard::Deserter,
            P::Diplomat { .. } => ProgressCard::Diplomat,
            P::Intrigue { .. } => ProgressCard::Intrigue,
            P::Saboteur => ProgressCard::Saboteur,
            P::Spy => ProgressCard::Spy,
            P::Warlord => ProgressCard::Warlord,
            P::Wedding => ProgressCard::Wedding,
            P::CommercialHarbor { .. } => ProgressCard::CommercialHarbor,
            P::MasterMerchant => ProgressCard::MasterMerchant,
            P::Merchant { .. } => ProgressCard::Merchant,
            P::MerchantFleet { .. } => ProgressCard::MerchantFleet,
            P::ResourceMonopoly { .. } => ProgressCard::ResourceMonopoly,
            P::TradeMonopoly { .. } => ProgressCard::TradeMonopoly,
        }
    }
}

/// A progress card a seat may play now, with the choices that make it
/// legal (a `play_progress` entry of the legal actions).
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "card", rename_all = "snake_case")]
pub enum ProgressOption {
    /// Choose `yellow` and `red`, 1–6 each.
    Alchemist,
    Engineer {
        nodes: NodeSet,
    },
    /// Any two of `hexes` whose numbers differ.
    Inventor {
        hexes: Vec<InventorHex>,
    },
    Irrigation,
    Medicine {
        nodes: NodeSet,
    },
    Mining,
    RoadBuilding,
    Smith {
        nodes: NodeSet,
    },
    Bishop {
        targets: Vec<RobberTarget>,
    },
    Deserter {
        targets: Vec<DeserterTarget>,
    },
    Diplomat {
        edges: EdgeSet,
    },
    Intrigue {
        nodes: NodeSet,
    },
    Saboteur,
    Spy,
    Warlord,
    Wedding,
    CommercialHarbor {
        resources: ResourceSet,
    },
    MasterMerchant,
    Merchant {
        hexes: Vec<HexId>,
    },
    MerchantFleet {
        cards: CardSet,
    },
    /// Name any resource.
    ResourceMonopoly,
    /// Name any commodity.
    TradeMonopoly,
}

impl ProgressOption {
    /// How many concrete plays the entry stands for (a template counts as one).
    pub fn weight(&self) -> usize {
        use ProgressOption as O;
        match self {
            O::Engineer { nodes }
            | O::Medicine { nodes }
            | O::Smith { nodes }
            | O::Intrigue { nodes } => nodes.len(),
            O::Inventor { hexes } => inventor_pairs(hexes).count(),
            O::Bishop { targets } => targets.iter().map(|t| t.victims.len().max(1)).sum(),
            O::Deserter { targets } => targets.iter().map(|t| t.nodes.len().max(1)).sum(),
            O::Diplomat { edges } => edges.len(),
            O::CommercialHarbor { resources } => resources.len(),
            O::Merchant { hexes } => hexes.len(),
            O::MerchantFleet { cards } => cards.len(),
            // The yellow and the red die, 1 to 6 each.
            O::Alchemist => 36,
            O::ResourceMonopoly => Resource::ALL.len(),
            O::TradeMonopoly => Commodity::ALL.len(),
            _ => 1,
        }
    }
}

/// The pairs of `hexes` an Inventor may swap: numbers that differ.
pub fn inventor_pairs(hexes: &[InventorHex]) -> impl Iterator<Item = [HexId; 2]> + '_ {
    hexes.iter().enumerate().flat_map(move |(i, a)| {
        hexes[i + 1..]
            .iter()
            .filter(move |b| b.number != a.number)
            .map(move |b| [a.hex, b.hex])
    })
}

/// A hex whose number token an Inventor may move, with that number.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InventorHex {
    pub hex: HexId,
    pub number: u8,
}

/// Whom a Deserter may be played on: the opponent (who chooses the knight,
/// `nodes` empty), or a neutral and its weakest knights.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeserterTarget {
    pub target: Seat,
    pub nodes: NodeSet,
}

/// A track whose next level can be bought now: `crane` true if only with a
/// Crane (or, holding one, to pay one commodity less).
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImprovementOption {
    pub track: Track,
    pub level: u8,
    pub crane: bool,
}

/// Where the knight on `from` may go.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KnightMoves {
    pub from: NodeId,
    pub to: NodeSet,
}

/// Give `ratio` of `give` to the bank for one of `receive`.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BankTradeOption {
    pub give: Card,
    pub ratio: u8,
    pub receive: CardSet,
}
