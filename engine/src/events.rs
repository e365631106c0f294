//! What applying an action caused. Events are public by default; the few that
//! carry hidden information have a redacted form per viewer.

use crate::board::{EdgeId, HexId, NodeId};
use crate::types::{DevCard, DevCounts, Resource, ResourceCounts, Seat};
use serde::{Deserialize, Serialize};

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    GameStarted {
        first: Seat,
    },
    RoadBuilt {
        seat: Seat,
        edge: EdgeId,
        free: bool,
    },
    SettlementBuilt {
        seat: Seat,
        node: NodeId,
        free: bool,
    },
    CityBuilt {
        seat: Seat,
        node: NodeId,
    },
    /// The second set-up settlement's resources.
    StartingResources {
        seat: Seat,
        resources: ResourceCounts,
    },
    DiceRolled {
        seat: Seat,
        dice: [u8; 2],
        total: u8,
    },
    Produced {
        seat: Seat,
        resources: ResourceCounts,
    },
    /// The bank could not pay everyone owed this resource, so nobody got it.
    ProductionWithheld {
        resource: Resource,
    },
    DiscardsRequired {
        owed: Vec<(Seat, u8)>,
    },
    Discarded {
        seat: Seat,
        cards: ResourceCounts,
    },
    RobberMoved {
        seat: Seat,
        hex: HexId,
    },
    /// `resource` is known to thief and victim only.
    Stole {
        thief: Seat,
        victim: Seat,
        resource: Option<Resource>,
    },
    /// `card` is known to the buyer only.
    DevCardBought {
        seat: Seat,
        card: Option<DevCard>,
    },
    DevCardPlayed {
        seat: Seat,
        card: DevCard,
    },
    YearOfPlenty {
        seat: Seat,
        resources: ResourceCounts,
    },
    Monopoly {
        seat: Seat,
        resource: Resource,
        taken: Vec<(Seat, u8)>,
    },
    MaritimeTraded {
        seat: Seat,
        gave: ResourceCounts,
        received: Resource,
    },
    TradeOffered {
        seat: Seat,
        to: Seat,
        give: ResourceCounts,
        receive: ResourceCounts,
    },
    TradeAccepted {
        seat: Seat,
        by: Seat,
        give: ResourceCounts,
        receive: ResourceCounts,
    },
    TradeDeclined {
        seat: Seat,
        by: Seat,
    },
    /// Withdrawn by the offerer, or lapsed (turn over, cards gone).
    TradeWithdrawn {
        seat: Seat,
        reason: TradeEnd,
    },
    LongestRoadChanged {
        from: Option<Seat>,
        to: Option<Seat>,
        length: u8,
    },
    LargestArmyChanged {
        from: Option<Seat>,
        to: Option<Seat>,
        knights: u8,
    },
    TurnEnded {
        seat: Seat,
    },
    TurnStarted {
        seat: Seat,
        turn: u32,
    },
    GameWon {
        seat: Seat,
        victory_points: u8,
        /// The winner's hidden victory point cards, revealed.
        revealed: DevCounts,
    },
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TradeEnd {
    Withdrawn,
    TurnEnded,
    OffererCannotPay,
}

impl Event {
    /// The event as `viewer` may see it; `None` is a spectator (or anyone
    /// without a seat), who sees only public facts.
    pub fn redacted_for(&self, viewer: Option<Seat>) -> Event {
        match self {
            Event::Stole { thief, victim, .. }
                if viewer != Some(*thief) && viewer != Some(*victim) =>
            {
                Event::Stole {
                    thief: *thief,
                    victim: *victim,
                    resource: None,
                }
            }
            Event::DevCardBought { seat, .. } if viewer != Some(*seat) => Event::DevCardBought {
                seat: *seat,
                card: None,
            },
            other => other.clone(),
        }
    }

    /// True when this event, as given, carries nothing `viewer` may not see.
    pub fn is_visible_to(&self, viewer: Option<Seat>) -> bool {
        *self == self.redacted_for(viewer)
    }
}
