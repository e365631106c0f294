//! RULES.md §2: the `duel` preset (15 VP, discard limit 9, friendly robber,
//! balanced dice), each setting also usable as an option of any variant.

use crate::common::*;
use hexpost_engine::Phase;
use hexpost_engine::actions::LegalAction;
use hexpost_engine::board::topology::HEX_COUNT;
use hexpost_engine::cards::DevCounts;
use hexpost_engine::dice::{BALANCED_REFILL_AT, Dice};
use hexpost_engine::rng::GameRng;
use hexpost_engine::testkit::{Scenario, edge, hex};
use hexpost_engine::{Action, ActionError, DevCard, Event, GameConfig, Seat, Variant};

fn duel() -> Scenario {
    Scenario::after_setup(Variant::Duel)
}

#[test]
fn the_duel_preset_settings() {
    let s = duel();
    let r = &s.state.rules;
    assert_eq!(
        (
            r.vp_target,
            r.discard_limit,
            r.friendly_robber,
            r.balanced_dice
        ),
        (15, 9, true, true)
    );
    match &s.state.dice {
        Dice::Balanced { remaining } => assert_eq!(remaining.len(), 36),
        Dice::Fair => panic!("duel dice are balanced"),
    }
    // An explicit option overrides the preset.
    let o = Scenario::with_options(Variant::Duel, &[("vp_target", "12")]);
    assert_eq!(o.state.rules.vp_target, 12);
    assert!(o.state.rules.friendly_robber);
}

#[test]
fn duel_needs_fifteen_points() {
    let mut s = duel();
    s.settlement(S0, 0).road_path(S0, &[0, 4, 8]);
    for n in [2, 32, 38] {
        s.settlement(S0, n);
    }
    for n in [16, 20, 45, 50] {
        s.city(S0, n);
    }
    s.dev_card(S0, DevCard::VictoryPoint, false)
        .dev_card(S0, DevCard::VictoryPoint, false);
    s.main_phase(S0).give(S0, rc(2, 2, 1, 1, 0));
    assert_eq!(s.state.total_vp(S0), 14);
    // 14 points (which would win a standard game) do not end the duel.
    s.ok(S0, Action::BuildRoad { edge: edge(8, 13) });
    assert_eq!(s.state.winner, None);
    assert_eq!(
        s.ok(S0, Action::BuildSettlement { node: 8 }),
        vec![
            Event::SettlementBuilt {
                seat: S0,
                node: 8,
                free: false
            },
            Event::GameWon {
                seat: S0,
                victory_points: 15,
                revealed: DevCounts::single(DevCard::VictoryPoint, 2)
            },
        ]
    );
    assert_eq!(s.state.phases, vec![Phase::Ended]);
}

#[test]
fn vp_target_is_an_option_of_any_variant() {
    let mut s = Scenario::with_options(Variant::Standard, &[("vp_target", "3")]);
    s.settlement(S0, 0)
        .settlement(S0, 2)
        .road_path(S0, &[0, 4, 8]);
    s.main_phase(S0).give(S0, rc(1, 1, 1, 1, 0));
    let ev = s.ok(S0, Action::BuildSettlement { node: 8 });
    assert_eq!(
        ev[1],
        Event::GameWon {
            seat: S0,
            victory_points: 3,
            revealed: DevCounts::default()
        }
    );
}

#[test]
fn duel_discard_limit_is_nine() {
    let mut s = duel();
    s.give(S0, rc(2, 2, 2, 2, 1)); // 9: keeps all
    s.give(S1, rc(2, 2, 2, 2, 2)); // 10: discards 5
    let ev = roll(&mut s, S0, 7);
    assert_eq!(
        ev,
        vec![Event::DiscardsRequired {
            owed: vec![(S1, 5)]
        }]
    );
    assert_eq!(&*s.state.awaiting(), &[S1]);
    assert_eq!(
        s.refused(
            S1,
            Action::Discard {
                cards: rc(1, 1, 1, 1, 0)
            }
        ),
        ActionError::WrongDiscardCount {
            expected: 5,
            got: 4
        }
    );
    s.ok(
        S1,
        Action::Discard {
            cards: rc(1, 1, 1, 1, 1),
        },
    );
    assert_eq!(s.hand(S0), rc(2, 2, 2, 2, 1));
    assert_eq!(s.hand(S1), rc(1, 1, 1, 1, 1));
    assert_eq!(*s.state.phase(), Phase::MoveRobber { seat: S0 });
}

#[test]
fn discard_limit_is_an_option_of_any_variant() {
    let mut s = Scenario::with_options(Variant::Standard, &[("discard_limit", "9")]);
    s.give(S0, rc(2, 2, 2, 2, 1)).give(S1, rc(2, 2, 2, 2, 0));
    assert_eq!(roll(&mut s, S0, 7), vec![]);
    assert_eq!(*s.state.phase(), Phase::MoveRobber { seat: S0 });
}

/// Seat 1 has two settlements (2 visible VP): on node 12 (hexes (0,-2),
/// (-1,-1), (0,-1)) and node 50 (hex (0,2)). Seat 0 has 3 VP: a city on 45
/// and a settlement on 20 (hexes (2,-1), (2,0)). Seat 0 rolled a 7.
fn friendly(variant_duel: bool) -> Scenario {
    let mut s = if variant_duel {
        duel()
    } else {
        Scenario::with_options(Variant::Standard, &[("friendly_robber", "true")])
    };
    s.settlement(S1, 12).settlement(S1, 50);
    s.city(S0, 45).settlement(S0, 20);
    s.give(S1, rc(0, 0, 1, 0, 0));
    roll(&mut s, S0, 7);
    s
}

fn move_to(hex: u8, victim: Option<Seat>) -> Action {
    Action::MoveRobber { hex, victim }
}

#[test]
fn friendly_robber_protects_players_with_two_visible_points() {
    let mut s = friendly(true);
    for h in [hex(0, -2), hex(-1, -1), hex(0, -1), hex(0, 2)] {
        assert_eq!(
            s.refused(S0, move_to(h, Some(S1))),
            ActionError::FriendlyRobber { hex: h }
        );
        assert_eq!(
            s.refused(S0, move_to(h, None)),
            ActionError::FriendlyRobber { hex: h }
        );
    }
    // The legal list agrees: 18 hexes but the robber's and the 4 protected.
    let legal = s.state.legal_actions(S0);
    let [LegalAction::MoveRobber { targets }] = legal.as_slice() else {
        panic!("{legal:?}")
    };
    assert_eq!(targets.len(), HEX_COUNT - 1 - 4);
    // Seat 0's own hexes are open (3 VP); nobody to rob there.
    s.ok(S0, move_to(hex(2, 0), None));
    assert_eq!(s.state.robber, hex(2, 0));
}

#[test]
fn friendly_robber_also_applies_to_the_knight() {
    let mut s = duel();
    s.settlement(S1, 12)
        .settlement(S1, 50)
        .city(S0, 45)
        .settlement(S0, 20);
    s.give(S1, rc(0, 0, 1, 0, 0))
        .dev_card(S0, DevCard::Knight, false)
        .before_roll(S0);
    assert_eq!(
        s.refused(
            S0,
            Action::PlayKnight {
                hex: hex(0, -2),
                victim: Some(S1)
            }
        ),
        ActionError::FriendlyRobber { hex: hex(0, -2) }
    );
}

#[test]
fn friendly_robber_counts_visible_points_only() {
    // A hidden victory point card does not lift the protection...
    let mut s = friendly(true);
    s.dev_card(S1, DevCard::VictoryPoint, false);
    assert_eq!(s.state.total_vp(S1), 3);
    assert_eq!(
        s.refused(S0, move_to(hex(0, -2), Some(S1))),
        ActionError::FriendlyRobber { hex: hex(0, -2) }
    );
    // ...a third visible point (a city) does.
    let mut t = duel();
    t.city(S1, 12).settlement(S1, 50);
    t.city(S0, 45).settlement(S0, 20);
    t.give(S1, rc(0, 0, 1, 0, 0));
    roll(&mut t, S0, 7);
    assert_eq!(t.state.player(S1).visible_vp, 3);
    t.ok(S0, move_to(hex(0, -2), Some(S1)));
    assert_eq!(t.hand(S0), rc(0, 0, 1, 0, 0));
    consistent(&t);
}

#[test]
fn friendly_robber_protects_the_mover_too() {
    let mut s = duel();
    s.settlement(S0, 0).settlement(S1, 50).city(S1, 45);
    roll(&mut s, S0, 7);
    // Seat 0 has 1 VP: its own hex (0,-2) is protected as well.
    assert_eq!(
        s.refused(S0, move_to(hex(0, -2), None)),
        ActionError::FriendlyRobber { hex: hex(0, -2) }
    );
    // Seat 1 has 3 VP: hex (0,2) is open.
    s.ok(S0, move_to(hex(0, 2), None));
}

#[test]
fn friendly_robber_is_an_option_of_any_variant_and_off_by_default() {
    let mut s = friendly(false);
    assert_eq!(
        s.refused(S0, move_to(hex(0, -2), Some(S1))),
        ActionError::FriendlyRobber { hex: hex(0, -2) }
    );
    let mut plain = Scenario::standard();
    plain.settlement(S1, 12).give(S1, rc(0, 0, 1, 0, 0));
    roll(&mut plain, S0, 7);
    plain.ok(S0, move_to(hex(0, -2), Some(S1)));
}

/// With all 19 hexes in play two players with at most 2 VP each (4
/// settlements) cannot touch every hex, so a position where no hex is legal
/// needs hexes out of play; we remove all but four (as the shadow variant's
/// removed hexes do) and put seat 1's one settlement on the corner of three.
#[test]
fn friendly_robber_is_lifted_when_no_hex_is_legal() {
    let mut s = duel();
    let keep = [hex(0, -2), hex(1, -2), hex(0, -1), hex(0, 0)];
    let all = (1u32 << HEX_COUNT) - 1;
    s.state.board.removed = keep.iter().fold(all, |m, &h| m & !(1 << h));
    s.settlement(S1, 8).give(S1, rc(0, 0, 0, 0, 2));
    assert_eq!(s.state.robber, hex(0, 0));
    roll(&mut s, S0, 7);
    let legal = s.state.legal_actions(S0);
    let [LegalAction::MoveRobber { targets }] = legal.as_slice() else {
        panic!("{legal:?}")
    };
    let hexes: Vec<u8> = targets.iter().map(|t| t.hex).collect();
    assert_eq!(hexes, vec![hex(0, -2), hex(1, -2), hex(0, -1)]);
    assert_eq!(
        s.refused(S0, move_to(hex(1, -1), None)),
        ActionError::InvalidHex { hex: hex(1, -1) }
    );
    s.ok(S0, move_to(hex(0, -2), Some(S1)));
    assert_eq!(s.hand(S0), rc(0, 0, 0, 0, 1));
    // Control: with one unprotected hex left, the protection holds.
    let mut c = duel();
    let keep = [hex(0, -2), hex(1, -2), hex(0, -1), hex(0, 0), hex(0, 2)];
    c.state.board.removed = keep.iter().fold(all, |m, &h| m & !(1 << h));
    c.settlement(S1, 8).give(S1, rc(0, 0, 0, 0, 2));
    roll(&mut c, S0, 7);
    assert_eq!(
        c.refused(S0, move_to(hex(0, -2), Some(S1))),
        ActionError::FriendlyRobber { hex: hex(0, -2) }
    );
    c.ok(S0, move_to(hex(0, 2), None));
}

fn ways(total: usize) -> u32 {
    6 - (total as i32 - 7).unsigned_abs()
}

fn tally(balanced: bool, seed: u64, rolls: u32) -> [u32; 13] {
    let mut rng = GameRng::from_seed(seed);
    let mut dice = Dice::new(balanced);
    let mut counts = [0u32; 13];
    for _ in 0..rolls {
        let d = dice.roll(&mut rng);
        assert!((1..=6).contains(&d[0]) && (1..=6).contains(&d[1]));
        counts[(d[0] + d[1]) as usize] += 1;
    }
    counts
}

fn chi_square(counts: &[u32; 13], rolls: u32) -> f64 {
    (2..=12)
        .map(|t| {
            let e = rolls as f64 * ways(t) as f64 / 36.0;
            (counts[t] as f64 - e).powi(2) / e
        })
        .sum()
}

#[test]
fn balanced_dice_follow_the_36_outcome_deck_closely() {
    let rolls = 36 * 100;
    let (mut balanced_chi, mut fair_chi) = (0.0, 0.0);
    for seed in 0..20 {
        let counts = tally(true, seed, rolls);
        assert_eq!(counts.iter().sum::<u32>(), rolls);
        for (t, &n) in counts.iter().enumerate().skip(2) {
            let expected = 100.0 * ways(t) as f64;
            let tolerance = if ways(t) >= 3 { 0.08 } else { 0.15 };
            let dev = (n as f64 - expected).abs() / expected;
            assert!(
                dev <= tolerance,
                "seed {seed}: total {t} came {n} times, expected {expected}"
            );
        }
        let chi = chi_square(&counts, rolls);
        assert!(chi < 4.5, "seed {seed}: chi-square {chi}");
        balanced_chi += chi;
        fair_chi += chi_square(&tally(false, seed, rolls), rolls);
    }
    // Fair dice average a chi-square of about 10 (10 degrees of freedom);
    // drawing 31 of 36 cards per cycle cuts the variance about sevenfold.
    assert!(
        balanced_chi * 4.0 < fair_chi,
        "balanced {balanced_chi} vs fair {fair_chi}"
    );
}

#[test]
fn balanced_dice_draw_distinct_outcomes_until_five_remain_then_refill() {
    for seed in 0..10 {
        let mut rng = GameRng::from_seed(seed);
        let mut dice = Dice::new(true);
        let mut seen = std::collections::BTreeSet::new();
        // RULES.md §2: refill when 5 or fewer remain, so 31 draws per cycle.
        assert_eq!(BALANCED_REFILL_AT, 5);
        for _ in 0..31 {
            let d = dice.roll(&mut rng);
            assert!(seen.insert(d), "seed {seed}: {d:?} drawn twice in a cycle");
        }
        let Dice::Balanced { remaining } = &dice else {
            unreachable!()
        };
        assert_eq!(remaining.len(), 5);
        // The remaining cards are exactly the outcomes not yet drawn.
        let mut left: Vec<[u8; 2]> = remaining.iter().map(|&c| [c / 6 + 1, c % 6 + 1]).collect();
        left.sort();
        let unseen: Vec<[u8; 2]> = (1..=6u8)
            .flat_map(|a| (1..=6u8).map(move |b| [a, b]))
            .filter(|o| !seen.contains(o))
            .collect();
        assert_eq!(left, unseen);
        // Next roll refills to 36 and draws one.
        dice.roll(&mut rng);
        let Dice::Balanced { remaining } = &dice else {
            unreachable!()
        };
        assert_eq!(remaining.len(), 35);
    }
}

#[test]
fn balanced_dice_are_an_option_of_any_variant_and_used_by_the_game() {
    let mut s = Scenario::with_options(Variant::Standard, &[("balanced_dice", "true")]);
    assert!(matches!(&s.state.dice, Dice::Balanced { remaining } if remaining.len() == 36));
    roll(&mut s, S0, 8);
    assert!(matches!(&s.state.dice, Dice::Balanced { remaining } if remaining.len() == 35));
    let fair = Scenario::standard();
    assert_eq!(fair.state.dice, Dice::Fair);
    let config = GameConfig::new(Variant::Duel);
    assert!(config.resolve().unwrap().balanced_dice);
}
