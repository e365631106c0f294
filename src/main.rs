//! The `hexpost` command.

// A request allocates and frees many small buffers on whichever blocking
// thread runs it; glibc's allocator spent about a tenth of the server's
// CPU time on that under load (docs/performance.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    hexpost::cli::run()
}
