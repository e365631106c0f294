//! Reply mail coming in: the transports that receive it and the check of
//! who sent it.

pub mod authenticity;
pub mod transport;

/// How a message reached the server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Via {
    Smtp,
    Lmtp,
    Imap,
    Stdin,
}
