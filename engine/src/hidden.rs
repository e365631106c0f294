//! Hidden information: one mechanism for everything a seat may be shown.
//!
//! Whatever leaves the engine for a reader — the view's phase and the
//! ruleset's state, events, a log row's events — passes through
//! [`Redact::redacted_for`] with the reader's seat (`None`: a spectator),
//! which keeps what that seat may know and blanks the rest: the cards of a
//! steal or a forced trade to anyone but the two parties, a bought
//! development card to anyone but its buyer, a sealed bid to the other
//! bidder. The base game's own secrets — the kinds of cards in a hand, the
//! development cards held, the deck, the dice to come — never enter what
//! is shown at all: the view carries their counts only.
//!
//! Proving it: `invariants::check_view_hides` changes every fact hidden
//! from a seat (the parts' own and, through `Ruleset::perturb_hidden`, the
//! ruleset's) and checks that the seat's view and legal actions do not
//! move; `invariants::check_events_redacted` checks every event.

use crate::seats::Seat;

pub trait Redact: Sized + PartialEq {
    /// What `viewer` may see of `self`; `None` is a spectator, or anyone
    /// without a seat, who sees only public facts.
    fn redacted_for(&self, viewer: Option<Seat>) -> Self;

    /// True when `self`, as given, carries nothing `viewer` may not see.
    fn is_visible_to(&self, viewer: Option<Seat>) -> bool {
        *self == self.redacted_for(viewer)
    }
}
