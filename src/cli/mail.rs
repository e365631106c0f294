//! `hexpost mail receive`: one message from standard input, for an MTA's
//! pipe transport (Postfix `pipe`, Exim `pipe`, a `.forward` or procmail
//! rule). The exit code is what such a transport understands
//! (sysexits.h): the MTA bounces a message refused as data, and keeps and
//! retries one the server could not take now.

use crate::app::AppState;
use crate::config::Config;
use crate::inbound::{self, Kind, Via};
use clap::Subcommand;
use std::io::Read;
use std::process::ExitCode;

/// Taken: played, answered, or ignored on purpose.
const EX_OK: u8 = 0;
/// Refused and not answered by mail (not a reply of a player): the MTA
/// returns it to its sender, and must not retry it.
const EX_DATAERR: u8 = 65;
/// Not taken now (the database is out of reach): the MTA retries later.
const EX_TEMPFAIL: u8 = 75;
/// The configuration is wrong: the MTA keeps the message until it is fixed.
const EX_CONFIG: u8 = 78;

#[derive(Subcommand)]
pub enum MailCommand {
    /// Read one RFC 5322 message from standard input and play it as a reply
    /// to a mail of this server. Exit 0: taken; 65: refused, do not retry;
    /// 75: try again later; 78: bad configuration.
    Receive,
}

pub fn run(cmd: MailCommand) -> ExitCode {
    match cmd {
        MailCommand::Receive => ExitCode::from(receive()),
    }
}

fn receive() -> u8 {
    let config = match Config::from_env() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{e}");
            return EX_CONFIG;
        }
    };
    let mut raw = Vec::new();
    if let Err(e) = std::io::stdin().lock().read_to_end(&mut raw) {
        eprintln!("hexpost: reading the message: {e}");
        return EX_TEMPFAIL;
    }
    let pool = match crate::server::open_store(&config) {
        Ok(pool) => pool,
        Err(e) => {
            eprintln!("hexpost: {e}");
            return EX_TEMPFAIL;
        }
    };
    let state = AppState::new(config, pool);
    let taken = actix_web::rt::System::new().block_on(inbound::receive(&state, &raw, Via::Stdin));
    match taken {
        Ok(receipt) => {
            eprintln!(
                "hexpost: {} (game {}, {} applied)",
                receipt.outcome,
                receipt.game_id.as_deref().unwrap_or("-"),
                receipt.applied
            );
            if receipt.kind == Kind::Refused && !receipt.answered {
                EX_DATAERR
            } else {
                EX_OK
            }
        }
        Err(e) => {
            eprintln!("hexpost: not taken now: {}", e.detail);
            EX_TEMPFAIL
        }
    }
}
