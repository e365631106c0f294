//! The decision taken for a player whose time ran out (policy `auto`,
//! RULES.md §6.16): for every Cities & Knights decision a fixed, safe
//! answer — decline what can be declined, else the first choice in a
//! fixed order — and the base game's for the rest.

use super::state::PROGRESS_LIMIT;
use super::{barbarians, cities, ck, knights};
use crate::actions::{Action, LegalAction};
use crate::cards::{Cards, Track};
use crate::phases::{Phase, Piece};
use crate::rulesets::Step;
use crate::seats::Seat;
use crate::state::GameState;
use crate::timeout::{base_decision, first_cards};

pub(super) fn decision(s: &GameState, seat: Seat) -> Option<Action> {
    match s.phase() {
        // The set-up city, like the set-up settlement: the first legal node.
        Phase::Setup
            if s.current_setup_step()
                .is_some_and(|st| st.piece == Piece::City) =>
        {
            match s.legal_actions(seat).first() {
                Some(LegalAction::BuildCity { nodes }) => {
                    nodes.nth(0).map(|node| Action::BuildCity { node })
                }
                _ => None,
            }
        }
        Phase::Variant(step) => step_decision(s, seat, step).or_else(|| base_decision(s, seat)),
        Phase::Main if seat == s.active && ck(s).player(seat).progress.count > PROGRESS_LIMIT => {
            first_progress_card(s, seat).map(|card| Action::DiscardProgress { card })
        }
        _ => base_decision(s, seat),
    }
}

fn first_progress_card(s: &GameState, seat: Seat) -> Option<crate::cards::ProgressCard> {
    ck(s).held_kinds(seat).next()
}

/// `n` cards of `eligible`, in card order.
fn give(eligible: Cards, n: u8) -> Cards {
    first_cards(eligible, n)
}

fn step_decision(s: &GameState, seat: Seat, step: &Step) -> Option<Action> {
    use Step as S;
    let c = ck(s);
    Some(match *step {
        S::CityLosses { .. } => Action::LoseCity {
            node: *barbarians::city_loss_choices(s, seat).first()?,
        },
        S::DefenderDraws { .. } => Action::DrawProgress {
            track: [Track::Science, Track::Politics, Track::Trade]
                .into_iter()
                .find(|t| barbarians::defender_decks(s).contains(t))?,
        },
        S::ProgressDiscard { .. } => Action::DiscardProgress {
            card: first_progress_card(s, seat)?,
        },
        S::Aqueduct { .. } => Action::AqueductPick { resource: None },
        S::GiveCards {
            count,
            commodities_only,
            ..
        } => {
            let hand = s.player(seat).hand;
            let eligible = if commodities_only {
                hand.commodities()
            } else {
                hand
            };
            Action::GiveCards {
                cards: give(eligible, count),
            }
        }
        S::ForcedTradeGive { resources_only, .. } => {
            let hand = s.player(seat).hand;
            let eligible = if resources_only {
                hand.resources()
            } else {
                hand
            };
            Action::ForcedTradeGive {
                cards: give(eligible, 2),
            }
        }
        S::GiveUpKnight { .. } => Action::GiveUpKnight {
            node: c
                .knights
                .iter()
                .filter(|k| k.owner == seat)
                .min_by_key(|k| (k.level, k.node))?
                .node,
        },
        S::Retreat {
            ref knight, from, ..
        } => Action::RetreatKnight {
            node: knights::retreat_nodes(s, knight, from).nth(0)?,
        },
        S::NeutralKnight { .. } => {
            let (neutral, nodes) = knights::neutral_knight_options(s).into_iter().next()?;
            Action::PlaceNeutralKnight {
                neutral,
                node: nodes.nth(0)?,
            }
        }
        S::NeutralPromotion { .. } => Action::PromoteNeutralKnight {
            node: knights::neutral_promotion_options(s).nth(0)?,
        },
        S::DeserterKnight { .. } => Action::PlaceDeserterKnight { node: None },
        S::DiplomatRoad { .. } => Action::ReplaceRoad { edge: None },
        S::SpyPick { .. } => Action::SpyTake { card: None },
        S::MasterMerchantPick { count, .. } => Action::TakeCards {
            cards: give(s.player(seat.opponent()).hand, count),
        },
        S::SmithSecond { .. } => Action::SmithPromote { node: None },
        S::Metropolis { .. } => Action::PlaceMetropolis {
            node: cities::metropolis_sites(s, seat).nth(0)?,
        },
        _ => return None,
    })
}
