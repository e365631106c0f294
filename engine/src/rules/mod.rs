//! Applying actions. Every handler validates completely before it mutates
//! anything, so a refused action leaves the state exactly as it was (the
//! simulator checks this after every refusal).

mod awards;
mod build;
mod dev_cards;
pub mod legal;
mod robber;
mod roll;
mod setup;
mod trade;
mod turn;

use crate::actions::Action;
use crate::error::ActionError;
use crate::events::{Event, TradeEnd};
use crate::state::{GameState, Phase, PhaseKind};
use crate::types::Seat;
use crate::variants;

impl GameState {
    /// Applies `action` for `seat`, then every automated step that follows,
    /// and returns the events caused, unredacted (use
    /// `Event::redacted_for` before showing them to a seat).
    pub fn apply(&mut self, seat: Seat, action: &Action) -> Result<Vec<Event>, ActionError> {
        let mut events = Vec::with_capacity(4);
        self.apply_into(seat, action, &mut events)?;
        Ok(events)
    }

    /// `apply`, appending the events to `events` (cleared first) so a
    /// caller applying many actions reuses one buffer. On refusal the
    /// buffer is left empty.
    pub fn apply_into(
        &mut self,
        seat: Seat,
        action: &Action,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        self.decide_into(seat, action, events)?;
        self.run_automation(events);
        Ok(())
    }

    /// Applies `action` for `seat` but stops before the automated steps
    /// that follow it, so a caller that records every step on its own (the
    /// server's move log) can run them one at a time with
    /// [`GameState::automated_step`]. `apply` is exactly this followed by
    /// automated steps until none is due.
    pub fn apply_decision(
        &mut self,
        seat: Seat,
        action: &Action,
    ) -> Result<Vec<Event>, ActionError> {
        let mut events = Vec::with_capacity(4);
        self.decide_into(seat, action, &mut events)?;
        Ok(events)
    }

    fn decide_into(
        &mut self,
        seat: Seat,
        action: &Action,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        events.clear();
        if self.is_over() {
            return Err(ActionError::GameOver);
        }
        if !seat.is_real() {
            return Err(ActionError::UnknownSeat { seat });
        }
        let awaiting = self.awaiting();
        if !awaiting.contains(&seat) {
            return Err(ActionError::NotYourDecision { awaiting });
        }
        if let Err(e) = self.dispatch(seat, action, events) {
            events.clear();
            return Err(e);
        }
        self.after_action(events);
        Ok(())
    }

    fn dispatch(
        &mut self,
        seat: Seat,
        action: &Action,
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        use Action as A;
        use PhaseKind as P;
        let hooks = variants::hooks(self.rules.variant);
        // The variant takes its own actions, and every action while one of
        // its steps is pending; everything else is the base game's.
        if let Some(result) = hooks.dispatch(self, seat, action, ev) {
            return result;
        }
        let phase_name = self.phase().name();
        match (self.phase().kind(), action) {
            (_, a) if a.variant_only() => Err(ActionError::NotInVariant {
                action: a.name(),
                variant: self.rules.variant.id(),
            }),
            (P::Setup, A::BuildSettlement { node }) => self.setup_settlement(seat, *node, ev),
            (P::Setup, A::BuildRoad { edge }) => self.setup_road(seat, *edge, ev),
            (P::Discard, A::Discard { cards }) => self.discard(seat, cards, ev),
            (P::MoveRobber, A::MoveRobber { hex, victim }) => {
                self.move_robber(seat, *hex, *victim, ev)
            }
            (P::RoadBuilding, A::BuildRoad { edge }) => self.free_road(seat, *edge, ev),
            (P::Main, A::AcceptTrade) => self.accept_trade(seat, ev),
            (P::Main, A::DeclineTrade) => self.decline_trade(seat, ev),
            (P::Main, _) if seat != self.active => Err(ActionError::WrongPhase {
                action: action.name(),
                phase: "answering a trade offer",
            }),
            (P::BeforeRoll, A::RollDice) => self.roll(seat, ev),
            (P::BeforeRoll | P::Main, A::PlayKnight { hex, victim }) => {
                self.play_knight(seat, *hex, *victim, ev)
            }
            (P::BeforeRoll | P::Main, A::PlayRoadBuilding) => self.play_road_building(seat, ev),
            (P::BeforeRoll | P::Main, A::PlayYearOfPlenty { resources }) => {
                self.play_year_of_plenty(seat, resources, ev)
            }
            (P::BeforeRoll | P::Main, A::PlayMonopoly { resource }) => {
                self.play_monopoly(seat, *resource, ev)
            }
            (P::Main, A::EndTurn) => self.end_turn(seat, ev),
            (P::Main, A::BuildRoad { edge }) => self.build_road(seat, *edge, ev),
            (P::Main, A::BuildSettlement { node }) => self.build_settlement(seat, *node, ev),
            (P::Main, A::BuildCity { node }) => self.build_city(seat, *node, ev),
            (P::Main, A::BuyDevelopmentCard) => self.buy_dev_card(seat, ev),
            (
                P::Main,
                A::MaritimeTrade {
                    give,
                    receive,
                    ratio,
                },
            ) => self.maritime_trade(seat, *give, *receive, *ratio, ev),
            (P::Main, A::OfferTrade { give, receive }) => self.offer_trade(seat, give, receive, ev),
            (P::Main, A::WithdrawTrade) => self.withdraw_trade(seat, ev),
            (_, _) => Err(ActionError::WrongPhase {
                action: action.name(),
                phase: phase_name,
            }),
        }
    }

    /// Bookkeeping after every successful action: lapse an offer the offerer
    /// can no longer pay, check victory.
    fn after_action(&mut self, ev: &mut Vec<Event>) {
        if let Some(o) = &self.offer
            && !self.player(o.from).hand.contains(&o.give)
        {
            ev.push(Event::TradeWithdrawn {
                seat: o.from,
                reason: TradeEnd::OffererCannotPay,
            });
            self.offer = None;
        }
        self.check_victory(ev);
    }

    /// Runs one automated step if one is due, appending its events: the
    /// seat it acted for, or `None` when a real player's decision is
    /// awaited (or the game is over).
    pub fn automated_step(&mut self, ev: &mut Vec<Event>) -> Option<Seat> {
        if self.is_over() {
            return None;
        }
        let seat = variants::hooks(self.rules.variant).automated_step(self, ev)?;
        self.check_victory(ev);
        Some(seat)
    }

    /// Automated seats act here until a real player's decision is awaited.
    pub(crate) fn run_automation(&mut self, ev: &mut Vec<Event>) {
        while self.automated_step(ev).is_some() {}
    }

    /// A player wins the moment they reach the target on their own turn.
    pub(crate) fn check_victory(&mut self, ev: &mut Vec<Event>) {
        if self.is_over() || matches!(self.phases.first(), Some(Phase::Setup)) {
            return;
        }
        let seat = self.active;
        let vp = self.total_vp(seat);
        if vp >= self.rules.vp_target {
            let p = self.player(seat);
            let revealed = crate::types::DevCounts {
                victory_point: p.hidden_vp(),
                ..Default::default()
            };
            self.winner = Some(seat);
            self.offer = None;
            self.phases = vec![Phase::Ended];
            ev.push(Event::GameWon {
                seat,
                victory_points: vp,
                revealed,
            });
        }
    }

    /// Pops the top phase, or leaves `Ended` in place.
    pub(crate) fn pop_phase(&mut self) {
        if self.phases.len() > 1 {
            self.phases.pop();
        }
    }

    pub(crate) fn require_active(
        &self,
        seat: Seat,
        action: &'static str,
    ) -> Result<(), ActionError> {
        if seat == self.active {
            Ok(())
        } else {
            Err(ActionError::WrongPhase {
                action,
                phase: "not your turn",
            })
        }
    }
}
