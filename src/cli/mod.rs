//! Command-line entry points. Each subcommand lives in its own file.

pub mod admin;
pub mod healthcheck;
pub mod mail;
pub mod simulate;

use crate::config::Config;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "hexpost",
    version,
    about = "Play-by-email turn server for two-player Catan variants"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the HTTP server (configuration from the environment; see README).
    Serve,
    /// Run pending database migrations and exit.
    Migrate,
    /// Print the OpenAPI document.
    Openapi,
    /// Exit 0 if the server at HEXPOST_BIND answers GET /readyz with 200, else 1
    /// (a container health check that needs no HTTP client in the image).
    Healthcheck,
    /// Administration: users, verification.
    #[command(subcommand)]
    Admin(admin::AdminCommand),
    /// Mail: `receive` plays a reply read from standard input (an MTA's
    /// pipe transport).
    #[command(subcommand)]
    Mail(mail::MailCommand),
    /// Play random complete games in-process and check the rules' invariants.
    Simulate(simulate::SimulateArgs),
}

pub fn run() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Serve => with_config(|c| crate::server::serve(c).map_err(|e| e.to_string())),
        Command::Migrate => with_config(|c| {
            crate::server::init_logging(c.log_json);
            crate::server::open_store(&c)
                .map(|_| ())
                .map_err(|e| e.to_string())
        }),
        Command::Openapi => print_openapi(),
        Command::Healthcheck => healthcheck::run(),
        Command::Admin(cmd) => with_config(|c| admin::run(c, cmd)),
        Command::Mail(cmd) => mail::run(cmd),
        Command::Simulate(args) => simulate::run(args),
    }
}

/// `hexpost openapi`. A reader that stops early (`| head`) ends the output
/// quietly instead of making the command panic on the closed pipe.
fn print_openapi() -> ExitCode {
    use std::io::Write;
    let doc = crate::openapi::document();
    let text = serde_json::to_string_pretty(&doc).expect("the document serializes");
    let mut out = std::io::stdout().lock();
    match writeln!(out, "{text}").and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hexpost: {e}");
            ExitCode::FAILURE
        }
    }
}

fn with_config(f: impl FnOnce(Config) -> Result<(), String>) -> ExitCode {
    let config = match Config::from_env() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    match f(config) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hexpost: {e}");
            ExitCode::FAILURE
        }
    }
}
