//! Ending a turn and starting the next.

use crate::error::ActionError;
use crate::events::{Event, TradeEnd};
use crate::state::{GameState, Phase};
use crate::types::{DevCounts, Seat};
use crate::variants;

impl GameState {
    pub(super) fn end_turn(&mut self, seat: Seat, ev: &mut Vec<Event>) -> Result<(), ActionError> {
        self.require_active(seat, "end_turn")?;
        self.finish_turn(seat, ev);
        Ok(())
    }

    /// Ends `seat`'s turn, validated or forced (a variant may end a turn at
    /// once), and starts the next real turn unless the variant puts an
    /// automated turn in between, which then starts it itself.
    pub(crate) fn finish_turn(&mut self, seat: Seat, ev: &mut Vec<Event>) {
        if self.offer.take().is_some() {
            ev.push(Event::TradeWithdrawn {
                seat,
                reason: TradeEnd::TurnEnded,
            });
        }
        let p = self.player_mut(seat);
        let fresh = std::mem::take(&mut p.new_dev_cards);
        for card in crate::types::DevCard::ALL {
            *p.dev_cards.get_mut(card) += fresh.get(card);
        }
        debug_assert_eq!(p.new_dev_cards, DevCounts::default());
        self.dev_played_this_turn = false;
        ev.push(Event::TurnEnded { seat });
        let next = seat.opponent();
        if !variants::hooks(self.rules.variant).between_turns(self, seat, next, ev) {
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
        variants::hooks(self.rules.variant).turn_started(self, seat, ev);
    }
}
