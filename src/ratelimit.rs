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
            Error::too_many(wait.as_secs().max(1))
        })?;
        if limiter.len() > 100_000 {
            limiter.retain_recent();
        }
        Ok(())
    }
}
