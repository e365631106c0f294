//! Composing a message and delivering it: over SMTP (`mail::smtp`), or,
//! with no SMTP server configured, as an .eml file under the data
//! directory (and a log line), so a local server works without one.

use super::smtp::{SmtpSender, SmtpServer};
use lettre::Message;
use lettre::message::header::ContentType;
use lettre::message::header::{HeaderName, HeaderValue};
use lettre::message::{Attachment, Mailbox, MultiPart, SinglePart};
use std::path::PathBuf;

pub enum Mailer {
    Smtp(Box<SmtpSender>),
    Files(PathBuf),
}

impl Mailer {
    pub fn new(config: &crate::config::Config) -> Result<Mailer, String> {
        Ok(match &config.mail.smtp_url {
            Some(url) => Mailer::Smtp(Box::new(SmtpSender::new(SmtpServer::from_url(
                url,
                config.mail.smtp_timeout_secs,
            )?))),
            None => Mailer::Files(config.data_dir.join("mail")),
        })
    }

    pub fn is_smtp(&self) -> bool {
        matches!(self, Mailer::Smtp(_))
    }

    /// Ends what `send` keeps open between mails (an SMTP connection).
    pub fn close(&self) {
        if let Mailer::Smtp(smtp) = self {
            smtp.close();
        }
    }

    /// Hands the message over; `file_stem` names it in the file backend.
    pub fn send(&self, message: &Message, file_stem: &str) -> Result<(), String> {
        match self {
            Mailer::Smtp(smtp) => smtp.send(message),
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
    /// The mail's own reply address (`inbound::address`), when replying
    /// to it plays.
    pub reply_to: Option<&'a str>,
    /// An answer to a mail: marked `Auto-Submitted: auto-replied` (RFC
    /// 3834), so that the reader's own robots do not answer it.
    pub auto_reply: bool,
}

/// An image the HTML part shows by its Content-ID (`cid:` URL).
pub struct InlineImage {
    pub content_id: String,
    pub png: Vec<u8>,
}

/// The message: plain text and HTML as alternatives, the HTML with its
/// `images` beside it in a multipart/related part when there are any.
pub fn compose(
    envelope: Envelope,
    text: String,
    html: String,
    images: Vec<InlineImage>,
) -> Result<Message, String> {
    let to: Mailbox = envelope
        .to
        .parse()
        .map_err(|e| format!("recipient `{}`: {e}", envelope.to))?;
    let mut builder = Message::builder()
        .from(envelope.from.clone())
        .to(to)
        .subject(envelope.subject)
        .message_id(Some(envelope.message_id));
    if let Some(reply_to) = envelope.reply_to {
        let mailbox: Mailbox = reply_to
            .parse()
            .map_err(|e| format!("reply address `{reply_to}`: {e}"))?;
        builder = builder.reply_to(mailbox);
    }
    if let Some(root) = envelope.thread {
        builder = builder.in_reply_to(root.clone()).references(root);
    }
    let body = if images.is_empty() {
        MultiPart::alternative_plain_html(text, html)
    } else {
        let png = ContentType::parse("image/png").map_err(|e| e.to_string())?;
        let related = images.into_iter().fold(
            MultiPart::related().singlepart(SinglePart::html(html)),
            |related, image| {
                related.singlepart(
                    Attachment::new_inline(image.content_id).body(image.png, png.clone()),
                )
            },
        );
        MultiPart::alternative()
            .singlepart(SinglePart::plain(text))
            .multipart(related)
    };
    let mut message = builder.multipart(body).map_err(|e| e.to_string())?;
    message.headers_mut().insert_raw(HeaderValue::new(
        HeaderName::new_from_ascii_str("List-Unsubscribe"),
        format!("<{}>", envelope.settings_url),
    ));
    if envelope.auto_reply {
        message.headers_mut().insert_raw(HeaderValue::new(
            HeaderName::new_from_ascii_str("Auto-Submitted"),
            "auto-replied".into(),
        ));
    }
    Ok(message)
}
