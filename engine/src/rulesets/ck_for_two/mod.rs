//! `ck_for_two`: Cities & Knights for two (RULES.md §6, seed 003 on top of
//! the official two-player rules of seed 001).
//!
//! It keeps the base game's board, roads, settlements, discards, robber
//! and trade, the neutral builders and trade tokens of `catan_for_two`
//! (`parts::neutral_builders`, `parts::trade_tokens`), and leaves out the
//! development cards and Largest Army. What it adds, one module each:
//!
//! | module | RULES.md |
//! |---|---|
//! | `state` | §6.1 the ruleset's data, its hidden part and its redaction |
//! | `roll` | §6.3–§6.5 the two rolls with the event die, production, the Aqueduct, the seven |
//! | `barbarians` | §6.6 the ship and the attack |
//! | `cities` | §6.7, §6.8 cities, pillage, walls, improvements, metropolises |
//! | `knights` | §6.9, §6.10 knights, neutral knights, displacement |
//! | `trade` | §6.11, §6.14 the bank, the merchant, token actions |
//! | `progress` | §6.12 decks, draws, the limit, playing a card |
//! | `science`, `politics`, `commerce` | §6.13 the 54 cards |
//! | `decisions` | §6.16 the steps owed, and those with a single answer |
//! | `legal`, `timeout`, `check` | legal actions, timeout defaults, invariants |

mod barbarians;
mod check;
mod cities;
mod commerce;
mod decisions;
mod knights;
mod legal;
mod politics;
mod progress;
mod roll;
mod science;
pub mod state;
mod timeout;
mod trade;
pub mod wire;

pub use state::{CkPlayer, CkState, HandCounts, Knight, KnightLevel, Merchant, ProgressDeck};

use super::{Step, VariantState, base};
use crate::actions::{Action, LegalAction};
use crate::board::NodeId;
use crate::cards::{Card, Cards};
use crate::contract::Ruleset;
use crate::error::ActionError;
use crate::events::Event;
use crate::hidden::Redact;
use crate::parts::buildings::Built;
use crate::phases::{Phase, PhaseKind, Setup};
use crate::rng::GameRng;
use crate::seats::Seat;
use crate::state::{BANK_PER_RESOURCE, BuildingKind, GameState};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CkForTwo;

/// 19 of each resource and 12 of each commodity.
pub const CARD_SUPPLY: Cards = Cards::from_counts([
    BANK_PER_RESOURCE,
    BANK_PER_RESOURCE,
    BANK_PER_RESOURCE,
    BANK_PER_RESOURCE,
    BANK_PER_RESOURCE,
    state::COMMODITIES_IN_BANK,
    state::COMMODITIES_IN_BANK,
    state::COMMODITIES_IN_BANK,
]);

/// The ruleset's state (only ever called in a ck_for_two game).
pub(crate) fn ck(s: &GameState) -> &CkState {
    match &s.variant {
        VariantState::CkForTwo(c) => c,
        _ => unreachable!("a ck_for_two game keeps its state"),
    }
}

pub(crate) fn ck_mut(s: &mut GameState) -> &mut CkState {
    match &mut s.variant {
        VariantState::CkForTwo(c) => c,
        _ => unreachable!("a ck_for_two game keeps its state"),
    }
}

/// Adds `delta` to `seat`'s visible victory points.
pub(crate) fn add_vp(s: &mut GameState, seat: Seat, delta: i8) {
    let p = s.player_mut(seat);
    p.visible_vp = p.visible_vp.wrapping_add_signed(delta);
}

/// `seat`'s visible points recounted (RULES.md §6.15): the base game's
/// buildings and Longest Road, 2 more per metropolis, the Defender cards,
/// Printer and Constitution, the merchant.
pub fn visible_vp(s: &GameState, seat: Seat) -> u8 {
    let mut vp = s.base_visible_vp(seat);
    if !seat.is_real() {
        return vp;
    }
    let c = ck(s);
    for node in c.metropolises.iter().flatten() {
        if s.building_at(*node).is_some_and(|b| b.owner == seat) {
            vp += 2;
        }
    }
    let p = c.player(seat);
    vp += p.defenders + p.laid_down.total() as u8;
    if c.merchant.is_some_and(|m| m.owner == seat) {
        vp += 1;
    }
    vp
}

/// Refuses `action` in the phase it came in.
pub(crate) fn wrong_phase(s: &GameState, action: &Action) -> ActionError {
    ActionError::WrongPhase {
        action: action.name(),
        phase: s.phase().name(),
    }
}

/// The ruleset's own actions on one's own turn (before or after the roll,
/// nothing pending); `None` hands the action to the base game.
fn apply_turn(
    s: &mut GameState,
    seat: Seat,
    action: &Action,
    ev: &mut Vec<Event>,
) -> Option<Result<(), ActionError>> {
    use Action as A;
    let kind = s.phase().kind();
    let main = kind == PhaseKind::Main;
    if !matches!(kind, PhaseKind::BeforeRoll | PhaseKind::Main) || seat != s.active {
        return None;
    }
    Some(match action {
        A::RollDice if !main => roll::first_roll(s, seat, None, ev),
        A::ForcedTrade => s.forced_trade(seat, false, 2, ev),
        A::ForcedTradeResources => s.forced_trade(seat, true, 1, ev),
        A::RobberToDesert => s.robber_to_desert(seat, ev),
        A::RemoveKnight { node } => knights::remove_for_tokens(s, seat, *node, ev),
        A::PlayProgress { play } => progress::play(s, seat, play, ev),
        A::EndTurn if main => progress::end_turn(s, seat, ev),
        A::DiscardProgress { card } if main => progress::discard_own(s, seat, *card, ev),
        A::BuildCity { node } if main => cities::build_city(s, seat, *node, false, ev),
        A::BuildWall { node } if main => cities::build_wall(s, seat, *node, false, ev),
        A::BuyImprovement { track, crane } if main => {
            cities::buy_improvement(s, seat, *track, *crane, ev)
        }
        A::RecruitKnight { node } if main => knights::recruit(s, seat, *node, ev),
        A::ActivateKnight { node } if main => knights::activate(s, seat, *node, ev),
        A::PromoteKnight { node } if main => knights::promote_paid(s, seat, *node, ev),
        A::MoveKnight { from, to } if main => knights::move_knight(s, seat, *from, *to, ev),
        A::DisplaceKnight { from, to } if main => knights::displace(s, seat, *from, *to, ev),
        A::ChaseRobber {
            knight,
            hex,
            victim,
        } if main => knights::chase_robber(s, seat, *knight, *hex, *victim, ev),
        A::BankTrade {
            give,
            receive,
            ratio,
        } if main => trade::bank_trade(s, seat, *give, *receive, *ratio, ev),
        A::MaritimeTrade {
            give,
            receive,
            ratio,
        } if main => {
            trade::bank_trade(s, seat, Card::from(*give), Card::from(*receive), *ratio, ev)
        }
        A::DiscardKnight => Err(ActionError::NotInVariant {
            action: action.name(),
            variant: s.rules.variant.id(),
        }),
        _ => return None,
    })
}

/// True for the actions this ruleset takes itself (so that, in the wrong
/// phase, they are refused as such rather than as foreign to the variant).
fn own_action(action: &Action) -> bool {
    use Action as A;
    action.variant_only()
        && !matches!(
            action,
            A::DiscardKnight
                | A::AskNeutralTrade
                | A::AcceptNeutralTrade { .. }
                | A::DeclineNeutralTrade
                | A::VoteReroll { .. }
                | A::Bid { .. }
                | A::PassBid
                | A::RaiseBid { .. }
                | A::Concede
        )
}

impl Ruleset for CkForTwo {
    fn init(&self, s: &mut GameState, ev: &mut Vec<Event>) {
        s.setup = Setup::snake_with_city();
        s.add_neutral_builders(ev);
        s.variant = VariantState::CkForTwo(Box::new(CkState::new(&mut s.rng)));
    }

    fn deals_development_cards(&self) -> bool {
        false
    }

    fn card_supply(&self) -> Cards {
        CARD_SUPPLY
    }

    // This ruleset's apply, legal list and bookkeeping are out of line:
    // inlined into `AnyRuleset`'s dispatch they made every other
    // variant's calls pay their large frames (docs/performance.md).
    #[inline(never)]
    fn apply(
        &self,
        s: &mut GameState,
        seat: Seat,
        action: &Action,
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        if let Phase::Variant(step) = s.phase() {
            let step = step.clone();
            return decisions::apply_step(s, seat, &step, action, ev);
        }
        if let Some(result) = apply_turn(s, seat, action, ev) {
            return result;
        }
        if s.phase().kind() == PhaseKind::Setup || !own_action(action) {
            return base::apply(s, seat, action, ev);
        }
        Err(wrong_phase(s, action))
    }

    #[inline(never)]
    fn after_action(&self, s: &mut GameState, ev: &mut Vec<Event>) {
        decisions::settle(s, ev);
        base::after_action(s, ev)
    }

    #[inline(never)]
    fn legal_actions(&self, s: &GameState, seat: Seat, out: &mut Vec<LegalAction>) {
        legal::legal_actions(s, seat, out)
    }

    #[inline(never)]
    fn automated_step(&self, s: &mut GameState, ev: &mut Vec<Event>) -> Option<Seat> {
        let Phase::Variant(Step::SecondRoll { seat, first }) = *s.phase() else {
            return None;
        };
        roll::second_roll(s, seat, first, ev);
        decisions::settle(s, ev);
        Some(seat)
    }

    fn timeout_decision(&self, s: &GameState, seat: Seat) -> Option<Action> {
        timeout::decision(s, seat)
    }

    fn public_state(&self, s: &GameState, viewer: Option<Seat>) -> VariantState {
        let mut public = ck(s).redacted_for(viewer);
        public.hand_counts = Some(GameState::real_seats().map(|seat| {
            let hand = s.player(seat).hand;
            state::HandCounts {
                resources: hand.resources().total() as u8,
                commodities: hand.commodities().total() as u8,
            }
        }));
        // The hand a Master Merchant shows its player, while they pick
        // from it (§6.16): the client needs it to choose.
        if let Some(seat) = viewer.filter(|&v| self.opponent_hand_shown(s, v)) {
            public.shown_hand = Some(s.player(seat.opponent()).hand);
        }
        VariantState::CkForTwo(Box::new(public))
    }

    fn perturb_hidden(&self, s: &mut GameState, viewer: Seat, rng: &mut GameRng) {
        ck_mut(s).perturb_hidden(viewer, rng);
    }

    fn opponent_hand_shown(&self, s: &GameState, viewer: Seat) -> bool {
        matches!(s.phase(), Phase::Variant(Step::MasterMerchantPick { seat, .. }) if *seat == viewer)
    }

    fn visible_vp(&self, s: &GameState, seat: Seat) -> u8 {
        visible_vp(s, seat)
    }

    fn check(&self, s: &GameState) -> Result<(), String> {
        check::check(s)
    }

    fn after_build(&self, s: &mut GameState, owner: Seat, built: Built, ev: &mut Vec<Event>) {
        if !owner.is_real() {
            return;
        }
        if let Built::Settlement(node) | Built::SetupCity(node) = built {
            s.earn_settlement_tokens(owner, node, ev);
        }
        if !s.in_setup() {
            s.owe_neutral_piece(owner, built, ev);
        }
    }

    fn receives_resources(&self, _s: &GameState, seat: Seat) -> bool {
        seat.is_real()
    }

    fn discard_limit(&self, s: &GameState, seat: Seat) -> u8 {
        s.rules.discard_limit + 2 * cities::walls_of(s, seat)
    }

    fn turn_started(&self, s: &mut GameState, _seat: Seat, _ev: &mut Vec<Event>) {
        let c = ck_mut(s);
        c.tokens.turn_started();
        c.fleet = Default::default();
        for k in &mut c.knights {
            k.activated = false;
            k.promoted = false;
        }
    }

    fn occupied_nodes(&self, s: &GameState) -> u64 {
        ck(s).knight_nodes()
    }

    fn piece_blockers(&self, s: &GameState, seat: Seat) -> u64 {
        ck(s)
            .knights
            .iter()
            .filter(|k| k.owner != seat)
            .fold(0, |m, k| m | (1 << k.node))
    }

    fn city_pieces_as_settlements(&self, s: &GameState, seat: Seat) -> u8 {
        ck(s)
            .tipped
            .iter()
            .filter(|&n| s.building_at(n).is_some_and(|b| b.owner == seat))
            .count() as u8
    }
}

/// `seat`'s cities (not tipped), by node.
pub(crate) fn cities_of(s: &GameState, seat: Seat) -> impl Iterator<Item = NodeId> + '_ {
    s.buildings.iter().enumerate().filter_map(move |(n, b)| {
        matches!(b, Some(b) if b.owner == seat && b.kind == BuildingKind::City)
            .then_some(n as NodeId)
    })
}
