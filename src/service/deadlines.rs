//! Each real seat's clock: the deadline of the decision awaited from it,
//! when its reminder goes out, its vacation, and how many automatic
//! decisions in a row the server has taken for it. Pure bookkeeping over
//! times handed in; the use cases store the result in the game row and the
//! sweeper acts on it.
//!
//! A seat's deadline starts when a decision of its becomes awaited, and
//! again after each decision it makes while still awaited; a seat that
//! stays awaited while the other one acts (both discard, say) keeps its
//! running deadline. Vacation stops a seat's clock: it pushes a running
//! deadline back by its length, and a deadline that starts during it runs
//! from its end.

use crate::config::TurnMailPacing;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub const DAY_MS: i64 = 24 * 3600 * 1000;

#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, Eq)]
pub struct SeatClock {
    /// When the awaited decision times out; None while nothing is awaited.
    pub due_at: Option<i64>,
    /// When the reminder goes out; None once it went, or when none is due.
    pub remind_at: Option<i64>,
    /// The end of the seat's vacation, while it lasts.
    pub vacation_until: Option<i64>,
    /// Vacation the seat may still take, in milliseconds.
    pub vacation_left_ms: i64,
    /// Automatic decisions the server took for this seat since its player
    /// last decided themselves.
    pub auto_in_a_row: u32,
    /// What the "your move" mails need to know, kept here so that a move
    /// need not search the log and the outbox for it. None until the
    /// seat's first own decision (and in games from before it was kept):
    /// then it is looked up once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_mail: Option<TurnMail>,
}

/// A seat's last own decision and last "your move" mail.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TurnMail {
    /// The log row of the player's last own decision (0: none yet).
    pub decided: i64,
    /// The move number the last "your move" mail announced (0: none).
    pub mailed: i64,
    /// What the last mail asked went away before the player answered (an
    /// offer withdrawn): the next decision asked may be mailed, paced.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub went_away: bool,
    /// When the last mail was due to go out (0: not known).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub due_at: i64,
    /// The start of the hour whose follow-ups `in_hour` counts.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub hour_from: i64,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub in_hour: i64,
}

fn is_zero(n: &i64) -> bool {
    *n == 0
}

const HOUR_MS: i64 = 3600 * 1000;

/// When a "your move" mail may go out, and whether it takes the place of
/// the previous one, which has not gone out yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Paced {
    pub not_before: i64,
    pub replaces_pending: bool,
    /// It follows a mail whose question went away unanswered.
    pub follow_up: bool,
}

impl TurnMail {
    /// An earlier "your move" is unanswered while the player has made no
    /// decision of their own since the move it announced, and what it
    /// asked is still asked.
    pub fn unanswered(&self) -> bool {
        self.mailed > 0 && self.decided <= self.mailed && !self.went_away
    }

    /// When a new "your move" mail may go out, queued at `now`; None while
    /// an earlier one is unanswered. A follow-up (a mail after one whose
    /// question went away unanswered) waits `pacing.follow_up_ms` after
    /// it, and past `pacing.follow_ups_per_hour` in an hour until the hour
    /// ends: so offers made and withdrawn in a burst reach the other
    /// player as one mail. A mail still waiting to go out is replaced by
    /// the new one, which tells everything it did. Mails the player asked
    /// for by deciding are not held: the player sets their pace.
    pub fn pace(&self, now: i64, pacing: TurnMailPacing) -> Option<Paced> {
        if self.unanswered() {
            return None;
        }
        let follow_up = self.went_away && self.decided <= self.mailed;
        if self.due_at > now {
            // The new mail takes the waiting one's place, and its time.
            return Some(Paced {
                not_before: self.due_at,
                replaces_pending: true,
                follow_up,
            });
        }
        let mut not_before = now;
        if follow_up {
            if self.due_at > 0 {
                not_before = not_before.max(self.due_at + pacing.follow_up_ms);
            }
            let hour_open = self.hour_from > 0 && now < self.hour_from + HOUR_MS;
            let per_hour = pacing.follow_ups_per_hour;
            if hour_open && per_hour > 0 && self.in_hour >= per_hour {
                not_before = not_before.max(self.hour_from + HOUR_MS);
            }
        }
        Some(Paced {
            not_before,
            replaces_pending: false,
            follow_up,
        })
    }

    /// The marks once a mail announcing move `mailed` is queued, due at
    /// `due_at`, as `paced`.
    pub fn queued(&self, mailed: i64, due_at: i64, paced: Paced) -> TurnMail {
        let (hour_from, in_hour) = if paced.replaces_pending || !paced.follow_up {
            (self.hour_from, self.in_hour)
        } else if self.hour_from > 0 && due_at < self.hour_from + HOUR_MS {
            (self.hour_from, self.in_hour + 1)
        } else {
            (due_at, 1)
        };
        TurnMail {
            decided: self.decided,
            mailed,
            went_away: false,
            due_at,
            hour_from,
            in_hour,
        }
    }
}

/// The two real seats' clocks, as stored in `games.clocks`.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, Eq)]
pub struct Clocks {
    pub seats: [SeatClock; 2],
}

/// How long a decision may take and when its reminder goes out.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub decision_ms: i64,
    /// The reminder goes out when this fraction of the time is left
    /// (0: no reminders).
    pub remind_fraction: f64,
}

/// What the sweeper has to do for one seat at a given time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Due {
    Nothing,
    Reminder,
    Expired,
}

impl Clocks {
    /// The clocks of a game that starts now, each seat with its vacation
    /// allowance.
    pub fn new(vacation_days: i32) -> Clocks {
        let seat = SeatClock {
            vacation_left_ms: i64::from(vacation_days.max(0)) * DAY_MS,
            ..SeatClock::default()
        };
        Clocks {
            seats: [seat.clone(), seat],
        }
    }

    /// Reads the stored column; a game from before deadlines existed has
    /// none stored and starts with fresh clocks.
    pub fn parse(stored: &str, vacation_days: i32) -> Result<Clocks, serde_json::Error> {
        if stored.is_empty() {
            Ok(Clocks::new(vacation_days))
        } else {
            serde_json::from_str(stored)
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("clocks serialize")
    }

    /// Updates the deadlines after decisions were logged at `now`:
    /// `awaited` is who is awaited now, `was_awaited` who was before, and
    /// `decided` the seat whose decision (its own, or one the server took
    /// for it) started this.
    pub fn after_decision(
        &mut self,
        was_awaited: [bool; 2],
        awaited: [bool; 2],
        decided: Option<usize>,
        now: i64,
        limits: Limits,
    ) {
        for (i, clock) in self.seats.iter_mut().enumerate() {
            if !awaited[i] {
                clock.due_at = None;
                clock.remind_at = None;
                if was_awaited[i] && decided != Some(i) {
                    // What the last "your move" asked went away unanswered
                    // (an offer withdrawn, a turn ended): the next decision
                    // awaited gets a mail of its own.
                    if let Some(marks) = &mut clock.turn_mail {
                        marks.went_away = true;
                    }
                }
            } else if !was_awaited[i] || decided == Some(i) || clock.due_at.is_none() {
                let start = match clock.vacation_until {
                    Some(end) if end > now => end,
                    _ => now,
                };
                clock.due_at = Some(start.saturating_add(limits.decision_ms));
                clock.remind_at = limits.reminder_before(start, limits.decision_ms);
            }
        }
    }

    /// No deadline runs any more (the game is over).
    pub fn stop(&mut self) {
        for c in &mut self.seats {
            c.due_at = None;
            c.remind_at = None;
        }
    }

    /// A player's own decision (log row `seq`) ends any run of automatic
    /// ones and answers any "your move" mail before it.
    pub fn decided_themselves(&mut self, seat: usize, seq: i64) {
        if let Some(c) = self.seats.get_mut(seat) {
            c.auto_in_a_row = 0;
            // An unknown earlier mail (None) is answered by this decision
            // all the same, so 0 stands in for it.
            let marks = c.turn_mail.unwrap_or_default();
            c.turn_mail = Some(TurnMail {
                decided: seq,
                went_away: false,
                ..marks
            });
        }
    }

    pub fn due(&self, seat: usize, now: i64) -> Due {
        let c = &self.seats[seat];
        match (c.due_at, c.remind_at) {
            (Some(d), _) if d <= now => Due::Expired,
            (_, Some(r)) if r <= now => Due::Reminder,
            _ => Due::Nothing,
        }
    }

    /// The earliest time the sweeper has anything to do for this game.
    pub fn wake_at(&self) -> Option<i64> {
        self.seats
            .iter()
            .flat_map(|c| [c.due_at, c.remind_at])
            .flatten()
            .min()
    }

    /// Starts (or lengthens) a vacation of `days` for `seat` at `now`,
    /// pushing its running deadline back by as much.
    pub fn start_vacation(
        &mut self,
        seat: usize,
        days: i64,
        now: i64,
    ) -> Result<(), VacationError> {
        let c = &mut self.seats[seat];
        let length = days.checked_mul(DAY_MS).ok_or(VacationError::TooLong)?;
        if days < 1 {
            return Err(VacationError::TooShort);
        }
        if length > c.vacation_left_ms {
            return Err(VacationError::TooLong);
        }
        let start = match c.vacation_until {
            Some(end) if end > now => end,
            _ => now,
        };
        c.vacation_until = Some(start + length);
        c.vacation_left_ms -= length;
        shift(c, length);
        Ok(())
    }

    /// Ends `seat`'s vacation at `now`; the time not taken goes back to its
    /// allowance and comes off its deadline. Returns the time given back.
    pub fn end_vacation(&mut self, seat: usize, now: i64) -> Result<i64, VacationError> {
        let c = &mut self.seats[seat];
        let end = match c.vacation_until {
            Some(end) if end > now => end,
            _ => return Err(VacationError::NotOnVacation),
        };
        let unused = end - now;
        c.vacation_until = None;
        c.vacation_left_ms += unused;
        shift(c, -unused);
        Ok(unused)
    }

    /// Whether `seat` is on vacation at `now`.
    pub fn on_vacation(&self, seat: usize, now: i64) -> bool {
        self.seats[seat].vacation_until.is_some_and(|end| end > now)
    }
}

fn shift(c: &mut SeatClock, by: i64) {
    c.due_at = c.due_at.map(|t| t + by);
    c.remind_at = c.remind_at.map(|t| t + by);
}

impl Limits {
    /// The reminder of a decision whose time runs from `start`.
    fn reminder_before(&self, start: i64, length: i64) -> Option<i64> {
        if self.remind_fraction <= 0.0 || self.remind_fraction >= 1.0 {
            return None;
        }
        let before_deadline = (length as f64 * self.remind_fraction) as i64;
        Some(start + length - before_deadline)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum VacationError {
    #[error("a vacation is at least one day")]
    TooShort,
    #[error("that is more vacation than you have left in this game")]
    TooLong,
    #[error("you are not on vacation in this game")]
    NotOnVacation,
}

/// A seat's clock as every player of the game may see it.
#[derive(Serialize, ToSchema, Debug, Clone, PartialEq, Eq)]
#[schema(example = json!({"seat": 0, "deadline": 1_795_000_000_000_i64, "vacation_until": null,
    "vacation_left_ms": 604_800_000, "automatic_in_a_row": 0}))]
pub struct ClockView {
    pub seat: u8,
    /// When the decision awaited from this seat times out (ms since the
    /// epoch); null while nothing is awaited from it.
    pub deadline: Option<i64>,
    /// The end of this seat's current or latest vacation (in the past once
    /// it is over); null when it took none or ended it early.
    pub vacation_until: Option<i64>,
    /// Vacation this seat may still take in this game, in milliseconds.
    pub vacation_left_ms: i64,
    /// Automatic decisions the server took for this seat in a row.
    pub automatic_in_a_row: u32,
}

impl Clocks {
    pub fn view(&self) -> Vec<ClockView> {
        self.seats
            .iter()
            .enumerate()
            .map(|(i, c)| ClockView {
                seat: i as u8,
                deadline: c.due_at,
                vacation_until: c.vacation_until,
                vacation_left_ms: c.vacation_left_ms,
                automatic_in_a_row: c.auto_in_a_row,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const H: i64 = 3600 * 1000;
    const LIMITS: Limits = Limits {
        decision_ms: 10 * H,
        remind_fraction: 0.25,
    };

    fn started(now: i64) -> Clocks {
        let mut c = Clocks::new(7);
        c.after_decision([false, false], [true, false], None, now, LIMITS);
        c
    }

    #[test]
    fn a_newly_awaited_seat_gets_a_deadline_and_a_reminder() {
        let c = started(1000);
        assert_eq!(c.seats[0].due_at, Some(1000 + 10 * H));
        // A quarter of the time is left at the reminder.
        assert_eq!(c.seats[0].remind_at, Some(1000 + 10 * H - 10 * H / 4));
        assert_eq!(
            c.seats[1],
            SeatClock {
                vacation_left_ms: 7 * DAY_MS,
                ..Default::default()
            }
        );
        assert_eq!(c.wake_at(), c.seats[0].remind_at);
        assert_eq!(c.due(0, 1000 + 8 * H), Due::Reminder);
        assert_eq!(c.due(0, 1000 + 10 * H), Due::Expired);
        assert_eq!(c.due(1, 1000 + 100 * H), Due::Nothing);
    }

    #[test]
    fn each_own_decision_restarts_the_clock_but_waiting_on_the_other_does_not() {
        let mut c = started(0);
        // Seat 0 decides and is still awaited: a fresh deadline.
        c.after_decision([true, false], [true, false], Some(0), 2 * H, LIMITS);
        assert_eq!(c.seats[0].due_at, Some(12 * H));
        // Both must decide; seat 1 decides first: seat 0's clock runs on.
        c.after_decision([true, false], [true, true], Some(0), 3 * H, LIMITS);
        c.after_decision([true, true], [true, false], Some(1), 5 * H, LIMITS);
        assert_eq!(c.seats[0].due_at, Some(13 * H));
        assert_eq!(c.seats[1].due_at, None);
        assert_eq!(c.seats[1].remind_at, None);
    }

    #[test]
    fn no_reminder_when_the_fraction_is_zero() {
        let mut c = Clocks::new(0);
        let limits = Limits {
            remind_fraction: 0.0,
            ..LIMITS
        };
        c.after_decision([false, false], [false, true], None, 0, limits);
        assert_eq!(c.seats[1].remind_at, None);
        assert_eq!(c.wake_at(), Some(10 * H));
    }

    #[test]
    fn vacation_pushes_the_running_deadline_back_and_refunds_what_is_unused() {
        let mut c = started(0);
        c.start_vacation(0, 2, H).unwrap();
        assert_eq!(c.seats[0].due_at, Some(10 * H + 2 * DAY_MS));
        assert_eq!(c.seats[0].vacation_left_ms, 5 * DAY_MS);
        assert!(c.on_vacation(0, H + DAY_MS));
        // Back a day early: the day is refunded and the deadline comes in.
        let refunded = c.end_vacation(0, H + DAY_MS).unwrap();
        assert_eq!(refunded, DAY_MS);
        assert_eq!(c.seats[0].due_at, Some(10 * H + DAY_MS));
        assert_eq!(c.seats[0].vacation_left_ms, 6 * DAY_MS);
        assert_eq!(
            c.end_vacation(0, H + DAY_MS),
            Err(VacationError::NotOnVacation)
        );
    }

    #[test]
    fn a_deadline_that_starts_during_a_vacation_runs_from_its_end() {
        let mut c = Clocks::new(7);
        c.start_vacation(1, 1, 0).unwrap();
        c.after_decision([false, false], [false, true], None, H, LIMITS);
        assert_eq!(c.seats[1].due_at, Some(DAY_MS + 10 * H));
    }

    #[test]
    fn vacation_is_limited_by_the_allowance() {
        let mut c = Clocks::new(3);
        assert_eq!(c.start_vacation(0, 4, 0), Err(VacationError::TooLong));
        assert_eq!(c.start_vacation(0, 0, 0), Err(VacationError::TooShort));
        assert_eq!(
            c.start_vacation(0, i64::MAX, 0),
            Err(VacationError::TooLong)
        );
        c.start_vacation(0, 2, 0).unwrap();
        // A second vacation while on one lengthens it.
        c.start_vacation(0, 1, 0).unwrap();
        assert_eq!(c.seats[0].vacation_until, Some(3 * DAY_MS));
        assert_eq!(c.start_vacation(0, 1, 0), Err(VacationError::TooLong));
    }

    #[test]
    fn a_turn_mail_whose_decision_went_away_no_longer_holds_the_next_back() {
        let mut c = started(0);
        c.seats[1].turn_mail = Some(TurnMail {
            decided: 3,
            mailed: 9,
            ..TurnMail::default()
        });
        // Seat 1 is asked (a trade offered to it), then no longer (seat 0
        // withdrew it): its next decision is mailed again.
        c.after_decision([true, true], [true, false], Some(0), H, LIMITS);
        assert!(!c.seats[1].turn_mail.unwrap().unanswered());
        // While still awaited, the mail stands.
        c.seats[1].turn_mail = Some(TurnMail {
            decided: 3,
            mailed: 9,
            ..TurnMail::default()
        });
        c.after_decision([true, true], [true, true], Some(0), H, LIMITS);
        assert!(c.seats[1].turn_mail.unwrap().unanswered());
    }

    const PACING: TurnMailPacing = TurnMailPacing {
        follow_up_ms: 10 * 60_000,
        follow_ups_per_hour: 4,
    };

    /// The marks after `n` offers made and withdrawn at once, each
    /// queueing a mail to the other player: the due times of the mails.
    fn offers_and_withdrawals(marks: &mut TurnMail, n: usize, at: i64) -> Vec<i64> {
        let mut due = Vec::new();
        for i in 0..n {
            let move_number = 100 + 2 * i as i64;
            let paced = marks.pace(at, PACING).expect("a mail may go out");
            *marks = marks.queued(move_number, paced.not_before, paced);
            due.push(paced.not_before);
            // The offer is withdrawn before the player answers.
            marks.went_away = true;
        }
        due
    }

    #[test]
    fn a_burst_of_offers_and_withdrawals_is_one_mail_now_and_one_later() {
        let mut marks = TurnMail::default();
        let due = offers_and_withdrawals(&mut marks, 55, H);
        let distinct: std::collections::BTreeSet<i64> = due.iter().copied().collect();
        assert_eq!(
            distinct.into_iter().collect::<Vec<_>>(),
            [H, H + PACING.follow_up_ms],
            "the first at once, the rest in one mail that replaces its forerunners"
        );
        assert_eq!(marks.in_hour, 1, "the follow-ups counted");
    }

    #[test]
    fn follow_ups_are_limited_per_hour_and_an_answer_still_holds_the_next() {
        let mut marks = TurnMail::default();
        let mut due = Vec::new();
        let minute = 60_000;
        // Asked and withdrawn every 11 minutes, each mail sent by then.
        for i in 0..6 {
            due.extend(offers_and_withdrawals(&mut marks, 1, H + i * 11 * minute));
        }
        assert_eq!(
            due,
            [0, 11, 22, 33, 44, 71].map(|m| H + m * minute),
            "the first, four follow-ups in the hour from the first of them, the fifth when it ends"
        );
        // Asked, not withdrawn: nothing more until the player decides.
        let mut marks = TurnMail::default();
        let paced = marks.pace(H, PACING).unwrap();
        marks = marks.queued(5, H, paced);
        assert_eq!(marks.pace(2 * H, PACING), None);
        // Answered: the next mail goes at once, however many went before.
        for i in 0..10 {
            marks.decided = 6 + 2 * i;
            let paced = marks.pace(2 * H + i, PACING).unwrap();
            assert_eq!(paced.not_before, 2 * H + i);
            marks = marks.queued(7 + 2 * i, 2 * H + i, paced);
        }
        // No bound set: follow-ups go at once.
        let unbounded = TurnMailPacing {
            follow_up_ms: 0,
            follow_ups_per_hour: 0,
        };
        let mut marks = TurnMail::default();
        for i in 0..10 {
            let paced = marks.pace(H + i, unbounded).unwrap();
            assert_eq!(paced.not_before, H + i);
            marks = marks.queued(100 + i, H + i, paced);
            marks.went_away = true;
        }
    }

    #[test]
    fn marks_stored_before_pacing_read_as_unpaced() {
        let old: TurnMail = serde_json::from_str(r#"{"decided":3,"mailed":9}"#).unwrap();
        assert_eq!(old.due_at, 0);
        assert!(old.unanswered());
        assert_eq!(
            serde_json::to_string(&old).unwrap(),
            r#"{"decided":3,"mailed":9}"#
        );
    }

    #[test]
    fn stored_clocks_round_trip_and_old_games_start_fresh() {
        let c = started(5);
        assert_eq!(Clocks::parse(&c.to_json(), 7).unwrap(), c);
        assert_eq!(Clocks::parse("", 2).unwrap(), Clocks::new(2));
    }

    #[test]
    fn a_turn_mail_is_answered_only_by_a_later_own_decision() {
        let mut c = Clocks::new(7);
        assert_eq!(c.seats[0].turn_mail, None, "unknown until looked up");
        c.decided_themselves(0, 4);
        let marks = c.seats[0].turn_mail.unwrap();
        assert_eq!(
            marks,
            TurnMail {
                decided: 4,
                ..TurnMail::default()
            }
        );
        assert!(!marks.unanswered(), "no mail yet");
        c.seats[0].turn_mail = Some(TurnMail { mailed: 9, ..marks });
        assert!(c.seats[0].turn_mail.unwrap().unanswered());
        // The server deciding for the seat answers nothing; its own does.
        c.after_decision([true, false], [false, true], Some(0), H, LIMITS);
        assert!(c.seats[0].turn_mail.unwrap().unanswered());
        c.decided_themselves(0, 12);
        assert_eq!(
            c.seats[0].turn_mail,
            Some(TurnMail {
                decided: 12,
                mailed: 9,
                ..TurnMail::default()
            })
        );
        assert!(!c.seats[0].turn_mail.unwrap().unanswered());
        // Kept with the clocks; games stored without it read as unknown.
        assert_eq!(Clocks::parse(&c.to_json(), 7).unwrap(), c);
        assert!(!Clocks::new(7).to_json().contains("turn_mail"));
    }
}
