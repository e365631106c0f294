//! Command-line entry points. Each subcommand lives in its own file.

mod simulate;

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
    /// Play random complete games in-process and check the rules' invariants.
    Simulate(simulate::SimulateArgs),
}

pub fn run() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Simulate(args) => simulate::run(args),
    }
}
