//! The reply address a mail carries when it asks its reader to decide:
//! `move+<token>@REPLY_DOMAIN`, its token naming the reader, the game and
//! the move number the mail was written at (`token`).

use super::token::{self, ReplyClaims, ReplyKeys};
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
    /// asks its reader for a decision: a "your move" mail, a reminder, or
    /// an answer that lists commands.
    pub fn for_mail(&self, row: &MailRow, context: &Value, now_ms: i64) -> Option<String> {
        let asks = match row.kind.as_str() {
            kind::YOUR_MOVE | kind::REMINDER => true,
            kind::ANSWER => context["menu"].as_array().is_some_and(|m| !m.is_empty()),
            _ => false,
        };
        if !asks {
            return None;
        }
        let expires_at = (now_ms / 1000).max(0) as u64 + self.ttl_secs;
        let token = self.keys.issue(&ReplyClaims {
            game_id: row.game_id.clone()?,
            user_id: row.user_id?,
            move_number: row.game_seq?,
            expires_at: u32::try_from(expires_at).unwrap_or(u32::MAX),
        })?;
        Some(format!("{}{token}@{}", token::PREFIX, self.domain))
    }
}
