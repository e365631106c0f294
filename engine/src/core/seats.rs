//! Seats at the table: the two real players and the automated seats some
//! rulesets add.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A seat at the table. Seats 0 and 1 are the two real players; higher seats
/// are automated (neutral or fictional) players that some rulesets add.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Seat(pub u8);

impl Seat {
    pub const FIRST: Seat = Seat(0);
    pub const SECOND: Seat = Seat(1);

    pub fn index(self) -> usize {
        self.0 as usize
    }

    pub fn is_real(self) -> bool {
        self.0 < 2
    }

    /// The other real player. Only meaningful for real seats.
    pub fn opponent(self) -> Seat {
        Seat(1 - (self.0 & 1))
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", self.0)
    }
}

// Who sits in a seat (the wire form carries no description).
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

/// A short list of seats kept inline (no allocation): who is awaited, whom
/// the robber may rob. Serializes as a JSON array.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct SeatList {
    seats: [Seat; 4],
    len: u8,
}

impl SeatList {
    pub fn sort_in_place(&mut self) {
        self.seats[..self.len as usize].sort_unstable();
    }

    pub fn push(&mut self, s: Seat) {
        if (self.len as usize) < self.seats.len() && !self.contains(&s) {
            self.seats[self.len as usize] = s;
            self.len += 1;
        }
    }
}

impl std::ops::Deref for SeatList {
    type Target = [Seat];
    fn deref(&self) -> &[Seat] {
        &self.seats[..self.len as usize]
    }
}

impl fmt::Debug for SeatList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl FromIterator<Seat> for SeatList {
    fn from_iter<I: IntoIterator<Item = Seat>>(iter: I) -> Self {
        let mut l = SeatList::default();
        for s in iter {
            l.push(s);
        }
        l
    }
}

impl Serialize for SeatList {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for SeatList {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Vec::<Seat>::deserialize(d)?;
        if v.len() > 4 {
            return Err(serde::de::Error::invalid_length(
                v.len(),
                &"at most 4 seats",
            ));
        }
        Ok(v.into_iter().collect())
    }
}
