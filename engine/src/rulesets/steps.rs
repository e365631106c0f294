//! The steps rulesets push on the phase stack. Each is resolved by its
//! ruleset; here is only what the rest of the engine reads: who is
//! awaited, the phase's name, and what a viewer may see of it.

use crate::board::{EdgeId, NodeId, ResourceSet};
use crate::cards::{Cards, Resource, Track};
use crate::hidden::Redact;
use crate::phases::Piece;
use crate::rulesets::ck_for_two::{Knight, KnightLevel};
use crate::seats::{Seat, SeatList};
use serde::{Deserialize, Serialize};

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum Step {
    // --- catan_for_two ---
    /// The roller's second roll, due once the first is resolved (automated).
    SecondRoll {
        seat: Seat,
        first: u8,
    },
    /// `seat` owes a free `piece` for a neutral colour of their choice.
    NeutralBuild {
        seat: Seat,
        piece: Piece,
    },
    /// After a forced trade's draw, `seat` gives `to` two cards (resource
    /// cards only when `resources_only`, ck_for_two).
    ForcedTradeGive {
        seat: Seat,
        to: Seat,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        resources_only: bool,
    },

    // --- neutral_trader ---
    /// `seat` won the roll-off and places a road for `neutral`.
    NeutralRoad {
        seat: Seat,
        neutral: Seat,
    },
    /// The chart's proposal to `seat`: give `give` cards for one of `receive`.
    ChartOffer {
        seat: Seat,
        give: u8,
        receive: ResourceSet,
    },

    // --- shadow ---
    /// Policy `agree`: each real seat's answer (true: re-roll), by seat.
    RemovalVote {
        votes: [Option<bool>; 2],
    },
    /// The fictional `seat` rolls for production (automated); `next` is the
    /// real seat whose turn follows.
    FictionalRoll {
        seat: Seat,
        next: Seat,
    },
    /// After a fictional seven, `seat` moves the robber and picks who loses
    /// a card to the bank.
    FictionalRobber {
        seat: Seat,
    },
    /// The fictional `seat` rolls its offer (automated).
    FictionalOffer {
        seat: Seat,
        next: Seat,
    },
    Auction(Auction),

    // --- ck_for_two ---
    /// A roll's number dice, used once the decisions its event die caused
    /// are answered (never awaited). On the second roll `repeat_of` is the
    /// first roll's total, which the number dice must not repeat.
    NumberDice {
        seat: Seat,
        total: u8,
        repeat_of: Option<u8>,
    },
    /// The barbarians won: each of `owed` picks the city it loses.
    CityLosses {
        owed: Vec<Seat>,
    },
    /// Tied defenders draw a progress card each, `seats[0]` first.
    DefenderDraws {
        seats: Vec<Seat>,
    },
    /// `seat` holds more than 4 progress cards on the opponent's turn.
    ProgressDiscard {
        seat: Seat,
    },
    /// Each of `owed` may take the Aqueduct's resource.
    Aqueduct {
        owed: Vec<Seat>,
    },
    /// `seat` owes `to` `count` cards of its choice (Wedding, Commercial
    /// Harbor).
    GiveCards {
        seat: Seat,
        to: Seat,
        count: u8,
        commodities_only: bool,
    },
    /// `seat` gives up one of its knights to `to`'s Deserter.
    GiveUpKnight {
        seat: Seat,
        to: Seat,
    },
    /// `seat` retreats `knight`, driven off `from`.
    Retreat {
        seat: Seat,
        knight: Knight,
        from: NodeId,
    },
    /// `seat` owes a neutral its basic knight.
    NeutralKnight {
        seat: Seat,
    },
    /// `seat` owes a neutral knight's promotion to strong.
    NeutralPromotion {
        seat: Seat,
    },
    /// `seat` may place the Deserter's knight.
    DeserterKnight {
        seat: Seat,
        level: KnightLevel,
        active: bool,
    },
    /// `seat` may place its road removed by the Diplomat again.
    DiplomatRoad {
        seat: Seat,
        removed: EdgeId,
    },
    /// Spy: `seat` takes one of the opponent's progress cards, or none.
    SpyPick {
        seat: Seat,
    },
    /// Master Merchant: `seat` takes `count` of the opponent's cards.
    MasterMerchantPick {
        seat: Seat,
        count: u8,
    },
    /// Smith: `seat` may promote a second knight.
    SmithSecond {
        seat: Seat,
    },
    /// `seat` places `track`'s metropolis on one of its cities.
    Metropolis {
        seat: Seat,
        track: Track,
    },
}

/// The shadow auction for the fictional player's offered card.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Auction {
    pub fictional: Seat,
    pub next: Seat,
    pub resource: Resource,
    /// By real seat.
    pub bids: [Bid; 2],
    /// Once both bids are open and unequal: the lower bidder, who must raise
    /// or concede.
    pub to_raise: Option<Seat>,
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Bid {
    /// Asked, not yet answered.
    Waiting,
    /// Not asked: not eligible, or holding no card.
    Out,
    Passed,
    Cards(Cards),
    /// Another seat's answer while first answers are still sealed (views only).
    Sealed,
}

impl Auction {
    /// First answers are sealed until every asked seat has answered.
    pub fn sealed(&self) -> bool {
        self.bids.contains(&Bid::Waiting)
    }

    pub fn bid_of(&self, seat: Seat) -> Option<Cards> {
        match self.bids.get(seat.index()) {
            Some(Bid::Cards(c)) => Some(*c),
            _ => None,
        }
    }
}

impl Step {
    pub fn awaiting(&self, out: &mut SeatList) {
        match self {
            Step::SecondRoll { .. }
            | Step::FictionalRoll { .. }
            | Step::FictionalOffer { .. }
            | Step::NumberDice { .. } => {}
            Step::NeutralBuild { seat, .. }
            | Step::ForcedTradeGive { seat, .. }
            | Step::NeutralRoad { seat, .. }
            | Step::ChartOffer { seat, .. }
            | Step::FictionalRobber { seat }
            | Step::ProgressDiscard { seat }
            | Step::GiveCards { seat, .. }
            | Step::GiveUpKnight { seat, .. }
            | Step::Retreat { seat, .. }
            | Step::NeutralKnight { seat }
            | Step::NeutralPromotion { seat }
            | Step::DeserterKnight { seat, .. }
            | Step::DiplomatRoad { seat, .. }
            | Step::SpyPick { seat }
            | Step::MasterMerchantPick { seat, .. }
            | Step::SmithSecond { seat }
            | Step::Metropolis { seat, .. } => out.push(*seat),
            Step::CityLosses { owed } | Step::Aqueduct { owed } => {
                for s in owed {
                    out.push(*s);
                }
            }
            Step::DefenderDraws { seats } => {
                if let Some(s) = seats.first() {
                    out.push(*s);
                }
            }
            Step::RemovalVote { votes } => {
                for (i, v) in votes.iter().enumerate() {
                    if v.is_none() {
                        out.push(Seat(i as u8));
                    }
                }
            }
            Step::Auction(a) => match a.to_raise {
                Some(s) => out.push(s),
                None => {
                    for (i, b) in a.bids.iter().enumerate() {
                        if *b == Bid::Waiting {
                            out.push(Seat(i as u8));
                        }
                    }
                }
            },
        }
    }

    /// The seats whose answer to this step is sealed
    /// (`GameState::sealed_answers`).
    pub fn sealed_answers(&self, out: &mut SeatList) {
        if let Step::Auction(a) = self
            && a.sealed()
        {
            for (i, b) in a.bids.iter().enumerate() {
                if matches!(b, Bid::Passed | Bid::Cards(_)) {
                    out.push(Seat(i as u8));
                }
            }
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            Step::SecondRoll { .. } => "second roll",
            Step::NeutralBuild { .. } => "building for a neutral colour",
            Step::ForcedTradeGive { .. } => "giving two cards for the forced trade",
            Step::NeutralRoad { .. } => "placing the neutral's road",
            Step::ChartOffer { .. } => "answering the neutral's trade",
            Step::RemovalVote { .. } => "voting on re-rolling the removed hexes",
            Step::FictionalRoll { .. } => "fictional player's roll",
            Step::FictionalRobber { .. } => "moving the robber for the fictional seven",
            Step::FictionalOffer { .. } => "fictional player's offer",
            Step::Auction(_) => "bidding for the fictional player's card",
            Step::NumberDice { .. } => "using the number dice",
            Step::CityLosses { .. } => "choosing the city lost to the barbarians",
            Step::DefenderDraws { .. } => "drawing a defender's progress card",
            Step::ProgressDiscard { .. } => "discarding a progress card over the limit",
            Step::Aqueduct { .. } => "taking the Aqueduct's resource",
            Step::GiveCards { .. } => "giving cards for a progress card",
            Step::GiveUpKnight { .. } => "giving up a knight to the Deserter",
            Step::Retreat { .. } => "retreating a displaced knight",
            Step::NeutralKnight { .. } => "placing a neutral knight",
            Step::NeutralPromotion { .. } => "promoting a neutral knight",
            Step::DeserterKnight { .. } => "placing the Deserter's knight",
            Step::DiplomatRoad { .. } => "placing the Diplomat's road again",
            Step::SpyPick { .. } => "taking a progress card with the Spy",
            Step::MasterMerchantPick { .. } => "taking cards with the Master Merchant",
            Step::SmithSecond { .. } => "promoting the Smith's second knight",
            Step::Metropolis { .. } => "placing a metropolis",
        }
    }
}

impl Redact for Step {
    /// While first bids are sealed, each bidder sees only their own.
    fn redacted_for(&self, viewer: Option<Seat>) -> Step {
        let mut sealed = SeatList::default();
        self.sealed_answers(&mut sealed);
        match self {
            Step::Auction(a) if !sealed.is_empty() => {
                let mut a = a.clone();
                for seat in sealed.iter().filter(|s| viewer != Some(**s)) {
                    a.bids[seat.index()] = Bid::Sealed;
                }
                Step::Auction(a)
            }
            other => other.clone(),
        }
    }
}
