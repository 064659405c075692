//! What an operator must fix before the bot can run on Discord: a refused token, a privileged
//! intent the application lacks. Each stops the bot at once with what to do (exit code
//! [`SETUP_EXIT_CODE`], which the systemd unit does not restart on), instead of retrying.

use serenity::all::GatewayError;

use super::rest::Rest;

/// The process exit code for an error the operator must fix (the configuration, the token, the
/// Developer Portal): 78, `EX_CONFIG` of sysexits.h.
pub const SETUP_EXIT_CODE: u8 = 78;

/// The permissions the invite URL asks for: View Channels (1 << 10), Send Messages (1 << 11),
/// Send Messages in Threads (1 << 38), Read Message History (1 << 16, catch-up), Add Reactions
/// (1 << 6, ✅/❌), Attach Files (1 << 15, the map) and Pin Messages (1 << 51, the live status).
pub const INVITE_PERMISSIONS: u64 =
    (1 << 10) | (1 << 11) | (1 << 38) | (1 << 16) | (1 << 6) | (1 << 15) | (1 << 51);

/// The URL that adds the bot to a server with the slash commands and [`INVITE_PERMISSIONS`].
pub fn invite_url(application_id: u64) -> String {
    format!(
        "https://discord.com/oauth2/authorize?client_id={application_id}&scope=bot+applications.commands&permissions={INVITE_PERMISSIONS}"
    )
}

/// Discord refused to let the bot in, for a reason only the operator can fix.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The token is wrong, revoked or reset (REST 401, gateway close 4004).
    #[error("Discord refused the bot token (401 Unauthorized): check the environment variable {env}; it must hold the token from the Developer Portal (Applications → your application → Bot → Reset Token), without the \"Bot \" prefix")]
    TokenRefused {
        /// The environment variable the token was read from.
        env: String,
    },
    /// The Message Content intent was asked for but is not enabled (gateway close 4014).
    #[error("Discord refused the Message Content intent (close code 4014, \"Disallowed gateway intents\"): enable it in the Developer Portal → Applications → your application → Bot → Privileged Gateway Intents → Message Content Intent, then start again; or set discord.message_content: off (slash commands, buttons and mentions only)")]
    IntentDisallowed,
    /// Discord does not know an intent the bot asked for (gateway close 4013).
    #[error("Discord refused the gateway intents as invalid (close code 4013)")]
    IntentInvalid,
}

/// Asks Discord who the bot is (`GET /users/@me`): a 401 means the token is refused. Other
/// failures (Discord unreachable) are left to the connection, which retries.
pub(crate) async fn check_token(rest: &Rest, env: &str) -> Result<(), SetupError> {
    match rest.current_user().await {
        Err(error) if error.status() == Some(401) => Err(SetupError::TokenRefused {
            env: env.to_string(),
        }),
        Err(error) => {
            tracing::warn!(%error, "cannot check the bot token yet; connecting anyway");
            Ok(())
        }
        Ok(user) => {
            // A bot's user id is its application's id.
            tracing::info!(bot = %user.name, id = %user.id, invite = %invite_url(user.id.get()), "the token is accepted");
            Ok(())
        }
    }
}

/// The operator's error behind the gateway client's stop, if it is one.
pub(crate) fn of_gateway(error: &serenity::Error, env: &str) -> Option<SetupError> {
    match error {
        serenity::Error::Gateway(GatewayError::InvalidAuthentication) => {
            Some(SetupError::TokenRefused {
                env: env.to_string(),
            })
        }
        serenity::Error::Gateway(GatewayError::DisallowedGatewayIntents) => {
            Some(SetupError::IntentDisallowed)
        }
        serenity::Error::Gateway(GatewayError::InvalidGatewayIntents) => {
            Some(SetupError::IntentInvalid)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_invite_permissions_are_the_documented_integer() {
        assert_eq!(INVITE_PERMISSIONS, 2_252_074_691_693_632);
        let url = invite_url(123);
        assert_eq!(url, "https://discord.com/oauth2/authorize?client_id=123&scope=bot+applications.commands&permissions=2252074691693632");
        // README and DEPLOY give the same URL template.
        let template = url.replace("123", "APPLICATION_ID");
        for (doc, text) in [
            ("README.md", include_str!("../../../README.md")),
            ("docs/DEPLOY.md", include_str!("../../../docs/DEPLOY.md")),
        ] {
            assert!(text.contains(&template), "{doc} lacks {template}");
        }
    }

    #[test]
    fn each_refusal_says_what_to_do() {
        let token = SetupError::TokenRefused {
            env: "DISCORD_TOKEN".to_string(),
        }
        .to_string();
        assert!(token.contains("check the environment variable DISCORD_TOKEN"));
        let intent = SetupError::IntentDisallowed.to_string();
        assert!(intent.contains("Bot → Privileged Gateway Intents → Message Content"));
        assert_eq!(
            of_gateway(
                &serenity::Error::Gateway(GatewayError::DisallowedGatewayIntents),
                "X"
            ),
            Some(SetupError::IntentDisallowed)
        );
        assert_eq!(
            of_gateway(
                &serenity::Error::Gateway(GatewayError::InvalidAuthentication),
                "X"
            ),
            Some(SetupError::TokenRefused {
                env: "X".to_string()
            })
        );
    }
}
