//! `hexpost simulate`: random playouts with invariant checks, printing one
//! JSON line of figures. Exits non-zero naming the seed and action index of
//! the first violation, so it replays.

use clap::Args;
use hexpost_engine::sim::{self, Checks, Tally};
use hexpost_engine::{GameConfig, Variant};
use std::process::ExitCode;
use std::time::Instant;

#[derive(Args)]
pub struct SimulateArgs {
    /// Variant id: standard, duel, catan_for_two, neutral_trader, shadow, ck_for_two.
    #[arg(long, default_value = "standard")]
    variant: String,
    /// Number of games.
    #[arg(long, default_value_t = 100)]
    games: u32,
    /// Seed of the first game; game i uses seed + i.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// A game option as key=value (repeatable), e.g. --option vp_target=12.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    options: Vec<String>,
    /// Games still running after this many turns count as unfinished
    /// (default: the variant's cap, 1000 turns; 3000 for ck_for_two).
    #[arg(long)]
    max_turns: Option<u32>,
    /// Skip the per-action invariant checks (for speed measurements).
    #[arg(long)]
    no_checks: bool,
    /// Random players never offer domestic trades (to compare with engines
    /// whose random players cannot).
    #[arg(long)]
    no_domestic_trade: bool,
    /// Play by an earlier revision of the rules, as games created under it
    /// do (default: the current one).
    #[arg(long)]
    revision: Option<u32>,
}

pub fn run(args: SimulateArgs) -> ExitCode {
    let Some(variant) = Variant::parse(&args.variant) else {
        let ids: Vec<_> = Variant::ALL.iter().map(|v| v.id()).collect();
        eprintln!(
            "unknown variant `{}`; expected one of {}",
            args.variant,
            ids.join(", ")
        );
        return ExitCode::from(2);
    };
    let mut config = GameConfig::new(variant);
    if args.revision.is_some() {
        config.revision = args.revision;
    }
    for opt in &args.options {
        let Some((k, v)) = opt.split_once('=') else {
            eprintln!("--option expects KEY=VALUE, got `{opt}`");
            return ExitCode::from(2);
        };
        if let Err(e) = config.set_option(k, v) {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    }
    if let Err(e) = config.resolve() {
        eprintln!("{e}");
        return ExitCode::from(2);
    }
    let checks = if args.no_checks {
        Checks::None
    } else {
        Checks::Full
    };
    let max_turns = args.max_turns.unwrap_or(sim::turn_cap(variant));
    let mut tally = Tally::default();
    let start = Instant::now();
    for i in 0..args.games {
        let seed = args.seed.wrapping_add(i as u64);
        let policy = sim::Policy {
            domestic_trade: !args.no_domestic_trade,
        };
        match sim::play_game_with(&config, seed, max_turns, checks, policy) {
            Ok(record) => tally.add(&record),
            Err(v) => {
                eprintln!("invariant violated: {v}");
                eprintln!(
                    "replay: hexpost simulate --variant {} --games 1 --seed {}{}{}",
                    args.variant,
                    v.seed,
                    args.options
                        .iter()
                        .map(|o| format!(" --option {o}"))
                        .collect::<String>(),
                    args.revision
                        .map(|r| format!(" --revision {r}"))
                        .unwrap_or_default()
                );
                return ExitCode::FAILURE;
            }
        }
    }
    let stats = tally.stats(
        variant.id(),
        start.elapsed().as_secs_f64(),
        checks == Checks::Full,
    );
    println!(
        "{}",
        serde_json::to_string(&stats).expect("stats serialize")
    );
    ExitCode::SUCCESS
}
