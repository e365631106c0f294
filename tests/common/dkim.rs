//! Signing mail as a player's mail provider does: DKIM with mail-auth's
//! signer and a fresh Ed25519 key, whose public key the test publishes
//! (in DNS, or to the verifier directly).

use mail_auth::common::crypto::Ed25519Key;
use mail_auth::common::headers::HeaderWriter;
use mail_auth::dkim::DkimSigner;

/// The selector every test key is published under.
pub const SELECTOR: &str = "s1";

pub struct Signer {
    pkcs8: Vec<u8>,
    /// The key's TXT record (`v=DKIM1; k=ed25519; p=…`).
    pub record: String,
}

impl Signer {
    pub fn new() -> Signer {
        use base64::Engine;
        let pkcs8 = Ed25519Key::generate_pkcs8().unwrap();
        let key = Ed25519Key::from_pkcs8_der(&pkcs8).unwrap();
        let record = format!(
            "v=DKIM1; k=ed25519; p={}",
            base64::engine::general_purpose::STANDARD.encode(key.public_key())
        );
        Signer { pkcs8, record }
    }

    /// Where the key's record goes for `domain`.
    pub fn record_name(domain: &str) -> String {
        format!("{SELECTOR}._domainkey.{domain}")
    }

    /// `raw` with a DKIM-Signature of `domain` on top.
    pub fn sign(&self, domain: &str, raw: &[u8]) -> Vec<u8> {
        let key = Ed25519Key::from_pkcs8_der(&self.pkcs8).unwrap();
        let signature = DkimSigner::from_key(key)
            .domain(domain)
            .selector(SELECTOR)
            .headers([
                "From",
                "To",
                "Subject",
                "Message-ID",
                "Date",
                "Content-Type",
            ])
            .sign(raw)
            .unwrap();
        let mut signed = signature.to_header().into_bytes();
        signed.extend_from_slice(raw);
        signed
    }
}
