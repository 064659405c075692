//! What comes into a table and what goes out: messages and command invocations in, typed
//! answers out (text as [`Rich`] spans, files with their alt text). Transport-neutral: each
//! transport (Discord, the console) reads its input into an [`Incoming`] and presents a
//! [`Response`] in its own way.

use chrono::{DateTime, Utc};

use crate::answer::Rich;
use crate::game::QuickMove;

/// Who sent a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Author {
    /// Transport id (Discord user id; the lower-case name in the console).
    pub id: String,
    /// Display name.
    pub name: String,
    /// Whether they may run moderator commands here.
    pub is_moderator: bool,
    /// How the transport writes a mention of them (`<@123>` on Discord, `@name` at the
    /// console), kept where the table stores who did something.
    pub mention: String,
}

/// A user mentioned in a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mention {
    /// User id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// How the message writes this user, as the transport spells a mention (on Discord
    /// `<@123>` and its older form `<@!123>`): an argument written so names this user.
    pub written: Vec<String>,
}

impl Mention {
    /// Whether `token` (an argument as written, a trailing comma ignored) names this user.
    pub fn is_written(&self, token: &str) -> bool {
        let token = token.trim_end_matches(',');
        self.written.iter().any(|w| w == token)
    }
}

/// The user a token names among a message's mentions, if it is a mention.
pub fn mentioned<'a>(mentions: &'a [Mention], token: &str) -> Option<&'a Mention> {
    mentions.iter().find(|m| m.is_written(token))
}

/// A message for the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Incoming {
    /// Message id, unique in the channel.
    pub message_id: String,
    /// Who sent it.
    pub author: Author,
    /// Its text.
    pub text: String,
    /// When it was sent.
    pub at: DateTime<Utc>,
    /// Users mentioned in it.
    pub mentions: Vec<Mention>,
}

impl Incoming {
    /// When it was sent.
    pub fn time(&self) -> Option<DateTime<Utc>> {
        Some(self.at)
    }

    /// When it was sent, as stored with what it caused.
    pub fn stored_time(&self) -> DateTime<Utc> {
        self.at
    }
}

/// A file to post with a reply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attachment {
    /// File name.
    pub filename: String,
    /// Contents.
    pub bytes: Vec<u8>,
    /// What it shows, in words, for readers who cannot see it (Discord's attachment
    /// description, an image's `alt`).
    pub alt: String,
}

/// One message to post.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    /// Its text. A transport with a length limit splits it.
    pub text: Rich,
    /// An image or file.
    pub attachment: Option<Attachment>,
    /// The game whose setup draws wait for the id this post gets: it is the bot's commitment
    /// post (docs/DICE.md §1). The transport posts it, then reports its id with
    /// [`crate::Table::decide_commitment_posted`] (the console takes the id from its own id
    /// sequence; Discord gives it).
    pub commitment_of: Option<String>,
}

/// A direct message to one person besides the channel's replies: a turn ping or reminder for a
/// player who asked for them (`!notify dm`). The transport sends it privately, with a link to
/// the channel's message it repeats.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Direct {
    /// The person's transport id (a Discord user id; the lower-case name at the console).
    pub to: String,
    /// Their name.
    pub name: String,
    /// What it says.
    pub text: Rich,
    /// The reply of the same response it points to (its index in [`Response::replies`]).
    pub reply: usize,
}

/// What the table made of a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Verdict {
    /// Chat: nothing for the bot.
    Ignored,
    /// A command was carried out and stored.
    Accepted,
    /// A command was refused; nothing changed.
    Refused,
    /// Only information was asked for.
    Answered,
    /// The message was processed before; nothing done again.
    Duplicate,
}

/// The table's answer to one message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    /// Messages to post, in order.
    pub replies: Vec<Reply>,
    /// What happened.
    pub verdict: Verdict,
    /// The moves applied, in canonical notation (`bid 7`), for transports that echo them.
    pub moves: Vec<String>,
    /// For a status report: which position of the game it shows, so a transport can offer
    /// the positions before and after it (Discord's ◀ ▶ buttons).
    pub page: Option<Page>,
    /// Direct messages to send besides the replies (turn pings by direct message).
    pub direct: Vec<Direct>,
    /// The moves a refusal of the player to act offers instead (the legal move nearest to
    /// what they wrote), one click each on a transport with buttons; the text names them too.
    pub offers: Vec<QuickMove>,
}

/// The position of a game a status report shows, among the positions after each record entry.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Page {
    /// The game.
    pub game_id: String,
    /// The record entry the position is after; `None`: the position now.
    pub entry: Option<i64>,
    /// The game's first and last record entries (`None` before the first).
    pub entries: Option<(i64, i64)>,
}

impl Page {
    /// The entry of the position before this one, if there is one (the position now is the
    /// position after the last entry).
    pub fn before(&self) -> Option<i64> {
        let (first, last) = self.entries?;
        let shown = self.entry.unwrap_or(last).min(last);
        (shown > first).then(|| shown - 1)
    }

    /// The entry of the position after this one, if there is one (the last entry's position
    /// is the position now).
    pub fn after(&self) -> Option<i64> {
        let (_, last) = self.entries?;
        let shown = self.entry?;
        (shown < last).then_some(shown + 1)
    }
}

impl Response {
    /// An answer with nothing to say yet.
    pub fn new(verdict: Verdict) -> Self {
        Response {
            replies: Vec::new(),
            verdict,
            moves: Vec::new(),
            page: None,
            direct: Vec::new(),
            offers: Vec::new(),
        }
    }

    /// The moves a refusal offers instead, one click each ([`Response::offers`]).
    pub fn offer(mut self, moves: Vec<QuickMove>) -> Self {
        self.offers = moves;
        self
    }

    /// A refusal saying `text`.
    pub fn refused(text: impl AsRef<str>) -> Self {
        Response::new(Verdict::Refused).say(text)
    }

    /// Adds a message of rendered text (its tokens read into spans: [`Rich::parse`]); blank
    /// text adds nothing.
    pub fn say(mut self, text: impl AsRef<str>) -> Self {
        let text = Rich::parse(text.as_ref());
        if !text.is_blank() {
            self.replies.push(Reply {
                text,
                attachment: None,
                commitment_of: None,
            });
        }
        self
    }

    /// Attaches a file to the last message (or a message of its own).
    pub fn attach(mut self, attachment: Option<Attachment>) -> Self {
        if let Some(attachment) = attachment {
            match self.replies.last_mut() {
                Some(last) if last.attachment.is_none() => last.attachment = Some(attachment),
                _ => self.replies.push(Reply {
                    text: Rich::default(),
                    attachment: Some(attachment),
                    commitment_of: None,
                }),
            }
        }
        self
    }

    /// Marks the first message as the commitment post of game `game_id`, whose setup draws wait
    /// for the id it gets ([`Reply::commitment_of`]).
    pub fn commitment_post(mut self, game_id: &str) -> Self {
        if let Some(first) = self.replies.first_mut() {
            first.commitment_of = Some(game_id.to_string());
        }
        self
    }

    /// The game whose setup waits for the id of this answer's first post, if it is a
    /// commitment post ([`Reply::commitment_of`]).
    pub fn waiting_setup(&self) -> Option<&str> {
        self.replies.first()?.commitment_of.as_deref()
    }

    /// Marks a status report with the position it shows.
    pub fn page(mut self, page: Page) -> Self {
        self.page = Some(page);
        self
    }

    /// All reply texts joined, as plain text (people by `@name`, times in UTC): for logs and
    /// tests. Transports present the spans themselves.
    pub fn text(&self) -> String {
        self.replies
            .iter()
            .map(|r| r.text.to_string())
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// How a channel is named in a text: a token each transport presents
/// ([`crate::answer::channel`]).
pub fn channel_ref(channel: &str) -> String {
    crate::answer::channel(channel)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_leads_to_the_positions_before_and_after_it() {
        let page = |entry| Page {
            game_id: "g-1".into(),
            entry,
            entries: Some((0, 5)),
        };
        assert_eq!((page(None).before(), page(None).after()), (Some(4), None));
        assert_eq!(
            (page(Some(5)).before(), page(Some(5)).after()),
            (Some(4), None)
        );
        assert_eq!(
            (page(Some(3)).before(), page(Some(3)).after()),
            (Some(2), Some(4))
        );
        assert_eq!(
            (page(Some(0)).before(), page(Some(0)).after()),
            (None, Some(1))
        );
        let empty = Page {
            entries: None,
            ..page(None)
        };
        assert_eq!((empty.before(), empty.after()), (None, None));
    }

    #[test]
    fn attachments_ride_on_the_last_message() {
        let file = Attachment {
            filename: "a.png".into(),
            bytes: vec![1],
            alt: "a picture".into(),
        };
        let response = Response::new(Verdict::Answered)
            .say("hello")
            .attach(Some(file.clone()))
            .attach(Some(file.clone()));
        assert_eq!(response.replies.len(), 2);
        assert_eq!(response.replies[0].attachment.as_ref(), Some(&file));
        assert!(response.replies[1].text.is_blank());
    }

    #[test]
    fn a_long_text_stays_one_reply_and_blank_text_adds_none() {
        let long = (0..500)
            .map(|i| format!("line {i}"))
            .collect::<Vec<_>>()
            .join("\n");
        let response = Response::new(Verdict::Answered).say(&long).say("  \n");
        assert_eq!(response.replies.len(), 1);
        assert_eq!(response.text(), long);
    }

    #[test]
    fn a_token_names_a_user_only_as_the_transport_wrote_the_mention() {
        let mentions = [Mention {
            id: "123".into(),
            name: "ann".into(),
            written: vec!["{u123}".into(), "{u!123}".into()],
        }];
        assert_eq!(
            mentioned(&mentions, "{u!123},").map(|m| m.name.as_str()),
            Some("ann")
        );
        assert!(mentioned(&mentions, "{u124}").is_none());
        assert!(mentioned(&mentions, "ann").is_none());
    }
}
