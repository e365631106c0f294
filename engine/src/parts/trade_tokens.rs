//! Trade tokens (RULES.md §3, seed 001): a supply of 20, earned by
//! settling on the desert's edge or the coast, spent on one token action a
//! turn: a forced trade with the opponent, or the robber back to the
//! desert. Rulesets that use them keep [`Tokens`] in their state.

use crate::actions::LegalAction;
use crate::board::{NodeId, topology};
use crate::cards::Cards;
use crate::error::ActionError;
use crate::events::{Event, TokenReason};
use crate::phases::{Phase, PhaseKind};
use crate::rulesets::Step;
use crate::seats::Seat;
use crate::state::GameState;
use serde::{Deserialize, Serialize};

pub const TOKENS_TOTAL: u8 = 20;
pub const TOKENS_AT_START: u8 = 5;

/// The trade tokens and this turn's once-only flags.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tokens {
    /// Held by real seat.
    pub held: [u8; 2],
    /// Left in the supply; `supply + held[0] + held[1] == 20`.
    pub supply: u8,
    /// A token action (forced trade or robber to the desert) was taken this turn.
    pub action_used: bool,
    /// A knight was discarded for tokens this turn.
    pub knight_discarded: bool,
}

impl Tokens {
    /// Five to each player, the rest in the supply.
    pub fn at_start() -> Tokens {
        Tokens {
            held: [TOKENS_AT_START; 2],
            supply: TOKENS_TOTAL - 2 * TOKENS_AT_START,
            action_used: false,
            knight_discarded: false,
        }
    }

    /// A new turn: the once-per-turn flags are cleared.
    pub fn turn_started(&mut self) {
        self.action_used = false;
        self.knight_discarded = false;
    }

    pub fn check(&self) -> Result<(), String> {
        let sum = self.supply as u32 + self.held.iter().map(|&n| n as u32).sum::<u32>();
        if sum != TOKENS_TOTAL as u32 {
            return Err(format!("trade tokens: supply + players = {sum}, not 20"));
        }
        Ok(())
    }
}

/// The cards of `hand` a forced trade draws and gives back.
fn forced_trade_cards(hand: &Cards, resources_only: bool) -> Cards {
    if resources_only {
        hand.resources()
    } else {
        *hand
    }
}

/// What a settlement on `node` earns: +2 touching the desert, +1 on the
/// coast, +3 both.
pub fn settlement_reward(s: &GameState, node: NodeId) -> Option<(u8, TokenReason)> {
    let topo = topology();
    let desert = s
        .board
        .desert()
        .is_some_and(|d| topo.nodes[node as usize].hexes.contains(&d));
    let coast = topo.is_coastal_node(node);
    match (desert, coast) {
        (true, true) => Some((3, TokenReason::DesertAndCoast)),
        (true, false) => Some((2, TokenReason::Desert)),
        (false, true) => Some((1, TokenReason::Coast)),
        (false, false) => None,
    }
}

impl GameState {
    pub fn tokens(&self) -> Option<&Tokens> {
        self.variant.tokens()
    }

    fn tokens_mut(&mut self) -> Option<&mut Tokens> {
        self.variant.tokens_mut()
    }

    /// Tokens cost 1 when the player's visible VP are at most the opponent's, else 2.
    pub fn token_action_cost(&self, seat: Seat) -> u8 {
        if self.player(seat).visible_vp <= self.player(seat.opponent()).visible_vp {
            1
        } else {
            2
        }
    }

    /// `seat` takes `n` tokens from the supply, as many as it still holds.
    pub(crate) fn earn_tokens(
        &mut self,
        seat: Seat,
        n: u8,
        reason: TokenReason,
        ev: &mut Vec<Event>,
    ) {
        let Some(t) = self.tokens_mut() else { return };
        let got = n.min(t.supply);
        if got == 0 {
            return;
        }
        t.supply -= got;
        t.held[seat.index()] += got;
        ev.push(Event::TokensEarned {
            seat,
            tokens: got,
            reason,
        });
    }

    /// A real player's settlement on `node` earns its tokens.
    pub(crate) fn earn_settlement_tokens(
        &mut self,
        owner: Seat,
        node: NodeId,
        ev: &mut Vec<Event>,
    ) {
        if let Some((n, reason)) = settlement_reward(self, node) {
            self.earn_tokens(owner, n, reason, ev);
        }
    }

    /// The token actions and knight trades belong to one's own turn with
    /// nothing else pending, before or after the roll.
    pub(crate) fn check_own_turn(
        &self,
        seat: Seat,
        action: &'static str,
    ) -> Result<(), ActionError> {
        if !matches!(self.phase().kind(), PhaseKind::BeforeRoll | PhaseKind::Main) {
            return Err(ActionError::WrongPhase {
                action,
                phase: self.phase().name(),
            });
        }
        self.require_active(seat, action)
    }

    /// Validates a token action: once per turn, and the tokens to pay for
    /// it (`factor` times the cost); returns what it costs.
    pub(crate) fn check_token_action(
        &self,
        seat: Seat,
        action: &'static str,
        factor: u8,
    ) -> Result<u8, ActionError> {
        self.check_own_turn(seat, action)?;
        let t = self.tokens().ok_or(ActionError::WrongPhase {
            action,
            phase: "no trade tokens in this game",
        })?;
        if t.action_used {
            return Err(ActionError::TokenActionUsed);
        }
        let cost = self.token_action_cost(seat) * factor;
        let held = t.held[seat.index()];
        if held < cost {
            return Err(ActionError::NoTokens { cost, held });
        }
        Ok(cost)
    }

    pub(crate) fn pay_tokens(&mut self, seat: Seat, cost: u8, ev: &mut Vec<Event>) {
        if let Some(t) = self.tokens_mut() {
            t.held[seat.index()] -= cost;
            t.supply += cost;
            t.action_used = true;
        }
        ev.push(Event::TokensPaid { seat, tokens: cost });
    }

    /// A forced trade's conditions over the cards it may draw (`theirs`,
    /// the opponent's drawable cards) and give (`mine`).
    pub(crate) fn check_forced_trade_cards(theirs: u32, mine: u32) -> Result<(), ActionError> {
        if theirs == 0 {
            return Err(ActionError::OpponentHasNoCards);
        }
        let held = mine + theirs.min(2);
        if held < 2 {
            return Err(ActionError::TooFewCardsToGive { held });
        }
        Ok(())
    }

    /// Pays `cost`, draws two random cards of the opponent's drawable ones
    /// (fewer if they hold fewer), and awaits the two given back. With
    /// `resources_only` (Cities & Knights) the opponent's commodities are
    /// set aside: only resource cards are drawn and given back.
    pub(crate) fn forced_trade_draw(
        &mut self,
        seat: Seat,
        cost: u8,
        resources_only: bool,
        ev: &mut Vec<Event>,
    ) {
        let from = seat.opponent();
        self.pay_tokens(seat, cost, ev);
        let mut drawn = Cards::ZERO;
        for _ in 0..2 {
            let pool = forced_trade_cards(&self.player(from).hand, resources_only);
            if pool.total() == 0 {
                break;
            }
            let k = self.rng.below(pool.total());
            if let Some(c) = pool.nth_card(k) {
                self.player_mut(from).hand[c] -= 1;
                drawn[c] += 1;
            }
        }
        self.player_mut(seat).hand.add(&drawn);
        ev.push(Event::ForcedTradeDrew {
            seat,
            from,
            cards: Some(drawn),
        });
        self.phases.push(Phase::Variant(Step::ForcedTradeGive {
            seat,
            to: from,
            resources_only,
        }));
    }

    /// A forced trade: over all cards (§3; Cities & Knights at `factor`
    /// 2), or over resource cards only (Cities & Knights, `factor` 1).
    pub(crate) fn forced_trade(
        &mut self,
        seat: Seat,
        resources_only: bool,
        factor: u8,
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        let action = if resources_only {
            "forced_trade_resources"
        } else {
            "forced_trade"
        };
        let cost = self.check_token_action(seat, action, factor)?;
        Self::check_forced_trade_cards(
            forced_trade_cards(&self.player(seat.opponent()).hand, resources_only).total(),
            forced_trade_cards(&self.player(seat).hand, resources_only).total(),
        )?;
        self.forced_trade_draw(seat, cost, resources_only, ev);
        Ok(())
    }

    pub(crate) fn forced_trade_give(
        &mut self,
        seat: Seat,
        to: Seat,
        resources_only: bool,
        cards: &Cards,
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        if cards.total() != 2 {
            return Err(ActionError::InvalidTrade {
                reason: "a forced trade gives exactly two cards",
            });
        }
        if resources_only && !cards.commodities().is_empty() {
            return Err(ActionError::InvalidTrade {
                reason: "a forced trade over resources gives back resource cards only",
            });
        }
        if !self.player(seat).hand.contains(cards) {
            return Err(ActionError::CardsNotHeld);
        }
        self.player_mut(seat).hand.sub(cards);
        self.player_mut(to).hand.add(cards);
        ev.push(Event::ForcedTradeGave {
            seat,
            to,
            cards: Some(*cards),
        });
        self.pop_phase();
        Ok(())
    }

    pub(crate) fn robber_to_desert(
        &mut self,
        seat: Seat,
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        let cost = self.check_token_action(seat, "robber_to_desert", 1)?;
        let Some(desert) = self.board.desert() else {
            return Err(ActionError::InvalidHex { hex: self.robber });
        };
        if self.robber == desert {
            return Err(ActionError::RobberMustMove);
        }
        self.pay_tokens(seat, cost, ev);
        self.robber = desert;
        ev.push(Event::RobberMoved { seat, hex: desert });
        Ok(())
    }

    /// The §3 token actions open to the active `seat`.
    pub(crate) fn legal_token_actions(&self, seat: Seat, out: &mut Vec<LegalAction>) {
        if let Ok(cost) = self.check_token_action(seat, "forced_trade", 1) {
            let theirs = self.player(seat.opponent()).hand.total();
            if Self::check_forced_trade_cards(theirs, self.player(seat).hand.total()).is_ok() {
                out.push(LegalAction::ForcedTrade { cost });
            }
            if self.board.desert().is_some_and(|d| d != self.robber) {
                out.push(LegalAction::RobberToDesert { cost });
            }
        }
    }
}
