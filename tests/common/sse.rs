//! A client of the live event streams (server-sent events), read on a
//! thread of its own.

use super::Api;
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

/// One server-sent event: its `event`, `id` and `data` fields; a comment
/// (heartbeat) comes as event `:`.
#[derive(Debug, Clone)]
pub struct Sse {
    pub event: String,
    pub id: Option<i64>,
    pub data: Value,
}

/// An open stream, read on a thread of its own; dropping it closes it.
pub struct Stream {
    pub events: Receiver<Sse>,
    pub status: u16,
    pub body: Value,
}

pub const WAIT: Duration = Duration::from_secs(20);

/// Heartbeats, which also make a game stream read the log again, far
/// apart: an event that arrives within `WAIT` was signalled.
pub const SIGNALS_ONLY: (&str, &str) = ("STREAM_HEARTBEAT_SECS", "600");

pub fn open(api: &Api, path: &str, last_event_id: Option<i64>) -> Stream {
    let mut req = api
        .http
        .get(format!("{}{path}", api.base))
        .timeout(Duration::from_secs(120))
        .bearer_auth(api.token.as_deref().unwrap_or_default());
    if let Some(id) = last_event_id {
        req = req.header("Last-Event-ID", id.to_string());
    }
    let response = req.send().unwrap();
    let status = response.status().as_u16();
    let (tx, events) = channel();
    if status != 200 {
        let body = response.json().unwrap_or(Value::Null);
        return Stream {
            events,
            status,
            body,
        };
    }
    assert_eq!(
        response.headers()["content-type"],
        "text/event-stream",
        "{path}"
    );
    std::thread::spawn(move || {
        let mut current = Sse {
            event: String::new(),
            id: None,
            data: Value::Null,
        };
        for line in BufReader::new(response).lines() {
            let Ok(line) = line else { return };
            if line.is_empty() {
                if tx.send(current.clone()).is_err() {
                    return;
                }
                current = Sse {
                    event: String::new(),
                    id: None,
                    data: Value::Null,
                };
            } else if line.starts_with(':') {
                current.event = ":".into();
            } else if let Some(v) = line.strip_prefix("event: ") {
                current.event = v.into();
            } else if let Some(v) = line.strip_prefix("id: ") {
                current.id = Some(v.parse().unwrap());
            } else if let Some(v) = line.strip_prefix("data: ") {
                current.data = serde_json::from_str(v).unwrap();
            }
        }
    });
    Stream {
        events,
        status,
        body: Value::Null,
    }
}

impl Stream {
    /// The next event that is not a heartbeat.
    pub fn next(&self) -> Sse {
        loop {
            let e = self.events.recv_timeout(WAIT).expect("an event in time");
            if e.event != ":" {
                return e;
            }
        }
    }

    /// The next `n` moves.
    pub fn moves(&self, n: usize) -> Vec<Sse> {
        (0..n)
            .map(|_| {
                let e = self.next();
                assert_eq!(e.event, "move", "{e:?}");
                e
            })
            .collect()
    }

    /// Nothing but heartbeats for `quiet`.
    pub fn assert_quiet(&self, quiet: Duration) {
        let until = std::time::Instant::now() + quiet;
        loop {
            let left = until.saturating_duration_since(std::time::Instant::now());
            match self.events.recv_timeout(left) {
                Ok(e) if e.event == ":" => continue,
                Ok(e) => panic!("unexpected event {e:?}"),
                Err(RecvTimeoutError::Timeout) => return,
                Err(RecvTimeoutError::Disconnected) => panic!("the stream closed"),
            }
        }
    }
}

pub fn game_stream(api: &Api, id: &str, last: Option<i64>) -> Stream {
    let s = open(api, &format!("/api/v1/games/{id}/stream"), last);
    assert_eq!(s.status, 200, "{}", s.body);
    s
}
