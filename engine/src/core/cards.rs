//! Cards: the kinds a game deals in, and bundles of them.
//!
//! A [`Bundle`] counts cards over any set of kinds (a [`CardKind`]): a hand
//! of resources and commodities ([`Cards`]), development cards held
//! ([`DevCounts`]), the progress cards of Cities & Knights
//! ([`ProgressCounts`]). On the wire a bundle is an object keyed by kind name;
//! missing keys mean zero, so clients can send `{"ore": 2}`.

use serde::de::{self, MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::hash::{Hash, Hasher};
use std::marker::PhantomData;
use std::ops::{Index, IndexMut};

/// A kind of card that bundles count.
pub trait CardKind: Copy + Eq + fmt::Debug + 'static {
    /// Every kind, in the order bundles keep and list them.
    const ALL: &'static [Self];
    /// The wire name of each kind, in the same order.
    const NAMES: &'static [&'static str];

    /// Position in `ALL`.
    fn index(self) -> usize;

    fn name(self) -> &'static str {
        Self::NAMES[self.index()]
    }

    /// Whether a bundle names this kind on the wire when it holds none of
    /// it. Kinds only some rulesets deal in are left out at zero, so the
    /// others' bundles read as they always have.
    fn listed_when_zero(self) -> bool {
        true
    }
}

/// A kind that addresses a slot of a bundle of `K`: `K` itself, or a
/// narrower kind (a resource within a hand of resources and commodities).
pub trait SlotIn<K> {
    fn slot(self) -> usize;
}

impl<K: CardKind> SlotIn<K> for K {
    fn slot(self) -> usize {
        self.index()
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

    /// The commodity a city on this resource's terrain adds in Cities &
    /// Knights (RULES.md §6.3): paper, cloth, coin, or none.
    pub fn commodity(self) -> Option<Commodity> {
        match self {
            Resource::Lumber => Some(Commodity::Paper),
            Resource::Wool => Some(Commodity::Cloth),
            Resource::Ore => Some(Commodity::Coin),
            Resource::Brick | Resource::Grain => None,
        }
    }
}

impl fmt::Display for Resource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(Card::from(*self).name())
    }
}

/// Cards that cities of Cities & Knights yield beside resources.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Commodity {
    Paper,
    Cloth,
    Coin,
}

impl Commodity {
    pub const ALL: [Commodity; 3] = [Commodity::Paper, Commodity::Cloth, Commodity::Coin];

    /// The city improvement track this commodity buys.
    pub fn track(self) -> Track {
        match self {
            Commodity::Paper => Track::Science,
            Commodity::Cloth => Track::Trade,
            Commodity::Coin => Track::Politics,
        }
    }
}

impl fmt::Display for Commodity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(Card::from(*self).name())
    }
}

/// Any card a hand may hold: a resource or a commodity.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Card {
    Brick,
    Lumber,
    Wool,
    Grain,
    Ore,
    Paper,
    Cloth,
    Coin,
}

impl Card {
    pub fn resource(self) -> Option<Resource> {
        Resource::ALL.get(self as usize).copied()
    }

    pub fn commodity(self) -> Option<Commodity> {
        (self as usize)
            .checked_sub(Resource::ALL.len())
            .map(|i| Commodity::ALL[i])
    }
}

impl From<Resource> for Card {
    fn from(r: Resource) -> Card {
        Card::ALL[r as usize]
    }
}

impl From<Commodity> for Card {
    fn from(c: Commodity) -> Card {
        Card::ALL[Resource::ALL.len() + c as usize]
    }
}

impl CardKind for Card {
    const ALL: &'static [Card] = &[
        Card::Brick,
        Card::Lumber,
        Card::Wool,
        Card::Grain,
        Card::Ore,
        Card::Paper,
        Card::Cloth,
        Card::Coin,
    ];
    const NAMES: &'static [&'static str] = &[
        "brick", "lumber", "wool", "grain", "ore", "paper", "cloth", "coin",
    ];

    fn index(self) -> usize {
        self as usize
    }

    fn listed_when_zero(self) -> bool {
        self.resource().is_some()
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl SlotIn<Card> for Resource {
    fn slot(self) -> usize {
        self as usize
    }
}

impl SlotIn<Card> for Commodity {
    fn slot(self) -> usize {
        Card::from(self) as usize
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
}

impl CardKind for DevCard {
    const ALL: &'static [DevCard] = &DevCard::ALL;
    const NAMES: &'static [&'static str] = &[
        "knight",
        "victory_point",
        "road_building",
        "year_of_plenty",
        "monopoly",
    ];

    fn index(self) -> usize {
        self as usize
    }
}

/// The three city-improvement tracks of Cities & Knights, each with its
/// commodity, its gate on the event die and its progress deck.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Track {
    /// Yellow: cloth, the Merchant Guild.
    Trade,
    /// Blue: coin, the Fortress.
    Politics,
    /// Green: paper, the Aqueduct.
    Science,
}

impl Track {
    pub const ALL: [Track; 3] = [Track::Trade, Track::Politics, Track::Science];

    pub fn index(self) -> usize {
        self as usize
    }

    /// The commodity that buys this track's levels.
    pub fn commodity(self) -> Commodity {
        match self {
            Track::Trade => Commodity::Cloth,
            Track::Politics => Commodity::Coin,
            Track::Science => Commodity::Paper,
        }
    }
}

impl fmt::Display for Track {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Track::Trade => "trade",
            Track::Politics => "politics",
            Track::Science => "science",
        })
    }
}

/// The progress cards of Cities & Knights: 18 in each track's deck.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProgressCard {
    // Science (green)
    Alchemist,
    Crane,
    Engineer,
    Inventor,
    Irrigation,
    Medicine,
    Mining,
    Printer,
    RoadBuilding,
    Smith,
    // Politics (blue)
    Bishop,
    Constitution,
    Deserter,
    Diplomat,
    Intrigue,
    Saboteur,
    Spy,
    Warlord,
    Wedding,
    // Trade (yellow)
    CommercialHarbor,
    MasterMerchant,
    Merchant,
    MerchantFleet,
    ResourceMonopoly,
    TradeMonopoly,
}

impl ProgressCard {
    pub const ALL: [ProgressCard; 25] = [
        ProgressCard::Alchemist,
        ProgressCard::Crane,
        ProgressCard::Engineer,
        ProgressCard::Inventor,
        ProgressCard::Irrigation,
        ProgressCard::Medicine,
        ProgressCard::Mining,
        ProgressCard::Printer,
        ProgressCard::RoadBuilding,
        ProgressCard::Smith,
        ProgressCard::Bishop,
        ProgressCard::Constitution,
        ProgressCard::Deserter,
        ProgressCard::Diplomat,
        ProgressCard::Intrigue,
        ProgressCard::Saboteur,
        ProgressCard::Spy,
        ProgressCard::Warlord,
        ProgressCard::Wedding,
        ProgressCard::CommercialHarbor,
        ProgressCard::MasterMerchant,
        ProgressCard::Merchant,
        ProgressCard::MerchantFleet,
        ProgressCard::ResourceMonopoly,
        ProgressCard::TradeMonopoly,
    ];

    /// The deck the card belongs to.
    pub fn track(self) -> Track {
        match self as usize {
            0..=9 => Track::Science,
            10..=18 => Track::Politics,
            _ => Track::Trade,
        }
    }

    /// How many copies its deck holds (RULES.md §6.13).
    pub fn copies(self) -> u8 {
        use ProgressCard::*;
        match self {
            Engineer | Printer | Constitution => 1,
            Spy => 3,
            ResourceMonopoly => 4,
            Merchant => 6,
            _ => 2,
        }
    }

    /// Printer and Constitution: laid down when obtained, never held.
    pub fn is_victory_point(self) -> bool {
        matches!(self, ProgressCard::Printer | ProgressCard::Constitution)
    }
}

impl CardKind for ProgressCard {
    const ALL: &'static [ProgressCard] = &ProgressCard::ALL;
    const NAMES: &'static [&'static str] = &[
        "alchemist",
        "crane",
        "engineer",
        "inventor",
        "irrigation",
        "medicine",
        "mining",
        "printer",
        "road_building",
        "smith",
        "bishop",
        "constitution",
        "deserter",
        "diplomat",
        "intrigue",
        "saboteur",
        "spy",
        "warlord",
        "wedding",
        "commercial_harbor",
        "master_merchant",
        "merchant",
        "merchant_fleet",
        "resource_monopoly",
        "trade_monopoly",
    ];

    fn index(self) -> usize {
        self as usize
    }

    /// A hand of progress cards lists only what it holds.
    fn listed_when_zero(self) -> bool {
        false
    }
}

impl fmt::Display for ProgressCard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The high bit of each byte lane of a packed bundle.
const HIGH: u64 = 0x8080_8080_8080_8080;

/// A multiset of cards of the `N` kinds `K`.
pub struct Bundle<K, const N: usize> {
    counts: [u8; N],
    kind: PhantomData<fn() -> K>,
}

/// A hand, the bank, a cost: resources and commodities. Named for what it
/// held before commodities existed; its wire form is unchanged for games
/// without them.
pub type Cards = Bundle<Card, 8>;
pub type ResourceCounts = Cards;
/// Development cards held, counted by kind.
pub type DevCounts = Bundle<DevCard, 5>;
/// Progress cards, counted by kind.
pub type ProgressCounts = Bundle<ProgressCard, 25>;

impl<K, const N: usize> Bundle<K, N> {
    pub const ZERO: Self = Bundle {
        counts: [0; N],
        kind: PhantomData,
    };

    pub const fn from_counts(counts: [u8; N]) -> Self {
        Bundle {
            counts,
            kind: PhantomData,
        }
    }

    /// The counts in kind order.
    pub fn counts(&self) -> &[u8; N] {
        &self.counts
    }

    /// The counts packed into one word (bundles of up to eight kinds), for
    /// the operations legal-action lists run thousands of times a game.
    fn word(&self) -> Option<u64> {
        (N <= 8).then(|| {
            let mut bytes = [0u8; 8];
            bytes[..N].copy_from_slice(&self.counts);
            u64::from_le_bytes(bytes)
        })
    }

    pub fn total(&self) -> u32 {
        match self.word() {
            // Pairs of bytes into four 16-bit lanes, then the lanes summed:
            // exact for any counts (at most 8 × 255).
            Some(w) => {
                let pairs = (w & 0x00ff_00ff_00ff_00ff) + ((w >> 8) & 0x00ff_00ff_00ff_00ff);
                (pairs.wrapping_mul(0x0001_0001_0001_0001) >> 48) as u32
            }
            None => self.counts.iter().map(|&n| n as u32).sum(),
        }
    }

    fn set_word(&mut self, w: u64) {
        self.counts.copy_from_slice(&w.to_le_bytes()[..N]);
    }

    /// Both bundles packed, when every count is below 128: lanes then
    /// neither carry nor borrow into each other in the operations below.
    /// Real hands and costs always are; anything else takes the slow path.
    fn small_words(&self, other: &Self) -> Option<(u64, u64)> {
        let (a, b) = (self.word()?, other.word()?);
        ((a | b) & HIGH == 0).then_some((a, b))
    }

    pub fn is_empty(&self) -> bool {
        match self.word() {
            Some(w) => w == 0,
            None => self.counts.iter().all(|&n| n == 0),
        }
    }

    pub fn contains(&self, other: &Self) -> bool {
        if let Some((a, b)) = self.small_words(other) {
            // A lane of `(a | 128) - b` keeps its high bit exactly when a >= b.
            return ((a | HIGH) - b) & HIGH == HIGH;
        }
        self.counts
            .iter()
            .zip(other.counts.iter())
            .all(|(a, b)| a >= b)
    }

    /// Adds `other`, saturating; callers check supply limits before adding.
    pub fn add(&mut self, other: &Self) {
        if let Some((a, b)) = self.small_words(other) {
            return self.set_word(a + b);
        }
        for (a, b) in self.counts.iter_mut().zip(other.counts.iter()) {
            *a = a.saturating_add(*b);
        }
    }

    /// Subtracts `other`, a kind short going to zero; callers check
    /// `contains` first.
    pub fn sub(&mut self, other: &Self) {
        if let Some((a, b)) = self.small_words(other) {
            // Lanes with a >= b keep their high bit: they hold a - b below
            // it; the others are zeroed.
            let r = (a | HIGH) - b;
            let keep = ((r & HIGH) >> 7) * 0xff;
            return self.set_word(r & !HIGH & keep);
        }
        for (a, b) in self.counts.iter_mut().zip(other.counts.iter()) {
            *a = a.saturating_sub(*b);
        }
    }

    /// True when some kind appears on both sides.
    pub fn overlaps(&self, other: &Self) -> bool {
        self.counts
            .iter()
            .zip(other.counts.iter())
            .any(|(a, b)| *a > 0 && *b > 0)
    }
}

impl<K: CardKind, const N: usize> Bundle<K, N> {
    pub fn single(kind: impl SlotIn<K>, n: u8) -> Self {
        let mut c = Self::ZERO;
        c.counts[kind.slot()] = n;
        c
    }

    /// The card at position `k` when the cards are laid out in kind order;
    /// used to draw a uniformly random card.
    pub fn nth_card(&self, mut k: u32) -> Option<K> {
        for (&kind, &n) in K::ALL.iter().zip(self.counts.iter()) {
            if k < n as u32 {
                return Some(kind);
            }
            k -= n as u32;
        }
        None
    }

    /// Every kind held, with its count.
    pub fn iter(&self) -> impl Iterator<Item = (K, u8)> + '_ {
        K::ALL
            .iter()
            .zip(self.counts.iter())
            .filter(|(_, n)| **n > 0)
            .map(|(&k, &n)| (k, n))
    }
}

impl Cards {
    /// Resources only, in the order brick, lumber, wool, grain, ore.
    pub const fn new(brick: u8, lumber: u8, wool: u8, grain: u8, ore: u8) -> Self {
        Cards::from_counts([brick, lumber, wool, grain, ore, 0, 0, 0])
    }

    /// The resource cards of the bundle (commodities left out).
    pub fn resources(&self) -> Cards {
        let mut c = *self;
        c.counts[Resource::ALL.len()..].fill(0);
        c
    }

    /// The commodity cards of the bundle (resources left out).
    pub fn commodities(&self) -> Cards {
        let mut c = *self;
        c.counts[..Resource::ALL.len()].fill(0);
        c
    }
}

impl<K, const N: usize> Clone for Bundle<K, N> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<K, const N: usize> Copy for Bundle<K, N> {}

impl<K, const N: usize> Default for Bundle<K, N> {
    fn default() -> Self {
        Self::ZERO
    }
}

impl<K, const N: usize> PartialEq for Bundle<K, N> {
    fn eq(&self, other: &Self) -> bool {
        self.counts == other.counts
    }
}

impl<K, const N: usize> Eq for Bundle<K, N> {}

impl<K, const N: usize> Hash for Bundle<K, N> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.counts.hash(state);
    }
}

impl<K: CardKind, const N: usize> fmt::Debug for Bundle<K, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map()
            .entries(self.iter().map(|(k, n)| (k.name(), n)))
            .finish()
    }
}

impl<K, const N: usize, I: SlotIn<K>> Index<I> for Bundle<K, N> {
    type Output = u8;
    fn index(&self, kind: I) -> &u8 {
        &self.counts[kind.slot()]
    }
}

impl<K, const N: usize, I: SlotIn<K>> IndexMut<I> for Bundle<K, N> {
    fn index_mut(&mut self, kind: I) -> &mut u8 {
        &mut self.counts[kind.slot()]
    }
}

impl<K: CardKind, const N: usize> Serialize for Bundle<K, N> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let listed = |(k, n): (&K, &u8)| *n > 0 || k.listed_when_zero();
        let len = K::ALL.iter().zip(self.counts.iter()).filter(|&e| listed(e));
        let mut map = s.serialize_map(Some(len.count()))?;
        for (k, n) in K::ALL.iter().zip(self.counts.iter()) {
            if listed((k, n)) {
                map.serialize_entry(k.name(), n)?;
            }
        }
        map.end()
    }
}

impl<'de, K: CardKind, const N: usize> Deserialize<'de> for Bundle<K, N> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Counts<K, const N: usize>(PhantomData<fn() -> K>);

        impl<'de, K: CardKind, const N: usize> Visitor<'de> for Counts<K, N> {
            type Value = Bundle<K, N>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "an object of card counts keyed by {:?}", K::NAMES)
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut out = Bundle::<K, N>::ZERO;
                let mut seen = [false; N];
                while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
                    let Some(i) = K::NAMES.iter().position(|n| *n == key) else {
                        return Err(de::Error::unknown_field(&key, K::NAMES));
                    };
                    if std::mem::replace(&mut seen[i], true) {
                        return Err(de::Error::duplicate_field(K::NAMES[i]));
                    }
                    out.counts[i] = map.next_value()?;
                }
                Ok(out)
            }
        }

        d.deserialize_map(Counts::<K, N>(PhantomData))
    }
}

/// Building costs, RULES.md §1 "Costs".
pub mod cost {
    use super::Cards;
    pub const ROAD: Cards = Cards::new(1, 1, 0, 0, 0);
    pub const SETTLEMENT: Cards = Cards::new(1, 1, 1, 1, 0);
    pub const CITY: Cards = Cards::new(0, 0, 0, 2, 3);
    pub const DEV_CARD: Cards = Cards::new(0, 0, 1, 1, 1);
    /// Cities & Knights (RULES.md §6.8, §6.9, §6.13).
    pub const WALL: Cards = Cards::new(2, 0, 0, 0, 0);
    pub const KNIGHT: Cards = Cards::new(0, 0, 1, 0, 1);
    pub const ACTIVATION: Cards = Cards::new(0, 0, 0, 1, 0);
    pub const MEDICINE_CITY: Cards = Cards::new(0, 0, 0, 1, 2);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hand_without_commodities_reads_as_resources_always_have() {
        let c = Cards::new(1, 0, 2, 0, 0);
        assert_eq!(
            serde_json::to_string(&c).unwrap(),
            r#"{"brick":1,"lumber":0,"wool":2,"grain":0,"ore":0}"#
        );
        let mut with = c;
        with[Commodity::Coin] = 3;
        assert_eq!(
            serde_json::to_string(&with).unwrap(),
            r#"{"brick":1,"lumber":0,"wool":2,"grain":0,"ore":0,"coin":3}"#
        );
        assert_eq!(
            serde_json::from_str::<Cards>(r#"{"ore":2}"#).unwrap()[Resource::Ore],
            2
        );
        assert_eq!(
            serde_json::from_str::<Cards>(r#"{"coin":3,"wool":2,"brick":1}"#).unwrap(),
            with
        );
        for bad in [
            r#"{"gold":1}"#,
            r#"{"ore":1,"ore":2}"#,
            r#"{"ore":300}"#,
            "[1]",
        ] {
            assert!(serde_json::from_str::<Cards>(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn development_counts_list_every_kind() {
        let mut d = DevCounts::ZERO;
        d[DevCard::Monopoly] = 1;
        assert_eq!(
            serde_json::to_string(&d).unwrap(),
            r#"{"knight":0,"victory_point":0,"road_building":0,"year_of_plenty":0,"monopoly":1}"#
        );
    }

    #[test]
    fn packed_operations_agree_with_count_by_count_ones() {
        let mut rng = crate::rng::GameRng::from_seed(3);
        for _ in 0..20_000 {
            let pick = |rng: &mut crate::rng::GameRng| {
                let big = rng.below(4) == 0;
                std::array::from_fn(|_| {
                    if big {
                        rng.below(256) as u8
                    } else {
                        rng.below(5) as u8
                    }
                })
            };
            let (a, b): ([u8; 8], [u8; 8]) = (pick(&mut rng), pick(&mut rng));
            let (x, y) = (Cards::from_counts(a), Cards::from_counts(b));
            let sum: u32 = a.iter().map(|&n| n as u32).sum();
            assert_eq!(x.total(), sum, "{a:?}");
            assert_eq!(
                x.contains(&y),
                a.iter().zip(&b).all(|(p, q)| p >= q),
                "{a:?} {b:?}"
            );
            assert_eq!(x.is_empty(), a.iter().all(|&n| n == 0));
            let mut s = x;
            s.add(&y);
            assert_eq!(
                s.counts(),
                &std::array::from_fn(|i| a[i].saturating_add(b[i]))
            );
            let mut d = x;
            d.sub(&y);
            assert_eq!(
                d.counts(),
                &std::array::from_fn(|i| a[i].saturating_sub(b[i]))
            );
            let d = DevCounts::from_counts([a[0], a[1], a[2], a[3], a[4]]);
            assert_eq!(d.total(), a[..5].iter().map(|&n| n as u32).sum::<u32>());
        }
    }

    #[test]
    fn cards_are_resources_then_commodities() {
        for r in Resource::ALL {
            let c = Card::from(r);
            assert_eq!((c.resource(), c.commodity()), (Some(r), None));
            assert_eq!(c.name(), r.to_string());
        }
        for m in Commodity::ALL {
            let c = Card::from(m);
            assert_eq!((c.resource(), c.commodity()), (None, Some(m)));
        }
        let mut hand = Cards::new(0, 1, 0, 0, 0);
        hand[Commodity::Paper] = 2;
        assert_eq!(hand.nth_card(0), Some(Card::Lumber));
        assert_eq!(hand.nth_card(2), Some(Card::Paper));
        assert_eq!(hand.nth_card(3), None);
        assert_eq!(hand.resources(), Cards::new(0, 1, 0, 0, 0));
        assert_eq!(hand.commodities().total(), 2);
    }
}
