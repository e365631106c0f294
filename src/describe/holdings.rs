//! What a player holds beyond resource and development cards, in the
//! variants that have it, as their own view shows it.

use super::cards::progress_cards;
use hexpost_engine::rulesets::VariantState;
use hexpost_engine::{GameView, Seat};

/// "Your trade tokens: 4", "Your progress cards: Warlord", "Your city
/// improvements: trade 1, politics 0, science 2"; nothing in the variants
/// without them. Read from `view`, the reader's own, so it shows nothing
/// they may not see.
pub fn holdings(view: &GameView, seat: Seat) -> Vec<String> {
    let mut lines = Vec::new();
    if let Some(tokens) = view.variant.tokens()
        && let Some(held) = tokens.held.get(seat.index())
    {
        lines.push(format!("Your trade tokens: {held}"));
    }
    if let VariantState::CkForTwo(ck) = &view.variant
        && let Some(me) = ck.players.get(seat.index())
    {
        if let Some(cards) = &me.progress.cards {
            lines.push(format!("Your progress cards: {}", progress_cards(cards)));
        }
        let [trade, politics, science] = me.levels;
        lines.push(format!(
            "Your city improvements: trade {trade}, politics {politics}, science {science}"
        ));
    }
    lines
}
