//! What applying an action caused. Events are public by default; the few that
//! carry hidden information have a redacted form per viewer.

use crate::board::{EdgeId, HexId, NodeId, ResourceSet};
use crate::cards::{
    Card, Cards, Commodity, DevCard, DevCounts, ProgressCard, ProgressCounts, Resource, Track,
};
use crate::dice::EventFace;
use crate::hidden::Redact;
use crate::phases::Piece;
use crate::rulesets::ck_for_two::KnightLevel;
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

    // --- ck_for_two ---
    /// A stolen commodity: known to thief and victim only (whether the
    /// card was a resource or a commodity is public, as the counts are).
    StoleCommodity {
        thief: Seat,
        victim: Seat,
        commodity: Option<Commodity>,
    },
    /// The bank could not pay everyone owed this commodity, so nobody got it.
    CommodityWithheld {
        commodity: Commodity,
    },
    /// The event die thrown with the number dice of the `DiceRolled` before it.
    EventDieRolled {
        seat: Seat,
        face: EventFace,
    },
    /// The barbarian ship moved one space; at 7 it attacks.
    BarbariansAdvanced {
        position: u8,
    },
    /// The attack: the barbarians' strength (cities on the board), the
    /// real players' defence, and each one's contribution.
    BarbarianAttack {
        strength: u8,
        defence: u8,
        contributions: Vec<(Seat, u8)>,
    },
    /// A city lost to the barbarians: a settlement again (`tipped`: the
    /// city piece stays, for want of a settlement piece); its wall, if it
    /// had one, returns to the supply.
    CityPillaged {
        seat: Seat,
        node: NodeId,
        tipped: bool,
        wall: bool,
    },
    /// The Defender of Catan: 1 VP.
    DefenderOfCatan {
        seat: Seat,
    },
    /// After an attack the ship is back at its start, every knight is
    /// inactive, and `attacks` attacks have been resolved.
    BarbariansReturned {
        attacks: u16,
    },
    /// A progress card drawn from `track`'s deck: known to the drawer only.
    ProgressDrawn {
        seat: Seat,
        track: Track,
        card: Option<ProgressCard>,
    },
    /// A victory-point progress card, laid down face up when obtained.
    VictoryCardLaidDown {
        seat: Seat,
        card: ProgressCard,
    },
    ProgressPlayed {
        seat: Seat,
        card: ProgressCard,
    },
    /// A progress card discarded over the limit of 4.
    ProgressDiscarded {
        seat: Seat,
        card: ProgressCard,
    },
    AqueductTaken {
        seat: Seat,
        resource: Resource,
    },
    AqueductDeclined {
        seat: Seat,
    },
    WallBuilt {
        seat: Seat,
        node: NodeId,
        free: bool,
    },
    ImprovementBought {
        seat: Seat,
        track: Track,
        level: u8,
        paid: Cards,
        crane: bool,
    },
    /// `track`'s metropolis on `seat`'s city at `node`, taken from `from`.
    MetropolisPlaced {
        seat: Seat,
        track: Track,
        node: NodeId,
        from: Option<Seat>,
    },
    KnightPlaced {
        seat: Seat,
        node: NodeId,
        level: KnightLevel,
        active: bool,
        free: bool,
    },
    KnightActivated {
        seat: Seat,
        node: NodeId,
        free: bool,
    },
    KnightPromoted {
        seat: Seat,
        node: NodeId,
        level: KnightLevel,
        free: bool,
    },
    KnightMoved {
        seat: Seat,
        from: NodeId,
        to: NodeId,
    },
    /// `seat` drove `owner`'s knight off `node`: with its knight from
    /// `from`, or with an Intrigue (`from` null).
    KnightDisplaced {
        seat: Seat,
        from: Option<NodeId>,
        node: NodeId,
        owner: Seat,
    },
    KnightRetreated {
        seat: Seat,
        from: NodeId,
        to: NodeId,
    },
    /// A knight back in its owner's supply.
    KnightRemoved {
        seat: Seat,
        node: NodeId,
        level: KnightLevel,
        reason: KnightRemoval,
    },
    /// `seat`'s knight on `knight` chased the robber (its move follows).
    RobberChased {
        seat: Seat,
        knight: NodeId,
    },
    BankTraded {
        seat: Seat,
        gave: Cards,
        received: Card,
    },
    /// Cards `seat` gave `to` by a progress card: known to the two only.
    CardsGiven {
        seat: Seat,
        to: Seat,
        cards: Option<Cards>,
    },
    /// Cards `seat` took from `from` by a progress card: known to the two
    /// only.
    CardsTaken {
        seat: Seat,
        from: Seat,
        cards: Option<Cards>,
    },
    /// `of`'s hand of resources and commodities, shown to `seat` only
    /// (Master Merchant).
    HandShown {
        seat: Seat,
        of: Seat,
        cards: Option<Cards>,
    },
    /// `of`'s progress cards, shown to `seat` only (Spy).
    ProgressHandShown {
        seat: Seat,
        of: Seat,
        cards: Option<ProgressCounts>,
    },
    /// A progress card `seat` took from `from` (Spy): known to the two only.
    ProgressTaken {
        seat: Seat,
        from: Seat,
        card: Option<ProgressCard>,
    },
    /// Inventor: the number tokens of two hexes swapped.
    NumberTokensSwapped {
        seat: Seat,
        hexes: Vec<HexId>,
    },
    MerchantPlaced {
        seat: Seat,
        hex: HexId,
        from: Option<Seat>,
    },
    /// Merchant Fleet: `card` trades 2:1 with the bank for the rest of the turn.
    MerchantFleet {
        seat: Seat,
        card: Card,
    },
    /// Irrigation, Mining: cards from the bank.
    Harvested {
        seat: Seat,
        resources: Cards,
    },
    /// A road taken off the board by `by` (Diplomat), back to `seat`'s supply.
    RoadRemoved {
        seat: Seat,
        edge: EdgeId,
        by: Seat,
    },
}

/// Why a knight went back to its owner's supply.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KnightRemoval {
    /// Removed by its owner for trade tokens.
    Tokens,
    /// Given up to a Deserter.
    Deserter,
    /// Displaced with no node to retreat to.
    NoRetreat,
}

impl Event {
    /// The theft of `card`: a resource or a commodity.
    pub fn stole(thief: Seat, victim: Seat, card: Card) -> Event {
        match card.commodity() {
            None => Event::Stole {
                thief,
                victim,
                resource: card.resource(),
            },
            Some(commodity) => Event::StoleCommodity {
                thief,
                victim,
                commodity: Some(commodity),
            },
        }
    }
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
    /// development card or a drawn progress card to its owner only, a hand
    /// shown by a progress card to the one who looks.
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
            Event::StoleCommodity { thief, victim, .. }
                if victim.is_real() && !party(thief, victim) =>
            {
                Event::StoleCommodity {
                    thief: *thief,
                    victim: *victim,
                    commodity: None,
                }
            }
            Event::ProgressDrawn { seat, track, .. } if viewer != Some(*seat) => {
                Event::ProgressDrawn {
                    seat: *seat,
                    track: *track,
                    card: None,
                }
            }
            Event::CardsGiven { seat, to, .. } if !party(seat, to) => Event::CardsGiven {
                seat: *seat,
                to: *to,
                cards: None,
            },
            Event::CardsTaken { seat, from, .. } if !party(seat, from) => Event::CardsTaken {
                seat: *seat,
                from: *from,
                cards: None,
            },
            Event::HandShown { seat, of, .. } if viewer != Some(*seat) => Event::HandShown {
                seat: *seat,
                of: *of,
                cards: None,
            },
            Event::ProgressHandShown { seat, of, .. } if viewer != Some(*seat) => {
                Event::ProgressHandShown {
                    seat: *seat,
                    of: *of,
                    cards: None,
                }
            }
            Event::ProgressTaken { seat, from, .. } if !party(seat, from) => Event::ProgressTaken {
                seat: *seat,
                from: *from,
                card: None,
            },
            other => other.clone(),
        }
    }
}
