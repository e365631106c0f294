//! Playing by replying to mails: every transport (the SMTP/LMTP listener,
//! IMAP polling, `hexpost mail receive`) hands a whole message to
//! `receive`, which records it, checks it is a reply this server asked
//! for, applies its commands through the same move use case the API uses,
//! and queues the answer (docs/play-by-email.md, "Replying to a mail").

pub mod address;
mod apply;
pub mod authenticity;
pub mod header_block;
mod invitation;
pub mod reading;
pub mod screen;
pub mod token;
pub mod transport;

use crate::app::AppState;
use crate::config::ReplyConfig;
use crate::error::Error;
use crate::service::Now;
use crate::service::feed::Feed;
use crate::service::game_cache::GameCache;
use crate::service::notify;
use crate::store::inbound_mails::{self, Handled, NewInboundMail};
use crate::store::{DbConnection, DbPool, users};
use mail_parser::{Address, Message, MessageParser};
use std::sync::Arc;
use token::{ReplyClaims, ReplyKeys, TokenError};

/// Replies from one sender about one game (or about none) that played
/// nothing, answered in a day; later ones are recorded, not answered.
pub const FAILURES_ANSWERED_PER_DAY: i64 = 5;

/// How a message reached the server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Via {
    Smtp,
    Lmtp,
    Imap,
    Stdin,
}

impl Via {
    pub fn as_str(self) -> &'static str {
        match self {
            Via::Smtp => "smtp",
            Via::Lmtp => "lmtp",
            Via::Imap => "imap",
            Via::Stdin => "stdin",
        }
    }
}

/// What became of a message, broadly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Read as a reply: its commands were applied (maybe not all, see
    /// `Receipt::outcome`), or it was stale and answered with the game as
    /// it stands.
    Played,
    /// Not taken as a reply (a bad token, a stranger, too large, no
    /// text); answered only when `Receipt::answered`.
    Refused,
    /// Written by a machine (an auto-reply, a bounce, list mail): recorded,
    /// never answered.
    Ignored,
    /// The same Message-ID was received before: nothing done again.
    Duplicate,
}

/// What `receive` did with a message, for the transport's log and answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Receipt {
    pub kind: Kind,
    /// The stable code recorded for admins: `applied`, `command_failed`,
    /// `stale_move`, `forged_token`, `ignored_bounce`, ….
    pub outcome: &'static str,
    pub game_id: Option<String>,
    /// Commands applied.
    pub applied: usize,
    /// Whether an answer mail was queued.
    pub answered: bool,
}

/// Every transport hands a whole message here. Returns once the message is
/// recorded and its commands applied (or refused) and the answer queued.
/// An error means the message was not taken (the database is out of
/// reach): the transport should have it delivered again later.
pub async fn receive(app: &AppState, raw: &[u8], via: Via) -> Result<Receipt, Error> {
    // The message is parsed once, here: the sender check and every later
    // step read the same fields. An oversized message is judged by its
    // header alone.
    let readable = if raw.len() > app.config.reply.max_bytes {
        header_of(raw)
    } else {
        raw
    };
    let (shape, parsed) = match header_block::check(raw) {
        Ok(()) => match MessageParser::default().parse(readable) {
            Some(message) if author_count(&message) != 1 => (
                Err(header_block::Malformed(
                    "the From field must name exactly one address".into(),
                )),
                None,
            ),
            parsed => (Ok(()), parsed),
        },
        Err(malformed) => (Err(malformed), None),
    };
    // Checked before anything is recorded, so a message whose check cannot
    // be made now leaves no trace and is taken whole when it comes again.
    let sender = match &parsed {
        Some(message) => match app.sender_check.check_parsed(message, raw).await {
            authenticity::Verdict::Unavailable { reason } => {
                return Err(Error::unavailable(reason));
            }
            verdict => verdict,
        },
        None => authenticity::Verdict::Doubtful {
            reason: "the message was not read".into(),
        },
    };
    let message = parsed.map(Message::into_owned);
    let inbox = Inbox {
        sender,
        pool: app.pool.clone(),
        games: app.games.clone(),
        feed: app.feed.clone(),
        keys: ReplyKeys::new(&app.config.jwt_keys),
        reply: app.config.reply.clone(),
        now: app.now(),
    };
    let read = Read {
        size: raw.len(),
        digest: crate::service::audit::sha256_hex(raw),
        shape,
        message,
    };
    actix_web::rt::task::spawn_blocking(move || {
        let mut conn = inbox.pool.get().map_err(crate::store::unavailable)?;
        inbox.take(&mut conn, read, via)
    })
    .await
    .map_err(Error::internal)?
}

/// A message as `receive` read it: its size and digest, whether its
/// header is well formed, and its one parse (None when it is not, or
/// could not be parsed).
struct Read {
    size: usize,
    digest: String,
    shape: Result<(), header_block::Malformed>,
    message: Option<Message<'static>>,
}

/// What handling one message needs, owned, for the blocking pool.
struct Inbox {
    /// Whether the `From:` is vouched for (`authenticity`).
    sender: authenticity::Verdict,
    pool: DbPool,
    games: Arc<GameCache>,
    feed: Arc<Feed>,
    keys: ReplyKeys,
    reply: ReplyConfig,
    now: Now,
}

/// A message's verdict before it is recorded: the outcome code, why, and
/// what the token named.
struct Verdict {
    kind: Kind,
    outcome: &'static str,
    detail: Option<String>,
}

impl Verdict {
    fn refused(outcome: &'static str, detail: impl Into<String>) -> Verdict {
        Verdict {
            kind: Kind::Refused,
            outcome,
            detail: Some(detail.into()),
        }
    }
}

impl Inbox {
    fn take(&self, conn: &mut DbConnection, read: Read, via: Via) -> Result<Receipt, Error> {
        let Read {
            size,
            digest,
            shape,
            message,
        } = read;
        // Nothing of a malformed header is recorded: its fields may hold
        // what the database cannot (a NUL), and are not what they claim.
        let message_id = message
            .as_ref()
            .and_then(|m| m.message_id())
            .map(|id| id.trim().chars().take(998).collect::<String>())
            .filter(|id| !id.chars().any(char::is_control))
            .unwrap_or_else(|| format!("sha256:{digest}"));
        let sender = message.as_ref().and_then(sender_of);
        let claimed = inbound_mails::claim(
            conn,
            &NewInboundMail {
                received_at: self.now.at,
                via: via.as_str().into(),
                sender: sender.clone(),
                message_id: message_id.clone(),
                outcome: inbound_mails::RECEIVED.into(),
            },
        )?;
        if !claimed {
            return Ok(Receipt {
                kind: Kind::Duplicate,
                outcome: "duplicate",
                game_id: None,
                applied: 0,
                answered: false,
            });
        }
        if let Err(header_block::Malformed(reason)) = shape {
            let verdict = Verdict::refused("malformed_header", reason);
            return self.close(conn, &message_id, None, verdict, Handled::default());
        }
        let Some(message) = message else {
            let verdict = Verdict::refused("unreadable", "the message could not be parsed");
            return self.close(conn, &message_id, None, verdict, Handled::default());
        };
        if let Some(why) = screen::automatic(&message) {
            let verdict = Verdict {
                kind: Kind::Ignored,
                outcome: match why {
                    "bounce" => "ignored_bounce",
                    "mailing_list" => "ignored_list",
                    _ => "ignored_auto_reply",
                },
                detail: None,
            };
            return self.close(conn, &message_id, None, verdict, Handled::default());
        }
        // A refusal is answered only to an account that really sent the
        // mail: answering a forged `From:` would let anyone have the server
        // mail its players.
        let known = match &sender {
            Some(address) if self.vouched(address).is_ok() => users::by_email(conn, address)?,
            _ => None,
        };
        if let Some(token) = self.token_at(&message, token::INVITATION_PREFIX) {
            let mail = invitation::Incoming {
                message_id: &message_id,
                message: &message,
                size,
                sender: sender.as_deref(),
                known: known.as_ref(),
            };
            return self.invitation_reply(conn, mail, &token);
        }
        let claims = match self.claims(&message) {
            Ok(claims) => claims,
            Err(verdict) => {
                return self.close(
                    conn,
                    &message_id,
                    known.as_ref(),
                    verdict,
                    Handled::default(),
                );
            }
        };
        let named = Handled {
            user_id: Some(claims.user_id),
            game_id: Some(claims.game_id.clone()),
            move_number: Some(claims.move_number),
            ..Handled::default()
        };
        let owner = users::by_id(conn, claims.user_id)?;
        let from_owner = owner
            .as_ref()
            .zip(sender.as_deref())
            .is_some_and(|(owner, sender)| normalise(&owner.email) == sender);
        if !from_owner {
            let verdict = Verdict::refused(
                "wrong_sender",
                "this reply address belongs to another account: answer from the address your hexpost account has",
            );
            return self.close(conn, &message_id, known.as_ref(), verdict, named);
        }
        if let Err(verdict) = self.vouched(sender.as_deref().unwrap_or_default()) {
            return self.close(conn, &message_id, None, verdict, named);
        }
        let text = match self.readable(&message, size) {
            Ok(text) => text,
            Err(verdict) => return self.close(conn, &message_id, owner.as_ref(), verdict, named),
        };
        let lines = reading::own_lines(&text);
        let answer_failure =
            self.may_answer_failure(conn, sender.as_deref(), Some(&claims.game_id))?;
        let played = apply::play(
            conn,
            apply::Reply {
                claims: &claims,
                lines: &lines,
                games: &self.games,
                feed: &self.feed,
                now: self.now,
                answer_failure,
            },
        )?;
        inbound_mails::finish(
            conn,
            &message_id,
            &Handled {
                outcome: played.outcome.into(),
                applied: played.applied as i32,
                moves_to: played.moves_to,
                detail: played.detail.clone(),
                ..named
            },
        )?;
        Ok(Receipt {
            kind: Kind::Played,
            outcome: played.outcome,
            game_id: Some(claims.game_id),
            applied: played.applied,
            answered: played.answered,
        })
    }

    /// The reply address's claims, or why there are none.
    fn claims(&self, message: &Message) -> Result<ReplyClaims, Verdict> {
        if self.reply.domain.is_none() {
            return Err(Verdict::refused(
                "replies_off",
                "this server does not take replies by mail",
            ));
        }
        let token = self.token_at(message, token::PREFIX).ok_or_else(|| {
            Verdict::refused(
                "no_reply_address",
                "the mail is not addressed to a reply address: answer a mail from hexpost",
            )
        })?;
        self.keys
            .verify(&token, self.now_secs())
            .map_err(token_refused)
    }

    /// The token of the first recipient at `REPLY_DOMAIN` whose local part
    /// starts with `prefix`.
    fn token_at(&self, message: &Message, prefix: &str) -> Option<String> {
        let domain = self.reply.domain.as_deref()?;
        recipients(message).find_map(|address| {
            let (local, host) = address.rsplit_once('@')?;
            host.eq_ignore_ascii_case(domain)
                .then(|| token::after_prefix(local, prefix))
                .flatten()
                .map(str::to_string)
        })
    }

    fn now_secs(&self) -> u64 {
        u64::try_from(self.now.at / 1000).unwrap_or(0)
    }

    /// Whether a reply from `sender` about `game` that played nothing may
    /// still be answered today: a mail program that answers every mail
    /// without saying it is a robot (no `Auto-Submitted`) would otherwise
    /// trade mails with the server for ever. After
    /// `FAILURES_ANSWERED_PER_DAY` such replies in a day the rest are
    /// recorded and not answered.
    fn may_answer_failure(
        &self,
        conn: &mut DbConnection,
        sender: Option<&str>,
        game: Option<&str>,
    ) -> Result<bool, Error> {
        let Some(sender) = sender else {
            return Ok(false);
        };
        let since = self.now.at - crate::service::deadlines::DAY_MS;
        let earlier = inbound_mails::unplayed_since(conn, &normalise(sender), game, since)?;
        Ok(earlier < FAILURES_ANSWERED_PER_DAY)
    }

    /// Whether the check vouched for `sender` (the reply's one `From:`
    /// address), or why not; such a refusal is never answered (the answer
    /// would go to whoever the forger named).
    fn vouched(&self, sender: &str) -> Result<(), Verdict> {
        match &self.sender {
            authenticity::Verdict::Doubtful { reason } => {
                Err(Verdict::refused("sender_not_authentic", reason.clone()))
            }
            // The check read the same parse, so this holds; it is what the
            // reply's authenticity means, so it is checked where it is used.
            authenticity::Verdict::Authentic { domain, .. }
                if sender.rsplit_once('@').map(|(_, d)| d) != Some(domain.as_str()) =>
            {
                Err(Verdict::refused(
                    "sender_not_authentic",
                    format!("{domain} vouched for the mail, not its sender's domain"),
                ))
            }
            _ => Ok(()),
        }
    }

    fn readable(&self, message: &Message, size: usize) -> Result<String, Verdict> {
        if size > self.reply.max_bytes {
            return Err(Verdict::refused(
                "oversized",
                format!(
                    "the mail has {size} bytes, more than the {} read: reply without attachments or quoted pictures",
                    self.reply.max_bytes
                ),
            ));
        }
        reading::reply_text(message).ok_or_else(|| {
            Verdict::refused(
                "not_text",
                "the mail has no text to read: write the commands as text at the top of your reply",
            )
        })
    }

    /// Records a message that was not played, and answers the account that
    /// sent it when it is refused and there is one.
    fn close(
        &self,
        conn: &mut DbConnection,
        message_id: &str,
        answer_to: Option<&users::User>,
        verdict: Verdict,
        named: Handled,
    ) -> Result<Receipt, Error> {
        let answered = verdict.kind == Kind::Refused
            && answer_to.is_some()
            && self.may_answer_failure(
                conn,
                answer_to.map(|u| u.email.as_str()),
                named.game_id.as_deref(),
            )?;
        crate::store::write_tx(conn, |conn| {
            if let (true, Some(reader)) = (answered, answer_to) {
                let detail = verdict.detail.as_deref().unwrap_or_default();
                notify::refusal(conn, reader, verdict.outcome, detail, self.now.at)?;
            }
            inbound_mails::finish(
                conn,
                message_id,
                &Handled {
                    outcome: verdict.outcome.into(),
                    detail: verdict.detail.clone(),
                    ..named.clone()
                },
            )
            .map_err(Error::from)
        })?;
        Ok(Receipt {
            kind: verdict.kind,
            outcome: verdict.outcome,
            game_id: named.game_id,
            applied: 0,
            answered,
        })
    }
}

/// Why a reply address's token is refused.
fn token_refused(e: TokenError) -> Verdict {
    match e {
        TokenError::Forged => Verdict::refused(
            "forged_token",
            "the reply address is not one this server gave out",
        ),
        TokenError::Expired => Verdict::refused(
            "expired_token",
            "the reply address has expired: answer the latest mail about the game",
        ),
    }
}

/// The message up to the blank line that ends its header.
fn header_of(raw: &[u8]) -> &[u8] {
    let end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map(|i| i + 4)
        .or_else(|| raw.windows(2).position(|w| w == b"\n\n").map(|i| i + 2))
        .unwrap_or(raw.len());
    &raw[..end]
}

/// A mail address as accounts are compared: trimmed, lowercase.
pub fn normalise(address: &str) -> String {
    address.trim().to_lowercase()
}

/// How many addresses the From field names (a group's members counted).
fn author_count(message: &Message) -> usize {
    message.from().map_or(0, |from| from.iter().count())
}

/// The From address, normalised.
fn sender_of(message: &Message) -> Option<String> {
    message
        .from()
        .and_then(Address::first)
        .and_then(|a| a.address())
        .map(normalise)
}

/// Where the message was delivered to: the headers an MTA adds for the
/// envelope recipient first, then To and Cc.
fn recipients<'a>(message: &'a Message) -> impl Iterator<Item = String> + 'a {
    let envelope = ["Delivered-To", "X-Original-To"]
        .into_iter()
        .filter_map(|name| message.header_raw(name))
        .map(|v| v.trim().trim_matches(['<', '>']).to_string());
    let headers = [message.to(), message.cc()]
        .into_iter()
        .flatten()
        .flat_map(|a| a.iter())
        .filter_map(|a| a.address())
        .map(str::to_string);
    envelope.chain(headers)
}
