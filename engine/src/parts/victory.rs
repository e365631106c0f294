//! Victory points and the win (RULES.md §1 "Victory"): a player wins the
//! moment they reach the target on their own turn, hidden points included.

use crate::contract::Ruleset;
use crate::events::Event;
use crate::phases::Phase;
use crate::seats::Seat;
use crate::state::{BuildingKind, GameState};

impl GameState {
    /// Total (visible + hidden) victory points; what decides the game.
    /// The only points a seat may hold hidden are victory point cards.
    pub fn total_vp(&self, seat: Seat) -> u8 {
        self.player(seat).visible_vp + self.hidden_dev_vp(seat)
    }

    /// Visible victory points of the base game recomputed from the board
    /// and the awards: 1 a settlement, 2 a city, 2 each award.
    pub fn base_visible_vp(&self, seat: Seat) -> u8 {
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
        if self.largest_army() == Some(seat) {
            vp += 2;
        }
        vp
    }

    /// The ruleset's recount of `seat`'s visible points, the reference
    /// the incremental count is checked against.
    pub fn recount_visible_vp(&self, seat: Seat) -> u8 {
        self.ruleset().visible_vp(self, seat)
    }

    /// A player wins the moment they reach the target on their own turn.
    pub(crate) fn check_victory(&mut self, ev: &mut Vec<Event>) {
        if self.is_over() || self.in_setup() {
            return;
        }
        let seat = self.active;
        let vp = self.total_vp(seat);
        if vp >= self.rules.vp_target {
            let mut revealed = crate::cards::DevCounts::ZERO;
            revealed[crate::cards::DevCard::VictoryPoint] = self.hidden_dev_vp(seat);
            self.winner = Some(seat);
            self.offer = None;
            self.phases = vec![Phase::Ended];
            ev.push(Event::GameWon {
                seat,
                victory_points: vp,
                revealed,
            });
        }
    }
}
