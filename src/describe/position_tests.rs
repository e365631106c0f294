//! The board in words (the alt text of a mail's board picture): what it
//! says of known positions, snapshotted; that it follows the position; and
//! that nothing hidden from its reader changes it.

use super::*;
use hexpost_engine::board::{EdgeId, NodeId, topology};
use hexpost_engine::cards::{Card, Cards, ProgressCard, ProgressCounts, Resource};
use hexpost_engine::rng::GameRng;
use hexpost_engine::rulesets::VariantState;
use hexpost_engine::rulesets::ck_for_two::state::{Knight, KnightLevel, Merchant};
use hexpost_engine::state::{Building, BuildingKind};
use hexpost_engine::{GameConfig, Variant, sim};

const ADA: Seat = Seat(0);
const BOB: Seat = Seat(1);

fn names() -> [String; 2] {
    ["Ada".into(), "Bob".into()]
}

/// A game of `variant` after `actions` random actions (fixed seeds).
fn played(variant: Variant, actions: usize) -> GameState {
    let (mut s, _) = GameState::new(&GameConfig::new(variant), 7).unwrap();
    let mut rng = GameRng::from_seed(3);
    for _ in 0..actions {
        let Some(&seat) = s.awaiting().first() else {
            break;
        };
        let legal = s.legal_actions(seat);
        let action = sim::random_action(&s, seat, &legal, &mut rng).unwrap();
        s.apply(seat, &action).unwrap();
    }
    s
}

/// The board as `reader` sees it in words, `outlined` told as changed.
fn words_of(s: &GameState, reader: Seat, outlined: Outlined) -> String {
    let view = s.view(Some(reader));
    position(&view, &Table::of_view(names(), &view), outlined)
}

fn ck(s: &mut GameState) -> &mut hexpost_engine::rulesets::ck_for_two::state::CkState {
    match &mut s.variant {
        VariantState::CkForTwo(ck) => ck,
        _ => panic!("ck_for_two keeps its own state"),
    }
}

/// A known position: pieces of both players and of the neutral seat of
/// Catan for two, a hex changed, a road and a settlement outlined.
#[test]
fn a_known_position_in_words() {
    let s = played(Variant::CatanForTwo, 300);
    assert!(s.buildings.iter().flatten().count() >= 6, "pieces to tell");
    let road = s.roads.iter().position(Option::is_some).unwrap() as EdgeId;
    let settled = s.buildings.iter().position(Option::is_some).unwrap() as NodeId;
    let empty = s.buildings.iter().position(Option::is_none).unwrap() as NodeId;
    let outlined = Outlined {
        hexes: &[s.robber],
        nodes: &[settled, empty],
        edges: &[road],
    };
    let text = words_of(&s, ADA, outlined);
    let table = Table::of_state(names(), &s);
    for seat in s.players.iter().map(|p| p.seat) {
        let name = capitalised(&table.seat(seat));
        assert!(text.contains(&name), "{seat:?} in {text}");
    }
    assert!(text.contains("Ada (red): "), "{text}");
    assert!(text.contains("Neutral white: "), "{text}");
    assert!(
        text.contains(&format!(
            "the robber on {}",
            places::hex(s.robber, &Table::of_state(names(), &s))
        )),
        "{text}"
    );
    assert!(text.contains(&format!("node {empty}, ")) && text.contains(", now empty"));
    insta::assert_snapshot!("catan_for_two_position", text);
}

/// Cities & Knights adds walls, metropolises, knights, the merchant and
/// the barbarian ship.
#[test]
fn cities_and_knights_pieces_in_words() {
    let t = topology();
    let mut s = played(Variant::CkForTwo, 0);
    let walled = t.hexes[7].nodes[0];
    let knight = t.hexes[11].nodes[2];
    s.buildings[walled as usize] = Some(Building {
        owner: ADA,
        kind: BuildingKind::City,
    });
    let c = ck(&mut s);
    c.walls.insert(walled);
    c.metropolises[2] = Some(walled);
    c.barbarians = 5;
    c.merchant = Some(Merchant {
        owner: BOB,
        hex: 12,
    });
    c.knights.push(Knight {
        node: knight,
        owner: BOB,
        level: KnightLevel::Strong,
        active: true,
        activated: false,
        promoted: false,
    });
    let text = words_of(
        &s,
        BOB,
        Outlined {
            nodes: &[knight],
            ..Outlined::default()
        },
    );
    assert!(
        text.contains(&format!(
            "Ada (red): a city on node {walled}, a city wall on node {walled}, the science (green) metropolis on node {walled}."
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "Bob (blue): a strong active knight on node {knight}."
        )),
        "{text}"
    );
    assert!(text.contains("Bob's merchant is on "), "{text}");
    assert!(text.contains("space 5 of 7"), "{text}");
    assert!(text.contains(&format!("Bob's strong active knight on node {knight}, ")));
    insta::assert_snapshot!("ck_for_two_position", text);
}

/// Each thing the picture shows changes the words: the robber, a piece,
/// a knight's state and level, the barbarians, what is outlined, whose
/// decision is awaited.
#[test]
fn the_words_follow_the_position() {
    let base = played(Variant::CkForTwo, 200);
    let before = words_of(&base, ADA, Outlined::default());
    let mut changes: Vec<(&str, GameState)> = Vec::new();
    let mut s = base.clone();
    s.robber = (s.robber + 1) % 19;
    changes.push(("robber", s));
    let mut s = base.clone();
    let free = s.buildings.iter().position(Option::is_none).unwrap();
    s.buildings[free] = Some(Building {
        owner: BOB,
        kind: BuildingKind::Settlement,
    });
    changes.push(("settlement", s));
    let mut s = base.clone();
    let ship = ck(&mut s).barbarians;
    ck(&mut s).barbarians = (ship + 1) % 7;
    changes.push(("barbarians", s));
    let mut s = base.clone();
    let node = s.buildings.iter().position(Option::is_none).unwrap() as NodeId;
    ck(&mut s).knights.push(Knight {
        node,
        owner: ADA,
        level: KnightLevel::Basic,
        active: false,
        activated: false,
        promoted: false,
    });
    let knighted = s.clone();
    changes.push(("knight", s));
    for (what, state) in &changes {
        assert_ne!(words_of(state, ADA, Outlined::default()), before, "{what}");
    }
    let knight_words = words_of(&knighted, ADA, Outlined::default());
    let mut active = knighted.clone();
    ck(&mut active).knights.last_mut().unwrap().active = true;
    assert_ne!(words_of(&active, ADA, Outlined::default()), knight_words);
    let mut promoted = knighted.clone();
    ck(&mut promoted).knights.last_mut().unwrap().level = KnightLevel::Mighty;
    assert_ne!(words_of(&promoted, ADA, Outlined::default()), knight_words);
    let outlined = Outlined {
        nodes: &[node],
        ..Outlined::default()
    };
    assert_ne!(words_of(&base, ADA, outlined), before);
    // The same board, read by the other player: whose decision is awaited
    // reads differently.
    let awaited = *base.awaiting().iter().find(|s| s.is_real()).unwrap();
    let mine = words_of(&base, awaited, Outlined::default());
    let theirs = words_of(&base, awaited.opponent(), Outlined::default());
    assert!(mine.starts_with("Your decision is awaited."), "{mine}");
    assert!(theirs.starts_with("Waiting for "), "{theirs}");
}

/// The words are the same whatever the reader may not know: the
/// opponent's hand, development and progress cards, the decks and the
/// generator; and they name no card at all.
#[test]
fn the_words_tell_nothing_hidden() {
    for (variant, actions) in [(Variant::Standard, 400), (Variant::CkForTwo, 400)] {
        let s = played(variant, actions);
        let outlined = Outlined {
            hexes: &[s.robber],
            ..Outlined::default()
        };
        let before = words_of(&s, ADA, outlined);
        let mut hidden = s.clone();
        let total = hidden.players[1].hand.total();
        hidden.players[1].hand = Cards::ZERO;
        hidden.players[1].hand[Card::Ore] = total as _;
        let mut rng = GameRng::from_seed(99);
        if let Some(dev) = &mut hidden.dev {
            dev.perturb_hidden(ADA, &mut rng);
        }
        if let VariantState::CkForTwo(c) = &mut hidden.variant {
            let theirs = &mut c.players[1].progress;
            theirs.cards = Some(ProgressCounts::single(ProgressCard::Spy, theirs.count));
            c.perturb_hidden(ADA, &mut rng);
        }
        hidden.rng = GameRng::from_seed(12345);
        assert_ne!(hidden, s, "{variant:?}: hidden facts changed");
        assert_eq!(words_of(&hidden, ADA, outlined), before, "{variant:?}");
        let words: Vec<&str> = before.split(|c: char| !c.is_ascii_alphabetic()).collect();
        for r in Resource::ALL {
            let name = r.to_string();
            assert!(!words.contains(&name.as_str()), "{name} in {before}");
        }
    }
}
