//! The game's public entry points: creating it, applying a decision,
//! running the automated steps, and asking what may be done. Each checks
//! what every ruleset shares and hands the rest to the game's ruleset
//! (`contract::Ruleset`).

use crate::actions::{Action, LegalAction};
use crate::board::topology::{EDGE_COUNT, NODE_COUNT};
use crate::board::{Board, LayoutKind};
use crate::contract::Ruleset;
use crate::dice::Dice;
use crate::error::ActionError;
use crate::events::Event;
use crate::options::{ConfigError, GameConfig};
use crate::parts::dev_cards::DevCards;
use crate::phases::{Phase, Setup};
use crate::rng::GameRng;
use crate::rulesets::{AnyRuleset, VariantState};
use crate::seats::{Seat, SeatKind};
use crate::state::{GameState, Player};

impl GameState {
    /// A new game from its configuration and seed. Returns the opening
    /// events (board, first player).
    pub fn new(config: &GameConfig, seed: u64) -> Result<(GameState, Vec<Event>), ConfigError> {
        Self::with_rng(config, GameRng::from_seed(seed))
    }

    /// `new` with the random stream given, e.g. from a 32-byte seed.
    pub fn with_rng(
        config: &GameConfig,
        rng: GameRng,
    ) -> Result<(GameState, Vec<Event>), ConfigError> {
        let (mut state, mut events) = Self::opening(config, rng)?;
        state.run_automation(&mut events);
        Ok((state, events))
    }

    /// The new game before any automated step has run, for callers that
    /// record each automated step on its own (see
    /// [`GameState::automated_step`]).
    pub fn opening(
        config: &GameConfig,
        mut rng: GameRng,
    ) -> Result<(GameState, Vec<Event>), ConfigError> {
        let rules = config.resolve()?;
        let ruleset = AnyRuleset::of(rules.variant);
        let board = match rules.board {
            LayoutKind::Beginner => Board::beginner(),
            LayoutKind::Random => Board::random(&mut rng, rules.no_adjacent_red),
        };
        let robber = board.desert().unwrap_or(0);
        let real = GameState::real_seats();
        let dev = ruleset
            .deals_development_cards()
            .then(|| DevCards::new(&mut rng, real.len()));
        let dice = Dice::new(rules.balanced_dice);
        let mut state = GameState {
            rules,
            board,
            players: real.map(|s| Player::new(s, SeatKind::Real)).to_vec(),
            buildings: vec![None; NODE_COUNT],
            roads: vec![None; EDGE_COUNT],
            robber,
            bank: ruleset.card_supply(),
            dice,
            rng,
            phases: vec![Phase::Setup],
            setup: Setup::snake(),
            active: Seat(0),
            turn: 0,
            last_roll: None,
            offer: None,
            longest_road: None,
            dev,
            winner: None,
            variant: VariantState::None,
        };
        let mut events = vec![Event::GameStarted { first: Seat(0) }];
        ruleset.init(&mut state, &mut events);
        Ok((state, events))
    }

    /// Applies `action` for `seat`, then every automated step that follows,
    /// and returns the events caused, unredacted (use
    /// `Redact::redacted_for` before showing them to a seat).
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
        let ruleset = self.ruleset();
        if let Err(e) = ruleset.apply(self, seat, action, events) {
            events.clear();
            return Err(e);
        }
        ruleset.after_action(self, events);
        Ok(())
    }

    /// Runs one automated step if one is due, appending its events: the
    /// seat it acted for, or `None` when a real player's decision is
    /// awaited (or the game is over).
    pub fn automated_step(&mut self, ev: &mut Vec<Event>) -> Option<Seat> {
        if self.is_over() {
            return None;
        }
        let seat = self.ruleset().automated_step(self, ev)?;
        self.check_victory(ev);
        Some(seat)
    }

    /// Automated seats act here until a real player's decision is awaited.
    pub(crate) fn run_automation(&mut self, ev: &mut Vec<Event>) {
        while self.automated_step(ev).is_some() {}
    }

    pub fn legal_actions(&self, seat: Seat) -> Vec<LegalAction> {
        let mut out = Vec::new();
        self.legal_actions_into(seat, &mut out);
        out
    }

    /// Like `legal_actions`, reusing `out`'s allocation.
    pub fn legal_actions_into(&self, seat: Seat, out: &mut Vec<LegalAction>) {
        out.clear();
        if self.is_over() || !seat.is_real() {
            return;
        }
        self.ruleset().legal_actions(self, seat, out);
    }

    /// The safe decision for `seat` when its time ran out, or `None` if it
    /// is not awaited (or, should a ruleset ever offer nothing safe, so the
    /// caller can fall back to forfeiting).
    pub fn timeout_decision(&self, seat: Seat) -> Option<Action> {
        if !self.awaiting().contains(&seat) {
            return None;
        }
        self.ruleset().timeout_decision(self, seat)
    }
}
