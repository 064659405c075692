//! The capability of a game's page: a random token, stored per game, in its address.

use gaugebot_table::{Store, StoreError};
use rand_core::{OsRng, TryRngCore};

/// A fresh token: 128 bits from the operating system, as 32 hex digits.
pub fn fresh_token() -> String {
    let mut bytes = [0u8; 16];
    // The OS's generator does not fail on the systems the bot runs on; if it did, the token
    // would be all zeros, which `page_link` refuses to hand out.
    if OsRng.try_fill_bytes(&mut bytes).is_err() {
        bytes = [0; 16];
    }
    hex::encode(bytes)
}

/// The address of a game's page under `public_url` (its token made and stored the first time);
/// `None` when the store keeps no pages.
pub async fn page_link(
    store: &dyn Store,
    public_url: &str,
    game_id: &str,
) -> Result<Option<String>, StoreError> {
    let fresh = fresh_token();
    if fresh.bytes().all(|b| b == b'0') {
        return Ok(None);
    }
    let token = store.page_token(game_id, &fresh).await?;
    Ok(token.map(|t| format!("{}/g/{t}", public_url.trim_end_matches('/'))))
}

/// Whether a text can be a token (32 lower-case hex digits): anything else is not looked up.
pub fn is_token(text: &str) -> bool {
    text.len() == 32 && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_fresh_hex_of_128_bits() {
        let a = fresh_token();
        let b = fresh_token();
        assert!(is_token(&a) && is_token(&b), "{a} {b}");
        assert_ne!(a, b);
        assert!(!is_token("../etc/passwd"));
        assert!(!is_token(&a.to_uppercase()));
    }
}
