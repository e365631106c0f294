//! The board picture of the mails: the PNG decodes, and shows the pieces
//! of a known position where the geometry the API publishes puts them
//! (pixels compared at known places, not with a stored image), the extra
//! pieces of Cities & Knights, and nothing its reader may not see.

use hexpost::mail::picture::colours::{self, Rgb};
use hexpost::mail::picture::geometry::{Frame, Point, RADIUS};
use hexpost::mail::picture::{self, Changed, Scene};
use hexpost_engine::board::{LayoutKind, Terrain, topology};
use hexpost_engine::rng::GameRng;
use hexpost_engine::rulesets::VariantState;
use hexpost_engine::rulesets::ck_for_two::state::{CkState, Knight, KnightLevel, Merchant};
use hexpost_engine::state::{Building, BuildingKind};
use hexpost_engine::{Event, GameConfig, GameState, Redact, Seat, Variant};

const NAMES: [&str; 2] = ["Ada", "Bob"];

fn names() -> [String; 2] {
    NAMES.map(String::from)
}

/// A decoded picture, as RGB.
struct Decoded {
    width: u32,
    height: u32,
    rgb: Vec<u8>,
}

impl Decoded {
    fn of(png: &[u8]) -> Decoded {
        let mut decoder = png::Decoder::new(std::io::Cursor::new(png));
        decoder.set_transformations(png::Transformations::EXPAND);
        let mut reader = decoder.read_info().expect("a PNG header");
        let mut buffer = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buffer).expect("a PNG frame");
        assert_eq!(info.color_type, png::ColorType::Rgb);
        buffer.truncate(info.buffer_size());
        Decoded {
            width: info.width,
            height: info.height,
            rgb: buffer,
        }
    }

    fn at(&self, (x, y): Point) -> Rgb {
        let (x, y) = (x.round() as usize, y.round() as usize);
        let i = (y * self.width as usize + x) * 3;
        [self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]]
    }

    fn count(&self, colour: Rgb) -> usize {
        self.rgb.chunks_exact(3).filter(|p| *p == colour).count()
    }
}

fn offset((x, y): Point, dx: f32, dy: f32) -> Point {
    (x + dx * RADIUS, y + dy * RADIUS)
}

fn beginner(variant: Variant) -> GameState {
    let mut config = GameConfig::new(variant);
    config.options.board = Some(LayoutKind::Beginner);
    GameState::new(&config, 7).expect("a game").0
}

fn build(s: &mut GameState, seat: u8, node: u8, kind: BuildingKind) {
    s.buildings[node as usize] = Some(Building {
        owner: Seat(seat),
        kind,
    });
}

/// Knights on the board: (node, owner's seat, level, active).
fn place_knights<const N: usize>(ck: &mut CkState, knights: [(u8, u8, KnightLevel, bool); N]) {
    for (node, owner, level, active) in knights {
        ck.knights.push(Knight {
            node,
            owner: Seat(owner),
            level,
            active,
            activated: false,
            promoted: false,
        });
    }
}

#[test]
fn a_known_position_shows_its_hexes_pieces_robber_and_changes() {
    let t = topology();
    let mut s = beginner(Variant::Standard);
    let settlement = t.hexes[5].nodes[0];
    let city = t.hexes[13].nodes[3];
    let road = t.hexes[5].edges[1];
    build(&mut s, 0, settlement, BuildingKind::Settlement);
    build(&mut s, 1, city, BuildingKind::City);
    s.roads[road as usize] = Some(Seat(1));
    s.robber = 4;
    // A hex out of the game, as the shadow variant removes them.
    s.board.removed = 1 << 18;
    let mut changed = Changed::default();
    for event in [
        Event::SettlementBuilt {
            seat: Seat(0),
            node: settlement,
            free: false,
        },
        Event::RoadBuilt {
            seat: Seat(1),
            edge: road,
            free: false,
        },
    ] {
        changed.note(&event);
    }
    let scene = Scene::of(&s.view(Some(Seat(0))), &names(), changed);
    let drawn = picture::render(&scene).unwrap();
    let frame = Frame::new(false);
    let image = Decoded::of(&drawn.png);
    assert_eq!((image.width, image.height), (drawn.width, drawn.height));
    assert_eq!((image.width, image.height), (frame.width, frame.height));
    assert!(image.width <= 600, "phone width: {}", image.width);
    assert!(drawn.png.len() < 40_000, "{} bytes", drawn.png.len());

    // The beginner layout's first hex is mountains, its centre the desert.
    assert_eq!(s.board.tiles[0].terrain, Terrain::Mountains);
    assert_eq!(s.board.tiles[9].terrain, Terrain::Desert);
    for (hex, tile) in s.board.tiles.iter().enumerate() {
        let centre = frame.hex_centre(hex as u8);
        let field = image.at(offset(centre, 0.0, -0.6));
        if hex == 18 {
            assert_eq!(field, colours::REMOVED, "removed hex {hex}");
            assert_eq!(image.at(centre), colours::REMOVED, "no token on hex {hex}");
            continue;
        }
        assert_eq!(field, colours::terrain(tile.terrain), "hex {hex}");
        if tile.number.is_some() {
            assert_eq!(
                image.at(offset(centre, 0.25, 0.0)),
                colours::TOKEN,
                "token {hex}"
            );
        }
    }
    let robber = frame.hex_centre(4);
    assert_eq!(image.at(offset(robber, -0.55, 0.06)), colours::INK);
    // Nowhere else a robber: the same place on another numbered hex is
    // its terrain.
    assert_eq!(
        image.at(offset(frame.hex_centre(5), -0.55, 0.06)),
        colours::terrain(s.board.tiles[5].terrain)
    );

    assert_eq!(image.at(frame.node(settlement)), colours::SEATS[0]);
    assert_eq!(image.at(frame.node(city)), colours::SEATS[1]);
    let [a, b] = frame.edge_ends(road);
    let middle = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
    assert_eq!(image.at(middle), colours::SEATS[1]);

    // The settlement's node and the road are outlined; the city is not.
    assert_eq!(
        image.at(offset(frame.node(settlement), 0.3, 0.0)),
        colours::HIGHLIGHT
    );
    assert_ne!(
        image.at(offset(frame.node(city), 0.3, 0.0)),
        colours::HIGHLIGHT
    );
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = dx.hypot(dy);
    let beside = (middle.0 - dy / len * 5.5, middle.1 + dx / len * 5.5);
    assert_eq!(image.at(beside), colours::HIGHLIGHT);
    let unchanged = Scene {
        changed: Changed::default(),
        ..scene.clone()
    };
    let plain = Decoded::of(&picture::render(&unchanged).unwrap().png);
    assert_eq!(plain.count(colours::HIGHLIGHT), 0);
    assert!(image.count(colours::HIGHLIGHT) > 100);

    // The alt text tells the same position in the game's words.
    for told in [
        format!("Ada (red): a settlement on node {settlement}."),
        format!("Bob (blue): a city on node {city}, 1 road."),
        "The robber is on the 6 hills (hex 4).".into(),
        format!("what changed since your last decision: Ada's settlement on node {settlement}, "),
        format!("; Bob's road on edge {road}, "),
    ] {
        assert!(drawn.alt.contains(&told), "{told} in {}", drawn.alt);
    }
}

#[test]
fn cities_and_knights_pieces_and_the_barbarians_are_shown() {
    let t = topology();
    let mut s = beginner(Variant::CkForTwo);
    let walled = t.hexes[7].nodes[0];
    let active = t.hexes[11].nodes[2];
    let inactive = t.hexes[11].nodes[4];
    build(&mut s, 0, walled, BuildingKind::City);
    let VariantState::CkForTwo(ck) = &mut s.variant else {
        panic!("ck_for_two keeps its own state");
    };
    ck.walls.insert(walled);
    ck.metropolises[0] = Some(walled);
    ck.barbarians = 3;
    ck.merchant = Some(Merchant {
        owner: Seat(1),
        hex: 12,
    });
    place_knights(
        ck,
        [
            (active, 1, KnightLevel::Strong, true),
            (inactive, 0, KnightLevel::Basic, false),
        ],
    );
    let scene = Scene::of(&s.view(Some(Seat(1))), &names(), Changed::default());
    let drawn = picture::render(&scene).unwrap();
    let frame = Frame::new(true);
    let image = Decoded::of(&drawn.png);
    assert_eq!((image.width, image.height), (frame.width, frame.height));
    assert!(frame.height > Frame::new(false).height);

    let city = frame.node(walled);
    assert_eq!(image.at(city), colours::SEATS[0]);
    assert_eq!(image.at(offset(city, 0.25, 0.25)), colours::WALL);
    assert_eq!(image.at(offset(city, 0.0, -0.42)), colours::METROPOLIS);
    assert_eq!(
        image.at(offset(frame.node(active), 0.0, -0.1)),
        colours::SEATS[1]
    );
    assert_eq!(
        image.at(offset(frame.node(inactive), 0.0, -0.1)),
        colours::TOKEN
    );
    assert_eq!(
        image.at(offset(frame.hex_centre(12), 0.55, 0.05)),
        colours::SEATS[1]
    );
    for space in 0..7 {
        let expected = if space == 3 {
            colours::INK
        } else {
            colours::TOKEN
        };
        assert_eq!(
            image.at(frame.track_space(space, 7)),
            expected,
            "space {space}"
        );
    }
    assert!(
        drawn.alt.contains(&format!(
            "Bob (blue): a strong active knight on node {active}."
        )),
        "{}",
        drawn.alt
    );
    assert!(
        drawn.alt.contains("The barbarian ship is on space 3 of 7"),
        "{}",
        drawn.alt
    );
}

/// Plays `turns` random actions of a catan_for_two game (two automated
/// seats); returns the state and the last events as `viewer` sees them.
fn played(turns: usize, viewer: Seat) -> (GameState, Vec<Event>) {
    let (mut s, _) = GameState::new(&GameConfig::new(Variant::CatanForTwo), 11).unwrap();
    let mut rng = GameRng::from_seed(5);
    let mut last = Vec::new();
    for _ in 0..turns {
        let Some(&seat) = s.awaiting().first() else {
            break;
        };
        let legal = s.legal_actions(seat);
        let action = hexpost_engine::sim::random_action(&s, seat, &legal, &mut rng).unwrap();
        last = s.apply(seat, &action).unwrap();
    }
    let seen = last.iter().map(|e| e.redacted_for(Some(viewer))).collect();
    (s, seen)
}

#[test]
fn the_picture_depends_on_nothing_its_reader_may_not_see() {
    let viewer = Seat(0);
    let (s, events) = played(400, viewer);
    assert!(
        s.buildings.iter().flatten().count() >= 6,
        "a board with pieces"
    );
    let picture_of = |state: &GameState| {
        let mut changed = Changed::default();
        for event in &events {
            changed.note(event);
        }
        picture::render(&Scene::of(&state.view(Some(viewer)), &names(), changed))
            .unwrap()
            .png
    };
    let before = picture_of(&s);
    let mut hidden = s.clone();
    let mut rng = GameRng::from_seed(99);
    // The opponent's hand: the same count, other cards.
    let opponent = &mut hidden.players[1].hand;
    let total = opponent.total();
    *opponent = hexpost_engine::Cards::ZERO;
    opponent[hexpost_engine::Card::Ore] = total as _;
    if let Some(dev) = &mut hidden.dev {
        dev.perturb_hidden(viewer, &mut rng);
    }
    hidden.rng = GameRng::from_seed(12345);
    assert!(hidden != s, "hidden facts changed");
    assert_eq!(picture_of(&hidden), before);
    // What the reader may see does change it.
    let mut moved = s.clone();
    moved.robber = (s.robber + 1) % 19;
    assert_ne!(picture_of(&moved), before);
}

/// Knights activated or promoted since the reader's last decision are
/// outlined like any other changed piece, and only they: the picture
/// differs from the same position without changes only around them.
#[test]
fn knights_activated_or_promoted_are_outlined() {
    let t = topology();
    let mut s = beginner(Variant::CkForTwo);
    let activated = t.hexes[3].nodes[0];
    let promoted = t.hexes[11].nodes[3];
    let untouched = t.hexes[16].nodes[1];
    let VariantState::CkForTwo(ck) = &mut s.variant else {
        panic!("ck_for_two keeps its own state");
    };
    place_knights(
        ck,
        [
            (activated, 0, KnightLevel::Basic, true),
            (promoted, 1, KnightLevel::Strong, false),
            (untouched, 0, KnightLevel::Mighty, true),
        ],
    );
    let mut changed = Changed::default();
    for event in [
        Event::KnightActivated {
            seat: Seat(0),
            node: activated,
            free: false,
        },
        Event::KnightPromoted {
            seat: Seat(1),
            node: promoted,
            level: KnightLevel::Strong,
            free: false,
        },
    ] {
        changed.note(&event);
    }
    let view = s.view(Some(Seat(1)));
    let scene = Scene::of(&view, &names(), changed);
    let drawn = picture::render(&scene).unwrap();
    let image = Decoded::of(&drawn.png);
    let plain = Decoded::of(
        &picture::render(&Scene::of(&view, &names(), Changed::default()))
            .unwrap()
            .png,
    );
    let frame = Frame::new(true);

    for node in [activated, promoted] {
        let knight = frame.node(node);
        for (dx, dy) in [(0.3, 0.0), (-0.3, 0.0), (0.0, 0.3), (0.0, -0.3)] {
            assert_eq!(
                image.at(offset(knight, dx, dy)),
                colours::HIGHLIGHT,
                "around the knight on node {node}"
            );
        }
        // The knight itself is drawn as before, over its outline.
        assert_eq!(image.at(knight), plain.at(knight), "node {node}");
    }
    assert_eq!(
        image.at(offset(frame.node(activated), 0.0, -0.1)),
        colours::SEATS[0],
        "active: filled in its owner's colour"
    );
    assert_eq!(
        image.at(offset(frame.node(promoted), 0.0, -0.1)),
        colours::TOKEN,
        "inactive: hollow"
    );
    assert_ne!(
        image.at(offset(frame.node(untouched), 0.3, 0.0)),
        colours::HIGHLIGHT
    );

    // Every pixel that differs from the picture without changes lies
    // within the outline of one of the two knights.
    let reach = 0.36 * RADIUS + 1.5;
    let mut differing = 0;
    for y in 0..image.height {
        for x in 0..image.width {
            let at = (x as f32, y as f32);
            if image.at(at) == plain.at(at) {
                continue;
            }
            differing += 1;
            let near = [activated, promoted].iter().any(|&n| {
                let (kx, ky) = frame.node(n);
                (kx - at.0).hypot(ky - at.1) <= reach
            });
            assert!(near, "pixel ({x}, {y}) changed away from both knights");
        }
    }
    assert!(differing > 200, "{differing} pixels outlined");
    for told in [
        format!("Ada's basic active knight on node {activated}, "),
        format!("Bob's strong inactive knight on node {promoted}, "),
    ] {
        assert!(drawn.alt.contains(&told), "{told} in {}", drawn.alt);
    }
}
