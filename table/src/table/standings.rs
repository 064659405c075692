//! The server's standings (`!standings`, the standings page): per game kind and per player,
//! games played and finished, wins (a shared win counted as a fraction), a multiplayer rating
//! (Weng-Lin, from the `skillratings` crate), and games abandoned or covered by the automa.
//! Computed from the games' records alone, replayed in the order they were set up; a server's
//! standings count the games of its channels only ([`Scope`]).

use std::collections::{BTreeMap, HashSet};

use serde::Serialize;
use serde_json::Value;
use skillratings::weng_lin::{weng_lin_multi_team, WengLinConfig, WengLinRating};
use skillratings::MultiTeamOutcome;

use crate::game::automa::AUTOMA_ID_PREFIX;
use crate::game::session::SharedPlugin;
use crate::record::{self, GameRecord, StoredSetup};
use crate::store::{Store, StoreError};

/// A player's line of the standings of one game kind.
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct Standing {
    /// Their name in their latest game.
    pub name: String,
    /// Games they sat in.
    pub played: u32,
    /// Of those, games played to the end.
    pub finished: u32,
    /// Wins: 1 for a win, 1/k for a win shared by k players.
    pub wins: f64,
    /// The same, as the standings write it (`1.5`).
    pub wins_text: String,
    /// Games ended before their end (a new game set up over them).
    pub abandoned: u32,
    /// Games where the automa moved for them (`proxy` markers of `why: automa`).
    pub covered: u32,
    /// Their Weng-Lin rating (μ), starting at 25.
    pub rating: f64,
    /// Its uncertainty (σ), starting at 25/3.
    pub uncertainty: f64,
    /// The rating as the standings write it (`27.3 ± 6.1`).
    pub rating_text: String,
}

/// The standings of one game kind, best rated first.
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct KindStandings {
    /// The kind (`irish-gauge`).
    pub kind: String,
    /// Its title (`Irish Gauge`).
    pub title: String,
    /// Games of the kind.
    pub games: u32,
    /// The players, by rating (conservatively: μ − 3σ), then by name.
    pub players: Vec<Standing>,
}

/// A stored game for the standings: its record, its setup as stored, and whether it is still
/// the channel's game.
pub struct Played<'a> {
    /// The record.
    pub record: &'a GameRecord,
    /// The setup as the store keeps it (the record's may seal a deck until the reveal).
    pub stored: &'a StoredSetup,
    /// Whether it is its channel's active game (an inactive game not finished was abandoned).
    pub active: bool,
}

/// The standings of `games` (in the order they were set up). Automa seats are rated like
/// players (they are opponents) but not listed; a game that does not replay is left out.
pub fn standings(plugins: &[SharedPlugin], games: &[Played<'_>]) -> Vec<KindStandings> {
    let mut kinds: BTreeMap<String, (KindStandings, BTreeMap<String, Standing>)> = BTreeMap::new();
    let config = WengLinConfig::new();
    for played in games {
        let record = played.record;
        let Ok(session) = record::replay_on(record, played.stored, plugins, None) else {
            continue;
        };
        let title = session.info().title.to_string();
        let (kind, players) = kinds.entry(record.kind.clone()).or_insert_with(|| {
            (
                KindStandings {
                    kind: record.kind.clone(),
                    title,
                    ..KindStandings::default()
                },
                BTreeMap::new(),
            )
        });
        kind.games += 1;
        let finished = session.is_finished();
        let seated = session.seated();
        let covered = covered_seats(record);
        for (seat, player) in seated.iter().enumerate() {
            let line = players
                .entry(player.id.clone())
                .or_insert_with(|| Standing {
                    rating: WengLinRating::new().rating,
                    uncertainty: WengLinRating::new().uncertainty,
                    ..Standing::default()
                });
            line.name = player.name.clone();
            line.played += 1;
            if finished {
                line.finished += 1;
            } else if !played.active {
                line.abandoned += 1;
            }
            if covered.contains(&seat) {
                line.covered += 1;
            }
        }
        if !finished {
            continue;
        }
        let worth: Vec<Option<i64>> = (0..seated.len())
            .map(|seat| session.worth(seat).map(|w| w.total))
            .collect();
        let Some(worth) = worth.into_iter().collect::<Option<Vec<i64>>>() else {
            continue;
        };
        let best = worth.iter().copied().max().unwrap_or(0);
        let sharing = worth.iter().filter(|w| **w == best).count() as f64;
        let before: Vec<[WengLinRating; 1]> = seated
            .iter()
            .map(|p| {
                let line = &players[&p.id];
                [WengLinRating {
                    rating: line.rating,
                    uncertainty: line.uncertainty,
                }]
            })
            .collect();
        let teams: Vec<(&[WengLinRating], MultiTeamOutcome)> = before
            .iter()
            .zip(&worth)
            .map(|(team, w)| {
                let rank = 1 + worth.iter().filter(|other| *other > w).count();
                (&team[..], MultiTeamOutcome::new(rank))
            })
            .collect();
        let after = weng_lin_multi_team(&teams, &config);
        for ((player, w), new) in seated.iter().zip(&worth).zip(after) {
            let line = players.get_mut(&player.id).expect("seated above");
            if *w == best {
                line.wins += 1.0 / sharing;
            }
            if let Some(rating) = new.first() {
                line.rating = rating.rating;
                line.uncertainty = rating.uncertainty;
            }
        }
    }
    kinds
        .into_values()
        .map(|(mut kind, players)| {
            let mut lines: Vec<Standing> = players
                .into_iter()
                .filter(|(id, _)| !id.starts_with(AUTOMA_ID_PREFIX))
                .map(|(_, mut line)| {
                    line.wins_text = number(line.wins);
                    line.rating_text = format!("{:.1} ± {:.1}", line.rating, line.uncertainty);
                    line
                })
                .collect();
            lines.sort_by(|a, b| {
                let conservative = |s: &Standing| s.rating - 3.0 * s.uncertainty;
                conservative(b)
                    .total_cmp(&conservative(a))
                    .then_with(|| a.name.cmp(&b.name))
            });
            kind.players = lines;
            kind
        })
        .collect()
}

/// Whose games the standings count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope<'a> {
    /// Every game the store keeps (the `/standings` page of a bot in one server).
    All,
    /// The games of the channels of one server (as [`Store::channel_servers`] has them).
    Server(&'a str),
    /// The games of one channel (where its server is not known).
    Channel(&'a str),
}

/// The standings of the games `store` keeps in `scope` (a game that does not read is left
/// out: its table says why when it loads).
pub async fn from_store(
    store: &dyn Store,
    plugins: &[SharedPlugin],
    scope: Scope<'_>,
) -> Result<Vec<KindStandings>, StoreError> {
    let channels: Option<HashSet<String>> = match scope {
        Scope::All => None,
        Scope::Server(server) => Some(
            store
                .channel_servers()
                .await?
                .into_iter()
                .filter(|(_, s)| s == server)
                .map(|(channel, _)| channel)
                .collect(),
        ),
        Scope::Channel(channel) => Some(HashSet::from([channel.to_string()])),
    };
    let mut records: Vec<(GameRecord, StoredSetup, bool)> = Vec::new();
    for row in store.games().await? {
        if channels.as_ref().is_some_and(|c| !c.contains(&row.channel)) {
            continue;
        }
        let log = store.log(&row.id).await?;
        let Ok(stored) = serde_json::from_str::<StoredSetup>(&row.setup_json) else {
            continue;
        };
        if let Ok(record) = GameRecord::of_stored(&row, &log, plugins) {
            records.push((record, stored, row.active));
        }
    }
    let played: Vec<Played<'_>> = records
        .iter()
        .map(|(record, stored, active)| Played {
            record,
            stored,
            active: *active,
        })
        .collect();
    Ok(standings(plugins, &played))
}

/// A count of wins as written: `2`, `1.5`, `0.33`.
fn number(value: f64) -> String {
    let text = format!("{value:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The seats the automa moved for (`proxy` markers with `why: automa`) that are people's.
fn covered_seats(record: &GameRecord) -> Vec<usize> {
    let players: Vec<String> = record
        .setup
        .pointer("/players")
        .and_then(Value::as_array)
        .map(|list| {
            list.iter()
                .map(|p| p["id"].as_str().unwrap_or_default().to_string())
                .collect()
        })
        .unwrap_or_default();
    let mut seats: Vec<usize> = record
        .log
        .iter()
        .filter(|e| {
            e.entry["entry"] == "table" && e.entry["event"] == "proxy" && e.entry["why"] == "automa"
        })
        .filter_map(|e| e.entry["seat"].as_u64().map(|s| s as usize))
        .filter(|seat| {
            players
                .get(*seat)
                .is_some_and(|id| !id.starts_with(AUTOMA_ID_PREFIX))
        })
        .collect();
    seats.sort_unstable();
    seats.dedup();
    seats
}

#[cfg(test)]
mod tests {
    use super::number;

    #[test]
    fn shared_wins_are_written_as_fractions() {
        assert_eq!(number(1.0), "1");
        assert_eq!(number(1.5), "1.5");
        assert_eq!(number(1.0 / 3.0), "0.33");
        assert_eq!(number(0.0), "0");
    }
}
