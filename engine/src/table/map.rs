//! The board rendered as a picture.
//!
//! [`MapView`] is the part of the bot's state dump that the picture needs; [`render_svg`] draws it
//! as an SVG document in pixel units and [`render_png`] rasterizes that in-process with resvg,
//! using the DejaVu fonts shipped in `bot/assets/fonts/` (never the system's), so the picture is
//! the same on every machine.
//!
//! Layout: the 139 hexes at their printed places on a sea-blue background (flat-topped hexes,
//! odd columns half a hex lower), and a side panel on the right with the railways, the cube
//! supply, the dividend draws, the players and a key.
//!
//! Everything that never changes (the hexes, their ids and names, the panel's title and key) is
//! rasterized once and kept; each PNG draws only the state of the game over a copy of it.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::{Arc, LazyLock};

use crate::{Board, Colour, HexId, Railway, Terrain};

pub use super::view::{PlayerView, RailwayView, View as MapView};
use resvg::{tiny_skia, usvg};

/// The regular DejaVu Sans face, embedded.
const FONT_REGULAR: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");
/// The bold DejaVu Sans face, embedded.
const FONT_BOLD: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-Bold.ttf");
/// The font family the SVG asks for.
const FONT_FAMILY: &str = "DejaVu Sans";

/// Pixels per millimetre of the printed board.
const SCALE: f32 = 4.0;
/// Hex circumradius on the printed board, in mm (column spacing 18.75 mm = 1.5 × 12.5).
const HEX_RADIUS_MM: f32 = 12.5;
/// Hex circumradius in pixels.
const R: f32 = HEX_RADIUS_MM * SCALE;
/// West edge of the westmost hex, in board mm (centre 36.56 minus the radius).
const BOARD_WEST_MM: f32 = 36.56 - HEX_RADIUS_MM;
/// North edge of the northmost hex, in board mm (centre 58.41 minus half a hex height).
const BOARD_NORTH_MM: f32 = 58.41 - HEX_RADIUS_MM * 0.866_025_4;
/// Width of the board's hexes, in mm (easternmost centre 242.81 plus the radius).
const BOARD_WIDTH_MM: f32 = 242.81 + HEX_RADIUS_MM - BOARD_WEST_MM;
/// Height of the board's hexes, in mm (southernmost centre 383.17 plus half a hex height).
const BOARD_HEIGHT_MM: f32 = 383.17 + HEX_RADIUS_MM * 0.866_025_4 - BOARD_NORTH_MM;
/// Sea around the hexes, in pixels.
const MARGIN: f32 = 16.0;
/// Left edge of the side panel, in pixels.
const PANEL_X: f32 = 2.0 * MARGIN + BOARD_WIDTH_MM * SCALE;
/// Width of the side panel, in pixels.
const PANEL_WIDTH: f32 = 350.0;

/// Width of the picture in pixels.
pub const WIDTH: u32 = (PANEL_X + PANEL_WIDTH) as u32;
/// Height of the picture in pixels.
pub const HEIGHT: u32 = (2.0 * MARGIN + BOARD_HEIGHT_MM * SCALE + 0.999) as u32;

/// Radius of a locomotive disc, in pixels.
const LOCO_RADIUS: f32 = 8.5;
/// Distance between neighbouring locomotive discs in a row, in pixels.
const LOCO_SPACING: f32 = 20.0;
/// Distance between rows of locomotive discs, in pixels.
const LOCO_ROW_SPACING: f32 = 17.5;
/// Side of a city's cube, in pixels.
const CUBE_SIZE: f32 = 14.0;

const INK: &str = "#1b2a4a";
const SEA: &str = "#cfe2ef";
const COAST: &str = "#a3c4dc";
const PANEL_BG: &str = "#fbf8f1";
const EASY_FILL: &str = "#c4e09c";
const EASY_STROKE: &str = "#87a866";
const DIFFICULT_FILL: &str = "#3f7f35";
const DIFFICULT_STROKE: &str = "#2f6427";
const URBAN_FILL: &str = "#fffdf7";
const URBAN_STROKE: &str = "#2462b3";
const RECENT_STROKE: &str = "#e6007e";
/// The last turn's ring: drawn this far inside a hex's border, this wide.
const RECENT_INSET: f32 = 1.75;
const RECENT_WIDTH: f32 = 3.5;
/// The width of a locomotive's outline.
const LOCO_STROKE: f32 = 1.4;
/// How far a locomotive's corners reach from its centre, in its radius.
const LOCO_REACH: f32 = 1.05;
const CUBE_STROKE: &str = "#333333";

/// Why a picture could not be made.
#[derive(Debug, thiserror::Error)]
pub enum MapError {
    /// The generated SVG was rejected by the SVG parser (a bug).
    #[error("the map SVG could not be parsed: {0}")]
    Svg(#[from] usvg::Error),
    /// The pixel buffer could not be allocated.
    #[error("could not allocate a {0}x{1} pixel buffer")]
    Pixmap(u32, u32),
    /// PNG encoding failed.
    #[error("could not encode the map as PNG: {0}")]
    Png(String),
}

/// The centre of a hex in the picture, in pixels from the top-left corner.
pub fn hex_centre_px(hex: HexId) -> (f32, f32) {
    let hex = hex.hex();
    (
        MARGIN + (hex.x as f32 - BOARD_WEST_MM) * SCALE,
        MARGIN + (hex.y as f32 - BOARD_NORTH_MM) * SCALE,
    )
}

/// The centres of `count` locomotive discs drawn in `hex`, in railway order.
///
/// Up to three side by side in a row, further ones in a second row, below the city name and cube
/// in an urban hex and around the middle of any other hex.
fn loco_centres_px(hex: HexId, count: usize) -> Vec<(f32, f32)> {
    let (cx, cy) = hex_centre_px(hex);
    let rows = count.div_ceil(3).max(1);
    // Two rows sit closer together (rows touching, discs side by side a disc apart), the first
    // row nearer the cube, so the second stays inside the last turn's ring.
    let (spacing, row_spacing) = if rows > 1 {
        (2.0 * LOCO_RADIUS + 0.5, 2.0 * LOCO_RADIUS)
    } else {
        (LOCO_SPACING, LOCO_ROW_SPACING)
    };
    let first_row_y = match (hex.hex().terrain.is_urban(), rows) {
        (true, 1) => 16.5,
        (true, _) => 13.3,
        (false, _) => 4.0 - (rows as f32 - 1.0) * row_spacing / 2.0,
    };
    (0..count)
        .map(|i| {
            let (row, column) = (i / 3, i % 3);
            let in_row = (count - row * 3).min(3);
            let dx = (column as f32 - (in_row as f32 - 1.0) / 2.0) * spacing;
            (cx + dx, cy + first_row_y + row as f32 * row_spacing)
        })
        .collect()
}

/// The centre of the cube drawn in a city hex.
fn cube_centre_px(hex: HexId) -> (f32, f32) {
    let (cx, cy) = hex_centre_px(hex);
    (cx, cy - 2.5)
}

/// The fill colour of a railway's locomotives.
fn railway_fill(railway: Railway) -> &'static str {
    match railway {
        Railway::Cbsc => "#f7c600",
        Railway::Wlw => "#7b3b9e",
        Railway::Bcd => "#f47b16",
        Railway::Gsw => "#1f5cc8",
        Railway::Mgw => "#d42a2a",
    }
}

/// The shape of a railway's locomotives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LocoShape {
    Disc,
    Square,
    Triangle,
    Diamond,
    Hexagon,
}

/// Each railway's locomotives have a shape of their own, besides their colour.
fn loco_shape(railway: Railway) -> LocoShape {
    match railway {
        Railway::Cbsc => LocoShape::Disc,
        Railway::Wlw => LocoShape::Square,
        Railway::Bcd => LocoShape::Triangle,
        Railway::Gsw => LocoShape::Diamond,
        Railway::Mgw => LocoShape::Hexagon,
    }
}

/// A text colour readable on a railway's colour.
fn railway_text(railway: Railway) -> &'static str {
    match railway {
        Railway::Cbsc | Railway::Bcd => "#1a1a1a",
        _ => "#ffffff",
    }
}

/// The fill colour of a dividend cube.
fn cube_fill(colour: Colour) -> &'static str {
    match colour {
        Colour::White => "#ffffff",
        Colour::Pink => "#f58fba",
        Colour::Black => "#1a1a1a",
    }
}

/// Escapes text for SVG character data and attribute values.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// Shortens text to at most `max` characters, marking the cut with an ellipsis.
fn truncate(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_string()
    } else {
        let mut short: String = text.chars().take(max.saturating_sub(1)).collect();
        short.push('…');
        short
    }
}

/// Text alignment of [`Svg::text`].
#[derive(Clone, Copy)]
enum Anchor {
    Start,
    Middle,
    End,
}

/// Style of [`Svg::text`].
#[derive(Clone, Copy)]
struct TextStyle<'a> {
    size: f32,
    bold: bool,
    fill: &'a str,
    anchor: Anchor,
    /// A stroke of this colour drawn under the glyphs, for legibility over busy ground.
    halo: Option<&'a str>,
}

impl<'a> TextStyle<'a> {
    fn new(size: f32, fill: &'a str) -> Self {
        TextStyle {
            size,
            bold: false,
            fill,
            anchor: Anchor::Start,
            halo: None,
        }
    }

    fn bold(self) -> Self {
        TextStyle { bold: true, ..self }
    }

    fn middle(self) -> Self {
        TextStyle {
            anchor: Anchor::Middle,
            ..self
        }
    }

    fn end(self) -> Self {
        TextStyle {
            anchor: Anchor::End,
            ..self
        }
    }

    fn halo(self, colour: &'a str) -> Self {
        TextStyle {
            halo: Some(colour),
            ..self
        }
    }
}

/// A tiny SVG writer. Writing to a `String` cannot fail, so results of `write!` are ignored.
struct Svg {
    out: String,
}

impl Svg {
    fn new(width: u32, height: u32) -> Self {
        let mut out = String::with_capacity(96 * 1024);
        let _ = write!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="{FONT_FAMILY}">"#
        );
        Svg { out }
    }

    fn finish(mut self) -> String {
        self.out.push_str("</svg>\n");
        self.out
    }

    fn rect(&mut self, x: f32, y: f32, w: f32, h: f32, fill: &str, extra: &str) {
        let _ = write!(
            self.out,
            r#"<rect x="{x:.1}" y="{y:.1}" width="{w:.1}" height="{h:.1}" fill="{fill}" {extra}/>"#
        );
    }

    fn circle(&mut self, cx: f32, cy: f32, r: f32, fill: &str, extra: &str) {
        let _ = write!(
            self.out,
            r#"<circle cx="{cx:.1}" cy="{cy:.1}" r="{r:.1}" fill="{fill}" {extra}/>"#
        );
    }

    fn line(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, stroke: &str, width: f32) {
        let _ = write!(
            self.out,
            r#"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="{stroke}" stroke-width="{width}"/>"#
        );
    }

    /// A flat-topped hexagon of circumradius `r` centred on (`cx`, `cy`).
    fn hexagon(&mut self, cx: f32, cy: f32, r: f32, fill: &str, extra: &str) {
        self.out.push_str("<polygon points=\"");
        for k in 0..6 {
            let angle = std::f32::consts::FRAC_PI_3 * k as f32;
            let _ = write!(
                self.out,
                "{:.1},{:.1} ",
                cx + r * angle.cos(),
                cy + r * angle.sin()
            );
        }
        let _ = write!(self.out, r#"" fill="{fill}" {extra}/>"#);
    }

    /// Text with its baseline at `y`.
    fn text(&mut self, x: f32, y: f32, text: &str, style: TextStyle) {
        let anchor = match style.anchor {
            Anchor::Start => "start",
            Anchor::Middle => "middle",
            Anchor::End => "end",
        };
        let weight = if style.bold { "bold" } else { "normal" };
        let _ = write!(
            self.out,
            r#"<text x="{x:.1}" y="{y:.1}" font-size="{}" font-weight="{weight}" text-anchor="{anchor}" fill="{}""#,
            style.size, style.fill
        );
        if let Some(halo) = style.halo {
            let _ = write!(
                self.out,
                r#" stroke="{halo}" stroke-width="{:.1}" stroke-linejoin="round" paint-order="stroke""#,
                (style.size / 4.0).max(3.0)
            );
        }
        let _ = write!(self.out, ">{}</text>", escape(text));
    }

    /// A locomotive of a railway: a piece in the railway's colour and of its own shape, so that
    /// railways are told apart without their colours (CBSC a disc, WLW a square, BCD a
    /// triangle, GSW a diamond, MGW a hexagon), its corners [`LOCO_REACH`] times `r` from its
    /// centre.
    fn loco(&mut self, cx: f32, cy: f32, r: f32, railway: Railway) {
        let fill = railway_fill(railway);
        let extra = format!(r##"stroke="#1a1a1a" stroke-width="{LOCO_STROKE}""##);
        let corners = |count: usize, radius: f32, start_degrees: f32| -> Vec<(f32, f32)> {
            (0..count)
                .map(|k| {
                    let angle = (start_degrees + 360.0 * k as f32 / count as f32).to_radians();
                    (cx + radius * angle.cos(), cy + radius * angle.sin())
                })
                .collect()
        };
        let polygon = match loco_shape(railway) {
            LocoShape::Disc => return self.circle(cx, cy, r, fill, &extra),
            LocoShape::Square => corners(4, r * LOCO_REACH, 45.0),
            LocoShape::Triangle => corners(3, r * LOCO_REACH, -90.0),
            LocoShape::Diamond => corners(4, r * LOCO_REACH, 0.0),
            LocoShape::Hexagon => corners(6, r * LOCO_REACH, 30.0),
        };
        self.out.push_str("<polygon points=\"");
        for (x, y) in polygon {
            let _ = write!(self.out, "{x:.1},{y:.1} ");
        }
        let _ = write!(
            self.out,
            r#"" fill="{fill}" stroke-linejoin="round" {extra}/>"#
        );
    }

    /// A dividend cube with its centre at (`cx`, `cy`).
    fn cube(&mut self, cx: f32, cy: f32, size: f32, colour: Colour) {
        let stroke = if colour == Colour::Black {
            "#000000"
        } else {
            CUBE_STROKE
        };
        self.rect(
            cx - size / 2.0,
            cy - size / 2.0,
            size,
            size,
            cube_fill(colour),
            &format!(r#"rx="2" stroke="{stroke}" stroke-width="1.5""#),
        );
    }

    /// A share certificate chip: a rounded tag in the railway's colour with the face value.
    fn share_chip(&mut self, x: f32, y: f32, railway: Railway, value: u32) -> f32 {
        let width = if value >= 10 { 26.0 } else { 20.0 };
        self.rect(
            x,
            y,
            width,
            16.0,
            railway_fill(railway),
            r##"rx="3" stroke="#1a1a1a" stroke-width="0.8""##,
        );
        self.text(
            x + width / 2.0,
            y + 12.5,
            &value.to_string(),
            TextStyle::new(11.5, railway_text(railway)).bold().middle(),
        );
        width
    }
}

/// The railways present in each hex, in railway order.
fn railways_by_hex(view: &MapView) -> BTreeMap<HexId, Vec<Railway>> {
    let mut by_hex: BTreeMap<HexId, Vec<Railway>> = BTreeMap::new();
    for railway in Railway::ALL {
        if let Some(state) = view.railways.get(&railway) {
            for &hex in &state.track {
                let here = by_hex.entry(hex).or_default();
                if !here.contains(&railway) {
                    here.push(railway);
                }
            }
        }
    }
    by_hex
}

/// The cube colour of every city hex.
fn cubes_by_hex(view: &MapView) -> BTreeMap<HexId, Colour> {
    let board = Board::get();
    view.cities
        .iter()
        .filter_map(|(name, &colour)| board.find(name).map(|hex| (hex, colour)))
        .collect()
}

/// Draws the board: sea, hexes, labels, cubes and locomotives.
fn draw_board(svg: &mut Svg) {
    let board = Board::get();
    svg.rect(0.0, 0.0, PANEL_X, HEIGHT as f32, SEA, "");
    // A darker rim under every hex makes the coastline.
    svg.out.push_str(&format!(r#"<g fill="{COAST}">"#));
    for hex in &board.hexes {
        let (cx, cy) = hex_centre_px(hex.id);
        svg.hexagon(cx, cy, R + 4.0, COAST, "");
    }
    svg.out.push_str("</g>");
    for hex in &board.hexes {
        let (cx, cy) = hex_centre_px(hex.id);
        let (fill, stroke) = match hex.terrain {
            Terrain::Easy => (EASY_FILL, EASY_STROKE),
            Terrain::Difficult => (DIFFICULT_FILL, DIFFICULT_STROKE),
            Terrain::Town | Terrain::City | Terrain::Major => (URBAN_FILL, EASY_STROKE),
        };
        svg.hexagon(
            cx,
            cy,
            R,
            fill,
            &format!(r#"stroke="{stroke}" stroke-width="1.2""#),
        );
    }
    // Urban outlines go on top of the neighbours' edges, inset so they stay whole.
    for hex in board.hexes.iter().filter(|h| h.terrain.is_urban()) {
        let (cx, cy) = hex_centre_px(hex.id);
        let extra = format!(r#"stroke="{URBAN_STROKE}" stroke-width="3""#);
        svg.hexagon(cx, cy, R - 1.5, "none", &extra);
        if hex.terrain == Terrain::Major {
            let extra = format!(r#"stroke="{URBAN_STROKE}" stroke-width="1.2""#);
            svg.hexagon(cx, cy, R - 6.0, "none", &extra);
        }
    }
    // Labels.
    for hex in &board.hexes {
        let (cx, cy) = hex_centre_px(hex.id);
        let id_colour = match hex.terrain {
            Terrain::Difficult => "#d8ecd0",
            Terrain::Easy => "#4a6a33",
            _ => "#5b6b85",
        };
        let mut id_style = TextStyle::new(10.0, id_colour).middle();
        if hex.terrain.is_urban() {
            id_style = id_style.halo(URBAN_FILL);
        }
        svg.text(cx, cy - 31.0, &hex.label, id_style);
        if let Some(name) = &hex.name {
            let size = if hex.terrain == Terrain::Major {
                13.5
            } else {
                12.5
            };
            svg.text(
                cx,
                cy - 15.0,
                name,
                TextStyle::new(size, INK).bold().middle().halo(URBAN_FILL),
            );
        }
    }
}

/// Draws what is on the board: the last turn's hexes, the cubes and the locomotives.
fn draw_pieces(svg: &mut Svg, view: &MapView) {
    for &hex in &view.recent {
        let (cx, cy) = hex_centre_px(hex);
        let extra = format!(
            r#"stroke="{RECENT_STROKE}" stroke-width="{RECENT_WIDTH}" stroke-linejoin="round""#
        );
        svg.hexagon(cx, cy, R - RECENT_INSET, "none", &extra);
    }
    for (hex, colour) in cubes_by_hex(view) {
        let (x, y) = cube_centre_px(hex);
        svg.cube(x, y, CUBE_SIZE, colour);
    }
    for (hex, railways) in railways_by_hex(view) {
        for (railway, (x, y)) in railways.iter().zip(loco_centres_px(hex, railways.len())) {
            svg.loco(x, y, LOCO_RADIUS, *railway);
        }
    }
}

/// Muted text in the side panel.
const MUTED: &str = "#6b6455";

/// A section heading in the side panel; returns the baseline of its first row.
fn heading(svg: &mut Svg, y: f32, title: &str) -> f32 {
    let x = PANEL_X + 22.0;
    svg.text(x, y, title, TextStyle::new(19.0, INK).bold());
    svg.line(
        x,
        y + 7.0,
        PANEL_X + PANEL_WIDTH - 22.0,
        y + 7.0,
        "#c9c2b0",
        1.0,
    );
    y + 34.0
}

/// The status line under the title.
fn status_line(view: &MapView) -> String {
    if view.finished {
        match view.winners.as_slice() {
            [] => "Game over".to_string(),
            [winner] => format!("Game over · winner: {winner}"),
            winners => format!("Game over · winners: {}", winners.join(", ")),
        }
    } else if let Some(next) = &view.next {
        format!("Next to play: {next}")
    } else {
        String::new()
    }
}

/// Top of the key at the bottom of the side panel.
const KEY_TOP: f32 = HEIGHT as f32 - 206.0;

/// Draws the parts of the side panel that never change: ground, title and key.
fn draw_panel_frame(svg: &mut Svg) {
    svg.rect(PANEL_X, 0.0, PANEL_WIDTH, HEIGHT as f32, PANEL_BG, "");
    svg.line(PANEL_X, 0.0, PANEL_X, HEIGHT as f32, "#8a8270", 2.0);
    let title = TextStyle::new(38.0, INK).bold();
    svg.text(PANEL_X + 22.0, 56.0, "Irish Gauge", title);
    draw_key(svg, KEY_TOP);
}

/// Draws the state of the game in the side panel.
fn draw_panel(svg: &mut Svg, view: &MapView) {
    let left = PANEL_X + 22.0;
    svg.text(
        left,
        88.0,
        &truncate(&status_line(view), 32),
        TextStyle::new(17.0, "#3d4a63"),
    );

    let y = heading(svg, 138.0, "Railways");
    let mut y = draw_railways(svg, view, y);

    // Supply.
    y = heading(svg, y + 52.0, "Cube supply");
    let mut x = left;
    for colour in Colour::ALL {
        svg.cube(x + 9.0, y - 6.0, 18.0, colour);
        svg.text(
            x + 26.0,
            y,
            &format!("{} {}", colour.name(), view.supply.get(colour)),
            TextStyle::new(16.0, INK),
        );
        x += 104.0;
    }

    y = heading(svg, y + 52.0, "Dividend draws");
    y = draw_draws(svg, view, y);

    y = heading(svg, y + 52.0, "Players");
    draw_players(svg, view, y, KEY_TOP);
}

/// The railway table: colour, code, locomotives left, shares for sale. Returns the next y.
fn draw_railways(svg: &mut Svg, view: &MapView, mut y: f32) -> f32 {
    let left = PANEL_X + 22.0;
    let right = PANEL_X + PANEL_WIDTH - 22.0;
    let small = TextStyle::new(12.0, MUTED);
    svg.text(left + 112.0, y - 10.0, "locos left", small.end());
    svg.text(left + 128.0, y - 10.0, "shares for sale", small);
    y += 10.0;
    for railway in Railway::ALL {
        let state = view.railways.get(&railway);
        svg.loco(left + 10.0, y - 6.0, 10.0, railway);
        svg.text(
            left + 28.0,
            y,
            railway.code(),
            TextStyle::new(17.0, INK).bold(),
        );
        let unplaced = state.map_or(0, |s| s.unplaced);
        svg.text(
            left + 112.0,
            y,
            &unplaced.to_string(),
            TextStyle::new(17.0, INK).end(),
        );
        let mut x = left + 128.0;
        match state {
            Some(state) if !state.available.is_empty() => {
                for &value in state.available.iter().take(5) {
                    x += svg.share_chip(x, y - 15.0, railway, value) + 4.0;
                }
            }
            _ => svg.text(x, y, "sold out", TextStyle::new(15.0, MUTED)),
        }
        if state.is_some_and(|s| s.major_bonus_paid) {
            svg.text(right, y, "★", TextStyle::new(18.0, "#b8860b").bold().end());
        }
        y += 32.0;
    }
    y - 32.0
}

/// The dividend draws, newest last. Returns the baseline of the last row.
fn draw_draws(svg: &mut Svg, view: &MapView, mut y: f32) -> f32 {
    const MAX_DRAWS: usize = 10;
    let left = PANEL_X + 22.0;
    if view.draws.is_empty() {
        svg.text(left, y, "none yet", TextStyle::new(15.0, MUTED));
        return y;
    }
    let skipped = view.draws.len().saturating_sub(MAX_DRAWS);
    if skipped > 0 {
        let note = format!("(the first {skipped} not shown)");
        svg.text(left, y, &note, TextStyle::new(13.0, MUTED));
        y += 24.0;
    }
    for (index, draw) in view.draws.iter().enumerate().skip(skipped) {
        let number = format!("{}.", index + 1);
        svg.text(left + 24.0, y, &number, TextStyle::new(15.0, MUTED).end());
        for (k, &colour) in draw.iter().take(11).enumerate() {
            svg.cube(left + 44.0 + k as f32 * 24.0, y - 6.0, 18.0, colour);
        }
        y += 27.0;
    }
    y - 27.0
}

/// The players with cash, score and shares, down to `bottom`.
fn draw_players(svg: &mut Svg, view: &MapView, mut y: f32, bottom: f32) {
    let left = PANEL_X + 22.0;
    let right = PANEL_X + PANEL_WIDTH - 22.0;
    let small = TextStyle::new(12.0, MUTED);
    svg.text(right - 64.0, y - 10.0, "cash", small.end());
    svg.text(right, y - 10.0, "score", small.end());
    y += 8.0;
    if view.players.is_empty() {
        svg.text(left, y, "none", TextStyle::new(15.0, MUTED));
    }
    for (shown, player) in view.players.iter().enumerate() {
        if y + 34.0 > bottom {
            let more = format!("… and {} more", view.players.len() - shown);
            svg.text(left, y, &more, TextStyle::new(15.0, MUTED));
            break;
        }
        let is_next = !view.finished && view.next.as_deref() == Some(player.name.as_str());
        // ★ marks a paid bonus (the key says so); a winner has the crown.
        let marker = if view.winners.contains(&player.name) {
            "♛ "
        } else if is_next {
            "▶ "
        } else {
            ""
        };
        let name = format!("{marker}{}", truncate(&player.name, 13));
        svg.text(left, y, &name, TextStyle::new(17.0, INK).bold());
        let cash = player.cash.to_string();
        svg.text(right - 64.0, y, &cash, TextStyle::new(17.0, INK).end());
        let score = player.score.map_or("–".to_string(), |s| s.to_string());
        svg.text(right, y, &score, TextStyle::new(17.0, INK).bold().end());
        let mut x = left;
        'chips: for railway in Railway::ALL {
            for &value in player.shares.get(&railway).into_iter().flatten() {
                if x + 28.0 > right {
                    break 'chips;
                }
                x += svg.share_chip(x, y + 8.0, railway, value) + 4.0;
            }
        }
        y += 54.0;
    }
}

/// Draws the key to the map at the bottom of the side panel.
fn draw_key(svg: &mut Svg, top: f32) {
    let left = PANEL_X + 22.0;
    let y = heading(svg, top, "Key");
    let r = 15.0;
    let label = TextStyle::new(15.0, INK);
    let swatch = |svg: &mut Svg, i: usize, fill: &str, stroke: &str, width: f32, text: &str| {
        let x = left + (i % 2) as f32 * 156.0;
        let row_y = y + (i / 2) as f32 * 36.0;
        let extra = format!(r#"stroke="{stroke}" stroke-width="{width}""#);
        svg.hexagon(x + 16.0, row_y - 6.0, r, fill, &extra);
        svg.text(x + 40.0, row_y, text, label);
        (x, row_y)
    };
    swatch(svg, 0, EASY_FILL, EASY_STROKE, 1.2, "easy");
    swatch(svg, 1, DIFFICULT_FILL, DIFFICULT_STROKE, 1.2, "difficult");
    swatch(svg, 2, URBAN_FILL, URBAN_STROKE, 2.5, "town / city");
    let (x, row_y) = swatch(svg, 3, URBAN_FILL, URBAN_STROKE, 2.5, "major city");
    let extra = format!(r#"stroke="{URBAN_STROKE}" stroke-width="1""#);
    svg.hexagon(x + 16.0, row_y - 6.0, r - 4.5, "none", &extra);
    swatch(svg, 4, EASY_FILL, RECENT_STROKE, 3.5, "last turn");
    let row_y = y + 72.0;
    svg.cube(left + 172.0, row_y - 6.0, 16.0, Colour::Pink);
    svg.text(left + 196.0, row_y, "dividend cube", label);
    let row_y = y + 108.0;
    svg.loco(left + 10.0, row_y - 6.0, 8.5, Railway::Gsw);
    svg.loco(left + 30.0, row_y - 6.0, 8.5, Railway::Mgw);
    svg.text(left + 48.0, row_y, "locomotives", label);
    svg.text(
        left + 172.0,
        row_y,
        "★",
        TextStyle::new(16.0, "#b8860b").bold().middle(),
    );
    svg.text(left + 196.0, row_y, "bonus paid", label);
}

/// Draws what never changes: the board with its labels, the panel's ground, title and key.
fn draw_static(svg: &mut Svg) {
    draw_board(svg);
    draw_panel_frame(svg);
}

/// Draws the state of the game over the static picture.
fn draw_state(svg: &mut Svg, view: &MapView) {
    draw_pieces(svg, view);
    draw_panel(svg, view);
}

/// The picture of the game as an SVG document, [`WIDTH`] × [`HEIGHT`] pixels.
pub fn render_svg(view: &MapView) -> String {
    let mut svg = Svg::new(WIDTH, HEIGHT);
    draw_static(&mut svg);
    draw_state(&mut svg, view);
    svg.finish()
}

/// The embedded fonts, loaded once.
static FONTS: LazyLock<Arc<usvg::fontdb::Database>> = LazyLock::new(|| {
    let mut db = usvg::fontdb::Database::new();
    db.load_font_data(FONT_REGULAR.to_vec());
    db.load_font_data(FONT_BOLD.to_vec());
    db.set_sans_serif_family(FONT_FAMILY);
    Arc::new(db)
});

/// Rasterizes an SVG document over what is already in `pixmap`.
fn rasterize(svg: &str, pixmap: &mut tiny_skia::Pixmap) -> Result<(), MapError> {
    let options = usvg::Options {
        font_family: FONT_FAMILY.to_string(),
        fontdb: Arc::clone(&FONTS),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &options)?;
    resvg::render(
        &tree,
        tiny_skia::Transform::identity(),
        &mut pixmap.as_mut(),
    );
    Ok(())
}

/// A blank picture.
fn blank_pixmap() -> Result<tiny_skia::Pixmap, MapError> {
    tiny_skia::Pixmap::new(WIDTH, HEIGHT).ok_or(MapError::Pixmap(WIDTH, HEIGHT))
}

/// The static picture, rasterized once; `None` if that failed (then every picture is drawn
/// whole, which reports the error).
static STATIC_PIXMAP: LazyLock<Option<tiny_skia::Pixmap>> = LazyLock::new(|| {
    let mut svg = Svg::new(WIDTH, HEIGHT);
    draw_static(&mut svg);
    let mut pixmap = blank_pixmap().ok()?;
    rasterize(&svg.finish(), &mut pixmap).ok()?;
    Some(pixmap)
});

/// The picture of the game as a PNG image, [`WIDTH`] × [`HEIGHT`] pixels: the same picture as
/// [`render_svg`], with the unchanging board rasterized once and the state drawn over a copy.
pub fn render_png(view: &MapView) -> Result<Vec<u8>, MapError> {
    let pixmap = match &*STATIC_PIXMAP {
        Some(background) => {
            let mut pixmap = background.clone();
            let mut svg = Svg::new(WIDTH, HEIGHT);
            draw_state(&mut svg, view);
            rasterize(&svg.finish(), &mut pixmap)?;
            pixmap
        }
        None => {
            let mut pixmap = blank_pixmap()?;
            rasterize(&render_svg(view), &mut pixmap)?;
            pixmap
        }
    };
    encode_png(&pixmap)
}

/// Encodes an opaque picture as an RGB PNG, quickly: fast deflate with the Paeth filter is
/// several times faster than tiny-skia's RGBA encoder and makes a smaller file for this picture.
fn encode_png(pixmap: &tiny_skia::Pixmap) -> Result<Vec<u8>, MapError> {
    // Premultiplied RGBA over white: colour + (255 - alpha); the picture is opaque anyway.
    let rgb: Vec<u8> = pixmap
        .data()
        .chunks_exact(4)
        .flat_map(|p| {
            let under = 255 - p[3];
            [
                p[0].saturating_add(under),
                p[1].saturating_add(under),
                p[2].saturating_add(under),
            ]
        })
        .collect();
    let mut out = Vec::with_capacity(512 * 1024);
    let mut encoder = png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    encoder.set_filter(png::FilterType::Paeth);
    let png_error = |e: png::EncodingError| MapError::Png(e.to_string());
    let mut writer = encoder.write_header().map_err(png_error)?;
    writer.write_image_data(&rgb).map_err(png_error)?;
    writer.finish().map_err(png_error)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::CubeCounts;

    /// A mid-game state dump, as the bot writes it.
    const MID_GAME: &str = r#"{
        "players": [
            {"name": "alice", "cash": 13, "shares": {"CBSC": [7], "GSW": [4, 9]}, "score": 33},
            {"name": "bob", "cash": 8, "shares": {"WLW": [5], "MGW": [6, 11]}, "score": 30},
            {"name": "carol", "cash": 21, "shares": {"BCD": [8], "WLW": [10]}, "score": 39}
        ],
        "railways": {
            "CBSC": {"track": ["O4", "N5", "M5", "M6", "L7", "L8"], "unplaced": 13, "available": [12, 17], "major_bonus_paid": false},
            "WLW": {"track": ["L4", "K3", "K4", "J4", "I4", "H3", "L5", "L6", "L7", "L8"], "unplaced": 9, "available": [15, 19], "major_bonus_paid": true},
            "BCD": {"track": ["C12", "C11", "D11", "E10", "F10", "F11"], "unplaced": 13, "available": [13], "major_bonus_paid": false},
            "GSW": {"track": ["H11", "I10", "J10", "K9", "L8", "L9", "M9"], "unplaced": 12, "available": [14, 18], "major_bonus_paid": false},
            "MGW": {"track": ["H11", "H10", "H9", "H8", "H7", "G6", "I10"], "unplaced": 12, "available": [16], "major_bonus_paid": false}
        },
        "cities": {"Galway": "white", "Limerick": "pink", "Cork": "black", "Derry": "white",
                   "Kilkenny": "pink", "Waterford": "black", "Belfast": "pink", "Dublin": "white",
                   "Tullamore": "black"},
        "supply": {"white": 6, "pink": 7, "black": 6},
        "draws": [["pink", "black", "black"], ["white", "pink", "white"]],
        "next": "bob", "finished": false, "winners": [],
        "recent": ["K9", "L8"],
        "ignored_extra": {"anything": [1, 2, 3]}
    }"#;

    fn mid_game() -> MapView {
        serde_json::from_str(MID_GAME).unwrap()
    }

    fn hex(label: &str) -> HexId {
        Board::get().by_label(label).unwrap()
    }

    fn decode(png: &[u8]) -> tiny_skia::Pixmap {
        tiny_skia::Pixmap::decode_png(png).unwrap()
    }

    /// The colour at a point as `#rrggbb` (the picture is opaque).
    fn pixel(pixmap: &tiny_skia::Pixmap, (x, y): (f32, f32)) -> String {
        let p = pixmap
            .pixel(x.round() as u32, y.round() as u32)
            .unwrap_or_else(|| panic!("({x}, {y}) is outside the picture"));
        assert_eq!(p.alpha(), 255, "transparent pixel at ({x}, {y})");
        format!("#{:02x}{:02x}{:02x}", p.red(), p.green(), p.blue())
    }

    #[test]
    fn parses_the_state_dump_and_round_trips() {
        let view = mid_game();
        assert_eq!(view.players.len(), 3);
        assert_eq!(view.players[0].shares[&Railway::Gsw], vec![4, 9]);
        assert_eq!(view.railways.len(), 5);
        assert_eq!(view.railways[&Railway::Gsw].track[0], hex("H11"));
        assert!(view.railways[&Railway::Wlw].major_bonus_paid);
        assert_eq!(view.cities["Tullamore"], Colour::Black);
        assert_eq!(view.supply, CubeCounts::from_array([6, 7, 6]));
        assert_eq!(
            view.draws[0],
            vec![Colour::Pink, Colour::Black, Colour::Black]
        );
        assert_eq!(view.next.as_deref(), Some("bob"));
        assert_eq!(view.recent, vec![hex("K9"), hex("L8")]);
        // A dump never carries the highlights: everything else round-trips.
        let json = serde_json::to_string(&view).unwrap();
        assert!(!json.contains("recent"));
        let again: MapView = serde_json::from_str(&json).unwrap();
        assert_eq!(
            again,
            MapView {
                recent: Vec::new(),
                ..view
            }
        );
    }

    #[test]
    fn recent_is_optional() {
        let mut value: serde_json::Value = serde_json::from_str(MID_GAME).unwrap();
        value.as_object_mut().unwrap().remove("recent");
        let view: MapView = serde_json::from_value(value).unwrap();
        assert!(view.recent.is_empty());
    }

    #[test]
    fn every_hex_lies_inside_the_board_area() {
        for hex in &Board::get().hexes {
            let (x, y) = hex_centre_px(hex.id);
            assert!(
                x - R >= MARGIN - 0.5 && x + R <= PANEL_X - MARGIN + 0.5,
                "{}",
                hex.label
            );
            assert!(
                y - R * 0.866 >= MARGIN - 0.5 && y + R * 0.866 <= HEIGHT as f32 - MARGIN + 0.5,
                "{}",
                hex.label
            );
        }
        // The outermost hexes touch the margins: the board constants match the board.
        let hexes = &Board::get().hexes;
        let west = hexes
            .iter()
            .map(|h| hex_centre_px(h.id).0)
            .fold(f32::MAX, f32::min);
        let north = hexes
            .iter()
            .map(|h| hex_centre_px(h.id).1)
            .fold(f32::MAX, f32::min);
        let east = hexes
            .iter()
            .map(|h| hex_centre_px(h.id).0)
            .fold(f32::MIN, f32::max);
        let south = hexes
            .iter()
            .map(|h| hex_centre_px(h.id).1)
            .fold(f32::MIN, f32::max);
        assert!((west - R - MARGIN).abs() < 0.1);
        assert!((north - R * 0.866 - MARGIN).abs() < 0.1);
        assert!((east + R + MARGIN - PANEL_X).abs() < 0.1);
        assert!((south + R * 0.866 + MARGIN - HEIGHT as f32).abs() < 1.0);
        // Neighbouring hexes touch: centres are one hex height apart in a column.
        let (_, y1) = hex_centre_px(hex("H11"));
        let (_, y2) = hex_centre_px(hex("I11"));
        assert!((y2 - y1 - R * 3f32.sqrt()).abs() < 0.5);
    }

    #[test]
    fn the_png_shows_terrain_locomotives_and_cubes_where_they_are_drawn() {
        let view = mid_game();
        let png = render_png(&view).unwrap();
        assert!(png.len() < 1_000_000, "PNG is {} bytes", png.len());
        let pixmap = decode(&png);
        assert_eq!((pixmap.width(), pixmap.height()), (WIDTH, HEIGHT));
        assert!((1000..=1400).contains(&WIDTH));

        // Empty hexes show their terrain at the centre.
        assert_eq!(pixel(&pixmap, hex_centre_px(hex("E5"))), EASY_FILL);
        assert_eq!(pixel(&pixmap, hex_centre_px(hex("B7"))), DIFFICULT_FILL);
        assert_eq!(pixel(&pixmap, hex_centre_px(hex("J12"))), URBAN_FILL);

        // A lone locomotive, and three side by side in Kilkenny (CBSC, WLW, GSW).
        let [(x, y)] = loco_centres_px(hex("J4"), 1)[..] else {
            panic!()
        };
        assert_eq!(pixel(&pixmap, (x, y)), railway_fill(Railway::Wlw));
        let kilkenny = loco_centres_px(hex("L8"), 3);
        assert_eq!(pixel(&pixmap, kilkenny[0]), railway_fill(Railway::Cbsc));
        assert_eq!(pixel(&pixmap, kilkenny[1]), railway_fill(Railway::Wlw));
        assert_eq!(pixel(&pixmap, kilkenny[2]), railway_fill(Railway::Gsw));
        // Two in Dublin.
        let dublin = loco_centres_px(hex("H11"), 2);
        assert_eq!(pixel(&pixmap, dublin[0]), railway_fill(Railway::Gsw));
        assert_eq!(pixel(&pixmap, dublin[1]), railway_fill(Railway::Mgw));

        // City cubes, a town made a city included.
        assert_eq!(
            pixel(&pixmap, cube_centre_px(hex("O4"))),
            cube_fill(Colour::Black)
        );
        assert_eq!(
            pixel(&pixmap, cube_centre_px(hex("L4"))),
            cube_fill(Colour::Pink)
        );
        assert_eq!(
            pixel(&pixmap, cube_centre_px(hex("H11"))),
            cube_fill(Colour::White)
        );
        assert_eq!(
            pixel(&pixmap, cube_centre_px(hex("H7"))),
            cube_fill(Colour::Black)
        );
        // A town without a cube shows the town's ground there.
        assert_eq!(pixel(&pixmap, cube_centre_px(hex("K3"))), URBAN_FILL);

        // The last turn's hexes are outlined: a point on the highlight's edge.
        let (cx, cy) = hex_centre_px(hex("K9"));
        assert_eq!(pixel(&pixmap, (cx + R - 3.0, cy)), RECENT_STROKE);
        let (cx, cy) = hex_centre_px(hex("K10"));
        assert_ne!(pixel(&pixmap, (cx + R - 3.0, cy)), RECENT_STROKE);
    }

    #[test]
    fn locomotives_in_one_hex_do_not_overlap_each_other_or_the_cube_or_leave_the_hex() {
        for label in ["H11", "E5"] {
            let h = hex(label);
            let (cx, cy) = hex_centre_px(h);
            for n in 1..=5 {
                let centres = loco_centres_px(h, n);
                assert_eq!(centres.len(), n);
                for (i, &(x, y)) in centres.iter().enumerate() {
                    for &(x2, y2) in &centres[i + 1..] {
                        assert!(
                            f32::hypot(x - x2, y - y2) >= 2.0 * LOCO_RADIUS,
                            "{label} {n}"
                        );
                    }
                    // Inside the hex: at least a radius from each of its sides.
                    let (dx, dy) = ((x - cx).abs(), (y - cy).abs());
                    let apothem = R * 3f32.sqrt() / 2.0;
                    assert!(apothem - dy >= LOCO_RADIUS, "{label} {n}");
                    assert!(apothem - (3f32.sqrt() * dx + dy) / 2.0 >= LOCO_RADIUS);
                    if Board::get().hexes[h.index()].terrain.is_urban() {
                        let (qx, qy) = cube_centre_px(h);
                        let half = CUBE_SIZE / 2.0;
                        let nearest =
                            (x.clamp(qx - half, qx + half), y.clamp(qy - half, qy + half));
                        assert!(
                            f32::hypot(x - nearest.0, y - nearest.1) > LOCO_RADIUS,
                            "{label} {n}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn locomotives_with_their_outline_stay_inside_the_last_turns_ring() {
        // The ring's inner edge, as a flat-topped hexagon's apothem.
        let ring = (R - RECENT_INSET) * 3f32.sqrt() / 2.0 - RECENT_WIDTH / 2.0;
        let reach = LOCO_RADIUS * LOCO_REACH + LOCO_STROKE / 2.0;
        for label in ["H11", "E5", "H3"] {
            let h = hex(label);
            let (cx, cy) = hex_centre_px(h);
            for n in 1..=5 {
                for (x, y) in loco_centres_px(h, n) {
                    let (dx, dy) = ((x - cx).abs(), (y - cy).abs());
                    let out = dy.max((3f32.sqrt() * dx + dy) / 2.0);
                    assert!(
                        out + reach <= ring,
                        "{label}, {n} locomotives: {out} + {reach} > {ring}"
                    );
                }
            }
        }
    }

    #[test]
    fn railways_are_told_apart_without_colour_and_the_keys_symbols_mean_one_thing() {
        let shapes: std::collections::BTreeSet<_> = Railway::ALL
            .iter()
            .map(|&r| format!("{:?}", loco_shape(r)))
            .collect();
        assert_eq!(shapes.len(), Railway::ALL.len());
        // A finished game with one bonus paid: the star marks the bonus, in the key and on the
        // railway; the winner has a mark of their own.
        let mut view = mid_game();
        view.finished = true;
        view.winners = vec!["carol".to_string()];
        let svg = render_svg(&view);
        assert_eq!(svg.matches('★').count(), 2, "the key's and WLW's");
        assert!(svg.contains("♛ carol"), "the winner's mark");
    }

    #[test]
    fn the_png_is_the_svg_rasterized() {
        let view = mid_game();
        let fast = decode(&render_png(&view).unwrap());
        let mut whole = blank_pixmap().unwrap();
        rasterize(&render_svg(&view), &mut whole).unwrap();
        let differing = fast
            .pixels()
            .iter()
            .zip(whole.pixels())
            .filter(|(a, b)| a != b)
            .count();
        assert_eq!(differing, 0);
        // And the state is really drawn: an empty game differs from this one.
        let empty = decode(&render_png(&MapView::default()).unwrap());
        assert_ne!(empty.data(), fast.data());
    }

    #[test]
    fn five_railways_in_one_city_are_all_visible() {
        let mut view = mid_game();
        let galway = hex("H3");
        for railway in Railway::ALL {
            let state = view.railways.entry(railway).or_default();
            if !state.track.contains(&galway) {
                state.track.push(galway);
            }
        }
        let pixmap = decode(&render_png(&view).unwrap());
        for (railway, centre) in Railway::ALL.iter().zip(loco_centres_px(galway, 5)) {
            assert_eq!(pixel(&pixmap, centre), railway_fill(*railway));
        }
    }

    #[test]
    fn text_is_escaped_and_unknown_cities_are_ignored() {
        let mut view = mid_game();
        view.players[0].name = "<b>&\"x\"".to_string();
        view.cities.insert("Atlantis".to_string(), Colour::Pink);
        let svg = render_svg(&view);
        assert!(svg.contains("&lt;b&gt;&amp;&quot;x&quot;"));
        assert!(render_png(&view).is_ok());
        // An empty view still renders.
        assert!(render_png(&MapView::default()).is_ok());
    }

    /// Writes a sample picture to `/tmp/map-sample.png` when `GAUGEBOT_MAP_SAMPLE` is set.
    #[test]
    fn write_sample_when_asked() {
        if std::env::var_os("GAUGEBOT_MAP_SAMPLE").is_none() {
            return;
        }
        let png = render_png(&mid_game()).unwrap();
        std::fs::write("/tmp/map-sample.png", &png).unwrap();
        // Full-size details, for looking at without scaling.
        let pixmap = decode(&png);
        let crops = [
            ("board", 360, 700, 560, 560),
            ("north", 560, 0, 400, 560),
            ("panel", PANEL_X as u32 - 10, 0, 370, 760),
        ];
        for (name, x, y, w, h) in crops {
            let rect = tiny_skia::IntRect::from_xywh(x as i32, y, w, h).unwrap();
            let crop = pixmap.clone_rect(rect).unwrap();
            crop.save_png(format!("/tmp/map-crop-{name}.png")).unwrap();
        }
        std::fs::write("/tmp/map-sample.svg", render_svg(&mid_game())).unwrap();
        // A crowded end of game: many draws, five players, long names, crowded cities.
        let mut late = mid_game();
        late.finished = true;
        late.winners = vec![
            "carol".to_string(),
            "Bartholomew the Magnificent".to_string(),
        ];
        late.draws = (0..12)
            .map(|i| {
                Colour::ALL
                    .iter()
                    .cycle()
                    .skip(i)
                    .take(3 + i % 2)
                    .copied()
                    .collect()
            })
            .collect();
        late.players.push(PlayerView {
            name: "Bartholomew the Magnificent".to_string(),
            cash: 102,
            shares: Railway::ALL
                .iter()
                .map(|&r| (r, r.share_values().to_vec()))
                .collect(),
            score: Some(251),
        });
        late.players.push(PlayerView {
            name: "eve".to_string(),
            ..PlayerView::default()
        });
        for railway in Railway::ALL {
            let state = late.railways.entry(railway).or_default();
            state.available.clear();
            state.track.extend([hex("H3"), hex("L4"), hex("D9")]);
        }
        late.railways.get_mut(&Railway::Wlw).unwrap().available = vec![5, 10, 15, 19];
        late.cities.insert("Monaghan".to_string(), Colour::White);
        std::fs::write("/tmp/map-sample-late.png", render_png(&late).unwrap()).unwrap();
    }
}
