//! A request's body must have arrived within `REQUEST_READ_TIMEOUT_SECS`
//! of its head. actix-web times out a head that is slow to come, but not a
//! body: a client that sent its headers and then trickled or stalled held
//! its connection, a file descriptor and its buffers for ever (3,000 such
//! connections held 175 MB). The deadline counts from the head, so a body
//! sent a byte at a time is cut off as surely as one never sent. A reader
//! of the body then gets `body_timed_out`'s error, which answers `408
//! body_timeout`; the connection is closed after it, since its body was
//! not read to the end.

use crate::app::AppState;
use crate::error::Error;
use actix_web::HttpMessage;
use actix_web::body::MessageBody;
use actix_web::dev::{Payload, ServiceRequest, ServiceResponse};
use actix_web::error::PayloadError;
use actix_web::http::StatusCode;
use actix_web::middleware::Next;
use actix_web::rt::time::{Instant, Sleep, sleep_until};
use actix_web::web::{self, Bytes};
use futures_util::Stream;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

type BoxedPayloadStream = Pin<Box<dyn Stream<Item = Result<Bytes, PayloadError>>>>;

/// Puts the deadline on the body of every request that has one.
pub async fn middleware(
    mut req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let timeout = req
        .app_data::<web::Data<AppState>>()
        .map(|s| s.config.request_read_timeout)
        .ok_or_else(|| Error::internal("app state missing"))?;
    let body = req.take_payload();
    if !matches!(body, Payload::None) {
        let bounded: BoxedPayloadStream = Box::pin(Deadline::new(body, Instant::now() + timeout));
        req.set_payload(Payload::from(bounded));
    }
    next.call(req).await
}

/// A body stream that fails once `deadline` has passed.
struct Deadline {
    body: Payload,
    deadline: Instant,
    /// Made on the first poll that waits: most bodies have arrived whole
    /// by the time a handler reads them, and need no timer.
    timer: Option<Pin<Box<Sleep>>>,
}

impl Deadline {
    fn new(body: Payload, deadline: Instant) -> Deadline {
        Deadline {
            body,
            deadline,
            timer: None,
        }
    }
}

impl Stream for Deadline {
    type Item = Result<Bytes, PayloadError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if let Poll::Ready(item) = Pin::new(&mut self.body).poll_next(cx) {
            return Poll::Ready(item);
        }
        let deadline = self.deadline;
        let timer = self
            .timer
            .get_or_insert_with(|| Box::pin(sleep_until(deadline)));
        match timer.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Some(Err(timed_out()))),
            Poll::Pending => Poll::Pending,
        }
    }
}

fn timed_out() -> PayloadError {
    PayloadError::Io(std::io::Error::new(
        std::io::ErrorKind::TimedOut,
        "the request body did not arrive in time",
    ))
}

/// Whether a body's read failed because its deadline passed.
pub fn is_timeout(e: &PayloadError) -> bool {
    matches!(e, PayloadError::Io(io) if io.kind() == std::io::ErrorKind::TimedOut)
}

/// The answer to a body that did not arrive in time.
pub fn body_timed_out() -> Error {
    Error::new(
        StatusCode::REQUEST_TIMEOUT,
        "body_timeout",
        "Request timeout",
        "the request body did not arrive in time",
    )
}
