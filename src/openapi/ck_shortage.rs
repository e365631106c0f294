//! A Cities & Knights game steered to the bank running short of a commodity
//! owed to both players at once (`commodity_withheld`), which the games of
//! `ck_examples` never reach: players who spend what they get keep
//! the bank's 12 of each commodity well stocked.
//!
//! Both players are steered by the same plan, made from the seeded board
//! before the first placement: a forest, pasture or mountains hex with a
//! likely number, and two of its corners where the set-up cities go, one
//! each. From then on every move is one of the engine's legal actions for
//! the awaited seat: the players keep that hex's commodity, trade other
//! cards to the bank for it until the bank has none left, wall their
//! cities against the seven's discards and keep a knight active against
//! the barbarians, who would otherwise take the cities. The game is played
//! until a roll owes both players the commodity the bank no longer holds.

use hexpost_engine::actions::LegalAction;
use hexpost_engine::board::{HexId, NodeId, NodeSet, topology};
use hexpost_engine::cards::CardKind;
use hexpost_engine::rng::GameRng;
use hexpost_engine::sim::{self, Policy};
use hexpost_engine::{Action, Card, Cards, Event, GameConfig, GameState, Seat, Variant};

/// The seeds tried in turn, and the actions each steered game may take.
const FIRST_SEED: u64 = 1;
const MAX_GAMES: u64 = 10;
const MAX_ACTIONS: usize = 3_000;

/// The events of the first steered game that comes to a commodity
/// withheld from both players, up to and including that event; none if no
/// seed tried does.
pub fn events() -> Vec<Event> {
    (FIRST_SEED..FIRST_SEED + MAX_GAMES)
        .find_map(play)
        .unwrap_or_default()
}

/// The hex both players build a city on and the commodity it yields them.
#[derive(Clone, Copy, Debug)]
struct Plan {
    hex: HexId,
    card: Card,
    /// Each seat's set-up city.
    cities: [NodeId; 2],
}

/// The steered game from `seed`; none if it ends first (a player wins) or
/// a move is refused (none should be: the players read the bank).
fn play(seed: u64) -> Option<Vec<Event>> {
    let (mut state, _) = GameState::new(&GameConfig::new(Variant::CkForTwo), seed).ok()?;
    let seat = *state.awaiting().first()?;
    let plan = plan(&state, &sites(&state.legal_actions(seat))?)?;
    let mut choices = GameRng::from_seed(seed);
    let mut log = Vec::new();
    for _ in 0..MAX_ACTIONS {
        let seat = *state.awaiting().first()?;
        let legal = state.legal_actions(seat);
        let action = choose(&state, seat, &legal, &plan, &mut choices)?;
        let events = state.apply(seat, &action).ok()?;
        let withheld = events
            .iter()
            .position(|e| matches!(e, Event::CommodityWithheld { .. }));
        match withheld {
            Some(at) => {
                log.extend_from_slice(&events[..=at]);
                return Some(log);
            }
            None => log.extend(events),
        }
    }
    None
}

/// The nodes a set-up settlement may take now.
fn sites(legal: &[LegalAction]) -> Option<NodeSet> {
    legal.iter().find_map(|l| match l {
        LegalAction::BuildSettlement { nodes, .. } => Some(*nodes),
        _ => None,
    })
}

/// How often a number comes up, in 36ths.
fn pips(number: Option<u8>) -> u8 {
    number.map_or(0, |n| 6 - n.abs_diff(7))
}

/// The likeliest commodity hex with two corners two apart still open.
fn plan(state: &GameState, open: &NodeSet) -> Option<Plan> {
    let topo = topology();
    let mut hexes: Vec<HexId> = (0..topo.hexes.len() as HexId).collect();
    hexes.sort_by_key(|&h| std::cmp::Reverse(pips(state.board.tiles[h as usize].number)));
    hexes.into_iter().find_map(|hex| {
        let tile = state.board.tiles[hex as usize];
        let card = Card::from(tile.terrain.resource()?.commodity()?);
        let corners = topo.hexes[hex as usize].nodes;
        (0..6).find_map(|i| {
            let (a, b) = (corners[i], corners[(i + 2) % 6]);
            (open.contains(a) && open.contains(b)).then_some(Plan {
                hex,
                card,
                cities: [a, b],
            })
        })
    })
}

/// `seat`'s move under the plan, from its legal entries.
fn choose(
    state: &GameState,
    seat: Seat,
    legal: &[LegalAction],
    plan: &Plan,
    choices: &mut GameRng,
) -> Option<Action> {
    let hand = state.player(seat).hand;
    let on_hex = |n: NodeId| topology().hexes[plan.hex as usize].nodes.contains(&n);
    for entry in legal {
        let action = match entry {
            LegalAction::RollDice => Action::RollDice,
            LegalAction::BuildSettlement { nodes, free: true } => Action::BuildSettlement {
                node: settlement_site(state, nodes, plan)?,
            },
            LegalAction::BuildCity { nodes } if state.in_setup() => {
                let node = plan.cities[seat.index()];
                nodes.contains(node).then_some(Action::BuildCity { node })?
            }
            LegalAction::BuildCity { nodes } => match nodes.iter().find(|&n| on_hex(n)) {
                Some(node) => Action::BuildCity { node },
                None => continue,
            },
            LegalAction::Discard { count } => Action::Discard {
                cards: discard(hand, *count, plan.card),
            },
            LegalAction::MoveRobber { targets } => {
                let away = targets.iter().filter(|t| t.hex != plan.hex);
                let t = away
                    .clone()
                    .find(|t| t.victims.contains(&seat.opponent()))
                    .or_else(|| away.clone().next())?;
                Action::MoveRobber {
                    hex: t.hex,
                    victim: t.victims.first().copied(),
                }
            }
            LegalAction::LoseCity { nodes } => Action::LoseCity {
                node: nodes.iter().find(|&n| !on_hex(n)).or(nodes.nth(0))?,
            },
            _ => continue,
        };
        return Some(action);
    }
    if let Some(action) = main_phase(state, legal, plan) {
        return Some(action);
    }
    // Every other decision (a neutral's piece, a progress card to draw or
    // discard): at random, but never a trade offer or a card played.
    let rest: Vec<LegalAction> = legal
        .iter()
        .filter(|l| {
            !matches!(
                l,
                LegalAction::OfferTrade
                    | LegalAction::PlayProgress { .. }
                    | LegalAction::BankTrade { .. }
                    | LegalAction::BuyImprovement { .. }
                    | LegalAction::RemoveKnight { .. }
                    | LegalAction::ForcedTradeResources { .. }
                    | LegalAction::RobberToDesert { .. }
            )
        })
        .cloned()
        .collect();
    let policy = Policy {
        domestic_trade: false,
    };
    sim::random_action_with(state, seat, &rest, choices, policy)
}

/// The main phase: a wall, a knight recruited or activated, the plan's
/// commodity bought from the bank with the card most held, then the end of
/// the turn.
fn main_phase(state: &GameState, legal: &[LegalAction], plan: &Plan) -> Option<Action> {
    let seat = state.active;
    let hand = state.player(seat).hand;
    let ends_turn = legal.iter().any(|l| matches!(l, LegalAction::EndTurn));
    if !ends_turn {
        return None;
    }
    for entry in legal {
        let action = match entry {
            LegalAction::BuildWall { nodes } => Action::BuildWall {
                node: nodes.nth(0)?,
            },
            LegalAction::ActivateKnight { nodes } => Action::ActivateKnight {
                node: nodes.nth(0)?,
            },
            LegalAction::RecruitKnight { nodes } => Action::RecruitKnight {
                node: nodes.nth(0)?,
            },
            _ => continue,
        };
        return Some(action);
    }
    if state.bank[plan.card] > 0 {
        let best = legal
            .iter()
            .filter_map(|l| match l {
                LegalAction::BankTrade { options } => Some(options),
                _ => None,
            })
            .flatten()
            .filter(|o| o.give != plan.card && o.receive.contains(plan.card))
            .max_by_key(|o| (hand[o.give], std::cmp::Reverse(o.ratio)));
        if let Some(o) = best {
            return Some(Action::BankTrade {
                give: o.give,
                receive: plan.card,
                ratio: None,
            });
        }
    }
    Some(Action::EndTurn)
}

/// A set-up settlement away from the plan's cities, on the likeliest
/// numbers.
fn settlement_site(state: &GameState, nodes: &NodeSet, plan: &Plan) -> Option<NodeId> {
    let topo = topology();
    let near_city = |n: NodeId| {
        plan.cities
            .iter()
            .any(|&c| c == n || topo.nodes[c as usize].neighbors.contains(&n))
    };
    let value = |n: NodeId| -> u32 {
        let hexes = &topo.nodes[n as usize].hexes;
        hexes
            .iter()
            .map(|&h| pips(state.board.tiles[h as usize].number) as u32)
            .sum()
    };
    nodes
        .iter()
        .filter(|&n| !near_city(n))
        .max_by_key(|&n| (value(n), std::cmp::Reverse(n)))
}

/// `count` cards of `hand`, taken from the largest piles other than `keep`
/// first.
fn discard(mut hand: Cards, count: u8, keep: Card) -> Cards {
    let mut out = Cards::ZERO;
    for _ in 0..count {
        let pick = Card::ALL
            .iter()
            .copied()
            .filter(|&c| hand[c] > 0)
            .max_by_key(|&c| (c != keep, hand[c]));
        let Some(c) = pick else { break };
        hand[c] -= 1;
        out[c] += 1;
    }
    out
}
