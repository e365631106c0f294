//! The seven's discards (RULES.md §1 "Seven"): every seat holding more
//! than its limit discards half, all at once, each choosing its cards.

use crate::cards::Cards;
use crate::contract::Ruleset;
use crate::error::ActionError;
use crate::events::Event;
use crate::phases::Phase;
use crate::seats::Seat;
use crate::state::GameState;

impl GameState {
    pub(crate) fn start_seven(&mut self, mover: Seat, ev: &mut Vec<Event>) {
        self.start_seven_with(Phase::MoveRobber { seat: mover }, ev);
    }

    /// A seven's discards, then `robber` (the step that moves it).
    pub(crate) fn start_seven_with(&mut self, robber: Phase, ev: &mut Vec<Event>) {
        self.phases.push(robber);
        self.require_discards(ev);
    }

    /// Pushes the discards a seven owes, if anyone owes one.
    pub(crate) fn require_discards(&mut self, ev: &mut Vec<Event>) {
        let ruleset = self.ruleset();
        let owed: Vec<(Seat, u8)> = self
            .players
            .iter()
            .filter(|p| p.hand.total() > ruleset.discard_limit(self, p.seat) as u32)
            .map(|p| (p.seat, (p.hand.total() / 2) as u8))
            .collect();
        if !owed.is_empty() {
            ev.push(Event::DiscardsRequired { owed: owed.clone() });
            self.phases.push(Phase::Discard { owed });
        }
    }

    pub(crate) fn discard(
        &mut self,
        seat: Seat,
        cards: &Cards,
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        let Some(Phase::Discard { owed }) = self.phases.last_mut() else {
            unreachable!("dispatch only routes here in Discard");
        };
        let Some(pos) = owed.iter().position(|(s, n)| *s == seat && *n > 0) else {
            return Err(ActionError::NotYourDecision {
                awaiting: owed.iter().map(|(s, _)| *s).collect(),
            });
        };
        let expected = owed[pos].1;
        if cards.total() != expected as u32 {
            return Err(ActionError::WrongDiscardCount {
                expected,
                got: cards.total(),
            });
        }
        if !self.players[seat.index()].hand.contains(cards) {
            return Err(ActionError::CardsNotHeld);
        }
        self.settle_discard(seat, cards, ev);
        Ok(())
    }

    /// Takes `seat`'s validated discard and closes the step once nobody
    /// owes one; automated seats discard through here too.
    pub(crate) fn settle_discard(&mut self, seat: Seat, cards: &Cards, ev: &mut Vec<Event>) {
        let Some(Phase::Discard { owed }) = self.phases.last_mut() else {
            return;
        };
        owed.retain(|(s, _)| *s != seat);
        let done = owed.is_empty();
        self.players[seat.index()].hand.sub(cards);
        self.bank.add(cards);
        ev.push(Event::Discarded {
            seat,
            cards: *cards,
        });
        if done {
            self.pop_phase();
        }
    }
}
