//! Hexes by index, and sets of them as a 192-bit bitset: cheap to copy, compare and combine.
//! What a hex is (its label, name, terrain and neighbours) is the board's (`board.rs`).

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A hex, named by its index on the board (0..139, in the order of `board.yaml`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HexId(pub u8);

impl HexId {
    /// The index of this hex in the board's hexes.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A set of hexes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct HexSet([u64; 3]);

impl HexSet {
    /// The empty set.
    pub const EMPTY: HexSet = HexSet([0; 3]);

    /// Adds a hex; returns whether it was new.
    pub fn insert(&mut self, hex: HexId) -> bool {
        let (word, bit) = (hex.index() / 64, hex.index() % 64);
        let was = self.0[word] & (1 << bit) != 0;
        self.0[word] |= 1 << bit;
        !was
    }

    /// Removes a hex.
    pub fn remove(&mut self, hex: HexId) {
        let (word, bit) = (hex.index() / 64, hex.index() % 64);
        self.0[word] &= !(1 << bit);
    }

    /// Whether the hex is in the set.
    pub fn contains(&self, hex: HexId) -> bool {
        let (word, bit) = (hex.index() / 64, hex.index() % 64);
        self.0[word] & (1 << bit) != 0
    }

    /// The number of hexes.
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.0 == [0; 3]
    }

    /// Hexes in both sets.
    pub fn intersection(&self, other: &HexSet) -> HexSet {
        HexSet([
            self.0[0] & other.0[0],
            self.0[1] & other.0[1],
            self.0[2] & other.0[2],
        ])
    }

    /// Hexes in either set.
    pub fn union(&self, other: &HexSet) -> HexSet {
        HexSet([
            self.0[0] | other.0[0],
            self.0[1] | other.0[1],
            self.0[2] | other.0[2],
        ])
    }

    /// Hexes in this set and not the other.
    pub fn difference(&self, other: &HexSet) -> HexSet {
        HexSet([
            self.0[0] & !other.0[0],
            self.0[1] & !other.0[1],
            self.0[2] & !other.0[2],
        ])
    }

    /// The hexes, in board order.
    pub fn iter(&self) -> impl Iterator<Item = HexId> + '_ {
        (0..3).flat_map(move |word| {
            let mut bits = self.0[word];
            std::iter::from_fn(move || {
                if bits == 0 {
                    return None;
                }
                let bit = bits.trailing_zeros();
                bits &= bits - 1;
                Some(HexId((word as u32 * 64 + bit) as u8))
            })
        })
    }

    /// The hexes adjacent to some hex of the set (including set members' neighbours in the set).
    pub fn neighbours(&self) -> HexSet {
        let mut out = HexSet::EMPTY;
        for hex in self.iter() {
            out = out.union(&hex.hex().neighbour_set);
        }
        out
    }
}

impl FromIterator<HexId> for HexSet {
    fn from_iter<I: IntoIterator<Item = HexId>>(iter: I) -> Self {
        let mut set = HexSet::EMPTY;
        for hex in iter {
            set.insert(hex);
        }
        set
    }
}

impl Serialize for HexSet {
    /// Serialized as a list of hex ids, sorted by row letter then column number.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut hexes: Vec<HexId> = self.iter().collect();
        hexes.sort_by_key(|h| (h.hex().row, h.hex().column));
        serializer.collect_seq(hexes)
    }
}

impl<'de> Deserialize<'de> for HexSet {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(Vec::<HexId>::deserialize(deserializer)?
            .into_iter()
            .collect())
    }
}
