//! Maritime and domestic trade (RULES.md §1 "Trade").

use crate::error::ActionError;
use crate::events::{Event, TradeEnd};
use crate::state::{GameState, TradeOffer};
use crate::types::{Resource, ResourceCounts, Seat};

impl GameState {
    pub(super) fn maritime_trade(
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
        let gave = ResourceCounts::single(give, ratio);
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

    pub(super) fn offer_trade(
        &mut self,
        seat: Seat,
        give: &ResourceCounts,
        receive: &ResourceCounts,
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

    pub(super) fn accept_trade(
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

    pub(super) fn decline_trade(
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

    pub(super) fn withdraw_trade(
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
}
