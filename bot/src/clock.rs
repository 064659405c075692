//! Wall-clock time as the bot reads and writes it: RFC 3339, UTC.

use chrono::{DateTime, SecondsFormat, Utc};

/// Now as RFC 3339 (UTC, `Z`, as many fractional digits as the clock gives).
pub fn now_rfc3339() -> String {
    Utc::now().to_rfc3339_opts(SecondsFormat::AutoSi, true)
}

/// A time a transport gives as RFC 3339 text, or now when it gives none that reads.
pub fn time_or_now(rfc3339: Option<String>) -> DateTime<Utc> {
    rfc3339
        .and_then(|text| DateTime::parse_from_rfc3339(&text).ok())
        .map(|t| t.with_timezone(&Utc))
        .unwrap_or_else(Utc::now)
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

    #[test]
    fn a_transport_time_reads_or_falls_back_to_now() {
        let at = time_or_now(Some("2025-03-01T13:00:00+01:00".into()));
        assert_eq!(at.to_rfc3339(), "2025-03-01T12:00:00+00:00");
        let before = Utc::now();
        assert!(time_or_now(Some("yesterday".into())) >= before);
        assert!(time_or_now(None) >= before);
    }
}
