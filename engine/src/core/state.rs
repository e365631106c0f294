//! The complete state of one game: the core's data, each part's, and the
//! ruleset's own. It is plain data: it round-trips exactly, RNG included,
//! so a stored game resumes where it was. Its stored JSON form is defined
//! apart from this layout (`core::stored`), because stored states are
//! hashed into the move log and must read back byte for byte.

use super::board::{Board, EdgeId, HexId, NodeId};
use super::cards::Cards;
use super::dice::Dice;
use super::phases::{Phase, Setup, SetupStep};
use super::rng::GameRng;
use super::seats::{Seat, SeatKind, SeatList};
use crate::options::Rules;
use crate::parts::dev_cards::DevCards;
use crate::parts::trade::TradeOffer;
use crate::rulesets::{AnyRuleset, VariantState};

pub const ROADS_PER_PLAYER: u8 = 15;
pub const SETTLEMENTS_PER_PLAYER: u8 = 5;
pub const CITIES_PER_PLAYER: u8 = 4;
pub const BANK_PER_RESOURCE: u8 = 19;
/// Two real seats plus at most two automated ones.
pub const MAX_SEATS: usize = 4;

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BuildingKind {
    Settlement,
    City,
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Building {
    pub owner: Seat,
    pub kind: BuildingKind,
}

/// What the core keeps of each seat: its hand, its pieces in supply, and
/// the victory points and road length everyone can see.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    pub seat: Seat,
    pub kind: SeatKind,
    pub hand: Cards,
    pub roads_left: u8,
    pub settlements_left: u8,
    pub cities_left: u8,
    /// Victory points everyone can see, kept up to date incrementally by
    /// the parts that award them; the ruleset's recount is the reference.
    pub visible_vp: u8,
    /// Length of this player's longest road, kept up to date.
    pub road_length: u8,
}

impl Player {
    pub fn new(seat: Seat, kind: SeatKind) -> Player {
        Player {
            seat,
            kind,
            hand: Cards::ZERO,
            roads_left: ROADS_PER_PLAYER,
            settlements_left: SETTLEMENTS_PER_PLAYER,
            cities_left: CITIES_PER_PLAYER,
            visible_vp: 0,
            road_length: 0,
        }
    }

    /// An automated seat's hand has no owner to hide it from, and every
    /// change to it is a public event, so it is shown to everyone.
    pub fn hand_is_public(&self) -> bool {
        self.kind != SeatKind::Real
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameState {
    pub rules: Rules,
    pub board: Board,
    /// By seat: the two real players, then the ruleset's automated seats.
    pub players: Vec<Player>,
    /// Indexed by node id.
    pub buildings: Vec<Option<Building>>,
    /// Indexed by edge id.
    pub roads: Vec<Option<Seat>>,
    pub robber: HexId,
    pub bank: Cards,
    pub dice: Dice,
    pub rng: GameRng,
    pub phases: Vec<Phase>,
    pub setup: Setup,
    pub active: Seat,
    pub turn: u32,
    pub last_roll: Option<[u8; 2]>,
    /// The trade part: the domestic offer awaiting an answer.
    pub offer: Option<TradeOffer>,
    /// The awards part: who holds Longest Road.
    pub longest_road: Option<Seat>,
    /// The development-card part, in the rulesets that deal them.
    pub dev: Option<DevCards>,
    pub winner: Option<Seat>,
    /// The ruleset's own data (trade tokens, the shadow removal roll, …).
    /// What of it a seat may see is the ruleset's to say
    /// (`Ruleset::public_state`).
    pub variant: VariantState,
}

impl GameState {
    /// The ruleset this game plays by.
    pub fn ruleset(&self) -> AnyRuleset {
        AnyRuleset::of(self.rules.variant)
    }

    pub fn phase(&self) -> &Phase {
        self.phases.last().unwrap_or(&Phase::Ended)
    }

    pub fn player(&self, seat: Seat) -> &Player {
        &self.players[seat.index()]
    }

    pub fn player_mut(&mut self, seat: Seat) -> &mut Player {
        &mut self.players[seat.index()]
    }

    pub fn real_seats() -> [Seat; 2] {
        [Seat(0), Seat(1)]
    }

    pub fn is_over(&self) -> bool {
        self.winner.is_some() || matches!(self.phase(), Phase::Ended)
    }

    /// True while the set-up placements are being made.
    pub fn in_setup(&self) -> bool {
        matches!(self.phases.first(), Some(Phase::Setup))
    }

    pub fn current_setup_step(&self) -> Option<SetupStep> {
        self.setup.current()
    }

    /// Real seats whose decision the game is waiting for. Several at once
    /// when both must discard, or while a trade offer awaits an answer.
    pub fn awaiting(&self) -> SeatList {
        let mut out = SeatList::default();
        match self.phase() {
            Phase::Setup => {
                if let Some(s) = self.current_setup_step() {
                    out.push(s.seat);
                }
            }
            Phase::BeforeRoll => out.push(self.active),
            Phase::Main => {
                out.push(self.active);
                if let Some(o) = &self.offer {
                    out.push(o.to);
                }
            }
            Phase::Discard { owed } => {
                for (s, n) in owed {
                    if *n > 0 && s.is_real() {
                        out.push(*s);
                    }
                }
            }
            Phase::MoveRobber { seat } | Phase::RoadBuilding { seat, .. } => out.push(*seat),
            Phase::Ended => {}
            Phase::Variant(step) => step.awaiting(&mut out),
        }
        out
    }

    /// Real seats whose last decision is sealed: the step it answered
    /// keeps it from every other seat until it reveals all answers at once
    /// (the first bids of a shadow auction). Whatever shows a decision to
    /// another seat (the log's action and signed move) holds a sealed one
    /// back while its seat is in this list. A seat in it decides nothing
    /// more until its answer is revealed (`invariants::check_state`), so
    /// the sealed answer is always that seat's last decision.
    pub fn sealed_answers(&self) -> SeatList {
        let mut out = SeatList::default();
        for phase in &self.phases {
            if let Phase::Variant(step) = phase {
                step.sealed_answers(&mut out);
            }
        }
        out
    }

    /// Adds an automated seat (neutral or fictional) with the next seat number.
    pub(crate) fn add_automated_seat(&mut self, kind: SeatKind) -> Seat {
        let seat = Seat(self.players.len() as u8);
        self.players.push(Player::new(seat, kind));
        if let Some(dev) = &mut self.dev {
            dev.hands.push(Default::default());
        }
        seat
    }

    /// Seats of the given kind, in seat order.
    pub fn seats_of(&self, kind: SeatKind) -> impl Iterator<Item = Seat> + '_ {
        self.players
            .iter()
            .filter(move |p| p.kind == kind)
            .map(|p| p.seat)
    }

    pub fn building_at(&self, node: NodeId) -> Option<Building> {
        self.buildings.get(node as usize).copied().flatten()
    }

    pub fn road_at(&self, edge: EdgeId) -> Option<Seat> {
        self.roads.get(edge as usize).copied().flatten()
    }

    /// Pops the top phase, or leaves the last one in place.
    pub(crate) fn pop_phase(&mut self) {
        if self.phases.len() > 1 {
            self.phases.pop();
        }
    }
}
