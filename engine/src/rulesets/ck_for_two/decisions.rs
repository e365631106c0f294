//! The decisions Cities & Knights owes (RULES.md §6.16): each step's
//! answer, and `settle`, which after every action resolves what needs
//! nobody: the number dice once the event die's decisions are answered,
//! and any decision with a single possible answer on public information
//! (a city loss with one eligible city, a retreat with one node, …).

use super::{barbarians, cities, ck, commerce, knights, politics, progress, roll, wrong_phase};
use crate::actions::Action;
use crate::board::NodeSet;
use crate::error::ActionError;
use crate::events::Event;
use crate::parts::buildings::Built;
use crate::phases::{Phase, Piece};
use crate::rulesets::Step;
use crate::seats::Seat;
use crate::state::GameState;

/// Applies `seat`'s answer to the `step` on top of the stack.
pub(super) fn apply_step(
    s: &mut GameState,
    seat: Seat,
    step: &Step,
    action: &Action,
    ev: &mut Vec<Event>,
) -> Result<(), ActionError> {
    use Action as A;
    use Step as S;
    match (step, action) {
        (S::NeutralBuild { .. }, A::BuildNeutralRoad { neutral, edge }) => {
            s.build_for_neutral(*neutral, Built::Road(*edge), ev)
        }
        (S::NeutralBuild { .. }, A::BuildNeutralSettlement { neutral, node }) => {
            s.build_for_neutral(*neutral, Built::Settlement(*node), ev)
        }
        (
            S::ForcedTradeGive {
                to, resources_only, ..
            },
            A::ForcedTradeGive { cards },
        ) => s.forced_trade_give(seat, *to, *resources_only, cards, ev),
        (S::CityLosses { .. }, A::LoseCity { node }) => barbarians::lose_city(s, seat, *node, ev),
        (S::DefenderDraws { .. }, A::DrawProgress { track }) => {
            barbarians::defender_draw(s, seat, Some(*track), ev)
        }
        (S::ProgressDiscard { .. }, A::DiscardProgress { card }) => {
            progress::discard_off_turn(s, seat, *card, ev)
        }
        (S::Aqueduct { .. }, A::AqueductPick { resource }) => {
            roll::aqueduct_pick(s, seat, *resource, ev)
        }
        (S::GiveCards { .. }, A::GiveCards { cards }) => politics::give_cards(s, seat, cards, ev),
        (S::GiveUpKnight { to, .. }, A::GiveUpKnight { node }) => {
            politics::give_up_knight(s, seat, *to, *node, ev)
        }
        (S::Retreat { knight, from, .. }, A::RetreatKnight { node }) => {
            knights::retreat(s, *knight, *from, *node, ev)
        }
        (S::NeutralKnight { .. }, A::PlaceNeutralKnight { neutral, node }) => {
            knights::place_neutral_knight(s, *neutral, *node, ev)
        }
        (S::NeutralPromotion { .. }, A::PromoteNeutralKnight { node }) => {
            knights::promote_neutral(s, *node, ev)
        }
        (S::DeserterKnight { level, active, .. }, A::PlaceDeserterKnight { node }) => {
            politics::place_deserter(s, seat, *level, *active, *node, ev)
        }
        (S::DiplomatRoad { removed, .. }, A::ReplaceRoad { edge }) => {
            politics::replace_road(s, seat, *removed, *edge, ev)
        }
        (S::SpyPick { .. }, A::SpyTake { card }) => politics::spy_take(s, seat, *card, ev),
        (S::MasterMerchantPick { count, .. }, A::TakeCards { cards }) => {
            commerce::take_cards(s, seat, *count, cards, ev)
        }
        (S::SmithSecond { .. }, A::SmithPromote { node }) => {
            knights::smith_second(s, seat, *node, ev)
        }
        (S::Metropolis { track, .. }, A::PlaceMetropolis { node }) => {
            cities::choose_metropolis(s, seat, *track, *node, ev)
        }
        _ => Err(wrong_phase(s, action)),
    }
}

/// Resolves, after every action, what needs nobody's decision, until a
/// player must decide.
pub(super) fn settle(s: &mut GameState, ev: &mut Vec<Event>) {
    loop {
        let Phase::Variant(step) = s.phase() else {
            return;
        };
        match *step {
            Step::NumberDice {
                seat,
                total,
                repeat_of,
            } => {
                s.pop_phase();
                roll::use_number_dice(s, seat, total, repeat_of, ev);
            }
            Step::DefenderDraws { ref seats } => {
                let seat = seats[0];
                let decks = barbarians::defender_decks(s);
                if decks.len() > 1 {
                    return;
                }
                let drawn = barbarians::defender_draw(s, seat, decks.first().copied(), ev);
                debug_assert!(drawn.is_ok(), "{drawn:?}");
            }
            _ => {
                let step = step.clone();
                let Some((seat, action)) = single_answer(s, &step) else {
                    return;
                };
                let applied = apply_step(s, seat, &step, &action, ev);
                if applied.is_err() {
                    debug_assert!(false, "single answer {action:?} refused: {applied:?}");
                    return;
                }
            }
        }
    }
}

/// The only node of a set, if it has exactly one.
fn only(nodes: NodeSet) -> Option<u8> {
    (nodes.len() == 1).then(|| nodes.nth(0)).flatten()
}

/// The one possible answer to `step`, judged on public information, if
/// it has exactly one.
fn single_answer(s: &GameState, step: &Step) -> Option<(Seat, Action)> {
    use Step as S;
    Some(match *step {
        S::NeutralBuild { seat, piece } => {
            let mut options = s.neutrals().flat_map(|n| {
                let sites: Vec<(Seat, u8)> = match piece {
                    Piece::Road => s.neutral_road_sites(n).iter().map(|e| (n, e)).collect(),
                    _ => s
                        .neutral_settlement_sites(n)
                        .iter()
                        .map(|v| (n, v))
                        .collect(),
                };
                sites
            });
            let (neutral, id) = options.next()?;
            if options.next().is_some() {
                return None;
            }
            let action = match piece {
                Piece::Road => Action::BuildNeutralRoad { neutral, edge: id },
                _ => Action::BuildNeutralSettlement { neutral, node: id },
            };
            (seat, action)
        }
        S::ForcedTradeGive {
            seat,
            resources_only,
            ..
        } => {
            let hand = s.player(seat).hand;
            let cards = if resources_only {
                hand.resources()
            } else {
                hand
            };
            if cards.total() != 2 {
                return None;
            }
            (seat, Action::ForcedTradeGive { cards })
        }
        S::CityLosses { ref owed } => owed.iter().find_map(|&seat| {
            match barbarians::city_loss_choices(s, seat).as_slice() {
                [node] => Some((seat, Action::LoseCity { node: *node })),
                _ => None,
            }
        })?,
        S::GiveCards {
            seat,
            count,
            commodities_only,
            ..
        } => {
            let hand = s.player(seat).hand;
            let cards = if commodities_only {
                hand.commodities()
            } else {
                hand
            };
            if cards.total() != count as u32 {
                return None;
            }
            (seat, Action::GiveCards { cards })
        }
        S::GiveUpKnight { seat, .. } => {
            let mut own = ck(s).knights.iter().filter(|k| k.owner == seat);
            let node = own.next()?.node;
            if own.next().is_some() {
                return None;
            }
            (seat, Action::GiveUpKnight { node })
        }
        S::Retreat {
            seat,
            ref knight,
            from,
        } => (
            seat,
            Action::RetreatKnight {
                node: only(knights::retreat_nodes(s, knight, from))?,
            },
        ),
        S::NeutralKnight { seat } => match knights::neutral_knight_options(s).as_slice() {
            [(neutral, nodes)] => (
                seat,
                Action::PlaceNeutralKnight {
                    neutral: *neutral,
                    node: only(*nodes)?,
                },
            ),
            _ => return None,
        },
        S::NeutralPromotion { seat } => (
            seat,
            Action::PromoteNeutralKnight {
                node: only(knights::neutral_promotion_options(s))?,
            },
        ),
        S::Metropolis { seat, .. } => (
            seat,
            Action::PlaceMetropolis {
                node: only(cities::metropolis_sites(s, seat))?,
            },
        ),
        S::MasterMerchantPick { seat, count } => {
            let theirs = s.player(seat.opponent()).hand;
            if theirs.total() > count as u32 {
                return None;
            }
            (seat, Action::TakeCards { cards: theirs })
        }
        _ => return None,
    })
}

/// Whether `step` is one `settle` would resolve (for the invariants: no
/// such step is ever left awaiting a player).
pub(super) fn resolves_itself(s: &GameState, step: &Step) -> bool {
    match step {
        Step::NumberDice { .. } => true,
        Step::DefenderDraws { .. } => barbarians::defender_decks(s).len() <= 1,
        _ => single_answer(s, step).is_some(),
    }
}
