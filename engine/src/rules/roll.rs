//! Rolling, production with the bank-shortage rule, and the seven's
//! discards (RULES.md §1 "Turn", "Seven").

use crate::board::topology;
use crate::error::ActionError;
use crate::events::Event;
use crate::state::{BuildingKind, GameState, Phase};
use crate::types::{Resource, ResourceCounts, Seat};
use crate::variants;

impl GameState {
    pub(super) fn roll(&mut self, seat: Seat, ev: &mut Vec<Event>) -> Result<(), ActionError> {
        self.require_active(seat, "roll_dice")?;
        let dice = self.dice.roll(&mut self.rng);
        let total = dice[0] + dice[1];
        self.last_roll = Some(dice);
        ev.push(Event::DiceRolled { seat, dice, total });
        if let Some(top) = self.phases.last_mut() {
            *top = Phase::Main;
        }
        // Before resolving, so that a variant's follow-up step (a second
        // roll) sits below the seven's discards and robber.
        variants::hooks(self.rules.variant).on_roll(self, seat, total, ev);
        self.resolve_roll(seat, total, ev);
        Ok(())
    }

    /// Resolves one roll completely: production, or a seven's discards and
    /// robber (pushed as pending steps for `mover`).
    pub(crate) fn resolve_roll(&mut self, mover: Seat, total: u8, ev: &mut Vec<Event>) {
        if total == 7 {
            self.start_seven(mover, ev);
        } else {
            self.produce(total, ev);
        }
    }

    pub(crate) fn start_seven(&mut self, mover: Seat, ev: &mut Vec<Event>) {
        self.start_seven_with(Phase::MoveRobber { seat: mover }, ev);
    }

    /// A seven's discards, then `robber` (the step that moves it).
    pub(crate) fn start_seven_with(&mut self, robber: Phase, ev: &mut Vec<Event>) {
        self.phases.push(robber);
        let limit = self.rules.discard_limit as u32;
        let owed: Vec<(Seat, u8)> = self
            .players
            .iter()
            .filter(|p| p.hand.total() > limit)
            .map(|p| (p.seat, (p.hand.total() / 2) as u8))
            .collect();
        if !owed.is_empty() {
            ev.push(Event::DiscardsRequired { owed: owed.clone() });
            self.phases.push(Phase::Discard { owed });
        }
    }

    /// Pays out a roll of `total`. For each resource, if the bank cannot pay
    /// everyone owed, nobody is paid unless exactly one player is owed, who
    /// then gets what is left.
    pub(crate) fn produce(&mut self, total: u8, ev: &mut Vec<Event>) {
        let topo = topology();
        let n = self.players.len();
        let hooks = variants::hooks(self.rules.variant);
        let receives: [bool; crate::state::MAX_SEATS] =
            std::array::from_fn(|i| i < n && hooks.receives_resources(self, self.players[i].seat));
        let mut owed = [ResourceCounts::ZERO; crate::state::MAX_SEATS];
        for (h, tile) in self.board.tiles.iter().enumerate() {
            if tile.number != Some(total) || h as u8 == self.robber || !self.board.in_play(h as u8)
            {
                continue;
            }
            let Some(r) = tile.terrain.resource() else {
                continue;
            };
            for &node in &topo.hexes[h].nodes {
                if let Some(b) = self.buildings[node as usize]
                    && receives[b.owner.index()]
                {
                    let amount = match b.kind {
                        BuildingKind::Settlement => 1,
                        BuildingKind::City => 2,
                    };
                    owed[b.owner.index()][r] += amount;
                }
            }
        }
        for r in Resource::ALL {
            let want: u32 = owed.iter().map(|o| o[r] as u32).sum();
            if want == 0 || want <= self.bank[r] as u32 {
                continue;
            }
            let mut claimants = (0..n).filter(|&i| owed[i][r] > 0);
            if let (Some(only), None) = (claimants.next(), claimants.next()) {
                owed[only][r] = self.bank[r];
            } else {
                for o in owed.iter_mut() {
                    o[r] = 0;
                }
                ev.push(Event::ProductionWithheld { resource: r });
            }
        }
        for (i, got) in owed.into_iter().enumerate().take(n) {
            if got.is_empty() {
                continue;
            }
            self.bank.sub(&got);
            self.players[i].hand.add(&got);
            ev.push(Event::Produced {
                seat: self.players[i].seat,
                resources: got,
            });
        }
    }

    pub(super) fn discard(
        &mut self,
        seat: Seat,
        cards: &crate::types::ResourceCounts,
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        let Some(Phase::Discard { owed }) = self.phases.last_mut() else {
            unreachable!("dispatch only routes here in Discard");
        };
        let Some(pos) = owed.iter().position(|(s, n)| *s == seat && *n > 0) else {
            return Err(ActionError::NotYourDecision {
                awaiting: owed.iter().map(|(s, _)| *s).collect(),
            });
        };
        let expected = owed[pos].1;
        if cards.total() != expected as u32 {
            return Err(ActionError::WrongDiscardCount {
                expected,
                got: cards.total(),
            });
        }
        if !self.players[seat.index()].hand.contains(cards) {
            return Err(ActionError::CardsNotHeld);
        }
        self.settle_discard(seat, cards, ev);
        Ok(())
    }

    /// Takes `seat`'s validated discard and closes the step once nobody
    /// owes one; automated seats discard through here too.
    pub(crate) fn settle_discard(
        &mut self,
        seat: Seat,
        cards: &ResourceCounts,
        ev: &mut Vec<Event>,
    ) {
        let Some(Phase::Discard { owed }) = self.phases.last_mut() else {
            return;
        };
        owed.retain(|(s, _)| *s != seat);
        let done = owed.is_empty();
        self.players[seat.index()].hand.sub(cards);
        self.bank.add(cards);
        ev.push(Event::Discarded {
            seat,
            cards: *cards,
        });
        if done {
            self.pop_phase();
        }
    }
}
