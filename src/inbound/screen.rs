//! Mail that no person wrote, which the server never answers, so that two
//! robots cannot keep mailing each other: auto-replies (`Auto-Submitted`
//! other than `no`, RFC 3834), bounces (an empty or `MAILER-DAEMON`
//! return path, a `multipart/report` delivery status notification), and
//! mailing-list or bulk mail (`List-Id`, `Precedence: bulk/list/junk`).

use mail_parser::{Message, MimeHeaders};

/// Why `message` is automatic, or None when a person may have written it.
pub fn automatic(message: &Message) -> Option<&'static str> {
    let header = |name: &str| {
        message
            .header_raw(name)
            .map(|v| v.trim().to_ascii_lowercase())
    };
    if header("Auto-Submitted").is_some_and(|v| !v.starts_with("no")) {
        return Some("auto_submitted");
    }
    if header("X-Autoreply").is_some() || header("X-Autorespond").is_some() {
        return Some("auto_submitted");
    }
    if bounce_return_path(message) {
        return Some("bounce");
    }
    let root = message.root_part();
    if root.content_type().is_some_and(|ct| {
        ct.ctype().eq_ignore_ascii_case("multipart")
            && ct
                .subtype()
                .is_some_and(|s| s.eq_ignore_ascii_case("report"))
    }) {
        return Some("bounce");
    }
    if header("List-Id").is_some() {
        return Some("mailing_list");
    }
    if header("Precedence").is_some_and(|p| matches!(p.as_str(), "bulk" | "list" | "junk")) {
        return Some("mailing_list");
    }
    None
}

fn bounce_return_path(message: &Message) -> bool {
    let Some(raw) = message.header_raw("Return-Path") else {
        return false;
    };
    let path = raw
        .trim()
        .trim_start_matches('<')
        .trim_end_matches('>')
        .trim();
    let local = path.split('@').next().unwrap_or("");
    path.is_empty() || local.eq_ignore_ascii_case("mailer-daemon")
}

#[cfg(test)]
mod tests {
    use super::*;
    use mail_parser::MessageParser;

    fn parse(headers: &str) -> Option<&'static str> {
        let raw = format!("{headers}From: a@example.org\r\nSubject: x\r\n\r\nR\r\n");
        automatic(&MessageParser::default().parse(raw.as_bytes()).unwrap())
    }

    #[test]
    fn robots_are_recognised_and_people_are_not() {
        assert_eq!(parse(""), None);
        assert_eq!(parse("Auto-Submitted: no\r\n"), None);
        assert_eq!(
            parse("Auto-Submitted: auto-replied\r\n"),
            Some("auto_submitted")
        );
        assert_eq!(
            parse("Auto-Submitted: auto-generated\r\n"),
            Some("auto_submitted")
        );
        assert_eq!(parse("Return-Path: <>\r\n"), Some("bounce"));
        assert_eq!(
            parse("Return-Path: <MAILER-DAEMON@mx.example.org>\r\n"),
            Some("bounce")
        );
        assert_eq!(parse("Return-Path: <ada@example.org>\r\n"), None);
        assert_eq!(
            parse("List-Id: <games.lists.example.org>\r\n"),
            Some("mailing_list")
        );
        assert_eq!(parse("Precedence: bulk\r\n"), Some("mailing_list"));
        assert_eq!(parse("Precedence: Junk\r\n"), Some("mailing_list"));
        assert_eq!(parse("Precedence: first-class\r\n"), None);
        assert_eq!(
            parse(
                "MIME-Version: 1.0\r\nContent-Type: multipart/report; report-type=delivery-status; boundary=b\r\n"
            ),
            Some("bounce")
        );
    }
}
