//! The random player the tests and the load generator share: it sees only
//! what a client is served (its view and legal actions), as a third-party
//! client would.
// Each user of this file needs only part of it.
#![allow(dead_code)]

use hexpost_engine::rng::GameRng;
use hexpost_engine::rulesets::VariantState;
use hexpost_engine::sim::{Seen, choose_random_seeing};
use hexpost_engine::{Action, GameView, LegalAction};
use serde_json::Value;

/// A client-side random player: picks uniformly among the served legal
/// actions, filling templates from its own hand as shown in its view.
pub fn choose(view: &Value, legal: &[LegalAction], rng: &mut GameRng) -> Action {
    let view: GameView = serde_json::from_value(view.clone()).expect("view parses");
    choose_in(&view, legal, rng)
}

/// `choose`, for a client that has already parsed its view.
pub fn choose_in(view: &GameView, legal: &[LegalAction], rng: &mut GameRng) -> Action {
    let seat = view.viewer.expect("a player's view");
    let hand = view.you.as_ref().expect("own hand").resources;
    let own_bid = match &view.phase {
        hexpost_engine::Phase::Variant(hexpost_engine::rulesets::Step::Auction(a)) => {
            a.bid_of(seat)
        }
        _ => None,
    };
    let mut seen = Seen {
        hand,
        own_bid,
        ..Seen::default()
    };
    // Cities & Knights: the view shows a player their own progress cards
    // (a progress discard picks among them) and the hand a Master Merchant
    // lets them pick from.
    if let VariantState::CkForTwo(c) = &view.variant {
        seen.progress = c.player(seat).progress.cards;
        seen.shown_hand = c.shown_hand;
    }
    choose_random_seeing(legal, &seen, rng, Default::default())
        .unwrap_or_else(|| panic!("no action chosen among {legal:?}"))
}
