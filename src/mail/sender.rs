//! Delivering a message: over SMTP, or, with no SMTP server configured, as
//! an .eml file under the data directory (and a log line), so a local
//! server works without one.

use lettre::message::header::{HeaderName, HeaderValue};
use lettre::message::{Mailbox, MultiPart};
use lettre::{Message, SmtpTransport, Transport};
use std::path::PathBuf;
use std::time::Duration;

/// The SMTP transport for `url`: `smtps://` (TLS from the first byte),
/// `smtp://…?tls=starttls` (STARTTLS required) or plain `smtp://`; user and
/// password, if any, in the URL's user part.
pub fn smtp_transport(url: &str, timeout_secs: u64) -> Result<SmtpTransport, String> {
    let (base, query) = url.split_once('?').unwrap_or((url, ""));
    if !(base.starts_with("smtp://") || base.starts_with("smtps://")) {
        return Err("must start with smtp:// or smtps://".into());
    }
    let starttls = match query {
        "" => false,
        // lettre calls STARTTLS-or-fail `required`.
        "tls=starttls" | "tls=required" if base.starts_with("smtp://") => true,
        other => {
            return Err(format!(
                "unsupported `?{other}`: use smtps://, smtp://…?tls=starttls, or plain smtp://"
            ));
        }
    };
    let lettre_url = if starttls {
        format!("{base}?tls=required")
    } else {
        base.to_string()
    };
    Ok(SmtpTransport::from_url(&lettre_url)
        .map_err(|e| e.to_string())?
        .timeout(Some(Duration::from_secs(timeout_secs)))
        .build())
}

pub enum Mailer {
    Smtp(Box<SmtpTransport>),
    Files(PathBuf),
}

impl Mailer {
    pub fn new(config: &crate::config::Config) -> Result<Mailer, String> {
        Ok(match &config.mail.smtp_url {
            Some(url) => Mailer::Smtp(Box::new(smtp_transport(
                url,
                config.mail.smtp_timeout_secs,
            )?)),
            None => Mailer::Files(config.data_dir.join("mail")),
        })
    }

    pub fn is_smtp(&self) -> bool {
        matches!(self, Mailer::Smtp(_))
    }

    /// Hands the message over; `file_stem` names it in the file backend.
    pub fn send(&self, message: &Message, file_stem: &str) -> Result<(), String> {
        match self {
            Mailer::Smtp(smtp) => smtp.send(message).map(|_| ()).map_err(|e| e.to_string()),
            Mailer::Files(dir) => {
                // Invitations carry the token that joins a game: private.
                crate::private_files::create_dir(dir)
                    .map_err(|e| format!("{}: {e}", dir.display()))?;
                let path = dir.join(format!("{file_stem}.eml"));
                crate::private_files::write(&path, &message.formatted())
                    .map_err(|e| format!("{}: {e}", path.display()))?;
                tracing::info!(path = %path.display(), "no SMTP_URL: mail written to a file");
                Ok(())
            }
        }
    }
}

/// What a message is made of besides its bodies.
pub struct Envelope<'a> {
    pub from: &'a Mailbox,
    pub to: &'a str,
    pub subject: &'a str,
    pub message_id: String,
    /// The thread root the message answers (a game's), if any.
    pub thread: Option<String>,
    /// The notification settings, for List-Unsubscribe.
    pub settings_url: &'a str,
}

pub fn compose(envelope: Envelope, text: String, html: String) -> Result<Message, String> {
    let to: Mailbox = envelope
        .to
        .parse()
        .map_err(|e| format!("recipient `{}`: {e}", envelope.to))?;
    let mut builder = Message::builder()
        .from(envelope.from.clone())
        .to(to)
        .subject(envelope.subject)
        .message_id(Some(envelope.message_id));
    if let Some(root) = envelope.thread {
        builder = builder.in_reply_to(root.clone()).references(root);
    }
    let mut message = builder
        .multipart(MultiPart::alternative_plain_html(text, html))
        .map_err(|e| e.to_string())?;
    message.headers_mut().insert_raw(HeaderValue::new(
        HeaderName::new_from_ascii_str("List-Unsubscribe"),
        format!("<{}>", envelope.settings_url),
    ));
    Ok(message)
}
