//! Authentication: password hashing, access tokens, and the Ed25519 keys
//! and signatures of signed moves. The extractor that
//! turns a bearer token into the calling user is the web layer's
//! (`api::caller`).

pub mod password;
pub mod signing;
pub mod tokens;
