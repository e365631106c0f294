//! The account lifecycle: registration proven by a mailed code, password
//! reset and sign-in by mail, changing the address, and deletion. Every
//! code is mailed to the address it proves and works once
//! (`store::account_codes`); what a request answers never tells whether
//! an address has an account (docs/security.md, "Accounts and addresses").

use super::audit::sha256_hex;
use crate::error::Error;
use crate::service::notify;
use crate::store::account_codes::{self as codes, AccountCode, NewAccountCode, purpose};
use crate::store::users::{self, User};
use crate::store::{DbConnection, write_tx};
use rand::RngExt;

const HOUR_MS: i64 = 3_600_000;
/// How long a registration waits for its confirmation; then it is
/// forgotten, its name and password hash with it.
pub const REGISTRATION_MS: i64 = 3 * 24 * HOUR_MS;
/// How long a password reset code works.
pub const RESET_MS: i64 = HOUR_MS;
/// How long a sign-in code works.
pub const SIGN_IN_MS: i64 = HOUR_MS;
/// How long the new address has to confirm a change.
pub const CHANGE_EMAIL_MS: i64 = 24 * HOUR_MS;
/// Codes of one purpose mailed to one address in an hour at most; past
/// it a request is answered as always and nothing is mailed, so that
/// nobody can flood an address through us.
pub const MAILS_PER_HOUR: i64 = 3;

/// The alphabet of codes: Crockford's base 32 (no I, L, O, U), read back
/// with its usual mistakes forgiven.
const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/// Ten characters: 50 bits, against at most `codes::MAX_ATTEMPTS` guesses
/// per code.
const CODE_LEN: usize = 10;

/// A fresh code, as mailed: `K7QP2-MXD9H`.
pub fn new_code() -> String {
    let mut rng = rand::rng();
    let chars: String = (0..CODE_LEN)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect();
    format!("{}-{}", &chars[..CODE_LEN / 2], &chars[CODE_LEN / 2..])
}

/// A code as typed, in the one form it is hashed in: case, dashes and
/// spaces do not matter, nor O for 0 or I and L for 1.
fn canonical(code: &str) -> String {
    code.chars()
        .filter(|c| !matches!(c, '-' | ' ' | '\t'))
        .map(|c| match c.to_ascii_uppercase() {
            'O' => '0',
            'I' | 'L' => '1',
            c => c,
        })
        .collect()
}

/// What is stored of a code: bound to its purpose and address.
fn code_hash(purpose: &str, email: &str, code: &str) -> String {
    sha256_hex(format!("{purpose}\0{email}\0{}", canonical(code)).as_bytes())
}

/// The refusal of a code that is wrong, used, expired or tried too often:
/// one answer for all, which tells nothing of the address.
fn invalid_code() -> Error {
    Error::bad_request(
        "invalid_code",
        "this code is wrong, used or expired; ask for a new one",
    )
}

/// Makes a code of `purpose` for `email`, unless `MAILS_PER_HOUR` were
/// made in the last hour; returns it to be mailed.
fn make_code(
    conn: &mut DbConnection,
    new: NewAccountCode,
    ttl_ms: i64,
) -> Result<Option<String>, Error> {
    let now = new.created_at;
    if codes::made_since(conn, new.purpose, new.email, now - HOUR_MS)? >= MAILS_PER_HOUR {
        return Ok(None);
    }
    let code = new_code();
    let hash = code_hash(new.purpose, new.email, &code);
    codes::insert(
        conn,
        &NewAccountCode {
            code_hash: &hash,
            expires_at: now + ttl_ms,
            ..new
        },
    )?;
    Ok(Some(code))
}

/// The live code of `purpose` for `email` that `code` is, used up; a miss
/// is counted against the address's codes (in its own transaction, so
/// that the refusal does not undo it).
fn redeem(
    conn: &mut DbConnection,
    purpose: &str,
    email: &str,
    code: &str,
    now: i64,
) -> Result<AccountCode, Error> {
    let hash = code_hash(purpose, email, code);
    let found = write_tx(conn, |conn| {
        let live = codes::live(conn, purpose, email, now)?;
        match live.into_iter().find(|c| c.code_hash == hash) {
            Some(found) if codes::use_code(conn, found.id, now)? => Ok::<_, Error>(Some(found)),
            Some(_) => Ok(None),
            None => {
                codes::count_miss(conn, purpose, email, now)?;
                Ok(None)
            }
        }
    })?;
    found.ok_or_else(invalid_code)
}

/// A registration: mails `email` a code that creates the account with
/// `name` and `password_hash` (a hash made whether or not the address is
/// known, so that both take the same time). An address that has an
/// account is mailed a password reset code instead. The caller answers
/// the same in every case.
pub fn register(
    conn: &mut DbConnection,
    email: &str,
    name: &str,
    password_hash: &str,
    now: i64,
) -> Result<(), Error> {
    write_tx(conn, |conn| {
        if let Some(owner) = users::by_email(conn, email)? {
            let new = NewAccountCode {
                purpose: purpose::RESET,
                email,
                user_id: Some(owner.id),
                display_name: None,
                password_hash: None,
                code_hash: "",
                created_at: now,
                expires_at: 0,
            };
            if let Some(code) = make_code(conn, new, RESET_MS)? {
                notify::account_mail(
                    conn,
                    notify::AccountMail::AlreadyRegistered,
                    &owner,
                    email,
                    &code,
                    now,
                )?;
            }
            return Ok(());
        }
        let new = NewAccountCode {
            purpose: purpose::REGISTER,
            email,
            user_id: None,
            display_name: Some(name),
            password_hash: Some(password_hash),
            code_hash: "",
            created_at: now,
            expires_at: 0,
        };
        if let Some(code) = make_code(conn, new, REGISTRATION_MS)? {
            notify::registration_mail(conn, name, email, &code, now)?;
        }
        Ok(())
    })
}

/// Confirms a registration: the account is created, and every other
/// registration waiting for the address ends.
pub fn confirm_registration(
    conn: &mut DbConnection,
    email: &str,
    code: &str,
    now: i64,
) -> Result<User, Error> {
    let found = redeem(conn, purpose::REGISTER, email, code, now)?;
    let (Some(name), Some(hash)) = (found.display_name, found.password_hash) else {
        return Err(Error::internal("a registration code without its account"));
    };
    write_tx(conn, |conn| {
        let user = users::insert(conn, email, &name, &hash, false)?.ok_or_else(|| {
            Error::conflict(
                "email_taken",
                "an account with this address exists already: sign in, or reset its password",
            )
        })?;
        codes::end_others(conn, purpose::REGISTER, email, now)?;
        Ok(user)
    })
}

/// An account created at once for the address an invitation was mailed
/// to: holding the invitation's token proves the address. None when the
/// token is not a pending invitation to `email`, or the address has an
/// account (then the registration is mailed as any other).
pub fn register_invited(
    conn: &mut DbConnection,
    invitation_token: &str,
    email: &str,
    name: &str,
    password_hash: &str,
) -> Result<Option<User>, Error> {
    write_tx(conn, |conn| {
        let hash = sha256_hex(invitation_token.trim().as_bytes());
        let invited = crate::store::games::invitation_by_token_hash(conn, &hash)?
            .is_some_and(|inv| inv.status == "pending" && inv.email == email);
        if !invited {
            return Ok(None);
        }
        Ok(users::insert(conn, email, name, password_hash, false)?)
    })
}

/// Mails `email` a code for `purpose` (a password reset, a sign-in) if an
/// account has that address. An address without one gets a code row of
/// no account, which nothing can use, so that both answers cost the same.
pub fn request_code(
    conn: &mut DbConnection,
    purpose: &'static str,
    email: &str,
    now: i64,
) -> Result<(), Error> {
    let (ttl, mail) = match purpose {
        purpose::RESET => (RESET_MS, notify::AccountMail::PasswordReset),
        purpose::SIGN_IN => (SIGN_IN_MS, notify::AccountMail::SignIn),
        _ => {
            return Err(Error::internal(format!(
                "no code is requested for {purpose}"
            )));
        }
    };
    write_tx(conn, |conn| {
        let owner = users::by_email(conn, email)?.filter(|u| u.disabled_at.is_none());
        let new = NewAccountCode {
            purpose,
            email,
            user_id: owner.as_ref().map(|u| u.id),
            display_name: None,
            password_hash: None,
            code_hash: "",
            created_at: now,
            expires_at: 0,
        };
        if let (Some(code), Some(owner)) = (make_code(conn, new, ttl)?, owner) {
            notify::account_mail(conn, mail, &owner, email, &code, now)?;
        }
        Ok(())
    })
}

/// The account a code of `purpose` (a reset, a sign-in) was mailed for.
pub fn redeem_for_account(
    conn: &mut DbConnection,
    purpose: &'static str,
    email: &str,
    code: &str,
    now: i64,
) -> Result<User, Error> {
    let found = redeem(conn, purpose, email, code, now)?;
    let user = match found.user_id {
        Some(id) => users::by_id(conn, id)?,
        None => None,
    };
    user.filter(|u| u.disabled_at.is_none() && u.email == email)
        .ok_or_else(invalid_code)
}

/// Sets a new password with a reset code: every session of the account
/// ends, and so do the sign-in codes mailed to it and its other resets.
pub fn reset_password(
    conn: &mut DbConnection,
    email: &str,
    code: &str,
    password_hash: &str,
    now: i64,
) -> Result<User, Error> {
    let user = redeem_for_account(conn, purpose::RESET, email, code, now)?;
    write_tx(conn, |conn| {
        users::set_password_hash(conn, user.id, password_hash)?;
        crate::store::sessions::revoke_all(conn, user.id, now)?;
        codes::end_others(conn, purpose::RESET, email, now)?;
        Ok(user)
    })
}

/// Asks `new_email` to confirm that it is `user`'s new address; the
/// caller has checked the password. An address that has an account is
/// told so instead, and nothing can move there.
pub fn request_email_change(
    conn: &mut DbConnection,
    user: &User,
    new_email: &str,
    now: i64,
) -> Result<(), Error> {
    if new_email == user.email {
        return Err(Error::unprocessable(
            "same_email",
            "this is the account's address already",
        ));
    }
    write_tx(conn, |conn| {
        // An account may not have the server mail address after address.
        if codes::made_by_since(conn, purpose::CHANGE_EMAIL, user.id, now - HOUR_MS)?
            >= MAILS_PER_HOUR
        {
            return Err(Error::too_many(3600));
        }
        let taken = users::by_email(conn, new_email)?.is_some();
        let new = NewAccountCode {
            purpose: purpose::CHANGE_EMAIL,
            email: new_email,
            user_id: (!taken).then_some(user.id),
            display_name: None,
            password_hash: None,
            code_hash: "",
            created_at: now,
            expires_at: 0,
        };
        let Some(code) = make_code(conn, new, CHANGE_EMAIL_MS)? else {
            return Ok(());
        };
        let mail = if taken {
            notify::AccountMail::AddressTaken
        } else {
            notify::AccountMail::ConfirmNewAddress
        };
        notify::account_mail(conn, mail, user, new_email, &code, now)
    })
}

/// Moves the account to the address the code was mailed to: game mail
/// follows it, mails still queued for the old address go to the new one,
/// the old address is told, and the sign-in codes mailed to the old one
/// stop working.
pub fn confirm_email_change(
    conn: &mut DbConnection,
    new_email: &str,
    code: &str,
    now: i64,
) -> Result<User, Error> {
    let found = redeem(conn, purpose::CHANGE_EMAIL, new_email, code, now)?;
    let Some(user_id) = found.user_id else {
        return Err(invalid_code());
    };
    write_tx(conn, |conn| {
        let user = users::by_id(conn, user_id)?
            .filter(|u| u.deleted_at.is_none())
            .ok_or_else(invalid_code)?;
        if !users::set_email(conn, user.id, new_email)? {
            return Err(Error::conflict(
                "email_taken",
                "an account with this address exists already",
            ));
        }
        crate::store::outbox::readdress_pending(conn, user.id, new_email)?;
        crate::store::sessions::void_codes(conn, user.id, now)?;
        notify::account_mail(
            conn,
            notify::AccountMail::AddressChanged,
            &user,
            &user.email,
            "",
            now,
        )?;
        let moved = users::by_id(conn, user.id)?.ok_or_else(invalid_code)?;
        Ok(moved)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_read_back_however_they_are_typed() {
        let code = new_code();
        assert_eq!(code.len(), CODE_LEN + 1);
        assert!(
            code.chars()
                .all(|c| c == '-' || ALPHABET.contains(&(c as u8)))
        );
        let h = |c: &str| code_hash(purpose::REGISTER, "a@x.example", c);
        assert_eq!(h("K7QP2-MXD9H"), h("k7qp2mxd9h"));
        assert_eq!(h("10000-00000"), h("IO000 OOOOO"));
        assert_eq!(h("10000-00000"), h("l0000-00000"));
        assert_ne!(h("K7QP2-MXD9H"), h("K7QP2-MXD9J"));
        assert_ne!(
            h("K7QP2-MXD9H"),
            code_hash(purpose::RESET, "a@x.example", "K7QP2-MXD9H"),
            "a code is bound to its purpose"
        );
        assert_ne!(
            h("K7QP2-MXD9H"),
            code_hash(purpose::REGISTER, "b@x.example", "K7QP2-MXD9H"),
            "and to its address"
        );
    }
}
