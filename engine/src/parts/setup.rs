//! The set-up placements (RULES.md §1 "Set-up").

use crate::actions::LegalAction;
use crate::board::{EdgeId, NodeId, topology};
use crate::cards::Cards;
use crate::contract::Ruleset;
use crate::error::ActionError;
use crate::events::Event;
use crate::parts::buildings::Built;
use crate::phases::{Piece, SetupStep};
use crate::seats::Seat;
use crate::state::GameState;

impl GameState {
    pub(crate) fn setup_settlement(
        &mut self,
        seat: Seat,
        node: NodeId,
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        let step = self.expect_setup_step(seat, Piece::Settlement, "build_settlement")?;
        self.check_settlement_site(step.owner, node, true)?;
        self.place_settlement(step.owner, node, true, ev);
        self.finish_setup_building(step, node, ev);
        Ok(())
    }

    /// A set-up city: placed like a settlement (the distance rule, no road
    /// needed), a city piece from the supply.
    pub(crate) fn setup_city(
        &mut self,
        seat: Seat,
        node: NodeId,
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        let step = self.expect_setup_step(seat, Piece::City, "build_city")?;
        self.check_settlement_site(step.owner, node, true)?;
        self.place_city(step.owner, node, ev);
        self.ruleset()
            .after_build(self, step.owner, Built::SetupCity(node), ev);
        self.finish_setup_building(step, node, ev);
        Ok(())
    }

    /// After a set-up building: its starting resources, one per producing
    /// hex it touches (a city too), and the road that must touch it.
    fn finish_setup_building(&mut self, step: SetupStep, node: NodeId, ev: &mut Vec<Event>) {
        if step.yields && self.ruleset().receives_resources(self, step.owner) {
            let mut got = Cards::ZERO;
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
        self.setup.anchor = Some(node);
        self.advance_setup(ev);
    }

    pub(crate) fn setup_road(
        &mut self,
        seat: Seat,
        edge: EdgeId,
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        let step = self.expect_setup_step(seat, Piece::Road, "build_road")?;
        self.check_road_site(step.owner, edge, self.setup.anchor)?;
        self.place_road(step.owner, edge, true, ev);
        self.setup.anchor = None;
        self.advance_setup(ev);
        Ok(())
    }

    fn expect_setup_step(
        &self,
        seat: Seat,
        piece: Piece,
        action: &'static str,
    ) -> Result<SetupStep, ActionError> {
        match self.current_setup_step() {
            Some(step) if step.seat == seat && step.piece == piece => Ok(step),
            Some(step) if step.seat == seat => Err(ActionError::WrongPhase {
                action,
                phase: match step.piece {
                    Piece::Settlement => "set-up: place a settlement",
                    Piece::Road => "set-up: place a road",
                    Piece::City => "set-up: place a city",
                },
            }),
            _ => Err(ActionError::NotYourDecision {
                awaiting: self.awaiting(),
            }),
        }
    }

    fn advance_setup(&mut self, ev: &mut Vec<Event>) {
        self.setup.pos += 1;
        if self.setup.pos >= self.setup.steps.len() {
            self.turn = 0;
            self.start_turn(Seat(0), ev);
        }
    }

    /// The set-up placement awaited from `seat`, if any.
    pub(crate) fn legal_setup(&self, seat: Seat, out: &mut Vec<LegalAction>) {
        let Some(step) = self.current_setup_step() else {
            return;
        };
        if step.seat != seat {
            return;
        }
        match step.piece {
            Piece::Settlement => out.push(LegalAction::BuildSettlement {
                nodes: self.settlement_sites(step.owner, true),
                free: true,
            }),
            Piece::Road => out.push(LegalAction::BuildRoad {
                edges: self.road_sites(step.owner, self.setup.anchor),
                free: true,
            }),
            Piece::City => out.push(LegalAction::BuildCity {
                nodes: self.settlement_sites(step.owner, true),
            }),
        }
    }
}
