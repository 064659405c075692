//! What a command leads to in its channel, as plain data: the [`Parcel`] (the replies with
//! their attachments, the ✅ or ❌, the next turn's buttons, which game's pinned status to update)
//! made from the table's decision while the table is locked, and stored by the table's commit
//! in the same transaction as the command ([`gaugebot_table::Table::commit`]); delivering it is
//! [`super::outbox`]'s.

use base64::Engine;
use serde::{Deserialize, Serialize};
use serenity::all::MessageId;
use sha2::{Digest, Sha256};

use gaugebot_table::input::{Attachment, Incoming, Response, Verdict};
use gaugebot_table::{Outgoing, Page, Prompt, Table};

use super::present::Post;
use super::shared::Shared;

/// One post of a parcel: its text and its file (the bytes in base64), the file's alt text and
/// the users it may ping (both absent from a parcel kept by an earlier version: no alt text,
/// any user).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct StoredPost {
    text: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    file: Option<(String, String)>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    alt: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pings: Option<Vec<u64>>,
}

impl StoredPost {
    fn of(post: &Post) -> StoredPost {
        StoredPost {
            text: post.text.clone(),
            file: post.attachment.as_ref().map(|a| {
                let bytes = base64::engine::general_purpose::STANDARD.encode(&a.bytes);
                (a.filename.clone(), bytes)
            }),
            alt: post
                .attachment
                .as_ref()
                .map(|a| a.alt.clone())
                .unwrap_or_default(),
            pings: post.pings.clone(),
        }
    }

    /// The post again; a file whose text does not decode is left out (logged).
    pub(super) fn post(&self) -> Post {
        let attachment = self.file.as_ref().and_then(|(filename, text)| {
            match base64::engine::general_purpose::STANDARD.decode(text) {
                Ok(bytes) => Some(Attachment {
                    filename: filename.clone(),
                    bytes,
                    alt: self.alt.clone(),
                }),
                Err(error) => {
                    tracing::error!(%filename, %error, "a kept attachment does not decode");
                    None
                }
            }
        });
        Post {
            text: self.text.clone(),
            attachment,
            pings: self.pings.clone(),
        }
    }
}

/// A turn ping by direct message (`!notify dm`), as the outbox keeps it: to whom, its text,
/// and the post of the parcel it links to (its index).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct StoredDm {
    pub(super) to: u64,
    pub(super) text: String,
    pub(super) post: usize,
}

impl StoredDm {
    /// The direct messages of `response`, each linked to the last post made from the reply
    /// it repeats (`present::posts` splits a long reply); a recipient whose id is not a
    /// Discord user id is left out.
    fn of(response: &Response) -> Vec<StoredDm> {
        response
            .direct
            .iter()
            .filter_map(|direct| {
                let to = direct.to.parse::<u64>().ok().filter(|id| *id != 0)?;
                let upto = response.replies.get(..=direct.reply)?;
                let post = super::present::posts(upto).len().checked_sub(1)?;
                Some(StoredDm {
                    to,
                    text: super::present::text(&direct.text),
                    post,
                })
            })
            .collect()
    }
}

/// What a command leads to in its channel, as the outbox keeps it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Parcel {
    /// The command message answered: the first reply refers to it, and it gets ✅ or ❌.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) answers: Option<u64>,
    /// The posts' nonces are `<nonce>-<index>`: a post retried (after a restart too) that
    /// Discord has already is not posted again.
    pub(super) nonce: u64,
    /// The command's verdict (an accepted one moves the prompt and the pinned status on).
    pub(super) verdict: Verdict,
    /// The posts, in order.
    pub(super) posts: Vec<StoredPost>,
    /// The new turn prompt's buttons (a refusal's: the moves it offers), on the last reply.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) prompt: Option<Prompt>,
    /// For a status report: the position it shows, whose ◀ ▶ buttons go on the last reply.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) page: Option<Page>,
    /// The game whose pinned status is to be updated: its text is rendered at delivery, from
    /// the table as it is then (read also from the `[game id, text]` pair of a parcel kept by
    /// an earlier version, whose text is not used).
    #[serde(
        rename = "status",
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "pinned_game"
    )]
    pub(super) pin: Option<String>,
    /// Turn pings by direct message, sent once the posts they link to are posted (absent from
    /// a parcel kept by an earlier version).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(super) dms: Vec<StoredDm>,
    /// The game whose setup draws wait for the id of this parcel's first post, its commitment
    /// post (docs/DICE.md §1): the parcel stays in the outbox until the setup is finished with
    /// that id ([`super::posting::commitment`]), so a re-delivery (same nonce, same message)
    /// finishes it after a crash.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) commitment_of: Option<String>,
}

/// A parcel's `status`: the game id, or an earlier version's `[game id, text]`.
fn pinned_game<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Pinned {
        Game(String),
        WithText(String, serde::de::IgnoredAny),
    }
    Ok(
        Option::<Pinned>::deserialize(d)?.map(|pinned| match pinned {
            Pinned::Game(game) | Pinned::WithText(game, _) => game,
        }),
    )
}

/// Where a parcel's posts go and how they are keyed.
pub(crate) enum Address {
    /// Replies to a command message (its id), which gets ✅ or ❌.
    Answer(MessageId),
    /// Posts of their own, with this nonce (an interaction's echo, an automa's move, the
    /// clock's notices).
    Post(u64),
}

impl Parcel {
    /// The parcel of `response` at `table` (its prompt as the table is now, and the game whose
    /// pinned status to update).
    #[tracing::instrument(target = "hop", level = "trace", skip_all)]
    pub(crate) fn of(
        shared: &Shared,
        table: &Table,
        response: &Response,
        posts: &[Post],
        address: Address,
    ) -> Parcel {
        let after = After::of(shared, table, response);
        let (answers, nonce) = match address {
            Address::Answer(id) => (Some(id.get()), id.get()),
            Address::Post(nonce) => (None, nonce),
        };
        Parcel {
            answers,
            nonce,
            verdict: response.verdict,
            posts: posts.iter().map(StoredPost::of).collect(),
            prompt: after.prompt,
            page: response.page.clone(),
            pin: after.pin,
            dms: StoredDm::of(response),
            commitment_of: response.waiting_setup().map(str::to_string),
        }
    }

    /// The parcel as the table's commit keeps it in `channel`'s outbox: keyed by its nonce.
    pub(crate) fn outgoing(&self, channel: &str) -> Option<Outgoing> {
        match serde_json::to_string(self) {
            Ok(payload) => Some(Outgoing {
                channel: channel.to_string(),
                key: self.nonce.to_string(),
                payload,
                at: chrono::Utc::now(),
            }),
            Err(error) => {
                tracing::error!(%error, "a parcel does not serialise; it is posted without the outbox");
                None
            }
        }
    }

    /// The game whose pinned status the parcel updates, if any.
    pub(crate) fn pinned_game(&self) -> Option<&str> {
        self.pin.as_deref()
    }

    pub(super) fn after(&self) -> After {
        After {
            accepted: self.verdict == Verdict::Accepted,
            prompt: self.prompt.clone(),
            pin: self.pin.clone(),
        }
    }
}

/// The nonce of the posts of a tick at `table` (its game's position after the tick): the
/// first 8 bytes of SHA-256 of `tick:<channel>:<game>:<position>:<time>`, so that a tick's
/// notices retried after a restart are not posted twice.
pub(crate) fn tick_nonce(table: &Table, now: chrono::DateTime<chrono::Utc>) -> u64 {
    let (game, position) = table.position().unwrap_or(("", 0));
    let text = format!(
        "tick:{}:{game}:{position}:{}",
        table.channel(),
        now.timestamp()
    );
    let digest = Sha256::digest(text.as_bytes());
    let mut bytes = [0u8; 8];
    bytes.copy_from_slice(&digest[..8]);
    // Discord's integer nonces are signed 64-bit: keep the top bit clear.
    u64::from_le_bytes(bytes) >> 1
}

/// The nonce base of an interaction's echo: its id.
pub(crate) fn interaction_nonce(incoming: &Incoming) -> u64 {
    incoming.message_id.parse().unwrap_or(0)
}

/// What an accepted command leads to, gathered while the table is locked.
pub(crate) struct After {
    pub(crate) accepted: bool,
    pub(crate) prompt: Option<Prompt>,
    /// The game whose pinned status is to show its new position (its text read from the table
    /// as it is when the parcel is posted: see [`settle`]).
    pub(crate) pin: Option<String>,
}

impl After {
    pub(crate) fn of(shared: &Shared, table: &Table, response: &Response) -> After {
        let accepted = response.verdict == Verdict::Accepted;
        After {
            accepted,
            // No buttons for an automa's decision: it moves at once. A refusal's buttons are
            // the moves it offers the player to act instead.
            prompt: (shared.settings.buttons && !table.automa_to_act())
                .then(|| match accepted {
                    true => table.prompt(),
                    false => table.offer(&response.offers),
                })
                .flatten(),
            pin: (accepted && shared.settings.pinned_status)
                .then(|| table.game_id().map(str::to_string))
                .flatten(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_parcel_reads_back_as_written_attachments_included() {
        let parcel = Parcel {
            answers: Some(42),
            nonce: 42,
            verdict: Verdict::Accepted,
            posts: vec![
                StoredPost::of(&Post {
                    text: "ann bids £7, <@12>.".into(),
                    attachment: None,
                    pings: Some(vec![12]),
                }),
                StoredPost::of(&Post {
                    text: String::new(),
                    attachment: Some(Attachment {
                        filename: "map.png".into(),
                        bytes: vec![0, 1, 2, 254, 255],
                        alt: "Map of Irish Gauge g-1".into(),
                    }),
                    pings: Some(Vec::new()),
                }),
            ],
            prompt: None,
            page: Some(Page {
                game_id: "g-1".into(),
                entry: Some(3),
                entries: Some((0, 9)),
            }),
            pin: Some("g-1".into()),
            dms: vec![StoredDm {
                to: 12,
                text: "🔔 ann, your turn".into(),
                post: 0,
            }],
            commitment_of: Some("g-1".into()),
        };
        let kept = parcel.outgoing("c").expect("serialises");
        assert_eq!(kept.key, "42");
        assert_eq!(kept.channel, "c");
        let back: Parcel = serde_json::from_str(&kept.payload).expect("reads");
        assert_eq!(back, parcel);
        let map = back.posts[1].post().attachment.expect("the map");
        assert_eq!(map.bytes, vec![0, 1, 2, 254, 255]);
        assert_eq!(map.alt, "Map of Irish Gauge g-1");
        assert_eq!(back.posts[0].post().pings, Some(vec![12]));
    }

    #[test]
    fn a_parcel_kept_with_its_status_text_by_an_earlier_version_reads_its_game() {
        let earlier = r#"{"answers":42,"nonce":42,"verdict":"Accepted","posts":[{"text":"ann bids £7."}],"status":["g-1","the old status"]}"#;
        let parcel: Parcel = serde_json::from_str(earlier).expect("reads");
        assert_eq!(parcel.pin.as_deref(), Some("g-1"));
        assert_eq!(parcel.posts[0].text, "ann bids £7.");
        // An earlier parcel said nothing of pings: any user may be pinged, as then.
        assert_eq!(parcel.posts[0].post().pings, None);
        let none = r#"{"nonce":7,"verdict":"Refused","posts":[]}"#;
        let parcel: Parcel = serde_json::from_str(none).expect("reads");
        assert_eq!(parcel.pin, None);
    }
}
