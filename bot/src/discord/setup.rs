//! What an operator must fix before the bot can run on Discord: a refused token, a privileged
//! intent the application lacks. Each stops the bot at once with what to do (exit code
//! [`SETUP_EXIT_CODE`], which the systemd unit does not restart on), instead of retrying.

use serenity::all::{GatewayError, Http, HttpError};

/// The process exit code for an error the operator must fix (the configuration, the token, the
/// Developer Portal): 78, `EX_CONFIG` of sysexits.h.
pub const SETUP_EXIT_CODE: u8 = 78;

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
pub(crate) async fn check_token(http: &Http, env: &str) -> Result<(), SetupError> {
    match http.get_current_user().await {
        Err(serenity::Error::Http(HttpError::UnsuccessfulRequest(response)))
            if response.status_code.as_u16() == 401 =>
        {
            Err(SetupError::TokenRefused {
                env: env.to_string(),
            })
        }
        Err(error) => {
            tracing::warn!(%error, "cannot check the bot token yet; connecting anyway");
            Ok(())
        }
        Ok(user) => {
            tracing::info!(bot = %user.name, id = %user.id, "the token is accepted");
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
