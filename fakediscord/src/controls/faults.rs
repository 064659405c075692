//! Test controls: faults injected per route (error statuses, 429s, hangs).

use std::collections::VecDeque;
use std::time::Duration;

use crate::routes::{RateLimitForm, RouteKind};
use crate::server::FakeDiscord;
use crate::state::Fault;

impl FakeDiscord {
    /// The next `count` requests to `route` are answered with `status` instead of being
    /// served (nothing is stored). A 429 gets Discord's rate-limit body and headers with a
    /// `retry_after` of 0.1 s; any other status gets `{"code":0,"message":"<status>: ..."}`.
    /// Calls queue up behind each other.
    pub fn fail_next(&self, route: RouteKind, status: u16, count: u32) {
        self.push_faults(
            route,
            Fault::Status {
                status,
                retry_after_secs: 0.1,
                global: false,
                form: RateLimitForm::BodyAndHeaders,
            },
            count,
        );
    }

    /// The next `count` requests to `route` are answered 429 with this `retry_after` (body and
    /// `Retry-After` / `X-RateLimit-*` headers), global or per-route.
    pub fn fail_next_rate_limited(
        &self,
        route: RouteKind,
        retry_after: Duration,
        global: bool,
        count: u32,
    ) {
        self.fail_next_rate_limited_as(
            route,
            retry_after,
            global,
            RateLimitForm::BodyAndHeaders,
            count,
        );
    }

    /// As [`FakeDiscord::fail_next_rate_limited`], saying the wait only as `form` says.
    pub fn fail_next_rate_limited_as(
        &self,
        route: RouteKind,
        retry_after: Duration,
        global: bool,
        form: RateLimitForm,
        count: u32,
    ) {
        self.push_faults(
            route,
            Fault::Status {
                status: 429,
                retry_after_secs: retry_after.as_secs_f64(),
                global,
                form,
            },
            count,
        );
    }

    /// The next `count` requests to `route` are never answered (the connection stays open
    /// until the client gives up or the fake stops). With `applied` each is served first (a
    /// post is stored and dispatched, as when Discord applied a request whose answer was lost);
    /// without, nothing is done. They are recorded with `answered: false`.
    pub fn hang_next(&self, route: RouteKind, applied: bool, count: u32) {
        self.push_faults(route, Fault::Hang { applied }, count);
    }

    fn push_faults(&self, route: RouteKind, fault: Fault, count: u32) {
        self.shared.write(|s| {
            let q = s.faults.entry(route).or_insert_with(VecDeque::new);
            q.extend(std::iter::repeat_n(fault, count as usize));
        });
    }

    /// Drops the failures not yet used up for a route: Discord is well again.
    pub fn clear_faults(&self, route: RouteKind) {
        self.shared.write(|s| {
            s.faults.remove(&route);
        });
    }

    /// Injected failures not yet used up for a route.
    pub fn pending_faults(&self, route: RouteKind) -> usize {
        self.shared
            .read()
            .faults
            .get(&route)
            .map_or(0, VecDeque::len)
    }
}
