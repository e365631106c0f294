//! The engine's contract: what a ruleset is.
//!
//! A game is played by one ruleset ([`crate::rulesets`], one per variant
//! of RULES.md). The core (`crate::core`) holds the board, the seats, the
//! cards, the dice and the phase stack; the base game's concerns are parts
//! (`crate::parts`); a ruleset composes the parts it uses, adds its own, and
//! replaces or leaves out what the base game offers. Every method below
//! has the base game's behaviour as its default (`rulesets::base`), so a
//! ruleset states only where it differs.
//!
//! [`GameState`]'s public entry points — `new`, `apply`, `apply_decision`,
//! `automated_step`, `legal_actions`, `view`, `awaiting`,
//! `timeout_decision` — call these through [`AnyRuleset`], the one enum
//! over the rulesets. The base game's parts call the hooks at the end of
//! this trait at fixed points, and nowhere branch on the variant.
//!
//! **Duties of every implementation.** `apply` validates completely
//! before it changes anything, so a refused action leaves the state as it
//! was. `legal_actions` is the single source of what may be done: `apply`
//! accepts every concrete action its entries describe (except where the
//! outcome depends on facts the seat may not see, refused with
//! `bank_shortage`). What a seat may not see never reaches it: the view
//! goes through [`crate::hidden::Redact`] and the ruleset's
//! `public_state`, events through `Event::redacted_for`, and
//! `perturb_hidden` lets the property tests change every hidden fact and
//! check that no seat's view or legal actions move. Randomness comes only
//! from the state's generator, so a game replays from its seed and
//! actions.
//!
//! [`AnyRuleset`]: crate::rulesets::AnyRuleset

use crate::actions::{Action, LegalAction};
use crate::board::HexId;
use crate::cards::{Cards, Resource};
use crate::error::ActionError;
use crate::events::Event;
use crate::hidden::Redact;
use crate::parts::buildings::Built;
use crate::rng::GameRng;
use crate::rulesets::{VariantState, base};
use crate::seats::Seat;
use crate::state::GameState;

pub trait Ruleset {
    // ---- Creating a game ----

    /// Once the core exists (board, bank, the two real players, the snake
    /// set-up queue, the development deck if the ruleset deals one): add
    /// automated seats, starting pieces, the ruleset's state and steps.
    fn init(&self, _s: &mut GameState, _ev: &mut Vec<Event>) {}

    /// Whether the game deals development cards (the `dev_cards` part).
    fn deals_development_cards(&self) -> bool {
        true
    }

    /// Every card in the game: what the bank and the hands always add up to.
    fn card_supply(&self) -> Cards {
        base::CARD_SUPPLY
    }

    // ---- Decisions ----

    /// Applies `seat`'s decision; the caller has checked that the game is
    /// on and `seat` is awaited. The ruleset takes its own actions (and
    /// every action while one of its steps is on top) and hands the rest
    /// to the base game.
    fn apply(
        &self,
        s: &mut GameState,
        seat: Seat,
        action: &Action,
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        base::apply(s, seat, action, ev)
    }

    /// Bookkeeping after every accepted decision and automated step.
    fn after_action(&self, s: &mut GameState, ev: &mut Vec<Event>) {
        base::after_action(s, ev)
    }

    /// What `seat` may do now, one entry per action type with the choices
    /// that make it legal.
    fn legal_actions(&self, s: &GameState, seat: Seat, out: &mut Vec<LegalAction>) {
        base::legal_actions(s, seat, out)
    }

    /// One automated step (an automated seat acts, or a roll the server
    /// makes for a player), if one is due: the seat it acted for. `None`
    /// when a real player's decision is awaited.
    fn automated_step(&self, _s: &mut GameState, _ev: &mut Vec<Event>) -> Option<Seat> {
        None
    }

    /// The decision the server takes for `seat` when its time ran out
    /// (policy `auto`): never a choice that spends or offers anything.
    fn timeout_decision(&self, s: &GameState, seat: Seat) -> Option<Action> {
        crate::timeout::base_decision(s, seat)
    }

    // ---- What a seat may see ----

    /// The ruleset's own data as `viewer` may see it (`None`: a spectator).
    fn public_state(&self, s: &GameState, viewer: Option<Seat>) -> VariantState {
        s.variant.redacted_for(viewer)
    }

    /// For the hidden-information property test: changes every fact of the
    /// ruleset's own state that `viewer` may not see, keeping what it may.
    fn perturb_hidden(&self, _s: &mut GameState, _viewer: Seat, _rng: &mut GameRng) {}

    /// Whether a card shows `viewer` their opponent's hand just now, so
    /// that hand is not hidden from them.
    fn opponent_hand_shown(&self, _s: &GameState, _viewer: Seat) -> bool {
        false
    }

    // ---- Scoring ----

    /// `seat`'s visible points recounted from the board, the awards and
    /// the cards laid down.
    fn visible_vp(&self, s: &GameState, seat: Seat) -> u8 {
        s.base_visible_vp(seat)
    }

    // ---- Invariants ----

    /// What must hold after every action besides the core's and the
    /// parts' checks (`crate::invariants`).
    fn check(&self, _s: &GameState) -> Result<(), String> {
        Ok(())
    }

    // ---- Points where the base game's parts call the ruleset ----

    /// After a road or settlement is placed (set-up included), for any owner.
    fn after_build(&self, _s: &mut GameState, _owner: Seat, _built: Built, _ev: &mut Vec<Event>) {}

    /// Does `seat` collect production (and starting resources)?
    fn receives_resources(&self, _s: &GameState, _seat: Seat) -> bool {
        true
    }

    /// A seat holding more cards than this discards half on a seven.
    fn discard_limit(&self, s: &GameState, _seat: Seat) -> u8 {
        s.rules.discard_limit
    }

    /// A real player's roll was shown and is about to be resolved.
    fn on_roll(&self, _s: &mut GameState, _seat: Seat, _total: u8, _ev: &mut Vec<Event>) {}

    /// A real turn has ended. Returns true when the ruleset put an automated
    /// turn in between, which then starts `next`'s turn itself
    /// (`GameState::start_turn`).
    fn between_turns(
        &self,
        _s: &mut GameState,
        _ended: Seat,
        _next: Seat,
        _ev: &mut Vec<Event>,
    ) -> bool {
        false
    }

    /// A real player's turn has begun: reset the ruleset's once-per-turn state.
    fn turn_started(&self, _s: &mut GameState, _seat: Seat, _ev: &mut Vec<Event>) {}

    /// How many of `seat`'s settlements stand on a city piece (a city of
    /// Cities & Knights pillaged when no settlement piece was left), for
    /// the piece counts.
    fn city_pieces_as_settlements(&self, _s: &GameState, _seat: Seat) -> u8 {
        0
    }

    /// Nodes the ruleset's own pieces occupy (no building may go there).
    fn occupied_nodes(&self, _s: &GameState) -> u64 {
        0
    }

    /// Nodes where the ruleset's pieces of another colour than `seat` stop
    /// `seat`'s roads, as another colour's building does.
    fn piece_blockers(&self, _s: &GameState, _seat: Seat) -> u64 {
        0
    }

    /// May the robber be put on a removed hex?
    fn robber_may_enter_removed(&self, _s: &GameState) -> bool {
        false
    }

    /// After the robber moved (and stole) by a seven or a knight.
    fn after_robber_moved(
        &self,
        _s: &mut GameState,
        _mover: Seat,
        _hex: HexId,
        _ev: &mut Vec<Event>,
    ) {
    }

    /// After a Monopoly took its cards from the other seats.
    fn after_monopoly(
        &self,
        _s: &mut GameState,
        _seat: Seat,
        _resource: Resource,
        _ev: &mut Vec<Event>,
    ) {
    }
}
