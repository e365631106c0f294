//! The `hexpost` command.

fn main() -> std::process::ExitCode {
    hexpost::cli::run()
}
