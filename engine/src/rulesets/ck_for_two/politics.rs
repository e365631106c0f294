//! The Politics (blue) progress cards (RULES.md §6.13): Bishop,
//! Constitution (laid down, `progress`), Deserter, Diplomat, Intrigue,
//! Saboteur, Spy, Warlord and Wedding, with the decisions they owe.

use super::progress::{refused, spend_card};
use super::state::KnightLevel;
use super::wire::{DeserterTarget, ProgressOption, ProgressPlay};
use super::{ck, ck_mut, knights, roll};
use crate::board::{EdgeId, EdgeSet, NodeId, NodeSet, topology};
use crate::cards::{ProgressCard, ProgressCounts};
use crate::error::ActionError;
use crate::events::{Event, KnightRemoval};
use crate::phases::Phase;
use crate::rulesets::Step;
use crate::seats::Seat;
use crate::state::GameState;

pub(super) fn play(
    s: &mut GameState,
    seat: Seat,
    play: &ProgressPlay,
    ev: &mut Vec<Event>,
) -> Result<(), ActionError> {
    use ProgressCard as C;
    use ProgressPlay as P;
    let opponent = seat.opponent();
    match *play {
        P::Bishop { hex, victim } => {
            if !roll::robber_unlocked(s) {
                return Err(ActionError::RobberLocked);
            }
            s.check_robber_move(seat, hex, victim)?;
            spend_card(s, seat, C::Bishop, ev);
            s.do_robber_move(seat, hex, victim, ev);
        }
        P::Deserter { target, node } => deserter(s, seat, target, node, ev)?,
        P::Diplomat { edge } => {
            if (edge as usize) >= s.roads.len() || !open_roads(s).contains(edge) {
                return Err(refused(C::Diplomat, "only an open road can be removed"));
            }
            spend_card(s, seat, C::Diplomat, ev);
            let owner = s.take_road(edge, ev).expect("an open road is on the board");
            ev.push(Event::RoadRemoved {
                seat: owner,
                edge,
                by: seat,
            });
            if owner == seat && !replacement_edges(s, seat, edge).is_empty() {
                s.phases.push(Phase::Variant(Step::DiplomatRoad {
                    seat,
                    removed: edge,
                }));
            }
        }
        P::Intrigue { node } => {
            if !intrigue_targets(s, seat).contains(node) {
                return Err(refused(
                    C::Intrigue,
                    "another colour's knight on a node at an end of one of your roads",
                ));
            }
            spend_card(s, seat, C::Intrigue, ev);
            let knight = knights::take(s, node, ev).expect("checked: a knight stands there");
            ev.push(Event::KnightDisplaced {
                seat,
                from: None,
                node,
                owner: knight.owner,
            });
            knights::start_retreat(s, knight, node, ev);
        }
        P::Saboteur => {
            let owed = saboteur_discard(s, seat);
            if owed == 0 {
                return Err(refused(
                    C::Saboteur,
                    "the opponent has fewer VP than you or no cards to halve",
                ));
            }
            spend_card(s, seat, C::Saboteur, ev);
            let owed = vec![(opponent, owed)];
            ev.push(Event::DiscardsRequired { owed: owed.clone() });
            s.phases.push(Phase::Discard { owed });
        }
        P::Spy => {
            let theirs = ck(s).player(opponent).hand();
            if theirs.is_empty() {
                return Err(refused(C::Spy, "the opponent holds no progress card"));
            }
            spend_card(s, seat, C::Spy, ev);
            ev.push(Event::ProgressHandShown {
                seat,
                of: opponent,
                cards: Some(theirs),
            });
            s.phases.push(Phase::Variant(Step::SpyPick { seat }));
        }
        P::Warlord => {
            let inactive = inactive_knights(s, seat);
            if inactive.is_empty() {
                return Err(refused(C::Warlord, "none of your knights is inactive"));
            }
            spend_card(s, seat, C::Warlord, ev);
            for node in inactive.iter() {
                knights::set_active(s, node);
                ev.push(Event::KnightActivated {
                    seat,
                    node,
                    free: true,
                });
            }
        }
        P::Wedding => {
            let theirs = s.player(opponent).hand.total();
            if !opponent_leads(s, seat) || theirs == 0 {
                return Err(refused(
                    C::Wedding,
                    "the opponent must have more VP than you and hold a card",
                ));
            }
            spend_card(s, seat, C::Wedding, ev);
            owe_cards(s, opponent, seat, 2, false, ev);
        }
        _ => unreachable!("routed here for politics cards only"),
    }
    Ok(())
}

/// The opponent has more visible VP (every VP is visible in this variant).
pub(super) fn opponent_leads(s: &GameState, seat: Seat) -> bool {
    s.player(seat.opponent()).visible_vp > s.player(seat).visible_vp
}

/// What a Saboteur makes the opponent discard: half their cards, when
/// they have at least as many VP.
fn saboteur_discard(s: &GameState, seat: Seat) -> u8 {
    let opponent = seat.opponent();
    if s.player(opponent).visible_vp < s.player(seat).visible_vp {
        return 0;
    }
    (s.player(opponent).hand.total() / 2) as u8
}

/// `from` owes `to` `count` cards of its choice (fewer if it holds fewer;
/// commodities only if `commodities_only`): given at once when there is no
/// choice, else asked.
pub(super) fn owe_cards(
    s: &mut GameState,
    from: Seat,
    to: Seat,
    count: u8,
    commodities_only: bool,
    ev: &mut Vec<Event>,
) {
    let hand = s.player(from).hand;
    let eligible = if commodities_only {
        hand.commodities()
    } else {
        hand
    };
    let count = count.min(eligible.total() as u8);
    if count == 0 {
        return;
    }
    if eligible.total() == count as u32 {
        give(s, from, to, &eligible, ev);
    } else {
        s.phases.push(Phase::Variant(Step::GiveCards {
            seat: from,
            to,
            count,
            commodities_only,
        }));
    }
}

fn give(s: &mut GameState, from: Seat, to: Seat, cards: &crate::cards::Cards, ev: &mut Vec<Event>) {
    s.player_mut(from).hand.sub(cards);
    s.player_mut(to).hand.add(cards);
    ev.push(Event::CardsGiven {
        seat: from,
        to,
        cards: Some(*cards),
    });
}

/// The cards a player owing some gives.
pub(super) fn give_cards(
    s: &mut GameState,
    seat: Seat,
    cards: &crate::cards::Cards,
    ev: &mut Vec<Event>,
) -> Result<(), ActionError> {
    let Phase::Variant(Step::GiveCards {
        to,
        count,
        commodities_only,
        ..
    }) = *s.phase()
    else {
        unreachable!("routed here only in the give step");
    };
    if cards.total() != count as u32 {
        return Err(ActionError::WrongDiscardCount {
            expected: count,
            got: cards.total(),
        });
    }
    if commodities_only && !cards.resources().is_empty() {
        return Err(ActionError::InvalidChoice {
            reason: "give commodities only",
        });
    }
    if !s.player(seat).hand.contains(cards) {
        return Err(ActionError::CardsNotHeld);
    }
    s.pop_phase();
    give(s, seat, to, cards, ev);
    Ok(())
}

fn inactive_knights(s: &GameState, seat: Seat) -> NodeSet {
    ck(s)
        .knights
        .iter()
        .filter(|k| k.owner == seat && !k.active)
        .map(|k| k.node)
        .collect()
}

/// Whom a Deserter may be played on: the opponent with a knight (who
/// picks it), each neutral with a knight and its weakest knights.
fn deserter_targets(s: &GameState, seat: Seat) -> Vec<DeserterTarget> {
    let c = ck(s);
    let mut out = Vec::new();
    let opponent = seat.opponent();
    if c.knights.iter().any(|k| k.owner == opponent) {
        out.push(DeserterTarget {
            target: opponent,
            nodes: NodeSet::default(),
        });
    }
    for n in s.neutrals() {
        let theirs = || c.knights.iter().filter(move |k| k.owner == n);
        if let Some(weakest) = theirs().map(|k| k.level).min() {
            out.push(DeserterTarget {
                target: n,
                nodes: theirs()
                    .filter(|k| k.level == weakest)
                    .map(|k| k.node)
                    .collect(),
            });
        }
    }
    out
}

fn deserter(
    s: &mut GameState,
    seat: Seat,
    target: Seat,
    node: Option<NodeId>,
    ev: &mut Vec<Event>,
) -> Result<(), ActionError> {
    let card = ProgressCard::Deserter;
    let Some(t) = deserter_targets(s, seat)
        .into_iter()
        .find(|t| t.target == target)
    else {
        return Err(refused(card, "the opponent or a neutral with a knight"));
    };
    if target.is_real() {
        if node.is_some() {
            return Err(refused(
                card,
                "the opponent chooses which knight to give up",
            ));
        }
        spend_card(s, seat, card, ev);
        let theirs: Vec<NodeId> = ck(s)
            .knights
            .iter()
            .filter(|k| k.owner == target)
            .map(|k| k.node)
            .collect();
        match theirs.as_slice() {
            [only] => desert(s, *only, seat, ev),
            _ => s.phases.push(Phase::Variant(Step::GiveUpKnight {
                seat: target,
                to: seat,
            })),
        }
        return Ok(());
    }
    let node = match (node, t.nodes.len()) {
        (Some(n), _) if t.nodes.contains(n) => n,
        (None, 1) => t.nodes.nth(0).expect("one node"),
        _ => {
            return Err(refused(card, "name one of the neutral's weakest knights"));
        }
    };
    spend_card(s, seat, card, ev);
    desert(s, node, seat, ev);
    Ok(())
}

/// The knight on `node` deserts to `to`, who may then place one like it.
fn desert(s: &mut GameState, node: NodeId, to: Seat, ev: &mut Vec<Event>) {
    let Some(k) = knights::take(s, node, ev) else {
        return;
    };
    ev.push(Event::KnightRemoved {
        seat: k.owner,
        node,
        level: k.level,
        reason: KnightRemoval::Deserter,
    });
    let level = [k.level, KnightLevel::Basic]
        .into_iter()
        .find(|&l| knights::in_supply(s, to, l));
    if let Some(level) = level
        && !knights::recruit_sites(s, to).is_empty()
    {
        s.phases.push(Phase::Variant(Step::DeserterKnight {
            seat: to,
            level,
            active: k.owner.is_real() && k.active,
        }));
    }
}

/// The knight the opponent gives up to the Deserter.
pub(super) fn give_up_knight(
    s: &mut GameState,
    seat: Seat,
    to: Seat,
    node: NodeId,
    ev: &mut Vec<Event>,
) -> Result<(), ActionError> {
    if ck(s).knight_at(node).is_none_or(|k| k.owner != seat) {
        return Err(ActionError::InvalidChoice {
            reason: "one of your knights",
        });
    }
    s.pop_phase();
    desert(s, node, to, ev);
    Ok(())
}

/// The Deserter's knight, on a legal recruit node, or none.
pub(super) fn place_deserter(
    s: &mut GameState,
    seat: Seat,
    level: KnightLevel,
    active: bool,
    node: Option<NodeId>,
    ev: &mut Vec<Event>,
) -> Result<(), ActionError> {
    if let Some(n) = node
        && !knights::recruit_sites(s, seat).contains(n)
    {
        return Err(ActionError::InvalidChoice {
            reason: "an empty node at an end of one of your roads",
        });
    }
    s.pop_phase();
    if let Some(n) = node {
        knights::place(s, seat, n, level, active, true, ev);
    }
    Ok(())
}

/// Roads of any colour that are open: at one end no piece of their colour
/// (settlement, city, knight or other road), and whose removal leaves no
/// knight of their colour without a road of that colour.
pub(super) fn open_roads(s: &GameState) -> EdgeSet {
    let topo = topology();
    let c = ck(s);
    let other_road_at = |owner: Seat, n: NodeId, except: usize| {
        topo.nodes[n as usize]
            .edges
            .iter()
            .any(|&e| e as usize != except && s.roads[e as usize] == Some(owner))
    };
    let knight_of = |owner: Seat, n: NodeId| c.knight_at(n).is_some_and(|k| k.owner == owner);
    s.roads
        .iter()
        .enumerate()
        .filter_map(|(e, r)| r.map(|owner| (e, owner)))
        .filter(|&(e, owner)| {
            let ends = topo.edges[e].nodes;
            let bare = |n: NodeId| {
                s.building_at(n).is_none_or(|b| b.owner != owner)
                    && !knight_of(owner, n)
                    && !other_road_at(owner, n, e)
            };
            let strands_knight = ends
                .iter()
                .any(|&n| knight_of(owner, n) && !other_road_at(owner, n, e));
            ends.iter().any(|&n| bare(n)) && !strands_knight
        })
        .map(|(e, _)| e as EdgeId)
        .collect()
}

/// Where the Diplomat's player may put their removed road again.
pub(super) fn replacement_edges(s: &GameState, seat: Seat, removed: EdgeId) -> EdgeSet {
    let mut edges = s.road_sites(seat, None);
    edges.remove(removed);
    edges
}

pub(super) fn replace_road(
    s: &mut GameState,
    seat: Seat,
    removed: EdgeId,
    edge: Option<EdgeId>,
    ev: &mut Vec<Event>,
) -> Result<(), ActionError> {
    if let Some(e) = edge
        && !replacement_edges(s, seat, removed).contains(e)
    {
        return Err(ActionError::InvalidChoice {
            reason: "another legal edge for your road",
        });
    }
    s.pop_phase();
    if let Some(e) = edge {
        s.put_road(seat, e, true, ev);
    }
    Ok(())
}

/// Knights of other colours an Intrigue may drive off: on a node at an
/// end of one of `seat`'s roads.
pub(super) fn intrigue_targets(s: &GameState, seat: Seat) -> NodeSet {
    let topo = topology();
    ck(s)
        .knights
        .iter()
        .filter(|k| {
            k.owner != seat
                && topo.nodes[k.node as usize]
                    .edges
                    .iter()
                    .any(|&e| s.roads[e as usize] == Some(seat))
        })
        .map(|k| k.node)
        .collect()
}

/// Spy: one of the opponent's progress cards, or none.
pub(super) fn spy_take(
    s: &mut GameState,
    seat: Seat,
    card: Option<ProgressCard>,
    ev: &mut Vec<Event>,
) -> Result<(), ActionError> {
    let from = seat.opponent();
    if let Some(c) = card
        && !ck(s).holds(from, c)
    {
        return Err(ActionError::InvalidChoice {
            reason: "a card the opponent holds",
        });
    }
    s.pop_phase();
    if let Some(c) = card {
        let st = ck_mut(s);
        st.release(from, c);
        st.hold(seat, c);
        ev.push(Event::ProgressTaken {
            seat,
            from,
            card: Some(c),
        });
    }
    Ok(())
}

/// The politics cards `seat` may play now, each with its choices.
pub(super) fn options(s: &GameState, seat: Seat, out: &mut Vec<ProgressOption>) {
    let hand: ProgressCounts = ck(s).player(seat).hand();
    let opponent = seat.opponent();
    if hand[ProgressCard::Bishop] > 0 && roll::robber_unlocked(s) {
        out.push(ProgressOption::Bishop {
            targets: s.robber_targets(seat),
        });
    }
    if hand[ProgressCard::Deserter] > 0 {
        let targets = deserter_targets(s, seat);
        if !targets.is_empty() {
            out.push(ProgressOption::Deserter { targets });
        }
    }
    if hand[ProgressCard::Diplomat] > 0 {
        let edges = open_roads(s);
        if !edges.is_empty() {
            out.push(ProgressOption::Diplomat { edges });
        }
    }
    if hand[ProgressCard::Intrigue] > 0 {
        let nodes = intrigue_targets(s, seat);
        if !nodes.is_empty() {
            out.push(ProgressOption::Intrigue { nodes });
        }
    }
    if hand[ProgressCard::Saboteur] > 0 && saboteur_discard(s, seat) > 0 {
        out.push(ProgressOption::Saboteur);
    }
    if hand[ProgressCard::Spy] > 0 && ck(s).player(opponent).progress.count > 0 {
        out.push(ProgressOption::Spy);
    }
    if hand[ProgressCard::Warlord] > 0 && !inactive_knights(s, seat).is_empty() {
        out.push(ProgressOption::Warlord);
    }
    if hand[ProgressCard::Wedding] > 0
        && opponent_leads(s, seat)
        && s.player(opponent).hand.total() > 0
    {
        out.push(ProgressOption::Wedding);
    }
}
