//! The set-up placements (RULES.md §1 "Set-up").

use crate::board::{EdgeId, NodeId, topology};
use crate::error::ActionError;
use crate::events::Event;
use crate::state::{GameState, Piece};
use crate::types::{ResourceCounts, Seat};

impl GameState {
    pub(super) fn setup_settlement(
        &mut self,
        seat: Seat,
        node: NodeId,
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        let step = self.expect_setup_step(seat, Piece::Settlement, "build_settlement")?;
        self.check_settlement_site(step.owner, node, true)?;
        self.place_settlement(step.owner, node, true, ev);
        if step.yields
            && crate::variants::hooks(self.rules.variant).receives_resources(self, step.owner)
        {
            let mut got = ResourceCounts::ZERO;
            for &h in &topology().nodes[node as usize].hexes {
                if let Some(r) = self.board.tiles[h as usize].terrain.resource()
                    && self.hex_in_play(h)
                    && self.bank[r] > 0
                {
                    self.bank[r] -= 1;
                    got[r] += 1;
                }
            }
            self.player_mut(step.owner).hand.add(&got);
            ev.push(Event::StartingResources {
                seat: step.owner,
                resources: got,
            });
        }
        self.setup_anchor = Some(node);
        self.advance_setup(ev);
        Ok(())
    }

    pub(super) fn setup_road(
        &mut self,
        seat: Seat,
        edge: EdgeId,
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        let step = self.expect_setup_step(seat, Piece::Road, "build_road")?;
        self.check_road_site(step.owner, edge, self.setup_anchor)?;
        self.place_road(step.owner, edge, true, ev);
        self.setup_anchor = None;
        self.advance_setup(ev);
        Ok(())
    }

    fn expect_setup_step(
        &self,
        seat: Seat,
        piece: Piece,
        action: &'static str,
    ) -> Result<crate::state::SetupStep, ActionError> {
        match self.current_setup_step() {
            Some(step) if step.seat == seat && step.piece == piece => Ok(step),
            Some(step) if step.seat == seat => Err(ActionError::WrongPhase {
                action,
                phase: match step.piece {
                    Piece::Settlement => "set-up: place a settlement",
                    Piece::Road => "set-up: place a road",
                },
            }),
            _ => Err(ActionError::NotYourDecision {
                awaiting: self.awaiting(),
            }),
        }
    }

    fn advance_setup(&mut self, ev: &mut Vec<Event>) {
        self.setup_pos += 1;
        if self.setup_pos >= self.setup.len() {
            self.turn = 0;
            self.start_turn(Seat(0), ev);
        }
    }
}
