//! The reply's own words: the first lines a player wrote above what their
//! mail program quoted, signed or attached. The text part is read, or the
//! HTML part turned into text when there is no text part; quoting is
//! recognised in the forms Gmail, Outlook, Apple Mail and Thunderbird
//! write it, in text and in HTML.

use mail_parser::decoders::html::html_to_text;
use mail_parser::{Message, PartType};

/// Lines read at most: a reply of commands is a few lines long, and a
/// pasted document is not a list of moves.
pub const MAX_LINES: usize = 40;

/// Where an HTML reply's quote begins, as the common programs mark it
/// (matched without regard to case): Gmail, Outlook (web and desktop),
/// Thunderbird, Apple Mail and any `<blockquote>`.
const HTML_QUOTE_STARTS: &[&str] = &[
    "<div class=\"gmail_quote",
    "<div id=\"appendonsend\"",
    "<div id=\"divrplyfwdmsg\"",
    "<hr id=\"stopspelling\"",
    "<div class=\"moz-cite-prefix\"",
    "<blockquote",
];

/// The reply's text, or None when the message has no text or HTML body.
pub fn reply_text(message: &Message) -> Option<String> {
    let part = message.text_part(0).or_else(|| message.html_part(0))?;
    match &part.body {
        PartType::Text(text) => Some(text.to_string()),
        PartType::Html(html) => Some(html_to_text(before_html_quote(html))),
        _ => None,
    }
}

fn before_html_quote(html: &str) -> &str {
    let lower = html.to_ascii_lowercase();
    let cut = HTML_QUOTE_STARTS
        .iter()
        .filter_map(|marker| lower.find(marker))
        .min()
        .unwrap_or(html.len());
    &html[..cut]
}

/// The non-empty lines above the first quote, quote header, signature or
/// forwarded message, trimmed; at most `MAX_LINES`. A control character
/// (a NUL, which PostgreSQL cannot store, among them) becomes U+FFFD and
/// a tab a space, so
/// the line is refused as a command and quoted in the answer the same way
/// on every database.
pub fn own_lines(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().map(|l| l.trim_end_matches('\r')).collect();
    let mut own = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if ends_reply(line, &lines[i + 1..]) {
            break;
        }
        let line = line.trim();
        if !line.is_empty() {
            own.push(
                line.chars()
                    .map(|c| match c {
                        '\t' => ' ',
                        c if c.is_control() => '\u{fffd}',
                        c => c,
                    })
                    .collect(),
            );
        }
        if own.len() == MAX_LINES {
            break;
        }
    }
    own
}

/// Whether `line` (followed by `next`) starts what the player did not
/// write themselves.
fn ends_reply(line: &str, next: &[&str]) -> bool {
    let trimmed = line.trim();
    let lower = trimmed.to_ascii_lowercase();
    trimmed.starts_with('>')
        // The signature separator, and its trailing space lost in transit.
        || line == "-- "
        || line == "--"
        || lower.starts_with("sent from my ")
        || lower.starts_with("get outlook for ")
        || (trimmed.starts_with("-----") && lower.contains("original message"))
        || lower.starts_with("begin forwarded message")
        || (trimmed.len() >= 20 && trimmed.chars().all(|c| c == '_'))
        || quote_header(&lower, next)
        || outlook_header(&lower, next)
}

/// "On Mon, 23 Nov 2026 at 10:00, hexpost <…> wrote:", which Gmail,
/// Apple Mail and Thunderbird write above the quote, possibly wrapped onto
/// a second line; and its German and French forms.
fn quote_header(lower: &str, next: &[&str]) -> bool {
    let opens = lower.starts_with("on ") || lower.starts_with("am ") || lower.starts_with("le ");
    let closes = |l: &str| {
        let l = l.trim_end();
        l.ends_with("wrote:")
            || (l.contains("schrieb") && l.ends_with(':'))
            || l.ends_with("a écrit :")
    };
    opens
        && (closes(lower)
            || next
                .first()
                .is_some_and(|n| closes(&n.to_lowercase()) && !n.trim().is_empty()))
}

/// Outlook's header block: "From: …" followed within a few lines by
/// "Sent: …" or "Date: …".
fn outlook_header(lower: &str, next: &[&str]) -> bool {
    lower.starts_with("from:")
        && next.iter().take(4).any(|n| {
            let n = n.trim_start().to_ascii_lowercase();
            n.starts_with("sent:") || n.starts_with("date:")
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_own_lines_are_read_and_quotes_left() {
        let cases: &[(&str, &[&str])] = &[
            ("R\nE\n\n> it is your move", &["R", "E"]),
            ("  r  \r\ne\r\n-- \r\nAda\r\n", &["r", "e"]),
            (
                "R\n\nOn Mon, 23 Nov 2026 at 10:00, hexpost <move+abc@play.example.org>\nwrote:\n\n> Hello",
                &["R"],
            ),
            (
                "E\nOn 23 Nov 2026, at 10:00, hexpost <x@y> wrote:\n> Hi",
                &["E"],
            ),
            (
                "R\nE\n\n-----Original Message-----\nFrom: hexpost",
                &["R", "E"],
            ),
            (
                "R\n\n________________________________\nFrom: hexpost <move+x@y>\nSent: Monday\nTo: Ada\nSubject: Your move",
                &["R"],
            ),
            (
                "R\nFrom: hexpost <move+x@y>\nSent: Monday, 23 November\n",
                &["R"],
            ),
            ("R\n-------- Original Message --------\nSubject: x", &["R"]),
            ("E\n\nSent from my iPhone\n\n> quoted", &["E"]),
            (
                "R\nAm 23.11.2026 um 10:00 schrieb hexpost:\n> Hallo",
                &["R"],
            ),
            ("Le 23/11/2026 à 10:00, hexpost a écrit :\n> x", &[]),
        ];
        for (text, expected) in cases {
            assert_eq!(own_lines(text), *expected, "{text:?}");
        }
    }

    #[test]
    fn a_line_that_only_starts_like_a_header_is_kept() {
        assert_eq!(
            own_lines("On second thought\nE"),
            ["On second thought", "E"]
        );
        assert_eq!(own_lines("from: me\nR"), ["from: me", "R"]);
    }

    #[test]
    fn control_characters_are_replaced() {
        assert_eq!(own_lines("R\0\nE\u{1b}x\tT"), ["R\u{fffd}", "E\u{fffd}x T"]);
    }

    #[test]
    fn lines_beyond_the_limit_are_not_read() {
        let long = "E\n".repeat(MAX_LINES + 10);
        assert_eq!(own_lines(&long).len(), MAX_LINES);
    }

    #[test]
    fn html_quotes_are_cut_before_the_text_is_read() {
        let gmail = r#"<div dir="ltr">R<br>E</div><br><div class="gmail_quote"><div dir="ltr" class="gmail_attr">On Mon wrote:<br></div><blockquote>S14</blockquote></div>"#;
        assert_eq!(
            own_lines(&html_to_text(before_html_quote(gmail))),
            ["R", "E"]
        );
        let outlook = r#"<div>E</div><div id="appendonsend"></div><hr><div id="divRplyFwdMsg"><b>From:</b> hexpost</div>R"#;
        assert_eq!(own_lines(&html_to_text(before_html_quote(outlook))), ["E"]);
    }
}
