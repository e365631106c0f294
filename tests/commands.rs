//! The command grammar of play by e-mail over random complete games of
//! every variant: at every decision, every concrete legal action (as the
//! random players enumerate them) is written by `encode` and read back by
//! `parse` as itself, and the menu has one line per kind of entry.

use hexpost::commands::{encode, menu, parse, parse_for};
use hexpost::describe::Table;
use hexpost_engine::rng::GameRng;
use hexpost_engine::sim::{concrete_action, seen_by, turn_cap};
use hexpost_engine::{ActionError, GameConfig, GameState, LegalAction, Variant};
use std::collections::BTreeSet;

fn config(variant: Variant, options: &[(&str, &str)]) -> GameConfig {
    let mut c = GameConfig::new(variant);
    for (k, v) in options {
        c.set_option(k, v).unwrap();
    }
    c
}

/// The kind of an entry the menu gives a line: its type, and for a
/// progress card, the card.
fn kind(entry: &LegalAction) -> String {
    let v = serde_json::to_value(entry).unwrap();
    format!("{} {}", v["type"], v["play"]["card"])
}

#[derive(Default)]
struct Seen {
    decisions: usize,
    actions: usize,
    kinds: BTreeSet<String>,
}

/// Plays one random game, checking the grammar at every decision.
fn check_game(config: &GameConfig, seed: u64, seen: &mut Seen) {
    let (mut s, _) = GameState::new(config, seed).unwrap();
    let table = Table::of_state(["Ada".into(), "Bob".into()], &s);
    let mut rng = GameRng::from_seed(seed ^ 0xc0de);
    while !s.is_over() && s.turn <= turn_cap(config.variant) {
        let awaiting = s.awaiting();
        let seat = awaiting[rng.below(awaiting.len() as u32) as usize];
        let legal = s.legal_actions(seat);
        let looks = seen_by(&s, seat);
        let mut concrete = Vec::new();
        for entry in &legal {
            seen.kinds.insert(kind(entry));
            for k in 0..entry.weight() {
                let action = concrete_action(entry, k, &looks, &mut rng)
                    .unwrap_or_else(|| panic!("no action {k} of {entry:?}"));
                let line = encode(&action);
                assert_eq!(
                    parse(&line, &legal),
                    Ok(action.clone()),
                    "seed {seed}: {line:?} from {legal:?}"
                );
                assert_eq!(
                    parse_for(&line.to_lowercase(), &legal, &table),
                    Ok(action.clone()),
                    "seed {seed}: {line:?} lower case"
                );
                concrete.push(action);
                seen.actions += 1;
            }
        }
        let kinds: BTreeSet<String> = legal.iter().map(kind).collect();
        let lines = menu(&legal, &table);
        assert_eq!(
            lines.len(),
            kinds.len(),
            "seed {seed}: {lines:?} for {legal:?}"
        );
        seen.decisions += 1;
        // Play on with one of them; the bank's composition is hidden, so a
        // listed trade may find it short.
        let applied = (0..8).any(|_| {
            let pick = &concrete[rng.below(concrete.len() as u32) as usize];
            match s.apply(seat, pick) {
                Ok(_) => true,
                Err(ActionError::BankShortage { .. } | ActionError::CommodityShortage { .. }) => {
                    false
                }
                Err(e) => panic!("seed {seed}: {pick:?} refused: {e}"),
            }
        });
        assert!(applied, "seed {seed}: nothing applied from {legal:?}");
    }
}

fn check_games(config: GameConfig, seeds: std::ops::Range<u64>) -> Seen {
    let mut seen = Seen::default();
    for seed in seeds {
        check_game(&config, seed, &mut seen);
    }
    assert!(
        seen.decisions > 100,
        "{:?}: {} decisions",
        config.variant,
        seen.decisions
    );
    seen
}

#[test]
fn every_standard_and_duel_action_reads_back_as_itself() {
    let a = check_games(config(Variant::Standard, &[]), 0..3);
    let b = check_games(config(Variant::Duel, &[]), 0..3);
    assert!(
        a.kinds.len() >= 15 && b.kinds.len() >= 15,
        "{:?} {:?}",
        a.kinds,
        b.kinds
    );
}

#[test]
fn every_catan_for_two_action_reads_back_as_itself() {
    let seen = check_games(config(Variant::CatanForTwo, &[]), 0..4);
    assert!(seen.kinds.len() >= 20, "{:?}", seen.kinds);
}

#[test]
fn every_neutral_trader_action_reads_back_as_itself() {
    let seen = check_games(config(Variant::NeutralTrader, &[]), 0..4);
    assert!(seen.kinds.len() >= 18, "{:?}", seen.kinds);
}

#[test]
fn every_shadow_action_reads_back_as_itself() {
    let mut kinds = check_games(config(Variant::Shadow, &[]), 0..3).kinds;
    kinds.extend(
        check_games(
            config(
                Variant::Shadow,
                &[("removal_reroll", "agree"), ("edition", "1998")],
            ),
            0..3,
        )
        .kinds,
    );
    assert!(kinds.len() >= 18, "{kinds:?}");
}

#[test]
fn every_cities_and_knights_action_reads_back_as_itself() {
    let seen = check_games(config(Variant::CkForTwo, &[]), 0..3);
    eprintln!(
        "{} decisions, {} actions, kinds {:?}",
        seen.decisions, seen.actions, seen.kinds
    );
    assert!(seen.kinds.len() >= 40, "{:?}", seen.kinds);
}

#[path = "commands/scenarios.rs"]
mod scenarios;
