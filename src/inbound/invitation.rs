//! A reply to an invitation mail (`invite+<token>@REPLY_DOMAIN`): `ACCEPT`
//! or `DECLINE` on its first line (`commands::parse_invitation`), through
//! the use cases of the API's invitation routes. Accepting needs an
//! account with the invited address; the answer is the first decision of
//! the game, or a word that the game will not start, or why the line was
//! not taken, with the invitation still open.

use super::{Inbox, Kind, Receipt, Verdict, normalise, reading, token_refused};
use crate::commands::{self, InvitationReply};
use crate::error::Error;
use crate::service::{games, notify};
use crate::store::games as db;
use crate::store::inbound_mails::{self, Handled};
use crate::store::{DbConnection, users};
use mail_parser::Message;
use serde_json::json;

/// A message addressed to an invitation's reply address, as `Inbox::take`
/// has read it so far.
pub(super) struct Incoming<'a> {
    pub message_id: &'a str,
    pub message: &'a Message<'a>,
    /// Its size in bytes.
    pub size: usize,
    /// The From address, normalised.
    pub sender: Option<&'a str>,
    /// The account of that address, if there is one.
    pub known: Option<&'a users::User>,
}

/// What the reply's line did.
enum Answered {
    Accepted(i64),
    Declined,
    /// Not taken: the code and detail, as the API gives them.
    Failed(&'static str, String),
}

impl Inbox {
    pub(super) fn invitation_reply(
        &self,
        conn: &mut DbConnection,
        mail: Incoming,
        token: &str,
    ) -> Result<Receipt, Error> {
        let refuse = |conn: &mut DbConnection, verdict, named| {
            self.close(conn, mail.message_id, mail.known, verdict, named)
        };
        let claims = match self.keys.verify_invitation(token, self.now_secs()) {
            Ok(claims) => claims,
            Err(e) => return refuse(conn, token_refused(e), Handled::default()),
        };
        let Some(invitation) = db::invitation_by_id(conn, &claims.invitation_id)? else {
            let verdict = Verdict::refused("game_not_found", "the invitation no longer exists");
            return refuse(conn, verdict, Handled::default());
        };
        let named = Handled {
            user_id: mail.known.map(|u| u.id),
            game_id: Some(invitation.game_id.clone()),
            ..Handled::default()
        };
        if mail.sender != Some(normalise(&invitation.email).as_str()) {
            let verdict = Verdict::refused(
                "wrong_sender",
                "this reply address belongs to another address: answer from the address the invitation was sent to",
            );
            return refuse(conn, verdict, named);
        }
        if let Err(verdict) = self.vouched(mail.sender.unwrap_or_default()) {
            return self.close(conn, mail.message_id, None, verdict, named);
        }
        let text = match self.readable(mail.message, mail.size) {
            Ok(text) => text,
            Err(verdict) => return refuse(conn, verdict, named),
        };
        let lines = reading::own_lines(&text);
        let first = lines.first().map_or("", String::as_str);
        let answer_failure =
            self.may_answer_failure(conn, Some(&invitation.email), Some(&invitation.game_id))?;
        let answered = match commands::parse_invitation(first) {
            Err(e) => Answered::Failed(e.code, e.detail),
            Ok(reply) => self.answer_invitation(conn, reply, &invitation.id, mail.known)?,
        };
        let game = db::get(conn, &invitation.game_id)?
            .ok_or_else(|| Error::internal("an invitation without its game"))?;
        let (outcome, applied, detail) = match &answered {
            Answered::Accepted(user) => {
                let seated = games::read_seated(conn, &game.id, *user)?;
                let report = json!({"applied": ["ACCEPT"]});
                notify::answer(conn, &seated, &[], report, self.now.at)?;
                ("accepted", 1, None)
            }
            Answered::Declined => {
                notify::invitation_answer(conn, &game, &invitation.email, None, self.now.at)?;
                ("declined", 1, None)
            }
            Answered::Failed(code, detail) => {
                let failure = Some((*code, detail.as_str()));
                if answer_failure {
                    notify::invitation_answer(
                        conn,
                        &game,
                        &invitation.email,
                        failure,
                        self.now.at,
                    )?;
                }
                (
                    "command_failed",
                    0,
                    Some(format!("{first}: {detail} ({code})")),
                )
            }
        };
        inbound_mails::finish(
            conn,
            mail.message_id,
            &Handled {
                outcome: outcome.into(),
                applied,
                detail,
                ..named
            },
        )?;
        Ok(Receipt {
            kind: Kind::Played,
            outcome,
            game_id: Some(game.id),
            applied: applied as usize,
            answered: applied > 0 || answer_failure,
        })
    }

    /// Accepts or declines through the API's use cases; what they refuse
    /// is a failure to answer with, anything else an error.
    fn answer_invitation(
        &self,
        conn: &mut DbConnection,
        reply: InvitationReply,
        invitation_id: &str,
        account: Option<&users::User>,
    ) -> Result<Answered, Error> {
        let done = match (reply, account) {
            (InvitationReply::Decline, _) => {
                games::decline_by_id(conn, invitation_id, self.now).map(|()| Answered::Declined)
            }
            (InvitationReply::Accept, Some(user)) => {
                games::accept_by_id(conn, user.id, invitation_id, self.now)
                    .map(|_| Answered::Accepted(user.id))
            }
            (InvitationReply::Accept, None) => {
                return Ok(Answered::Failed(
                    "no_account",
                    "no hexpost account has this address: sign up with it, then reply ACCEPT again"
                        .into(),
                ));
            }
        };
        match done {
            Ok(answered) => Ok(answered),
            Err(e) if e.status.is_client_error() => Ok(Answered::Failed(e.code, e.detail)),
            Err(e) => Err(e),
        }
    }
}
