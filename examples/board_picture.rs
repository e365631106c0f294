//! The cost of the mails' board picture (bench/board_picture.sh): plays
//! random games of each variant, takes the board of every 10th position as
//! its first player sees it, and times drawing and encoding those pictures
//! on one thread, in CPU time (the thread's time on a core, from
//! /proc/thread-self/schedstat, so other processes on a busy machine do
//! not count). Then the same for the last position of many games, taken
//! in turn, more layouts than the process keeps: what a picture costs a
//! worker whose mails come from more games in play than that. Writes one
//! picture of each variant to DIR if given.
//!
//!   board_picture [--rounds N] [--out DIR]

use clap::Parser;
use hexpost::mail::picture::{self, Changed, Scene};
use hexpost_engine::rng::GameRng;
use hexpost_engine::{ActionError, GameConfig, GameState, Redact, Seat, Variant};

/// This thread's time on a core so far, in nanoseconds (Linux).
fn cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .expect("/proc/thread-self/schedstat")
}

#[derive(Parser)]
struct Args {
    /// Times each picture is drawn.
    #[arg(long, default_value_t = 20)]
    rounds: usize,
    /// Where to write a sample picture of each variant.
    #[arg(long)]
    out: Option<std::path::PathBuf>,
}

/// The scenes of a random game's every 10th position, for seat 0, each
/// with the places of the last 10 actions' events outlined.
fn scenes(variant: Variant, seed: u64) -> Vec<Scene> {
    let names = ["Ada".to_string(), "Bob".to_string()];
    let (mut s, _) = GameState::new(&GameConfig::new(variant), seed).expect("a game");
    let mut rng = GameRng::from_seed(seed);
    let (mut out, mut changed) = (Vec::new(), Changed::default());
    for step in 1..=2000 {
        let Some(&seat) = s.awaiting().first() else {
            break;
        };
        let legal = s.legal_actions(seat);
        let Some(action) = hexpost_engine::sim::random_action(&s, seat, &legal, &mut rng) else {
            break;
        };
        // Legal lists do not reveal the bank's stock: a shortage is the one
        // refusal of a listed action, and the next step draws another.
        let events = match s.apply(seat, &action) {
            Err(ActionError::BankShortage { .. } | ActionError::CommodityShortage { .. }) => {
                continue;
            }
            events => events.expect("a listed action"),
        };
        for event in events {
            changed.note(&event.redacted_for(Some(Seat(0))));
        }
        if step % 10 == 0 {
            let seen = std::mem::take(&mut changed);
            out.push(Scene::of(&s.view(Some(Seat(0))), &names, seen));
        }
    }
    out
}

fn main() {
    let args = Args::parse();
    println!("variant          pictures  us/picture  bytes mean  bytes max");
    let mut all = (0usize, 0f64, 0usize);
    for variant in Variant::ALL {
        let scenes: Vec<Scene> = (1..=3).flat_map(|seed| scenes(variant, seed)).collect();
        let mut bytes = Vec::with_capacity(scenes.len());
        let start = cpu_ns();
        for _ in 0..args.rounds {
            bytes.clear();
            for scene in &scenes {
                bytes.push(picture::render(scene).expect("a picture").png.len());
            }
        }
        let micros = (cpu_ns() - start) as f64 / 1e3 / (args.rounds * scenes.len()) as f64;
        let mean = bytes.iter().sum::<usize>() / bytes.len().max(1);
        let max = bytes.iter().copied().max().unwrap_or(0);
        println!(
            "{:<16} {:>8}  {:>10.0}  {:>10}  {:>9}",
            variant.id(),
            scenes.len(),
            micros,
            mean,
            max
        );
        all = (
            all.0 + scenes.len(),
            all.1 + micros * scenes.len() as f64,
            all.2.max(max),
        );
        if let (Some(dir), Some(last)) = (&args.out, scenes.last()) {
            std::fs::create_dir_all(dir).expect("the output directory");
            let path = dir.join(format!("{}.png", variant.id()));
            std::fs::write(&path, picture::render(last).expect("a picture").png)
                .expect("the sample picture");
        }
    }
    println!(
        "all              {:>8}  {:>10.0}  {:>10}  {:>9}",
        all.0,
        all.1 / all.0 as f64,
        "",
        all.2
    );
    many_games(args.rounds);
}

/// Layouts more than the 64 the picture module keeps.
const GAMES: u64 = 200;

fn many_games(rounds: usize) {
    let last = |variant, seed| scenes(variant, seed).pop().expect("a position");
    let scenes: Vec<Scene> = (0..GAMES)
        .map(|game| last(Variant::ALL[game as usize % Variant::ALL.len()], 100 + game))
        .collect();
    let start = cpu_ns();
    for _ in 0..rounds {
        for scene in &scenes {
            picture::render(scene).expect("a picture");
        }
    }
    let micros = (cpu_ns() - start) as f64 / 1e3 / (rounds * scenes.len()) as f64;
    println!("{GAMES} games in turn  {:>8}  {micros:>10.0}", scenes.len());
}
