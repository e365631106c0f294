//! Moving the robber and stealing (RULES.md §1 "Seven", knight; §2 friendly
//! robber).

use crate::actions::RobberTarget;
use crate::board::topology::HEX_COUNT;
use crate::board::{HexId, topology};
use crate::contract::Ruleset;
use crate::error::ActionError;
use crate::events::Event;
use crate::seats::{Seat, SeatList};
use crate::state::GameState;

/// Players at or below this many visible VP are protected by the friendly robber.
pub const FRIENDLY_ROBBER_VP: u8 = 2;

impl GameState {
    pub(crate) fn move_robber(
        &mut self,
        seat: Seat,
        hex: HexId,
        victim: Option<Seat>,
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        self.check_robber_move(seat, hex, victim)?;
        self.pop_phase();
        self.do_robber_move(seat, hex, victim, ev);
        Ok(())
    }

    /// Validates a robber move by `mover` without changing anything.
    pub(crate) fn check_robber_move(
        &self,
        mover: Seat,
        hex: HexId,
        victim: Option<Seat>,
    ) -> Result<(), ActionError> {
        self.check_robber_hex(hex)?;
        let candidates = self.robbable_at(mover, hex);
        match victim {
            None if candidates.is_empty() => Ok(()),
            None => Err(ActionError::VictimRequired { candidates }),
            Some(v) if candidates.contains(&v) => Ok(()),
            Some(v) => Err(ActionError::InvalidVictim {
                victim: Some(v),
                reason: if v == mover {
                    "you cannot rob yourself"
                } else if v.index() >= self.players.len() {
                    "no such seat"
                } else if self.player(v).hand.total() == 0 {
                    "they hold no cards"
                } else {
                    "they have no building on that hex"
                },
            }),
        }
    }

    /// Where the robber may go, whoever moves it and whomever it robs.
    pub(crate) fn check_robber_hex(&self, hex: HexId) -> Result<(), ActionError> {
        if hex as usize >= HEX_COUNT || !self.robber_may_enter(hex) {
            return Err(ActionError::InvalidHex { hex });
        }
        if hex == self.robber {
            return Err(ActionError::RobberMustMove);
        }
        if !self.robber_hex_allowed(hex) {
            return Err(ActionError::FriendlyRobber { hex });
        }
        Ok(())
    }

    /// Hexes in play, and removed ones where the variant allows the robber.
    fn robber_may_enter(&self, hex: HexId) -> bool {
        self.hex_in_play(hex)
            || ((hex as usize) < HEX_COUNT && self.ruleset().robber_may_enter_removed(self))
    }

    /// Every hex the robber may move to now.
    pub(crate) fn robber_hexes(&self) -> impl Iterator<Item = HexId> + '_ {
        (0..HEX_COUNT as HexId).filter(|&h| self.check_robber_hex(h).is_ok())
    }

    /// Seats other than `mover` with a building on `hex` and cards in hand.
    pub(crate) fn robbable_at(&self, mover: Seat, hex: HexId) -> SeatList {
        self.robbable_given(mover, hex, self.seats_with_cards())
    }

    /// A bit per seat holding at least one card.
    fn seats_with_cards(&self) -> u8 {
        self.players
            .iter()
            .filter(|p| !p.hand.is_empty())
            .fold(0, |m, p| m | (1 << p.seat.0))
    }

    fn robbable_given(&self, mover: Seat, hex: HexId, with_cards: u8) -> SeatList {
        let mut out = SeatList::default();
        for &n in &topology().hexes[hex as usize].nodes {
            if let Some(b) = self.buildings[n as usize]
                && b.owner != mover
                && with_cards & (1 << b.owner.0) != 0
            {
                out.push(b.owner);
            }
        }
        out.sort_in_place();
        out
    }

    /// The friendly-robber restriction. When it would leave no hex at all,
    /// it is lifted (docs/rules.md).
    fn robber_hex_allowed(&self, hex: HexId) -> bool {
        !self.rules.friendly_robber || !self.protected_hex(hex) || !self.any_unprotected_hex()
    }

    fn protected_hex(&self, hex: HexId) -> bool {
        topology().hexes[hex as usize].nodes.iter().any(|&n| {
            matches!(self.buildings[n as usize],
                Some(b) if b.owner.is_real() && self.player(b.owner).visible_vp <= FRIENDLY_ROBBER_VP)
        })
    }

    fn any_unprotected_hex(&self) -> bool {
        (0..HEX_COUNT as HexId)
            .any(|h| h != self.robber && self.robber_may_enter(h) && !self.protected_hex(h))
    }

    pub(crate) fn robber_targets(&self, mover: Seat) -> Vec<RobberTarget> {
        let with_cards = self.seats_with_cards();
        // Sized for every hex at once: the list is built on every legal
        // list that offers a knight, and growing it step by step cost more
        // than filling it.
        let mut out = Vec::with_capacity(HEX_COUNT);
        out.extend(self.robber_hexes().map(|hex| RobberTarget {
            hex,
            victims: self.robbable_given(mover, hex, with_cards),
        }));
        out
    }

    /// Moves the robber (already validated) and steals one random card.
    pub(crate) fn do_robber_move(
        &mut self,
        mover: Seat,
        hex: HexId,
        victim: Option<Seat>,
        ev: &mut Vec<Event>,
    ) {
        self.robber = hex;
        ev.push(Event::RobberMoved { seat: mover, hex });
        if let Some(v) = victim {
            let hand = self.player(v).hand;
            let k = self.rng.below(hand.total());
            let card = hand.nth_card(k).expect("k is below the hand size");
            self.player_mut(v).hand[card] -= 1;
            self.player_mut(mover).hand[card] += 1;
            ev.push(Event::stole(mover, v, card));
        }
        self.ruleset().after_robber_moved(self, mover, hex, ev);
    }
}
