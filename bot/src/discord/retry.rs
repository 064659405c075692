//! Every Discord request is retried with exponential backoff (`backon`): rate limits, server
//! errors, network errors and timeouts are retried; other errors (403, 404, a refused body) are
//! final. Two patiences: [`retry`] gives up after [`MAX_ATTEMPTS`] (reads made on the way to an
//! answer, an interaction's answer that Discord drops after minutes anyway); [`deliver`] never
//! gives up on a transient error (replies, reactions, prompts, notices, the pinned status and
//! the history a catch-up reads): Discord's outages last minutes, and a reply or a move that
//! is given up is lost. The channel's worker waits meanwhile, so its order is kept.
//!
//! Every request goes through the bot's one client ([`super::rest`]), which times each attempt
//! out by what it is and reads how long a 429 says to wait (the body's `retry_after`, the
//! `Retry-After` header; it holds every request after a global 429): the retry after a 429
//! waits exactly that long.

use std::future::Future;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use backon::{ExponentialBuilder, Retryable};
use serenity::model::id::ChannelId;

use super::rest::RestError;

/// Attempts per Discord request (the first try included).
pub(crate) const MAX_ATTEMPTS: u32 = 5;
/// The first retry's wait; each further retry waits twice as long.
const FIRST_BACKOFF: Duration = Duration::from_millis(100);
/// The longest wait between two attempts of [`deliver`] (a 429 waits what Discord said).
const MAX_BACKOFF: Duration = Duration::from_secs(10);

/// The waits between attempts: 100 ms, then twice as long each time, no jitter.
fn backoff() -> ExponentialBuilder {
    ExponentialBuilder::default()
        .with_min_delay(FIRST_BACKOFF)
        .with_factor(2.0)
        .with_max_times((MAX_ATTEMPTS - 1) as usize)
}

/// The waits of [`deliver`]: 100 ms, doubling up to [`MAX_BACKOFF`], without end.
fn patient_backoff() -> ExponentialBuilder {
    ExponentialBuilder::default()
        .with_min_delay(FIRST_BACKOFF)
        .with_factor(2.0)
        .with_max_delay(MAX_BACKOFF)
        .without_max_times()
}

/// Runs a Discord request up to [`MAX_ATTEMPTS`] times, each within its timeout.
/// Every failure is logged (with the channel and what was being done; never the token).
pub(crate) async fn retry<T, F, Fut>(
    what: &str,
    channel: ChannelId,
    request: F,
) -> Result<T, RestError>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, RestError>>,
{
    run(what, channel, backoff(), request).await
}

/// Runs a Discord request until it succeeds or fails for good (403, 404, a refused body: one
/// log line), each attempt within its timeout, waiting 100 ms, then twice as long each
/// time up to [`MAX_BACKOFF`]; after a 429 the time Discord said. For what must reach the
/// channel: a retried post carries the same nonce, so it never doubles.
pub(crate) async fn deliver<T, F, Fut>(
    what: &str,
    channel: ChannelId,
    request: F,
) -> Result<T, RestError>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, RestError>>,
{
    run(what, channel, patient_backoff(), request).await
}

async fn run<T, F, Fut>(
    what: &str,
    channel: ChannelId,
    waits: ExponentialBuilder,
    mut request: F,
) -> Result<T, RestError>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, RestError>>,
{
    let attempt = AtomicU32::new(0);
    // The client times each attempt out itself, by what the request is, and not while it
    // waits for a rate limit to pass.
    let result = (|| {
        attempt.fetch_add(1, Ordering::SeqCst);
        request()
    })
    .retry(waits)
    .when(RestError::transient)
    // After a 429: exactly the time Discord said (its bucket, or every request after a
    // global one, is held that long by the client too).
    .adjust(|error, wait| match error {
        RestError::RateLimited { after, .. } => wait.map(|_| *after),
        _ => wait,
    })
    .notify(|error, wait| {
        let attempt = attempt.load(Ordering::SeqCst);
        // A long outage is logged at its start and then every 20th attempt.
        if attempt <= MAX_ATTEMPTS || attempt.is_multiple_of(20) {
            // When the next try is, as a time a host can compare with the clock.
            let next_retry = chrono::TimeDelta::from_std(wait)
                .map(|delta| (chrono::Utc::now() + delta).format("%H:%M:%S UTC").to_string())
                .unwrap_or_default();
            tracing::warn!(%channel, what, attempt, %error, ?wait, %next_retry, "Discord request failed; retrying");
        }
    })
    .await;
    let attempt = attempt.load(Ordering::SeqCst);
    match &result {
        Ok(_) if attempt > 1 => {
            tracing::info!(%channel, what, attempt, "Discord request succeeded after retrying");
        }
        Ok(_) => {}
        // Not Discord's failure: the caller says why ([`RestError::Withdrawn`]).
        Err(RestError::Withdrawn) => {}
        Err(error) => {
            tracing::error!(%channel, what, attempt, %error, "Discord request failed; giving up");
        }
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use backon::BackoffBuilder;

    /// A final error: 403.
    fn forbidden() -> RestError {
        RestError::Refused {
            status: 403,
            code: 50013,
            message: "Missing Permissions".to_string(),
        }
    }

    #[test]
    fn only_transient_errors_are_retried() {
        let refused = |status| RestError::Refused {
            status,
            code: 0,
            message: String::new(),
        };
        assert!(refused(503).transient());
        assert!(!refused(403).transient());
        assert!(!refused(404).transient());
        assert!(RestError::TimedOut(Duration::from_secs(5)).transient());
        assert!(!RestError::Invalid("no".into()).transient());
    }

    #[tokio::test]
    async fn a_429_is_retried_once_after_the_time_discord_said() {
        let calls = AtomicU32::new(0);
        let after = Duration::from_millis(300);
        let first = tokio::time::Instant::now();
        let result = run("test", ChannelId::new(1), patient_backoff(), || {
            let n = calls.fetch_add(1, Ordering::SeqCst);
            async move {
                if n == 0 {
                    Err(RestError::RateLimited {
                        after,
                        global: false,
                    })
                } else {
                    Ok(tokio::time::Instant::now())
                }
            }
        })
        .await;
        let retried = result.expect("the retry succeeds");
        assert_eq!(calls.load(Ordering::SeqCst), 2, "one retry");
        assert!(retried - first >= after, "not before the time Discord said");
    }

    #[test]
    fn waits_double_from_the_first_backoff() {
        let waits: Vec<u128> = backoff().build().map(|w| w.as_millis()).collect();
        assert_eq!(waits, vec![100, 200, 400, 800]);
        let patient: Vec<u128> = patient_backoff()
            .build()
            .take(10)
            .map(|w| w.as_millis())
            .collect();
        assert_eq!(
            patient,
            vec![100, 200, 400, 800, 1600, 3200, 6400, 10_000, 10_000, 10_000]
        );
    }

    #[tokio::test]
    async fn delivery_outlasts_any_number_of_transient_failures() {
        // The patient waits without their length (1–2 ms instead of 100 ms to 10 s).
        let quick = || {
            patient_backoff()
                .with_min_delay(Duration::from_millis(1))
                .with_max_delay(Duration::from_millis(2))
        };
        let calls = AtomicU32::new(0);
        let result = run("test", ChannelId::new(1), quick(), || {
            let n = calls.fetch_add(1, Ordering::SeqCst);
            async move {
                if n < 40 {
                    Err(RestError::TimedOut(Duration::from_secs(5)))
                } else {
                    Ok(n)
                }
            }
        })
        .await;
        assert_eq!(result.ok(), Some(40));
        let calls = AtomicU32::new(0);
        let refused = run("test", ChannelId::new(1), quick(), || {
            calls.fetch_add(1, Ordering::SeqCst);
            async { Err::<(), _>(forbidden()) }
        })
        .await;
        assert!(refused.is_err());
        assert_eq!(
            calls.load(Ordering::SeqCst),
            1,
            "a final error is not retried"
        );
    }

    #[tokio::test]
    async fn a_transient_failure_is_retried_until_it_succeeds() {
        let calls = AtomicU32::new(0);
        let result = retry("test", ChannelId::new(1), || {
            let n = calls.fetch_add(1, Ordering::SeqCst);
            async move {
                if n < 2 {
                    Err(RestError::TimedOut(Duration::from_secs(5)))
                } else {
                    Ok(n)
                }
            }
        })
        .await;
        assert_eq!(result.ok(), Some(2));
        let refused = retry("test", ChannelId::new(1), || async {
            Err::<(), _>(forbidden())
        })
        .await;
        assert!(refused.is_err());
    }
}
