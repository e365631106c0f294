//! The base game (RULES.md §1) composed from the parts: which action each
//! phase takes, and the single source of legal actions. Every ruleset's
//! defaults (`contract::Ruleset`) come from here; a ruleset calls these
//! for what it keeps of the base game.

use crate::actions::{Action, LegalAction};
use crate::cards::{Cards, cost};
use crate::error::ActionError;
use crate::events::Event;
use crate::phases::{Phase, PhaseKind, Piece};
use crate::seats::Seat;
use crate::state::{BANK_PER_RESOURCE, GameState};

/// The base game's cards: 19 of each resource.
pub const CARD_SUPPLY: Cards = Cards::new(
    BANK_PER_RESOURCE,
    BANK_PER_RESOURCE,
    BANK_PER_RESOURCE,
    BANK_PER_RESOURCE,
    BANK_PER_RESOURCE,
);

/// The base game's handler for `action` in the current phase.
pub fn apply(
    s: &mut GameState,
    seat: Seat,
    action: &Action,
    ev: &mut Vec<Event>,
) -> Result<(), ActionError> {
    use Action as A;
    use PhaseKind as P;
    let phase_name = s.phase().name();
    match (s.phase().kind(), action) {
        (_, a) if a.variant_only() => Err(ActionError::NotInVariant {
            action: a.name(),
            variant: s.rules.variant.id(),
        }),
        (P::Setup, A::BuildSettlement { node }) => s.setup_settlement(seat, *node, ev),
        (P::Setup, A::BuildRoad { edge }) => s.setup_road(seat, *edge, ev),
        (P::Setup, A::BuildCity { node })
            if s.current_setup_step()
                .is_some_and(|st| st.piece == Piece::City) =>
        {
            s.setup_city(seat, *node, ev)
        }
        (P::Discard, A::Discard { cards }) => s.discard(seat, cards, ev),
        (P::MoveRobber, A::MoveRobber { hex, victim }) => s.move_robber(seat, *hex, *victim, ev),
        (P::RoadBuilding, A::BuildRoad { edge }) => s.free_road(seat, *edge, ev),
        (P::Main, A::AcceptTrade) => s.accept_trade(seat, ev),
        (P::Main, A::DeclineTrade) => s.decline_trade(seat, ev),
        (P::Main, _) if seat != s.active => Err(ActionError::WrongPhase {
            action: action.name(),
            phase: "answering a trade offer",
        }),
        (P::BeforeRoll, A::RollDice) => s.roll(seat, ev),
        (P::BeforeRoll | P::Main, A::PlayKnight { hex, victim }) => {
            s.play_knight(seat, *hex, *victim, ev)
        }
        (P::BeforeRoll | P::Main, A::PlayRoadBuilding) => s.play_road_building(seat, ev),
        (P::BeforeRoll | P::Main, A::PlayYearOfPlenty { resources }) => {
            s.play_year_of_plenty(seat, resources, ev)
        }
        (P::BeforeRoll | P::Main, A::PlayMonopoly { resource }) => {
            s.play_monopoly(seat, *resource, ev)
        }
        (P::Main, A::EndTurn) => s.end_turn(seat, ev),
        (P::Main, A::BuildRoad { edge }) => s.build_road(seat, *edge, ev),
        (P::Main, A::BuildSettlement { node }) => s.build_settlement(seat, *node, ev),
        (P::Main, A::BuildCity { node }) => s.build_city(seat, *node, ev),
        (P::Main, A::BuyDevelopmentCard) => s.buy_dev_card(seat, ev),
        (
            P::Main,
            A::MaritimeTrade {
                give,
                receive,
                ratio,
            },
        ) => s.maritime_trade(seat, *give, *receive, *ratio, ev),
        (P::Main, A::OfferTrade { give, receive }) => s.offer_trade(seat, give, receive, ev),
        (P::Main, A::WithdrawTrade) => s.withdraw_trade(seat, ev),
        (_, _) => Err(ActionError::WrongPhase {
            action: action.name(),
            phase: phase_name,
        }),
    }
}

/// Bookkeeping after every accepted action: lapse an offer the offerer can
/// no longer pay, check victory.
pub fn after_action(s: &mut GameState, ev: &mut Vec<Event>) {
    s.lapse_unpayable_offer(ev);
    s.check_victory(ev);
}

/// What `seat` may do in the base game's phases (nothing while a ruleset's
/// step is on top).
pub fn legal_actions(s: &GameState, seat: Seat, out: &mut Vec<LegalAction>) {
    match s.phase() {
        Phase::Setup => s.legal_setup(seat, out),
        Phase::BeforeRoll => {
            if seat == s.active {
                out.push(LegalAction::RollDice);
                s.legal_dev_plays(seat, out);
            }
        }
        Phase::Main => {
            if seat == s.active {
                legal_main(s, seat, out);
            } else {
                s.legal_answer(seat, out);
            }
        }
        Phase::Discard { owed } => {
            if let Some(&(_, n)) = owed.iter().find(|(s, n)| *s == seat && *n > 0) {
                out.push(LegalAction::Discard { count: n });
            }
        }
        Phase::MoveRobber { seat: mover } => {
            if *mover == seat {
                out.push(LegalAction::MoveRobber {
                    targets: s.robber_targets(seat),
                });
            }
        }
        Phase::RoadBuilding { seat: builder, .. } => {
            if *builder == seat {
                out.push(LegalAction::BuildRoad {
                    edges: s.road_sites(seat, None),
                    free: true,
                });
            }
        }
        Phase::Ended | Phase::Variant(_) => {}
    }
}

/// The active player's choices after the roll.
fn legal_main(s: &GameState, seat: Seat, out: &mut Vec<LegalAction>) {
    out.push(LegalAction::EndTurn);
    legal_builds(s, seat, out);
    if s.may_buy_dev_card(seat) {
        out.push(LegalAction::BuyDevelopmentCard);
    }
    s.legal_dev_plays(seat, out);
    s.legal_maritime(seat, out);
    s.legal_offer(seat, out);
}

/// The roads, settlements and cities `seat` can afford and place.
pub fn legal_builds(s: &GameState, seat: Seat, out: &mut Vec<LegalAction>) {
    legal_roads_and_settlements(s, seat, out);
    let p = s.player(seat);
    if p.cities_left > 0 && p.hand.contains(&cost::CITY) {
        let nodes = s.city_sites(seat);
        if !nodes.is_empty() {
            out.push(LegalAction::BuildCity { nodes });
        }
    }
}

/// The roads and settlements `seat` can afford and place.
pub fn legal_roads_and_settlements(s: &GameState, seat: Seat, out: &mut Vec<LegalAction>) {
    let p = s.player(seat);
    if p.roads_left > 0 && p.hand.contains(&cost::ROAD) {
        let edges = s.road_sites(seat, None);
        if !edges.is_empty() {
            out.push(LegalAction::BuildRoad { edges, free: false });
        }
    }
    if p.settlements_left > 0 && p.hand.contains(&cost::SETTLEMENT) {
        let nodes = s.settlement_sites(seat, false);
        if !nodes.is_empty() {
            out.push(LegalAction::BuildSettlement { nodes, free: false });
        }
    }
}
