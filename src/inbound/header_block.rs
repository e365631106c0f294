//! The reply's header block, checked line by line before anything reads
//! it. Mail parsers differ on what ends a header block and what a field
//! name may hold: a line without a colon ends mail-auth's block but not
//! mail-parser's, so a forger could put a second `From:` where only the
//! parser that picks the sender sees it. A message whose header is not
//! plainly RFC 5322 (every line a field or the continuation of one, field
//! names of printable ASCII, no control characters, one `From:` with one
//! address) is refused before either parser is asked, and every later
//! step reads the one parse that passed this check.

/// Why a header block is refused, for the admin's record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Malformed(pub String);

/// Fields a message may have at most once (RFC 5322 §3.6) whose doubles
/// would let two readers see two different senders or messages.
const SINGLE: &[&str] = &[
    "from",
    "sender",
    "reply-to",
    "to",
    "cc",
    "message-id",
    "subject",
];

/// Checks the header block of `raw` (up to its first empty line).
pub fn check(raw: &[u8]) -> Result<(), Malformed> {
    let mut counts = [0usize; SINGLE.len()];
    let mut first = true;
    for (index, line) in raw.split(|&b| b == b'\n').enumerate() {
        let line = match line.strip_suffix(b"\r") {
            Some(line) => line,
            None => line,
        };
        if line.is_empty() {
            break;
        }
        let at = index + 1;
        if let Some(bad) = line
            .iter()
            .find(|&&b| (b < 0x20 && b != b'\t') || b == 0x7f)
        {
            return Err(Malformed(format!(
                "header line {at} holds the control character 0x{bad:02x}"
            )));
        }
        if line[0] == b' ' || line[0] == b'\t' {
            if first {
                return Err(Malformed(
                    "the header starts with a continuation line".into(),
                ));
            }
            continue;
        }
        first = false;
        let Some(colon) = line.iter().position(|&b| b == b':') else {
            return Err(Malformed(format!(
                "header line {at} is neither a field nor the continuation of one"
            )));
        };
        let name = &line[..colon];
        if name.is_empty() || !name.iter().all(|&b| (0x21..=0x7e).contains(&b)) {
            return Err(Malformed(format!(
                "header line {at} has a field name that is not printable ASCII"
            )));
        }
        if let Some(slot) = SINGLE
            .iter()
            .position(|single| name.eq_ignore_ascii_case(single.as_bytes()))
        {
            counts[slot] += 1;
            if counts[slot] > 1 {
                return Err(Malformed(format!(
                    "the header has more than one {} field",
                    SINGLE[slot]
                )));
            }
        }
    }
    if counts[0] == 0 {
        return Err(Malformed("the header has no From field".into()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(raw: &str) -> bool {
        check(raw.as_bytes()).is_ok()
    }

    #[test]
    fn a_plain_header_passes() {
        assert!(ok(
            "From: Ann <ann@example.org>\r\nTo: move+x@r.example\r\nSubject: Re: your move\r\n \
             (continued)\r\nX-Mailer:\tAny\r\n\r\nR\r\nbody lines: anything\x0c\r\n"
        ));
        assert!(ok("From: ann@example.org\nSubject: Ré: à toi\n\nR\n"));
        assert!(ok("From: ann@example.org\r\n"));
    }

    #[test]
    fn lines_that_parsers_read_differently_are_refused() {
        for raw in [
            "From: m@evil.example\r\nX-Note\r\nFrom: v@example.org\r\n\r\nR",
            "From: m@evil.example\r\nX\x0cNote: y\r\nTo: a@b\r\n\r\nR",
            "From: m@evil.example\r\nX Note: y\r\n\r\nR",
            "From: m@evil.example\r\n: y\r\n\r\nR",
            " From: m@evil.example\r\n\r\nR",
            "From: m@evil.example\rTo: x@y\r\n\r\nR",
            "From: m@evil.example\r\nMessage-ID: <a\0b@x>\r\n\r\nR",
            "From: m@evil.example\r\nSubject: \x7f\r\n\r\nR",
        ] {
            assert!(!ok(raw), "{raw:?}");
        }
    }

    #[test]
    fn doubled_sender_fields_and_no_sender_are_refused() {
        assert_eq!(
            check(b"From: a@x.example\r\nfrom: b@y.example\r\n\r\nR"),
            Err(Malformed("the header has more than one from field".into()))
        );
        assert!(!ok("From: a@x\r\nSender: b@x\r\nSENDER: c@x\r\n\r\nR"));
        assert!(!ok(
            "From: a@x\r\nMessage-ID: <1@x>\r\nMessage-Id: <2@x>\r\n\r\nR"
        ));
        assert!(!ok("To: a@x\r\n\r\nR"));
    }

    #[test]
    fn the_body_is_not_read() {
        assert!(ok("From: a@x\r\n\r\nX-Note\r\nFrom: b@y\r\n\0"));
    }
}
