//! When a mail to a person may go out, in their own time zone: not during
//! their quiet hours, and their daily digest at their chosen hour. Also how
//! a time reads in their mails.

use crate::store::users::User;
use jiff::Timestamp;
use jiff::civil::{Date, Time};
use jiff::tz::TimeZone;
use std::sync::LazyLock;

/// A person's local time rules.
#[derive(Clone, Debug)]
pub struct LocalTime {
    tz: TimeZone,
    /// Quiet hours as minutes after midnight, `[start, end)`; the window
    /// may wrap past midnight (22:00–07:00).
    quiet: Option<(i32, i32)>,
    digest_hour: i32,
}

/// Every IANA time zone name the server knows (from the tz database
/// compiled into it), sorted; the OpenAPI document lists them.
pub fn zone_names() -> &'static [String] {
    static NAMES: LazyLock<Vec<String>> = LazyLock::new(|| {
        let mut names: Vec<String> = jiff::tz::db()
            .available()
            .map(|n| n.as_str().to_string())
            .collect();
        names.sort();
        names.dedup();
        names
    });
    &NAMES
}

/// Looks up an IANA time zone name (`Europe/Berlin`, `UTC`), exactly as
/// the database spells it.
pub fn time_zone(name: &str) -> Option<TimeZone> {
    zone_names()
        .binary_search_by(|n| n.as_str().cmp(name))
        .ok()?;
    TimeZone::get(name).ok()
}

impl LocalTime {
    pub fn of(user: &User) -> LocalTime {
        LocalTime {
            // A name that no longer resolves (the tz database dropped it)
            // falls back to UTC rather than losing the mail.
            tz: time_zone(&user.time_zone).unwrap_or(TimeZone::UTC),
            quiet: user.quiet_start.zip(user.quiet_end),
            digest_hour: user.digest_hour.clamp(0, 23),
        }
    }

    /// The earliest time at or after `at` outside the quiet hours.
    pub fn deliver_at(&self, at: i64) -> i64 {
        let Some((start, end)) = self.quiet else {
            return at;
        };
        let Some(local) = self.zoned(at) else {
            return at;
        };
        let minute = i32::from(local.hour()) * 60 + i32::from(local.minute());
        let quiet = if start <= end {
            (start..end).contains(&minute)
        } else {
            minute >= start || minute < end
        };
        if !quiet {
            return at;
        }
        self.next_local(at, end).unwrap_or(at)
    }

    /// The next digest time strictly after `at`, and its local date (one
    /// digest per person and day).
    pub fn next_digest(&self, at: i64) -> (i64, String) {
        let when = self.next_local(at, self.digest_hour * 60).unwrap_or(at);
        let date = self
            .zoned(when)
            .map(|z| z.date().to_string())
            .unwrap_or_default();
        (when, date)
    }

    /// A time as it reads in a mail: `Mon 2026-11-23 18:00 CET`.
    pub fn format(&self, at: i64) -> String {
        match self.zoned(at) {
            Some(z) => z.strftime("%a %Y-%m-%d %H:%M %Z").to_string(),
            None => format!("{at} ms after 1970"),
        }
    }

    fn zoned(&self, at: i64) -> Option<jiff::ZonedDateTime> {
        Some(
            Timestamp::from_millisecond(at)
                .ok()?
                .to_zoned_datetime(self.tz.clone()),
        )
    }

    /// The first local `minute_of_day` (today or tomorrow) after `at`. In a
    /// daylight-saving gap the clock time is taken as the offset before it
    /// would say, the usual reading.
    fn next_local(&self, at: i64, minute_of_day: i32) -> Option<i64> {
        let local = self.zoned(at)?;
        let time = Time::new((minute_of_day / 60) as i8, (minute_of_day % 60) as i8, 0, 0).ok()?;
        let on = |date: Date| -> Option<i64> {
            Some(
                date.to_datetime(time)
                    .to_zoned_datetime(self.tz.clone())
                    .ok()?
                    .timestamp()
                    .as_millisecond(),
            )
        };
        let today = on(local.date())?;
        if today > at {
            Some(today)
        } else {
            on(local.date().tomorrow().ok()?)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn person(tz: &str, quiet: Option<(i32, i32)>, digest_hour: i32) -> LocalTime {
        LocalTime {
            tz: time_zone(tz).unwrap(),
            quiet,
            digest_hour,
        }
    }

    fn ms(s: &str) -> i64 {
        s.parse::<Timestamp>().unwrap().as_millisecond()
    }

    #[test]
    fn quiet_hours_wrapping_midnight_hold_mail_until_they_end() {
        // 22:00–07:00 in Berlin (UTC+1 in November).
        let p = person("Europe/Berlin", Some((22 * 60, 7 * 60)), 8);
        let late = ms("2026-11-23T22:30:00Z"); // 23:30 local
        assert_eq!(p.deliver_at(late), ms("2026-11-24T06:00:00Z"));
        let early = ms("2026-11-24T03:00:00Z"); // 04:00 local
        assert_eq!(p.deliver_at(early), ms("2026-11-24T06:00:00Z"));
        let day = ms("2026-11-24T12:00:00Z");
        assert_eq!(p.deliver_at(day), day);
        // The end itself is no longer quiet.
        assert_eq!(
            p.deliver_at(ms("2026-11-24T06:00:00Z")),
            ms("2026-11-24T06:00:00Z")
        );
    }

    #[test]
    fn quiet_hours_within_a_day() {
        let p = person("UTC", Some((12 * 60, 13 * 60 + 30)), 8);
        assert_eq!(
            p.deliver_at(ms("2026-11-23T12:10:00Z")),
            ms("2026-11-23T13:30:00Z")
        );
        assert_eq!(
            p.deliver_at(ms("2026-11-23T11:59:00Z")),
            ms("2026-11-23T11:59:00Z")
        );
        let none = person("UTC", None, 8);
        assert_eq!(none.deliver_at(5), 5);
        // Equal times make an empty window: nothing is held.
        let empty = person("UTC", Some((12 * 60, 12 * 60)), 8);
        let noon = ms("2026-11-23T12:00:00Z");
        assert_eq!(empty.deliver_at(noon), noon);
    }

    #[test]
    fn the_digest_goes_out_at_the_next_local_digest_hour() {
        let p = person("America/New_York", None, 8);
        // 07:00 local (UTC-5): today at 08:00.
        let (at, date) = p.next_digest(ms("2026-11-23T12:00:00Z"));
        assert_eq!(
            (at, date.as_str()),
            (ms("2026-11-23T13:00:00Z"), "2026-11-23")
        );
        // Exactly at 08:00 local: tomorrow's.
        let (at, date) = p.next_digest(ms("2026-11-23T13:00:00Z"));
        assert_eq!(
            (at, date.as_str()),
            (ms("2026-11-24T13:00:00Z"), "2026-11-24")
        );
    }

    #[test]
    fn times_read_in_the_persons_zone() {
        let p = person("Europe/Berlin", None, 8);
        assert_eq!(
            p.format(ms("2026-11-23T17:00:00Z")),
            "Mon 2026-11-23 18:00 CET"
        );
        assert!(time_zone("Not/AZone").is_none());
        // Exactly as listed: the spec's enum is what the server takes.
        assert!(time_zone("europe/berlin").is_none());
        for name in [
            "UTC",
            "Europe/Berlin",
            "America/New_York",
            "Antarctica/Troll",
        ] {
            assert!(zone_names().iter().any(|n| n == name), "{name}");
        }
    }
}
