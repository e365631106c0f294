//! Random playouts without checks, for counting the engine's own
//! instructions per action under callgrind with no server in the process
//! (`bench/instructions.sh` with `ENGINE_ONLY=1`):
//! `playouts VARIANT GAMES [REVISION]`, seeds 1 to GAMES; prints the games
//! played and the actions taken.

use hexpost_engine::sim::{Checks, Tally, play_game};
use hexpost_engine::{GameConfig, Variant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let variant = Variant::parse(args.get(1).map_or("standard", |s| s)).expect("a variant id");
    let games: u64 = args
        .get(2)
        .map_or(300, |s| s.parse().expect("a number of games"));
    let mut config = GameConfig::new(variant);
    if let Some(r) = args.get(3) {
        config.revision = Some(r.parse().expect("a revision"));
    }
    let mut tally = Tally::default();
    for seed in 1..=games {
        tally.add(&play_game(&config, seed, 1000, Checks::None).expect("no violation"));
    }
    println!("{} {}", tally.games, tally.actions);
}
