//! Inline sets of board ids and resources. They serialize as JSON arrays of
//! ids, so the wire format is a plain list, while the engine keeps them in a
//! machine word (no allocation per legal-action list).

use super::topology::{EdgeId, NodeId, bits128};
use crate::cards::{Card, CardKind, Resource};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

macro_rules! id_set {
    ($name:ident, $word:ty, $id:ty, $limit:expr, $doc:literal) => {
        #[doc = $doc]
        #[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
        pub struct $name(pub $word);

        impl $name {
            pub fn insert(&mut self, id: $id) {
                self.0 |= 1 << id;
            }

            pub fn remove(&mut self, id: $id) -> bool {
                if !self.contains(id) {
                    return false;
                }
                self.0 &= !(1 << id);
                true
            }

            pub fn contains(&self, id: $id) -> bool {
                (id as u32) < $limit && self.0 & (1 << id) != 0
            }

            pub fn len(&self) -> usize {
                self.0.count_ones() as usize
            }

            pub fn is_empty(&self) -> bool {
                self.0 == 0
            }

            pub fn iter(&self) -> impl Iterator<Item = $id> + '_ {
                bits128(self.0 as u128).map(|i| i as $id)
            }

            /// The `k`-th id in ascending order.
            pub fn nth(&self, k: usize) -> Option<$id> {
                self.iter().nth(k)
            }
        }

        impl FromIterator<$id> for $name {
            fn from_iter<I: IntoIterator<Item = $id>>(iter: I) -> Self {
                let mut s = $name::default();
                for id in iter {
                    s.insert(id);
                }
                s
            }
        }

        impl std::fmt::Debug for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_list().entries(self.iter()).finish()
            }
        }

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_seq(self.iter())
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let ids = Vec::<$id>::deserialize(d)?;
                if let Some(bad) = ids.iter().find(|&&i| i as u32 >= $limit) {
                    return Err(serde::de::Error::custom(format!("id {bad} out of range")));
                }
                Ok(ids.into_iter().collect())
            }
        }
    };
}

id_set!(NodeSet, u64, NodeId, 54, "A set of node ids.");
id_set!(EdgeSet, u128, EdgeId, 72, "A set of edge ids.");

/// A set of resources, serialized as a list of names.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct ResourceSet(pub u8);

impl ResourceSet {
    pub const ALL: ResourceSet = ResourceSet(0b11111);

    pub fn without(self, r: Resource) -> ResourceSet {
        ResourceSet(self.0 & !(1 << r.index()))
    }

    pub fn contains(&self, r: Resource) -> bool {
        self.0 & (1 << r.index()) != 0
    }

    pub fn len(&self) -> usize {
        self.0.count_ones() as usize
    }

    pub fn is_empty(&self) -> bool {
        self.0 == 0
    }

    pub fn iter(&self) -> impl Iterator<Item = Resource> + '_ {
        Resource::ALL.into_iter().filter(|r| self.contains(*r))
    }

    pub fn nth(&self, k: usize) -> Option<Resource> {
        self.iter().nth(k)
    }
}

impl std::fmt::Debug for ResourceSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Serialize for ResourceSet {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for ResourceSet {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Vec::<Resource>::deserialize(d)?;
        Ok(ResourceSet(v.iter().fold(0, |m, r| m | (1 << r.index()))))
    }
}

/// A set of card kinds (resources and commodities), serialized as a list
/// of names.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct CardSet(pub u8);

impl CardSet {
    pub const ALL: CardSet = CardSet(0xff);
    pub const RESOURCES: CardSet = CardSet(0b1_1111);

    pub fn only(c: Card) -> CardSet {
        CardSet(1 << c.index())
    }

    pub fn with(self, c: Card) -> CardSet {
        CardSet(self.0 | (1 << c.index()))
    }

    pub fn without(self, c: Card) -> CardSet {
        CardSet(self.0 & !(1 << c.index()))
    }

    pub fn contains(&self, c: Card) -> bool {
        self.0 & (1 << c.index()) != 0
    }

    pub fn len(&self) -> usize {
        self.0.count_ones() as usize
    }

    pub fn is_empty(&self) -> bool {
        self.0 == 0
    }

    pub fn iter(&self) -> impl Iterator<Item = Card> + '_ {
        Card::ALL.iter().copied().filter(|c| self.contains(*c))
    }

    pub fn nth(&self, k: usize) -> Option<Card> {
        self.iter().nth(k)
    }
}

impl std::fmt::Debug for CardSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Serialize for CardSet {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for CardSet {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Vec::<Card>::deserialize(d)?;
        Ok(v.into_iter().fold(CardSet::default(), CardSet::with))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_serialize_as_sorted_lists_and_reject_bad_ids() {
        let s: EdgeSet = [71, 3, 64].into_iter().collect();
        assert_eq!(serde_json::to_string(&s).unwrap(), "[3,64,71]");
        assert_eq!(s.nth(1), Some(64));
        assert_eq!(serde_json::from_str::<EdgeSet>("[3,64,71]").unwrap(), s);
        assert!(serde_json::from_str::<EdgeSet>("[72]").is_err());
        assert!(serde_json::from_str::<NodeSet>("[54]").is_err());
        let r = ResourceSet::ALL.without(Resource::Ore);
        assert_eq!(
            serde_json::to_string(&r).unwrap(),
            r#"["brick","lumber","wool","grain"]"#
        );
        let c = CardSet::only(Card::Coin).with(Card::Brick);
        assert_eq!(serde_json::to_string(&c).unwrap(), r#"["brick","coin"]"#);
        assert_eq!(
            serde_json::from_str::<CardSet>(r#"["coin","brick"]"#).unwrap(),
            c
        );
        assert_eq!(CardSet::ALL.without(Card::Coin).len(), 7);
    }
}
