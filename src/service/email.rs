//! E-mail addresses as accounts and invitations store them.

use crate::error::Error;
use lettre::message::Mailbox;

/// Normalises and checks an e-mail address (shape only; delivery proves it).
///
/// One plain address: what the mailer reads as a mailbox (lettre's parser,
/// the one it sends with) with no display name and nothing else, so that
/// `x<attacker@evil.example>` or `a@x.org,b@y.org` cannot be stored to be
/// mailed later. Its domain must have a dot (no `ada@localhost`).
pub fn normalize(raw: &str) -> Result<String, Error> {
    let email = raw.trim().to_lowercase();
    let plain = email.len() <= 254
        && !email.chars().any(|c| c.is_whitespace() || c.is_control())
        && email
            .parse::<Mailbox>()
            .is_ok_and(|m| m.name.is_none() && m.email.as_ref() == email)
        && email.rsplit_once('@').is_some_and(|(_, domain)| {
            domain.contains('.') && !domain.starts_with('.') && !domain.ends_with('.')
        });
    if plain {
        Ok(email)
    } else {
        Err(Error::unprocessable(
            "invalid_email",
            format!("`{raw}` is not one plain e-mail address"),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::normalize;

    #[test]
    fn one_plain_address_only() {
        for good in [
            "ada@example.org",
            " Ada@Example.ORG ",
            "a.b+games@mail.example.org",
            "o'hara@example.ie",
        ] {
            assert_eq!(normalize(good).unwrap(), good.trim().to_lowercase());
        }
        for bad in [
            "x<attacker@evil.example>",
            "Ada <ada@example.org>",
            "<ada@example.org>",
            "a@x.org,b@y.org",
            "a@x.org;b@y.org",
            "\"a,b\"@example.org",
            "ada@example.org (Ada)",
            "ada@[127.0.0.1]",
            "ada@localhost",
            "ada@example.org.",
            "ada@.example.org",
            "a da@example.org",
            "ada\0@example.org",
            "@example.org",
            "ada@",
            "",
        ] {
            assert!(normalize(bad).is_err(), "{bad:?} was accepted");
        }
    }
}
