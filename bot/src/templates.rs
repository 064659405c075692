//! The bot's own built-in templates: the Discord adapter's wording (`templates/discord/`),
//! loaded with the table's and the games' so that `templates_dir` overrides them alike
//! (`discord/edit_notice.md.j2`).

/// A built-in template: its relative name and its text.
type BuiltIn = (&'static str, &'static str);

/// The edit and delete notice.
pub const EDIT_NOTICE: &str = "discord/edit_notice.md.j2";
/// The private answer to an accepted interaction.
pub const ANSWER_ACCEPTED: &str = "discord/answer_accepted.md.j2";
/// The private answer to an interaction handled already.
pub const ANSWER_DUPLICATE: &str = "discord/answer_duplicate.md.j2";
/// The private answer to an interaction the table ignored silently.
pub const ANSWER_NOTHING: &str = "discord/answer_nothing.md.j2";
/// The private answer to a click on an earlier prompt's button.
pub const ANSWER_STALE: &str = "discord/answer_stale.md.j2";
/// The private answer when the channel's game does not load.
pub const ANSWER_FAILED: &str = "discord/answer_failed.md.j2";
/// The pinned live status.
pub const LIVE_STATUS: &str = "discord/live_status.md.j2";
/// Descriptions of the slash options the registry does not describe.
pub const SLASH_OPTIONS: &str = "discord/slash_options.md.j2";

/// The one notice that the bot may not pin (the Pin Messages permission lacks).
pub const PIN_MISSING: &str = "discord/pin_missing.md.j2";

/// The notice that the game's storage is unavailable (once per outage and channel).
pub const STORAGE_UNAVAILABLE: &str = "discord/storage_unavailable.md.j2";

/// Every built-in template of the Discord adapter.
pub const DISCORD: [BuiltIn; 10] = [
    (
        EDIT_NOTICE,
        include_str!("../../templates/discord/edit_notice.md.j2"),
    ),
    (
        ANSWER_ACCEPTED,
        include_str!("../../templates/discord/answer_accepted.md.j2"),
    ),
    (
        ANSWER_DUPLICATE,
        include_str!("../../templates/discord/answer_duplicate.md.j2"),
    ),
    (
        ANSWER_NOTHING,
        include_str!("../../templates/discord/answer_nothing.md.j2"),
    ),
    (
        ANSWER_STALE,
        include_str!("../../templates/discord/answer_stale.md.j2"),
    ),
    (
        ANSWER_FAILED,
        include_str!("../../templates/discord/answer_failed.md.j2"),
    ),
    (
        LIVE_STATUS,
        include_str!("../../templates/discord/live_status.md.j2"),
    ),
    (
        PIN_MISSING,
        include_str!("../../templates/discord/pin_missing.md.j2"),
    ),
    (
        SLASH_OPTIONS,
        include_str!("../../templates/discord/slash_options.md.j2"),
    ),
    (
        STORAGE_UNAVAILABLE,
        include_str!("../../templates/discord/storage_unavailable.md.j2"),
    ),
];
