//! The Irish Gauge board: 139 hexes, embedded at compile time from `data/board.yaml`.

use std::collections::HashMap;
use std::fmt;
use std::sync::LazyLock;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::hexset::HexSet;
use crate::railway::Railway;

/// The board file, embedded at compile time.
pub const BOARD_YAML: &str = include_str!("../data/board.yaml");

/// The number of hexes on the board.
pub const HEX_COUNT: usize = 139;

/// The eight starting cities in the order their cubes are drawn (rulings 19, 24).
pub const CITY_DRAW_ORDER: [&str; 8] = [
    "Galway",
    "Limerick",
    "Cork",
    "Derry",
    "Kilkenny",
    "Waterford",
    "Belfast",
    "Dublin",
];

/// The three major cities of the Major City Dividend.
pub const MAJOR_CITIES: [&str; 3] = ["Belfast", "Dublin", "Galway"];

/// The kind of a hex.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Terrain {
    /// Light green: 1 BP, 1.5 BP if another railway is there.
    Easy,
    /// Dark green: 2 BP, and only one railway may ever occupy it.
    Difficult,
    /// An urban hex that starts without a cube.
    Town,
    /// An urban hex that starts with a cube.
    City,
    /// Belfast, Dublin and Galway: cities that also count for the Major City Dividend.
    Major,
}

impl Terrain {
    /// Town, city and major city hexes are urban.
    pub fn is_urban(self) -> bool {
        matches!(self, Terrain::Town | Terrain::City | Terrain::Major)
    }
}

pub use crate::hexset::HexId;

/// What the board says of a hex.
impl HexId {
    /// The hex's data.
    pub fn hex(self) -> &'static Hex {
        &Board::get().hexes[self.index()]
    }

    /// The printed id, like `H11`.
    pub fn label(self) -> &'static str {
        &self.hex().label
    }

    /// The town or city name, or the id for a hex without a name.
    pub fn display_name(self) -> &'static str {
        let hex = self.hex();
        hex.name.as_deref().unwrap_or(&hex.label)
    }
}

/// A hex as players name it: `Shannon (K3)` or `K5`.
pub fn describe(hex: HexId) -> String {
    match &hex.hex().name {
        Some(name) => format!("{name} ({})", hex.label()),
        None => hex.label().to_string(),
    }
}

/// Half build points as players write them: `1`, `1.5`, `3`.
pub fn format_half_points(half: u8) -> String {
    if half % 2 == 1 {
        format!("{}.5", half / 2)
    } else {
        format!("{}", half / 2)
    }
}

/// What the board says of a railway.
impl Railway {
    /// The share face values, lowest first (ruling 3).
    pub fn share_values(self) -> &'static [u32] {
        &Board::get().railway(self).shares
    }

    /// The starting hex.
    pub fn start(self) -> HexId {
        Board::get().railway(self).start
    }
}

impl fmt::Display for HexId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.display_name())
    }
}

impl Serialize for HexId {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.label())
    }
}

impl<'de> Deserialize<'de> for HexId {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let label = String::deserialize(deserializer)?;
        Board::get()
            .by_label(&label)
            .ok_or_else(|| serde::de::Error::custom(format!("no hex '{label}'")))
    }
}

/// One hex of the board.
#[derive(Debug, Clone)]
pub struct Hex {
    /// Its own index.
    pub id: HexId,
    /// The printed id, like `H11`.
    pub label: String,
    /// Row letter as a number, `A` = 0.
    pub row: u8,
    /// Column number, 1..=12.
    pub column: u8,
    /// Its terrain.
    pub terrain: Terrain,
    /// Town or city name.
    pub name: Option<String>,
    /// Centre, millimetres east on the printed board.
    pub x: f64,
    /// Centre, millimetres south on the printed board.
    pub y: f64,
    /// Adjacent hexes.
    pub neighbours: Vec<HexId>,
    /// Adjacent hexes as a set.
    pub neighbour_set: HexSet,
}

#[derive(Deserialize)]
struct RawBoard {
    shares: HashMap<String, Vec<u32>>,
    railways: HashMap<String, RawRailway>,
    hexes: Vec<RawHex>,
}

#[derive(Deserialize)]
struct RawRailway {
    name: String,
    colour: String,
    start: String,
}

#[derive(Deserialize)]
struct RawHex {
    id: String,
    terrain: Terrain,
    #[serde(default)]
    name: Option<String>,
    x: f64,
    y: f64,
    neighbours: Vec<String>,
}

/// A railway as printed on the board.
#[derive(Debug, Clone)]
pub struct RailwayInfo {
    /// Full name.
    pub name: String,
    /// Locomotive colour.
    pub colour: String,
    /// Starting hex.
    pub start: HexId,
    /// Share face values, lowest first.
    pub shares: Vec<u32>,
}

/// The whole board.
#[derive(Debug)]
pub struct Board {
    /// All hexes, in file order.
    pub hexes: Vec<Hex>,
    labels: HashMap<String, HexId>,
    names: HashMap<String, HexId>,
    railways: Vec<RailwayInfo>,
    /// The urban hexes.
    pub urban: HexSet,
    /// The difficult hexes.
    pub difficult: HexSet,
}

static BOARD: LazyLock<Board> = LazyLock::new(|| {
    Board::parse(BOARD_YAML).unwrap_or_else(|e| panic!("embedded board.yaml is invalid: {e}"))
});

/// Splits `H11` into row 7 and column 11.
fn split_label(label: &str) -> Option<(u8, u8)> {
    let mut chars = label.chars();
    let row = chars.next()?.to_ascii_uppercase();
    if !row.is_ascii_uppercase() {
        return None;
    }
    let column: u8 = chars.as_str().parse().ok()?;
    Some((row as u8 - b'A', column))
}

impl Board {
    /// The board of the game.
    pub fn get() -> &'static Board {
        &BOARD
    }

    /// Parses and checks a board file.
    pub fn parse(yaml: &str) -> Result<Board, String> {
        let raw: RawBoard = serde_yaml_ng::from_str(yaml).map_err(|e| e.to_string())?;
        let mut labels = HashMap::new();
        for (index, hex) in raw.hexes.iter().enumerate() {
            let index = u8::try_from(index).map_err(|_| "too many hexes".to_string())?;
            if labels
                .insert(hex.id.to_ascii_uppercase(), HexId(index))
                .is_some()
            {
                return Err(format!("hex {} listed twice", hex.id));
            }
        }
        let lookup = |label: &str| {
            labels
                .get(&label.to_ascii_uppercase())
                .copied()
                .ok_or_else(|| format!("unknown hex {label}"))
        };
        let mut hexes = Vec::with_capacity(raw.hexes.len());
        let mut names = HashMap::new();
        let mut urban = HexSet::EMPTY;
        let mut difficult = HexSet::EMPTY;
        for (index, raw_hex) in raw.hexes.iter().enumerate() {
            let id = HexId(index as u8);
            let (row, column) =
                split_label(&raw_hex.id).ok_or_else(|| format!("bad hex id {}", raw_hex.id))?;
            let neighbours = raw_hex
                .neighbours
                .iter()
                .map(|n| lookup(n))
                .collect::<Result<Vec<_>, _>>()?;
            let neighbour_set = neighbours.iter().copied().collect();
            if let Some(name) = &raw_hex.name {
                names.insert(name.to_ascii_lowercase(), id);
            }
            if raw_hex.terrain.is_urban() {
                urban.insert(id);
            }
            if raw_hex.terrain == Terrain::Difficult {
                difficult.insert(id);
            }
            hexes.push(Hex {
                id,
                label: raw_hex.id.clone(),
                row,
                column,
                terrain: raw_hex.terrain,
                name: raw_hex.name.clone(),
                x: raw_hex.x,
                y: raw_hex.y,
                neighbours,
                neighbour_set,
            });
        }
        let mut railways = Vec::new();
        for railway in Railway::ALL {
            let info = raw
                .railways
                .get(railway.code())
                .ok_or_else(|| format!("railway {} missing", railway.code()))?;
            let shares = raw
                .shares
                .get(railway.code())
                .cloned()
                .ok_or_else(|| format!("shares of {} missing", railway.code()))?;
            railways.push(RailwayInfo {
                name: info.name.clone(),
                colour: info.colour.clone(),
                start: lookup(&info.start)?,
                shares,
            });
        }
        Ok(Board {
            hexes,
            labels,
            names,
            railways,
            urban,
            difficult,
        })
    }

    /// Every hex id.
    pub fn ids(&self) -> impl Iterator<Item = HexId> + '_ {
        self.hexes.iter().map(|h| h.id)
    }

    /// Looks up a hex by printed id, case-insensitive (`h11`).
    pub fn by_label(&self, label: &str) -> Option<HexId> {
        self.labels.get(&label.trim().to_ascii_uppercase()).copied()
    }

    /// Looks up a hex by town or city name, case-insensitive (`new ross`).
    pub fn by_name(&self, name: &str) -> Option<HexId> {
        let folded = name.split_whitespace().collect::<Vec<_>>().join(" ");
        self.names.get(&folded.to_ascii_lowercase()).copied()
    }

    /// Looks up a hex by id or by name.
    pub fn find(&self, text: &str) -> Option<HexId> {
        self.by_label(text).or_else(|| self.by_name(text))
    }

    /// The named hex, which must exist (used for fixed names like "Dublin").
    pub fn named(&self, name: &str) -> HexId {
        self.by_name(name)
            .unwrap_or_else(|| panic!("board has no hex named {name}"))
    }

    /// Every town and city name.
    pub fn names(&self) -> impl Iterator<Item = &str> + '_ {
        self.hexes.iter().filter_map(|h| h.name.as_deref())
    }

    /// The printed data of a railway.
    pub fn railway(&self, railway: Railway) -> &RailwayInfo {
        &self.railways[railway.index()]
    }

    /// The closest hex id or name to a misspelt one, if any is close. A hex id that does not
    /// exist (`N7`) gets the nearest id that does in the same column (`N6`) or row (`M7`,
    /// `O7`), one column or two rows away at most — never a hex across the board.
    pub fn suggest(&self, text: &str) -> Option<&'static str> {
        let board = Board::get();
        if let Some((column, row)) = split_id(text.trim()) {
            let mut best: Option<(u32, &'static str)> = None;
            for hex in &board.hexes {
                let Some((c, r)) = split_id(&hex.label) else {
                    continue;
                };
                let distance = if c == column {
                    r.abs_diff(row) * 2
                } else if r == row && column.len() == 1 && c.len() == 1 {
                    let (a, b) = (column.as_bytes()[0], c.as_bytes()[0]);
                    u32::from(a.abs_diff(b)) * 3
                } else {
                    continue;
                };
                if (1..=4).contains(&distance) && best.is_none_or(|(d, _)| distance < d) {
                    best = Some((distance, hex.label.as_str()));
                }
            }
            return best.map(|(_, label)| label);
        }
        let wanted = text.to_ascii_lowercase();
        let mut best: Option<(usize, &'static str)> = None;
        for hex in &board.hexes {
            for candidate in [Some(hex.label.as_str()), hex.name.as_deref()]
                .into_iter()
                .flatten()
            {
                // Names differing in length by more than the limit cannot be close: skip them,
                // so a long garbage word costs no more than a short one.
                if wanted.chars().count().abs_diff(candidate.len()) > 2 {
                    continue;
                }
                let distance = edit_distance(&wanted, &candidate.to_ascii_lowercase());
                let limit = if candidate.len() <= 3 { 1 } else { 2 };
                if distance <= limit && best.is_none_or(|(d, _)| distance < d) {
                    best = Some((distance, candidate));
                }
            }
        }
        best.map(|(_, name)| name)
    }
}

/// A hex id's column letters (upper case) and row number: `n7` → (`N`, 7).
fn split_id(text: &str) -> Option<(String, u32)> {
    let digits = text.find(|c: char| c.is_ascii_digit())?;
    let (column, row) = text.split_at(digits);
    if column.is_empty() || column.len() > 2 || !column.chars().all(|c| c.is_ascii_alphabetic()) {
        return None;
    }
    Some((column.to_ascii_uppercase(), row.parse().ok()?))
}

/// Levenshtein distance, for "did you mean" suggestions.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut current = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != *cb);
            current[j + 1] = substitution.min(previous[j + 1] + 1).min(current[j] + 1);
        }
        previous = current;
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_has_139_hexes_with_the_printed_terrain_counts() {
        let board = Board::get();
        assert_eq!(board.hexes.len(), HEX_COUNT);
        let count = |t: Terrain| board.hexes.iter().filter(|h| h.terrain == t).count();
        assert_eq!(count(Terrain::Easy), 88);
        assert_eq!(count(Terrain::Difficult), 33);
        assert_eq!(count(Terrain::Town), 10);
        assert_eq!(count(Terrain::City), 5);
        assert_eq!(count(Terrain::Major), 3);
    }

    #[test]
    fn neighbours_follow_the_odd_column_rule_and_are_symmetric() {
        let board = Board::get();
        for hex in &board.hexes {
            let (r, c) = (i32::from(hex.row), i32::from(hex.column));
            let offsets: [(i32, i32); 6] = if c % 2 == 0 {
                [(-1, 0), (-1, 1), (0, 1), (1, 0), (0, -1), (-1, -1)]
            } else {
                [(-1, 0), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1)]
            };
            let mut expected: Vec<HexId> = offsets
                .iter()
                .filter_map(|(dr, dc)| {
                    let (nr, nc) = (r + dr, c + dc);
                    if !(0..26).contains(&nr) || nc < 1 {
                        return None;
                    }
                    let label = format!("{}{}", (b'A' + nr as u8) as char, nc);
                    board.by_label(&label)
                })
                .collect();
            let mut listed = hex.neighbours.clone();
            expected.sort();
            listed.sort();
            assert_eq!(listed, expected, "neighbours of {}", hex.label);
            for n in &hex.neighbours {
                assert!(
                    n.hex().neighbours.contains(&hex.id),
                    "{} ~ {}",
                    hex.label,
                    n.label()
                );
            }
        }
    }

    #[test]
    fn names_and_ids_are_found_case_insensitively() {
        let board = Board::get();
        assert_eq!(board.find("h11"), board.find("Dublin"));
        assert_eq!(board.find("new   ross").map(|h| h.label()), Some("L9"));
        assert_eq!(board.find("SHANNON").map(|h| h.label()), Some("K3"));
        assert_eq!(board.suggest("Shanon"), Some("Shannon"));
        assert_eq!(board.suggest("Zzzzzz"), None);
        // A hex id that does not exist: the nearest in its column or row, or nothing.
        let near = board.suggest("N7").expect("a hex near N7");
        let (column, row) = split_id(near).expect("an id");
        assert!(
            (column == "N" && row.abs_diff(7) <= 2)
                || (row == 7 && (column == "M" || column == "O")),
            "{near} is not near N7"
        );
        assert_ne!(near, "A7");
        assert_eq!(board.suggest("A99"), None);
        assert_eq!(board.suggest("Z1"), None);
    }

    #[test]
    fn starting_hexes_are_the_printed_cities() {
        let board = Board::get();
        let start = |r: Railway| board.railway(r).start.display_name();
        assert_eq!(start(Railway::Cbsc), "Cork");
        assert_eq!(start(Railway::Wlw), "Limerick");
        assert_eq!(start(Railway::Bcd), "Belfast");
        assert_eq!(start(Railway::Gsw), "Dublin");
        assert_eq!(start(Railway::Mgw), "Dublin");
        for name in CITY_DRAW_ORDER {
            let hex = board.named(name);
            assert!(matches!(hex.hex().terrain, Terrain::City | Terrain::Major));
        }
        for name in MAJOR_CITIES {
            assert_eq!(board.named(name).hex().terrain, Terrain::Major);
        }
    }
}
