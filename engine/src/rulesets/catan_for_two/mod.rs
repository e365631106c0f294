//! `catan_for_two`: the official two-player rules (RULES.md §3, seed 001).
//! The base game with two neutral builders (`parts::neutral_builders`),
//! trade tokens (`parts::trade_tokens`), a double roll each turn, and a
//! played knight traded back for tokens.

use super::{Step, VariantState, base};
use crate::actions::{Action, LegalAction};
use crate::contract::Ruleset;
use crate::error::ActionError;
use crate::events::{Event, TokenReason};
use crate::parts::buildings::Built;
use crate::parts::trade_tokens::Tokens;
use crate::phases::Phase;
use crate::seats::Seat;
use crate::state::GameState;

pub use crate::parts::neutral_builders::{
    FIXED_NEUTRAL_NODES, mirror, mirrored_start_pairs, nearest_valid_pair,
};
pub use crate::parts::trade_tokens::{TOKENS_AT_START, TOKENS_TOTAL};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CatanForTwo;

pub const TOKENS_PER_KNIGHT: u8 = 2;

/// Bounds the second roll's re-rolls. Fair dice repeat a total with
/// probability at most 1/6 and the balanced deck refills long before it
/// could run out of other totals, so this is never reached; past it the
/// last roll stands.
const MAX_SECOND_ROLLS: usize = 256;

/// Tokens cost 1 when the player's visible VP are at most the opponent's, else 2.
pub fn action_cost(s: &GameState, seat: Seat) -> u8 {
    s.token_action_cost(seat)
}

/// Once per turn: a played knight given up for two tokens.
fn discard_knight(s: &mut GameState, seat: Seat, ev: &mut Vec<Event>) -> Result<(), ActionError> {
    s.check_own_turn(seat, "discard_knight")?;
    let Some(t) = s.tokens() else {
        return Err(ActionError::TokenSupplyEmpty);
    };
    if t.knight_discarded {
        return Err(ActionError::KnightAlreadyDiscarded);
    }
    let supply = t.supply;
    if knights_played(s, seat) == 0 {
        return Err(ActionError::NoPlayedKnight);
    }
    if supply == 0 {
        return Err(ActionError::TokenSupplyEmpty);
    }
    if let Some(dev) = &mut s.dev {
        let h = dev.hand_mut(seat);
        h.knights_played -= 1;
        h.knights_discarded += 1;
    }
    if let VariantState::CatanForTwo(t) = &mut s.variant {
        t.knight_discarded = true;
    }
    ev.push(Event::KnightDiscarded { seat });
    s.reevaluate_largest_army_strictly(ev);
    s.earn_tokens(seat, TOKENS_PER_KNIGHT, TokenReason::Knight, ev);
    Ok(())
}

fn knights_played(s: &GameState, seat: Seat) -> u8 {
    s.dev_hand(seat).knights_played
}

/// The second roll: thrown again while it repeats the first total, then
/// resolved like the first.
fn second_roll(s: &mut GameState, seat: Seat, first: u8, ev: &mut Vec<Event>) {
    s.pop_phase();
    let mut dice = s.dice.roll(&mut s.rng);
    for _ in 0..MAX_SECOND_ROLLS {
        if dice[0] + dice[1] != first {
            break;
        }
        ev.push(Event::SecondRollRepeated {
            seat,
            dice,
            total: first,
        });
        dice = s.dice.roll(&mut s.rng);
    }
    let total = dice[0] + dice[1];
    s.last_roll = Some(dice);
    ev.push(Event::DiceRolled { seat, dice, total });
    s.resolve_roll(seat, total, ev);
}

/// The ruleset's own actions, and every action while one of its steps is
/// pending; `None` hands the action to the base game.
fn apply_own(
    s: &mut GameState,
    seat: Seat,
    action: &Action,
    ev: &mut Vec<Event>,
) -> Option<Result<(), ActionError>> {
    let pending = match s.phase() {
        Phase::Variant(Step::ForcedTradeGive { to, .. }) => Some(Some(*to)),
        Phase::Variant(Step::NeutralBuild { .. }) => Some(None),
        _ => None,
    };
    Some(match action {
        Action::BuildNeutralRoad { neutral, edge } => {
            s.build_for_neutral(*neutral, Built::Road(*edge), ev)
        }
        Action::BuildNeutralSettlement { neutral, node } => {
            s.build_for_neutral(*neutral, Built::Settlement(*node), ev)
        }
        Action::ForcedTradeGive { cards } => match pending {
            Some(Some(to)) => s.forced_trade_give(seat, to, false, cards, ev),
            _ => Err(ActionError::WrongPhase {
                action: action.name(),
                phase: s.phase().name(),
            }),
        },
        _ if pending.is_some() => Err(ActionError::WrongPhase {
            action: action.name(),
            phase: s.phase().name(),
        }),
        Action::ForcedTrade => s.forced_trade(seat, false, 1, ev),
        Action::RobberToDesert => s.robber_to_desert(seat, ev),
        Action::DiscardKnight => discard_knight(s, seat, ev),
        _ => return None,
    })
}

impl Ruleset for CatanForTwo {
    fn init(&self, s: &mut GameState, ev: &mut Vec<Event>) {
        s.add_neutral_builders(ev);
        s.variant = VariantState::CatanForTwo(Tokens::at_start());
    }

    fn apply(
        &self,
        s: &mut GameState,
        seat: Seat,
        action: &Action,
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        apply_own(s, seat, action, ev).unwrap_or_else(|| base::apply(s, seat, action, ev))
    }

    fn legal_actions(&self, s: &GameState, seat: Seat, out: &mut Vec<LegalAction>) {
        base::legal_actions(s, seat, out);
        match *s.phase() {
            Phase::Variant(Step::NeutralBuild { seat: b, piece }) if b == seat => {
                s.legal_neutral_builds(piece, out);
            }
            Phase::Variant(Step::ForcedTradeGive { seat: g, .. }) if g == seat => {
                out.push(LegalAction::ForcedTradeGive {
                    count: 2,
                    resources_only: false,
                });
            }
            Phase::BeforeRoll | Phase::Main if seat == s.active => {
                s.legal_token_actions(seat, out);
                if let Some(t) = s.tokens()
                    && !t.knight_discarded
                    && t.supply > 0
                    && knights_played(s, seat) > 0
                {
                    out.push(LegalAction::DiscardKnight);
                }
            }
            _ => {}
        }
    }

    // Out of line: every action of every game asks, and the answer is
    // usually no; inlined into the dispatch, its body made each question
    // cost a large call frame.
    #[inline(never)]
    fn automated_step(&self, s: &mut GameState, ev: &mut Vec<Event>) -> Option<Seat> {
        let Phase::Variant(Step::SecondRoll { seat, first }) = *s.phase() else {
            return None;
        };
        second_roll(s, seat, first, ev);
        Some(seat)
    }

    fn check(&self, s: &GameState) -> Result<(), String> {
        s.tokens().ok_or("catan_for_two keeps tokens")?.check()?;
        if s.players.len() != 4 || s.neutrals().count() != 2 {
            return Err("catan_for_two needs two neutral seats".into());
        }
        Ok(())
    }

    fn after_build(&self, s: &mut GameState, owner: Seat, built: Built, ev: &mut Vec<Event>) {
        if !owner.is_real() {
            return;
        }
        if let Built::Settlement(node) = built {
            s.earn_settlement_tokens(owner, node, ev);
        }
        if !s.in_setup() {
            s.owe_neutral_piece(owner, built, ev);
        }
    }

    fn receives_resources(&self, _s: &GameState, seat: Seat) -> bool {
        seat.is_real()
    }

    fn on_roll(&self, s: &mut GameState, seat: Seat, total: u8, _ev: &mut Vec<Event>) {
        s.phases
            .push(Phase::Variant(Step::SecondRoll { seat, first: total }));
    }

    fn turn_started(&self, s: &mut GameState, _seat: Seat, _ev: &mut Vec<Event>) {
        if let VariantState::CatanForTwo(t) = &mut s.variant {
            t.turn_started();
        }
    }
}
