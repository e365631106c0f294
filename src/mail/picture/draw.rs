//! Drawing with tiny-skia: flat colours without anti-aliasing, so every
//! pixel is one of the palette's colours (see `palette`). Each piece, the
//! fields, harbors and tokens of a layout's fixed layer (`fixed_layer`) as
//! well as what a scene adds, is drawn alone once and kept (`sprites`).

use super::colours::{self, Rgb};
use super::geometry::{Frame, Point, RADIUS, lerp};
use super::glyphs;
use super::scene::{BARBARIAN_TRACK, Scene};
use hexpost_engine::board::{EdgeId, HarborKind, HexId, NodeId, Terrain, topology};
use hexpost_engine::state::BuildingKind;
use tiny_skia::{FillRule, LineCap, Paint, Path, PathBuilder, Pixmap, Rect, Stroke, Transform};

/// One thing a scene draws over its layout's fixed layer: what it is and
/// where, all that its pixels depend on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Piece {
    /// A hex in its border colour with its field on it; no terrain for a
    /// hex removed from the board.
    Field {
        hex: HexId,
        terrain: Option<Terrain>,
    },
    HexOutline(HexId),
    Harbor {
        slot: u8,
        kind: HarborKind,
        out: bool,
    },
    Token {
        hex: HexId,
        number: u8,
    },
    Robber {
        hex: HexId,
        beside_token: bool,
    },
    Merchant {
        hex: HexId,
        owner: u8,
    },
    EdgeOutline(EdgeId),
    Road {
        edge: EdgeId,
        owner: u8,
    },
    NodeOutline(NodeId),
    Wall(NodeId),
    Building {
        node: NodeId,
        owner: u8,
        city: bool,
    },
    Metropolis(NodeId),
    Knight {
        node: NodeId,
        owner: u8,
        level: u8,
        active: bool,
    },
    Track {
        ship: u8,
    },
}

/// The pieces of `scene`'s fixed layer, on the sea, in drawing order.
pub fn fixed_pieces(scene: &Scene) -> impl Iterator<Item = Piece> + '_ {
    fields(scene).chain(harbors(scene)).chain(tokens(scene))
}

/// The pieces `scene` draws over its fixed layer, in drawing order (later
/// ones cover earlier ones). Places the board does not have are left out.
pub fn pieces(scene: &Scene) -> Vec<Piece> {
    let t = topology();
    let hex_count = scene.tiles.len().min(t.hexes.len());
    let hexes = |h: HexId| (h as usize) < hex_count;
    let nodes = |n: NodeId| (n as usize) < t.nodes.len();
    let edges = |e: EdgeId| (e as usize) < t.edges.len();
    let changed = &scene.changed;
    let mut out: Vec<Piece> = Vec::new();
    for &hex in changed.hexes.iter().filter(|&&h| hexes(h)) {
        out.push(Piece::HexOutline(hex));
    }
    if !out.is_empty() {
        // The outlines lie under the harbors and tokens: drawing those
        // again in the same flat colours gives the pixels of drawing the
        // board in one go.
        out.extend(harbors(scene));
        out.extend(tokens(scene));
    }
    if hexes(scene.robber) {
        let beside_token = scene
            .tiles
            .get(scene.robber as usize)
            .is_some_and(|t| t.number.is_some() && !scene.is_removed(scene.robber));
        out.push(Piece::Robber {
            hex: scene.robber,
            beside_token,
        });
    }
    let ck = scene.ck.as_ref();
    if let Some((hex, owner)) = ck.and_then(|ck| ck.merchant).filter(|&(h, _)| hexes(h)) {
        out.push(Piece::Merchant { hex, owner });
    }
    for &edge in changed.edges.iter().filter(|&&e| edges(e)) {
        out.push(Piece::EdgeOutline(edge));
    }
    for road in scene.roads.iter().filter(|r| edges(r.edge)) {
        out.push(Piece::Road {
            edge: road.edge,
            owner: road.owner.0,
        });
    }
    for &node in changed.nodes.iter().filter(|&&n| nodes(n)) {
        out.push(Piece::NodeOutline(node));
    }
    if let Some(ck) = ck {
        out.extend(
            ck.walls
                .iter()
                .filter(|&&n| nodes(n))
                .map(|&n| Piece::Wall(n)),
        );
    }
    for building in scene.buildings.iter().filter(|b| nodes(b.node)) {
        out.push(Piece::Building {
            node: building.node,
            owner: building.owner.0,
            city: building.kind == BuildingKind::City,
        });
    }
    if let Some(ck) = ck {
        let metropolises = ck.metropolises.iter().filter(|&&n| nodes(n));
        out.extend(metropolises.map(|&n| Piece::Metropolis(n)));
        for knight in ck.knights.iter().filter(|k| nodes(k.node)) {
            out.push(Piece::Knight {
                node: knight.node,
                owner: knight.owner,
                level: knight.level,
                active: knight.active,
            });
        }
        out.push(Piece::Track {
            ship: ck.barbarians,
        });
    }
    out
}

/// A hex's field lies a little inside it and so never covers another
/// hex's pixels: each hex's border and field drawn in turn gives the
/// pixels of all borders first and all fields after (the unit tests
/// compare both).
fn fields(scene: &Scene) -> impl Iterator<Item = Piece> + '_ {
    field_terrains(scene).map(|(hex, terrain)| Piece::Field { hex, terrain })
}

/// Each hex of the board with its terrain, none where it is removed.
fn field_terrains(scene: &Scene) -> impl Iterator<Item = (HexId, Option<Terrain>)> + '_ {
    let hexes = topology().hexes.len();
    let tiles = scene.tiles.iter().take(hexes).enumerate();
    tiles.map(|(hex, tile)| {
        let hex = hex as HexId;
        (hex, (!scene.is_removed(hex)).then_some(tile.terrain))
    })
}

fn harbors(scene: &Scene) -> impl Iterator<Item = Piece> + '_ {
    let slots = topology().harbor_edges.len();
    scene
        .harbors
        .iter()
        .take(slots)
        .enumerate()
        .map(|(slot, &kind)| Piece::Harbor {
            slot: slot as u8,
            kind,
            out: scene.harbors_out.contains(&(slot as u8)),
        })
}

fn tokens(scene: &Scene) -> impl Iterator<Item = Piece> + '_ {
    let hexes = topology().hexes.len();
    let numbered = scene.tiles.iter().take(hexes).enumerate();
    numbered.filter_map(
        |(hex, tile)| match (tile.number, scene.is_removed(hex as u8)) {
            (Some(number), false) => Some(Piece::Token {
                hex: hex as u8,
                number,
            }),
            _ => None,
        },
    )
}

/// The whole picture drawn in one go, the fixed layer and every piece on
/// one pixmap: what the kept layer and pieces must add up to.
#[cfg(test)]
pub fn scene(scene: &Scene, frame: &Frame) -> Result<Pixmap, String> {
    let mut canvas = Canvas {
        pixmap: fixed(scene, frame)?,
        origin: (0, 0),
        reach: None,
    };
    for piece in pieces(scene) {
        canvas.piece(piece, frame);
    }
    Ok(canvas.pixmap)
}

/// What every picture of a layout shares, drawn in one go: the sea, every
/// hex's border, every field, the harbors and the number tokens. What the
/// kept fixed pieces must add up to.
#[cfg(test)]
pub fn fixed(scene: &Scene, frame: &Frame) -> Result<Pixmap, String> {
    let mut canvas = Canvas::new(frame)?;
    let [r, g, b] = colours::SEA;
    canvas
        .pixmap
        .fill(tiny_skia::Color::from_rgba8(r, g, b, 255));
    for (hex, _) in field_terrains(scene) {
        canvas.fill(polygon(&frame.hex_corners(hex)), colours::HEX_BORDER);
    }
    for (hex, terrain) in field_terrains(scene) {
        canvas.fill(field(hex, frame), field_colour(terrain));
    }
    for piece in harbors(scene).chain(tokens(scene)) {
        canvas.piece(piece, frame);
    }
    Ok(canvas.pixmap)
}

/// A hex's field: the hex a little smaller, its border left around it.
fn field(hex: HexId, frame: &Frame) -> Option<Path> {
    let centre = frame.hex_centre(hex);
    polygon(&frame.hex_corners(hex).map(|c| lerp(centre, c, 0.965)))
}

fn field_colour(terrain: Option<Terrain>) -> Rgb {
    terrain.map_or(colours::REMOVED, colours::terrain)
}

/// `piece` alone on a transparent pixmap just large enough for it, and
/// where that pixmap's top left corner lies in the frame (whole pixels, so
/// the piece's pixels are those of drawing it on the whole frame). None
/// when it covers nothing.
pub fn alone(piece: Piece, frame: &Frame) -> Result<Option<Alone>, String> {
    // Its paths' reach first, drawn on one pixel: nearly all of it clipped.
    let mut probe = Canvas::at(1, 1, (0, 0))?;
    probe.piece(piece, frame);
    let Some(reach) = probe.reach else {
        return Ok(None);
    };
    let left = (reach.left().floor() - 1.0).max(0.0) as u32;
    let top = (reach.top().floor() - 1.0).max(0.0) as u32;
    let right = ((reach.right().ceil() + 1.0) as u32).min(frame.width);
    let bottom = ((reach.bottom().ceil() + 1.0) as u32).min(frame.height);
    if right <= left || bottom <= top {
        return Ok(None);
    }
    let mut canvas = Canvas::at(right - left, bottom - top, (left, top))?;
    canvas.piece(piece, frame);
    Ok(Some((canvas.pixmap, (left, top))))
}

/// A piece drawn alone, and where its pixmap's top left corner lies.
pub type Alone = (Pixmap, (u32, u32));

struct Canvas {
    pixmap: Pixmap,
    /// Where the pixmap's top left corner lies in the frame.
    origin: (u32, u32),
    /// What the paths drawn so far reach, in the frame.
    reach: Option<Rect>,
}

fn paint(colour: Rgb) -> Paint<'static> {
    let mut paint = Paint {
        anti_alias: false,
        ..Paint::default()
    };
    paint.set_color_rgba8(colour[0], colour[1], colour[2], 255);
    paint
}

fn polygon(points: &[Point]) -> Option<Path> {
    let mut path = PathBuilder::new();
    path.move_to(points[0].0, points[0].1);
    for p in &points[1..] {
        path.line_to(p.0, p.1);
    }
    path.close();
    path.finish()
}

/// A line `width` wide from `a` to `b` as a filled quadrilateral: filling
/// costs far less than stroking.
fn bar(a: Point, b: Point, width: f32) -> Option<Path> {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = dx.hypot(dy).max(f32::EPSILON);
    let (nx, ny) = (-dy / len * width / 2.0, dx / len * width / 2.0);
    polygon(&[
        (a.0 + nx, a.1 + ny),
        (b.0 + nx, b.1 + ny),
        (b.0 - nx, b.1 - ny),
        (a.0 - nx, a.1 - ny),
    ])
}

fn circle(centre: Point, radius: f32) -> Option<Path> {
    PathBuilder::from_circle(centre.0, centre.1, radius)
}

impl Canvas {
    /// A transparent canvas of the frame's size.
    #[cfg(test)]
    fn new(frame: &Frame) -> Result<Canvas, String> {
        Canvas::at(frame.width, frame.height, (0, 0))
    }

    /// A transparent canvas `width` by `height` whose top left corner lies
    /// at `origin` in the frame.
    fn at(width: u32, height: u32, origin: (u32, u32)) -> Result<Canvas, String> {
        let pixmap = Pixmap::new(width, height).ok_or("an empty picture")?;
        Ok(Canvas {
            pixmap,
            origin,
            reach: None,
        })
    }

    /// Frame coordinates to the pixmap's: a shift by whole pixels.
    fn shift(&self) -> Transform {
        Transform::from_translate(-(self.origin.0 as f32), -(self.origin.1 as f32))
    }

    /// Notes that a path reaches `bounds`, `outset` pixels further out.
    fn reaches(&mut self, bounds: Rect, outset: f32) {
        let out = Rect::from_ltrb(
            bounds.left() - outset,
            bounds.top() - outset,
            bounds.right() + outset,
            bounds.bottom() + outset,
        );
        self.reach = match (self.reach, out) {
            (Some(r), Some(o)) => Rect::from_ltrb(
                r.left().min(o.left()),
                r.top().min(o.top()),
                r.right().max(o.right()),
                r.bottom().max(o.bottom()),
            ),
            (r, o) => o.or(r),
        };
    }

    fn fill(&mut self, path: Option<Path>, colour: Rgb) {
        if let Some(path) = path {
            self.reaches(path.bounds(), 0.0);
            let shift = self.shift();
            self.pixmap
                .fill_path(&path, &paint(colour), FillRule::Winding, shift, None);
        }
    }

    fn stroke(&mut self, path: Option<Path>, colour: Rgb, width: f32) {
        if let Some(path) = path {
            // Mitred corners reach out at most the miter limit (4) times
            // half the width.
            self.reaches(path.bounds(), 2.0 * width);
            let stroke = Stroke {
                width,
                line_cap: LineCap::Round,
                ..Stroke::default()
            };
            let shift = self.shift();
            self.pixmap
                .stroke_path(&path, &paint(colour), &stroke, shift, None);
        }
    }

    /// A disc with an outline `width` wide, as two fills.
    fn disc(&mut self, centre: Point, radius: f32, fill: Rgb, outline: Rgb, width: f32) {
        self.fill(circle(centre, radius + width / 2.0), outline);
        self.fill(circle(centre, radius - width / 2.0), fill);
    }

    /// A filled shape with an outline.
    fn shape(&mut self, path: Option<Path>, fill: Rgb, outline: Rgb, width: f32) {
        if let Some(path) = path {
            self.fill(Some(path.clone()), fill);
            self.stroke(Some(path), outline, width);
        }
    }

    fn piece(&mut self, piece: Piece, frame: &Frame) {
        match piece {
            Piece::Field { hex, terrain } => {
                self.fill(polygon(&frame.hex_corners(hex)), colours::HEX_BORDER);
                self.fill(field(hex, frame), field_colour(terrain));
            }
            Piece::HexOutline(hex) => {
                let corners = frame.hex_corners(hex);
                let inset = corners.map(|c| lerp(frame.hex_centre(hex), c, 0.9));
                self.stroke(polygon(&inset), colours::HIGHLIGHT, 4.0);
            }
            Piece::Harbor { slot, kind, out } => self.harbor(slot, kind, out, frame),
            Piece::Token { hex, number } => self.token(number, frame.hex_centre(hex)),
            Piece::Robber { hex, beside_token } => self.robber(hex, beside_token, frame),
            Piece::Merchant { hex, owner } => {
                let (x, y) = frame.hex_centre(hex);
                let (x, r) = (x + 0.55 * RADIUS, 0.16 * RADIUS);
                let points = [(x, y - r), (x + r, y + r), (x - r, y + r)];
                self.shape(polygon(&points), colours::seat(owner), colours::INK, 1.5);
            }
            Piece::EdgeOutline(edge) => {
                let [a, b] = frame.edge_ends(edge);
                let (a, b) = (lerp(a, b, 0.05), lerp(a, b, 0.95));
                self.fill(bar(a, b, 13.0), colours::HIGHLIGHT);
            }
            Piece::Road { edge, owner } => {
                let [a, b] = frame.edge_ends(edge);
                let (a, b) = (lerp(a, b, 0.17), lerp(a, b, 0.83));
                self.fill(bar(lerp(a, b, -0.03), lerp(a, b, 1.03), 8.0), colours::INK);
                self.fill(bar(a, b, 5.0), colours::seat(owner));
            }
            Piece::NodeOutline(node) => {
                self.fill(circle(frame.node(node), 0.36 * RADIUS), colours::HIGHLIGHT);
            }
            Piece::Wall(node) => {
                let (x, y) = frame.node(node);
                let half = 0.27 * RADIUS;
                let wall = Rect::from_ltrb(x - half, y - half, x + half, y + half)
                    .map(PathBuilder::from_rect);
                self.fill(wall, colours::WALL);
            }
            Piece::Building { node, owner, city } => self.building(node, owner, city, frame),
            Piece::Metropolis(node) => {
                let (x, y) = frame.node(node);
                let r = 0.14 * RADIUS;
                let top = y - 0.42 * RADIUS;
                let points = [(x, top - r), (x + r, top + r), (x - r, top + r)];
                self.shape(polygon(&points), colours::METROPOLIS, colours::INK, 1.5);
            }
            Piece::Knight {
                node,
                owner,
                level,
                active,
            } => self.knight(node, owner, level, active, frame),
            Piece::Track { ship } => self.track(ship, frame),
        }
    }

    fn harbor(&mut self, slot: u8, kind: HarborKind, out: bool, frame: &Frame) {
        let anchor = frame.harbor_anchor(slot);
        let [a, b] = frame.edge_ends(topology().harbor_edges[slot as usize]);
        for end in [a, b] {
            let pier = bar(anchor, lerp(anchor, end, 0.8), 3.0);
            self.fill(pier, colours::HARBOR_RING);
        }
        let fill = if out {
            colours::HARBOR_OUT
        } else {
            colours::harbor(kind)
        };
        self.disc(anchor, 0.24 * RADIUS, fill, colours::HARBOR_RING, 2.0);
        let ratio = glyphs::number(kind.ratio(), anchor, 0.26 * RADIUS, 2.0);
        self.fill(ratio, colours::INK);
    }

    fn token(&mut self, number: u8, centre: Point) {
        self.disc(
            centre,
            0.3 * RADIUS,
            colours::TOKEN,
            colours::TOKEN_RING,
            2.0,
        );
        let ink = if matches!(number, 6 | 8) {
            colours::HOT_NUMBER
        } else {
            colours::INK
        };
        let digits = (centre.0, centre.1 - 0.05 * RADIUS);
        self.fill(glyphs::number(number, digits, 0.3 * RADIUS, 2.5), ink);
        // Pips: how many of the 36 rolls give the number.
        let pips = 6 - (7 - number as i32).abs();
        let (size, gap) = (2.0, 3.5);
        let y = centre.1 + 0.17 * RADIUS;
        let left = centre.0 - gap * (pips - 1) as f32 / 2.0 - size / 2.0;
        for i in 0..pips.max(0) {
            let x = left + i as f32 * gap;
            if let Some(rect) = Rect::from_xywh(x, y, size, size) {
                self.fill(Some(PathBuilder::from_rect(rect)), ink);
            }
        }
    }

    fn robber(&mut self, hex: HexId, beside_token: bool, frame: &Frame) {
        let (x, y) = frame.hex_centre(hex);
        // Beside the number token, or on the hex's middle when it has none.
        let x = if beside_token { x - 0.55 * RADIUS } else { x };
        let (white, ink) = (colours::WHITE, colours::INK);
        self.disc((x, y + 0.06 * RADIUS), 0.17 * RADIUS, ink, white, 2.0);
        self.disc((x, y - 0.2 * RADIUS), 0.11 * RADIUS, ink, white, 2.0);
    }

    fn building(&mut self, node: NodeId, owner: u8, city: bool, frame: &Frame) {
        let (x, y) = frame.node(node);
        let s = 0.15 * RADIUS;
        let outline: Vec<Point> = match city {
            // A house: a square under a gable.
            false => vec![
                (x, y - 1.7 * s),
                (x + s, y - 0.7 * s),
                (x + s, y + s),
                (x - s, y + s),
                (x - s, y - 0.7 * s),
            ],
            // A tower beside a hall.
            true => vec![
                (x - 1.5 * s, y - 2.0 * s),
                (x - 0.3 * s, y - 2.0 * s),
                (x - 0.3 * s, y - 0.5 * s),
                (x + 1.5 * s, y - 0.5 * s),
                (x + 1.5 * s, y + 1.3 * s),
                (x - 1.5 * s, y + 1.3 * s),
            ],
        };
        self.shape(polygon(&outline), colours::seat(owner), colours::INK, 1.5);
    }

    /// A disc in its owner's colour when active, hollow when not, with a
    /// dot for each level.
    fn knight(&mut self, node: NodeId, owner: u8, level: u8, active: bool, frame: &Frame) {
        let centre = frame.node(node);
        let colour = colours::seat(owner);
        let inside = if active { colour } else { colours::TOKEN };
        let radius = 0.22 * RADIUS;
        self.disc(centre, radius, colour, colours::INK, 2.0);
        self.fill(circle(centre, radius * 0.62), inside);
        let ink = colours::ink_on(inside);
        let gap = 4.5;
        let left = centre.0 - gap * (level as f32 - 1.0) / 2.0;
        for i in 0..level {
            self.fill(circle((left + i as f32 * gap, centre.1), 1.6), ink);
        }
    }

    /// The barbarians' track below the board: a square per space, the
    /// ship's filled, the last (the attack) ringed in red.
    fn track(&mut self, ship: u8, frame: &Frame) {
        let top = frame.board_height as f32;
        if let Some(strip) = Rect::from_ltrb(0.0, top, frame.width as f32, frame.height as f32) {
            self.fill(Some(PathBuilder::from_rect(strip)), colours::TRACK);
        }
        let half = 0.2 * RADIUS;
        for space in 0..BARBARIAN_TRACK {
            let (x, y) = frame.track_space(space, BARBARIAN_TRACK);
            let square =
                Rect::from_ltrb(x - half, y - half, x + half, y + half).map(PathBuilder::from_rect);
            let fill = if space == ship {
                colours::INK
            } else {
                colours::TOKEN
            };
            let ring = if space == BARBARIAN_TRACK - 1 {
                colours::HOT_NUMBER
            } else {
                colours::HEX_BORDER
            };
            self.shape(square, fill, ring, 2.0);
        }
    }
}
