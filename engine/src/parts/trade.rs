//! Maritime and domestic trade (RULES.md §1 "Trade"): harbors, the bank
//! at the player's best ratio, and the active player's offer to the
//! opponent, which stays open until answered, withdrawn or lapsed.

use crate::actions::{LegalAction, MaritimeOption};
use crate::board::{ResourceSet, topology};
use crate::cards::{Cards, Resource};
use crate::error::ActionError;
use crate::events::{Event, TradeEnd};
use crate::seats::Seat;
use crate::state::GameState;
use serde::{Deserialize, Serialize};

// A domestic offer awaiting its answer (the wire form carries no
// description).
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TradeOffer {
    pub from: Seat,
    pub to: Seat,
    pub give: Cards,
    pub receive: Cards,
}

impl GameState {
    pub(crate) fn maritime_trade(
        &mut self,
        seat: Seat,
        give: Resource,
        receive: Resource,
        asked_ratio: Option<u8>,
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        if give == receive {
            return Err(ActionError::InvalidTrade {
                reason: "give and receive must be different resources",
            });
        }
        let ratio = self.trade_ratio(seat, give);
        match asked_ratio {
            Some(r) if r < ratio => {
                return Err(ActionError::HarborNotOwned {
                    resource: give,
                    ratio: r,
                    best: ratio,
                });
            }
            Some(r) if r > ratio => {
                return Err(ActionError::InvalidTrade {
                    reason: "a better ratio is available to you; trade at your best ratio",
                });
            }
            _ => {}
        }
        let gave = Cards::single(give, ratio);
        if !self.player(seat).hand.contains(&gave) {
            return Err(ActionError::CannotAfford { cost: gave });
        }
        if self.bank[receive] == 0 {
            return Err(ActionError::BankShortage { resource: receive });
        }
        let p = self.player_mut(seat);
        p.hand.sub(&gave);
        p.hand[receive] += 1;
        self.bank.add(&gave);
        self.bank[receive] -= 1;
        ev.push(Event::MaritimeTraded {
            seat,
            gave,
            received: receive,
        });
        Ok(())
    }

    pub(crate) fn offer_trade(
        &mut self,
        seat: Seat,
        give: &Cards,
        receive: &Cards,
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        if self.rules.no_player_trade {
            return Err(ActionError::DomesticTradeDisabled);
        }
        if self.offer.is_some() {
            return Err(ActionError::OfferAlreadyOpen);
        }
        if give.is_empty() || receive.is_empty() {
            return Err(ActionError::InvalidTrade {
                reason: "both sides must hold at least one card: giving cards away is not a trade",
            });
        }
        if give.overlaps(receive) {
            return Err(ActionError::InvalidTrade {
                reason: "a resource cannot be on both sides of a trade",
            });
        }
        if !self.player(seat).hand.contains(give) {
            return Err(ActionError::CardsNotHeld);
        }
        let to = seat.opponent();
        self.offer = Some(TradeOffer {
            from: seat,
            to,
            give: *give,
            receive: *receive,
        });
        ev.push(Event::TradeOffered {
            seat,
            to,
            give: *give,
            receive: *receive,
        });
        Ok(())
    }

    fn open_offer_to(&self, seat: Seat) -> Result<TradeOffer, ActionError> {
        match &self.offer {
            Some(o) if o.to == seat => Ok(o.clone()),
            _ => Err(ActionError::NoOpenOffer),
        }
    }

    pub(crate) fn accept_trade(
        &mut self,
        seat: Seat,
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        let o = self.open_offer_to(seat)?;
        if !self.player(seat).hand.contains(&o.receive) {
            return Err(ActionError::CannotAfford { cost: o.receive });
        }
        let from = self.player_mut(o.from);
        from.hand.sub(&o.give);
        from.hand.add(&o.receive);
        let to = self.player_mut(seat);
        to.hand.sub(&o.receive);
        to.hand.add(&o.give);
        self.offer = None;
        ev.push(Event::TradeAccepted {
            seat: o.from,
            by: seat,
            give: o.give,
            receive: o.receive,
        });
        Ok(())
    }

    pub(crate) fn decline_trade(
        &mut self,
        seat: Seat,
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        let o = self.open_offer_to(seat)?;
        self.offer = None;
        ev.push(Event::TradeDeclined {
            seat: o.from,
            by: seat,
        });
        Ok(())
    }

    pub(crate) fn withdraw_trade(
        &mut self,
        seat: Seat,
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        match &self.offer {
            Some(o) if o.from == seat => {
                self.offer = None;
                ev.push(Event::TradeWithdrawn {
                    seat,
                    reason: TradeEnd::Withdrawn,
                });
                Ok(())
            }
            _ => Err(ActionError::NoOpenOffer),
        }
    }

    /// The best maritime ratio `seat` has for giving `r`.
    pub fn trade_ratio(&self, seat: Seat, r: Resource) -> u8 {
        self.trade_ratios(seat)[r.index()]
    }

    /// The best maritime ratio for each resource, in resource order.
    pub fn trade_ratios(&self, seat: Seat) -> [u8; 5] {
        let mut best = [4u8; 5];
        for &(n, slot) in &topology().harbor_nodes {
            if matches!(self.buildings[n as usize], Some(b) if b.owner == seat) {
                match self.board.harbors[slot as usize] {
                    crate::board::HarborKind::Specific(h) => best[h.index()] = 2,
                    crate::board::HarborKind::Generic => {
                        for b in best.iter_mut() {
                            *b = (*b).min(3);
                        }
                    }
                }
            }
        }
        best
    }

    /// The maritime trades `seat` can afford now.
    pub(crate) fn legal_maritime(&self, seat: Seat, out: &mut Vec<LegalAction>) {
        let hand = self.player(seat).hand;
        let mut options = Vec::new();
        let ratios = if hand.counts().iter().any(|&n| n >= 2) {
            self.trade_ratios(seat)
        } else {
            [4; 5]
        };
        for give in Resource::ALL {
            let ratio = ratios[give.index()];
            if hand[give] >= ratio {
                options.push(MaritimeOption {
                    give,
                    ratio,
                    receive: ResourceSet::ALL.without(give),
                });
            }
        }
        if !options.is_empty() {
            out.push(LegalAction::MaritimeTrade { options });
        }
    }

    /// Offering (or withdrawing) a domestic trade, for the active `seat`.
    pub(crate) fn legal_offer(&self, seat: Seat, out: &mut Vec<LegalAction>) {
        match &self.offer {
            None if self.player(seat).hand.total() > 0 && !self.rules.no_player_trade => {
                out.push(LegalAction::OfferTrade)
            }
            Some(o) if o.from == seat => out.push(LegalAction::WithdrawTrade),
            _ => {}
        }
    }

    /// Answering the offer made to `seat`, if one is open.
    pub(crate) fn legal_answer(&self, seat: Seat, out: &mut Vec<LegalAction>) {
        if let Some(o) = &self.offer
            && o.to == seat
        {
            if self.player(seat).hand.contains(&o.receive) {
                out.push(LegalAction::AcceptTrade);
            }
            out.push(LegalAction::DeclineTrade);
        }
    }

    /// An open offer lapses once the offerer no longer holds what it gives.
    pub(crate) fn lapse_unpayable_offer(&mut self, ev: &mut Vec<Event>) {
        if let Some(o) = &self.offer
            && !self.player(o.from).hand.contains(&o.give)
        {
            ev.push(Event::TradeWithdrawn {
                seat: o.from,
                reason: TradeEnd::OffererCannotPay,
            });
            self.offer = None;
        }
    }
}
