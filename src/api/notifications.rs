//! The caller's notification setting: the target of the settings link in
//! every mail.

use crate::api::caller::AuthUser;
use crate::api::json::Json;
use crate::api::problem::Problem;
use crate::app::{AppState, Db};
use crate::error::Error;
use crate::store::users::{self, notify};
use actix_web::{HttpResponse, get, put, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// `every_move`: a mail whenever a decision of yours is awaited; `digest`:
/// one mail a day at your digest hour listing every game that waits for
/// you; `off`: no game mails. Reminders before a deadline and what a
/// timeout did reach `every_move` and `digest` alike.
#[derive(Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
#[schema(example = "every_move")]
pub enum Notify {
    EveryMove,
    Digest,
    Off,
}

impl Notify {
    fn stored(self) -> &'static str {
        match self {
            Notify::EveryMove => notify::EVERY_MOVE,
            Notify::Digest => notify::DIGEST,
            Notify::Off => notify::OFF,
        }
    }

    fn from_stored(value: &str) -> Notify {
        match value {
            notify::DIGEST => Notify::Digest,
            notify::OFF => Notify::Off,
            _ => Notify::EveryMove,
        }
    }
}

/// Quiet hours in the person's time zone, `HH:MM` to `HH:MM` (the window
/// may wrap past midnight; equal times make an empty one); mails that fall
/// in them wait until they end.
#[derive(Serialize, Deserialize, ToSchema, Debug, Clone, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"start": "22:00", "end": "07:30"}))]
pub struct QuietHours {
    #[schema(pattern = "^([01][0-9]|2[0-3]):[0-5][0-9]$")]
    pub start: String,
    #[schema(pattern = "^([01][0-9]|2[0-3]):[0-5][0-9]$")]
    pub end: String,
}

#[derive(Serialize, ToSchema, Debug)]
#[schema(example = json!({"notify": "every_move", "time_zone": "Europe/Berlin",
    "quiet_hours": {"start": "22:00", "end": "07:30"}, "digest_hour": 8}))]
pub struct NotificationSettings {
    pub notify: Notify,
    /// An IANA time zone name, one of `GET /api/v1/time-zones`; quiet
    /// hours, the digest hour and the times in mails are in it. Default
    /// `UTC`.
    #[schema(example = "Europe/Berlin")]
    pub time_zone: String,
    pub quiet_hours: Option<QuietHours>,
    /// The local hour (0 to 23) the daily digest goes out. Default 8.
    pub digest_hour: u8,
}

/// A change of settings: fields left out (or null) keep their value, so
/// `{}` changes nothing; only `quiet_hours: null` removes something (the
/// quiet hours).
#[derive(Deserialize, ToSchema, Debug)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"notify": "digest", "time_zone": "America/New_York", "digest_hour": 7}))]
pub struct SettingsChange {
    pub notify: Option<Notify>,
    /// An IANA time zone name, one of `GET /api/v1/time-zones`.
    #[schema(example = "Europe/Berlin")]
    pub time_zone: Option<String>,
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<QuietHours>)]
    pub quiet_hours: Option<Option<QuietHours>>,
    #[serde(default, deserialize_with = "crate::service::whole_numbers::optional")]
    #[schema(minimum = 0, maximum = 23)]
    pub digest_hour: Option<u8>,
}

/// The time zone names the server knows (its compiled-in tz database),
/// for `time_zone` in the notification settings: canonical names and
/// their aliases, sorted.
#[utoipa::path(tag = "accounts", operation_id = "time_zones", responses(
    (status = 200, body = Vec<String>, example = json!(["Africa/Abidjan", "America/New_York", "Europe/Berlin", "UTC"])),
))]
#[get("/time-zones")]
pub async fn time_zones() -> HttpResponse {
    let names: Vec<&str> = crate::mail::schedule::zone_names()
        .iter()
        .map(|n| n.as_str())
        .collect();
    HttpResponse::Ok()
        .insert_header((
            actix_web::http::header::CACHE_CONTROL,
            "public, max-age=86400",
        ))
        .json(names)
}

/// Tells a field sent as `null` (Some(None)) from one left out (None).
fn present<'de, D, T>(d: D) -> Result<Option<Option<T>>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(d).map(Some)
}

fn minutes(hhmm: &str) -> Option<i32> {
    let (h, m) = hhmm.split_once(':')?;
    if h.len() != 2 || m.len() != 2 {
        return None;
    }
    let (h, m): (i32, i32) = (h.parse().ok()?, m.parse().ok()?);
    ((0..24).contains(&h) && (0..60).contains(&m)).then_some(h * 60 + m)
}

fn hhmm(minutes: i32) -> String {
    format!("{:02}:{:02}", minutes / 60, minutes % 60)
}

impl NotificationSettings {
    fn of(s: &users::MailSettings) -> NotificationSettings {
        NotificationSettings {
            notify: Notify::from_stored(&s.notify),
            time_zone: s.time_zone.clone(),
            quiet_hours: s.quiet_start.zip(s.quiet_end).map(|(a, b)| QuietHours {
                start: hhmm(a),
                end: hhmm(b),
            }),
            digest_hour: s.digest_hour.clamp(0, 23) as u8,
        }
    }
}

impl SettingsChange {
    /// `current` with this change applied, or why it cannot be.
    fn apply(self, current: &users::MailSettings) -> Result<users::MailSettings, Error> {
        let mut next = current.clone();
        if let Some(n) = self.notify {
            next.notify = n.stored().into();
        }
        if let Some(tz) = self.time_zone {
            if crate::mail::schedule::time_zone(&tz).is_none() {
                return Err(Error::unprocessable(
                    "invalid_time_zone",
                    format!("`{tz}` is not a known IANA time zone name (e.g. Europe/Berlin)"),
                ));
            }
            next.time_zone = tz;
        }
        match self.quiet_hours {
            None => {}
            Some(None) => (next.quiet_start, next.quiet_end) = (None, None),
            Some(Some(q)) => {
                let (Some(a), Some(b)) = (minutes(&q.start), minutes(&q.end)) else {
                    return Err(Error::unprocessable(
                        "invalid_quiet_hours",
                        "quiet hours are `HH:MM` from 00:00 to 23:59",
                    ));
                };
                (next.quiet_start, next.quiet_end) = (Some(a), Some(b));
            }
        }
        if let Some(h) = self.digest_hour {
            if h > 23 {
                return Err(Error::unprocessable(
                    "invalid_digest_hour",
                    "digest_hour is 0 to 23",
                ));
            }
            next.digest_hour = i32::from(h);
        }
        Ok(next)
    }
}

/// My notification settings.
#[utoipa::path(tag = "accounts", security(("bearer" = [])), responses(
    (status = 200, body = NotificationSettings),
    (status = 401, body = Problem, content_type = "application/problem+json"),
))]
#[get("/account/notifications")]
pub async fn get_settings(
    state: web::Data<AppState>,
    user: AuthUser,
) -> Result<HttpResponse, Error> {
    let u = state
        .db(move |conn| users::by_id(conn, user.id).map_err(Error::from))
        .await?
        .ok_or_else(|| Error::unauthorized("the account no longer exists"))?;
    Ok(HttpResponse::Ok().json(NotificationSettings::of(&u.mail_settings())))
}

/// Changes my notification settings; fields left out keep their value.
#[utoipa::path(tag = "accounts", security(("bearer" = [])), request_body = SettingsChange, responses(
    (status = 200, body = NotificationSettings),
    (status = 401, body = Problem, content_type = "application/problem+json"),
    (status = 422, description = "Unknown time zone, bad quiet hours or digest hour", body = Problem, content_type = "application/problem+json"),
))]
#[put("/account/notifications")]
pub async fn put_settings(
    state: web::Data<AppState>,
    user: AuthUser,
    body: Json<SettingsChange>,
) -> Result<HttpResponse, Error> {
    let change = body.into_inner();
    let saved = state
        .db(move |conn| {
            crate::store::write_tx(conn, |conn| {
                let u = users::by_id(conn, user.id)?
                    .ok_or_else(|| Error::unauthorized("the account no longer exists"))?;
                let next = change.apply(&u.mail_settings())?;
                users::set_mail_settings(conn, user.id, &next)?;
                Ok(next)
            })
        })
        .await?;
    Ok(HttpResponse::Ok().json(NotificationSettings::of(&saved)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn current() -> users::MailSettings {
        users::MailSettings {
            notify: "every_move".into(),
            time_zone: "UTC".into(),
            quiet_start: None,
            quiet_end: None,
            digest_hour: 8,
        }
    }

    fn change(json: &str) -> Result<users::MailSettings, Error> {
        serde_json::from_str::<SettingsChange>(json)
            .unwrap()
            .apply(&current())
    }

    #[test]
    fn left_out_fields_keep_their_value_and_null_clears_quiet_hours() {
        assert_eq!(change("{}").unwrap(), current());
        // Equal times are an empty window, taken as given.
        let empty = change(r#"{"quiet_hours": {"start": "08:00", "end": "08:00"}}"#).unwrap();
        assert_eq!((empty.quiet_start, empty.quiet_end), (Some(480), Some(480)));
        assert_eq!(
            change(r#"{"notify": null, "time_zone": null}"#).unwrap(),
            current()
        );
        let next = change(r#"{"quiet_hours": {"start": "22:00", "end": "07:30"}}"#).unwrap();
        assert_eq!(
            (next.quiet_start, next.quiet_end),
            (Some(22 * 60), Some(7 * 60 + 30))
        );
        assert_eq!(next.notify, "every_move");
        let cleared = serde_json::from_str::<SettingsChange>(r#"{"quiet_hours": null}"#)
            .unwrap()
            .apply(&next)
            .unwrap();
        assert_eq!((cleared.quiet_start, cleared.quiet_end), (None, None));
        assert_eq!(
            NotificationSettings::of(&next).quiet_hours.unwrap().end,
            "07:30"
        );
    }

    #[test]
    fn bad_values_are_refused_with_their_code() {
        for (json, code) in [
            (r#"{"time_zone": "Mars/Olympus"}"#, "invalid_time_zone"),
            (
                r#"{"quiet_hours": {"start": "24:00", "end": "07:00"}}"#,
                "invalid_quiet_hours",
            ),
            (
                r#"{"quiet_hours": {"start": "7:00", "end": "08:00"}}"#,
                "invalid_quiet_hours",
            ),
            (r#"{"digest_hour": 24}"#, "invalid_digest_hour"),
        ] {
            assert_eq!(change(json).unwrap_err().code, code, "{json}");
        }
    }
}
