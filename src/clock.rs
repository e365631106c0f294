//! The time every use case and background worker reads, handed to them
//! rather than read from the system directly, so tests can move time
//! forward and watch deadlines expire.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

/// Milliseconds since the Unix epoch.
#[derive(Clone)]
pub struct Clock(Arc<dyn Fn() -> i64 + Send + Sync>);

impl Clock {
    pub fn system() -> Clock {
        Clock(Arc::new(crate::store::now_ms))
    }

    /// The system time plus an offset the caller can change: time keeps
    /// flowing (leases and timeouts behave), and a test jumps ahead.
    pub fn offset() -> (Clock, Arc<AtomicI64>) {
        let offset = Arc::new(AtomicI64::new(0));
        let read = offset.clone();
        let clock = Clock(Arc::new(move || {
            crate::store::now_ms() + read.load(Ordering::SeqCst)
        }));
        (clock, offset)
    }

    pub fn now(&self) -> i64 {
        (self.0)()
    }
}

impl Default for Clock {
    fn default() -> Self {
        Clock::system()
    }
}

impl std::fmt::Debug for Clock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Clock({})", self.now())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_offset_clock_jumps_ahead_of_the_system_clock() {
        let (clock, offset) = Clock::offset();
        offset.store(3_600_000, Ordering::SeqCst);
        let ahead = clock.now() - Clock::system().now();
        assert!((3_599_000..=3_600_000).contains(&ahead), "{ahead}");
    }
}
