//! Authentication: password hashing and access tokens. The extractor that
//! turns a bearer token into the calling user is the web layer's
//! (`api::caller`).

pub mod password;
pub mod tokens;
