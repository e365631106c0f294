//! Load generator behind `bench/load.sh`: many pairs of random players, each
//! pair an asynchronous task, playing complete games over HTTP against a
//! running server. Only move requests are timed; the views a client
//! fetches to learn whose turn it is are load, not samples.
//!
//! Without `--rate` every client sends its next move as soon as the previous
//! answer arrived (the saturation throughput). With `--rate R` the clients
//! together offer R moves per second on a fixed schedule, and each latency is
//! measured from the moment the move was due, not from when it was sent, so a
//! slow answer also counts against the moves queued behind it.

#[path = "../../tests/common/player.rs"]
mod player;
mod session;

use clap::Parser;
use hdrhistogram::Histogram;
use session::{Pair, Tally};
use std::time::{Duration, Instant};

#[derive(Parser)]
struct Args {
    /// The server's base URL.
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    base: String,
    /// Concurrent clients (each plays one game at a time for two users).
    #[arg(long, default_value_t = 16)]
    clients: usize,
    /// Seconds of measurement, after the warm-up.
    #[arg(long, default_value_t = 30)]
    duration: u64,
    /// Seconds played before measuring starts.
    #[arg(long, default_value_t = 5)]
    warmup: u64,
    /// Total moves per second offered; 0 sends as fast as answers come.
    #[arg(long, default_value_t = 0.0)]
    rate: f64,
    #[arg(long, default_value = "standard")]
    variant: String,
    /// Seeds the players' choices (the games' dice are the server's).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Seconds a request may take before its client gives up. Thousands
    /// of clients registering at once queue for the server's password
    /// hashing, a few at a time.
    #[arg(long, default_value_t = 60)]
    timeout: u64,
    /// Threads the clients are shared out over.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Also print the summary as one JSON line (for scripts).
    #[arg(long)]
    json: bool,
    /// An admin's access token: the players' accounts are made as an
    /// admin makes them (`POST /api/v1/admin/users`), since a registration
    /// exists only once the code mailed to its address is entered.
    #[arg(long, env = "HEXPOST_ADMIN_TOKEN", hide_env_values = true)]
    admin_token: String,
}

fn main() -> std::process::ExitCode {
    let args = Args::parse();
    let run = format!("{:x}", std::process::id() as u64 ^ args.seed << 20);
    let start = Instant::now();
    let measure_from = start + Duration::from_secs(args.warmup);
    let until = measure_from + Duration::from_secs(args.duration);
    let interval =
        (args.rate > 0.0).then(|| Duration::from_secs_f64(args.clients as f64 / args.rate));

    // The clients are tasks, shared out over a few threads with a
    // single-threaded runtime each (like `pgbench -j`): a request then
    // costs no thread hand-off of the generator's own.
    let threads: Vec<_> = (0..args.threads.max(1))
        .map(|t| {
            let mine: Vec<usize> = (0..args.clients)
                .filter(|i| i % args.threads.max(1) == t)
                .collect();
            let (base, variant, run) = (args.base.clone(), args.variant.clone(), run.clone());
            let admin = args.admin_token.clone();
            let (clients, seed, timeout) = (args.clients, args.seed, args.timeout);
            std::thread::spawn(move || {
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .expect("tokio runtime");
                let http = reqwest::Client::builder()
                    .timeout(Duration::from_secs(timeout))
                    .build()
                    .expect("HTTP client");
                let tasks: Vec<_> = mine
                    .into_iter()
                    .map(|i| {
                        let (http, base, variant) = (http.clone(), base.clone(), variant.clone());
                        let admin = admin.clone();
                        let name = format!("load{run}c{i}");
                        let seed = seed.wrapping_mul(1_000_003).wrapping_add(i as u64);
                        // Spread the clients' schedules over one interval.
                        let offset = interval.map(|d| d.mul_f64(i as f64 / clients as f64));
                        runtime.spawn(async move {
                            let mut pair =
                                Pair::register(http, &base, &admin, &name, &variant, seed).await?;
                            pair.play(measure_from, until, interval, offset).await
                        })
                    })
                    .collect();
                runtime.block_on(async {
                    let mut results = Vec::new();
                    for task in tasks {
                        results.push(task.await.expect("client task"));
                    }
                    results
                })
            })
        })
        .collect();

    let mut total = Tally::default();
    let mut failures = Vec::new();
    for thread in threads {
        for result in thread.join().expect("client thread") {
            match result {
                Ok(tally) => total.merge(&tally),
                Err(e) => failures.push(e),
            }
        }
    }
    report(&args, &total);
    for f in &failures {
        eprintln!("client failed: {f}");
    }
    if failures.is_empty() {
        std::process::ExitCode::SUCCESS
    } else {
        std::process::ExitCode::FAILURE
    }
}

fn report(args: &Args, t: &Tally) {
    let secs = args.duration as f64;
    let ms = |h: &Histogram<u64>, q: f64| h.value_at_quantile(q) as f64 / 1000.0;
    let rate = t.moves as f64 / secs;
    let mode = if args.rate > 0.0 {
        format!("offered {:.0} moves/s", args.rate)
    } else {
        "saturation".to_string()
    };
    println!(
        "{mode}: {clients} clients, {secs:.0} s: {moves} moves = {rate:.1} moves/s; \
         latency p50 {p50:.2} ms, p90 {p90:.2} ms, p99 {p99:.2} ms, max {max:.2} ms; \
         {games} games finished, {rejected} moves rejected as illegal",
        clients = args.clients,
        moves = t.moves,
        p50 = ms(&t.latency, 0.50),
        p90 = ms(&t.latency, 0.90),
        p99 = ms(&t.latency, 0.99),
        max = t.latency.max() as f64 / 1000.0,
        games = t.games_finished,
        rejected = t.rejected,
    );
    if args.json {
        println!(
            "{}",
            serde_json::json!({
                "clients": args.clients,
                "seconds": secs,
                "offered_rate": args.rate,
                "moves": t.moves,
                "moves_per_sec": rate,
                "p50_ms": ms(&t.latency, 0.50),
                "p90_ms": ms(&t.latency, 0.90),
                "p99_ms": ms(&t.latency, 0.99),
                "max_ms": t.latency.max() as f64 / 1000.0,
                "games_finished": t.games_finished,
                "rejected": t.rejected,
            })
        );
    }
}
