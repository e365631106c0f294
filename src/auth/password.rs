//! Password hashing with argon2id (the crate's defaults: OWASP parameters).

use argon2::Argon2;
use argon2::password_hash::{
    PasswordHash, PasswordHasher, PasswordVerifier, SaltString, rand_core::OsRng,
};
use std::sync::OnceLock;

pub fn hash(password: &str) -> Result<String, String> {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| e.to_string())
}

/// Whether `password` is the one `stored` was hashed from.
///
/// With no account (`None`), or a stored value that is no hash (the
/// marker of an imported account), the password is checked against a
/// dummy hash all the same, and refused: a login then costs what it costs
/// for an existing account, so its time does not tell whether an account
/// exists for an address.
pub fn check(password: &str, stored: Option<&str>) -> bool {
    check_with(&Argon2::default(), password, stored)
}

fn check_with(verifier: &impl PasswordVerifier, password: &str, stored: Option<&str>) -> bool {
    match stored.and_then(|s| PasswordHash::new(s).ok()) {
        Some(hash) => verifier.verify_password(password.as_bytes(), &hash).is_ok(),
        None => {
            let _ = verifier.verify_password(password.as_bytes(), &dummy());
            false
        }
    }
}

/// A hash with the parameters every account's has, of a random password
/// nobody knows, made once per process (`prepare`).
fn dummy() -> PasswordHash<'static> {
    static DUMMY: OnceLock<String> = OnceLock::new();
    let text = DUMMY.get_or_init(|| {
        use rand::RngExt;
        let secret: [u8; 32] = rand::rng().random();
        hash(&hex::encode(secret)).expect("argon2 hashes with its default parameters")
    });
    PasswordHash::new(text).expect("the dummy hash parses")
}

/// Makes the dummy hash now, so that the first login of an unknown
/// address does not take a hash longer than the others.
pub fn prepare() {
    dummy();
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
        assert!(super::check("correct horse", Some(&a)));
        assert!(!super::check("wrong horse", Some(&a)));
        assert!(!super::check("x", Some("not a hash")));
        assert!(!super::check("", None));
    }

    /// An argon2 verifier that records the parameters of every hash it is
    /// asked to check: the work a check does is fixed by them.
    struct Recording {
        argon2: argon2::Argon2<'static>,
        checked: std::cell::RefCell<Vec<String>>,
    }

    impl argon2::password_hash::PasswordVerifier for Recording {
        fn verify_password(
            &self,
            password: &[u8],
            hash: &argon2::PasswordHash<'_>,
        ) -> argon2::password_hash::Result<()> {
            self.checked.borrow_mut().push(work(hash));
            self.argon2.verify_password(password, hash)
        }
    }

    /// What an argon2 check of `hash` computes: algorithm, version,
    /// parameters (memory, passes, lanes) and output length.
    fn work(hash: &argon2::PasswordHash<'_>) -> String {
        format!(
            "{} v{:?} {} len {:?}",
            hash.algorithm,
            hash.version,
            hash.params,
            hash.hash.map(|h| h.len())
        )
    }

    #[test]
    fn a_login_without_an_account_does_the_same_argon2_work() {
        let real = super::hash("correct horse").unwrap();
        let expected = work(&argon2::PasswordHash::new(&real).unwrap());
        assert!(expected.starts_with("argon2id"), "{expected}");
        for (stored, password, accepted) in [
            (Some(real.as_str()), "correct horse", true),
            (Some(real.as_str()), "wrong horse", false),
            (None, "correct horse", false),
            (None, "", false),
            (Some("!imported: no password"), "correct horse", false),
        ] {
            let recording = Recording {
                argon2: argon2::Argon2::default(),
                checked: Default::default(),
            };
            assert_eq!(
                super::check_with(&recording, password, stored),
                accepted,
                "{stored:?}"
            );
            // One argon2id check with every account's parameters, whether
            // or not there is an account.
            assert_eq!(
                recording.checked.into_inner(),
                std::slice::from_ref(&expected),
                "{stored:?}"
            );
        }
    }
}
