//! `shadow` (RULES.md §5; seeds 002 and 004, option `edition`): two
//! fictional players (seats 2 and 3) who hold nothing and build nothing.
//! Their share of the board is removed at the start; after each real turn
//! one of them rolls for production, and offers a card from the bank that
//! the real players bid for.

use super::common::fewer_visible_vp_or_roll_off;
use super::{Auction, Bid, Step, VariantState, base};
use crate::actions::{Action, LegalAction, RobberTarget};
use crate::board::{HexId, topology};
use crate::cards::{Cards, Resource};
use crate::contract::Ruleset;
use crate::error::ActionError;
use crate::events::{AuctionWin, Event, RerollReason, RollOffPurpose};
use crate::options::{Edition, RemovalReroll};
use crate::phases::Phase;
use crate::rng::GameRng;
use crate::seats::{Seat, SeatKind, SeatList};
use crate::state::GameState;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shadow;

/// A player at this many visible VP may not bid (edited edition).
pub const NO_BIDDING_FROM_VP: u8 = 8;
/// Policy `auto` re-rolls while more than this many 6/8 tokens would go.
pub const MAX_RED_TOKENS_REMOVED: u8 = 2;
/// Bounds policy `auto`'s re-rolls. Some pair of opposite sides always
/// removes at most two red tokens (opposite rows are disjoint and the four
/// reds lie in at most eight rows in all, so one of the three opposite pairs
/// holds at most two), and that pair comes up with probability 1/18 or more
/// per roll: the bound is never reached in practice, and past it the last
/// roll stands.
const MAX_AUTO_REROLLS: usize = 1000;
/// Bounds re-rolling a 6 on the offer or bank die (1/6 each time).
const MAX_DIE_REROLLS: usize = 64;

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShadowState {
    /// The fictional seats: the first plays after seat 0, the second after seat 1.
    pub fictional: [Seat; 2],
    /// The removal roll that stands: every die rolled (1998 re-rolls a
    /// doubled second die) and the sides it named.
    pub removal_dice: Vec<u8>,
    pub removal_sides: Vec<u8>,
}

fn shadow(s: &GameState) -> Option<&ShadowState> {
    match &s.variant {
        VariantState::Shadow(st) => Some(st),
        _ => None,
    }
}

/// The cube coordinate constant along side `side` (1–6 clockwise from the
/// top), signed so that it is 2 on that side's outer row: side 1 is the top
/// row r = −2, then q = 2, s = −2, r = 2, q = −2, s = 2.
fn side_coordinate(side: u8, q: i8, r: i8) -> i8 {
    match side {
        1 => -r,
        2 => q,
        3 => q + r,
        4 => r,
        5 => -q,
        _ => -(q + r),
    }
}

/// A bit per hex of side `side`'s row at `depth`: 0 is the outer row of 3,
/// 1 the row of 4 behind it.
pub fn side_row(side: u8, depth: i8) -> u32 {
    topology()
        .hexes
        .iter()
        .filter(|h| side_coordinate(side, h.q, h.r) == 2 - depth)
        .fold(0, |m, h| m | (1 << h.id))
}

/// The hexes a removal roll takes out. Two different sides: each one's
/// outer row (5 hexes when adjacent, they share a corner; else 6). Doubles
/// (only the edited edition keeps them): that side's outer row and the row
/// of 4 behind it.
pub fn removal_mask(first: u8, second: u8) -> u32 {
    if first == second {
        side_row(first, 0) | side_row(first, 1)
    } else {
        side_row(first, 0) | side_row(second, 0)
    }
}

fn hexes_of(mask: u32) -> Vec<HexId> {
    (0..topology().hexes.len() as HexId)
        .filter(|h| mask & (1 << h) != 0)
        .collect()
}

/// How many 6 and 8 tokens `mask` takes off the board.
pub fn red_tokens(s: &GameState, mask: u32) -> u8 {
    hexes_of(mask)
        .iter()
        .filter(|&&h| matches!(s.board.tiles[h as usize].number, Some(6 | 8)))
        .count() as u8
}

/// Rolls the sides (1998: the second die again while it matches the
/// first) and takes those hexes out, replacing any earlier roll.
fn roll_removal(s: &mut GameState, ev: &mut Vec<Event>) -> u8 {
    let mut dice = vec![s.rng.die(), s.rng.die()];
    if s.rules.edition == Edition::Y1998 {
        for _ in 0..MAX_DIE_REROLLS {
            if dice[dice.len() - 1] != dice[0] {
                break;
            }
            dice.push(s.rng.die());
        }
    }
    let (first, second) = (dice[0], dice[dice.len() - 1]);
    let mask = removal_mask(first, second);
    let sides = if first == second {
        vec![first]
    } else {
        vec![first, second]
    };
    let red = red_tokens(s, mask);
    s.board.removed = mask;
    ev.push(Event::HexesRemoved {
        dice: dice.clone(),
        sides: sides.clone(),
        hexes: hexes_of(mask),
        red_tokens: red,
    });
    if let VariantState::Shadow(st) = &mut s.variant {
        st.removal_dice = dice;
        st.removal_sides = sides;
    }
    red
}

/// 1 lumber, 2 brick, 3 wool, 4 grain, 5 ore; 6 names nothing.
pub fn die_resource(die: u8) -> Option<Resource> {
    match die {
        1 => Some(Resource::Lumber),
        2 => Some(Resource::Brick),
        3 => Some(Resource::Wool),
        4 => Some(Resource::Grain),
        5 => Some(Resource::Ore),
        _ => None,
    }
}

/// One die for a resource, re-rolled on a 6 when `reroll_six`.
fn resource_die(s: &mut GameState, reroll_six: bool) -> (Vec<u8>, Option<Resource>) {
    let mut rolls = vec![s.rng.die()];
    while reroll_six && rolls[rolls.len() - 1] == 6 && rolls.len() < MAX_DIE_REROLLS {
        rolls.push(s.rng.die());
    }
    let r = die_resource(rolls[rolls.len() - 1]);
    (rolls, r)
}

/// Who may be chosen to lose a card when `chooser` puts the robber on
/// `hex` for a fictional seven: 1998, the opponent wherever it goes;
/// edited, anyone else with a building there. Only seats holding cards.
fn fictional_victims(s: &GameState, chooser: Seat, hex: HexId) -> SeatList {
    match s.rules.edition {
        Edition::Y1998 => {
            let o = chooser.opponent();
            if s.player(o).hand.total() > 0 {
                std::iter::once(o).collect()
            } else {
                SeatList::default()
            }
        }
        Edition::Edited => s.robbable_at(chooser, hex),
    }
}

fn fictional_robber(
    s: &mut GameState,
    chooser: Seat,
    hex: HexId,
    victim: Option<Seat>,
    ev: &mut Vec<Event>,
) -> Result<(), ActionError> {
    s.check_robber_hex(hex)?;
    let candidates = fictional_victims(s, chooser, hex);
    match victim {
        None if candidates.is_empty() => {}
        None => return Err(ActionError::VictimRequired { candidates }),
        Some(v) if candidates.contains(&v) => {}
        Some(v) => {
            return Err(ActionError::InvalidVictim {
                victim: Some(v),
                reason: "only the listed players can be made to lose a card",
            });
        }
    }
    s.pop_phase();
    s.robber = hex;
    ev.push(Event::RobberMoved { seat: chooser, hex });
    if let Some(v) = victim {
        let hand = s.player(v).hand;
        let k = s.rng.below(hand.total());
        let r = hand.nth_card(k);
        if let Some(r) = r {
            s.player_mut(v).hand[r] -= 1;
            s.bank[r] += 1;
        }
        ev.push(Event::CardLost {
            seat: v,
            by: chooser,
            resource: r.and_then(|c| c.resource()),
        });
    }
    bank_card_for_removed_hex(s, chooser, hex, ev);
    Ok(())
}

/// Edited edition: the robber on a removed hex blocks nothing, and whoever
/// put it there takes the bank card a die names (sixes re-rolled).
fn bank_card_for_removed_hex(s: &mut GameState, mover: Seat, hex: HexId, ev: &mut Vec<Event>) {
    if s.rules.edition != Edition::Edited || s.board.in_play(hex) {
        return;
    }
    let (rolls, named) = resource_die(s, true);
    let got = named.filter(|&r| s.bank[r] > 0);
    if let Some(r) = got {
        s.bank[r] -= 1;
        s.player_mut(mover).hand[r] += 1;
    }
    ev.push(Event::BankCardTaken {
        seat: mover,
        rolls,
        resource: got,
    });
}

fn vote(
    s: &mut GameState,
    seat: Seat,
    reroll: bool,
    ev: &mut Vec<Event>,
) -> Result<(), ActionError> {
    let Phase::Variant(Step::RemovalVote { mut votes }) = *s.phase() else {
        return Err(ActionError::WrongPhase {
            action: "vote_reroll",
            phase: s.phase().name(),
        });
    };
    votes[seat.index()] = Some(reroll);
    ev.push(Event::RerollVoted { seat, reroll });
    if !reroll {
        // One refusal settles it: a re-roll needs both.
        s.pop_phase();
    } else if votes.iter().all(|v| *v == Some(true)) {
        ev.push(Event::RemovalRerolled {
            reason: RerollReason::BothAsked,
        });
        roll_removal(s, ev);
        if let Some(Phase::Variant(Step::RemovalVote { votes })) = s.phases.last_mut() {
            *votes = [None; 2];
        }
    } else if let Some(Phase::Variant(Step::RemovalVote { votes: v })) = s.phases.last_mut() {
        *v = votes;
    }
    Ok(())
}

fn auction(s: &GameState) -> Option<&Auction> {
    match s.phase() {
        Phase::Variant(Step::Auction(a)) => Some(a),
        _ => None,
    }
}

fn auction_mut(s: &mut GameState) -> Option<&mut Auction> {
    match s.phases.last_mut() {
        Some(Phase::Variant(Step::Auction(a))) => Some(a),
        _ => None,
    }
}

fn auction_phase_error(s: &GameState, action: &'static str) -> ActionError {
    ActionError::WrongPhase {
        action,
        phase: if auction(s).is_some() {
            "another stage of the auction"
        } else {
            s.phase().name()
        },
    }
}

/// A sealed first answer (`None`: pass).
fn answer(
    s: &mut GameState,
    seat: Seat,
    bid: Option<Cards>,
    ev: &mut Vec<Event>,
) -> Result<(), ActionError> {
    let action = if bid.is_some() { "bid" } else { "pass_bid" };
    match auction(s) {
        Some(a) if a.bids[seat.index()] == Bid::Waiting => {}
        _ => return Err(auction_phase_error(s, action)),
    }
    if let Some(cards) = &bid {
        if cards.is_empty() {
            return Err(ActionError::EmptyBid);
        }
        if !s.player(seat).hand.contains(cards) {
            return Err(ActionError::CardsNotHeld);
        }
    }
    let Some(a) = auction_mut(s) else {
        return Ok(());
    };
    a.bids[seat.index()] = match bid {
        Some(c) => Bid::Cards(c),
        None => Bid::Passed,
    };
    ev.push(Event::BidSubmitted { seat });
    if !a.sealed() {
        reveal(s, ev);
    }
    Ok(())
}

/// Both first answers are in: show them and settle or start raising.
fn reveal(s: &mut GameState, ev: &mut Vec<Event>) {
    let Some(a) = auction(s).cloned() else { return };
    let shown: Vec<(Seat, Option<Cards>)> = a
        .bids
        .iter()
        .enumerate()
        .filter(|(_, b)| matches!(b, Bid::Cards(_) | Bid::Passed))
        .map(|(i, b)| {
            let cards = match b {
                Bid::Cards(c) => Some(*c),
                _ => None,
            };
            (Seat(i as u8), cards)
        })
        .collect();
    ev.push(Event::BidsRevealed { bids: shown });
    match (a.bid_of(Seat(0)), a.bid_of(Seat(1))) {
        (None, None) => end_fictional_turn(s, a.next, ev),
        (Some(_), None) => win(s, Seat(0), AuctionWin::OnlyBidder, ev),
        (None, Some(_)) => win(s, Seat(1), AuctionWin::OnlyBidder, ev),
        (Some(b0), Some(b1)) => compare(s, b0.total(), b1.total(), ev),
    }
}

/// Equal bids go to the tie-break; otherwise the lower bidder must raise
/// or concede.
fn compare(s: &mut GameState, n0: u32, n1: u32, ev: &mut Vec<Event>) {
    if n0 == n1 {
        let winner = fewer_visible_vp_or_roll_off(s, RollOffPurpose::Auction, ev);
        let by = if s.player(Seat(0)).visible_vp == s.player(Seat(1)).visible_vp {
            AuctionWin::RollOff
        } else {
            AuctionWin::FewerVp
        };
        win(s, winner, by, ev);
    } else if let Some(a) = auction_mut(s) {
        a.to_raise = Some(if n0 < n1 { Seat(0) } else { Seat(1) });
    }
}

fn raise(
    s: &mut GameState,
    seat: Seat,
    cards: &Cards,
    ev: &mut Vec<Event>,
) -> Result<(), ActionError> {
    let Some(a) = auction(s).filter(|a| a.to_raise == Some(seat)) else {
        return Err(auction_phase_error(s, "raise_bid"));
    };
    if cards.is_empty() {
        return Err(ActionError::EmptyBid);
    }
    let mut total = a.bid_of(seat).unwrap_or_default();
    total.add(cards);
    let other = a.bid_of(seat.opponent()).unwrap_or_default().total();
    if !s.player(seat).hand.contains(&total) {
        return Err(ActionError::CardsNotHeld);
    }
    if total.total() < other {
        return Err(ActionError::BidTooLow { needed: other });
    }
    if let Some(a) = auction_mut(s) {
        a.bids[seat.index()] = Bid::Cards(total);
        a.to_raise = None;
    }
    ev.push(Event::BidRaised {
        seat,
        added: *cards,
        total,
    });
    let (n0, n1) = if seat == Seat(0) {
        (total.total(), other)
    } else {
        (other, total.total())
    };
    compare(s, n0, n1, ev);
    Ok(())
}

fn concede(s: &mut GameState, seat: Seat, ev: &mut Vec<Event>) -> Result<(), ActionError> {
    if auction(s).is_none_or(|a| a.to_raise != Some(seat)) {
        return Err(auction_phase_error(s, "concede"));
    }
    ev.push(Event::Conceded { seat });
    win(s, seat.opponent(), AuctionWin::OtherConceded, ev);
    Ok(())
}

/// The winner's bid goes to the bank, the offered card to the winner; the
/// loser keeps their bid (it never left their hand).
fn win(s: &mut GameState, winner: Seat, by: AuctionWin, ev: &mut Vec<Event>) {
    let Some(a) = auction(s).cloned() else { return };
    let paid = a.bid_of(winner).unwrap_or_default();
    s.player_mut(winner).hand.sub(&paid);
    s.bank.add(&paid);
    if s.bank[a.resource] > 0 {
        s.bank[a.resource] -= 1;
        s.player_mut(winner).hand[a.resource] += 1;
    }
    ev.push(Event::AuctionWon {
        seat: winner,
        paid,
        resource: a.resource,
        by,
    });
    end_fictional_turn(s, a.next, ev);
}

fn end_fictional_turn(s: &mut GameState, next: Seat, ev: &mut Vec<Event>) {
    s.start_turn(next, ev);
}

/// The fictional roll: production, or a seven's discards and the robber
/// for the real player with fewer visible VP.
fn fictional_roll(s: &mut GameState, seat: Seat, next: Seat, ev: &mut Vec<Event>) {
    if let Some(top) = s.phases.last_mut() {
        *top = Phase::Variant(Step::FictionalOffer { seat, next });
    }
    let dice = s.dice.roll(&mut s.rng);
    let total = dice[0] + dice[1];
    s.last_roll = Some(dice);
    ev.push(Event::DiceRolled { seat, dice, total });
    if total == 7 {
        let chooser = fewer_visible_vp_or_roll_off(s, RollOffPurpose::Robber, ev);
        s.start_seven_with(Phase::Variant(Step::FictionalRobber { seat: chooser }), ev);
    } else {
        s.produce(total, ev);
    }
}

/// The offer die, then an auction among the seats that may bid.
fn fictional_offer(s: &mut GameState, seat: Seat, next: Seat, ev: &mut Vec<Event>) {
    let (rolls, named) = resource_die(s, s.rules.reroll_six);
    let offered = named.filter(|&r| s.bank[r] > 0);
    ev.push(Event::CardOffered {
        seat,
        rolls,
        resource: offered,
    });
    let Some(resource) = offered else {
        end_fictional_turn(s, next, ev);
        return;
    };
    let may_bid = |seat: Seat| {
        let p = s.player(seat);
        let vp_ok = s.rules.edition != Edition::Edited || p.visible_vp < NO_BIDDING_FROM_VP;
        vp_ok && p.hand.total() > 0
    };
    let bids = [Seat(0), Seat(1)].map(|seat| {
        if may_bid(seat) {
            Bid::Waiting
        } else {
            Bid::Out
        }
    });
    if !bids.contains(&Bid::Waiting) {
        end_fictional_turn(s, next, ev);
        return;
    }
    let bidders: SeatList = (0..2u8)
        .filter(|&i| bids[i as usize] == Bid::Waiting)
        .map(Seat)
        .collect();
    ev.push(Event::AuctionOpened { resource, bidders });
    if let Some(top) = s.phases.last_mut() {
        *top = Phase::Variant(Step::Auction(Auction {
            fictional: seat,
            next,
            resource,
            bids,
            to_raise: None,
        }));
    }
}

impl Ruleset for Shadow {
    fn init(&self, s: &mut GameState, ev: &mut Vec<Event>) {
        let fictional = [
            s.add_automated_seat(SeatKind::Fictional),
            s.add_automated_seat(SeatKind::Fictional),
        ];
        s.variant = VariantState::Shadow(ShadowState {
            fictional,
            ..Default::default()
        });
        let mut red = roll_removal(s, ev);
        match s.rules.removal_reroll {
            RemovalReroll::Auto => {
                for _ in 0..MAX_AUTO_REROLLS {
                    if red <= MAX_RED_TOKENS_REMOVED {
                        break;
                    }
                    ev.push(Event::RemovalRerolled {
                        reason: RerollReason::TooManyRedTokens,
                    });
                    red = roll_removal(s, ev);
                }
            }
            RemovalReroll::Agree => s
                .phases
                .push(Phase::Variant(Step::RemovalVote { votes: [None; 2] })),
            RemovalReroll::Never => {}
        }
    }

    fn between_turns(
        &self,
        s: &mut GameState,
        ended: Seat,
        next: Seat,
        ev: &mut Vec<Event>,
    ) -> bool {
        let Some(st) = shadow(s) else {
            return false;
        };
        let seat = st.fictional[ended.index() & 1];
        s.active = seat;
        s.phases = vec![Phase::Variant(Step::FictionalRoll { seat, next })];
        ev.push(Event::FictionalTurnStarted { seat });
        true
    }

    // Out of line: every action of every game asks, and the answer is
    // usually no; inlined into the dispatch, its body made each question
    // cost a large call frame.
    #[inline(never)]
    fn automated_step(&self, s: &mut GameState, ev: &mut Vec<Event>) -> Option<Seat> {
        match *s.phase() {
            Phase::Variant(Step::FictionalRoll { seat, next }) => {
                fictional_roll(s, seat, next, ev);
                Some(seat)
            }
            Phase::Variant(Step::FictionalOffer { seat, next }) => {
                fictional_offer(s, seat, next, ev);
                Some(seat)
            }
            _ => None,
        }
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
        match s.phase() {
            Phase::Variant(Step::RemovalVote { votes }) if votes[seat.index()].is_none() => {
                out.push(LegalAction::VoteReroll);
            }
            Phase::Variant(Step::FictionalRobber { seat: chooser }) if *chooser == seat => {
                let targets = s
                    .robber_hexes()
                    .map(|hex| RobberTarget {
                        hex,
                        victims: fictional_victims(s, seat, hex),
                    })
                    .collect();
                out.push(LegalAction::MoveRobber { targets });
            }
            Phase::Variant(Step::Auction(a)) => match a.to_raise {
                None if a.bids[seat.index()] == Bid::Waiting => {
                    out.push(LegalAction::Bid);
                    out.push(LegalAction::PassBid);
                }
                Some(r) if r == seat => {
                    let own = a.bid_of(seat).unwrap_or_default().total();
                    let other = a.bid_of(seat.opponent()).unwrap_or_default().total();
                    let available = s.player(seat).hand.total().saturating_sub(own);
                    let min = other.saturating_sub(own);
                    if available >= min {
                        out.push(LegalAction::RaiseBid {
                            min: min as u8,
                            available: available as u8,
                        });
                    }
                    out.push(LegalAction::Concede);
                }
                _ => {}
            },
            _ => {}
        }
    }

    fn check(&self, s: &GameState) -> Result<(), String> {
        let st = shadow(s).ok_or("shadow keeps its state")?;
        if st
            .fictional
            .iter()
            .any(|f| s.player(*f).kind != SeatKind::Fictional)
        {
            return Err("shadow's fictional seats are not fictional".into());
        }
        let expected = match st.removal_sides.as_slice() {
            [a] => removal_mask(*a, *a),
            [a, b] => removal_mask(*a, *b),
            other => return Err(format!("removal sides {other:?}")),
        };
        if expected != s.board.removed {
            return Err("removed hexes differ from the removal roll".into());
        }
        Ok(())
    }

    /// The other seat's sealed first answer in an auction.
    fn perturb_hidden(&self, s: &mut GameState, viewer: Seat, _rng: &mut GameRng) {
        if let Some(Phase::Variant(Step::Auction(a))) = s.phases.last_mut()
            && a.sealed()
        {
            let other = viewer.opponent().index();
            a.bids[other] = match a.bids[other] {
                Bid::Passed => Bid::Cards(Cards::single(Resource::Ore, 9)),
                Bid::Cards(_) => Bid::Passed,
                b => b,
            };
        }
    }

    fn robber_may_enter_removed(&self, s: &GameState) -> bool {
        s.rules.edition == Edition::Edited
    }

    fn after_robber_moved(&self, s: &mut GameState, mover: Seat, hex: HexId, ev: &mut Vec<Event>) {
        bank_card_for_removed_hex(s, mover, hex, ev);
    }

    fn after_monopoly(
        &self,
        s: &mut GameState,
        seat: Seat,
        resource: Resource,
        ev: &mut Vec<Event>,
    ) {
        let Some(fictional) = shadow(s).map(|st| st.fictional) else {
            return;
        };
        let mut draws = Vec::new();
        for f in fictional {
            let die = s.rng.die();
            let taken = die.saturating_sub(2).min(s.bank[resource]);
            s.bank[resource] -= taken;
            s.player_mut(seat).hand[resource] += taken;
            draws.push((f, die, taken));
        }
        ev.push(Event::MonopolyFromFictional {
            seat,
            resource,
            draws,
        });
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
    let own_step = match s.phase() {
        Phase::Variant(Step::FictionalRobber { seat }) => Some(Some(*seat)),
        Phase::Variant(Step::RemovalVote { .. } | Step::Auction(_)) => Some(None),
        _ => None,
    };
    Some(match action {
        Action::VoteReroll { reroll } => vote(s, seat, *reroll, ev),
        Action::Bid { cards } => answer(s, seat, Some(*cards), ev),
        Action::PassBid => answer(s, seat, None, ev),
        Action::RaiseBid { cards } => raise(s, seat, cards, ev),
        Action::Concede => concede(s, seat, ev),
        Action::MoveRobber { hex, victim } if own_step == Some(Some(seat)) => {
            fictional_robber(s, seat, *hex, *victim, ev)
        }
        _ if own_step.is_some() => Err(ActionError::WrongPhase {
            action: action.name(),
            phase: s.phase().name(),
        }),
        _ => return None,
    })
}
