//! Per-key request rate limits (login by client address, moves by user),
//! answered with 429 and `Retry-After`. Limits are kept in memory, so each
//! instance enforces them on its own share of the traffic.

use crate::error::Error;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota};
use std::num::NonZeroU32;

pub struct RateLimiter(Option<DefaultKeyedRateLimiter<String>>);

impl RateLimiter {
    /// `0` turns the limit off.
    pub fn per_minute(n: u32) -> RateLimiter {
        RateLimiter(
            NonZeroU32::new(n).map(|n| DefaultKeyedRateLimiter::keyed(Quota::per_minute(n))),
        )
    }

    pub fn check(&self, key: &str) -> Result<(), Error> {
        let Some(limiter) = &self.0 else {
            return Ok(());
        };
        limiter.check_key(&key.to_string()).map_err(|not_until| {
            let wait = not_until.wait_time_from(DefaultClock::default().now());
            Error::too_many(whole_seconds_after(wait))
        })?;
        if limiter.len() > 100_000 {
            limiter.retain_recent();
        }
        Ok(())
    }
}

/// `Retry-After` in whole seconds, rounded up: a client that waits the
/// advertised time must find the next request allowed.
fn whole_seconds_after(wait: std::time::Duration) -> u64 {
    let secs = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
    secs.max(1)
}

#[cfg(test)]
mod tests {
    use super::whole_seconds_after;
    use std::time::Duration;

    #[test]
    fn the_advertised_wait_is_rounded_up() {
        for (wait_ms, secs) in [(0, 1), (1, 1), (999, 1), (1000, 1), (1001, 2), (2400, 3)] {
            assert_eq!(
                whole_seconds_after(Duration::from_millis(wait_ms)),
                secs,
                "{wait_ms} ms"
            );
        }
    }
}
