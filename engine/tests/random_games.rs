//! Property tests: thousands of random complete games, every invariant
//! checked after every action (conservation, recounts, hidden information,
//! refused actions changing nothing), and exact replays from the seed.

use hexpost_engine::sim::{Checks, GameRecord, Tally, play_game};
use hexpost_engine::{GameConfig, GameState, Variant};

use crate::common::games;

fn play_many(config: &GameConfig, seeds: std::ops::Range<u64>) -> Tally {
    let mut tally = Tally::default();
    for seed in seeds {
        match play_game(config, seed, 1000, Checks::Full) {
            Ok(r) => tally.add(&r),
            Err(v) => panic!("invariant violated: {v}"),
        }
    }
    tally
}

#[test]
fn standard_games_keep_every_invariant() {
    let n = games(1500);
    let t = play_many(&GameConfig::new(Variant::Standard), 0..u64::from(n));
    assert_eq!(t.games, n);
    // Random play still finishes nearly every game (29 in 30), and both
    // seats win (each more than 2 in 5).
    assert!(
        t.finished * 30 >= n * 29,
        "only {} of {n} finished",
        t.finished
    );
    assert!(
        t.wins[0] * 5 > n * 2 && t.wins[1] * 5 > n * 2,
        "wins {:?}",
        t.wins
    );
}

#[test]
fn duel_games_keep_every_invariant() {
    let n = games(700);
    let t = play_many(
        &GameConfig::new(Variant::Duel),
        10_000..10_000 + u64::from(n),
    );
    assert!(
        t.finished * 7 >= n * 6,
        "only {} of {n} finished",
        t.finished
    );
}

#[test]
fn option_combinations_keep_every_invariant() {
    let combos: &[&[(&str, &str)]] = &[
        &[("board", "\"beginner\"")],
        &[("friendly_robber", "true"), ("discard_limit", "5")],
        &[("balanced_dice", "true"), ("vp_target", "6")],
        &[("no_adjacent_red", "false"), ("vp_target", "20")],
    ];
    for (i, combo) in combos.iter().enumerate() {
        let mut config = GameConfig::new(Variant::Standard);
        for (k, v) in combo.iter() {
            config.set_option(k, v).unwrap();
        }
        let start = 20_000 + 1000 * i as u64;
        play_many(&config, start..start + u64::from(games(150)));
    }
}

fn replay(config: &GameConfig, record: &GameRecord) -> (GameState, String) {
    let (mut s, opening) = GameState::new(config, record.seed).unwrap();
    let mut log = serde_json::to_string(&opening).unwrap();
    for (seat, action) in &record.actions {
        let events = s.apply(*seat, action).expect("recorded action replays");
        log.push_str(&serde_json::to_string(&events).unwrap());
    }
    (s, log)
}

#[test]
fn games_replay_byte_for_byte_from_seed_and_actions() {
    for variant in [Variant::Standard, Variant::Duel] {
        let config = GameConfig::new(variant);
        for seed in 0..60 {
            let record = play_game(&config, seed, 1000, Checks::None).unwrap();
            let (a, log_a) = replay(&config, &record);
            let (b, log_b) = replay(&config, &record);
            assert_eq!(log_a, log_b, "events differ on replay, seed {seed}");
            let bytes = serde_json::to_vec(&a).unwrap();
            assert_eq!(bytes, serde_json::to_vec(&b).unwrap(), "seed {seed}");
            assert_eq!(
                bytes,
                serde_json::to_vec(&record.final_state).unwrap(),
                "seed {seed}"
            );
        }
    }
}

#[test]
fn state_round_trips_mid_game_and_continues_identically() {
    let config = GameConfig::new(Variant::Duel);
    for seed in 100..140 {
        let record = play_game(&config, seed, 1000, Checks::None).unwrap();
        let (mut s, _) = GameState::new(&config, seed).unwrap();
        let half = record.actions.len() / 2;
        for (seat, action) in &record.actions[..half] {
            s.apply(*seat, action).unwrap();
        }
        let json = serde_json::to_string(&s).unwrap();
        let mut restored: GameState = serde_json::from_str(&json).unwrap();
        assert_eq!(restored, s);
        assert_eq!(serde_json::to_string(&restored).unwrap(), json);
        for (seat, action) in &record.actions[half..] {
            let a = s.apply(*seat, action).unwrap();
            let b = restored.apply(*seat, action).unwrap();
            assert_eq!(a, b);
        }
        assert_eq!(
            serde_json::to_vec(&restored).unwrap(),
            serde_json::to_vec(&record.final_state).unwrap()
        );
    }
}

#[test]
fn different_seeds_give_different_games() {
    let config = GameConfig::new(Variant::Standard);
    let a = play_game(&config, 1, 1000, Checks::None).unwrap();
    let b = play_game(&config, 2, 1000, Checks::None).unwrap();
    assert_ne!(a.final_state.board, b.final_state.board);
    assert_ne!(a.actions, b.actions);
}
