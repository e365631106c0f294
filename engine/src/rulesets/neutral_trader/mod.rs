//! `neutral_trader` (RULES.md §4, seed 000): one neutral player (seat 2)
//! that collects production, turns surplus into brick and lumber, has its
//! roads placed by the winner of a roll-off, and trades by a 2d6 chart.

use super::{Step, VariantState, base, roll_off};
use crate::actions::{Action, LegalAction};
use crate::board::{EdgeId, ResourceSet};
use crate::cards::{Cards, Resource, cost};
use crate::contract::Ruleset;
use crate::error::ActionError;
use crate::events::{ChartOutcome, Event, RollOffPurpose};
use crate::options::Revision;
use crate::phases::{Phase, PhaseKind, Piece, SetupStep};
use crate::seats::{Seat, SeatKind};
use crate::state::GameState;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NeutralTrader;

/// The neutral discards on a seven when it holds more than this (§4),
/// whatever the players' `discard_limit` (from revision 1; revision 0
/// held it to the players' limit).
pub const NEUTRAL_DISCARD_LIMIT: u8 = 7;

/// Cards the neutral trades to the bank at once for one brick or lumber.
pub const CONVERSION_RATE: u8 = 4;

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraderState {
    pub neutral: Seat,
    /// The active player has asked for a chart trade this turn.
    pub chart_used: bool,
}

fn trader(s: &GameState) -> Option<&TraderState> {
    match &s.variant {
        VariantState::NeutralTrader(t) => Some(t),
        _ => None,
    }
}

fn neutral_of(s: &GameState) -> Option<Seat> {
    trader(s).map(|t| t.neutral)
}

/// The chart (RULES.md §4): for a total, how many cards the player gives
/// and which resources they may receive; `None` on a 7.
pub fn chart(total: u8) -> Option<(u8, ResourceSet)> {
    let one = |r: Resource| ResourceSet(1 << r.index());
    Some(match total {
        2 | 12 => (1, ResourceSet::ALL),
        3 | 11 => (1, one(Resource::Ore)),
        4 => (1, one(Resource::Lumber)),
        5 => (1, one(Resource::Brick)),
        6 => (1, one(Resource::Wool)),
        8 => (1, one(Resource::Grain)),
        9 => (
            1,
            ResourceSet(one(Resource::Wool).0 | one(Resource::Grain).0),
        ),
        10 => (2, ResourceSet::ALL),
        _ => return None,
    })
}

/// The resources the neutral converts when it holds four of one.
const SURPLUS: [Resource; 3] = [Resource::Wool, Resource::Grain, Resource::Ore];

/// The card the neutral discards next: from wool, grain and ore first (the
/// one it holds most of; ties in that order), and only then from the larger
/// of its brick and lumber piles (tie: lumber), so it keeps what roads need
/// and leaves those two piles as even as possible.
pub fn neutral_discard_pick(hand: &Cards) -> Option<Resource> {
    let surplus =
        SURPLUS
            .into_iter()
            .filter(|&r| hand[r] > 0)
            .fold(None, |best: Option<Resource>, r| match best {
                Some(b) if hand[b] >= hand[r] => Some(b),
                _ => Some(r),
            });
    surplus.or_else(|| {
        if hand[Resource::Brick] > hand[Resource::Lumber] {
            Some(Resource::Brick)
        } else if hand[Resource::Lumber] > 0 {
            Some(Resource::Lumber)
        } else {
            None
        }
    })
}

/// The neutral's whole discard of `n` cards, card by card as above.
pub fn neutral_discard(mut hand: Cards, n: u8) -> Cards {
    let mut out = Cards::ZERO;
    for _ in 0..n {
        let Some(r) = neutral_discard_pick(&hand) else {
            break;
        };
        hand[r] -= 1;
        out[r] += 1;
    }
    out
}

/// The next forced conversion, if one is due and the bank can pay: four of
/// `gave` for one `received`, brick or lumber, whichever the neutral holds
/// fewer of (tie: brick), the other one when the bank is out of it.
pub fn conversion_due(hand: &Cards, bank: &Cards) -> Option<(Resource, Resource)> {
    let gave = SURPLUS.into_iter().find(|&r| hand[r] >= CONVERSION_RATE)?;
    let (first, second) = if hand[Resource::Brick] <= hand[Resource::Lumber] {
        (Resource::Brick, Resource::Lumber)
    } else {
        (Resource::Lumber, Resource::Brick)
    };
    let received = [first, second].into_iter().find(|&r| bank[r] > 0)?;
    Some((gave, received))
}

fn road_pending(s: &GameState) -> bool {
    s.phases
        .iter()
        .any(|p| matches!(p, Phase::Variant(Step::NeutralRoad { .. })))
}

/// The neutral holds a road's cards and a road, and some edge takes it.
fn road_due(s: &GameState, neutral: Seat) -> bool {
    let p = s.player(neutral);
    p.hand.contains(&cost::ROAD)
        && p.roads_left > 0
        && !s.in_setup()
        && !road_pending(s)
        && !s.road_sites(neutral, None).is_empty()
}

fn wrong_phase(s: &GameState, action: &Action) -> ActionError {
    ActionError::WrongPhase {
        action: action.name(),
        phase: s.phase().name(),
    }
}

fn place_neutral_road(
    s: &mut GameState,
    neutral: Seat,
    edge: EdgeId,
    ev: &mut Vec<Event>,
) -> Result<(), ActionError> {
    let Phase::Variant(Step::NeutralRoad { neutral: owed, .. }) = *s.phase() else {
        return Err(ActionError::WrongPhase {
            action: "build_neutral_road",
            phase: s.phase().name(),
        });
    };
    if neutral != owed {
        return Err(ActionError::NotANeutral { seat: neutral });
    }
    if s.player(neutral).roads_left == 0 {
        return Err(ActionError::NoPiecesLeft { piece: "road" });
    }
    if !s.player(neutral).hand.contains(&cost::ROAD) {
        return Err(ActionError::CannotAfford { cost: cost::ROAD });
    }
    s.check_road_site(neutral, edge, None)?;
    s.pop_phase();
    s.player_mut(neutral).hand.sub(&cost::ROAD);
    s.bank.add(&cost::ROAD);
    s.place_road(neutral, edge, false, ev);
    Ok(())
}

fn ask(s: &mut GameState, seat: Seat, ev: &mut Vec<Event>) -> Result<(), ActionError> {
    if s.phase().kind() != PhaseKind::Main {
        return Err(ActionError::WrongPhase {
            action: "ask_neutral_trade",
            phase: s.phase().name(),
        });
    }
    s.require_active(seat, "ask_neutral_trade")?;
    let Some(neutral) = neutral_of(s) else {
        return Err(ActionError::NeutralTradeUsed);
    };
    if trader(s).is_some_and(|t| t.chart_used) {
        return Err(ActionError::NeutralTradeUsed);
    }
    if let VariantState::NeutralTrader(t) = &mut s.variant {
        t.chart_used = true;
    }
    // The chart is rolled with plain dice: balanced dice shape production only.
    let dice = [s.rng.die(), s.rng.die()];
    let total = dice[0] + dice[1];
    let Some((give, names)) = chart(total) else {
        ev.push(Event::ChartRolled {
            seat,
            dice,
            total,
            outcome: ChartOutcome::TurnEnds,
        });
        s.finish_turn(seat, ev);
        return Ok(());
    };
    let hand = s.player(neutral).hand;
    let receive = ResourceSet(
        names
            .iter()
            .filter(|&r| hand[r] > 0)
            .fold(0, |m, r| m | (1 << r.index())),
    );
    if receive.is_empty() {
        ev.push(Event::ChartRolled {
            seat,
            dice,
            total,
            outcome: ChartOutcome::NeutralLacks,
        });
        return Ok(());
    }
    ev.push(Event::ChartRolled {
        seat,
        dice,
        total,
        outcome: ChartOutcome::Offer { give, receive },
    });
    s.phases.push(Phase::Variant(Step::ChartOffer {
        seat,
        give,
        receive,
    }));
    Ok(())
}

fn accept(
    s: &mut GameState,
    seat: Seat,
    give: &Cards,
    receive: Resource,
    ev: &mut Vec<Event>,
) -> Result<(), ActionError> {
    let Phase::Variant(Step::ChartOffer {
        give: count,
        receive: offered,
        ..
    }) = *s.phase()
    else {
        return Err(ActionError::WrongPhase {
            action: "accept_neutral_trade",
            phase: s.phase().name(),
        });
    };
    let neutral = neutral_of(s).ok_or(ActionError::NotOffered { resource: receive })?;
    if !offered.contains(receive) || s.player(neutral).hand[receive] == 0 {
        return Err(ActionError::NotOffered { resource: receive });
    }
    if give.total() != count as u32 {
        return Err(ActionError::InvalidTrade {
            reason: "give exactly as many cards as the chart asks",
        });
    }
    if give[receive] > 0 {
        return Err(ActionError::InvalidTrade {
            reason: "a resource cannot be on both sides of a trade",
        });
    }
    if !s.player(seat).hand.contains(give) {
        return Err(ActionError::CardsNotHeld);
    }
    s.pop_phase();
    let p = s.player_mut(seat);
    p.hand.sub(give);
    p.hand[receive] += 1;
    let n = s.player_mut(neutral);
    n.hand.add(give);
    n.hand[receive] -= 1;
    ev.push(Event::NeutralTraded {
        seat,
        neutral,
        gave: *give,
        received: receive,
    });
    Ok(())
}

impl Ruleset for NeutralTrader {
    fn init(&self, s: &mut GameState, _ev: &mut Vec<Event>) {
        let neutral = s.add_automated_seat(SeatKind::Neutral);
        // After the players' snake: seat 0 places a neutral settlement and
        // road, then seat 1, whose settlement yields starting resources.
        for (seat, yields) in [(Seat(0), false), (Seat(1), true)] {
            s.setup.steps.push(SetupStep {
                seat,
                owner: neutral,
                piece: Piece::Settlement,
                yields,
            });
            s.setup.steps.push(SetupStep {
                seat,
                owner: neutral,
                piece: Piece::Road,
                yields: false,
            });
        }
        s.variant = VariantState::NeutralTrader(TraderState {
            neutral,
            chart_used: false,
        });
    }

    fn turn_started(&self, s: &mut GameState, _seat: Seat, _ev: &mut Vec<Event>) {
        if let VariantState::NeutralTrader(t) = &mut s.variant {
            t.chart_used = false;
        }
    }

    // Out of line: every action of every game asks, and the answer is
    // usually no; inlined into the dispatch, its body made each question
    // cost a large call frame.
    #[inline(never)]
    fn automated_step(&self, s: &mut GameState, ev: &mut Vec<Event>) -> Option<Seat> {
        let neutral = neutral_of(s)?;
        if let Phase::Discard { owed } = s.phase()
            && let Some(&(_, n)) = owed.iter().find(|(seat, _)| *seat == neutral)
        {
            let cards = neutral_discard(s.player(neutral).hand, n);
            s.settle_discard(neutral, &cards, ev);
            return Some(neutral);
        }
        if let Some((gave, received)) = conversion_due(&s.player(neutral).hand, &s.bank) {
            let gave = Cards::single(gave, CONVERSION_RATE);
            let p = s.player_mut(neutral);
            p.hand.sub(&gave);
            p.hand[received] += 1;
            s.bank.add(&gave);
            s.bank[received] -= 1;
            ev.push(Event::NeutralConverted {
                seat: neutral,
                gave,
                received,
            });
            return Some(neutral);
        }
        if road_due(s, neutral) {
            let winner = roll_off(s, RollOffPurpose::NeutralRoad, ev);
            s.phases.push(Phase::Variant(Step::NeutralRoad {
                seat: winner,
                neutral,
            }));
            return Some(neutral);
        }
        None
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

    fn check(&self, s: &GameState) -> Result<(), String> {
        let Some(neutral) = neutral_of(s) else {
            return Err("neutral_trader keeps its neutral".into());
        };
        let hand = s.player(neutral).hand;
        let bank_pays = s.bank[Resource::Brick] > 0 || s.bank[Resource::Lumber] > 0;
        for r in SURPLUS {
            if hand[r] >= CONVERSION_RATE && bank_pays {
                return Err(format!("the neutral holds {} {r} after a step", hand[r]));
            }
        }
        Ok(())
    }

    fn discard_limit(&self, s: &GameState, seat: Seat) -> u8 {
        if Some(seat) == neutral_of(s) && s.rules.revision >= Revision::NEUTRAL_DISCARDS_ABOVE_SEVEN
        {
            NEUTRAL_DISCARD_LIMIT
        } else {
            s.rules.discard_limit
        }
    }

    fn legal_actions(&self, s: &GameState, seat: Seat, out: &mut Vec<LegalAction>) {
        base::legal_actions(s, seat, out);
        legal_own(s, seat, out);
    }
}

/// The ruleset's own actions, and every action while one of its steps is
/// pending; `None` hands the action to the base game.
fn apply_own(
    s: &mut GameState,
    seat: Seat,
    action: &Action,
    ev: &mut Vec<Event>,
) -> Option<Result<(), ActionError>> {
    let own_step = matches!(
        s.phase(),
        Phase::Variant(Step::NeutralRoad { .. } | Step::ChartOffer { .. })
    );
    Some(match action {
        Action::BuildNeutralRoad { neutral, edge } => place_neutral_road(s, *neutral, *edge, ev),
        Action::AcceptNeutralTrade { give, receive } => accept(s, seat, give, *receive, ev),
        Action::DeclineNeutralTrade => match s.phase() {
            Phase::Variant(Step::ChartOffer { .. }) => {
                s.pop_phase();
                ev.push(Event::NeutralTradeDeclined { seat });
                Ok(())
            }
            _ => Err(wrong_phase(s, action)),
        },
        _ if own_step => Err(wrong_phase(s, action)),
        Action::AskNeutralTrade => ask(s, seat, ev),
        _ => return None,
    })
}

/// The ruleset's own entries, after the base game's.
fn legal_own(s: &GameState, seat: Seat, out: &mut Vec<LegalAction>) {
    let Some(neutral) = neutral_of(s) else {
        return;
    };
    match *s.phase() {
        Phase::Variant(Step::NeutralRoad { seat: w, neutral }) if w == seat => {
            out.push(LegalAction::BuildNeutralRoad {
                neutral,
                edges: s.road_sites(neutral, None),
            });
        }
        Phase::Variant(Step::ChartOffer {
            seat: asker,
            give,
            receive,
        }) if asker == seat => {
            let hand = s.player(seat).hand;
            let theirs = s.player(neutral).hand;
            let payable = ResourceSet(receive.iter().fold(0, |m, r| {
                let enough = hand.total() - hand[r] as u32 >= give as u32;
                if theirs[r] > 0 && enough {
                    m | (1 << r.index())
                } else {
                    m
                }
            }));
            if !payable.is_empty() {
                out.push(LegalAction::AcceptNeutralTrade {
                    give,
                    receive: payable,
                });
            }
            out.push(LegalAction::DeclineNeutralTrade);
        }
        Phase::Main if seat == s.active && trader(s).is_some_and(|t| !t.chart_used) => {
            out.push(LegalAction::AskNeutralTrade);
        }
        _ => {}
    }
}
