//! A whole game of `catan_for_two` played by mail alone: from the moment
//! the game starts, every decision of both players is a reply to the
//! latest mail the server sent that player, read from what a real SMTP
//! server (tests/smtp_sink.py) received: the reply address from its
//! headers, the commands from its text. Each reply goes to the inbound
//! listener of the server over SMTP (lettre as the relaying MTA). The
//! game is played to its end; then the REST API (the game and its log, as
//! each player) and a replay of the log agree with what the mails said.
//!
//! The game's seed is fixed (set before the invitation is accepted), so
//! the game, and which decisions it comes to, are the same on every run.
//! The development cards that game never deals in time (Year of Plenty,
//! Monopoly, Road Building) are played by reply in a second game, steered
//! over the API to a player who holds them.

use crate::common::dkim::Signer;
use crate::common::dns::NameServer;
use crate::common::smtp::{self, Received, SmtpSink};
use crate::common::steer::Steer;
use crate::common::{self, Api, Backend, TestServer, game};
use diesel::prelude::*;
use hexpost::inbound::token::{InvitationClaims, ReplyKeys};
use hexpost::store::schema::inbound_mails;
use hexpost_engine::rng::GameRng;
use hexpost_engine::{
    Action, Cards, DevCard, DevCounts, GameState, LegalAction, Resource, Seat, sim,
};
use serde_json::json;
use std::cell::Cell;
use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

const DOMAIN: &str = "replies.example.org";
const KEYS: &str = "test:0123456789abcdef0123456789abcdef";
/// A seed whose game, played by `Policy`, comes to every kind of decision.
const SEED: &str = "5eed000000000000000000000000000000000000000000000000000000000021";
/// The players' mail domain, whose provider signs their mail (DKIM).
const PLAYERS: &str = "example.org";
const RESOURCES: [&str; 5] = ["brick", "lumber", "wool", "grain", "ore"];

/// Every kind of decision catan_for_two asks for, by the command's code:
/// set-up and building (with the neutral builds they owe), the dice, the
/// robber after a seven (with a victim) and the discards, development
/// cards, trades with the bank and between the players (offered,
/// accepted, declined, withdrawn), and the trade-token actions (a forced
/// trade and the cards given back, the robber to the desert, a knight
/// discarded for tokens).
const EVERY_KIND: [&str; 20] = [
    "S", "D", "C", "R", "E", "ND", "NS", "X", "M", "K", "DEV", "T", "OFFER", "ACCEPT", "DECLINE",
    "WITHDRAW", "FT", "GIVE", "DESERT", "DK",
];

/// On PostgreSQL only: the game takes a few hundred replies, each a mail
/// with a board picture both ways; the other reply tests cover SQLite.
#[test]
fn a_whole_catan_for_two_game_by_reply() {
    let Some(py) = smtp::python() else { return };
    let backend = Backend::Postgres;
    let started = Instant::now();
    let mut table = Table::new(&py, backend);
    let token = table.create_game();
    table.fix_seed();
    // Bob accepts by replying to the invitation.
    let invitation = table.invitation_mail(&token);
    let mut mails = Mailroom {
        seen: table.sink.messages().len(),
        ..Mailroom::default()
    };
    table.deliver(1, &invitation, &["ACCEPT".into()]);
    table.server.wait_outbox_drained();
    let accepted = mails.answer_to(&table, 1);
    assert!(
        flat(&accepted.text).contains("Applied from your reply:\n- ACCEPT\n"),
        "{}",
        accepted.text
    );
    assert_eq!(
        game(&table.players[0].api, &table.game_id)["status"],
        "active"
    );
    let mut policy = Policy::new();
    let mut replies = 0;
    let over = loop {
        table.server.wait_outbox_drained();
        mails.absorb(&table);
        if let Some(over) = mails.game_over() {
            break over;
        }
        let Some(p) = mails.next_to_answer() else {
            panic!(
                "nobody has a decision mail and the game is not over: {:#?}",
                mails.subjects
            );
        };
        let mail = mails.pending[p].take().unwrap();
        let decision = Decision::read(&mail);
        policy
            .offered_kinds
            .extend(decision.menu.iter().map(|(code, _)| code_key(code)));
        let opponent = &table.players[1 - p].name;
        let lines = policy.plan(&decision, opponent);
        let refusal = lines == ["R"] && !decision.has("R");
        eprintln!(
            "DEBUG {} {:?} <- {}",
            table.players[p].name,
            lines,
            mail.subject()
        );
        let before = refusal.then(|| (table.move_number(), table.log_len(p)));
        replies += 1;
        table.deliver(p, &mail, &lines);
        table.server.wait_outbox_drained();
        let answer = mails.answer_to(&table, p);
        let applied = applied_count(&answer.text);
        policy.note(&lines[..applied], opponent);
        policy.applied[p] += applied;
        if refusal {
            assert!(
                answer.text.contains("Not applied: \"R\":")
                    && answer.text.contains("[not_legal_now]"),
                "{}",
                answer.text
            );
            assert!(answer.subject().starts_with("Not all applied"));
            assert_eq!(
                Some((table.move_number(), table.log_len(p))),
                before,
                "a refused command changes nothing"
            );
            policy.refused = true;
        }
        policy.last_failed = !refusal && applied < lines.len() && !stale(&answer);
        if policy.last_failed {
            policy.failures.push(format!("{lines:?}: {}", answer.text));
        }
        assert!(
            replies < 3000,
            "the game does not end: {:?}",
            policy.covered
        );
    };
    let elapsed = started.elapsed();
    eprintln!(
        "{backend:?}: {replies} replies in {:.1} s; covered {:?}; failed {:?}",
        elapsed.as_secs_f64(),
        policy.covered,
        policy.failures
    );

    // Every kind of decision came up and was made by reply; one reply had
    // several commands, one refused command changed nothing, and a robber
    // victim was named by their display name.
    let missing: Vec<&str> = EVERY_KIND
        .iter()
        .copied()
        .filter(|k| !policy.covered.contains_key(*k))
        .collect();
    assert!(missing.is_empty(), "never decided by reply: {missing:?}");
    // Nor did the mails offer a kind (a development card drawn) that was
    // never decided.
    let unplayed: Vec<&String> = policy
        .offered_kinds
        .iter()
        .filter(|k| !policy.covered.contains_key(*k))
        .collect();
    assert!(unplayed.is_empty(), "offered, never decided: {unplayed:?}");
    assert!(policy.several, "a reply with several commands");
    assert!(policy.refused, "a refused command");
    assert!(policy.victim_by_name, "a victim named by display name");

    table.agrees_with(&over, &policy);
}

/// Replies to an invitation mail: refused when forged, expired or from
/// another address, answered with the reason when the line answers
/// nothing, the invitation is no longer open or there is no account to
/// accept with; nothing of these changes the game. DECLINE declines.
/// (ACCEPT starts the game in the whole game above.)
#[test]
fn invitations_are_answered_by_reply() {
    let Some(py) = smtp::python() else { return };
    let mut t = Table::new(&py, Backend::Sqlite);
    let token = t.create_game();
    let invitation = t.invitation_mail(&token);
    let address = reply_address(&invitation);
    assert!(address.starts_with("invite+"), "{address}");
    let [ada, bob] = t.players.each_ref().map(|p| p.email.clone());
    let secret = KEYS.split_once(':').unwrap().1.as_bytes().to_vec();
    let keys = ReplyKeys::new(&[("test".into(), secret)]);
    let local = &address[..address.find('@').unwrap()];
    let claims = keys
        .verify_invitation(&local["invite+".len()..], 0)
        .unwrap();
    let at_domain = |token: String| format!("invite+{token}@{DOMAIN}");
    let expired = InvitationClaims {
        expires_at: 1,
        ..claims.clone()
    };
    let expired = at_domain(keys.issue_invitation(&expired).unwrap());
    let other_keys = ReplyKeys::new(&[("k".into(), b"not the server's key".to_vec())]);
    let forged = at_domain(other_keys.issue_invitation(&claims).unwrap());

    let not_read = "Your mail to hexpost was not read";
    let not_taken = "Your answer to an invitation to hexpost was not taken";
    // (from, to, first line, outcome recorded, answer's subject, its code)
    let cases = [
        (
            &bob,
            &forged,
            "ACCEPT",
            "forged_token",
            not_read,
            "forged_token",
        ),
        (
            &bob,
            &expired,
            "ACCEPT",
            "expired_token",
            not_read,
            "expired_token",
        ),
        (
            &ada,
            &address,
            "ACCEPT",
            "wrong_sender",
            not_read,
            "wrong_sender",
        ),
        (
            &bob,
            &address,
            "maybe",
            "command_failed",
            not_taken,
            "unknown_command",
        ),
    ];
    for (from, to, line, outcome, subject, code) in cases {
        let answer = t.reply_to_invitation(from, to, &invitation, line);
        assert_eq!(t.last_outcome(), outcome, "{line} to {to}");
        assert!(
            answer.subject().starts_with(subject),
            "{}",
            answer.subject()
        );
        assert!(
            answer.text.contains(&format!("[{code}]")),
            "{}",
            answer.text
        );
        assert_eq!(t.status(), "open", "{outcome}: nothing changed");
    }

    let answer = t.reply_to_invitation(&bob, &address, &invitation, "Decline");
    assert_eq!(t.last_outcome(), "declined");
    assert_eq!(answer.subject(), "You declined an invitation to hexpost");
    assert_eq!(t.status(), "declined");
    let told = t.sink.messages();
    assert!(
        told.iter()
            .any(|m| m.to() == ada
                && m.subject() == "Your invitation to bob@example.org was declined"),
        "the creator is told"
    );
    // The invitation is used: answered with the API's code, nothing more.
    let answer = t.reply_to_invitation(&bob, &address, &invitation, "ACCEPT");
    assert_eq!(t.last_outcome(), "command_failed");
    assert!(answer.text.contains("[invitation_used]"), "{}", answer.text);
    assert_eq!(t.status(), "declined");

    // Someone without an account cannot accept, and is told so.
    let carol = "carol@example.org".to_string();
    let created = t.players[0].api.post(
        "/api/v1/games",
        &json!({"variant": "catan_for_two", "opponent_email": carol}),
    );
    let body = created.ok().clone();
    t.game_id = body["game"]["id"].as_str().unwrap().to_string();
    let token = body["invite_token"].as_str().unwrap();
    let invitation = t.invitation_mail(token);
    let address = reply_address(&invitation);
    let answer = t.reply_to_invitation(&carol, &address, &invitation, "yes");
    assert!(answer.text.contains("[no_account]"), "{}", answer.text);
    assert_eq!(t.status(), "open");
}

/// Monopoly, Year of Plenty, Road Building and a knight, each played by a
/// reply to the server's mail, the command written from the mail's list.
/// The whole game above never deals the first three in time, so this game
/// is first steered over the API (tests/common/steer.rs) to the start of a
/// turn of a player who holds all four; from then on both players only
/// reply, one card a turn. Each answer says what was applied, the card's
/// events in words and the next decision; the API's views and log agree.
#[test]
fn development_cards_are_played_by_reply() {
    let Some(py) = smtp::python() else { return };
    let started = Instant::now();
    let mut table = Table::new(&py, Backend::Postgres);
    let token = table.create_game();
    table.fix_seed();
    table.players[1]
        .api
        .post(&format!("/api/v1/invitations/{token}/accept"), &json!({}))
        .ok();
    let t = &table;
    let apis = [&t.players[0].api, &t.players[1].api];
    let mut steer = Steer::new(&t.server, apis, &t.game_id);
    let seat = steer.reach(card_hoarder, 4_000, holding_every_card);
    eprintln!(
        "steered to move {} in {:.1} s",
        steer.move_number(),
        started.elapsed().as_secs_f64()
    );
    let p = steer.who(seat);
    let q = 1 - p;
    let me = t.players[p].name.clone();
    let opp = t.players[q].name.clone();
    t.server.wait_outbox_drained();
    let mut mails = Mailroom::default();
    mails.absorb(t);
    // The opponent's last decision mail was answered over the API.
    mails.pending[q] = None;
    let mut policy = Policy::new();
    let played = t.played(p);

    // Monopoly, on the resource the opponent holds most of.
    let theirs = t.hand(q);
    let resource = *RESOURCES.iter().max_by_key(|r| theirs[res(r)]).unwrap();
    let taken = theirs[res(resource)];
    assert!(taken > 0, "the opponent holds {theirs:?}");
    let before = t.hand(p);
    turn_start(&mails, p, "MONO");
    let line = format!("MONO {resource}");
    let answer = play_card(t, &mut mails, p, (&line, &line), "Monopoly");
    assert_event(
        &answer,
        &[&format!(
            "{me} named {resource} for Monopoly and took {taken} from {opp}."
        )],
    );
    let mut expected = before;
    expected[res(resource)] += taken;
    assert_eq!(t.hand(p), expected, "the monopoly's take in the hand");
    assert_eq!(t.hand(q)[res(resource)], 0, "taken from the opponent");
    assert_eq!(
        t.last_decision(p),
        Action::PlayMonopoly {
            resource: res(resource)
        }
    );
    to_next_turn(t, &mut mails, &mut policy, p);

    // Year of Plenty: the resources the hand has least of.
    let before = t.hand(p);
    let text = turn_start(&mails, p, "YOP");
    let n = number_after(&text, "name ") as usize;
    let mut wanted = RESOURCES;
    wanted.sort_by_key(|r| before[res(r)]);
    let wanted = &wanted[..n];
    let line = format!("YOP {}", wanted.join(" "));
    let answer = play_card(t, &mut mails, p, (&line, &line), "Year of Plenty");
    let mut expected = before;
    for r in wanted {
        expected[res(r)] += 1;
    }
    let gained: Vec<String> = RESOURCES
        .iter()
        .filter(|r| wanted.contains(r))
        .map(|r| format!("1 {r}"))
        .collect();
    assert_event(
        &answer,
        &[&format!(
            "{me} took {} from the bank (Year of Plenty).",
            gained.join(" and ")
        )],
    );
    assert_eq!(t.hand(p), expected, "the resources gained");
    assert_eq!(
        t.last_decision(p),
        Action::PlayYearOfPlenty {
            resources: wanted.iter().map(|r| res(r)).collect()
        }
    );
    to_next_turn(t, &mut mails, &mut policy, p);

    // Road Building: two free roads, each owing a neutral road, each
    // built by a reply to the answer that asks for it.
    let roads_before = t.roads(p);
    turn_start(&mails, p, "RB");
    let mut answer = play_card(t, &mut mails, p, ("RB", "RB"), "Road Building");
    let mut built = Vec::new();
    let mut neutral = 0;
    loop {
        let next = Decision::read(&answer);
        if next.has("R") {
            break;
        }
        let line = match next.line("D") {
            Some(text) => {
                assert!(!next.has("E"), "a free road is asked for alone");
                let edge = ids_after(text, "edges ")[0];
                built.push(edge);
                format!("D{edge}")
            }
            None => {
                assert!(next.has("ND"), "not Road Building's: {:?}", next.menu);
                neutral += 1;
                policy.forced(&next, &opp).unwrap()
            }
        };
        answer = reply(t, &mut mails, p, &line);
        if let Some(edge) = line.strip_prefix('D') {
            assert_event(
                &answer,
                &[&format!("{me} built a road for free on edge {edge}, ")],
            );
        }
    }
    assert_eq!(built.len(), 2, "two free roads");
    assert_eq!(neutral, 2, "a neutral road for each");
    let mut expected = roads_before;
    expected.extend(&built);
    expected.sort();
    assert_eq!(t.roads(p), expected, "the roads built");
    let logged: Vec<Action> = t
        .decisions(p)
        .into_iter()
        .filter(|a| matches!(a, Action::BuildRoad { .. } | Action::PlayRoadBuilding))
        .rev()
        .take(3)
        .collect();
    let mut made: Vec<Action> = built
        .iter()
        .rev()
        .map(|&edge| Action::BuildRoad { edge: edge as u8 })
        .collect();
    made.push(Action::PlayRoadBuilding);
    assert_eq!(logged, made, "the log has the card and its roads");
    to_next_turn(t, &mut mails, &mut policy, p);

    // A knight, robbing the opponent.
    let text = turn_start(&mails, p, "K");
    let target = policy.robber(&text, &opp);
    assert!(target.ends_with(&format!(" {opp}")), "{target}");
    let held = [p, q].map(|i| t.hand(i).total());
    let hex: u8 = target.split(' ').next().unwrap().parse().unwrap();
    // The server writes the victim by the colour of their seat.
    let colour = ["red", "blue"][seat.opponent().index()];
    let answer = play_card(
        t,
        &mut mails,
        p,
        (&format!("K {target}"), &format!("K {hex} {colour}")),
        "a knight",
    );
    let robbed = format!("{me} moved the robber to ");
    assert_event(&answer, &[&robbed, &format!(" (hex {hex}).")]);
    assert_event(
        &answer,
        &[&format!("{me} stole 1 "), &format!(" from {opp}.")],
    );
    assert_eq!(
        [p, q].map(|i| t.hand(i).total()),
        [held[0] + 1, held[1] - 1]
    );
    let seen = game(&t.players[q].api, &t.game_id);
    assert_eq!(seen["view"]["robber"], hex, "as the opponent sees it");
    assert_eq!(
        t.last_decision(p),
        Action::PlayKnight {
            hex,
            victim: Some(seat.opponent())
        }
    );
    // The opponent sees the four cards played, and nothing else.
    let mut expected = played;
    for card in [
        DevCard::Monopoly,
        DevCard::YearOfPlenty,
        DevCard::RoadBuilding,
        DevCard::Knight,
    ] {
        expected[card] += 1;
    }
    assert_eq!(t.played(p), expected);
    eprintln!(
        "the cards played by reply after {:.1} s",
        started.elapsed().as_secs_f64()
    );
}

/// Buys every development card it can and plays none; otherwise random,
/// without trade offers: the cards pile up in the hands.
fn card_hoarder(
    s: &GameState,
    seat: Seat,
    legal: &[LegalAction],
    rng: &mut GameRng,
) -> Option<Action> {
    if legal.contains(&LegalAction::BuyDevelopmentCard) {
        return Some(Action::BuyDevelopmentCard);
    }
    let keep: Vec<LegalAction> = legal
        .iter()
        .filter(|l| {
            !matches!(
                l,
                LegalAction::PlayKnight { .. }
                    | LegalAction::PlayRoadBuilding
                    | LegalAction::PlayYearOfPlenty { .. }
                    | LegalAction::PlayMonopoly
            )
        })
        .cloned()
        .collect();
    let policy = sim::Policy {
        domestic_trade: false,
    };
    sim::random_action_with(s, seat, &keep, rng, policy)
}

/// The seat about to roll that may play each of the four cards (with two
/// roads left for Road Building), while the opponent holds cards for its
/// Monopoly.
fn holding_every_card(s: &GameState) -> Option<Seat> {
    let seat = s.active;
    if s.awaiting().first() != Some(&seat) || s.awaiting().len() != 1 {
        return None;
    }
    let legal = s.legal_actions(seat);
    let offered = |f: fn(&LegalAction) -> bool| legal.iter().any(f);
    (offered(|l| matches!(l, LegalAction::RollDice))
        && offered(|l| matches!(l, LegalAction::PlayMonopoly))
        && offered(|l| matches!(l, LegalAction::PlayYearOfPlenty { .. }))
        && offered(|l| matches!(l, LegalAction::PlayRoadBuilding))
        && offered(|l| matches!(l, LegalAction::PlayKnight { .. }))
        && s.player(seat).roads_left >= 2
        && s.player(seat.opponent()).hand.total() > 0)
        .then_some(seat)
}

/// The menu line of `key` in `p`'s pending mail, which starts a turn (the
/// roll still to come), offering the card.
fn turn_start(mails: &Mailroom, p: usize, key: &str) -> String {
    let mail = mails.pending[p].as_ref().expect("a decision mail");
    let d = Decision::read(mail);
    assert!(d.has("R"), "not a turn's start: {:?}", d.menu);
    d.line(key)
        .unwrap_or_else(|| panic!("{key} not offered: {:?}", d.menu))
        .to_string()
}

/// Replies with `line` to `p`'s pending mail and returns the answer,
/// which says that it was applied.
fn reply(t: &Table, mails: &mut Mailroom, p: usize, line: &str) -> Received {
    let answer = send_reply(t, mails, p, line);
    assert_eq!(applied_count(&answer.text), 1, "{line}: {}", answer.text);
    answer
}

/// Replies with `line` to `p`'s pending mail and returns the answer.
fn send_reply(t: &Table, mails: &mut Mailroom, p: usize, line: &str) -> Received {
    let mail = mails.pending[p].take().expect("a decision mail");
    t.deliver(p, &mail, &[line.to_string()]);
    t.server.wait_outbox_drained();
    mails.answer_to(t, p)
}

/// Plays a card by replying with `line`: the answer says it applied the
/// line (as `applied`, the server's own spelling of it), names the card
/// played and asks for the next decision, with no second card (one a
/// turn).
fn play_card(
    t: &Table,
    mails: &mut Mailroom,
    p: usize,
    (line, applied): (&str, &str),
    card: &str,
) -> Received {
    let answer = reply(t, mails, p, line);
    assert!(
        flat(&answer.text).contains(&format!("Applied from your reply:\n- {applied}\n")),
        "{}",
        answer.text
    );
    assert_event(&answer, &[&format!("{} played {card}.", t.players[p].name)]);
    assert!(answer.header("reply-to").is_some(), "{}", answer.text);
    let next = Decision::read(&answer);
    assert!(!next.menu.is_empty(), "{}", answer.text);
    for key in ["K", "RB", "YOP", "MONO"] {
        assert!(!next.has(key), "a second card offered: {:?}", next.menu);
    }
    answer
}

/// Both players reply (the roll, what it asks for, the end of the turn)
/// until `p`'s next turn starts.
fn to_next_turn(t: &Table, mails: &mut Mailroom, policy: &mut Policy, p: usize) {
    let turn = t.turn();
    loop {
        let who = mails.next_to_answer().expect("someone is asked");
        let d = Decision::read(mails.pending[who].as_ref().unwrap());
        if who == p && d.has("R") && t.turn() > turn {
            return;
        }
        let opponent = t.players[1 - who].name.clone();
        let line = match policy.forced(&d, &opponent) {
            Some(line) => line,
            None if d.has("R") => "R".into(),
            None => "E".into(),
        };
        // Both players may be asked to discard at once: the second
        // reply then answers a mail the first one made stale, and its
        // answer asks again.
        let answer = send_reply(t, mails, who, &line);
        assert!(
            applied_count(&answer.text) == 1 || stale(&answer),
            "{line}: {}",
            answer.text
        );
    }
}

/// One of the answer's events (a line each, a capital first) has all of
/// `parts`, the first at its start.
fn assert_event(answer: &Received, parts: &[&str]) {
    let text = flat(&answer.text);
    let (_, events) = text
        .split_once("What happened since your last decision:\n")
        .unwrap_or_else(|| panic!("no events: {text}"));
    let mut start = format!("- {}", parts[0]);
    start[2..3].make_ascii_uppercase();
    let said = events
        .lines()
        .take_while(|l| l.starts_with("- "))
        .any(|l| l.starts_with(&start) && parts[1..].iter().all(|p| l.contains(p)));
    assert!(said, "{parts:?} not in the events: {text}");
}

fn res(name: &str) -> Resource {
    serde_json::from_value(json!(name)).unwrap()
}

/// A server with replies on and its inbound listener, two players, and
/// their game of catan_for_two, started with a fixed seed.
struct Table {
    /// The players' mail provider: signs every reply.
    signer: Signer,
    /// Publishes the provider's DKIM key while the game lasts.
    _dns: NameServer,
    sink: SmtpSink,
    server: TestServer,
    listener: u16,
    players: [Player; 2],
    game_id: String,
    /// Replies sent so far (each has a Message-ID of its own).
    sent: Cell<usize>,
}

struct Player {
    name: String,
    email: String,
    api: Api,
    user_id: i64,
}

impl Table {
    /// The server and the two players, no game yet.
    fn new(py: &str, backend: Backend) -> Table {
        let sink = SmtpSink::running(py);
        let signer = Signer::new();
        let dns = NameServer::running();
        dns.publish(&Signer::record_name(PLAYERS), &signer.record);
        let dns_addr = dns.addr.to_string();
        let listener = smtp::free_port();
        let listen = format!("127.0.0.1:{listener}");
        let url = sink.url();
        let mut settings = vec![
            ("SMTP_URL", url.as_str()),
            ("MAIL_FROM", "hexpost <games@hexpost.example.org>"),
            ("PUBLIC_BASE_URL", "https://hexpost.example.org"),
            ("MAIL_POLL_INTERVAL_MS", "20"),
            ("REPLY_DOMAIN", DOMAIN),
            ("JWT_KEYS", KEYS),
            ("INBOUND_LISTEN", &listen),
            ("INBOUND_DNS_SERVERS", &dns_addr),
        ];
        settings.extend(smtp::QUICK_RETRIES);
        let server = TestServer::start_with(backend, &settings);
        let api = server.client();
        let players = ["ada", "bob"].map(|name| {
            let (api, user_id) = api.register(name);
            Player {
                name: name.into(),
                email: format!("{name}@example.org"),
                api,
                user_id,
            }
        });
        Table {
            signer,
            _dns: dns,
            sink,
            server,
            listener,
            players,
            game_id: String::new(),
            sent: Cell::new(0),
        }
    }

    /// Ada creates a game of catan_for_two and invites Bob; returns the
    /// invitation's token.
    fn create_game(&mut self) -> String {
        let created = self.players[0].api.post(
            "/api/v1/games",
            &json!({"variant": "catan_for_two", "opponent_email": self.players[1].email}),
        );
        let body = created.ok().clone();
        self.game_id = body["game"]["id"].as_str().unwrap().to_string();
        body["invite_token"].as_str().unwrap().to_string()
    }

    /// The invitation mail with `token`.
    fn invitation_mail(&self, token: &str) -> Received {
        self.server.wait_outbox_drained();
        let mail = self
            .sink
            .messages()
            .into_iter()
            .find(|m| m.text.contains(token))
            .expect("the invitation mail");
        assert!(
            flat(&mail.text).contains("Or reply to this mail with ACCEPT or DECLINE"),
            "{}",
            mail.text
        );
        mail
    }

    /// Gives the open game the test's seed, so that it is the same game
    /// every run.
    fn fix_seed(&self) {
        self.server.fix_seed(&self.game_id, SEED);
    }

    /// Sends a reply with `line` to an invitation mail and returns the
    /// answer to `from`.
    fn reply_to_invitation(&self, from: &str, to: &str, mail: &Received, line: &str) -> Received {
        let seen = self.sink.messages().len();
        self.send(from, to, mail, &[line.into()]);
        self.server.wait_outbox_drained();
        self.sink.messages()[seen..]
            .iter()
            .find(|m| m.to() == from)
            .cloned()
            .unwrap_or_else(|| panic!("no answer to {from} for {line}"))
    }

    /// The outcome recorded for the last reply sent.
    fn last_outcome(&self) -> String {
        let id = format!("reply-{}@example.org", self.sent.get());
        let mut conn = self.server.db().get().unwrap();
        inbound_mails::table
            .filter(inbound_mails::message_id.eq(id))
            .select(inbound_mails::outcome)
            .first(&mut conn)
            .unwrap()
    }

    fn status(&self) -> String {
        let g = game(&self.players[0].api, &self.game_id);
        g["status"].as_str().unwrap().to_string()
    }

    /// What player `p` sees of the game.
    fn view_of(&self, p: usize) -> serde_json::Value {
        game(&self.players[p].api, &self.game_id)
    }

    /// Player `p`'s resources, as the API shows them to `p`.
    fn hand(&self, p: usize) -> Cards {
        serde_json::from_value(self.view_of(p)["view"]["you"]["resources"].clone()).unwrap()
    }

    /// The edges of player `p`'s roads, in order.
    fn roads(&self, p: usize) -> Vec<u32> {
        let g = self.view_of(p);
        let mut edges: Vec<u32> = g["view"]["roads"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["owner"] == g["your_seat"])
            .map(|r| r["edge"].as_u64().unwrap() as u32)
            .collect();
        edges.sort();
        edges
    }

    /// The development cards player `p` has played, as the opponent sees
    /// them.
    fn played(&self, p: usize) -> DevCounts {
        let g = self.view_of(1 - p);
        let seat = 1 - g["your_seat"].as_u64().unwrap();
        let theirs = g["view"]["players"]
            .as_array()
            .unwrap()
            .iter()
            .find(|v| v["seat"] == seat)
            .unwrap()
            .clone();
        serde_json::from_value(theirs["played_dev"].clone()).unwrap()
    }

    fn turn(&self) -> u64 {
        self.view_of(0)["view"]["turn"].as_u64().unwrap()
    }

    /// Player `p`'s decisions in the log, in order.
    fn decisions(&self, p: usize) -> Vec<Action> {
        self.players[p]
            .api
            .full_log(&self.game_id, false)
            .iter()
            .filter(|r| r["actor"].as_str().is_some_and(|a| a.starts_with("seat:")))
            .filter(|r| r["user_id"] == self.players[p].user_id)
            .map(|r| serde_json::from_value(r["action"].clone()).unwrap())
            .collect()
    }

    fn last_decision(&self, p: usize) -> Action {
        self.decisions(p).pop().expect("a decision of the player")
    }

    fn move_number(&self) -> i64 {
        game(&self.players[0].api, &self.game_id)["move_number"]
            .as_i64()
            .unwrap()
    }

    fn log_len(&self, p: usize) -> usize {
        self.players[p].api.full_log(&self.game_id, false).len()
    }

    /// Replies to `mail` as player `p` with `lines` on top and the mail
    /// quoted below, relayed to the inbound listener over SMTP.
    fn deliver(&self, p: usize, mail: &Received, lines: &[String]) {
        self.send(&self.players[p].email, &reply_address(mail), mail, lines);
    }

    /// A reply to `mail` from `from` to `to`, sent to the listener.
    fn send(&self, from: &str, to: &str, mail: &Received, lines: &[String]) {
        let n = self.sent.get() + 1;
        self.sent.set(n);
        let quote: String = mail.text.lines().map(|l| format!("> {l}\r\n")).collect();
        let body = format!(
            "{}\r\n\r\nOn Fri, 27 Nov 2026 at 08:00, hexpost <games@hexpost.example.org> wrote:\r\n{quote}",
            lines.join("\r\n")
        );
        let raw = format!(
            "From: {from}\r\nTo: {to}\r\nSubject: Re: {}\r\nMessage-ID: <reply-{n}@example.org>\r\n\
             Date: Fri, 27 Nov 2026 08:00:00 +0000\r\nMIME-Version: 1.0\r\n\
             Content-Type: text/plain; charset=utf-8\r\n\r\n{body}",
            mail.subject()
        );
        let client = lettre::SmtpTransport::builder_dangerous("127.0.0.1")
            .port(self.listener)
            .timeout(Some(Duration::from_secs(30)))
            .build();
        let envelope =
            lettre::address::Envelope::new(Some(from.parse().unwrap()), vec![to.parse().unwrap()])
                .unwrap();
        let signed = self.signer.sign(PLAYERS, raw.as_bytes());
        lettre::Transport::send_raw(&client, &envelope, &signed)
            .expect("the listener takes the reply");
    }

    /// What the REST API and a replay say of the finished game agree with
    /// the game-over mails.
    fn agrees_with(&self, over: &[Received; 2], policy: &Policy) {
        let result = over[0]
            .subject()
            .strip_prefix("Game over: ")
            .and_then(|s| s.split(" (").next())
            .unwrap()
            .to_string();
        assert_eq!(over[1].subject(), over[0].subject());
        let scores = final_scores(&over[0].text);
        assert_eq!(scores, final_scores(&over[1].text));
        for player in &self.players {
            let g = game(&player.api, &self.game_id);
            assert_eq!(g["status"], "finished");
            let winner = g["winner_seat"].as_u64().unwrap() as usize;
            let winner_id = g["players"]
                .as_array()
                .unwrap()
                .iter()
                .find(|i| i["seat"] == winner)
                .unwrap()["user_id"]
                .as_i64()
                .unwrap();
            let winner_name = &self
                .players
                .iter()
                .find(|q| q.user_id == winner_id)
                .unwrap()
                .name;
            assert_eq!(result, format!("{winner_name} won"), "as {}", player.name);
            let seat_of = |name: &str| {
                let id = self
                    .players
                    .iter()
                    .find(|p| p.name == name)
                    .unwrap()
                    .user_id;
                g["players"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|i| i["user_id"] == id)
                    .unwrap()["seat"]
                    .as_u64()
                    .unwrap()
            };
            for (name, vp) in &scores {
                let seat = seat_of(name);
                let shown = g["view"]["players"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|v| v["seat"] == seat)
                    .unwrap();
                assert_eq!(shown["final_vp"], *vp, "{name} as {}: {shown}", player.name);
            }
            assert!(*scores.get(winner_name).unwrap() >= 10, "{scores:?}");
            assert_eq!(g["seed"], SEED, "the seed is public at the end");

            // The log has each decision the replies applied, in its
            // player's seat, and nothing else from a player.
            let log = player.api.full_log(&self.game_id, false);
            for (q, other) in self.players.iter().enumerate() {
                let decided = log
                    .iter()
                    .filter(|r| r["actor"].as_str().is_some_and(|a| a.starts_with("seat:")))
                    .filter(|r| r["user_id"] == other.user_id)
                    .count();
                assert_eq!(
                    decided, policy.applied[q],
                    "{}'s decisions in {}'s log",
                    other.name, player.name
                );
            }
            let last = log.last().unwrap()["seq"].as_i64().unwrap();
            assert_eq!(g["move_number"].as_i64().unwrap(), last);
        }
        let (admin, _) = common::register_admin(&self.server, "root");
        let report = admin
            .get(&format!("/api/v1/admin/games/{}/verify", self.game_id))
            .ok()
            .clone();
        assert_eq!(report["ok"], true, "{report}");
    }
}

/// The mails received so far, and each player's latest unanswered
/// decision mail.
#[derive(Default)]
struct Mailroom {
    seen: usize,
    pending: [Option<Received>; 2],
    over: [Option<Received>; 2],
    subjects: Vec<(String, String)>,
}

impl Mailroom {
    fn absorb(&mut self, t: &Table) {
        let messages = t.sink.messages();
        for m in &messages[self.seen..] {
            self.subjects.push((m.to().into(), m.subject().into()));
            let Some(p) = t.players.iter().position(|p| p.email == m.to()) else {
                continue;
            };
            if m.subject().starts_with("Game over:") {
                self.over[p] = Some(m.clone());
            } else if m.header("reply-to").is_some() {
                self.pending[p] = Some(m.clone());
            } else if m.header("auto-submitted").is_some() {
                // An answer that asks nothing: the player waits.
                self.pending[p] = None;
            }
        }
        self.seen = messages.len();
    }

    fn game_over(&self) -> Option<[Received; 2]> {
        match &self.over {
            [Some(a), Some(b)] => Some([a.clone(), b.clone()]),
            _ => None,
        }
    }

    /// Who replies next: a player asked to answer the other's move (a
    /// trade offered, a discard) before the one whose turn it is, so that
    /// an offer is answered before its turn ends.
    fn next_to_answer(&self) -> Option<usize> {
        let answering = |p: usize| {
            self.pending[p].as_ref().is_some_and(|m| {
                let d = Decision::read(m);
                !d.has("E") && !d.has("R")
            })
        };
        (0..2)
            .find(|&p| answering(p))
            .or_else(|| (0..2).find(|&p| self.pending[p].is_some()))
    }

    /// The server's answer to `p`'s reply, which arrived with the mails
    /// since.
    fn answer_to(&mut self, t: &Table, p: usize) -> Received {
        let before = self.seen;
        self.absorb(t);
        let messages = t.sink.messages();
        messages[before..]
            .iter()
            .find(|m| m.to() == t.players[p].email && m.header("auto-submitted").is_some())
            .cloned()
            .unwrap_or_else(|| panic!("no answer to {}: {:#?}", t.players[p].name, self.subjects))
    }
}

fn flat(text: &str) -> String {
    text.replace("\r\n", "\n")
}

fn reply_address(mail: &Received) -> String {
    let header = mail.header("reply-to").expect("a reply address");
    let address = header
        .rsplit_once('<')
        .map_or(header, |(_, a)| a.trim_end_matches('>'));
    assert!(address.ends_with(DOMAIN), "{address}");
    address.to_string()
}

/// How many commands an answer says were applied.
fn applied_count(text: &str) -> usize {
    let text = text.replace("\r\n", "\n");
    let Some((_, rest)) = text.split_once("Applied from your reply:\n") else {
        return 0;
    };
    rest.lines().take_while(|l| l.starts_with("- ")).count()
}

fn stale(answer: &Received) -> bool {
    answer
        .subject()
        .starts_with("Not applied: the game moved on")
}

/// "Final scores: ada 10 VP, bob 7 VP".
fn final_scores(text: &str) -> BTreeMap<String, u64> {
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix("Final scores: "))
        .expect("the final scores");
    line.split(", ")
        .map(|s| {
            let mut words = s.trim().rsplitn(3, ' ');
            assert_eq!(words.next(), Some("VP"), "{s}");
            let vp = words.next().unwrap().parse().unwrap();
            (words.next().unwrap().to_string(), vp)
        })
        .collect()
}

/// What a decision mail offers: its commands (`code`, text) and the
/// reader's hand.
struct Decision {
    menu: Vec<(String, String)>,
    hand: BTreeMap<&'static str, u32>,
}

impl Decision {
    /// Reads the list of a "your move" mail (`- [CODE] text`) or of an
    /// answer (`  CODE  text` after "To go on, reply …").
    fn read(mail: &Received) -> Decision {
        let text = mail.text.replace("\r\n", "\n");
        let mut menu = Vec::new();
        let mut in_answer = false;
        let mut hand = BTreeMap::new();
        for line in text.lines() {
            if let Some(rest) = line.strip_prefix("- [")
                && let Some((code, what)) = rest.split_once("] ")
            {
                menu.push((code.to_string(), what.to_string()));
            } else if line.starts_with("To go on, reply with one command per line:") {
                in_answer = true;
            } else if in_answer && let Some(rest) = line.strip_prefix("  ") {
                let (code, what) = rest.split_once("  ").unwrap_or((rest, ""));
                menu.push((code.to_string(), what.to_string()));
            } else {
                in_answer = false;
            }
            if let Some(cards) = line.strip_prefix("Your hand: ") {
                let words: Vec<&str> = cards.split([' ', ',']).filter(|w| !w.is_empty()).collect();
                for pair in words.windows(2) {
                    if let (Ok(n), Some(r)) = (
                        pair[0].parse::<u32>(),
                        RESOURCES.iter().find(|r| **r == pair[1]),
                    ) {
                        hand.insert(*r, n);
                    }
                }
            }
        }
        Decision { menu, hand }
    }

    fn line(&self, key: &str) -> Option<&str> {
        self.menu
            .iter()
            .find(|(code, _)| code_key(code) == key)
            .map(|(_, text)| text.as_str())
    }

    fn has(&self, key: &str) -> bool {
        self.line(key).is_some()
    }

    fn count(&self, r: &str) -> u32 {
        self.hand.get(r).copied().unwrap_or(0)
    }

    /// `n` cards of the hand, the most plentiful first.
    fn cards(&self, n: u32) -> Vec<&'static str> {
        let mut hand = self.hand.clone();
        let mut out = Vec::new();
        for _ in 0..n {
            let (&r, _) = hand
                .iter()
                .filter(|(_, c)| **c > 0)
                .max_by_key(|(_, c)| **c)
                .unwrap();
            *hand.get_mut(r).unwrap() -= 1;
            out.push(r);
        }
        out
    }

    /// The resource the hand has least of.
    fn scarcest(&self) -> &'static str {
        RESOURCES
            .iter()
            .copied()
            .min_by_key(|r| self.count(r))
            .unwrap()
    }
}

/// `D<edge>` → `D`, `K <hex> <player>` → `K`, `ND20 white` → `ND`.
fn code_key(code: &str) -> String {
    code.chars()
        .take_while(char::is_ascii_alphabetic)
        .collect::<String>()
        .to_uppercase()
}

/// The numbers after `label` ("edges 20, 21" → [20, 21]).
fn ids_after(text: &str, label: &str) -> Vec<u32> {
    let Some((_, rest)) = text.split_once(label) else {
        return Vec::new();
    };
    rest.split(", ")
        .map_while(|n| n.trim_end_matches(';').parse().ok())
        .collect()
}

/// The number that follows `label` ("discard 4 cards" → 4).
fn number_after(text: &str, label: &str) -> u32 {
    let (_, rest) = text.split_once(label).expect(label);
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().expect(label)
}

/// "hex 4 (bob or neutral white), hex 7" → [(4, [bob, neutral white]), (7, [])].
fn robber_targets(text: &str) -> Vec<(u32, Vec<String>)> {
    text.split("hex ")
        .skip(1)
        .filter_map(|piece| {
            let digits: String = piece.chars().take_while(char::is_ascii_digit).collect();
            let hex = digits.parse().ok()?;
            let victims = piece
                .split_once('(')
                .and_then(|(_, rest)| rest.split_once(')'))
                .map(|(names, _)| names.split(" or ").map(str::to_string).collect())
                .unwrap_or_default();
            Some((hex, victims))
        })
        .collect()
}

/// "build a road for neutral white: neutral white: edges 1, 2; neutral
/// orange: edges 5" → [(neutral white, [1, 2]), (neutral orange, [5])].
fn neutral_sites(text: &str, label: &str) -> Vec<(String, Vec<u32>)> {
    let Some((_, choices)) = text.split_once(": ") else {
        return Vec::new();
    };
    choices
        .split("; ")
        .filter_map(|c| {
            let (name, sites) = c.split_once(": ")?;
            Some((name.to_string(), ids_after(sites, label)))
        })
        .filter(|(_, ids)| !ids.is_empty())
        .collect()
}

/// "4 brick for lumber/wool, 2 ore for brick" → [(brick, [lumber, wool]), (ore, [brick])].
fn bank_trades(text: &str) -> Vec<(String, Vec<String>)> {
    let Some((_, choices)) = text.split_once(": ") else {
        return Vec::new();
    };
    choices
        .split(", ")
        .filter_map(|c| {
            let mut words = c.split(' ');
            let _ratio = words.next()?;
            let give = words.next()?.to_string();
            let _for = words.next()?;
            let receive = words.next()?.split('/').map(str::to_string).collect();
            Some((give, receive))
        })
        .collect()
}

/// A simple deterministic player: it answers what it must, and on its
/// turn prefers a kind of decision it has not made yet, so that one game
/// comes to all of them.
struct Policy {
    rng: GameRng,
    /// Commands applied, by kind.
    covered: BTreeMap<String, usize>,
    /// Every kind of command the mails listed.
    offered_kinds: BTreeSet<String>,
    /// Decisions applied, by player.
    applied: [usize; 2],
    several: bool,
    refused: bool,
    victim_by_name: bool,
    /// Replies the server refused in part, which the policy did not mean.
    failures: Vec<String>,
    /// On this turn: a trade-token action taken, trades made, an offer
    /// made.
    token_used: bool,
    trades: u32,
    offered: bool,
    /// The last reply was refused in part (a bank out of a resource):
    /// the next one moves on rather than try it again.
    last_failed: bool,
}

impl Policy {
    fn new() -> Policy {
        Policy {
            rng: GameRng::from_seed(21),
            covered: BTreeMap::new(),
            offered_kinds: BTreeSet::new(),
            applied: [0, 0],
            several: false,
            refused: false,
            victim_by_name: false,
            failures: Vec::new(),
            token_used: false,
            trades: 0,
            offered: false,
            last_failed: false,
        }
    }

    fn covered(&self, key: &str) -> bool {
        self.covered.contains_key(key)
    }

    fn chance(&mut self, percent: u32) -> bool {
        self.rng.below(100) < percent
    }

    fn pick<T: Clone>(&mut self, items: &[T]) -> T {
        items[self.rng.below(items.len() as u32) as usize].clone()
    }

    /// Records what the server applied of `lines`.
    fn note(&mut self, lines: &[String], opponent: &str) {
        if lines.len() > 1 {
            self.several = true;
        }
        for line in lines {
            let key = code_key(line);
            if (key == "M" || key == "K") && line.ends_with(&format!(" {opponent}")) {
                self.victim_by_name = true;
            }
            match key.as_str() {
                "R" => {
                    self.token_used = false;
                    self.trades = 0;
                    self.offered = false;
                }
                "OFFER" => self.offered = true,
                "FT" | "DESERT" => self.token_used = true,
                "T" => self.trades += 1,
                _ => {}
            }
            *self.covered.entry(key).or_default() += 1;
        }
    }

    /// The lines to reply with.
    fn plan(&mut self, d: &Decision, opponent: &str) -> Vec<String> {
        if let Some(lines) = self.forced(d, opponent) {
            return vec![lines];
        }
        if d.has("R") {
            return self.before_roll(d, opponent);
        }
        if d.has("E") {
            return self.main(d, opponent);
        }
        panic!("no decision this policy knows: {:?}", d.menu);
    }

    /// The decisions that answer something: set-up, owed builds, the
    /// robber, discards, cards given back, a trade offered.
    fn forced(&mut self, d: &Decision, opponent: &str) -> Option<String> {
        if d.has("ACCEPT") || d.has("DECLINE") {
            let accept = d.has("ACCEPT") && (!self.covered("ACCEPT") || self.covered("DECLINE"));
            return Some(if accept { "ACCEPT" } else { "DECLINE" }.into());
        }
        if let Some(text) = d.line("X") {
            let n = number_after(text, "discard ");
            return Some(format!("X {}", d.cards(n).join(" ")));
        }
        if let Some(text) = d.line("GIVE") {
            let n = number_after(text, "give back ");
            return Some(format!("GIVE {}", d.cards(n).join(" ")));
        }
        if let Some(text) = d.line("M") {
            return Some(format!("M {}", self.robber(text, opponent)));
        }
        for (key, label) in [("NS", "nodes "), ("ND", "edges ")] {
            if let Some(text) = d.line(key) {
                let (neutral, sites) = self.pick(&neutral_sites(text, label));
                let site = self.pick(&sites);
                return Some(format!("{key}{site} {neutral}"));
            }
        }
        if !d.has("E") && !d.has("R") {
            // Set-up, and the free roads of Road Building.
            for (key, label) in [("S", "nodes "), ("D", "edges ")] {
                if let Some(text) = d.line(key) {
                    let site = self.pick(&ids_after(text, label));
                    return Some(format!("{key}{site}"));
                }
            }
        }
        None
    }

    /// Where the robber goes: a hex where the opponent can be robbed,
    /// named as the mail names them.
    fn robber(&mut self, text: &str, opponent: &str) -> String {
        let targets = robber_targets(text);
        let theirs: Vec<_> = targets
            .iter()
            .filter(|(_, v)| v.iter().any(|n| n == opponent))
            .collect();
        if let Some((hex, _)) = theirs.first() {
            return format!("{hex} {opponent}");
        }
        match targets.iter().find(|(_, v)| !v.is_empty()) {
            Some((hex, victims)) => format!("{hex} {}", victims[0]),
            None => targets[0].0.to_string(),
        }
    }

    /// Before the roll: a knight, a token action, then the roll, in one
    /// reply.
    fn before_roll(&mut self, d: &Decision, opponent: &str) -> Vec<String> {
        if self.last_failed {
            return vec!["R".into()];
        }
        let mut lines = Vec::new();
        if let Some(text) = d.line("K")
            && (!self.covered("K") || self.chance(60))
        {
            lines.push(format!("K {}", self.robber(text, opponent)));
        }
        if d.has("DK") {
            lines.push("DK".into());
        }
        if d.has("FT") && !self.covered("FT") {
            // The cards given back are chosen from the hand it leaves.
            lines.push("FT".into());
            return lines;
        }
        if d.has("DESERT") && (!self.covered("DESERT") || self.chance(5)) {
            lines.push("DESERT".into());
        }
        lines.push("R".into());
        lines
    }

    /// After the roll: build, buy, play, trade, or end the turn.
    fn main(&mut self, d: &Decision, opponent: &str) -> Vec<String> {
        if self.last_failed {
            return vec!["E".into()];
        }
        if !self.refused && self.covered.get("E").is_some_and(|&n| n >= 4) {
            // Rolled already: refused, and nothing changes.
            return vec!["R".into()];
        }
        for (key, label) in [("C", "nodes "), ("S", "nodes ")] {
            if let Some(text) = d.line(key) {
                let site = self.pick(&ids_after(text, label));
                return vec![format!("{key}{site}")];
            }
        }
        if d.has("RB") {
            return vec!["RB".into()];
        }
        if let Some(text) = d.line("YOP") {
            let n = number_after(text, "name ");
            let wanted: Vec<&str> = (0..n).map(|_| d.scarcest()).collect();
            return vec![format!("YOP {}", wanted.join(" "))];
        }
        if d.has("MONO") {
            let r = self.pick(&RESOURCES);
            return vec![format!("MONO {r}")];
        }
        if let Some(text) = d.line("K")
            && self.chance(50)
        {
            return vec![format!("K {}", self.robber(text, opponent))];
        }
        if d.has("DK") {
            return vec!["DK".into()];
        }
        if !self.token_used {
            if d.has("FT") && (!self.covered("FT") || self.chance(10)) {
                return vec!["FT".into()];
            }
            if d.has("DESERT") && !self.covered("DESERT") {
                return vec!["DESERT".into()];
            }
        }
        if d.has("OFFER") && !self.offered && (!self.covered("WITHDRAW") || self.chance(15)) {
            let give = d.cards(1)[0];
            let receive = RESOURCES
                .iter()
                .copied()
                .find(|r| *r != give && d.count(r) == 0)
                .unwrap_or(if give == "ore" { "grain" } else { "ore" });
            let offer = format!("OFFER 1 {give} FOR 1 {receive}");
            if self.covered("ACCEPT") && self.covered("DECLINE") && !self.covered("WITHDRAW") {
                return vec![offer, "WITHDRAW".into()];
            }
            return vec![offer];
        }
        if let Some(text) = d.line("D")
            && self.chance(60)
        {
            let edge = self.pick(&ids_after(text, "edges "));
            return vec![format!("D{edge}")];
        }
        if d.has("DEV") {
            return vec!["DEV".into()];
        }
        if let Some(text) = d.line("T")
            && self.trades < 2
        {
            let want = d.scarcest();
            let trades = bank_trades(text);
            if let Some((give, _)) = trades
                .iter()
                .filter(|(g, r)| g != want && r.iter().any(|x| x == want))
                .max_by_key(|(g, _)| d.count(g))
            {
                return vec![format!("T {give} {want}")];
            }
        }
        vec!["E".into()]
    }
}
