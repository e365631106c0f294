//! Sending over SMTP with lettre's client: one connection kept for the
//! mails of a worker's round, and each message's data written at once,
//! end-of-data marker included.
//!
//! lettre's own transport writes the message and then, separately, the
//! five bytes of `<CRLF>.<CRLF>`. With Nagle's algorithm on its socket the
//! second write waits until the server acknowledges the first, and servers
//! delay that acknowledgement (40 ms on Linux): every mail cost 40–50 ms of
//! waiting, and the worker sent about 20 a second (docs/performance.md).
//! Written at once, nothing waits for an acknowledgement: each command's
//! reply acknowledges what came before it.

use lettre::Message;
use lettre::address::Envelope;
use lettre::transport::smtp::authentication::{Credentials, DEFAULT_MECHANISMS};
use lettre::transport::smtp::client::{SmtpConnection, TlsParameters};
use lettre::transport::smtp::commands::{Data, Mail, Rcpt};
use lettre::transport::smtp::extension::{ClientId, Extension, MailBodyParameter, MailParameter};
use std::borrow::Cow;
use std::fmt;
use std::sync::Mutex;
use std::time::Duration;

/// How the connection is secured.
enum Security {
    Plain,
    /// TLS from the first byte (`smtps://`).
    Wrapper(TlsParameters),
    /// STARTTLS, required (`smtp://…?tls=starttls`).
    StartTls(TlsParameters),
}

/// Where and how to send, from `SMTP_URL`.
pub struct SmtpServer {
    host: String,
    port: u16,
    security: Security,
    credentials: Option<Credentials>,
    hello: ClientId,
    timeout: Duration,
}

impl SmtpServer {
    /// `smtps://` (TLS from the first byte, port 465), `smtp://…?tls=starttls`
    /// (STARTTLS required, port 587) or plain `smtp://` (port 25); user and
    /// password, if any, in the URL's user part; a path names the client in
    /// its EHLO, as lettre's own URLs do.
    pub fn from_url(url: &str, timeout_secs: u64) -> Result<SmtpServer, String> {
        let parsed = url::Url::parse(url).map_err(|e| e.to_string())?;
        let host = parsed.host_str().ok_or("no host")?.to_string();
        let tls = || TlsParameters::new(host.clone()).map_err(|e| e.to_string());
        let query: Vec<(Cow<str>, Cow<str>)> = parsed.query_pairs().collect();
        let (security, default_port) = match (parsed.scheme(), query.as_slice()) {
            ("smtps", []) => (Security::Wrapper(tls()?), 465),
            ("smtp", []) => (Security::Plain, 25),
            // lettre calls STARTTLS-or-fail `required`.
            ("smtp", [(k, v)]) if k == "tls" && (v == "starttls" || v == "required") => {
                (Security::StartTls(tls()?), 587)
            }
            ("smtp" | "smtps", _) => {
                return Err(format!(
                    "unsupported `?{}`: use smtps://, smtp://…?tls=starttls, or plain smtp://",
                    parsed.query().unwrap_or("")
                ));
            }
            _ => return Err("must start with smtp:// or smtps://".into()),
        };
        let decode = |s: &str| {
            percent_encoding::percent_decode_str(s)
                .decode_utf8()
                .map(Cow::into_owned)
                .map_err(|e| e.to_string())
        };
        let credentials = match parsed.password() {
            Some(password) => Some(Credentials::new(
                decode(parsed.username())?,
                decode(password)?,
            )),
            None => None,
        };
        let hello = match parsed.path().trim_matches('/') {
            "" => ClientId::default(),
            name => ClientId::Domain(name.to_string()),
        };
        Ok(SmtpServer {
            port: parsed.port().unwrap_or(default_port),
            host,
            security,
            credentials,
            hello,
            timeout: Duration::from_secs(timeout_secs),
        })
    }

    fn connect(&self) -> Result<SmtpConnection, String> {
        let wrapper = match &self.security {
            Security::Wrapper(tls) => Some(tls),
            _ => None,
        };
        let mut connection = SmtpConnection::connect(
            (self.host.as_str(), self.port),
            Some(self.timeout),
            &self.hello,
            wrapper,
            None,
        )
        .map_err(|e| e.to_string())?;
        if let Security::StartTls(tls) = &self.security {
            connection
                .starttls(tls, &self.hello)
                .map_err(|e| e.to_string())?;
        }
        if let Some(credentials) = &self.credentials {
            connection
                .auth(DEFAULT_MECHANISMS, credentials)
                .map_err(|e| e.to_string())?;
        }
        Ok(connection)
    }
}

/// An SMTP server and the connection to it kept between mails.
pub struct SmtpSender {
    server: SmtpServer,
    kept: Mutex<Option<SmtpConnection>>,
}

impl SmtpSender {
    pub fn new(server: SmtpServer) -> SmtpSender {
        SmtpSender {
            server,
            kept: Mutex::new(None),
        }
    }

    /// Sends `message` on the kept connection, or on a new one if there is
    /// none. A kept connection the server has closed since (some limit the
    /// mails per connection) fails the transaction: it is sent again once,
    /// on a new connection. A connection that failed is dropped.
    pub fn send(&self, message: &Message) -> Result<(), String> {
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        let (envelope, data) = (message.envelope(), message.formatted());
        if let Some(connection) = kept.take() {
            match keep_if_sent(connection, envelope, &data, &mut kept) {
                Ok(()) => return Ok(()),
                Err(error) => {
                    tracing::info!(%error, "SMTP: the kept connection failed; sending on a new one")
                }
            }
        }
        keep_if_sent(self.server.connect()?, envelope, &data, &mut kept)
    }

    /// Says goodbye on the kept connection, if any: between rounds the
    /// worker sleeps, and an idle connection would only be timed out.
    pub fn close(&self) {
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(mut connection) = kept.take()
            && connection.quit().is_err()
        {
            connection.abort();
        }
    }
}

/// Sends on `connection`, and keeps it in `kept` if that worked.
fn keep_if_sent(
    mut connection: SmtpConnection,
    envelope: &Envelope,
    data: &[u8],
    kept: &mut Option<SmtpConnection>,
) -> Result<(), String> {
    match transmit(&mut connection, envelope, data) {
        Ok(()) => {
            *kept = Some(connection);
            Ok(())
        }
        Err(error) => {
            connection.abort();
            Err(error)
        }
    }
}

/// One mail transaction: MAIL, RCPT for each recipient, DATA, and the
/// message with its end marker in one write.
fn transmit(
    connection: &mut SmtpConnection,
    envelope: &Envelope,
    data: &[u8],
) -> Result<(), String> {
    let mut parameters = Vec::new();
    let info = connection.server_info();
    let addresses = envelope.from().into_iter().chain(envelope.to());
    if addresses
        .into_iter()
        .any(|a| !AsRef::<str>::as_ref(a).is_ascii())
    {
        if !info.supports_feature(Extension::SmtpUtfEight) {
            return Err("the server does not take non-ASCII addresses (SMTPUTF8)".into());
        }
        parameters.push(MailParameter::SmtpUtfEight);
    }
    if !data.is_ascii() {
        if !info.supports_feature(Extension::EightBitMime) {
            return Err("the server does not take 8-bit messages (8BITMIME)".into());
        }
        parameters.push(MailParameter::Body(MailBodyParameter::EightBitMime));
    }
    let text = std::str::from_utf8(data).map_err(|e| format!("a message not in UTF-8: {e}"))?;
    let run = |connection: &mut SmtpConnection| -> Result<(), lettre::transport::smtp::Error> {
        connection.command(Mail::new(envelope.from().cloned(), parameters.clone()))?;
        for to in envelope.to() {
            connection.command(Rcpt::new(to.clone(), vec![]))?;
        }
        connection.command(Data)?;
        connection.command(DotStuffed(text))?;
        Ok(())
    };
    run(connection).map_err(|e| e.to_string())
}

/// A message as the DATA command's content (RFC 5321 §4.5.2): a line that
/// starts with a dot gets another, and `.` on a line of its own ends it.
struct DotStuffed<'a>(&'a str);

impl fmt::Display for DotStuffed<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, line) in self.0.split("\r\n").enumerate() {
            if i > 0 {
                f.write_str("\r\n")?;
            }
            if line.starts_with('.') {
                f.write_str(".")?;
            }
            f.write_str(line)?;
        }
        if !self.0.ends_with("\r\n") {
            f.write_str("\r\n")?;
        }
        f.write_str(".\r\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_starting_with_a_dot_are_stuffed_and_the_data_ends_with_a_dot_line() {
        let stuffed = DotStuffed("Subject: x\r\n\r\n.hidden\r\na.b\r\n.").to_string();
        assert_eq!(stuffed, "Subject: x\r\n\r\n..hidden\r\na.b\r\n..\r\n.\r\n");
        assert_eq!(DotStuffed("body\r\n").to_string(), "body\r\n.\r\n");
    }

    #[test]
    fn urls_name_the_server_its_security_and_credentials() {
        let s = SmtpServer::from_url("smtps://user%40x:p%3Ass@mail.example.org", 5).unwrap();
        assert_eq!((s.host.as_str(), s.port), ("mail.example.org", 465));
        assert!(matches!(s.security, Security::Wrapper(_)));
        assert!(s.credentials.is_some());
        let s = SmtpServer::from_url("smtp://mail.example.org:2525?tls=starttls", 5).unwrap();
        assert_eq!(s.port, 2525);
        assert!(matches!(s.security, Security::StartTls(_)));
        let s = SmtpServer::from_url("smtp://127.0.0.1", 5).unwrap();
        assert_eq!(s.port, 25);
        assert!(matches!(s.security, Security::Plain) && s.credentials.is_none());
        for bad in [
            "http://mail.example.org",
            "smtp://mail.example.org?tls=sometimes",
            "smtps://mail.example.org?tls=starttls",
        ] {
            assert!(SmtpServer::from_url(bad, 5).is_err(), "{bad}");
        }
    }
}
