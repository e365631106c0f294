//! Progress cards in general (RULES.md §6.12): drawing, the victory-point
//! cards laid down at once, the limit of 4, and playing a card on one's
//! own turn. What each card does is in `science`, `politics` and
//! `commerce`.

use super::state::PROGRESS_LIMIT;
use super::wire::ProgressPlay;
use super::{add_vp, ck, ck_mut, commerce, politics, science};
use crate::cards::{ProgressCard, Track};
use crate::error::ActionError;
use crate::events::Event;
use crate::phases::{Phase, PhaseKind};
use crate::rulesets::Step;
use crate::seats::Seat;
use crate::state::GameState;

/// `seat` draws the top card of `track`'s deck, if any: a victory-point
/// card is laid down at once, any other is held.
pub(super) fn draw(s: &mut GameState, seat: Seat, track: Track, ev: &mut Vec<Event>) {
    let c = ck_mut(s);
    let Some(card) = c.draw(track) else {
        return;
    };
    ev.push(Event::ProgressDrawn {
        seat,
        track,
        card: Some(card),
    });
    if card.is_victory_point() {
        c.player_mut(seat).laid_down[card] += 1;
        add_vp(s, seat, 1);
        ev.push(Event::VictoryCardLaidDown { seat, card });
    } else {
        c.hold(seat, card);
    }
}

/// The player who is not active discards at once down to the limit.
pub(super) fn owe_off_turn_discard(s: &mut GameState) {
    let seat = s.active.opponent();
    if ck(s).player(seat).progress.count > PROGRESS_LIMIT {
        s.phases
            .push(Phase::Variant(Step::ProgressDiscard { seat }));
    }
}

/// Takes a played card from `seat`'s hand, shows it, and puts it under
/// its deck.
pub(super) fn spend_card(s: &mut GameState, seat: Seat, card: ProgressCard, ev: &mut Vec<Event>) {
    let c = ck_mut(s);
    c.release(seat, card);
    c.put_under(card);
    ev.push(Event::ProgressPlayed { seat, card });
}

/// Discards `card` of `seat`'s hand, shown to both, under its deck.
fn discard(s: &mut GameState, seat: Seat, card: ProgressCard, ev: &mut Vec<Event>) {
    let c = ck_mut(s);
    c.release(seat, card);
    c.put_under(card);
    ev.push(Event::ProgressDiscarded { seat, card });
}

fn check_held(s: &GameState, seat: Seat, card: ProgressCard) -> Result<(), ActionError> {
    if ck(s).holds(seat, card) {
        Ok(())
    } else {
        Err(ActionError::ProgressCardNotHeld { card })
    }
}

/// The off-turn discard above the limit.
pub(super) fn discard_off_turn(
    s: &mut GameState,
    seat: Seat,
    card: ProgressCard,
    ev: &mut Vec<Event>,
) -> Result<(), ActionError> {
    check_held(s, seat, card)?;
    discard(s, seat, card, ev);
    if ck(s).player(seat).progress.count <= PROGRESS_LIMIT {
        s.pop_phase();
    }
    Ok(())
}

/// The active player getting down to the limit before ending the turn.
pub(super) fn discard_own(
    s: &mut GameState,
    seat: Seat,
    card: ProgressCard,
    ev: &mut Vec<Event>,
) -> Result<(), ActionError> {
    let held = ck(s).player(seat).progress.count;
    if held <= PROGRESS_LIMIT {
        return Err(ActionError::InvalidChoice {
            reason: "progress cards are discarded only above the limit of 4",
        });
    }
    check_held(s, seat, card)?;
    discard(s, seat, card, ev);
    Ok(())
}

/// The turn cannot end above the limit.
pub(super) fn end_turn(
    s: &mut GameState,
    seat: Seat,
    ev: &mut Vec<Event>,
) -> Result<(), ActionError> {
    let held = ck(s).player(seat).progress.count;
    if held > PROGRESS_LIMIT {
        return Err(ActionError::ProgressLimit { held });
    }
    s.end_turn(seat, ev)
}

/// Plays a progress card: the Alchemist before the first roll, any other
/// after it with nothing pending, on one's own turn. Every check is made
/// before anything changes.
pub(super) fn play(
    s: &mut GameState,
    seat: Seat,
    play: &ProgressPlay,
    ev: &mut Vec<Event>,
) -> Result<(), ActionError> {
    let card = play.card();
    let before_roll = s.phase().kind() == PhaseKind::BeforeRoll;
    let alchemist = card == ProgressCard::Alchemist;
    if before_roll != alchemist {
        return Err(ActionError::ProgressCardRefused {
            card,
            reason: if alchemist {
                "the Alchemist is played before the first roll only"
            } else {
                "progress cards are played after the rolls"
            },
        });
    }
    check_held(s, seat, card)?;
    match card.track() {
        Track::Science => science::play(s, seat, play, ev),
        Track::Politics => politics::play(s, seat, play, ev),
        Track::Trade => commerce::play(s, seat, play, ev),
    }
}

/// A card certain to do nothing is refused with this.
pub(super) fn refused(card: ProgressCard, reason: &'static str) -> ActionError {
    ActionError::ProgressCardRefused { card, reason }
}
