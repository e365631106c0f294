//! Playing by replying to the server's own mails, end to end: the mails
//! come from the outbox worker through a real SMTP server
//! (tests/smtp_sink.py), each reply is written to the address the mail
//! carries and delivered through `hexpost mail receive` (the MTA pipe
//! path, the binary spawned), and the answers come back through the sink.
//! The REST API sees the same game; every refusal changes nothing. The
//! players' mail is DKIM-signed for their domain, whose key a real name
//! server started by the test publishes, and the server checks it.

use crate::common::dkim::Signer;
use crate::common::dns::NameServer;
use crate::common::process::ServeProcess;
use crate::common::smtp::{self, MAIL_WAIT, Received, SmtpSink};
use crate::common::{self, Api, Backend, TestServer, game};
use diesel::prelude::*;
use futures_util::TryStreamExt;
use hexpost::inbound::token::{ReplyClaims, ReplyKeys};
use hexpost::inbound::transport::imap::{connect, contents};
use hexpost::store::schema::{inbound_mails, outbox};
use hexpost_engine::LegalAction;
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const DOMAIN: &str = "replies.example.org";
const KEYS: &str = "test:0123456789abcdef0123456789abcdef";
const MAX_BYTES: &str = "8192";
/// The players' mail domain, whose mail is signed.
const PLAYERS: &str = "example.org";

/// The signing key of the players' mail provider.
fn provider() -> &'static Signer {
    static KEY: std::sync::OnceLock<Signer> = std::sync::OnceLock::new();
    KEY.get_or_init(Signer::new)
}

struct Table {
    /// Publishes the players' DKIM key.
    dns: NameServer,
    sink: SmtpSink,
    server: TestServer,
    players: [Api; 2],
    emails: [String; 2],
    user_ids: [i64; 2],
    game_id: String,
}

/// The settings of a server that takes replies, with the DNS server that
/// publishes the players' DKIM key and the outgoing SMTP server.
fn replies_on<'a>(dns: &'a str, smtp: &'a str) -> Vec<(&'a str, &'a str)> {
    let mut vars = vec![
        ("INBOUND_DNS_SERVERS", dns),
        ("SMTP_URL", smtp),
        ("MAIL_FROM", "hexpost <games@hexpost.example.org>"),
        ("PUBLIC_BASE_URL", "https://hexpost.example.org"),
        ("MAIL_POLL_INTERVAL_MS", "50"),
        ("REPLY_DOMAIN", DOMAIN),
        ("REPLY_MAX_BYTES", MAX_BYTES),
        ("JWT_KEYS", KEYS),
    ];
    vars.extend(smtp::QUICK_RETRIES);
    vars
}

/// The settings that poll the test mailbox's INBOX at `url`.
fn polling(url: &str) -> [(&str, &str); 4] {
    [
        ("IMAP_URL", url),
        ("IMAP_USER", common::dovecot::USER),
        ("IMAP_PASSWORD", common::dovecot::PASSWORD),
        ("IMAP_POLL_SECS", "1"),
    ]
}

fn table(py: &str, backend: Backend) -> Table {
    table_with(py, backend, &[])
}

fn table_with(py: &str, backend: Backend, extra: &[(&str, &str)]) -> Table {
    let sink = SmtpSink::running(py);
    let url = sink.url();
    let dns = NameServer::running();
    dns.publish(&Signer::record_name(PLAYERS), &provider().record);
    let dns_addr = dns.addr.to_string();
    let mut settings: Vec<(&str, &str)> = extra.to_vec();
    settings.extend(replies_on(&dns_addr, &url));
    let server = TestServer::start_with(backend, &settings);
    let api = server.client();
    let (ada, ada_id) = api.register("ada");
    let (bob, bob_id) = api.register("bob");
    let created = ada.post(
        "/api/v1/games",
        &json!({"variant": "standard", "opponent_email": "bob@example.org"}),
    );
    let body = created.ok().clone();
    let game_id = body["game"]["id"].as_str().unwrap().to_string();
    let token = body["invite_token"].as_str().unwrap();
    bob.post(&format!("/api/v1/invitations/{token}/accept"), &json!({}))
        .ok();
    Table {
        dns,
        sink,
        server,
        players: [ada, bob],
        emails: ["ada@example.org".into(), "bob@example.org".into()],
        user_ids: [ada_id, bob_id],
        game_id,
    }
}

impl Table {
    /// Plays random moves over the API until a player is to roll the
    /// dice after the other player moved and a "your move" mail asks them
    /// to; returns that player's index and the move number. The other
    /// player moving last is not enough: no mail comes while the player's
    /// previous one is unanswered (they were asked, say, to answer a trade
    /// offer, and the offer was withdrawn before they did).
    fn to_a_roll(&self) -> (usize, i64) {
        let mut rng = hexpost_engine::rng::GameRng::from_seed(21);
        let mut last = None;
        loop {
            let views = [0, 1].map(|i| game(&self.players[i], &self.game_id));
            let who = (0..2).find(|&i| views[i]["awaiting_you"] == true).unwrap();
            let legal: Vec<LegalAction> =
                serde_json::from_value(views[who]["legal_actions"].clone()).unwrap();
            let expected = views[who]["move_number"].as_i64().unwrap();
            if legal.contains(&LegalAction::RollDice)
                && last.is_some_and(|l| l != who)
                && self.turn_mail_queued(who, expected)
            {
                return (who, expected);
            }
            let action = common::choose(&views[who]["view"], &legal, &mut rng);
            let action = serde_json::to_value(&action).unwrap();
            let r = self.players[who].submit(&self.game_id, expected, &action);
            if r.status == 422 && r.body["reason"]["code"] == "bank_shortage" {
                continue;
            }
            r.ok();
            last = Some(who);
        }
    }

    /// Whether a "your move" mail to player `p` for move `at` is queued
    /// (in the transaction of the move that made it due, so as soon as
    /// that move's request returns).
    fn turn_mail_queued(&self, p: usize, at: i64) -> bool {
        let mut conn = self.server.db().get().unwrap();
        let queued: i64 = outbox::table
            .filter(outbox::recipient.eq(&self.emails[p]))
            .filter(outbox::kind.eq("your_move"))
            .filter(outbox::game_id.eq(&self.game_id))
            .filter(outbox::game_seq.eq(at))
            .count()
            .get_result(&mut conn)
            .unwrap();
        queued > 0
    }

    /// The "your move" mail to `email` for move `at`.
    fn turn_mail(&self, email: &str, at: i64) -> Received {
        self.mail(0, email, "Your move", |m: &Received| {
            m.subject().ends_with(&format!("move {at})"))
        })
    }

    /// The log's rows of `reader`'s own moves (the log's `after` counts
    /// rows, not move numbers), oldest first.
    fn player_rows(&self, reader: usize) -> Vec<Value> {
        let path = format!("/api/v1/games/{}/log?limit=500", self.game_id);
        let log = self.players[reader].get(&path).ok().clone();
        let rows = log.as_array().unwrap().iter();
        let user = self.user_ids[reader];
        rows.filter(|r| r["actor"].as_str().is_some_and(|a| a.starts_with("seat:")))
            .filter(|r| r["user_id"] == user)
            .cloned()
            .collect()
    }

    fn move_number(&self) -> i64 {
        game(&self.players[0], &self.game_id)["move_number"]
            .as_i64()
            .unwrap()
    }

    /// Waits for a mail to `to` whose subject starts with `subject` (and
    /// that `also` accepts), beyond the first `seen` messages.
    fn mail(
        &self,
        seen: usize,
        to: &str,
        subject: &str,
        also: impl Fn(&Received) -> bool,
    ) -> Received {
        let start = Instant::now();
        loop {
            if let Some(m) = self
                .sink
                .messages()
                .into_iter()
                .skip(seen)
                .find(|m| m.to() == to && m.subject().starts_with(subject) && also(m))
            {
                return m;
            }
            assert!(
                start.elapsed() < MAIL_WAIT,
                "no mail to {to} starting {subject:?}: {:#?}\nthe outbox's rows to {to}: {:#?}",
                self.sink
                    .messages()
                    .iter()
                    .map(|m| (m.to().to_string(), m.subject().to_string()))
                    .collect::<Vec<_>>(),
                self.outbox_to(to)
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// What the outbox holds for `to` (kind, status, attempts, last error,
    /// due and sent in ms from now): why a mail is late, when one is.
    fn outbox_to(&self, to: &str) -> Vec<String> {
        let mut conn = self.server.db().get().unwrap();
        let now = self.server.clock.now();
        outbox::table
            .filter(outbox::recipient.eq(to))
            .order(outbox::id)
            .select((
                outbox::id,
                outbox::kind,
                outbox::status,
                outbox::attempts,
                outbox::last_error,
                outbox::due_at,
                outbox::sent_at,
            ))
            .load::<(i64, String, String, i32, Option<String>, i64, Option<i64>)>(&mut conn)
            .unwrap()
            .into_iter()
            .map(|(id, kind, status, attempts, error, due, sent)| {
                let sent = sent.map(|s| s - now);
                format!(
                    "{id} {kind} {status}, {attempts} attempts, error {error:?}, due {} ms, sent {sent:?} ms",
                    due - now
                )
            })
            .collect()
    }

    /// Answer and refusal mails queued so far.
    fn answers_queued(&self) -> i64 {
        let mut conn = self.server.db().get().unwrap();
        outbox::table
            .filter(outbox::kind.eq_any(["answer", "refusal"]))
            .count()
            .get_result(&mut conn)
            .unwrap()
    }

    fn recorded(&self, message_id: &str) -> (String, i32, Option<String>) {
        self.record(message_id).expect("the message is recorded")
    }

    /// The inbound record of `message_id`, if there is one.
    fn record(&self, message_id: &str) -> Option<(String, i32, Option<String>)> {
        let mut conn = self.server.db().get().unwrap();
        inbound_mails::table
            .filter(inbound_mails::message_id.eq(message_id))
            .select((
                inbound_mails::outcome,
                inbound_mails::applied,
                inbound_mails::via,
            ))
            .first::<(String, i32, String)>(&mut conn)
            .optional()
            .unwrap()
            .map(|(o, a, v)| (o, a, Some(v)))
    }

    /// The reply `message_id`, taken in by way of `via`, played `who`'s
    /// roll at move `at`: the game moved on, the log has the roll as the
    /// player's last move, by their seat, and the reply is recorded as
    /// applying one command.
    fn assert_roll_applied(&self, who: usize, at: i64, message_id: &str, via: &str) {
        assert!(self.move_number() > at, "{message_id}: the roll is applied");
        let moves = self.player_rows(who);
        let last = moves.last().expect("a move by a player");
        assert_eq!(last["action"]["type"], "roll_dice", "{message_id}");
        assert_eq!(
            self.recorded(message_id),
            ("applied".into(), 1, Some(via.into())),
            "{message_id}"
        );
    }

    /// `hexpost mail receive` with `raw` on its standard input: its exit
    /// code.
    fn pipe(&self, raw: &[u8]) -> i32 {
        let mut child = Command::new(env!("CARGO_BIN_EXE_hexpost"))
            .args(["mail", "receive"])
            .env_clear()
            .env("DATABASE_URL", &self.server.database_url)
            .env("HEXPOST_DATA_DIR", &self.server.data_dir)
            .env("JWT_KEYS", KEYS)
            .env("REPLY_DOMAIN", DOMAIN)
            .env("REPLY_MAX_BYTES", MAX_BYTES)
            .env("INBOUND_DNS_SERVERS", self.dns.addr.to_string())
            .stdin(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(raw).unwrap();
        let out = child.wait_with_output().unwrap();
        eprintln!("{}", String::from_utf8_lossy(&out.stderr));
        out.status.code().unwrap()
    }
}

/// A plain-text reply as a mail program writes it: the player's lines on
/// top, the quoted mail below.
fn reply(from: &str, to: &str, message_id: &str, body: &str) -> Vec<u8> {
    message(
        from,
        to,
        message_id,
        "Content-Type: text/plain; charset=utf-8\r\n",
        body,
    )
}

/// A message as the players' provider sends it: DKIM-signed.
fn message(from: &str, to: &str, message_id: &str, headers: &str, body: &str) -> Vec<u8> {
    provider().sign(PLAYERS, &unsigned(from, to, message_id, headers, body))
}

fn unsigned(from: &str, to: &str, message_id: &str, headers: &str, body: &str) -> Vec<u8> {
    format!(
        "From: {from}\r\nTo: {to}\r\nSubject: Re: your move\r\nMessage-ID: <{message_id}>\r\n\
         Date: Fri, 27 Nov 2026 08:00:00 +0000\r\nMIME-Version: 1.0\r\n{headers}\r\n{body}"
    )
    .into_bytes()
}

fn reply_address(mail: &Received) -> String {
    let header = mail
        .header("reply-to")
        .expect("the mail has a reply address");
    let address = header
        .rsplit_once('<')
        .map_or(header, |(_, a)| a.trim_end_matches('>'));
    assert!(
        address.starts_with("move+") && address.ends_with(DOMAIN),
        "{address}"
    );
    address.to_string()
}

/// The answer says the reply's roll was applied.
fn assert_applied_roll(answer: &Received) {
    assert!(
        answer
            .text
            .replace("\r\n", "\n")
            .contains("Applied from your reply:\n- R\n"),
        "{}",
        answer.text
    );
}

fn quoted(mail: &Received) -> String {
    let quote: String = mail.text.lines().map(|l| format!("> {l}\r\n")).collect();
    format!(
        "\r\nOn Fri, 27 Nov 2026 at 08:00, hexpost <games@hexpost.example.org> wrote:\r\n{quote}"
    )
}

fn python() -> Option<String> {
    let py = smtp::python();
    if py.is_none() {
        eprintln!("skipped: no Python with aiosmtpd (HEXPOST_TEST_PYTHON)");
    }
    py
}

#[test]
fn a_reply_through_the_pipe_is_played_and_answered_with_the_next_decision() {
    let Some(py) = python() else { return };
    let t = table(&py, Backend::Sqlite);
    let (who, at) = t.to_a_roll();
    let email = &t.emails[who];
    let turn = t.turn_mail(email, at);
    assert!(turn.text.contains("You can play by replying to this mail"));
    let address = reply_address(&turn);
    let seen = t.sink.messages().len();

    // Upper case, as some mail systems write the local part.
    let raw = reply(
        email,
        &address.to_uppercase(),
        "r1@mail.example.org",
        &format!("R\r\n{}", quoted(&turn)),
    );
    assert_eq!(t.pipe(&raw), 0);
    t.assert_roll_applied(who, at, "r1@mail.example.org", "stdin");
    let answer = t.mail(seen, email, "Your reply", |_| true);
    assert_eq!(answer.header("auto-submitted"), Some("auto-replied"));
    assert_applied_roll(&answer);

    let view = game(&t.players[who], &t.game_id);
    let legal: Vec<LegalAction> = serde_json::from_value(view["legal_actions"].clone()).unwrap();
    if !legal.contains(&LegalAction::EndTurn) {
        // A seven: the robber waits, which this reply's grammar has no
        // command for; the answer says so by its menu.
        assert!(
            !answer
                .text
                .replace("\r\n", "\n")
                .contains("  E  end your turn")
        );
        return;
    }
    assert!(
        answer
            .text
            .replace("\r\n", "\n")
            .contains("  E  end your turn"),
        "{}",
        answer.text
    );
    let next = reply_address(&answer);
    assert_ne!(next, address, "each mail has its own address");
    let seen = t.sink.messages().len();
    let before = t.move_number();
    let raw = reply(email, &next, "r2@mail.example.org", "e\r\n-- \r\nAda\r\n");
    assert_eq!(t.pipe(&raw), 0);
    assert!(t.move_number() > before);
    let other = &t.emails[1 - who];
    let their_turn = t.mail(seen, other, "Your move", |_| true);
    assert!(their_turn.header("reply-to").is_some());
    let answer = t.mail(seen, email, "Your reply", |_| true);
    assert!(
        answer
            .text
            .replace("\r\n", "\n")
            .contains("Nothing is yours to decide now"),
        "{}",
        answer.text
    );
    assert!(
        answer.header("reply-to").is_none(),
        "no address when nothing is asked"
    );

    // The admin record lists both, newest first.
    let (admin, _) = common::register_admin(&t.server, "root");
    let listed = admin.get("/api/v1/admin/mail/inbound").ok().clone();
    let ids: Vec<&str> = listed
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["message_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["r2@mail.example.org", "r1@mail.example.org"]);
    assert_eq!(listed[0]["outcome"], "applied");
    assert_eq!(listed[0]["game_id"], Value::from(t.game_id.clone()));
}

/// A mail that must change nothing: what it is, the mail, the exit code
/// of `hexpost mail receive`, the outcome recorded, whether it is answered.
type Refusal = (&'static str, Vec<u8>, i32, &'static str, bool);

/// Every kind of mail that must change nothing, against the reply
/// `address` of the mail that asked player `who` for move `at`.
fn refusals(t: &Table, who: usize, at: i64, address: &str) -> Vec<Refusal> {
    let email = t.emails[who].clone();
    let stranger = "mallory@example.net";
    let token = address["move+".len()..address.find('@').unwrap()].to_string();
    let user_id = t.user_ids[who];
    let claims = |expires_at| ReplyClaims {
        game_id: t.game_id.clone(),
        user_id,
        move_number: at,
        expires_at,
    };
    let keys = |secret: &str| ReplyKeys::new(&[("k".into(), secret.as_bytes().to_vec())]);
    let at_domain = |token: &str| format!("move+{token}@{DOMAIN}");
    let expired = at_domain(
        &keys("0123456789abcdef0123456789abcdef")
            .issue(&claims(1))
            .unwrap(),
    );
    let forged = at_domain(
        &keys("not the server's key")
            .issue(&claims(u32::MAX))
            .unwrap(),
    );
    let mut altered = token.clone().into_bytes();
    altered[3] = if altered[3] == b'a' { b'b' } else { b'a' };
    let altered = at_domain(std::str::from_utf8(&altered).unwrap());
    let text = "Content-Type: text/plain; charset=utf-8\r\n";
    let image = "Content-Type: image/png\r\nContent-Transfer-Encoding: base64\r\n";
    let binary = "Content-Type: application/octet-stream\r\nContent-Transfer-Encoding: base64\r\n";
    // Lines of a length mail allows (RFC 5322: 998), more than REPLY_MAX_BYTES in all.
    let big = format!("R\r\n{}", format!("{}\r\n", "x".repeat(70)).repeat(150));

    vec![
        (
            "forged",
            reply(&email, &forged, "forged", "R"),
            0,
            "forged_token",
            true,
        ),
        (
            "altered",
            reply(&email, &altered, "altered", "R"),
            0,
            "forged_token",
            true,
        ),
        (
            "stranger",
            reply(stranger, &forged, "stranger", "R"),
            65,
            "forged_token",
            false,
        ),
        (
            "expired",
            reply(&email, &expired, "expired", "R"),
            0,
            "expired_token",
            true,
        ),
        (
            "wrong sender",
            reply(&t.emails[1 - who], address, "wrong", "R"),
            0,
            "wrong_sender",
            true,
        ),
        (
            "stranger sender",
            reply(stranger, address, "wrong2", "R"),
            65,
            "wrong_sender",
            false,
        ),
        (
            "unsigned",
            unsigned(&email, address, "unsigned", text, "R"),
            65,
            "sender_not_authentic",
            false,
        ),
        (
            "signed with another key",
            Signer::new().sign(PLAYERS, &unsigned(&email, address, "otherkey", text, "R")),
            65,
            "sender_not_authentic",
            false,
        ),
        (
            "signed for another domain",
            provider().sign(
                "example.net",
                &unsigned(&email, address, "otherdomain", text, "R"),
            ),
            65,
            "sender_not_authentic",
            false,
        ),
        (
            "no address",
            reply(&email, "games@hexpost.example.org", "noaddr", "R"),
            0,
            "no_reply_address",
            true,
        ),
        (
            "oversized",
            reply(&email, address, "big", &big),
            0,
            "oversized",
            true,
        ),
        (
            "not text",
            message(&email, address, "bin", binary, "UgoK\r\n"),
            0,
            "not_text",
            true,
        ),
        (
            "only an image",
            message(
                &email,
                address,
                "png",
                image,
                "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg==\r\n",
            ),
            0,
            "not_text",
            true,
        ),
        (
            "auto-reply",
            message(
                &email,
                address,
                "auto",
                "Auto-Submitted: auto-replied\r\n",
                "R",
            ),
            0,
            "ignored_auto_reply",
            false,
        ),
        (
            "bounce",
            message(&email, address, "bounce", "Return-Path: <>\r\n", "R"),
            0,
            "ignored_bounce",
            false,
        ),
        (
            "list",
            message(
                &email,
                address,
                "list",
                "List-Id: <games.example.org>\r\n",
                "R",
            ),
            0,
            "ignored_list",
            false,
        ),
        (
            "X-Autoreply",
            message(&email, address, "xauto", "X-Autoreply: yes\r\n", "R"),
            0,
            "ignored_auto_reply",
            false,
        ),
        (
            "delivery report",
            message(
                &email,
                address,
                "dsn",
                "Content-Type: multipart/report; report-type=delivery-status; boundary=b\r\n",
                "--b\r\nContent-Type: text/plain\r\n\r\nR\r\n--b--\r\n",
            ),
            0,
            "ignored_bounce",
            false,
        ),
        (
            "bulk",
            message(&email, address, "bulk", "Precedence: bulk\r\n", "R"),
            0,
            "ignored_list",
            false,
        ),
    ]
}

/// Where an MTA delivers `raw`: to its `To` address when that is at the
/// reply domain; a message addressed elsewhere reaches the listener only
/// through another address at the reply domain, one without a token.
fn envelope_recipient(raw: &[u8]) -> String {
    let text = std::str::from_utf8(raw).unwrap();
    let to = text
        .lines()
        .find_map(|l| l.strip_prefix("To: "))
        .unwrap()
        .trim();
    if to.ends_with(&format!("@{DOMAIN}")) {
        to.to_string()
    } else {
        format!("games@{DOMAIN}")
    }
}

/// The Message-ID of a mail `message` wrote.
fn message_id(raw: &[u8]) -> String {
    std::str::from_utf8(raw)
        .unwrap()
        .split("Message-ID: <")
        .nth(1)
        .unwrap()
        .split('>')
        .next()
        .unwrap()
        .to_string()
}

#[test]
fn refused_replies_change_nothing_and_robots_get_no_answer() {
    let Some(py) = python() else { return };
    let t = table(&py, Backend::Sqlite);
    let (who, at) = t.to_a_roll();
    let email = t.emails[who].clone();
    let turn = t.turn_mail(&email, at);
    let address = reply_address(&turn);
    let cases = refusals(&t, who, at, &address);
    let html_only = "Content-Type: text/html; charset=utf-8\r\n";
    let mut answers = t.answers_queued();
    for (what, raw, code, outcome, answered) in &cases {
        let id = message_id(raw);
        assert_eq!(t.pipe(raw), *code, "{what}");
        assert_eq!(t.move_number(), at, "{what}: nothing applied");
        assert_eq!(t.recorded(&id).0, *outcome, "{what}");
        let now = t.answers_queued();
        assert_eq!(now - answers, i64::from(*answered), "{what}: answered");
        answers = now;
    }
    let refusal = t.mail(0, &email, "Your mail to hexpost was not read", |_| true);
    assert_eq!(refusal.header("auto-submitted"), Some("auto-replied"));
    assert!(
        !refusal.text.contains(&t.game_id),
        "a refusal names no game"
    );

    // HTML only, from Gmail: read up to its quote.
    let gmail = "<div dir=\"ltr\">R</div><br><div class=\"gmail_quote\"><div class=\"gmail_attr\">On Fri wrote:</div><blockquote>E</blockquote></div>";
    let raw = message(&email, &address, "html", html_only, gmail);
    assert_eq!(t.pipe(&raw), 0);
    assert_eq!(t.recorded("html").0, "applied");
    let after = t.move_number();
    assert!(after > at);

    // The same message again (same Message-ID): applied once.
    assert_eq!(t.pipe(&raw), 0);
    assert_eq!(t.move_number(), after);

    // A reply to the old mail with a new Message-ID: stale, answered with
    // the game as it stands, nothing applied.
    let seen = t.sink.messages().len();
    let raw = reply(&email, &address, "stale", "R\r\nE");
    assert_eq!(t.pipe(&raw), 0);
    assert_eq!(t.move_number(), after);
    assert_eq!(t.recorded("stale").0, "stale_move");
    let answer = t.mail(seen, &email, "Not applied: the game moved on", |_| true);
    assert!(
        answer
            .text
            .contains(&format!("your reply answered move {at}")),
        "{}",
        answer.text
    );
}

/// Two deliveries of one message at the same moment (two MTAs, two
/// instances): exactly one is played, on either database.
#[test]
fn one_message_delivered_twice_at_once_is_played_once() {
    let Some(py) = python() else { return };
    for backend in common::BACKENDS {
        let t = table(&py, backend);
        let (who, at) = t.to_a_roll();
        let email = t.emails[who].clone();
        let address = reply_address(&t.turn_mail(&email, at));
        let raw = reply(&email, &address, "twice@mail.example.org", "R");
        let before = t.player_rows(who).len();
        let codes: Vec<i32> = std::thread::scope(|s| {
            let runs: Vec<_> = (0..2).map(|_| s.spawn(|| t.pipe(&raw))).collect();
            runs.into_iter().map(|r| r.join().unwrap()).collect()
        });
        assert_eq!(codes, [0, 0], "{backend:?}");
        assert_eq!(t.recorded("twice@mail.example.org").1, 1, "{backend:?}");
        let decisions = t.player_rows(who).len() - before;
        assert_eq!(decisions, 1, "{backend:?}: one roll");
    }
}

/// A message whose handling was cut off (the process died after recording
/// it, before it finished) left its record at `received`. The next
/// delivery takes such a record over once it is older than any handling
/// takes, and plays the reply once; one delivery more is a duplicate. A
/// fresh `received` record is another handler still at work: a delivery
/// then does nothing.
#[test]
fn a_reply_whose_handling_was_cut_off_is_played_by_its_next_delivery() {
    use hexpost::store::inbound_mails::{ABANDONED_AFTER_MS, NewInboundMail, RECEIVED, claim};
    let Some(py) = python() else { return };
    for backend in common::BACKENDS {
        let t = table(&py, backend);
        let (who, at) = t.to_a_roll();
        let email = t.emails[who].clone();
        let address = reply_address(&t.turn_mail(&email, at));
        let left = |message_id: &str, age_ms: i64| {
            let mut conn = t.server.db().get().unwrap();
            let mail = NewInboundMail {
                received_at: hexpost::store::now_ms() - age_ms,
                via: "smtp".into(),
                sender: Some(email.clone()),
                message_id: message_id.into(),
                outcome: RECEIVED.into(),
            };
            assert!(claim(&mut conn, &mail).unwrap());
        };
        let before = t.player_rows(who).len();

        left("busy@mail.example.org", 1000);
        let busy = reply(&email, &address, "busy@mail.example.org", "R");
        assert_eq!(t.pipe(&busy), 0, "{backend:?}");
        assert_eq!(t.move_number(), at, "{backend:?}: in hand elsewhere");
        assert_eq!(t.recorded("busy@mail.example.org").0, RECEIVED);

        left("cut@mail.example.org", ABANDONED_AFTER_MS + 60_000);
        let cut = reply(&email, &address, "cut@mail.example.org", "R");
        assert_eq!(t.pipe(&cut), 0, "{backend:?}");
        t.assert_roll_applied(who, at, "cut@mail.example.org", "stdin");
        let after = t.move_number();
        assert_eq!(t.pipe(&cut), 0, "{backend:?}");
        assert_eq!(t.move_number(), after, "{backend:?}: a duplicate");
        assert_eq!(
            t.player_rows(who).len() - before,
            1,
            "{backend:?}: one roll"
        );
    }
}

/// A free loopback port for the inbound listener.
fn free_listen_address() -> String {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    format!("127.0.0.1:{port}")
}

/// Sends `raw` to the listener at `listen` with a real SMTP client
/// (lettre, as an MTA relaying it); returns once the listener said 250.
fn relay(listen: &str, from: &str, to: &str, mut raw: Vec<u8>) {
    let (host, port) = listen.rsplit_once(':').unwrap();
    // lettre ends the data with CRLF.CRLF itself.
    if raw.ends_with(b"\r\n") {
        raw.truncate(raw.len() - 2);
    }
    let client = lettre::SmtpTransport::builder_dangerous(host)
        .port(port.parse().unwrap())
        .timeout(Some(Duration::from_secs(30)))
        .build();
    let envelope =
        lettre::address::Envelope::new(Some(from.parse().unwrap()), vec![to.parse().unwrap()])
            .unwrap();
    lettre::Transport::send_raw(&client, &envelope, &raw).expect("the listener takes the reply");
}

/// The inbound SMTP listener of `hexpost serve` hands a reply to the same
/// pipeline: the roll is applied before the listener's 250, and recorded
/// as `smtp`. A reply from the player's address that their provider did
/// not sign is taken by the listener too, but changes nothing and is not
/// answered: whoever sent it, it was not the player's mail system.
#[test]
fn a_signed_reply_relayed_to_the_listener_is_played_and_a_forged_one_is_not() {
    let Some(py) = python() else { return };
    let listen = free_listen_address();
    let t = table_with(&py, Backend::Postgres, &[("INBOUND_LISTEN", &listen)]);
    let (who, at) = t.to_a_roll();
    let email = &t.emails[who];
    let turn = t.turn_mail(email, at);
    let address = reply_address(&turn);
    let body = format!("R\r\n{}", quoted(&turn));
    let answers = t.answers_queued();

    let text = "Content-Type: text/plain; charset=utf-8\r\n";
    let forged = unsigned(email, &address, "forged@mail.example.org", text, &body);
    relay(&listen, email, &address, forged);
    assert_eq!(t.move_number(), at, "nothing applied");
    assert_eq!(
        t.recorded("forged@mail.example.org").0,
        "sender_not_authentic"
    );
    assert_eq!(
        t.answers_queued(),
        answers,
        "the forged sender gets no answer"
    );

    let signed = reply(email, &address, "smtp1@mail.example.org", &body);
    relay(&listen, email, &address, signed);
    t.assert_roll_applied(who, at, "smtp1@mail.example.org", "smtp");
}

/// Every mail the pipe refuses or ignores is refused or ignored alike when
/// an MTA relays it to the listener of `hexpost serve`: nothing changes,
/// and only an account that really sent it hears why. The same reply
/// relayed twice (an MTA that did not hear the 250) plays once.
#[test]
fn refusals_and_duplicates_through_the_listener_change_nothing() {
    let Some(py) = python() else { return };
    let listen = free_listen_address();
    let t = table_with(&py, Backend::Postgres, &[("INBOUND_LISTEN", &listen)]);
    let (who, at) = t.to_a_roll();
    let email = t.emails[who].clone();
    let address = reply_address(&t.turn_mail(&email, at));
    let mut answers = t.answers_queued();
    for (what, raw, _, outcome, answered) in refusals(&t, who, at, &address) {
        let id = message_id(&raw);
        relay(&listen, &email, &envelope_recipient(&raw), raw);
        assert_eq!(t.move_number(), at, "{what}: nothing applied");
        assert_eq!(
            t.recorded(&id),
            (outcome.into(), 0, Some("smtp".into())),
            "{what}"
        );
        let now = t.answers_queued();
        assert_eq!(now - answers, i64::from(answered), "{what}: answered");
        answers = now;
    }
    let before = t.player_rows(who).len();
    let raw = reply(&email, &address, "twice@mail.example.org", "R");
    relay(&listen, &email, &address, raw.clone());
    let after = t.move_number();
    assert!(after > at);
    relay(&listen, &email, &address, raw);
    assert_eq!(t.move_number(), after, "the second delivery is a duplicate");
    assert_eq!(t.player_rows(who).len() - before, 1, "one roll");
}

/// With `INBOUND_TRUSTED_AUTHSERV_ID` the verdict of our own MTA, in its
/// `Authentication-Results`, stands in for checking again: its pass lets
/// an unsigned reply play, its fail refuses a signed one.
#[test]
fn the_authentication_results_of_our_own_mta_decide_when_it_is_trusted() {
    let Some(py) = python() else { return };
    let listen = free_listen_address();
    let t = table_with(
        &py,
        Backend::Sqlite,
        &[
            ("INBOUND_LISTEN", &listen),
            ("INBOUND_TRUSTED_AUTHSERV_ID", "mx.hexpost.example.org"),
        ],
    );
    let (who, at) = t.to_a_roll();
    let email = &t.emails[who];
    let address = reply_address(&t.turn_mail(email, at));
    let results = |verdict: &str| {
        format!(
            "Authentication-Results: mx.hexpost.example.org;\r\n dkim={verdict} header.d={PLAYERS};\r\n dmarc={verdict} header.from={PLAYERS}\r\nContent-Type: text/plain\r\n"
        )
    };
    let failed = provider().sign(
        PLAYERS,
        &unsigned(email, &address, "mta-fail", &results("fail"), "R"),
    );
    relay(&listen, email, &address, failed);
    assert_eq!(t.move_number(), at);
    assert_eq!(t.recorded("mta-fail").0, "sender_not_authentic");

    let passed = unsigned(email, &address, "mta-pass", &results("pass"), "R");
    relay(&listen, email, &address, passed);
    assert!(t.move_number() > at);
    assert_eq!(t.recorded("mta-pass").0, "applied");
}

/// A reply that lands in the mailbox `hexpost serve` polls (put there
/// with IMAP APPEND, as the player's provider delivers it, into a real
/// Dovecot) is taken by the poller, played (the API shows the roll), and
/// answered through the outgoing SMTP server.
#[test]
fn a_reply_delivered_to_the_polled_mailbox_is_played_and_answered() {
    let Some(py) = python() else { return };
    if !common::dovecot::available() {
        return;
    }
    let mailbox = common::dovecot::Dovecot::running();
    let url = mailbox.url().to_string();
    let t = table_with(&py, Backend::Postgres, &polling(&url));
    let (who, at) = t.to_a_roll();
    let email = &t.emails[who];
    let turn = t.turn_mail(email, at);
    let address = reply_address(&turn);
    let seen = t.sink.messages().len();
    let raw = reply(
        email,
        &address,
        "imap1@mail.example.org",
        &format!("R\r\n{}", quoted(&turn)),
    );
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(mailbox.append(&raw, None));

    let answer = t.mail(seen, email, "Your reply", |_| true);
    assert_applied_roll(&answer);
    t.assert_roll_applied(who, at, "imap1@mail.example.org", "imap");
}

/// Two instances of `hexpost serve` on one database poll one mailbox whose
/// server advertises no CONDSTORE, so that each claims a message by moving
/// it to the processed mailbox (the server's COPYUID names the move that
/// took it) instead of with a keyword. Replies to four games land in the
/// mailbox at once: each is played once, recorded once and answered once,
/// and filed.
#[test]
fn two_instances_polling_a_mailbox_without_condstore_play_each_reply_once() {
    let Some(py) = python() else { return };
    if !common::dovecot::available() {
        return;
    }
    let mailbox = common::dovecot::Dovecot::without_condstore();
    let url = mailbox.url().to_string();
    let imap = polling(&url);
    let mut t = table_with(&py, Backend::Postgres, &imap);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let settings = mailbox.settings(Duration::from_secs(1));
    let advertised = runtime.block_on(async {
        let mut session = connect(&settings).await.unwrap();
        let capabilities = session.capabilities().await.unwrap();
        let names = ["CONDSTORE", "MOVE", "UIDPLUS"].map(|c| capabilities.has_str(c));
        session.logout().await.unwrap();
        names
    });
    assert_eq!(advertised, [false, true, true], "CONDSTORE, MOVE, UIDPLUS");

    // Four games, each at a roll; a reply to each turn mail.
    let mut replies = Vec::new();
    for k in 0..4 {
        if k > 0 {
            let created = t.players[0].post(
                "/api/v1/games",
                &json!({"variant": "standard", "opponent_email": "bob@example.org"}),
            );
            let body = created.ok().clone();
            t.game_id = body["game"]["id"].as_str().unwrap().to_string();
            let token = body["invite_token"].as_str().unwrap();
            t.players[1]
                .post(&format!("/api/v1/invitations/{token}/accept"), &json!({}))
                .ok();
        }
        let (who, at) = t.to_a_roll();
        let email = t.emails[who].clone();
        let link = format!("/games/{}", t.game_id);
        let turn = t.mail(0, &email, "Your move", |m| {
            m.subject().ends_with(&format!("move {at})")) && m.text.contains(&link)
        });
        let id = format!("nocondstore{k}@mail.example.org");
        let raw = reply(
            &email,
            &reply_address(&turn),
            &id,
            &format!("R\r\n{}", quoted(&turn)),
        );
        let rows = t.player_rows(who).len();
        replies.push((t.game_id.clone(), who, at, rows, id, raw));
    }

    let dns = t.dns.addr.to_string();
    let smtp_url = t.sink.url();
    let mut vars = vec![("DATABASE_URL", t.server.database_url.as_str())];
    vars.extend(replies_on(&dns, &smtp_url));
    vars.extend(imap);
    let second = ServeProcess::start(&t.server.data_dir.join("second"), &vars);
    let answers = t.answers_queued();
    runtime.block_on(async {
        for (.., raw) in &replies {
            mailbox.append(raw, None).await;
        }
    });

    let start = Instant::now();
    for (game_id, who, at, rows, id, _) in &replies {
        t.game_id = game_id.clone();
        while t.move_number() == *at {
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "{id} not played: {}",
                second.log_text()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        t.assert_roll_applied(*who, *at, id, "imap");
        assert_eq!(t.player_rows(*who).len(), rows + 1, "{id}: one move");
    }
    // Further rounds of both pollers take nothing again.
    std::thread::sleep(Duration::from_secs(3));
    assert_eq!(t.answers_queued(), answers + 4, "one answer each");
    let (inbox, processed) = runtime.block_on(async {
        let mut session = connect(&settings).await.unwrap();
        let inbox = contents(&mut session, "INBOX").await.unwrap();
        let processed = contents(&mut session, common::dovecot::PROCESSED)
            .await
            .unwrap();
        // Claimed by moving: no message carries the keyword claim.
        let flags: Vec<_> = session
            .uid_fetch("1:*", "FLAGS")
            .await
            .unwrap()
            .try_collect()
            .await
            .unwrap();
        for message in &flags {
            let keyword = async_imap::types::Flag::Custom("$HexpostTaken".into());
            assert!(!message.flags().any(|f| f == keyword));
        }
        session.logout().await.unwrap();
        (inbox, processed)
    });
    assert!(inbox.is_empty());
    // Both pollers' moves of one message may go through: Dovecot then
    // answers each with a COPYUID and files a copy for each, so the
    // processed mailbox may hold a message twice; it was played once all
    // the same (above).
    let filed: BTreeSet<String> = processed.values().map(|raw| message_id(raw)).collect();
    let sent: BTreeSet<String> = replies.iter().map(|(.., raw)| message_id(raw)).collect();
    assert_eq!(filed, sent, "each filed");
}

/// The listener is a reply's final delivery: a reply whose reply address
/// is only in the envelope (sent as Bcc, or to an alias the player's MTA
/// rewrote) is found in the `Delivered-To` field the listener adds.
#[test]
fn a_reply_addressed_only_in_the_envelope_reaches_its_game_through_the_listener() {
    let Some(py) = python() else { return };
    let listen = free_listen_address();
    let t = table_with(&py, Backend::Sqlite, &[("INBOUND_LISTEN", &listen)]);
    let (who, at) = t.to_a_roll();
    let email = &t.emails[who];
    let address = reply_address(&t.turn_mail(email, at));
    let bcc = reply(
        email,
        "undisclosed-recipients:;",
        "bcc@mail.example.org",
        "R",
    );
    relay(&listen, email, &address, bcc);
    t.assert_roll_applied(who, at, "bcc@mail.example.org", "smtp");
}

/// A reply whose sender's key cannot be looked up now (the name server
/// answers SERVFAIL) is not taken: the pipe exits 75 so that the MTA
/// delivers it again, nothing is recorded or applied, and the next
/// delivery, once the key can be looked up, plays it.
#[test]
fn a_reply_is_deferred_while_the_senders_key_cannot_be_looked_up() {
    let Some(py) = python() else { return };
    let t = table(&py, Backend::Sqlite);
    let (who, at) = t.to_a_roll();
    let email = &t.emails[who];
    let address = reply_address(&t.turn_mail(email, at));
    let raw = reply(email, &address, "later@mail.example.org", "R");
    t.dns.set_failing(true);
    assert_eq!(t.pipe(&raw), 75, "try again later (EX_TEMPFAIL)");
    assert_eq!(t.move_number(), at, "nothing applied");
    assert_eq!(
        t.record("later@mail.example.org"),
        None,
        "nothing recorded, so the next delivery is handled"
    );

    t.dns.set_failing(false);
    assert_eq!(t.pipe(&raw), 0);
    t.assert_roll_applied(who, at, "later@mail.example.org", "stdin");
}

/// The newest inbound record: (outcome, applied, via, sender).
fn last_record(t: &Table) -> (String, i32, String, Option<String>) {
    let mut conn = t.server.db().get().unwrap();
    inbound_mails::table
        .order(inbound_mails::id.desc())
        .select((
            inbound_mails::outcome,
            inbound_mails::applied,
            inbound_mails::via,
            inbound_mails::sender,
        ))
        .first(&mut conn)
        .unwrap()
}

/// Mails signed by a domain the forger owns (`evil.example`, whose key
/// the name server publishes) that name a victim's `From:` where one mail
/// parser would see it and another would not: after a header line with no
/// colon, after a field name with a form feed, beside a second `From:`,
/// in a `From:` of two addresses. `nonce` makes each call's mails new.
fn forgeries(t: &Table, victim: &str, address: &str, nonce: &str) -> Vec<(&'static str, Vec<u8>)> {
    static EVIL: std::sync::OnceLock<Signer> = std::sync::OnceLock::new();
    let evil = EVIL.get_or_init(Signer::new);
    t.dns
        .publish(&Signer::record_name("evil.example"), &evil.record);
    let head = |id: &str| {
        format!(
            "From: Mallory <mallory@evil.example>\r\nSubject: Re: your move\r\n\
             Message-ID: <{id}-{nonce}@evil.example>\r\nDate: Fri, 27 Nov 2026 08:00:00 +0000\r\n"
        )
    };
    let tail = format!("To: {address}\r\nContent-Type: text/plain\r\n\r\nR\r\n");
    [
        ("a line without a colon", "colon", "X-Note\r\n"),
        (
            "a form feed in a field name",
            "formfeed",
            "X\x0cNote: hello\r\n",
        ),
        ("a second From", "second", ""),
    ]
    .into_iter()
    .map(|(what, id, between)| {
        let raw = format!("{}{between}From: {victim}\r\n{tail}", head(id));
        (what, evil.sign("evil.example", raw.as_bytes()))
    })
    .chain(std::iter::once((
        "two addresses in one From",
        evil.sign(
            "evil.example",
            format!(
                "From: mallory@evil.example, {victim}\r\nSubject: Re: your move\r\n\
                 Message-ID: <two-{nonce}@evil.example>\r\n{tail}"
            )
            .as_bytes(),
        ),
    )))
    .collect()
}

/// A forger who signs with their own domain cannot play for a victim by
/// hiding the victim's `From:` from the signature check (issue: the check
/// and the pipeline once read the header with two parsers that disagreed
/// on where it ends). Through the pipe and the SMTP listener, on both
/// databases: refused as a malformed header, nothing applied, nothing of
/// the header recorded, nobody answered. A plain reply of the victim's
/// still plays afterwards.
#[test]
fn a_victims_from_hidden_from_the_signature_check_plays_nothing() {
    let Some(py) = python() else { return };
    for backend in common::BACKENDS {
        let listen = free_listen_address();
        let t = table_with(&py, backend, &[("INBOUND_LISTEN", &listen)]);
        let (who, at) = t.to_a_roll();
        let email = t.emails[who].clone();
        let address = reply_address(&t.turn_mail(&email, at));
        let answers = t.answers_queued();
        for (what, raw) in forgeries(&t, &email, &address, "pipe") {
            assert_eq!(t.pipe(&raw), 65, "{backend:?} {what}: refused, not retried");
            let (outcome, applied, via, sender) = last_record(&t);
            assert_eq!(
                (outcome.as_str(), applied, via.as_str(), sender),
                ("malformed_header", 0, "stdin", None),
                "{backend:?} {what}"
            );
            assert_eq!(t.move_number(), at, "{backend:?} {what}: nothing applied");
        }
        for (what, raw) in forgeries(&t, &email, &address, "smtp") {
            relay(&listen, "mallory@evil.example", &address, raw);
            let (outcome, applied, via, _) = last_record(&t);
            assert_eq!(
                (outcome.as_str(), applied, via.as_str()),
                ("malformed_header", 0, "smtp"),
                "{backend:?} {what}"
            );
            assert_eq!(t.move_number(), at, "{backend:?} {what}: nothing applied");
        }
        assert_eq!(t.answers_queued(), answers, "{backend:?}: nobody answered");
        let raw = reply(&email, &address, "after-forgeries@example.org", "R");
        assert_eq!(t.pipe(&raw), 0);
        t.assert_roll_applied(who, at, "after-forgeries@example.org", "stdin");
    }
}

/// NUL bytes, which PostgreSQL cannot store, in the header of a
/// stranger's mail (its Message-ID, its From) or in a player's command
/// line: the first are refused as malformed and the second answered as a
/// command that failed, each once however often it is delivered, the same
/// on both databases (a NUL once made PostgreSQL refuse the record, so
/// the MTA was told to deliver again, for ever, and each delivery queued
/// another answer).
#[test]
fn nul_bytes_in_mail_are_refused_or_answered_once_on_both_databases() {
    let Some(py) = python() else { return };
    for backend in common::BACKENDS {
        let t = table(&py, backend);
        let (who, at) = t.to_a_roll();
        let email = t.emails[who].clone();
        let address = reply_address(&t.turn_mail(&email, at));
        let answers = t.answers_queued();
        let text = "Content-Type: text/plain; charset=utf-8\r\n";
        for (what, raw) in [
            (
                "in the Message-ID",
                unsigned("mallory@example.net", &address, "nul\0id", text, "R"),
            ),
            (
                "in the From",
                unsigned("mal\0lory@example.net", &address, "nulfrom", text, "R"),
            ),
        ] {
            // Refused, then a duplicate already taken; never "try again".
            let codes = [t.pipe(&raw), t.pipe(&raw)];
            assert_eq!(codes, [65, 0], "{backend:?} {what}");
            let (outcome, ..) = last_record(&t);
            assert_eq!(outcome, "malformed_header", "{backend:?} {what}");
        }
        assert_eq!(
            t.answers_queued(),
            answers,
            "{backend:?}: strangers get no answer"
        );

        let raw = reply(&email, &address, "nul-command@example.org", "R\0\r\n");
        for delivery in 0..3 {
            assert_eq!(t.pipe(&raw), 0, "{backend:?}, delivery {delivery}");
        }
        let (outcome, applied, ..) = t.recorded("nul-command@example.org");
        assert_eq!(
            (outcome.as_str(), applied),
            ("command_failed", 0),
            "{backend:?}"
        );
        assert_eq!(t.move_number(), at, "{backend:?}: nothing applied");
        assert_eq!(
            t.answers_queued(),
            answers + 1,
            "{backend:?}: answered once"
        );
    }
}

/// A mail program that answers every mail without marking itself a robot
/// (no `Auto-Submitted`, list or bounce headers) is answered a few times
/// a day, not for ever: five replies that play nothing are answered per
/// sender and game, and five refusals per sender about no game; the rest
/// are recorded and not answered. A reply that plays something is always
/// answered. (Such a responder once got an answer in each of 6 rounds.)
#[test]
fn an_unmarked_auto_responder_is_answered_a_few_times_a_day() {
    let Some(py) = python() else { return };
    for backend in common::BACKENDS {
        let t = table(&py, backend);
        let (who, at) = t.to_a_roll();
        let email = t.emails[who].clone();
        let address = reply_address(&t.turn_mail(&email, at));
        let answers = t.answers_queued();
        for n in 0..8 {
            let id = format!("auto-{n}@example.org");
            let raw = reply(
                &email,
                &address,
                &id,
                "Thank you for your message. I am away.",
            );
            assert_eq!(t.pipe(&raw), 0, "{backend:?}");
            assert_eq!(t.recorded(&id).0, "command_failed", "{backend:?}");
        }
        assert_eq!(
            t.answers_queued() - answers,
            5,
            "{backend:?}: five answered"
        );
        for n in 0..7 {
            let id = format!("away-{n}@example.org");
            let raw = reply(&email, "games@hexpost.example.org", &id, "I am away.");
            t.pipe(&raw);
            assert_eq!(t.recorded(&id).0, "no_reply_address", "{backend:?}");
        }
        assert_eq!(
            t.answers_queued() - answers,
            10,
            "{backend:?}: five refusals more"
        );
        // A reply that plays is answered however many went before.
        let raw = reply(&email, &address, "roll@example.org", "R");
        assert_eq!(t.pipe(&raw), 0);
        t.assert_roll_applied(who, at, "roll@example.org", "stdin");
        assert_eq!(t.answers_queued() - answers, 11, "{backend:?}");
    }
}
