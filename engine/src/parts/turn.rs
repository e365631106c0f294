//! Ending a turn and starting the next (RULES.md §1 "Turn").

use crate::contract::Ruleset;
use crate::error::ActionError;
use crate::events::{Event, TradeEnd};
use crate::phases::Phase;
use crate::seats::Seat;
use crate::state::GameState;

impl GameState {
    pub(crate) fn end_turn(&mut self, seat: Seat, ev: &mut Vec<Event>) -> Result<(), ActionError> {
        self.require_active(seat, "end_turn")?;
        self.finish_turn(seat, ev);
        Ok(())
    }

    /// Ends `seat`'s turn, validated or forced (a ruleset may end a turn at
    /// once), and starts the next real turn unless the ruleset puts an
    /// automated turn in between, which then starts it itself.
    pub(crate) fn finish_turn(&mut self, seat: Seat, ev: &mut Vec<Event>) {
        if self.offer.take().is_some() {
            ev.push(Event::TradeWithdrawn {
                seat,
                reason: TradeEnd::TurnEnded,
            });
        }
        if let Some(dev) = &mut self.dev {
            dev.turn_ended(seat);
        }
        ev.push(Event::TurnEnded { seat });
        let next = seat.opponent();
        if !self.ruleset().between_turns(self, seat, next, ev) {
            self.start_turn(next, ev);
        }
    }

    /// `seat`'s real turn begins, before the roll.
    pub(crate) fn start_turn(&mut self, seat: Seat, ev: &mut Vec<Event>) {
        self.active = seat;
        self.turn += 1;
        self.phases = vec![Phase::BeforeRoll];
        ev.push(Event::TurnStarted {
            seat,
            turn: self.turn,
        });
        self.ruleset().turn_started(self, seat, ev);
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
