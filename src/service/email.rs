//! E-mail addresses as accounts and invitations store them.

use crate::error::Error;

/// Normalises and checks an e-mail address (shape only; delivery proves it).
pub fn normalize(raw: &str) -> Result<String, Error> {
    let email = raw.trim().to_lowercase();
    let valid = email.len() <= 254
        && email.split_once('@').is_some_and(|(local, domain)| {
            !local.is_empty()
                && domain.contains('.')
                && !domain.starts_with('.')
                && !domain.ends_with('.')
        })
        && !email.chars().any(|c| c.is_whitespace() || c.is_control());
    if valid {
        Ok(email)
    } else {
        Err(Error::unprocessable(
            "invalid_email",
            format!("`{raw}` is not an e-mail address"),
        ))
    }
}
