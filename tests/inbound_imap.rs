//! Polling an IMAP mailbox, against a real Dovecot started by the test:
//! messages are delivered into the mailbox with IMAP APPEND, and the
//! poller must hand each to the sink exactly once, also across a server
//! restart and with two pollers on one mailbox (the claim is a keyword
//! stored under CONDSTORE's UNCHANGEDSINCE, which Dovecot offers).

use crate::common::dovecot::{self, Dovecot, PROCESSED};
use crate::common::inbound::{Answer, Recorder, reply};
use hexpost::inbound::Via;
use hexpost::inbound::transport::imap::{ImapSettings, connect, contents, poll};
use hexpost::workers::Shutdown;
use std::time::Duration;
use tokio_util::sync::CancellationToken;

fn settings(server: &Dovecot, poll_interval: Duration) -> ImapSettings {
    server.settings(poll_interval)
}

/// Puts `raw` into the inbox, as the provider's delivery would.
async fn deliver(server: &Dovecot, raw: &[u8]) {
    server.append(raw, None).await;
}

async fn mailbox(server: &Dovecot, name: &str) -> Vec<Vec<u8>> {
    let mut session = connect(&settings(server, Duration::from_secs(1)))
        .await
        .unwrap();
    let held = contents(&mut session, name).await.unwrap();
    session.logout().await.unwrap();
    held.into_values().collect()
}

/// A poller running on the test's runtime.
struct Poller {
    token: CancellationToken,
    task: tokio::task::JoinHandle<()>,
}

impl Poller {
    /// Asks it to stop and waits until it has.
    async fn stop(self) {
        self.token.cancel();
        self.task.await.unwrap();
    }
}

fn start(settings: ImapSettings, recorder: &Recorder) -> Poller {
    let token = CancellationToken::new();
    let task = tokio::spawn(poll(
        settings,
        recorder.sink(),
        Default::default(),
        Shutdown::from(token.clone()),
    ));
    Poller { token, task }
}

fn sorted(mut messages: Vec<Vec<u8>>) -> Vec<Vec<u8>> {
    messages.sort();
    messages
}

#[tokio::test]
async fn each_message_is_handed_on_once_and_moved_to_the_processed_mailbox() {
    if !dovecot::available() {
        return;
    }
    let server = Dovecot::running();
    for n in 1..=3 {
        deliver(&server, &reply(n)).await;
    }
    let recorder = Recorder::new();
    let _stop = start(settings(&server, Duration::from_millis(200)), &recorder);
    let received = recorder.wait_for(3).await;
    assert_eq!(
        received,
        (1..=3).map(|n| (reply(n), Via::Imap)).collect::<Vec<_>>(),
        "the exact bytes, oldest first"
    );
    // Several more rounds take nothing again.
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert_eq!(recorder.received().len(), 3);
    assert!(mailbox(&server, "INBOX").await.is_empty());
    assert_eq!(
        sorted(mailbox(&server, PROCESSED).await),
        sorted((1..=3).map(reply).collect())
    );
}

#[tokio::test]
async fn idle_wakes_the_poller_when_mail_arrives() {
    if !dovecot::available() {
        return;
    }
    let server = Dovecot::running();
    let recorder = Recorder::new();
    // Without IDLE the next round would be ten minutes away.
    let _stop = start(settings(&server, Duration::from_secs(600)), &recorder);
    tokio::time::sleep(Duration::from_millis(500)).await;
    deliver(&server, &reply(7)).await;
    assert_eq!(recorder.wait_for(1).await, vec![(reply(7), Via::Imap)]);
}

#[tokio::test]
async fn the_poller_carries_on_after_the_server_restarts() {
    if !dovecot::available() {
        return;
    }
    let mut server = Dovecot::running();
    let recorder = Recorder::new();
    let _stop = start(settings(&server, Duration::from_millis(200)), &recorder);
    deliver(&server, &reply(1)).await;
    recorder.wait_for(1).await;
    server.stop();
    tokio::time::sleep(Duration::from_millis(500)).await;
    server.start();
    deliver(&server, &reply(2)).await;
    assert_eq!(
        recorder.wait_for(2).await,
        vec![(reply(1), Via::Imap), (reply(2), Via::Imap)]
    );
}

#[tokio::test]
async fn two_pollers_on_one_mailbox_take_each_message_once() {
    if !dovecot::available() {
        return;
    }
    let server = Dovecot::running();
    let sent: Vec<Vec<u8>> = (1..=20).map(reply).collect();
    for raw in &sent {
        deliver(&server, raw).await;
    }
    let (first, second) = (Recorder::new(), Recorder::new());
    let _a = start(settings(&server, Duration::from_millis(100)), &first);
    let _b = start(settings(&server, Duration::from_millis(100)), &second);
    let start = std::time::Instant::now();
    while first.received().len() + second.received().len() < sent.len() {
        assert!(start.elapsed() < Duration::from_secs(30));
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    tokio::time::sleep(Duration::from_secs(1)).await;
    let taken: Vec<Vec<u8>> = first
        .received()
        .into_iter()
        .chain(second.received())
        .map(|(raw, _)| raw)
        .collect();
    assert_eq!(sorted(taken), sorted(sent), "every message, none twice");
}

#[tokio::test]
async fn a_message_the_sink_cannot_take_now_goes_back_to_the_inbox() {
    if !dovecot::available() {
        return;
    }
    let server = Dovecot::running();
    deliver(&server, &reply(1)).await;
    let recorder = Recorder::new();
    recorder.answer_with(Answer::Later);
    let poller = start(settings(&server, Duration::from_millis(200)), &recorder);
    tokio::time::sleep(Duration::from_secs(1)).await;
    poller.stop().await;
    assert_eq!(mailbox(&server, "INBOX").await, vec![reply(1)]);
    assert!(
        mailbox(&server, PROCESSED).await.is_empty(),
        "each try's claim was undone"
    );
    recorder.answer_with(Answer::Take);
    let _again = start(settings(&server, Duration::from_millis(200)), &recorder);
    assert_eq!(recorder.wait_for(1).await, vec![(reply(1), Via::Imap)]);
}

/// A poller that died between claiming a message and filing it leaves the
/// claim behind; once it is older than the claim timeout another poller
/// releases it and takes the message (the pipeline's Message-ID record
/// keeps it from applying twice). A fresh claim is left alone.
#[tokio::test]
async fn a_claim_left_by_a_stopped_poller_is_taken_over_after_the_timeout() {
    if !dovecot::available() {
        return;
    }
    let server = Dovecot::running();
    server.append(&reply(1), Some("($HexpostTaken)")).await;
    let recorder = Recorder::new();
    let patient = ImapSettings {
        claim_timeout: Duration::from_secs(600),
        ..settings(&server, Duration::from_millis(100))
    };
    let poller = start(patient, &recorder);
    tokio::time::sleep(Duration::from_secs(1)).await;
    poller.stop().await;
    assert!(recorder.received().is_empty(), "a fresh claim is respected");
    let quick = ImapSettings {
        claim_timeout: Duration::from_millis(500),
        ..settings(&server, Duration::from_millis(100))
    };
    let _poller = start(quick, &recorder);
    assert_eq!(recorder.wait_for(1).await, vec![(reply(1), Via::Imap)]);
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(recorder.received().len(), 1);
    assert!(mailbox(&server, "INBOX").await.is_empty());
}
