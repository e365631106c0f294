//! The `hexpost` command: the server and its tools.

mod cli;

fn main() -> std::process::ExitCode {
    cli::run()
}
