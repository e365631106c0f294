//! Rolling the number dice and production, with the bank-shortage rule
//! (RULES.md §1 "Turn").

use crate::board::topology;
use crate::cards::{Card, CardKind, Cards};
use crate::contract::Ruleset;
use crate::error::ActionError;
use crate::events::Event;
use crate::phases::Phase;
use crate::seats::Seat;
use crate::state::{BuildingKind, GameState, MAX_SEATS};

/// What a roll owes each seat, by seat index.
pub type Owed = [Cards; MAX_SEATS];

impl GameState {
    pub(crate) fn roll(&mut self, seat: Seat, ev: &mut Vec<Event>) -> Result<(), ActionError> {
        self.require_active(seat, "roll_dice")?;
        let dice = self.dice.roll(&mut self.rng);
        let total = dice[0] + dice[1];
        self.last_roll = Some(dice);
        ev.push(Event::DiceRolled { seat, dice, total });
        if let Some(top) = self.phases.last_mut() {
            *top = Phase::Main;
        }
        // Before resolving, so that a ruleset's follow-up step (a second
        // roll) sits below the seven's discards and robber.
        self.ruleset().on_roll(self, seat, total, ev);
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

    /// Pays out a roll of `total`: each settlement one card of its hex's
    /// resource, each city two, but not from the robber's hex or a hex out
    /// of play, and only to seats the ruleset lets collect.
    pub(crate) fn produce(&mut self, total: u8, ev: &mut Vec<Event>) {
        let topo = topology();
        let n = self.players.len();
        let ruleset = self.ruleset();
        let receives: [bool; MAX_SEATS] = std::array::from_fn(|i| {
            i < n && ruleset.receives_resources(self, self.players[i].seat)
        });
        let mut owed = [Cards::ZERO; MAX_SEATS];
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
        self.pay_out(owed, ev);
    }

    /// Pays what a roll owes and returns what each seat got. For each kind
    /// of card (resource or commodity), if the bank cannot pay everyone
    /// owed, nobody is paid unless exactly one seat is owed, who then gets
    /// what is left.
    pub(crate) fn pay_out(&mut self, mut owed: Owed, ev: &mut Vec<Event>) -> Owed {
        let n = self.players.len();
        for &c in Card::ALL {
            let want: u32 = owed.iter().map(|o| o[c] as u32).sum();
            if want == 0 || want <= self.bank[c] as u32 {
                continue;
            }
            let mut claimants = (0..n).filter(|&i| owed[i][c] > 0);
            if let (Some(only), None) = (claimants.next(), claimants.next()) {
                owed[only][c] = self.bank[c];
            } else {
                for o in owed.iter_mut() {
                    o[c] = 0;
                }
                ev.push(match (c.resource(), c.commodity()) {
                    (Some(resource), _) => Event::ProductionWithheld { resource },
                    (None, Some(commodity)) => Event::CommodityWithheld { commodity },
                    (None, None) => unreachable!("a card is a resource or a commodity"),
                });
            }
        }
        for (i, got) in owed.iter().enumerate().take(n) {
            if got.is_empty() {
                continue;
            }
            self.bank.sub(got);
            self.players[i].hand.add(got);
            ev.push(Event::Produced {
                seat: self.players[i].seat,
                resources: *got,
            });
        }
        owed
    }
}
