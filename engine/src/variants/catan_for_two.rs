//! `catan_for_two`: the official two-player rules (RULES.md §3, seed 001).
//! Two neutral colours (seats 2 and 3) that the players build for, trade
//! tokens and their actions, and a double roll each turn.

use super::{Built, Step, VariantHooks, VariantState};
use crate::actions::{Action, LegalAction};
use crate::board::{Board, NodeId, topology};
use crate::error::ActionError;
use crate::events::{Event, TokenReason};
use crate::options::NeutralStart;
use crate::state::{GameState, Phase, PhaseKind, Piece, SeatKind};
use crate::types::{ResourceCounts, Seat};
use serde::{Deserialize, Serialize};

pub struct CatanForTwo;

pub const TOKENS_TOTAL: u8 = 20;
pub const TOKENS_AT_START: u8 = 5;
pub const TOKENS_PER_KNIGHT: u8 = 2;

/// Our marked start spots for the neutral colours (seat 2, seat 3): nodes
/// mirrored through the board centre, each touching three land hexes, on
/// the beginner board mountains 10 / fields 12 / hills 6 and fields 4 /
/// pasture 5 / pasture 11 (nine pips each), neither touching the desert.
pub const FIXED_NEUTRAL_NODES: [NodeId; 2] = [12, 41];

/// Bounds the second roll's re-rolls. Fair dice repeat a total with
/// probability at most 1/6 and the balanced deck refills long before it
/// could run out of other totals, so this is never reached; past it the
/// last roll stands.
const MAX_SECOND_ROLLS: usize = 256;

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

fn tokens(s: &GameState) -> Option<&Tokens> {
    match &s.variant {
        VariantState::CatanForTwo(t) => Some(t),
        _ => None,
    }
}

fn tokens_mut(s: &mut GameState) -> Option<&mut Tokens> {
    match &mut s.variant {
        VariantState::CatanForTwo(t) => Some(t),
        _ => None,
    }
}

/// The node at the mirror image of `n` through the board centre.
pub fn mirror(n: NodeId) -> Option<NodeId> {
    let t = topology();
    let p = &t.nodes[n as usize];
    t.nodes
        .iter()
        .find(|m| m.x == -p.x && m.y == -p.y)
        .map(|m| m.id)
}

/// Every mirrored pair of start spots on `board`: nodes touching three land
/// hexes, neither touching the desert, not adjacent (lower id first).
pub fn mirrored_start_pairs(board: &Board) -> Vec<[NodeId; 2]> {
    let t = topology();
    let desert = board.desert();
    let fits = |n: NodeId| {
        let hexes = &t.nodes[n as usize].hexes;
        hexes.len() == 3 && !hexes.iter().any(|h| Some(*h) == desert)
    };
    t.nodes
        .iter()
        .filter_map(|n| Some([n.id, mirror(n.id)?]))
        .filter(|&[a, b]| {
            a < b && fits(a) && fits(b) && !t.nodes[a as usize].neighbors.contains(&b)
        })
        .collect()
}

/// Tokens cost 1 when the player's visible VP are at most the opponent's, else 2.
pub fn action_cost(s: &GameState, seat: Seat) -> u8 {
    if s.player(seat).visible_vp <= s.player(seat.opponent()).visible_vp {
        1
    } else {
        2
    }
}

fn earn(s: &mut GameState, seat: Seat, n: u8, reason: TokenReason, ev: &mut Vec<Event>) {
    let Some(t) = tokens_mut(s) else { return };
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

fn neutrals(s: &GameState) -> impl Iterator<Item = Seat> + '_ {
    s.seats_of(SeatKind::Neutral)
}

fn neutral_settlement_sites(s: &GameState, n: Seat) -> crate::board::NodeSet {
    if s.player(n).settlements_left == 0 {
        return Default::default();
    }
    s.settlement_sites(n, false)
}

fn neutral_road_sites(s: &GameState, n: Seat) -> crate::board::EdgeSet {
    if s.player(n).roads_left == 0 {
        return Default::default();
    }
    s.road_sites(n, None)
}

fn in_setup(s: &GameState) -> bool {
    matches!(s.phases.first(), Some(Phase::Setup))
}

/// The token actions and the knight discard belong to one's own turn with
/// nothing else pending, before or after the roll.
fn check_own_turn(s: &GameState, seat: Seat, action: &'static str) -> Result<(), ActionError> {
    if !matches!(s.phase().kind(), PhaseKind::BeforeRoll | PhaseKind::Main) {
        return Err(ActionError::WrongPhase {
            action,
            phase: s.phase().name(),
        });
    }
    s.require_active(seat, action)
}

/// Validates a token action: once per turn, and the tokens to pay for it.
fn check_token_action(s: &GameState, seat: Seat, action: &'static str) -> Result<u8, ActionError> {
    check_own_turn(s, seat, action)?;
    let t = tokens(s).ok_or(ActionError::WrongPhase {
        action,
        phase: "no trade tokens in this game",
    })?;
    if t.action_used {
        return Err(ActionError::TokenActionUsed);
    }
    let cost = action_cost(s, seat);
    let held = t.held[seat.index()];
    if held < cost {
        return Err(ActionError::NoTokens { cost, held });
    }
    Ok(cost)
}

fn pay(s: &mut GameState, seat: Seat, cost: u8, ev: &mut Vec<Event>) {
    if let Some(t) = tokens_mut(s) {
        t.held[seat.index()] -= cost;
        t.supply += cost;
        t.action_used = true;
    }
    ev.push(Event::TokensPaid { seat, tokens: cost });
}

fn check_forced_trade(s: &GameState, seat: Seat) -> Result<u8, ActionError> {
    let cost = check_token_action(s, seat, "forced_trade")?;
    check_forced_trade_cards(s, seat)?;
    Ok(cost)
}

/// The forced trade's own conditions, beyond those of every token action.
fn check_forced_trade_cards(s: &GameState, seat: Seat) -> Result<(), ActionError> {
    let theirs = s.player(seat.opponent()).hand.total();
    if theirs == 0 {
        return Err(ActionError::OpponentHasNoCards);
    }
    let held = s.player(seat).hand.total() + theirs.min(2);
    if held < 2 {
        return Err(ActionError::TooFewCardsToGive { held });
    }
    Ok(())
}

fn forced_trade(s: &mut GameState, seat: Seat, ev: &mut Vec<Event>) -> Result<(), ActionError> {
    let cost = check_forced_trade(s, seat)?;
    let from = seat.opponent();
    pay(s, seat, cost, ev);
    let mut drawn = ResourceCounts::ZERO;
    for _ in 0..2 {
        let hand = s.player(from).hand;
        if hand.total() == 0 {
            break;
        }
        let k = s.rng.below(hand.total());
        if let Some(r) = hand.nth_card(k) {
            s.player_mut(from).hand[r] -= 1;
            drawn[r] += 1;
        }
    }
    s.player_mut(seat).hand.add(&drawn);
    ev.push(Event::ForcedTradeDrew {
        seat,
        from,
        cards: Some(drawn),
    });
    s.phases
        .push(Phase::Variant(Step::ForcedTradeGive { seat, to: from }));
    Ok(())
}

fn forced_trade_give(
    s: &mut GameState,
    seat: Seat,
    to: Seat,
    cards: &ResourceCounts,
    ev: &mut Vec<Event>,
) -> Result<(), ActionError> {
    if cards.total() != 2 {
        return Err(ActionError::InvalidTrade {
            reason: "a forced trade gives exactly two cards",
        });
    }
    if !s.player(seat).hand.contains(cards) {
        return Err(ActionError::CardsNotHeld);
    }
    s.player_mut(seat).hand.sub(cards);
    s.player_mut(to).hand.add(cards);
    ev.push(Event::ForcedTradeGave {
        seat,
        to,
        cards: Some(*cards),
    });
    s.pop_phase();
    Ok(())
}

fn robber_to_desert(s: &mut GameState, seat: Seat, ev: &mut Vec<Event>) -> Result<(), ActionError> {
    let cost = check_token_action(s, seat, "robber_to_desert")?;
    let Some(desert) = s.board.desert() else {
        return Err(ActionError::InvalidHex { hex: s.robber });
    };
    if s.robber == desert {
        return Err(ActionError::RobberMustMove);
    }
    pay(s, seat, cost, ev);
    s.robber = desert;
    ev.push(Event::RobberMoved { seat, hex: desert });
    Ok(())
}

fn discard_knight(s: &mut GameState, seat: Seat, ev: &mut Vec<Event>) -> Result<(), ActionError> {
    check_own_turn(s, seat, "discard_knight")?;
    let Some(t) = tokens(s) else {
        return Err(ActionError::TokenSupplyEmpty);
    };
    if t.knight_discarded {
        return Err(ActionError::KnightAlreadyDiscarded);
    }
    if s.player(seat).knights_played == 0 {
        return Err(ActionError::NoPlayedKnight);
    }
    if t.supply == 0 {
        return Err(ActionError::TokenSupplyEmpty);
    }
    let p = s.player_mut(seat);
    p.knights_played -= 1;
    p.knights_discarded += 1;
    if let Some(t) = tokens_mut(s) {
        t.knight_discarded = true;
    }
    ev.push(Event::KnightDiscarded { seat });
    s.reevaluate_largest_army_strictly(ev);
    earn(s, seat, TOKENS_PER_KNIGHT, TokenReason::Knight, ev);
    Ok(())
}

fn build_for_neutral(
    s: &mut GameState,
    neutral: Seat,
    built: Built,
    ev: &mut Vec<Event>,
) -> Result<(), ActionError> {
    let Phase::Variant(Step::NeutralBuild { piece, .. }) = *s.phase() else {
        return Err(ActionError::WrongPhase {
            action: match built {
                Built::Road(_) => "build_neutral_road",
                Built::Settlement(_) => "build_neutral_settlement",
            },
            phase: s.phase().name(),
        });
    };
    if !matches!(s.players.get(neutral.index()), Some(p) if p.kind == SeatKind::Neutral) {
        return Err(ActionError::NotANeutral { seat: neutral });
    }
    match (piece, built) {
        (Piece::Road, Built::Road(edge)) => {
            if s.player(neutral).roads_left == 0 {
                return Err(ActionError::NoPiecesLeft { piece: "road" });
            }
            s.check_road_site(neutral, edge, None)?;
            s.pop_phase();
            s.place_road(neutral, edge, true, ev);
        }
        (Piece::Settlement, Built::Settlement(node)) => {
            if s.player(neutral).settlements_left == 0 {
                return Err(ActionError::NoPiecesLeft {
                    piece: "settlement",
                });
            }
            s.check_settlement_site(neutral, node, false)?;
            s.pop_phase();
            s.place_settlement(neutral, node, true, ev);
        }
        (Piece::Road, _) => return Err(ActionError::WrongNeutralPiece { expected: "road" }),
        (Piece::Settlement, _) => {
            return Err(ActionError::WrongNeutralPiece {
                expected: "settlement",
            });
        }
    }
    // The neutral piece may have taken the last edge a Road Building card
    // still had to fill; that step then ends here.
    if let Some(Phase::RoadBuilding { .. }) = s.phases.last() {
        let top = s.phases.len() - 1;
        s.finish_road_building_if_done(top);
    }
    Ok(())
}

/// After `owner` built outside set-up: the neutral piece they owe, with the
/// settlement-to-road fallback, or nothing when no neutral can take one.
fn owe_neutral_piece(s: &mut GameState, owner: Seat, built: Built, ev: &mut Vec<Event>) {
    let owed = match built {
        Built::Road(_) => Piece::Road,
        Built::Settlement(_) => Piece::Settlement,
    };
    let any_settlement = || neutrals(s).any(|n| !neutral_settlement_sites(s, n).is_empty());
    let any_road = || neutrals(s).any(|n| !neutral_road_sites(s, n).is_empty());
    let piece = if owed == Piece::Settlement && any_settlement() {
        Piece::Settlement
    } else if any_road() {
        Piece::Road
    } else {
        ev.push(Event::NeutralBuildSkipped {
            seat: owner,
            piece: owed,
        });
        return;
    };
    s.phases
        .push(Phase::Variant(Step::NeutralBuild { seat: owner, piece }));
}

impl VariantHooks for CatanForTwo {
    fn init(&self, s: &mut GameState, ev: &mut Vec<Event>) {
        let seats = [
            s.add_automated_seat(SeatKind::Neutral),
            s.add_automated_seat(SeatKind::Neutral),
        ];
        let nodes = match s.rules.neutral_start {
            NeutralStart::Fixed => FIXED_NEUTRAL_NODES,
            NeutralStart::Random => {
                let pairs = mirrored_start_pairs(&s.board);
                match pairs.len() {
                    0 => FIXED_NEUTRAL_NODES,
                    n => pairs[s.rng.below(n as u32) as usize],
                }
            }
        };
        for (seat, node) in seats.into_iter().zip(nodes) {
            s.place_settlement(seat, node, true, ev);
        }
        s.variant = VariantState::CatanForTwo(Tokens {
            held: [TOKENS_AT_START; 2],
            supply: TOKENS_TOTAL - 2 * TOKENS_AT_START,
            action_used: false,
            knight_discarded: false,
        });
    }

    fn after_build(&self, s: &mut GameState, owner: Seat, built: Built, ev: &mut Vec<Event>) {
        if !owner.is_real() {
            return;
        }
        if let Built::Settlement(node) = built {
            let topo = topology();
            let desert = s
                .board
                .desert()
                .is_some_and(|d| topo.nodes[node as usize].hexes.contains(&d));
            let coast = topo.is_coastal_node(node);
            let earned = match (desert, coast) {
                (true, true) => Some((3, TokenReason::DesertAndCoast)),
                (true, false) => Some((2, TokenReason::Desert)),
                (false, true) => Some((1, TokenReason::Coast)),
                (false, false) => None,
            };
            if let Some((n, reason)) = earned {
                earn(s, owner, n, reason, ev);
            }
        }
        if !in_setup(s) {
            owe_neutral_piece(s, owner, built, ev);
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
        if let Some(t) = tokens_mut(s) {
            t.action_used = false;
            t.knight_discarded = false;
        }
    }

    fn automated_step(&self, s: &mut GameState, ev: &mut Vec<Event>) -> Option<Seat> {
        let Phase::Variant(Step::SecondRoll { seat, first }) = *s.phase() else {
            return None;
        };
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
        Some(seat)
    }

    fn dispatch(
        &self,
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
                build_for_neutral(s, *neutral, Built::Road(*edge), ev)
            }
            Action::BuildNeutralSettlement { neutral, node } => {
                build_for_neutral(s, *neutral, Built::Settlement(*node), ev)
            }
            Action::ForcedTradeGive { cards } => match pending {
                Some(Some(to)) => forced_trade_give(s, seat, to, cards, ev),
                _ => Err(ActionError::WrongPhase {
                    action: action.name(),
                    phase: s.phase().name(),
                }),
            },
            _ if pending.is_some() => Err(ActionError::WrongPhase {
                action: action.name(),
                phase: s.phase().name(),
            }),
            Action::ForcedTrade => forced_trade(s, seat, ev),
            Action::RobberToDesert => robber_to_desert(s, seat, ev),
            Action::DiscardKnight => discard_knight(s, seat, ev),
            _ => return None,
        })
    }

    fn legal_actions(&self, s: &GameState, seat: Seat, out: &mut Vec<LegalAction>) {
        match *s.phase() {
            Phase::Variant(Step::NeutralBuild { seat: b, piece }) if b == seat => {
                for n in neutrals(s) {
                    match piece {
                        Piece::Settlement => {
                            let nodes = neutral_settlement_sites(s, n);
                            if !nodes.is_empty() {
                                out.push(LegalAction::BuildNeutralSettlement { neutral: n, nodes });
                            }
                        }
                        Piece::Road => {
                            let edges = neutral_road_sites(s, n);
                            if !edges.is_empty() {
                                out.push(LegalAction::BuildNeutralRoad { neutral: n, edges });
                            }
                        }
                    }
                }
            }
            Phase::Variant(Step::ForcedTradeGive { seat: g, .. }) if g == seat => {
                out.push(LegalAction::ForcedTradeGive { count: 2 });
            }
            Phase::BeforeRoll | Phase::Main if seat == s.active => {
                if let Ok(cost) = check_token_action(s, seat, "forced_trade") {
                    if check_forced_trade_cards(s, seat).is_ok() {
                        out.push(LegalAction::ForcedTrade { cost });
                    }
                    if s.board.desert().is_some_and(|d| d != s.robber) {
                        out.push(LegalAction::RobberToDesert { cost });
                    }
                }
                if let Some(t) = tokens(s)
                    && !t.knight_discarded
                    && t.supply > 0
                    && s.player(seat).knights_played > 0
                {
                    out.push(LegalAction::DiscardKnight);
                }
            }
            _ => {}
        }
    }
}
