//! The phase stack. The bottom is the turn's stage (set-up, before the
//! roll, after the roll, ended); decisions that interrupt it (discards owed
//! by several seats at once, the robber, free roads, a ruleset's steps) are
//! pushed on top and popped when resolved, so they nest: a neutral road owed
//! in the middle of Road Building, a roll-off winner's road on the
//! opponent's turn, two sealed bids awaited at once. Who must decide is read
//! from the top.

use super::board::NodeId;
use super::seats::Seat;
use crate::hidden::Redact;
use crate::rulesets::Step;
use serde::{Deserialize, Serialize};

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
}

impl Redact for Phase {
    /// A ruleset's step as `viewer` may see it (sealed bids stay sealed).
    fn redacted_for(&self, viewer: Option<Seat>) -> Phase {
        match self {
            Phase::Variant(step) => Phase::Variant(step.redacted_for(viewer)),
            other => other.clone(),
        }
    }
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Piece {
    Settlement,
    Road,
    /// A set-up city (Cities & Knights, RULES.md §6.2).
    City,
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

/// The set-up queue and how far it has come.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    pub steps: Vec<SetupStep>,
    pub pos: usize,
    /// The node of the settlement just placed, which the next set-up road
    /// must touch.
    pub anchor: Option<NodeId>,
}

impl Setup {
    /// The snake order of RULES.md §1: seat 0, seat 1, seat 1, seat 0, each
    /// a settlement then a road; the second settlement yields.
    pub fn snake() -> Setup {
        Self::snake_of([Piece::Settlement, Piece::Settlement])
    }

    /// The snake order with a city in the second round (RULES.md §6.2):
    /// seat 0, seat 1 a settlement and a road; seat 1, seat 0 a city and a
    /// road; the city yields.
    pub fn snake_with_city() -> Setup {
        Self::snake_of([Piece::Settlement, Piece::City])
    }

    /// The snake order with `rounds[0]` in the first round and `rounds[1]`
    /// in the second, which yields.
    fn snake_of(rounds: [Piece; 2]) -> Setup {
        let mut steps = Vec::new();
        for (seat, yields) in [(0u8, false), (1, false), (1, true), (0, true)] {
            let seat = Seat(seat);
            steps.push(SetupStep {
                seat,
                owner: seat,
                piece: rounds[usize::from(yields)],
                yields,
            });
            steps.push(SetupStep {
                seat,
                owner: seat,
                piece: Piece::Road,
                yields: false,
            });
        }
        Setup {
            steps,
            pos: 0,
            anchor: None,
        }
    }

    pub fn current(&self) -> Option<SetupStep> {
        self.steps.get(self.pos).copied()
    }
}
