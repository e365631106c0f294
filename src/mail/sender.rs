//! Composing a message and delivering it: over SMTP (`mail::smtp`), or,
//! with no SMTP server configured, as an .eml file under the data
//! directory (and a log line), so a local server works without one.

use super::smtp::{SmtpSender, SmtpServer};
use base64::Engine;
use lettre::Message;
use lettre::message::header::{ContentTransferEncoding, ContentType};
use lettre::message::header::{HeaderName, HeaderValue};
use lettre::message::{Attachment, Body, Mailbox, MultiPart, SinglePart};
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
                    Attachment::new_inline(image.content_id).body(base64(&image.png), png.clone()),
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

/// The characters of a base64 line in a body (RFC 2045 §6.8).
const BASE64_LINE: usize = 76;

/// `bytes` as lettre's `Body::new` encodes binary data: base64 in lines of
/// 76 characters joined by CRLF, the last one without. lettre encodes each
/// line's 57 bytes on its own and writes it through `fmt::Write`, some
/// 60,000 instructions a picture more than encoding the whole at once
/// (docs/performance.md); 57 bytes being whole groups of three, cutting
/// the whole's encoding gives the same lines.
fn base64(bytes: &[u8]) -> Body {
    let flat = base64::engine::general_purpose::STANDARD.encode(bytes);
    let mut lines = Vec::with_capacity(flat.len() + flat.len() / BASE64_LINE * 2);
    for (i, line) in flat.as_bytes().chunks(BASE64_LINE).enumerate() {
        if i > 0 {
            lines.extend_from_slice(b"\r\n");
        }
        lines.extend_from_slice(line);
    }
    Body::dangerous_pre_encoded(lines, ContentTransferEncoding::Base64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn images_are_encoded_as_lettre_encodes_binary_bodies() {
        // Around the line's 57 bytes and its multiples, and a picture's size.
        let lengths = (1..=200).chain([57 * 40 - 1, 57 * 40, 57 * 40 + 1, 21_574]);
        for len in lengths {
            // Binary from the first byte, as a PNG's signature is.
            let bytes: Vec<u8> = (0..len).map(|i| (i * 131 + 0x89) as u8).collect();
            let ours = base64(&bytes);
            let lettres = Body::new(bytes);
            assert_eq!(lettres.encoding(), ContentTransferEncoding::Base64);
            assert_eq!(ours.encoding(), lettres.encoding());
            assert_eq!(ours.as_ref(), lettres.as_ref(), "{len} bytes");
        }
    }
}
