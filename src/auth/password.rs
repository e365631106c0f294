//! Password hashing with argon2id (the crate's defaults: OWASP parameters).

use argon2::Argon2;
use argon2::password_hash::{
    PasswordHash, PasswordHasher, PasswordVerifier, SaltString, rand_core::OsRng,
};

pub fn hash(password: &str) -> Result<String, String> {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| e.to_string())
}

pub fn verify(password: &str, stored: &str) -> bool {
    PasswordHash::new(stored)
        .map(|h| {
            Argon2::default()
                .verify_password(password.as_bytes(), &h)
                .is_ok()
        })
        .unwrap_or(false)
}

/// Runs password hashes and checks on the blocking thread pool, at most a
/// few at a time. An argon2id hash with these parameters holds 19 MiB
/// while it runs and keeps a core busy, and the pool has hundreds of
/// threads: a burst of registrations or logins would otherwise take one
/// thread and 19 MiB each. Past the number of cores more at once only adds
/// memory, so the rest wait their turn.
pub struct Hashing {
    permits: std::sync::Arc<tokio::sync::Semaphore>,
    at_once: usize,
}

impl Hashing {
    pub fn new(at_once: usize) -> Hashing {
        let at_once = at_once.max(1);
        Hashing {
            permits: std::sync::Arc::new(tokio::sync::Semaphore::new(at_once)),
            at_once,
        }
    }

    /// As many at once as the machine has cores.
    pub fn per_core() -> Hashing {
        Hashing::new(std::thread::available_parallelism().map_or(1, |n| n.get()))
    }

    /// How many hashes may run at once.
    pub fn at_once(&self) -> usize {
        self.at_once
    }

    pub async fn run<T, F>(&self, work: F) -> Result<T, actix_web::error::BlockingError>
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        // The turn goes with the work, not with the request: a client that
        // hangs up does not stop a hash that has begun. (Never an error:
        // the semaphore is never closed.)
        let turn = self.permits.clone().acquire_owned().await;
        actix_web::web::block(move || {
            let _turn = turn;
            work()
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn hashing_runs_no_more_than_its_permits_at_once() {
        let hashing = Arc::new(super::Hashing::new(2));
        let running = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        actix_web::rt::System::new().block_on(async {
            let tasks: Vec<_> = (0..8)
                .map(|_| {
                    let (hashing, running, most) = (hashing.clone(), running.clone(), most.clone());
                    actix_web::rt::spawn(async move {
                        hashing
                            .run(move || {
                                let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                                most.fetch_max(now, Ordering::SeqCst);
                                std::thread::sleep(std::time::Duration::from_millis(30));
                                running.fetch_sub(1, Ordering::SeqCst);
                            })
                            .await
                            .unwrap()
                    })
                })
                .collect();
            for task in tasks {
                task.await.unwrap();
            }
        });
        assert_eq!(most.load(Ordering::SeqCst), 2);
    }

    #[test]
    fn hashes_verify_and_are_salted() {
        let a = super::hash("correct horse").unwrap();
        let b = super::hash("correct horse").unwrap();
        assert!(a.starts_with("$argon2id$"));
        assert_ne!(a, b);
        assert!(super::verify("correct horse", &a));
        assert!(!super::verify("wrong horse", &a));
        assert!(!super::verify("x", "not a hash"));
    }
}
