//! A game as a replay of its append-only log: accepted moves, draws, undos and reveals.
//!
//! Moves and draws are the game's own JSON; the log knows only their place. Stored entries keep
//! the layout of the first version: `{"entry":"action","seat":0,"action":{…}}`,
//! `{"entry":"draw","manual":false,"index":14,…the draw's fields…}`, `{"entry":"undo"}`,
//! `{"entry":"reveal"}`. Table-level entries (clocks, absences, substitutions, moves made for a
//! seat, reminders: [`crate::weeks::meta`]) are `{"entry":"table","event":…}`; they are not moves, so
//! an undo never takes them back.

use serde_json::{Map, Value};

/// One log entry.
#[derive(Debug, Clone, PartialEq)]
pub enum Entry {
    /// A player's accepted move (the game's JSON).
    Action {
        /// Their seat.
        seat: usize,
        /// The move.
        action: Value,
    },
    /// A random result: made by the audited dice or entered by the moderator.
    Draw {
        /// Whether the moderator entered it.
        manual: bool,
        /// The index it was derived from (the game defines it).
        index: u64,
        /// The draw's own fields (the game's JSON object).
        draw: Map<String, Value>,
        /// Under dice spec v2, the id of the message whose id keyed the draw (stored as
        /// `message_id`).
        key: Option<String>,
    },
    /// The moderator undid the last unit.
    Undo,
    /// The seed was revealed.
    Reveal,
    /// A table-level entry (not a move): clocks, absences, substitutions, proxies, reminders.
    Table(crate::game::events::TableEvent),
}

/// Why a stored entry cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct EntryError(String);

impl Entry {
    /// The stored JSON.
    pub fn to_json(&self) -> Value {
        let mut object = Map::new();
        match self {
            Entry::Action { seat, action } => {
                object.insert("entry".into(), "action".into());
                object.insert("seat".into(), Value::from(*seat));
                object.insert("action".into(), action.clone());
            }
            Entry::Draw {
                manual,
                index,
                draw,
                key,
            } => {
                object.insert("entry".into(), "draw".into());
                for (k, v) in draw {
                    object.insert(k.clone(), v.clone());
                }
                object.insert("manual".into(), Value::from(*manual));
                object.insert("index".into(), Value::from(*index));
                if let Some(key) = key {
                    object.insert("message_id".into(), Value::from(key.clone()));
                }
            }
            Entry::Undo => {
                object.insert("entry".into(), "undo".into());
            }
            Entry::Reveal => {
                object.insert("entry".into(), "reveal".into());
            }
            Entry::Table(event) => {
                if let Ok(Value::Object(fields)) = serde_json::to_value(event) {
                    object = fields;
                }
                object.insert("entry".into(), "table".into());
            }
        }
        Value::Object(object)
    }

    /// Reads a stored entry.
    pub fn from_json(value: &Value) -> Result<Entry, EntryError> {
        let object = value
            .as_object()
            .ok_or_else(|| EntryError("an entry is not a JSON object".into()))?;
        let kind = object.get("entry").and_then(Value::as_str).unwrap_or("");
        match kind {
            "action" => {
                let seat = object
                    .get("seat")
                    .and_then(Value::as_u64)
                    .and_then(|s| usize::try_from(s).ok())
                    .ok_or_else(|| EntryError("an action entry has no seat".into()))?;
                let action = object
                    .get("action")
                    .cloned()
                    .ok_or_else(|| EntryError("an action entry has no action".into()))?;
                Ok(Entry::Action { seat, action })
            }
            "draw" => {
                let manual = object
                    .get("manual")
                    .and_then(Value::as_bool)
                    .ok_or_else(|| EntryError("a draw entry has no manual flag".into()))?;
                let index = object
                    .get("index")
                    .and_then(Value::as_u64)
                    .ok_or_else(|| EntryError("a draw entry has no index".into()))?;
                let key = object
                    .get("message_id")
                    .and_then(Value::as_str)
                    .map(str::to_string);
                let draw = object
                    .iter()
                    .filter(|(k, _)| {
                        !matches!(k.as_str(), "entry" | "manual" | "index" | "message_id")
                    })
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
                Ok(Entry::Draw {
                    manual,
                    index,
                    draw,
                    key,
                })
            }
            "undo" => Ok(Entry::Undo),
            "reveal" => Ok(Entry::Reveal),
            "table" => {
                let mut fields = object.clone();
                fields.remove("entry");
                serde_json::from_value(Value::Object(fields))
                    .map(Entry::Table)
                    .map_err(|e| EntryError(format!("a table entry does not read: {e}")))
            }
            other => Err(EntryError(format!("unknown entry kind '{other}'"))),
        }
    }

    /// Whether the entry changes the game (a move or a draw), so that an undo can take it back.
    pub fn is_play(&self) -> bool {
        matches!(self, Entry::Action { .. } | Entry::Draw { .. })
    }
}

/// An entry still in force, with its log position.
#[derive(Debug, Clone, PartialEq)]
pub struct Effective {
    /// Position in the log.
    pub seq: i64,
    /// The entry (a move or a draw).
    pub entry: Entry,
}

/// What an undo takes back.
#[derive(Debug, Clone, PartialEq)]
pub struct Undone {
    /// The entries taken back, oldest first.
    pub entries: Vec<Effective>,
}

/// The entries in force after applying undos: a stack.
pub fn effective<'a>(log: impl IntoIterator<Item = (i64, &'a Entry)>) -> Vec<Effective> {
    let mut stack: Vec<Effective> = Vec::new();
    for (seq, entry) in log {
        match entry {
            Entry::Action { .. } | Entry::Draw { .. } => stack.push(Effective {
                seq,
                entry: entry.clone(),
            }),
            Entry::Undo => {
                pop_unit(&mut stack);
            }
            Entry::Reveal | Entry::Table(_) => {}
        }
    }
    stack
}

/// Pops the last unit: a move, or a draw with the move that called for it.
pub fn pop_unit(stack: &mut Vec<Effective>) -> Option<Undone> {
    let last = stack.pop()?;
    let mut entries = vec![last];
    if matches!(entries[0].entry, Entry::Draw { .. })
        && matches!(stack.last().map(|e| &e.entry), Some(Entry::Action { .. }))
    {
        if let Some(call) = stack.pop() {
            entries.insert(0, call);
        }
    }
    Some(Undone { entries })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn action() -> Entry {
        Entry::Action {
            seat: 0,
            action: json!({"action": "pass"}),
        }
    }

    fn draw() -> Entry {
        Entry::from_json(
            &json!({"entry": "draw", "cubes": ["pink"], "manual": false, "index": 2,
            "supply": {"white": 1, "pink": 1, "black": 1}}),
        )
        .expect("a draw entry")
    }

    #[test]
    fn stored_entries_of_the_first_version_read_and_write_back_the_same() {
        for text in [
            r#"{"entry":"action","seat":0,"action":{"action":"bid","amount":7}}"#,
            r#"{"entry":"draw","cubes":["pink","black","black"],"manual":false,"index":14,"supply":{"white":8,"pink":6,"black":8}}"#,
            r#"{"entry":"draw","cubes":["pink"],"manual":false,"index":3,"supply":{"white":0,"pink":1,"black":0},"message_id":"1187654987654321098"}"#,
            r#"{"entry":"undo"}"#,
            r#"{"entry":"reveal"}"#,
        ] {
            let value: Value = serde_json::from_str(text).expect("json");
            let entry = Entry::from_json(&value).expect("reads");
            assert_eq!(entry.to_json(), value, "{text}");
        }
        assert!(Entry::from_json(&json!({"entry": "shuffle"})).is_err());
        assert!(Entry::from_json(&json!({"entry": "action"})).is_err());
        assert!(Entry::from_json(&json!([1])).is_err());
    }

    #[test]
    fn undo_takes_back_a_call_with_its_draw() {
        let log = [action(), action(), draw(), Entry::Undo];
        let stack = effective(log.iter().enumerate().map(|(i, e)| (i as i64, e)));
        assert_eq!(stack.iter().map(|e| e.seq).collect::<Vec<_>>(), [0]);
    }

    #[test]
    fn a_draw_with_no_move_before_it_is_undone_alone() {
        let log = [draw(), Entry::Undo];
        let stack = effective(log.iter().enumerate().map(|(i, e)| (i as i64, e)));
        assert!(stack.is_empty());
        let log = [draw(), draw(), Entry::Undo];
        let stack = effective(log.iter().enumerate().map(|(i, e)| (i as i64, e)));
        assert_eq!(stack.len(), 1);
    }

    #[test]
    fn undos_stack_up_and_redo_continues_the_log() {
        let log = [
            action(),
            action(),
            Entry::Undo,
            Entry::Undo,
            action(),
            Entry::Reveal,
        ];
        let stack = effective(log.iter().enumerate().map(|(i, e)| (i as i64, e)));
        assert_eq!(stack.iter().map(|e| e.seq).collect::<Vec<_>>(), [4]);
    }
}
