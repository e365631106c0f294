//! The single source of what a seat may do in `ck_for_two`: the base
//! game's entries where its phases apply, and every Cities & Knights
//! decision in the same template style (RULES.md §6.16's list).

use super::state::PROGRESS_LIMIT;
use super::wire::{ImprovementOption, KnightMoves, ProgressOption};
use super::{barbarians, cities, ck, commerce, knights, politics, science, trade};
use crate::actions::LegalAction;
use crate::cards::{ProgressCard, Track, cost};
use crate::phases::Phase;
use crate::rulesets::{Step, base};
use crate::seats::Seat;
use crate::state::GameState;

pub(super) fn legal_actions(s: &GameState, seat: Seat, out: &mut Vec<LegalAction>) {
    match s.phase() {
        Phase::Variant(step) => step_entries(s, seat, step, out),
        Phase::BeforeRoll if seat == s.active => {
            out.push(LegalAction::RollDice);
            if ck(s).holds(seat, ProgressCard::Alchemist) {
                out.push(LegalAction::PlayProgress {
                    play: Box::new(ProgressOption::Alchemist),
                });
            }
            tokens(s, seat, out);
        }
        Phase::Main if seat == s.active => main(s, seat, out),
        _ => base::legal_actions(s, seat, out),
    }
}

/// The answer a step awaits from `seat`.
fn step_entries(s: &GameState, seat: Seat, step: &Step, out: &mut Vec<LegalAction>) {
    use Step as S;
    match *step {
        S::NeutralBuild { seat: b, piece } if b == seat => s.legal_neutral_builds(piece, out),
        S::ForcedTradeGive {
            seat: g,
            resources_only,
            ..
        } if g == seat => out.push(LegalAction::ForcedTradeGive {
            count: 2,
            resources_only,
        }),
        S::CityLosses { ref owed } if owed.contains(&seat) => out.push(LegalAction::LoseCity {
            nodes: barbarians::city_loss_choices(s, seat).into_iter().collect(),
        }),
        S::DefenderDraws { ref seats } if seats.first() == Some(&seat) => {
            out.push(LegalAction::DrawProgress {
                tracks: barbarians::defender_decks(s),
            })
        }
        S::ProgressDiscard { seat: d } if d == seat => out.push(LegalAction::DiscardProgress),
        S::Aqueduct { ref owed } if owed.contains(&seat) => out.push(LegalAction::AqueductPick),
        S::GiveCards {
            seat: g,
            count,
            commodities_only,
            ..
        } if g == seat => out.push(LegalAction::GiveCards {
            count,
            commodities_only,
        }),
        S::GiveUpKnight { seat: g, .. } if g == seat => out.push(LegalAction::GiveUpKnight {
            nodes: ck(s)
                .knights
                .iter()
                .filter(|k| k.owner == seat)
                .map(|k| k.node)
                .collect(),
        }),
        S::Retreat {
            seat: r,
            ref knight,
            from,
        } if r == seat => out.push(LegalAction::RetreatKnight {
            nodes: knights::retreat_nodes(s, knight, from),
        }),
        S::NeutralKnight { seat: b } if b == seat => {
            for (neutral, nodes) in knights::neutral_knight_options(s) {
                out.push(LegalAction::PlaceNeutralKnight { neutral, nodes });
            }
        }
        S::NeutralPromotion { seat: b } if b == seat => {
            out.push(LegalAction::PromoteNeutralKnight {
                nodes: knights::neutral_promotion_options(s),
            })
        }
        S::DeserterKnight { seat: d, .. } if d == seat => {
            out.push(LegalAction::PlaceDeserterKnight {
                nodes: knights::recruit_sites(s, seat),
            })
        }
        S::DiplomatRoad { seat: d, removed } if d == seat => out.push(LegalAction::ReplaceRoad {
            edges: politics::replacement_edges(s, seat, removed),
        }),
        S::SpyPick { seat: p } if p == seat => out.push(LegalAction::SpyTake),
        S::MasterMerchantPick { seat: p, count } if p == seat => {
            out.push(LegalAction::TakeCards { count })
        }
        S::SmithSecond { seat: p } if p == seat => out.push(LegalAction::SmithPromote {
            nodes: knights::promotable(s, seat),
        }),
        S::Metropolis { seat: p, .. } if p == seat => out.push(LegalAction::PlaceMetropolis {
            nodes: cities::metropolis_sites(s, seat),
        }),
        _ => {}
    }
}

/// The active player's choices after the rolls.
fn main(s: &GameState, seat: Seat, out: &mut Vec<LegalAction>) {
    let c = ck(s);
    if c.player(seat).progress.count > PROGRESS_LIMIT {
        out.push(LegalAction::DiscardProgress);
    } else {
        out.push(LegalAction::EndTurn);
    }
    base::legal_roads_and_settlements(s, seat, out);
    let hand = s.player(seat).hand;
    if hand.contains(&cost::CITY) {
        let nodes = cities::city_sites(s, seat);
        if !nodes.is_empty() {
            out.push(LegalAction::BuildCity { nodes });
        }
    }
    if hand.contains(&cost::WALL) {
        let nodes = cities::wall_sites(s, seat);
        if !nodes.is_empty() {
            out.push(LegalAction::BuildWall { nodes });
        }
    }
    improvements(s, seat, out);
    knight_entries(s, seat, out);
    trade::legal(s, seat, out);
    s.legal_offer(seat, out);
    tokens(s, seat, out);
    let mut plays = Vec::new();
    science::options(s, seat, &mut plays);
    politics::options(s, seat, &mut plays);
    commerce::options(s, seat, &mut plays);
    out.extend(plays.into_iter().map(|play| LegalAction::PlayProgress {
        play: Box::new(play),
    }));
}

fn improvements(s: &GameState, seat: Seat, out: &mut Vec<LegalAction>) {
    let c = ck(s);
    let crane = c.holds(seat, ProgressCard::Crane);
    let hand = s.player(seat).hand;
    let mut options = Vec::new();
    let mut cities = None;
    for track in Track::ALL {
        let next = c.player(seat).level(track) + 1;
        for with_crane in [false, true] {
            // What the hand cannot pay is ruled out before the board is read.
            if (with_crane && !crane) || hand[track.commodity()] + u8::from(with_crane) < next {
                continue;
            }
            let cities = *cities.get_or_insert_with(|| cities::own_cities(s, seat));
            if let Ok((level, _)) =
                cities::check_improvement_with(s, seat, track, with_crane, cities)
            {
                options.push(ImprovementOption {
                    track,
                    level,
                    crane: with_crane,
                });
            }
        }
    }
    if !options.is_empty() {
        out.push(LegalAction::BuyImprovement { options });
    }
}

fn knight_entries(s: &GameState, seat: Seat, out: &mut Vec<LegalAction>) {
    let c = ck(s);
    let hand = s.player(seat).hand;
    if hand.contains(&cost::KNIGHT) && knights::in_supply(s, seat, super::KnightLevel::Basic) {
        let nodes = knights::recruit_sites(s, seat);
        if !nodes.is_empty() {
            out.push(LegalAction::RecruitKnight { nodes });
        }
    }
    if c.knights.iter().all(|k| k.owner != seat) {
        return;
    }
    if hand.contains(&cost::ACTIVATION) {
        let nodes = c
            .knights
            .iter()
            .filter(|k| k.owner == seat && !k.active)
            .map(|k| k.node)
            .collect::<crate::board::NodeSet>();
        if !nodes.is_empty() {
            out.push(LegalAction::ActivateKnight { nodes });
        }
    }
    if hand.contains(&cost::KNIGHT) {
        let nodes = knights::promotable(s, seat);
        if !nodes.is_empty() {
            out.push(LegalAction::PromoteKnight { nodes });
        }
    }
    let (mut moves, mut displacements) = (Vec::new(), Vec::new());
    for k in knights::ready(s, seat) {
        let (empty, foreign) = knights::reach(s, seat, k.node);
        if !empty.is_empty() {
            moves.push(KnightMoves {
                from: k.node,
                to: empty,
            });
        }
        let weaker = knights::weaker_among(s, k, foreign);
        if !weaker.is_empty() {
            displacements.push(KnightMoves {
                from: k.node,
                to: weaker,
            });
        }
    }
    if !moves.is_empty() {
        out.push(LegalAction::MoveKnight { moves });
    }
    if !displacements.is_empty() {
        out.push(LegalAction::DisplaceKnight {
            moves: displacements,
        });
    }
    let chasers = knights::chasers(s, seat);
    if !chasers.is_empty() {
        let mut targets = s.robber_targets(seat);
        targets.retain(|t| knights::chase_hex_ok(s, t.hex));
        if !targets.is_empty() {
            for knight in chasers.iter() {
                out.push(LegalAction::ChaseRobber {
                    knight,
                    targets: targets.clone(),
                });
            }
        }
    }
}

/// The token actions and the knight removal, before or after the rolls.
fn tokens(s: &GameState, seat: Seat, out: &mut Vec<LegalAction>) {
    let mine = s.player(seat).hand;
    let theirs = s.player(seat.opponent()).hand;
    if let Ok(cost) = s.check_token_action(seat, "forced_trade_resources", 1) {
        if GameState::check_forced_trade_cards(theirs.resources().total(), mine.resources().total())
            .is_ok()
        {
            out.push(LegalAction::ForcedTradeResources { cost });
        }
        if let Ok(cost) = s.check_token_action(seat, "forced_trade", 2)
            && GameState::check_forced_trade_cards(theirs.total(), mine.total()).is_ok()
        {
            out.push(LegalAction::ForcedTrade { cost });
        }
        if s.board.desert().is_some_and(|d| d != s.robber) {
            out.push(LegalAction::RobberToDesert { cost });
        }
    }
    if knights::may_remove_for_tokens(s) {
        let nodes: crate::board::NodeSet = ck(s)
            .knights
            .iter()
            .filter(|k| k.owner == seat)
            .map(|k| k.node)
            .collect();
        if !nodes.is_empty() {
            out.push(LegalAction::RemoveKnight { nodes });
        }
    }
}
