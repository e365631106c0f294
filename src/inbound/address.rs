//! The reply address a mail carries when it asks its reader to decide:
//! `move+<token>@REPLY_DOMAIN`, its token naming the reader, the game and
//! the move number the mail was written at (`token`); for an invitation,
//! `invite+<token>@REPLY_DOMAIN`, its token naming the invitation.

use super::token::{self, InvitationClaims, ReplyClaims, ReplyKeys};
use crate::config::Config;
use crate::store::outbox::{MailRow, kind};
use serde_json::Value;

pub struct ReplyAddresses {
    keys: ReplyKeys,
    domain: String,
    ttl_secs: u64,
}

impl ReplyAddresses {
    /// None when `REPLY_DOMAIN` is not set: mails then carry no address.
    pub fn of(config: &Config) -> Option<ReplyAddresses> {
        Some(ReplyAddresses {
            keys: ReplyKeys::new(&config.jwt_keys),
            domain: config.reply.domain.clone()?,
            ttl_secs: config.reply.token_ttl_secs,
        })
    }

    /// The address for `row`, sent at `now_ms` with `context`, if the mail
    /// asks its reader for a decision: an invitation, a "your move" mail, a
    /// reminder, an answer that lists commands, or a timeout mail that
    /// awaits the reader again.
    pub fn for_mail(&self, row: &MailRow, context: &Value, now_ms: i64) -> Option<String> {
        let expires_at = (now_ms / 1000).max(0) as u64 + self.ttl_secs;
        let expires_at = u32::try_from(expires_at).unwrap_or(u32::MAX);
        if row.kind == kind::INVITATION {
            let token = self.keys.issue_invitation(&InvitationClaims {
                invitation_id: context["invitation_id"].as_str()?.to_string(),
                expires_at,
            })?;
            return Some(format!(
                "{}{token}@{}",
                token::INVITATION_PREFIX,
                self.domain
            ));
        }
        let asks = match row.kind.as_str() {
            kind::YOUR_MOVE | kind::REMINDER => true,
            kind::ANSWER => context["menu"].as_array().is_some_and(|m| !m.is_empty()),
            kind::TIMEOUT => context["your_turn_again"] == true,
            _ => false,
        };
        if !asks {
            return None;
        }
        let token = self.keys.issue(&ReplyClaims {
            game_id: row.game_id.clone()?,
            user_id: row.user_id?,
            move_number: row.game_seq?,
            expires_at,
        })?;
        Some(format!("{}{token}@{}", token::PREFIX, self.domain))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const GAME: &str = "0b5c2a4e-6f1d-4c3b-9a8e-7d6c5b4a3f21";

    fn addresses() -> ReplyAddresses {
        ReplyAddresses {
            keys: ReplyKeys::new(&[("k".into(), b"the key".to_vec())]),
            domain: "replies.example.org".into(),
            ttl_secs: 60,
        }
    }

    fn row(kind: &str) -> MailRow {
        MailRow {
            id: 1,
            kind: kind.into(),
            game_id: Some(GAME.into()),
            user_id: Some(7),
            recipient: "ada@example.org".into(),
            context: String::new(),
            message_id: "m".into(),
            game_seq: Some(12),
            status: "pending".into(),
            attempts: 0,
            due_at: 0,
            claimed_until: None,
            last_error: None,
            created_at: 0,
            sent_at: None,
        }
    }

    #[test]
    fn a_timeout_mail_has_an_address_only_when_it_awaits_its_reader_again() {
        let a = addresses();
        let again = json!({"your_turn_again": true});
        let address = a.for_mail(&row(kind::TIMEOUT), &again, 1_000).unwrap();
        let local = address.strip_suffix("@replies.example.org").unwrap();
        let claims = a
            .keys
            .verify(token::from_local_part(local).unwrap(), 1)
            .unwrap();
        assert_eq!(
            (claims.game_id.as_str(), claims.user_id, claims.move_number),
            (GAME, 7, 12)
        );
        let not_again = json!({"your_turn_again": false});
        assert_eq!(a.for_mail(&row(kind::TIMEOUT), &not_again, 1_000), None);
        assert!(
            a.for_mail(&row(kind::YOUR_MOVE), &json!({}), 1_000)
                .is_some()
        );
        assert_eq!(a.for_mail(&row(kind::GAME_OVER), &json!({}), 1_000), None);
    }
}
