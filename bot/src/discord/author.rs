//! Who wrote a message or made an interaction: the name shown, and for interactions whether
//! they may run moderator commands.

use serenity::all::{GuildId, Member, PartialMember, User};
use serenity::model::id::ChannelId;

use gaugebot_table::input::Author;

use super::perms::Perms;

/// The name shown for a user: server nickname, global display name, or username.
pub(crate) fn display_name(user: &User, member: Option<&PartialMember>) -> String {
    member
        .and_then(|m| m.nick.clone())
        .or_else(|| user.global_name.clone())
        .filter(|n| !n.trim().is_empty())
        .unwrap_or_else(|| user.name.clone())
}

/// The user who invoked an interaction; moderator rights are checked only if `check_moderator`.
pub(crate) async fn of_interaction(
    perms: &Perms,
    channel: ChannelId,
    guild: Option<GuildId>,
    member: Option<&Member>,
    user: &User,
    check_moderator: bool,
) -> Author {
    let user = member.map(|m| &m.user).unwrap_or(user);
    let name = member
        .and_then(|m| m.nick.clone())
        .filter(|n| !n.trim().is_empty())
        .unwrap_or_else(|| display_name(user, None));
    let is_moderator = check_moderator
        && perms
            .is_moderator_member(
                channel,
                guild,
                user.id,
                member.map(|m| m.roles.as_slice()).unwrap_or(&[]),
                member.and_then(|m| m.permissions),
            )
            .await;
    Author {
        id: user.id.to_string(),
        name,
        is_moderator,
        mention: format!("<@{}>", user.id),
    }
}
