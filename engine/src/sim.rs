//! Random playouts: uniformly random legal actions for every awaited seat,
//! trade offers and answers included. Used by the `simulate` command, the
//! property tests and the speed benchmark.

use crate::actions::{LegalAction, RobberTarget};
use crate::board::NodeSet;
use crate::cards::{Cards, Commodity, ProgressCard, ProgressCounts, Resource};
use crate::invariants;
use crate::phases::Phase;
use crate::rng::GameRng;
use crate::rulesets::Step;
use crate::rulesets::VariantState;
use crate::rulesets::ck_for_two::wire::{ProgressOption, ProgressPlay, inventor_pairs};
use crate::seats::Seat;
use crate::state::GameState;
use crate::{Action, ActionError, GameConfig};
use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Checks {
    /// Play only (the speed benchmark).
    None,
    /// After every action: conservation, recounts, hidden information, and
    /// a deliberately bad action that must change nothing.
    Full,
    /// After every action: the state checks only (conservation, recounts,
    /// the variant's invariants), for many more games in the same time.
    Light,
}

#[derive(Clone, Debug)]
pub struct GameRecord {
    pub seed: u64,
    pub actions: Vec<(Seat, Action)>,
    pub turns: u32,
    pub winner: Option<Seat>,
    pub final_state: GameState,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    pub seed: u64,
    pub action_index: usize,
    pub message: String,
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "seed {} action {}: {}",
            self.seed, self.action_index, self.message
        )
    }
}

/// Picks a uniformly random concrete action from `legal` (a template counts
/// as one) and fills its parameters at random.
pub fn random_action(
    s: &GameState,
    seat: Seat,
    legal: &[LegalAction],
    rng: &mut GameRng,
) -> Option<Action> {
    random_action_with(s, seat, legal, rng, Policy::default())
}

/// What the random players may do: every legal action by default; the
/// speed comparison with engines that have no domestic trade turns offers
/// off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Policy {
    pub domestic_trade: bool,
}

impl Default for Policy {
    fn default() -> Self {
        Policy {
            domestic_trade: true,
        }
    }
}

pub fn random_action_with(
    s: &GameState,
    seat: Seat,
    legal: &[LegalAction],
    rng: &mut GameRng,
    policy: Policy,
) -> Option<Action> {
    choose_random_seeing(legal, &seen_by(s, seat), rng, policy)
}

/// A Cities & Knights player who builds up their cities instead of playing
/// uniformly at random: it takes the first of these groups that offers
/// anything, at random within it — city improvements; progress cards;
/// cities, walls, settlements and knights (recruited, activated,
/// promoted); anything else but removing a knight for tokens or offering a
/// trade; those last. Random players seldom buy an improvement and so seldom
/// draw a progress card; this one reaches metropolises, progress hands and
/// the cards' effects within a game.
pub fn improver_action(
    s: &GameState,
    seat: Seat,
    legal: &[LegalAction],
    rng: &mut GameRng,
) -> Option<Action> {
    let group = |l: &LegalAction| match l {
        LegalAction::BuyImprovement { .. } => 0,
        LegalAction::PlayProgress { .. } => 1,
        LegalAction::BuildCity { .. }
        | LegalAction::BuildWall { .. }
        | LegalAction::BuildSettlement { .. }
        | LegalAction::RecruitKnight { .. }
        | LegalAction::ActivateKnight { .. }
        | LegalAction::PromoteKnight { .. } => 2,
        LegalAction::RemoveKnight { .. } | LegalAction::OfferTrade => 4,
        _ => 3,
    };
    let first = legal.iter().map(group).min()?;
    let chosen: Vec<LegalAction> = legal
        .iter()
        .filter(|l| group(l) == first)
        .cloned()
        .collect();
    let policy = Policy {
        domestic_trade: false,
    };
    random_action_with(s, seat, &chosen, rng, policy)
}

/// What `seat` sees that its choices draw from (see [`Seen`]).
pub fn seen_by(s: &GameState, seat: Seat) -> Seen {
    let own_bid = match s.phase() {
        Phase::Variant(Step::Auction(a)) => a.bid_of(seat),
        _ => None,
    };
    let mut seen = Seen {
        hand: s.player(seat).hand,
        own_bid,
        ..Seen::default()
    };
    if let VariantState::CkForTwo(c) = &s.variant {
        seen.progress = c.player(seat).progress.cards;
        let theirs = seat.opponent();
        match s.phase() {
            Phase::Variant(Step::MasterMerchantPick { .. }) => {
                seen.shown_hand = Some(s.player(theirs).hand)
            }
            Phase::Variant(Step::SpyPick { .. }) => {
                seen.shown_progress = c.player(theirs).progress.cards
            }
            _ => {}
        }
    }
    seen
}

/// What a seat sees that its random choices draw from: its hand, its own
/// standing bid in an auction, its progress cards, and a hand a progress
/// card showed it (the Master Merchant's, the Spy's).
#[derive(Clone, Debug, Default)]
pub struct Seen {
    pub hand: Cards,
    pub own_bid: Option<Cards>,
    pub progress: Option<ProgressCounts>,
    pub shown_hand: Option<Cards>,
    pub shown_progress: Option<ProgressCounts>,
}

/// The same choice from what the seat itself sees: its hand and, during an
/// auction, its own standing bid. Clients of the API can use this directly.
pub fn choose_random(
    legal: &[LegalAction],
    hand: Cards,
    own_bid: Option<Cards>,
    rng: &mut GameRng,
    policy: Policy,
) -> Option<Action> {
    let seen = Seen {
        hand,
        own_bid,
        ..Seen::default()
    };
    choose_random_seeing(legal, &seen, rng, policy)
}

/// `choose_random` from everything the seat has seen.
pub fn choose_random_seeing(
    legal: &[LegalAction],
    seen: &Seen,
    rng: &mut GameRng,
    policy: Policy,
) -> Option<Action> {
    let usable = |l: &LegalAction| policy.domestic_trade || !matches!(l, LegalAction::OfferTrade);
    let weight = |l: &LegalAction| if usable(l) { l.weight() } else { 0 };
    let total: usize = legal.iter().map(weight).sum();
    if total == 0 {
        return None;
    }
    let mut k = rng.below(total as u32) as usize;
    let entry = legal.iter().find(|l| {
        let w = weight(l);
        if k < w {
            true
        } else {
            k -= w;
            false
        }
    })?;
    concrete_action(entry, k, seen, rng)
}

/// The `k`-th concrete action of `entry` (`k` below [`LegalAction::weight`]),
/// a template's cards drawn at random from what the seat sees.
pub fn concrete_action(
    entry: &LegalAction,
    k: usize,
    seen: &Seen,
    rng: &mut GameRng,
) -> Option<Action> {
    let (hand, own_bid) = (seen.hand, seen.own_bid);
    Some(match entry {
        LegalAction::RollDice => Action::RollDice,
        LegalAction::EndTurn => Action::EndTurn,
        LegalAction::BuildRoad { edges, .. } => Action::BuildRoad {
            edge: edges.nth(k)?,
        },
        LegalAction::BuildSettlement { nodes, .. } => Action::BuildSettlement {
            node: nodes.nth(k)?,
        },
        LegalAction::BuildCity { nodes } => Action::BuildCity {
            node: nodes.nth(k)?,
        },
        LegalAction::BuyDevelopmentCard => Action::BuyDevelopmentCard,
        LegalAction::PlayKnight { targets } | LegalAction::MoveRobber { targets } => {
            let (hex, victim) = robber_pick(targets, k)?;
            if matches!(entry, LegalAction::PlayKnight { .. }) {
                Action::PlayKnight { hex, victim }
            } else {
                Action::MoveRobber { hex, victim }
            }
        }
        LegalAction::PlayRoadBuilding => Action::PlayRoadBuilding,
        LegalAction::PlayYearOfPlenty { count } => Action::PlayYearOfPlenty {
            resources: (0..*count).map(|_| random_resource(rng)).collect(),
        },
        LegalAction::PlayMonopoly => Action::PlayMonopoly {
            resource: random_resource(rng),
        },
        LegalAction::Discard { count } => Action::Discard {
            cards: random_cards(hand, *count as u32, rng),
        },
        LegalAction::MaritimeTrade { options } => {
            let (o, i) = nth_in(options, k, |o| o.receive.len())?;
            Action::MaritimeTrade {
                give: o.give,
                receive: o.receive.nth(i)?,
                ratio: None,
            }
        }
        LegalAction::OfferTrade => {
            let give = random_cards(hand, 1 + rng.below(hand.total().min(2)), rng);
            let mut receive = Cards::ZERO;
            for _ in 0..1 + rng.below(2) {
                let r = random_resource(rng);
                if give[r] == 0 {
                    receive[r] += 1;
                }
            }
            if receive.is_empty() {
                let r = Resource::ALL.into_iter().find(|&r| give[r] == 0)?;
                receive[r] = 1;
            }
            Action::OfferTrade { give, receive }
        }
        LegalAction::AcceptTrade => Action::AcceptTrade,
        LegalAction::DeclineTrade => Action::DeclineTrade,
        LegalAction::WithdrawTrade => Action::WithdrawTrade,
        LegalAction::BuildNeutralRoad { neutral, edges } => Action::BuildNeutralRoad {
            neutral: *neutral,
            edge: edges.nth(k)?,
        },
        LegalAction::BuildNeutralSettlement { neutral, nodes } => Action::BuildNeutralSettlement {
            neutral: *neutral,
            node: nodes.nth(k)?,
        },
        LegalAction::ForcedTrade { .. } => Action::ForcedTrade,
        LegalAction::ForcedTradeGive {
            count,
            resources_only,
        } => Action::ForcedTradeGive {
            cards: random_cards(
                if *resources_only {
                    hand.resources()
                } else {
                    hand
                },
                *count as u32,
                rng,
            ),
        },
        LegalAction::RobberToDesert { .. } => Action::RobberToDesert,
        LegalAction::DiscardKnight => Action::DiscardKnight,
        LegalAction::AskNeutralTrade => Action::AskNeutralTrade,
        LegalAction::AcceptNeutralTrade { give, receive } => {
            let r = receive.nth(k)?;
            let mut others = hand;
            others[r] = 0;
            Action::AcceptNeutralTrade {
                give: random_cards(others, *give as u32, rng),
                receive: r,
            }
        }
        LegalAction::DeclineNeutralTrade => Action::DeclineNeutralTrade,
        LegalAction::VoteReroll => Action::VoteReroll { reroll: k == 0 },
        LegalAction::Bid => Action::Bid {
            cards: random_cards(hand, 1 + rng.below(hand.total().clamp(1, 3)), rng),
        },
        LegalAction::PassBid => Action::PassBid,
        LegalAction::RaiseBid { min, available } => {
            let mut free = hand;
            if let Some(bid) = own_bid {
                free.sub(&bid);
            }
            let extra = rng.below((*available - *min).min(2) as u32 + 1);
            Action::RaiseBid {
                cards: random_cards(free, *min as u32 + extra, rng),
            }
        }
        LegalAction::Concede => Action::Concede,
        other => random_ck_action(other, seen, k, rng)?,
    })
}

/// The `k`-th node of a set, or none past its end (the entries that may
/// be declined).
fn nth_or_none(nodes: &NodeSet, k: usize) -> Option<u8> {
    nodes.nth(k)
}

/// A concrete Cities & Knights action for the `k`-th choice of `entry`.
fn random_ck_action(
    entry: &LegalAction,
    seen: &Seen,
    k: usize,
    rng: &mut GameRng,
) -> Option<Action> {
    use LegalAction as L;
    let hand = seen.hand;
    Some(match entry {
        L::BuildWall { nodes } => Action::BuildWall {
            node: nodes.nth(k)?,
        },
        L::BuyImprovement { options } => {
            let o = options.get(k)?;
            Action::BuyImprovement {
                track: o.track,
                crane: o.crane,
            }
        }
        L::RecruitKnight { nodes } => Action::RecruitKnight {
            node: nodes.nth(k)?,
        },
        L::ActivateKnight { nodes } => Action::ActivateKnight {
            node: nodes.nth(k)?,
        },
        L::PromoteKnight { nodes } => Action::PromoteKnight {
            node: nodes.nth(k)?,
        },
        L::MoveKnight { moves } | L::DisplaceKnight { moves } => {
            let (m, i) = nth_in(moves, k, |m| m.to.len())?;
            let (from, to) = (m.from, m.to.nth(i)?);
            if matches!(entry, L::MoveKnight { .. }) {
                Action::MoveKnight { from, to }
            } else {
                Action::DisplaceKnight { from, to }
            }
        }
        L::ChaseRobber { knight, targets } => {
            let (hex, victim) = robber_pick(targets, k)?;
            Action::ChaseRobber {
                knight: *knight,
                hex,
                victim,
            }
        }
        L::RemoveKnight { nodes } => Action::RemoveKnight {
            node: nodes.nth(k)?,
        },
        L::BankTrade { options } => {
            let (o, i) = nth_in(options, k, |o| o.receive.len())?;
            Action::BankTrade {
                give: o.give,
                receive: o.receive.nth(i)?,
                ratio: None,
            }
        }
        L::ForcedTradeResources { .. } => Action::ForcedTradeResources,
        L::PlayProgress { play } => Action::PlayProgress {
            play: random_play(play, k)?,
        },
        L::DiscardProgress => Action::DiscardProgress {
            card: random_progress(seen.progress?, rng)?,
        },
        L::LoseCity { nodes } => Action::LoseCity {
            node: nodes.nth(k)?,
        },
        L::DrawProgress { tracks } => Action::DrawProgress {
            track: *tracks.get(k)?,
        },
        L::AqueductPick => Action::AqueductPick {
            resource: Resource::ALL.get(k).copied(),
        },
        L::GiveCards {
            count,
            commodities_only,
        } => Action::GiveCards {
            cards: random_cards(
                if *commodities_only {
                    hand.commodities()
                } else {
                    hand
                },
                *count as u32,
                rng,
            ),
        },
        L::GiveUpKnight { nodes } => Action::GiveUpKnight {
            node: nodes.nth(k)?,
        },
        L::RetreatKnight { nodes } => Action::RetreatKnight {
            node: nodes.nth(k)?,
        },
        L::PlaceNeutralKnight { neutral, nodes } => Action::PlaceNeutralKnight {
            neutral: *neutral,
            node: nodes.nth(k)?,
        },
        L::PromoteNeutralKnight { nodes } => Action::PromoteNeutralKnight {
            node: nodes.nth(k)?,
        },
        L::PlaceDeserterKnight { nodes } => Action::PlaceDeserterKnight {
            node: nth_or_none(nodes, k),
        },
        L::ReplaceRoad { edges } => Action::ReplaceRoad { edge: edges.nth(k) },
        L::SpyTake => Action::SpyTake {
            card: seen.shown_progress.and_then(|p| {
                let n = p.total();
                let pick = rng.below(n + 1);
                p.nth_card(pick)
            }),
        },
        L::TakeCards { count } => Action::TakeCards {
            cards: random_cards(seen.shown_hand?, *count as u32, rng),
        },
        L::SmithPromote { nodes } => Action::SmithPromote {
            node: nth_or_none(nodes, k),
        },
        L::PlaceMetropolis { nodes } => Action::PlaceMetropolis {
            node: nodes.nth(k)?,
        },
        _ => return None,
    })
}

/// The `k`-th choice among groups of `len` choices each: the group and the
/// choice's index within it.
fn nth_in<T>(groups: &[T], mut k: usize, len: impl Fn(&T) -> usize) -> Option<(&T, usize)> {
    for g in groups {
        let n = len(g);
        if k < n {
            return Some((g, k));
        }
        k -= n;
    }
    None
}

/// The `k`-th (hex, victim) of robber targets, a target without victims
/// counting once.
fn robber_pick(targets: &[RobberTarget], k: usize) -> Option<(u8, Option<Seat>)> {
    let (t, i) = nth_in(targets, k, |t| t.victims.len().max(1))?;
    Some((t.hex, t.victims.get(i).copied()))
}

/// A uniformly random card of a progress hand.
fn random_progress(cards: ProgressCounts, rng: &mut GameRng) -> Option<ProgressCard> {
    let n = cards.total();
    (n > 0).then(|| cards.nth_card(rng.below(n))).flatten()
}

/// The `k`-th concrete play of a progress card entry.
fn random_play(option: &ProgressOption, k: usize) -> Option<ProgressPlay> {
    use ProgressOption as O;
    use ProgressPlay as P;
    Some(match option {
        O::Alchemist => P::Alchemist {
            yellow: (k / 6) as u8 + 1,
            red: (k % 6) as u8 + 1,
        },
        O::Engineer { nodes } => P::Engineer {
            node: nodes.nth(k)?,
        },
        O::Inventor { hexes } => P::Inventor {
            hexes: inventor_pairs(hexes).nth(k)?,
        },
        O::Irrigation => P::Irrigation,
        O::Medicine { nodes } => P::Medicine {
            node: nodes.nth(k)?,
        },
        O::Mining => P::Mining,
        O::RoadBuilding => P::RoadBuilding,
        O::Smith { nodes } => P::Smith {
            node: nodes.nth(k)?,
        },
        O::Bishop { targets } => {
            let (hex, victim) = robber_pick(targets, k)?;
            P::Bishop { hex, victim }
        }
        O::Deserter { targets } => {
            let (t, i) = nth_in(targets, k, |t| t.nodes.len().max(1))?;
            P::Deserter {
                target: t.target,
                node: t.nodes.nth(i),
            }
        }
        O::Diplomat { edges } => P::Diplomat {
            edge: edges.nth(k)?,
        },
        O::Intrigue { nodes } => P::Intrigue {
            node: nodes.nth(k)?,
        },
        O::Saboteur => P::Saboteur,
        O::Spy => P::Spy,
        O::Warlord => P::Warlord,
        O::Wedding => P::Wedding,
        O::CommercialHarbor { resources } => P::CommercialHarbor {
            resource: resources.nth(k)?,
        },
        O::MasterMerchant => P::MasterMerchant,
        O::Merchant { hexes } => P::Merchant {
            hex: *hexes.get(k)?,
        },
        O::MerchantFleet { cards } => P::MerchantFleet {
            named: cards.nth(k)?,
        },
        O::ResourceMonopoly => P::ResourceMonopoly {
            resource: *Resource::ALL.get(k)?,
        },
        O::TradeMonopoly => P::TradeMonopoly {
            commodity: *Commodity::ALL.get(k)?,
        },
    })
}

fn random_resource(rng: &mut GameRng) -> Resource {
    Resource::ALL[rng.below(5) as usize]
}

/// `n` cards drawn without replacement from `hand`.
fn random_cards(mut hand: Cards, n: u32, rng: &mut GameRng) -> Cards {
    let mut out = Cards::ZERO;
    for _ in 0..n.min(hand.total()) {
        let r = hand.nth_card(rng.below(hand.total())).expect("below total");
        hand[r] -= 1;
        out[r] += 1;
    }
    out
}

/// A random action that is probably illegal: random kind, random ids
/// (some out of range), random seat.
fn random_probe(rng: &mut GameRng) -> (Seat, Action) {
    let seat = Seat(rng.below(3) as u8);
    let id = rng.below(80) as u8;
    let r = random_resource(rng);
    let action = match rng.below(26) {
        0 => Action::RollDice,
        1 => Action::EndTurn,
        2 => Action::BuildRoad { edge: id },
        3 => Action::BuildSettlement { node: id },
        4 => Action::BuildCity { node: id },
        5 => Action::BuyDevelopmentCard,
        6 => Action::PlayKnight {
            hex: id % 22,
            victim: Some(Seat(rng.below(3) as u8)),
        },
        7 => Action::MoveRobber {
            hex: id % 22,
            victim: None,
        },
        8 => Action::Discard {
            cards: Cards::single(r, 1 + rng.below(4) as u8),
        },
        9 => Action::MaritimeTrade {
            give: r,
            receive: random_resource(rng),
            ratio: Some(2),
        },
        10 => Action::OfferTrade {
            give: Cards::single(r, 1),
            receive: Cards::single(random_resource(rng), 1),
        },
        11 => Action::AcceptTrade,
        12 => Action::BuildNeutralRoad {
            neutral: Seat(rng.below(5) as u8),
            edge: id,
        },
        13 => Action::BuildNeutralSettlement {
            neutral: Seat(rng.below(5) as u8),
            node: id,
        },
        14 => Action::ForcedTrade,
        15 => Action::ForcedTradeGive {
            cards: Cards::single(r, 1 + rng.below(3) as u8),
        },
        16 => Action::RobberToDesert,
        17 => Action::DiscardKnight,
        18 => Action::AskNeutralTrade,
        19 => Action::AcceptNeutralTrade {
            give: Cards::single(r, 1 + rng.below(2) as u8),
            receive: random_resource(rng),
        },
        20 => Action::DeclineNeutralTrade,
        21 => Action::VoteReroll {
            reroll: rng.below(2) == 0,
        },
        22 => Action::Bid {
            cards: Cards::single(r, rng.below(3) as u8),
        },
        23 => Action::PassBid,
        24 => Action::RaiseBid {
            cards: Cards::single(r, rng.below(3) as u8),
        },
        _ => Action::Concede,
    };
    (seat, action)
}

/// Turns after which a random game counts as unfinished: in every variant
/// three to four times a random game's mean length (docs/performance.md).
/// Cities & Knights' random games run far longer than the others', because
/// random players remove their knights for tokens before most rolls and
/// then lose their cities to the barbarians.
pub fn turn_cap(variant: crate::Variant) -> u32 {
    match variant {
        crate::Variant::CkForTwo => 3000,
        _ => 1000,
    }
}

/// Plays one complete game (or until `max_turns`).
pub fn play_game(
    config: &GameConfig,
    seed: u64,
    max_turns: u32,
    checks: Checks,
) -> Result<GameRecord, Violation> {
    play_game_with(config, seed, max_turns, checks, Policy::default())
}

pub fn play_game_with(
    config: &GameConfig,
    seed: u64,
    max_turns: u32,
    checks: Checks,
    policy_kind: Policy,
) -> Result<GameRecord, Violation> {
    let fail = |i: usize, message: String| Violation {
        seed,
        action_index: i,
        message,
    };
    let (mut s, _) = GameState::new(config, seed).map_err(|e| fail(0, e.to_string()))?;
    // The players' choices come from a stream separate from the game's own.
    let mut policy = GameRng::from_seed(seed ^ 0x5eed_0fc4_01ce_5eed);
    let mut actions = Vec::new();
    let mut legal = Vec::new();
    let mut events = Vec::new();
    while !s.is_over() && s.turn <= max_turns {
        let i = actions.len();
        let awaiting = s.awaiting();
        let seat = awaiting[policy.below(awaiting.len() as u32) as usize];
        s.legal_actions_into(seat, &mut legal);
        let mut applied = None;
        for _ in 0..8 {
            let Some(action) = random_action_with(&s, seat, &legal, &mut policy, policy_kind)
            else {
                return Err(fail(
                    i,
                    format!("{seat} is awaited but has no legal action"),
                ));
            };
            let result = match checks {
                Checks::None | Checks::Light => s.apply_into(seat, &action, &mut events),
                Checks::Full => invariants::apply_checked(&mut s, seat, &action)
                    .map_err(|m| fail(i, m))?
                    .map(|ev| events = ev),
            };
            match result {
                Ok(()) => {
                    applied = Some(action);
                    break;
                }
                // Legal lists do not reveal the bank's composition.
                Err(ActionError::BankShortage { .. } | ActionError::CommodityShortage { .. }) => {
                    continue;
                }
                Err(e) => {
                    return Err(fail(
                        i,
                        format!("listed action {action:?} by {seat} refused: {e}"),
                    ));
                }
            }
        }
        let Some(action) = applied else {
            return Err(fail(
                i,
                format!("{seat} found no acceptable action in 8 tries"),
            ));
        };
        match checks {
            Checks::Full => full_checks(&s, &events, seed, i, &mut policy)?,
            Checks::Light => invariants::check_state(&s).map_err(|m| fail(i, m))?,
            Checks::None => {}
        }
        actions.push((seat, action));
    }
    Ok(GameRecord {
        seed,
        turns: s.turn,
        winner: s.winner,
        actions,
        final_state: s,
    })
}

fn full_checks(
    s: &GameState,
    events: &[crate::Event],
    seed: u64,
    i: usize,
    policy: &mut GameRng,
) -> Result<(), Violation> {
    let fail = |message: String| Violation {
        seed,
        action_index: i,
        message,
    };
    invariants::check_state(s).map_err(fail)?;
    if !s.is_over() {
        for viewer in GameState::real_seats() {
            invariants::check_view_hides(s, viewer, seed.wrapping_add(i as u64)).map_err(fail)?;
        }
    }
    for viewer in [Some(Seat(0)), Some(Seat(1)), None] {
        invariants::check_events_redacted(events, viewer).map_err(fail)?;
    }
    // A probe runs on a copy: if it happens to be legal the game must not
    // diverge from its recorded actions; if refused, the copy must be intact.
    let mut probes = vec![random_probe(policy)];
    if matches!(s.variant, VariantState::CkForTwo(_)) {
        probes.push(random_ck_probe(policy));
    }
    for (seat, probe) in probes {
        let mut copy = s.clone();
        if invariants::apply_checked(&mut copy, seat, &probe)
            .map_err(fail)?
            .is_ok()
        {
            invariants::check_state(&copy).map_err(fail)?;
        }
    }
    Ok(())
}

/// A Cities & Knights action that is probably illegal: random kind and
/// ids (some out of range), random seat.
fn random_ck_probe(rng: &mut GameRng) -> (Seat, Action) {
    let seat = Seat(rng.below(3) as u8);
    let id = rng.below(80) as u8;
    let other = rng.below(80) as u8;
    let r = random_resource(rng);
    let card = crate::cards::Card::from(r);
    let track = crate::cards::Track::ALL[rng.below(3) as usize];
    let progress = ProgressCard::ALL[rng.below(25) as usize];
    let action = match rng.below(20) {
        0 => Action::BuildWall { node: id },
        1 => Action::BuyImprovement {
            track,
            crane: rng.below(2) == 0,
        },
        2 => Action::RecruitKnight { node: id },
        3 => Action::ActivateKnight { node: id },
        4 => Action::PromoteKnight { node: id },
        5 => Action::MoveKnight {
            from: id,
            to: other,
        },
        6 => Action::DisplaceKnight {
            from: id,
            to: other,
        },
        7 => Action::ChaseRobber {
            knight: id,
            hex: other % 22,
            victim: None,
        },
        8 => Action::RemoveKnight { node: id },
        9 => Action::BankTrade {
            give: card,
            receive: crate::cards::Card::from(random_resource(rng)),
            ratio: Some(2),
        },
        10 => Action::DiscardProgress { card: progress },
        11 => Action::LoseCity { node: id },
        12 => Action::DrawProgress { track },
        13 => Action::AqueductPick { resource: Some(r) },
        14 => Action::GiveCards {
            cards: Cards::single(r, 1 + rng.below(2) as u8),
        },
        15 => Action::RetreatKnight { node: id },
        16 => Action::SpyTake {
            card: Some(progress),
        },
        17 => Action::PlayProgress {
            play: ProgressPlay::Inventor {
                hexes: [id % 22, other % 22],
            },
        },
        18 => Action::PlayProgress {
            play: ProgressPlay::Deserter {
                target: Seat(rng.below(5) as u8),
                node: Some(id),
            },
        },
        _ => Action::PlaceMetropolis { node: id },
    };
    (seat, action)
}

#[derive(Clone, Debug, Serialize)]
pub struct SimStats {
    pub variant: String,
    pub games: u32,
    pub finished: u32,
    pub mean_turns: f64,
    pub mean_actions: f64,
    pub wins: [u32; 2],
    pub elapsed_s: f64,
    pub games_per_s: f64,
    pub actions_per_s: f64,
    pub checks: bool,
}

/// Summary counts of a batch; the caller measures time.
#[derive(Default)]
pub struct Tally {
    pub games: u32,
    pub finished: u32,
    pub turns: u64,
    pub actions: u64,
    pub wins: [u32; 2],
}

impl Tally {
    pub fn add(&mut self, r: &GameRecord) {
        self.games += 1;
        self.turns += r.turns as u64;
        self.actions += r.actions.len() as u64;
        if let Some(w) = r.winner {
            self.finished += 1;
            if let Some(slot) = self.wins.get_mut(w.index()) {
                *slot += 1;
            }
        }
    }

    pub fn stats(&self, variant: &str, elapsed_s: f64, checks: bool) -> SimStats {
        let g = self.games.max(1) as f64;
        SimStats {
            variant: variant.to_string(),
            games: self.games,
            finished: self.finished,
            mean_turns: self.turns as f64 / g,
            mean_actions: self.actions as f64 / g,
            wins: self.wins,
            elapsed_s,
            games_per_s: self.games as f64 / elapsed_s.max(1e-9),
            actions_per_s: self.actions as f64 / elapsed_s.max(1e-9),
            checks,
        }
    }
}
