//! Durations as players write them (`48h`, `3d`, `90m`, `1d12h`, `2w`), percentages (`50%`),
//! and instants in texts (tokens that each transport presents: relative and in the reader's time
//! zone on Discord, in UTC at the console; [`crate::answer`]).
//!
//! Why not `humantime`: the forms here are the forum's own, and players see them written back
//! in replies (`!clock` shows `2d`, `1h30m`, `1d12h`; tests assert those texts). `humantime`
//! reads more than the forum writes (seconds, months, years, `1.5h` is refused but `30s` and
//! `2months` are read), prints another form (`2days`, `1h 30m`), has no percentages (`75%`)
//! and no range (1 minute to 90 days) with the refusal kinds the templates explain
//! ([`DurationError`]); it would also bring a second duration type beside chrono's. The parser
//! is one loop over `<number><unit>` parts on [`chrono::Duration`], the one time crate here.

use chrono::{DateTime, Duration, Utc};

/// The shortest duration accepted anywhere (a clock, an absence, a signup window).
pub const SHORTEST: Duration = Duration::minutes(1);
/// The longest duration accepted anywhere: longer is taken for a typo.
pub const LONGEST: Duration = Duration::days(90);

/// Why a duration or percentage does not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DurationError {
    /// Not a duration at all.
    #[error("'{0}' is not a duration (write e.g. 30m, 48h, 3d, 1d12h or 2w)")]
    Unreadable(String),
    /// Below [`SHORTEST`] or above [`LONGEST`].
    #[error("'{0}' is out of range (from 1 minute to 90 days)")]
    OutOfRange(String),
    /// Not a percentage from 1 to 99.
    #[error("'{0}' is not a percentage from 1% to 99%")]
    Percent(String),
}

/// Reads a duration: one or more `<number><unit>` parts with units `w`, `d`, `h`, `m`
/// (also `min`, `hours`, `days`…), e.g. `48h`, `1d12h`, `90m`. Zero, negative and absurd values
/// (over 90 days) are refused.
pub fn parse_duration(text: &str) -> Result<Duration, DurationError> {
    let unreadable = || DurationError::Unreadable(text.to_string());
    let lower = text.trim().to_ascii_lowercase();
    if lower.is_empty() || lower.starts_with('-') {
        return Err(if lower.starts_with('-') {
            DurationError::OutOfRange(text.to_string())
        } else {
            unreadable()
        });
    }
    let mut total = Duration::zero();
    let mut rest = lower.as_str();
    while !rest.is_empty() {
        let digits = rest.chars().take_while(char::is_ascii_digit).count();
        if digits == 0 || digits > 6 {
            return Err(if digits > 6 {
                DurationError::OutOfRange(text.to_string())
            } else {
                unreadable()
            });
        }
        let number: i64 = rest[..digits].parse().map_err(|_| unreadable())?;
        rest = &rest[digits..];
        let unit_len = rest.chars().take_while(char::is_ascii_alphabetic).count();
        let unit = &rest[..unit_len];
        rest = &rest[unit_len..];
        let part = match unit {
            "w" | "wk" | "week" | "weeks" => Duration::weeks(number),
            "d" | "day" | "days" => Duration::days(number),
            "h" | "hr" | "hrs" | "hour" | "hours" => Duration::hours(number),
            "m" | "min" | "mins" | "minute" | "minutes" => Duration::minutes(number),
            _ => return Err(unreadable()),
        };
        total += part;
    }
    if total < SHORTEST || total > LONGEST {
        return Err(DurationError::OutOfRange(text.to_string()));
    }
    Ok(total)
}

/// Reads a percentage from 1% to 99% (`50%` or `50`).
pub fn parse_percent(text: &str) -> Result<u8, DurationError> {
    let trimmed = text.trim();
    let digits = trimmed.strip_suffix('%').unwrap_or(trimmed);
    match digits.parse::<u8>() {
        Ok(p) if (1..=99).contains(&p) => Ok(p),
        _ => Err(DurationError::Percent(text.to_string())),
    }
}

/// A duration in the form it is written: `2d12h`, `48h` is shown as `2d`, `90m` as `1h30m`.
pub fn format_duration(duration: Duration) -> String {
    let minutes = duration.num_minutes().max(0);
    let (days, hours, mins) = (minutes / 1440, minutes % 1440 / 60, minutes % 60);
    let mut out = String::new();
    if days > 0 {
        out.push_str(&format!("{days}d"));
    }
    if hours > 0 {
        out.push_str(&format!("{hours}h"));
    }
    if mins > 0 || out.is_empty() {
        out.push_str(&format!("{mins}m"));
    }
    out
}

/// An instant shown relative to the reader's now (`in 3 hours`, `2 days ago`, where the
/// transport can): a token each transport presents ([`crate::answer::relative`]).
pub fn relative(at: DateTime<Utc>) -> String {
    crate::answer::relative(at)
}

/// An instant shown as a date and a time (in each reader's own time zone, where the transport
/// can): a token each transport presents ([`crate::answer::full`]).
pub fn full(at: DateTime<Utc>) -> String {
    crate::answer::full(at)
}

/// Reads an RFC 3339 time as stored (`Incoming::at`, `LogRow::at`).
pub fn parse_time(text: &str) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(text)
        .ok()
        .map(|t| t.with_timezone(&Utc))
}

/// A time as stored: RFC 3339 in UTC, whole seconds.
pub fn store_time(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_in_every_unit_and_combination() {
        assert_eq!(parse_duration("48h"), Ok(Duration::hours(48)));
        assert_eq!(parse_duration("3d"), Ok(Duration::days(3)));
        assert_eq!(parse_duration("90m"), Ok(Duration::minutes(90)));
        assert_eq!(parse_duration("1d12h"), Ok(Duration::hours(36)));
        assert_eq!(parse_duration("2w"), Ok(Duration::days(14)));
        assert_eq!(parse_duration(" 7D "), Ok(Duration::days(7)));
        assert_eq!(parse_duration("2days"), Ok(Duration::days(2)));
    }

    #[test]
    fn bad_negative_and_absurd_durations_are_refused() {
        for bad in ["", "h", "48", "4x", "1.5h", "forever", "d3", "3d-1h"] {
            assert!(
                matches!(parse_duration(bad), Err(DurationError::Unreadable(_))),
                "{bad}"
            );
        }
        for absurd in ["-3d", "0h", "0m", "91d", "100w", "9999999h", "30s"] {
            assert!(parse_duration(absurd).is_err(), "{absurd}");
        }
        assert_eq!(
            parse_duration("-3d"),
            Err(DurationError::OutOfRange("-3d".into()))
        );
        assert_eq!(parse_duration("90d"), Ok(LONGEST));
    }

    #[test]
    fn percentages_are_1_to_99() {
        assert_eq!(parse_percent("50%"), Ok(50));
        assert_eq!(parse_percent("75"), Ok(75));
        for bad in ["0%", "100%", "-5%", "half", "150", ""] {
            assert!(parse_percent(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn durations_print_as_written_and_times_as_instant_tokens() {
        assert_eq!(format_duration(Duration::hours(48)), "2d");
        assert_eq!(format_duration(Duration::minutes(90)), "1h30m");
        assert_eq!(format_duration(Duration::hours(36)), "1d12h");
        assert_eq!(format_duration(Duration::zero()), "0m");
        let at = parse_time("2025-03-01T12:00:00Z").expect("time");
        let spans = crate::answer::Rich::parse(&format!("{} {}", relative(at), full(at)));
        let style = |span: &crate::answer::Span| match span {
            crate::answer::Span::Instant { at: t, style } if *t == at => Some(*style),
            _ => None,
        };
        assert_eq!(
            style(&spans.spans()[0]),
            Some(crate::answer::InstantStyle::Relative)
        );
        assert_eq!(
            style(&spans.spans()[2]),
            Some(crate::answer::InstantStyle::Full)
        );
        assert_eq!(store_time(at), "2025-03-01T12:00:00Z");
        assert_eq!(parse_time("2025-03-01T13:00:00+01:00"), Some(at));
        assert_eq!(parse_time("yesterday"), None);
    }
}
