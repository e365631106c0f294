//! Small value types shared by every part of the engine.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::{Index, IndexMut};

/// A seat at the table. Seats 0 and 1 are the two real players; higher seats
/// are automated (neutral or fictional) players that some variants add.
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

#[cfg_attr(
    feature = "openapi",
    derive(utoipa::ToSchema),
    schema(example = "grain")
)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Resource {
    Brick,
    Lumber,
    Wool,
    Grain,
    Ore,
}

impl Resource {
    pub const ALL: [Resource; 5] = [
        Resource::Brick,
        Resource::Lumber,
        Resource::Wool,
        Resource::Grain,
        Resource::Ore,
    ];

    pub fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Resource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self {
            Resource::Brick => "brick",
            Resource::Lumber => "lumber",
            Resource::Wool => "wool",
            Resource::Grain => "grain",
            Resource::Ore => "ore",
        };
        f.write_str(name)
    }
}

/// A multiset of resource cards. On the wire it is an object keyed by
/// resource name; missing keys mean zero so clients can send `{"ore": 2}`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(from = "ResourceMap", into = "ResourceMap")]
pub struct ResourceCounts(pub [u8; 5]);

#[derive(Clone, Copy, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct ResourceMap {
    brick: u8,
    lumber: u8,
    wool: u8,
    grain: u8,
    ore: u8,
}

impl From<ResourceMap> for ResourceCounts {
    fn from(m: ResourceMap) -> Self {
        ResourceCounts([m.brick, m.lumber, m.wool, m.grain, m.ore])
    }
}

impl From<ResourceCounts> for ResourceMap {
    fn from(c: ResourceCounts) -> Self {
        let [brick, lumber, wool, grain, ore] = c.0;
        ResourceMap {
            brick,
            lumber,
            wool,
            grain,
            ore,
        }
    }
}

impl ResourceCounts {
    pub const ZERO: ResourceCounts = ResourceCounts([0; 5]);

    pub const fn new(brick: u8, lumber: u8, wool: u8, grain: u8, ore: u8) -> Self {
        ResourceCounts([brick, lumber, wool, grain, ore])
    }

    pub fn single(r: Resource, n: u8) -> Self {
        let mut c = Self::ZERO;
        c.0[r.index()] = n;
        c
    }

    pub fn total(&self) -> u32 {
        self.0.iter().map(|&n| n as u32).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&n| n == 0)
    }

    pub fn contains(&self, other: &ResourceCounts) -> bool {
        self.0.iter().zip(other.0.iter()).all(|(a, b)| a >= b)
    }

    /// Adds `other`, saturating; callers check supply limits before adding.
    pub fn add(&mut self, other: &ResourceCounts) {
        for (a, b) in self.0.iter_mut().zip(other.0.iter()) {
            *a = a.saturating_add(*b);
        }
    }

    /// Subtracts `other`; callers must have checked `contains` first.
    pub fn sub(&mut self, other: &ResourceCounts) {
        for (a, b) in self.0.iter_mut().zip(other.0.iter()) {
            *a = a.saturating_sub(*b);
        }
    }

    /// True when some resource appears on both sides.
    pub fn overlaps(&self, other: &ResourceCounts) -> bool {
        self.0
            .iter()
            .zip(other.0.iter())
            .any(|(a, b)| *a > 0 && *b > 0)
    }

    /// The resource at position `k` when the cards are laid out in
    /// resource order; used to draw a uniformly random card.
    pub fn nth_card(&self, mut k: u32) -> Option<Resource> {
        for r in Resource::ALL {
            let n = self[r] as u32;
            if k < n {
                return Some(r);
            }
            k -= n;
        }
        None
    }
}

impl Index<Resource> for ResourceCounts {
    type Output = u8;
    fn index(&self, r: Resource) -> &u8 {
        &self.0[r.index()]
    }
}

impl IndexMut<Resource> for ResourceCounts {
    fn index_mut(&mut self, r: Resource) -> &mut u8 {
        &mut self.0[r.index()]
    }
}

#[cfg_attr(
    feature = "openapi",
    derive(utoipa::ToSchema),
    schema(example = "knight")
)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DevCard {
    Knight,
    VictoryPoint,
    RoadBuilding,
    YearOfPlenty,
    Monopoly,
}

impl DevCard {
    pub const ALL: [DevCard; 5] = [
        DevCard::Knight,
        DevCard::VictoryPoint,
        DevCard::RoadBuilding,
        DevCard::YearOfPlenty,
        DevCard::Monopoly,
    ];

    pub fn index(self) -> usize {
        self as usize
    }
}

/// Development cards held, counted by kind.
#[cfg_attr(
    feature = "openapi",
    derive(utoipa::ToSchema),
    schema(example = json!({"knight": 1, "victory_point": 0, "road_building": 0, "year_of_plenty": 1, "monopoly": 0}))
)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DevCounts {
    #[serde(default)]
    pub knight: u8,
    #[serde(default)]
    pub victory_point: u8,
    #[serde(default)]
    pub road_building: u8,
    #[serde(default)]
    pub year_of_plenty: u8,
    #[serde(default)]
    pub monopoly: u8,
}

impl DevCounts {
    pub fn get(&self, c: DevCard) -> u8 {
        match c {
            DevCard::Knight => self.knight,
            DevCard::VictoryPoint => self.victory_point,
            DevCard::RoadBuilding => self.road_building,
            DevCard::YearOfPlenty => self.year_of_plenty,
            DevCard::Monopoly => self.monopoly,
        }
    }

    pub fn get_mut(&mut self, c: DevCard) -> &mut u8 {
        match c {
            DevCard::Knight => &mut self.knight,
            DevCard::VictoryPoint => &mut self.victory_point,
            DevCard::RoadBuilding => &mut self.road_building,
            DevCard::YearOfPlenty => &mut self.year_of_plenty,
            DevCard::Monopoly => &mut self.monopoly,
        }
    }

    pub fn total(&self) -> u32 {
        DevCard::ALL.iter().map(|&c| self.get(c) as u32).sum()
    }
}

/// Building costs, RULES.md §1 "Costs".
pub mod cost {
    use super::ResourceCounts;
    pub const ROAD: ResourceCounts = ResourceCounts::new(1, 1, 0, 0, 0);
    pub const SETTLEMENT: ResourceCounts = ResourceCounts::new(1, 1, 1, 1, 0);
    pub const CITY: ResourceCounts = ResourceCounts::new(0, 0, 0, 2, 3);
    pub const DEV_CARD: ResourceCounts = ResourceCounts::new(0, 0, 1, 1, 1);
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
