//! What applying an action caused. Events are public by default; the few that
//! carry hidden information have a redacted form per viewer.

use crate::board::{EdgeId, HexId, NodeId, ResourceSet};
use crate::cards::{Cards, DevCard, DevCounts, Resource};
use crate::hidden::Redact;
use crate::phases::Piece;
use crate::seats::{Seat, SeatList};
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
        resources: Cards,
    },
    DiceRolled {
        seat: Seat,
        dice: [u8; 2],
        total: u8,
    },
    Produced {
        seat: Seat,
        resources: Cards,
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
        cards: Cards,
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
        resources: Cards,
    },
    Monopoly {
        seat: Seat,
        resource: Resource,
        taken: Vec<(Seat, u8)>,
    },
    MaritimeTraded {
        seat: Seat,
        gave: Cards,
        received: Resource,
    },
    TradeOffered {
        seat: Seat,
        to: Seat,
        give: Cards,
        receive: Cards,
    },
    TradeAccepted {
        seat: Seat,
        by: Seat,
        give: Cards,
        receive: Cards,
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

    // --- catan_for_two ---
    /// Trade tokens taken from the supply (as many as it still held).
    TokensEarned {
        seat: Seat,
        tokens: u8,
        reason: TokenReason,
    },
    /// Trade tokens returned to the supply for a token action.
    TokensPaid {
        seat: Seat,
        tokens: u8,
    },
    /// The second roll matched the first roll's total and is rolled again.
    SecondRollRepeated {
        seat: Seat,
        dice: [u8; 2],
        total: u8,
    },
    /// No neutral colour could take the free piece owed, so none was built.
    NeutralBuildSkipped {
        seat: Seat,
        piece: Piece,
    },
    KnightDiscarded {
        seat: Seat,
    },
    /// The cards drawn by a forced trade: known to the two parties only.
    ForcedTradeDrew {
        seat: Seat,
        from: Seat,
        cards: Option<Cards>,
    },
    /// The cards given back: known to the two parties only.
    ForcedTradeGave {
        seat: Seat,
        to: Seat,
        cards: Option<Cards>,
    },

    // --- neutral_trader ---
    /// The neutral's forced 4:1 trade with the bank.
    NeutralConverted {
        seat: Seat,
        gave: Cards,
        received: Resource,
    },
    /// A server roll-off between the real players: one die each per round
    /// (`[seat 0, seat 1]`), re-rolled while tied.
    RollOff {
        purpose: RollOffPurpose,
        rounds: Vec<[u8; 2]>,
        winner: Seat,
    },
    ChartRolled {
        seat: Seat,
        dice: [u8; 2],
        total: u8,
        outcome: ChartOutcome,
    },
    NeutralTraded {
        seat: Seat,
        neutral: Seat,
        gave: Cards,
        received: Resource,
    },
    NeutralTradeDeclined {
        seat: Seat,
    },

    // --- shadow ---
    /// Sides rolled for removal and the hexes they take out (the board
    /// shows them at once; a later roll replaces them).
    HexesRemoved {
        dice: Vec<u8>,
        sides: Vec<u8>,
        hexes: Vec<HexId>,
        red_tokens: u8,
    },
    RemovalRerolled {
        reason: RerollReason,
    },
    RerollVoted {
        seat: Seat,
        reroll: bool,
    },
    FictionalTurnStarted {
        seat: Seat,
    },
    /// A random card of `seat` goes to the bank (the fictional seven's
    /// robber, chosen by `by`): known to those two only.
    CardLost {
        seat: Seat,
        by: Seat,
        resource: Option<Resource>,
    },
    /// The robber on a removed hex: `seat` takes the bank card its die names.
    BankCardTaken {
        seat: Seat,
        rolls: Vec<u8>,
        resource: Option<Resource>,
    },
    /// The fictional player's offer roll (1 lumber, 2 brick, 3 wool, 4 grain,
    /// 5 ore, 6 nothing); `resource` is none on a 6 or when the bank is out.
    CardOffered {
        seat: Seat,
        rolls: Vec<u8>,
        resource: Option<Resource>,
    },
    AuctionOpened {
        resource: Resource,
        bidders: SeatList,
    },
    /// A sealed first answer; its content is revealed with the other's.
    BidSubmitted {
        seat: Seat,
    },
    BidsRevealed {
        bids: Vec<(Seat, Option<Cards>)>,
    },
    BidRaised {
        seat: Seat,
        added: Cards,
        total: Cards,
    },
    Conceded {
        seat: Seat,
    },
    AuctionWon {
        seat: Seat,
        paid: Cards,
        resource: Resource,
        by: AuctionWin,
    },
    /// Monopoly's extra cards from the bank, one die per fictional player:
    /// `(fictional seat, die, cards taken)`.
    MonopolyFromFictional {
        seat: Seat,
        resource: Resource,
        draws: Vec<(Seat, u8, u8)>,
    },
}

#[cfg_attr(
    feature = "openapi",
    derive(utoipa::ToSchema),
    schema(example = "coast")
)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TokenReason {
    Desert,
    Coast,
    DesertAndCoast,
    Knight,
}

#[cfg_attr(
    feature = "openapi",
    derive(utoipa::ToSchema),
    schema(example = "robber")
)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RollOffPurpose {
    NeutralRoad,
    Robber,
    Auction,
}

#[cfg_attr(
    feature = "openapi",
    derive(utoipa::ToSchema),
    schema(example = json!({"kind": "offer", "give": 1, "receive": ["wool", "grain"]}))
)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ChartOutcome {
    /// Give `give` cards of your choice for one of `receive`.
    Offer { give: u8, receive: ResourceSet },
    /// The neutral holds none of what the chart names: no trade.
    NeutralLacks,
    /// A 7: no deal, and the turn ends at once.
    TurnEnds,
}

#[cfg_attr(
    feature = "openapi",
    derive(utoipa::ToSchema),
    schema(example = "too_many_red_tokens")
)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RerollReason {
    /// Policy `auto`: more than two 6/8 tokens would be removed.
    TooManyRedTokens,
    /// Policy `agree`: both players asked.
    BothAsked,
}

#[cfg_attr(
    feature = "openapi",
    derive(utoipa::ToSchema),
    schema(example = "only_bidder")
)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AuctionWin {
    OnlyBidder,
    OtherConceded,
    FewerVp,
    RollOff,
}

#[cfg_attr(
    feature = "openapi",
    derive(utoipa::ToSchema),
    schema(example = "withdrawn")
)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TradeEnd {
    Withdrawn,
    TurnEnded,
    OffererCannotPay,
}

impl Redact for Event {
    /// Cards moved between two seats are known to those two only, a bought
    /// development card to its buyer only.
    fn redacted_for(&self, viewer: Option<Seat>) -> Event {
        let party = |a: &Seat, b: &Seat| viewer == Some(*a) || viewer == Some(*b);
        match self {
            // An automated seat's hand is public, so a card stolen from it is too.
            Event::Stole { thief, victim, .. } if victim.is_real() && !party(thief, victim) => {
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
            Event::ForcedTradeDrew { seat, from, .. } if !party(seat, from) => {
                Event::ForcedTradeDrew {
                    seat: *seat,
                    from: *from,
                    cards: None,
                }
            }
            Event::ForcedTradeGave { seat, to, .. } if !party(seat, to) => Event::ForcedTradeGave {
                seat: *seat,
                to: *to,
                cards: None,
            },
            Event::CardLost { seat, by, .. } if !party(seat, by) => Event::CardLost {
                seat: *seat,
                by: *by,
                resource: None,
            },
            other => other.clone(),
        }
    }
}
