//! Drawing a scene with tiny-skia: flat colours without anti-aliasing, so
//! every pixel is one of the palette's colours (see `palette`).

use super::colours::{self, Rgb};
#[cfg(test)]
use super::fixed_layer;
use super::geometry::{Frame, Point, RADIUS, lerp};
use super::glyphs;
use super::scene::{BARBARIAN_TRACK, KnightPiece, Scene};
use hexpost_engine::state::BuildingKind;
use hexpost_engine::view::PlacedBuilding;
use tiny_skia::{
    Color, FillRule, LineCap, Paint, Path, PathBuilder, Pixmap, Rect, Stroke, Transform,
};

/// The whole picture: a copy of the board's fixed layer (drawn once per
/// layout, see `fixed_layer`) with the scene's pieces drawn on it.
#[cfg(test)]
pub fn scene(scene: &Scene, frame: &Frame) -> Result<Pixmap, String> {
    let fixed = fixed_layer::of(scene, frame)?;
    Ok(on(&fixed.pixmap, scene, frame))
}

/// `scene`'s pieces drawn on a copy of `fixed`, its layout's layer.
pub fn on(fixed: &Pixmap, scene: &Scene, frame: &Frame) -> Pixmap {
    let mut canvas = Canvas {
        pixmap: fixed.clone(),
    };
    canvas.pieces(scene, frame);
    if let Some(ck) = &scene.ck {
        canvas.track(ck.barbarians, frame);
    }
    canvas.pixmap
}

/// What every picture of a layout shares: the sea, the fields, the
/// harbors and the number tokens.
pub fn fixed(scene: &Scene, frame: &Frame) -> Result<Pixmap, String> {
    let mut canvas = Canvas::new(frame)?;
    canvas.fields(scene, frame);
    canvas.harbors(scene, frame);
    canvas.tokens(scene, frame);
    Ok(canvas.pixmap)
}

struct Canvas {
    pixmap: Pixmap,
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
    fn new(frame: &Frame) -> Result<Canvas, String> {
        let mut pixmap = Pixmap::new(frame.width, frame.height).ok_or("an empty picture")?;
        let [r, g, b] = colours::SEA;
        pixmap.fill(Color::from_rgba8(r, g, b, 255));
        Ok(Canvas { pixmap })
    }

    fn fill(&mut self, path: Option<Path>, colour: Rgb) {
        if let Some(path) = path {
            self.pixmap.fill_path(
                &path,
                &paint(colour),
                FillRule::Winding,
                Transform::identity(),
                None,
            );
        }
    }

    fn stroke(&mut self, path: Option<Path>, colour: Rgb, width: f32) {
        if let Some(path) = path {
            let stroke = Stroke {
                width,
                line_cap: LineCap::Round,
                ..Stroke::default()
            };
            self.pixmap
                .stroke_path(&path, &paint(colour), &stroke, Transform::identity(), None);
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

    fn fields(&mut self, scene: &Scene, frame: &Frame) {
        // The borders: each hex whole in the border colour, then its
        // field a little smaller on top.
        for hex in 0..scene.tiles.len() as u8 {
            self.fill(polygon(&frame.hex_corners(hex)), colours::HEX_BORDER);
        }
        for (hex, tile) in scene.tiles.iter().enumerate() {
            let hex = hex as u8;
            let centre = frame.hex_centre(hex);
            let field = frame.hex_corners(hex).map(|c| lerp(centre, c, 0.965));
            let fill = if scene.is_removed(hex) {
                colours::REMOVED
            } else {
                colours::terrain(tile.terrain)
            };
            self.fill(polygon(&field), fill);
        }
    }

    fn tokens(&mut self, scene: &Scene, frame: &Frame) {
        for (hex, tile) in scene.tiles.iter().enumerate() {
            let hex = hex as u8;
            if let (Some(number), false) = (tile.number, scene.is_removed(hex)) {
                self.token(number, frame.hex_centre(hex));
            }
        }
    }

    /// Everything a scene adds to its layout's fixed layer.
    fn pieces(&mut self, scene: &Scene, frame: &Frame) {
        let mut outlined = false;
        for &hex in &scene.changed.hexes {
            if (hex as usize) < scene.tiles.len() {
                let corners = frame.hex_corners(hex);
                let inset = corners.map(|c| lerp(frame.hex_centre(hex), c, 0.9));
                self.stroke(polygon(&inset), colours::HIGHLIGHT, 4.0);
                outlined = true;
            }
        }
        if outlined {
            // The outlines lie under the harbors and tokens: drawing those
            // again in the same flat colours gives the pixels of drawing
            // the board in one go.
            self.harbors(scene, frame);
            self.tokens(scene, frame);
        }
        self.robber(scene, frame);
        if let Some((hex, owner)) = scene.ck.as_ref().and_then(|ck| ck.merchant) {
            let (x, y) = frame.hex_centre(hex);
            let (x, r) = (x + 0.55 * RADIUS, 0.16 * RADIUS);
            let points = [(x, y - r), (x + r, y + r), (x - r, y + r)];
            self.shape(polygon(&points), colours::seat(owner), colours::INK, 1.5);
        }
        for &edge in &scene.changed.edges {
            let [a, b] = frame.edge_ends(edge);
            let (a, b) = (lerp(a, b, 0.05), lerp(a, b, 0.95));
            self.fill(bar(a, b, 13.0), colours::HIGHLIGHT);
        }
        for road in &scene.roads {
            let [a, b] = frame.edge_ends(road.edge);
            let (a, b) = (lerp(a, b, 0.17), lerp(a, b, 0.83));
            self.fill(bar(lerp(a, b, -0.03), lerp(a, b, 1.03), 8.0), colours::INK);
            self.fill(bar(a, b, 5.0), colours::seat(road.owner.0));
        }
        for &node in &scene.changed.nodes {
            self.fill(circle(frame.node(node), 0.36 * RADIUS), colours::HIGHLIGHT);
        }
        if let Some(ck) = &scene.ck {
            for &node in &ck.walls {
                let (x, y) = frame.node(node);
                let half = 0.27 * RADIUS;
                let wall = Rect::from_ltrb(x - half, y - half, x + half, y + half)
                    .map(PathBuilder::from_rect);
                self.fill(wall, colours::WALL);
            }
        }
        for building in &scene.buildings {
            self.building(building, frame);
        }
        if let Some(ck) = &scene.ck {
            for &node in &ck.metropolises {
                let (x, y) = frame.node(node);
                let r = 0.14 * RADIUS;
                let top = y - 0.42 * RADIUS;
                let points = [(x, top - r), (x + r, top + r), (x - r, top + r)];
                self.shape(polygon(&points), colours::METROPOLIS, colours::INK, 1.5);
            }
            for knight in &ck.knights {
                self.knight(knight, frame);
            }
        }
    }

    fn harbors(&mut self, scene: &Scene, frame: &Frame) {
        let t = hexpost_engine::board::topology();
        for (slot, &kind) in scene.harbors.iter().enumerate() {
            let slot = slot as u8;
            let anchor = frame.harbor_anchor(slot);
            let [a, b] = frame.edge_ends(t.harbor_edges[slot as usize]);
            for end in [a, b] {
                let pier = bar(anchor, lerp(anchor, end, 0.8), 3.0);
                self.fill(pier, colours::HARBOR_RING);
            }
            let fill = if scene.harbors_out.contains(&slot) {
                colours::HARBOR_OUT
            } else {
                colours::harbor(kind)
            };
            self.disc(anchor, 0.24 * RADIUS, fill, colours::HARBOR_RING, 2.0);
            let ratio = glyphs::number(kind.ratio(), anchor, 0.26 * RADIUS, 2.0);
            self.fill(ratio, colours::INK);
        }
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

    fn robber(&mut self, scene: &Scene, frame: &Frame) {
        let (x, y) = frame.hex_centre(scene.robber);
        let has_token = scene
            .tiles
            .get(scene.robber as usize)
            .is_some_and(|t| t.number.is_some() && !scene.is_removed(scene.robber));
        // Beside the number token, or on the hex's middle when it has none.
        let x = if has_token { x - 0.55 * RADIUS } else { x };
        let (white, ink) = (colours::WHITE, colours::INK);
        self.disc((x, y + 0.06 * RADIUS), 0.17 * RADIUS, ink, white, 2.0);
        self.disc((x, y - 0.2 * RADIUS), 0.11 * RADIUS, ink, white, 2.0);
    }

    fn building(&mut self, building: &PlacedBuilding, frame: &Frame) {
        let (x, y) = frame.node(building.node);
        let s = 0.15 * RADIUS;
        let outline: Vec<Point> = match building.kind {
            // A house: a square under a gable.
            BuildingKind::Settlement => vec![
                (x, y - 1.7 * s),
                (x + s, y - 0.7 * s),
                (x + s, y + s),
                (x - s, y + s),
                (x - s, y - 0.7 * s),
            ],
            // A tower beside a hall.
            BuildingKind::City => vec![
                (x - 1.5 * s, y - 2.0 * s),
                (x - 0.3 * s, y - 2.0 * s),
                (x - 0.3 * s, y - 0.5 * s),
                (x + 1.5 * s, y - 0.5 * s),
                (x + 1.5 * s, y + 1.3 * s),
                (x - 1.5 * s, y + 1.3 * s),
            ],
        };
        self.shape(
            polygon(&outline),
            colours::seat(building.owner.0),
            colours::INK,
            1.5,
        );
    }

    /// A disc in its owner's colour when active, hollow when not, with a
    /// dot for each level.
    fn knight(&mut self, knight: &KnightPiece, frame: &Frame) {
        let centre = frame.node(knight.node);
        let colour = colours::seat(knight.owner);
        let inside = if knight.active {
            colour
        } else {
            colours::TOKEN
        };
        let radius = 0.22 * RADIUS;
        self.disc(centre, radius, colour, colours::INK, 2.0);
        self.fill(circle(centre, radius * 0.62), inside);
        let ink = colours::ink_on(inside);
        let gap = 4.5;
        let left = centre.0 - gap * (knight.level as f32 - 1.0) / 2.0;
        for i in 0..knight.level {
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
