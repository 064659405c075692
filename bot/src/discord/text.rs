//! The adapter's wording, each text a typed value rendered from its template in
//! `templates/discord/` (overridable through `templates_dir`). No English is written here.

use minijinja::context;

use gaugebot_table::Templates;

use crate::templates::{
    ANSWER_ACCEPTED, ANSWER_DUPLICATE, ANSWER_FAILED, ANSWER_NOTHING, ANSWER_STALE, EDIT_NOTICE,
    LIVE_STATUS, PIN_MISSING, SLASH_OPTIONS, STORAGE_UNAVAILABLE,
};

/// A text the adapter posts or shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Text<'a> {
    /// A read command was edited (`edited`) or deleted: nothing changes.
    EditNotice {
        edited: bool,
        refused: bool,
        quote: Option<&'a str>,
    },
    /// An interaction was accepted (and posted in the channel) with these moves.
    Accepted { moves: &'a [String] },
    /// An interaction handled already.
    Duplicate,
    /// An interaction the table ignored silently.
    NothingToDo,
    /// A click on a button of an earlier prompt.
    StaleButton,
    /// The channel's game did not load.
    NotLoaded,
    /// The pinned live status of a game (before it is cut to one message).
    LiveStatus { game_id: &'a str, status: &'a str },
    /// The one notice to the moderators that the bot may not pin.
    PinMissing,
    /// The description of the slash option asking for a private answer.
    PrivateOption,
    /// The description of a slash option the registry does not describe.
    UnknownOption,
    /// The one notice, per outage and channel, that moves cannot be stored now and are read
    /// when the storage is back.
    StorageUnavailable,
}

impl Text<'_> {
    /// The text, rendered.
    pub(crate) fn render(&self, templates: &Templates) -> String {
        match self {
            Text::EditNotice {
                edited,
                refused,
                quote,
            } => templates.text(
                EDIT_NOTICE,
                context! { edited => edited, refused => refused, quote => quote },
            ),
            Text::Accepted { moves } => {
                templates.text(ANSWER_ACCEPTED, context! { moves => moves })
            }
            Text::Duplicate => templates.text(ANSWER_DUPLICATE, context! {}),
            Text::NothingToDo => templates.text(ANSWER_NOTHING, context! {}),
            Text::StaleButton => templates.text(ANSWER_STALE, context! {}),
            Text::NotLoaded => templates.text(ANSWER_FAILED, context! {}),
            Text::PinMissing => templates.text(PIN_MISSING, context! {}),
            Text::LiveStatus { game_id, status } => templates.text(
                LIVE_STATUS,
                context! { game_id => game_id, status => status },
            ),
            Text::PrivateOption => templates.text(SLASH_OPTIONS, context! { option => "private" }),
            Text::UnknownOption => templates.text(SLASH_OPTIONS, context! { option => "unknown" }),
            Text::StorageUnavailable => templates.text(STORAGE_UNAVAILABLE, context! {}),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn templates() -> Templates {
        Templates::load(None, &[])
            .and_then(|t| t.with(None, &crate::templates::DISCORD))
            .expect("templates")
    }

    #[test]
    fn every_text_renders_as_it_did_in_rust() {
        let t = templates();
        let notice = |edited, refused, quote| {
            Text::EditNotice {
                edited,
                refused,
                quote,
            }
            .render(&t)
        };
        assert_eq!(
            notice(true, true, Some("**bid 7**")),
            "Edits don't re-run commands: **bid 7** was refused and stays refused; post the corrected command as a new message."
        );
        assert_eq!(
            notice(true, false, Some("**bid 7**")),
            "Edits don't change moves: **bid 7** stands; the log keeps the original text."
        );
        assert_eq!(
            notice(false, false, Some("**bid 7**")),
            "Deleting a message doesn't change moves: **bid 7** stands; the log keeps the original text."
        );
        assert!(notice(true, false, None).starts_with("Edits don't change moves: that message"));
        assert!(
            notice(false, false, None).starts_with("Deleting a message doesn't change moves: it")
        );
        let moves = vec!["bid 7".to_string(), "pass".to_string()];
        assert_eq!(
            Text::Accepted { moves: &moves }.render(&t),
            "✅ **bid 7** **pass**: posted in the channel."
        );
        assert_eq!(
            Text::Accepted { moves: &[] }.render(&t),
            "✅ Done; posted in the channel."
        );
        assert_eq!(Text::Duplicate.render(&t), "That was handled already.");
        assert_eq!(Text::NothingToDo.render(&t), "Nothing to do.");
        assert!(Text::StaleButton.render(&t).contains("earlier prompt"));
        assert!(Text::NotLoaded
            .render(&t)
            .starts_with("The game could not be loaded"));
        assert_eq!(
            Text::LiveStatus {
                game_id: "g-1",
                status: "a\nb"
            }
            .render(&t),
            "📌 **Live status** — game g-1, updated after every turn\na\nb"
        );
        assert!(Text::PinMissing
            .render(&t)
            .contains("I lack the **Pin Messages** permission"));
        assert_eq!(Text::PrivateOption.render(&t), "answer only to you");
        assert_eq!(Text::UnknownOption.render(&t), "a value");
        assert!(Text::StorageUnavailable.render(&t).starts_with(
            "The game's storage is unavailable; your move will be read when it is back."
        ));
    }
}
