//! The complete state of one game. It is plain data: it serializes and
//! round-trips exactly, RNG included, so a stored game resumes where it was.

use crate::board::topology::{EDGE_COUNT, NODE_COUNT};
use crate::board::{Board, EdgeId, HexId, LayoutKind, NodeId, topology};
use crate::events::Event;
use crate::options::{ConfigError, GameConfig, Rules};
use crate::rng::{Dice, GameRng};
use crate::types::{DevCard, DevCounts, ResourceCounts, Seat, SeatList};
use crate::variants::{self, Step, VariantState};
use serde::{Deserialize, Serialize};

pub const ROADS_PER_PLAYER: u8 = 15;
pub const SETTLEMENTS_PER_PLAYER: u8 = 5;
pub const CITIES_PER_PLAYER: u8 = 4;
pub const BANK_PER_RESOURCE: u8 = 19;
/// Two real seats plus at most two automated ones.
pub const MAX_SEATS: usize = 4;

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeatKind {
    Real,
    /// A colour the real players build for (catan_for_two) or that trades
    /// by itself (neutral_trader).
    Neutral,
    /// A player who only rolls (shadow).
    Fictional,
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BuildingKind {
    Settlement,
    City,
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Building {
    pub owner: Seat,
    pub kind: BuildingKind,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    pub seat: Seat,
    pub kind: SeatKind,
    pub hand: ResourceCounts,
    /// Development cards that may be played (bought before this turn).
    pub dev_cards: DevCounts,
    /// Bought this turn: not playable until the owner's next turn.
    pub new_dev_cards: DevCounts,
    /// Knights played and still counting for largest army.
    pub knights_played: u8,
    /// Played knights discarded again (catan_for_two trades them for
    /// tokens): `knights_played + knights_discarded == played_dev.knight`.
    #[serde(default)]
    pub knights_discarded: u8,
    /// Every development card played so far, by kind (public).
    pub played_dev: DevCounts,
    pub roads_left: u8,
    pub settlements_left: u8,
    pub cities_left: u8,
    /// Victory points everyone can see (buildings and awards), kept up to
    /// date incrementally.
    pub visible_vp: u8,
    /// Length of this player's longest road, kept up to date.
    pub road_length: u8,
}

impl Player {
    pub fn new(seat: Seat, kind: SeatKind) -> Player {
        Player {
            seat,
            kind,
            hand: ResourceCounts::ZERO,
            dev_cards: DevCounts::default(),
            new_dev_cards: DevCounts::default(),
            knights_played: 0,
            knights_discarded: 0,
            played_dev: DevCounts::default(),
            roads_left: ROADS_PER_PLAYER,
            settlements_left: SETTLEMENTS_PER_PLAYER,
            cities_left: CITIES_PER_PLAYER,
            visible_vp: 0,
            road_length: 0,
        }
    }

    pub fn hidden_vp(&self) -> u8 {
        self.dev_cards.victory_point + self.new_dev_cards.victory_point
    }

    pub fn total_vp(&self) -> u8 {
        self.visible_vp + self.hidden_vp()
    }

    pub fn dev_card_count(&self) -> u32 {
        self.dev_cards.total() + self.new_dev_cards.total()
    }

    /// An automated seat's hand has no owner to hide it from, and every
    /// change to it is a public event, so it is shown to everyone.
    pub fn hand_is_public(&self) -> bool {
        self.kind != SeatKind::Real
    }
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Piece {
    Settlement,
    Road,
}

/// One placement of the set-up: who decides, whose piece, and whether it is
/// the settlement that yields starting resources.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SetupStep {
    pub seat: Seat,
    pub owner: Seat,
    pub piece: Piece,
    pub yields: bool,
}

/// A pending decision or stage of the turn. The game keeps a stack of them:
/// the bottom is the turn's stage, and interruptions (discards, the robber,
/// free roads) are pushed on top and popped when resolved, so a variant can
/// insert its own steps anywhere.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    Setup,
    BeforeRoll,
    Main,
    /// Several seats may owe a discard at once; each decides independently.
    Discard {
        owed: Vec<(Seat, u8)>,
    },
    MoveRobber {
        seat: Seat,
    },
    RoadBuilding {
        seat: Seat,
        remaining: u8,
    },
    Ended,
    /// A step one of the variants adds (`variants::Step`); its module
    /// resolves it. On the wire: `{"phase": "variant", "step": ..., ...}`.
    Variant(Step),
}

/// A phase without its data, cheap to match on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PhaseKind {
    Setup,
    BeforeRoll,
    Main,
    Discard,
    MoveRobber,
    RoadBuilding,
    Ended,
    Variant,
}

impl Phase {
    pub fn kind(&self) -> PhaseKind {
        match self {
            Phase::Setup => PhaseKind::Setup,
            Phase::BeforeRoll => PhaseKind::BeforeRoll,
            Phase::Main => PhaseKind::Main,
            Phase::Discard { .. } => PhaseKind::Discard,
            Phase::MoveRobber { .. } => PhaseKind::MoveRobber,
            Phase::RoadBuilding { .. } => PhaseKind::RoadBuilding,
            Phase::Ended => PhaseKind::Ended,
            Phase::Variant(_) => PhaseKind::Variant,
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            Phase::Setup => "set-up",
            Phase::BeforeRoll => "before the roll",
            Phase::Main => "after the roll",
            Phase::Discard { .. } => "waiting for discards",
            Phase::MoveRobber { .. } => "waiting for the robber to move",
            Phase::RoadBuilding { .. } => "placing free roads",
            Phase::Ended => "game over",
            Phase::Variant(step) => step.name(),
        }
    }

    /// The phase as `viewer` may see it: sealed bids stay sealed.
    pub fn redacted_for(&self, viewer: Option<Seat>) -> Phase {
        match self {
            Phase::Variant(step) => Phase::Variant(step.redacted_for(viewer)),
            other => other.clone(),
        }
    }
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TradeOffer {
    pub from: Seat,
    pub to: Seat,
    pub give: ResourceCounts,
    pub receive: ResourceCounts,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameState {
    pub rules: Rules,
    pub board: Board,
    pub players: Vec<Player>,
    /// Indexed by node id.
    pub buildings: Vec<Option<Building>>,
    /// Indexed by edge id.
    pub roads: Vec<Option<Seat>>,
    pub robber: HexId,
    pub bank: ResourceCounts,
    /// Drawn from the end.
    pub dev_deck: Vec<DevCard>,
    pub dice: Dice,
    pub rng: GameRng,
    pub phases: Vec<Phase>,
    pub setup: Vec<SetupStep>,
    pub setup_pos: usize,
    /// The node of the settlement just placed in set-up, which the next
    /// set-up road must touch.
    pub setup_anchor: Option<NodeId>,
    pub active: Seat,
    pub turn: u32,
    pub last_roll: Option<[u8; 2]>,
    pub dev_played_this_turn: bool,
    pub offer: Option<TradeOffer>,
    pub longest_road: Option<Seat>,
    pub largest_army: Option<Seat>,
    pub winner: Option<Seat>,
    /// What the variant keeps beyond the base game (trade tokens, flags of
    /// the turn, the shadow removal roll); all of it public.
    #[serde(default)]
    pub variant: VariantState,
}

impl GameState {
    /// A new game from its configuration and seed. Returns the opening
    /// events (board, first player).
    pub fn new(config: &GameConfig, seed: u64) -> Result<(GameState, Vec<Event>), ConfigError> {
        Self::with_rng(config, GameRng::from_seed(seed))
    }

    /// `new` with the random stream given, e.g. from a 32-byte seed.
    pub fn with_rng(
        config: &GameConfig,
        rng: GameRng,
    ) -> Result<(GameState, Vec<Event>), ConfigError> {
        let (mut state, mut events) = Self::opening(config, rng)?;
        state.run_automation(&mut events);
        Ok((state, events))
    }

    /// The new game before any automated step has run, for callers that
    /// record each automated step on its own (see
    /// [`GameState::automated_step`]).
    pub fn opening(
        config: &GameConfig,
        mut rng: GameRng,
    ) -> Result<(GameState, Vec<Event>), ConfigError> {
        let rules = config.resolve()?;
        let board = match rules.board {
            LayoutKind::Beginner => Board::beginner(),
            LayoutKind::Random => Board::random(&mut rng, rules.no_adjacent_red),
        };
        let robber = board.desert().unwrap_or(0);
        let mut dev_deck = Vec::with_capacity(25);
        for (card, n) in [
            (DevCard::Knight, 14),
            (DevCard::VictoryPoint, 5),
            (DevCard::RoadBuilding, 2),
            (DevCard::YearOfPlenty, 2),
            (DevCard::Monopoly, 2),
        ] {
            dev_deck.extend(std::iter::repeat_n(card, n));
        }
        rng.shuffle(&mut dev_deck);
        let dice = Dice::new(rules.balanced_dice);
        let players = vec![
            Player::new(Seat(0), SeatKind::Real),
            Player::new(Seat(1), SeatKind::Real),
        ];
        let setup = snake_setup();
        let mut state = GameState {
            rules,
            board,
            players,
            buildings: vec![None; NODE_COUNT],
            roads: vec![None; EDGE_COUNT],
            robber,
            bank: ResourceCounts([BANK_PER_RESOURCE; 5]),
            dev_deck,
            dice,
            rng,
            phases: vec![Phase::Setup],
            setup,
            setup_pos: 0,
            setup_anchor: None,
            active: Seat(0),
            turn: 0,
            last_roll: None,
            dev_played_this_turn: false,
            offer: None,
            longest_road: None,
            largest_army: None,
            winner: None,
            variant: VariantState::None,
        };
        let mut events = vec![Event::GameStarted { first: Seat(0) }];
        variants::hooks(state.rules.variant).init(&mut state, &mut events);
        Ok((state, events))
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

    pub fn current_setup_step(&self) -> Option<SetupStep> {
        self.setup.get(self.setup_pos).copied()
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

    /// Adds an automated seat (neutral or fictional) with the next seat number.
    pub(crate) fn add_automated_seat(&mut self, kind: SeatKind) -> Seat {
        let seat = Seat(self.players.len() as u8);
        self.players.push(Player::new(seat, kind));
        seat
    }

    /// Seats of the given kind, in seat order.
    pub fn seats_of(&self, kind: SeatKind) -> impl Iterator<Item = Seat> + '_ {
        self.players
            .iter()
            .filter(move |p| p.kind == kind)
            .map(|p| p.seat)
    }

    /// Total (visible + hidden) victory points; what decides the game.
    pub fn total_vp(&self, seat: Seat) -> u8 {
        self.player(seat).total_vp()
    }

    /// Visible victory points recomputed from the board and awards, the
    /// reference the incremental count is checked against.
    pub fn recount_visible_vp(&self, seat: Seat) -> u8 {
        let mut vp = 0u8;
        for b in self.buildings.iter().flatten() {
            if b.owner == seat {
                vp += match b.kind {
                    BuildingKind::Settlement => 1,
                    BuildingKind::City => 2,
                };
            }
        }
        if self.longest_road == Some(seat) {
            vp += 2;
        }
        if self.largest_army == Some(seat) {
            vp += 2;
        }
        vp
    }

    pub fn building_at(&self, node: NodeId) -> Option<Building> {
        self.buildings.get(node as usize).copied().flatten()
    }

    pub fn road_at(&self, edge: EdgeId) -> Option<Seat> {
        self.roads.get(edge as usize).copied().flatten()
    }

    /// The best maritime ratio `seat` has for giving `r`.
    pub fn trade_ratio(&self, seat: Seat, r: crate::types::Resource) -> u8 {
        self.trade_ratios(seat)[r.index()]
    }

    /// The best maritime ratio for each resource, in resource order.
    pub fn trade_ratios(&self, seat: Seat) -> [u8; 5] {
        let mut best = [4u8; 5];
        for &(n, slot) in &topology().harbor_nodes {
            if matches!(self.buildings[n as usize], Some(b) if b.owner == seat) {
                match self.board.harbors[slot as usize] {
                    crate::board::HarborKind::Specific(h) => best[h.index()] = 2,
                    crate::board::HarborKind::Generic => {
                        for b in best.iter_mut() {
                            *b = (*b).min(3);
                        }
                    }
                }
            }
        }
        best
    }
}

fn snake_setup() -> Vec<SetupStep> {
    let mut steps = Vec::new();
    for (seat, yields) in [(0u8, false), (1, false), (1, true), (0, true)] {
        let seat = Seat(seat);
        steps.push(SetupStep {
            seat,
            owner: seat,
            piece: Piece::Settlement,
            yields,
        });
        steps.push(SetupStep {
            seat,
            owner: seat,
            piece: Piece::Road,
            yields: false,
        });
    }
    steps
}
