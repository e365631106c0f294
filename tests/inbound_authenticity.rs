//! The sender check on real DKIM-signed messages: signed here with
//! mail-auth's signer and a fresh Ed25519 key, verified with the key's
//! TXT record given to the verifier in advance (no name server is asked),
//! or published by a name server the test runs.

use crate::common::{self, dkim::Signer};
use hexpost::inbound::authenticity::{Authenticity, Verdict, VerifyMode, Voucher};

const OUR_MTA: &str = "mx.hexpost.example";

fn reply(from: &str) -> String {
    format!(
        "From: Ann <{from}>\r\nTo: r-1@replies.example\r\nSubject: Re: your move\r\n\
         Message-ID: <1@players.example>\r\n\r\nR\r\nE\r\n"
    )
}

/// The DMARC record says `psd=n` (an organisational domain), which ends
/// mail-auth's walk up the tree there instead of asking for `_dmarc.example`.
fn checker(mode: VerifyMode, signer: &Signer, key_domain: &str) -> Authenticity {
    let key_name = Signer::record_name(key_domain);
    Authenticity::with_records(
        mode,
        Some(OUR_MTA.to_string()),
        [
            (key_name.as_str(), signer.record.as_str()),
            ("_dmarc.players.example", "v=DMARC1; p=reject; psd=n"),
        ],
    )
    .unwrap()
}

fn doubtful(verdict: &Verdict) -> bool {
    matches!(verdict, Verdict::Doubtful { .. }) && !verdict.accepts()
}

#[tokio::test]
async fn a_reply_signed_by_its_from_domain_is_authentic() {
    let signer = Signer::new();
    let check = checker(VerifyMode::On, &signer, "players.example");
    let signed = signer.sign("players.example", reply("ann@players.example").as_bytes());
    let verdict = check.check(&signed).await;
    assert_eq!(
        verdict,
        Verdict::Authentic {
            domain: "players.example".into(),
            by: Voucher::Dkim {
                dmarc: "pass".into()
            },
        }
    );
    assert!(verdict.accepts());
}

#[tokio::test]
async fn a_parent_domain_signature_counts_for_a_subdomain_sender() {
    let signer = Signer::new();
    let check = checker(VerifyMode::On, &signer, "players.example");
    let signed = signer.sign(
        "players.example",
        reply("ann@mail.players.example").as_bytes(),
    );
    assert!(check.check(&signed).await.accepts());
}

#[tokio::test]
async fn a_changed_body_an_unsigned_mail_and_a_foreign_signature_are_doubtful() {
    let signer = Signer::new();
    let check = checker(VerifyMode::On, &signer, "players.example");
    let signed = signer.sign("players.example", reply("ann@players.example").as_bytes());
    let tampered = String::from_utf8(signed)
        .unwrap()
        .replace("R\r\nE", "E\r\nR");
    assert!(doubtful(&check.check(tampered.as_bytes()).await));
    assert!(doubtful(
        &check.check(reply("ann@players.example").as_bytes()).await
    ));
    let elsewhere = checker(VerifyMode::On, &signer, "forger.example");
    let foreign = signer.sign("forger.example", reply("ann@players.example").as_bytes());
    let verdict = elsewhere.check(&foreign).await;
    assert_eq!(
        verdict,
        Verdict::Doubtful {
            reason: "no valid DKIM signature of players.example".into()
        }
    );
}

fn with_results(header: &str) -> Vec<u8> {
    format!(
        "Authentication-Results: {header}\r\n{}",
        reply("ann@players.example")
    )
    .into_bytes()
}

#[tokio::test]
async fn auto_trusts_our_own_mta_and_only_it() {
    let signer = Signer::new();
    let check = checker(VerifyMode::Auto, &signer, "players.example");
    let vouched = with_results(&format!(
        "{OUR_MTA}; spf=pass smtp.mailfrom=players.example;\r\n dkim=pass header.d=players.example"
    ));
    assert_eq!(
        check.check(&vouched).await,
        Verdict::Authentic {
            domain: "players.example".into(),
            by: Voucher::TrustedHeader
        }
    );
    let dmarc = with_results(&format!(
        "{OUR_MTA} 1; dmarc=pass header.from=players.example"
    ));
    assert!(check.check(&dmarc).await.accepts());
    let failed = with_results(&format!(
        "{OUR_MTA}; dkim=fail header.d=players.example; dmarc=fail"
    ));
    assert!(doubtful(&check.check(&failed).await));
    let other_domain = with_results(&format!("{OUR_MTA}; dkim=pass header.d=forger.example"));
    assert!(doubtful(&check.check(&other_domain).await));
    // A header some other server added is no proof: the message is
    // checked here, and it carries no signature.
    let stranger = with_results("mx.elsewhere.example; dkim=pass header.d=players.example");
    assert!(doubtful(&check.check(&stranger).await));
}

#[tokio::test]
async fn on_checks_even_when_our_mta_vouched_and_off_checks_nothing() {
    let signer = Signer::new();
    let vouched = with_results(&format!("{OUR_MTA}; dkim=pass header.d=players.example"));
    let on = checker(VerifyMode::On, &signer, "players.example");
    assert!(doubtful(&on.check(&vouched).await));
    let off = Authenticity::new(VerifyMode::Off, None).unwrap();
    assert_eq!(off.check(&vouched).await, Verdict::Unchecked);
}

#[test]
fn the_mode_is_read_from_its_setting() {
    assert_eq!("auto".parse(), Ok(VerifyMode::Auto));
    assert_eq!(" ON".parse(), Ok(VerifyMode::On));
    assert_eq!("off".parse(), Ok(VerifyMode::Off));
    assert!("yes".parse::<VerifyMode>().is_err());
}

/// The way `serve` looks keys up: a real name server, asked over UDP
/// (`INBOUND_DNS_SERVERS`), publishes the key; a name it does not know is
/// an answer too (NXDOMAIN), not a reason to try again later.
#[tokio::test]
async fn keys_are_looked_up_at_the_configured_name_server() {
    let signer = Signer::new();
    let dns = common::dns::NameServer::running();
    dns.publish(&Signer::record_name("players.example"), &signer.record);
    let check = Authenticity::with_name_servers(VerifyMode::On, None, &[dns.addr]).unwrap();
    let signed = signer.sign("players.example", reply("ann@players.example").as_bytes());
    assert!(matches!(
        check.check(&signed).await,
        Verdict::Authentic { ref domain, .. } if domain == "players.example"
    ));
    let unknown = signer.sign(
        "elsewhere.example",
        reply("ann@elsewhere.example").as_bytes(),
    );
    assert!(doubtful(&check.check(&unknown).await));
}
