//! Every Discord request is retried with exponential backoff (`backon`): rate limits, server
//! errors, network errors and timeouts are retried; other errors are final.

use std::future::Future;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use backon::{ExponentialBuilder, Retryable};
use serenity::all::HttpError;
use serenity::model::id::ChannelId;

/// Attempts per Discord request (the first try included).
pub(crate) const MAX_ATTEMPTS: u32 = 5;
/// The first retry's wait; each further retry waits twice as long.
const FIRST_BACKOFF: Duration = Duration::from_millis(100);
/// The least wait after a 429 (the fake and Discord say how long in a header serenity does not
/// expose when its ratelimiter is off).
const RATE_LIMIT_BACKOFF: Duration = Duration::from_millis(500);
/// The longest one request may take before it counts as failed.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

const TIMED_OUT: &str = "the request timed out";

/// The waits between attempts: 100 ms, then twice as long each time, no jitter.
fn backoff() -> ExponentialBuilder {
    ExponentialBuilder::default()
        .with_min_delay(FIRST_BACKOFF)
        .with_factor(2.0)
        .with_max_times((MAX_ATTEMPTS - 1) as usize)
}

/// The HTTP status of a refused request, if that is what `error` is.
fn status(error: &serenity::Error) -> Option<u16> {
    match error {
        serenity::Error::Http(HttpError::UnsuccessfulRequest(response)) => {
            Some(response.status_code.as_u16())
        }
        _ => None,
    }
}

/// Whether retrying can help: 429, 5xx, network errors and timeouts (not 400, 401, 403, 404,
/// a refused builder...).
fn transient(error: &serenity::Error) -> bool {
    match error {
        serenity::Error::Http(HttpError::UnsuccessfulRequest(_)) => {
            status(error).is_some_and(|s| s == 429 || s >= 500)
        }
        serenity::Error::Http(HttpError::Request(_)) | serenity::Error::Io(_) => true,
        serenity::Error::Other(why) => *why == TIMED_OUT,
        _ => false,
    }
}

/// Runs a Discord request up to [`MAX_ATTEMPTS`] times, each within [`REQUEST_TIMEOUT`].
/// Every failure is logged (with the channel and what was being done; never the token).
pub(crate) async fn retry<T, F, Fut>(
    what: &str,
    channel: ChannelId,
    mut request: F,
) -> serenity::Result<T>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = serenity::Result<T>>,
{
    let attempt = AtomicU32::new(0);
    let result = (|| {
        attempt.fetch_add(1, Ordering::SeqCst);
        let sent = request();
        async move {
            tokio::time::timeout(REQUEST_TIMEOUT, sent)
                .await
                .unwrap_or(Err(serenity::Error::Other(TIMED_OUT)))
        }
    })
    .retry(backoff())
    .when(transient)
    .adjust(|error, wait| match status(error) {
        Some(429) => wait.map(|w| w.max(RATE_LIMIT_BACKOFF)),
        _ => wait,
    })
    .notify(|error, wait| {
        let attempt = attempt.load(Ordering::SeqCst);
        tracing::warn!(%channel, what, attempt, %error, ?wait, "Discord request failed; retrying");
    })
    .await;
    let attempt = attempt.load(Ordering::SeqCst);
    match &result {
        Ok(_) if attempt > 1 => {
            tracing::info!(%channel, what, attempt, "Discord request succeeded after retrying");
        }
        Ok(_) => {}
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

    #[test]
    fn only_transient_errors_are_retried() {
        assert!(transient(&serenity::Error::Other(TIMED_OUT)));
        assert!(!transient(&serenity::Error::Other("something else")));
    }

    #[test]
    fn waits_double_from_the_first_backoff() {
        let waits: Vec<u128> = backoff().build().map(|w| w.as_millis()).collect();
        assert_eq!(waits, vec![100, 200, 400, 800]);
    }

    #[tokio::test]
    async fn a_transient_failure_is_retried_until_it_succeeds() {
        let calls = AtomicU32::new(0);
        let result = retry("test", ChannelId::new(1), || {
            let n = calls.fetch_add(1, Ordering::SeqCst);
            async move {
                if n < 2 {
                    Err(serenity::Error::Other(TIMED_OUT))
                } else {
                    Ok(n)
                }
            }
        })
        .await;
        assert_eq!(result.ok(), Some(2));
        let refused = retry("test", ChannelId::new(1), || async {
            Err::<(), _>(serenity::Error::Other("refused"))
        })
        .await;
        assert!(refused.is_err());
    }
}
