//! Wall-clock time as the bot writes it: RFC 3339, UTC.

use chrono::{SecondsFormat, Utc};

/// Now as RFC 3339 (UTC, `Z`, as many fractional digits as the clock gives).
pub fn now_rfc3339() -> String {
    Utc::now().to_rfc3339_opts(SecondsFormat::AutoSi, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn now_reads_back_as_rfc3339() {
        let now = now_rfc3339();
        assert!(now.ends_with('Z'), "{now}");
        assert!(chrono::DateTime::parse_from_rfc3339(&now).is_ok(), "{now}");
    }
}
