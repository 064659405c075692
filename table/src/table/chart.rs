//! Each player's net worth move by move, as a picture (`!chart`, and with the final report):
//! an SVG document rasterized by resvg/tiny-skia like the map, with the map's embedded DejaVu
//! fonts, the Okabe–Ito colour-blind-safe palette, each player's name at the end of their
//! line, and type large enough to read on a phone.

use std::sync::{Arc, LazyLock};

use resvg::{tiny_skia, usvg};

use crate::game::log::Entry;
use crate::game::session::Session;
use crate::game::PictureError;

/// The picture's size in pixels.
pub const CHART_WIDTH: u32 = 1000;
/// The picture's height in pixels.
pub const CHART_HEIGHT: u32 = 600;

const FONT_REGULAR: &[u8] = include_bytes!("../../../engine/assets/fonts/DejaVuSans.ttf");
const FONT_BOLD: &[u8] = include_bytes!("../../../engine/assets/fonts/DejaVuSans-Bold.ttf");
const FONT_FAMILY: &str = "DejaVu Sans";

/// Okabe–Ito: told apart with every common colour-vision deficiency.
const PALETTE: [&str; 7] = [
    "#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9", "#000000",
];

/// One player's line: their name and net worth after each move (the first point is the start).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Series {
    /// The player's name.
    pub name: String,
    /// Net worth after each move.
    pub values: Vec<i64>,
}

/// Every seat's net worth from the start and after each move of `entries`, replayed on
/// `session` (a draw belongs to the move that called for it: the dividends it pays), with the
/// currency; `names` in seat order. `None` when the game does not say what its players are
/// worth, or an entry does not replay.
pub fn net_worth_series<'e>(
    session: &mut dyn Session,
    names: Vec<String>,
    entries: impl IntoIterator<Item = &'e Entry>,
) -> Option<(Vec<Series>, &'static str)> {
    let currency = session.worth(0)?.currency;
    let sample = |session: &dyn Session| -> Option<Vec<i64>> {
        (0..names.len())
            .map(|seat| session.worth(seat).map(|w| w.total))
            .collect()
    };
    let mut points = vec![sample(session)?];
    for entry in entries {
        session.replay(entry).ok()?;
        match entry {
            Entry::Action { .. } => points.push(sample(session)?),
            Entry::Draw { .. } => {
                let now = sample(session)?;
                if points.len() > 1 {
                    if let Some(last) = points.last_mut() {
                        *last = now;
                    }
                }
            }
            _ => {}
        }
    }
    let series = names
        .into_iter()
        .enumerate()
        .map(|(seat, name)| Series {
            name,
            values: points.iter().map(|p| p[seat]).collect(),
        })
        .collect();
    Some((series, currency))
}

/// The labels' type size, and the least it shrinks to for a long name.
const LABEL_SIZE: f64 = 26.0;
/// The widest the column of names at the lines' ends may be.
const MAX_LABEL_COLUMN: f64 = 360.0;

/// How wide `text` is drawn in bold at `size` pixels, with the chart's font.
fn text_width(text: &str, size: f64) -> f64 {
    let svg = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="4000" height="100" font-family="{FONT_FAMILY}"><text x="0" y="60" font-size="{size}" font-weight="bold">{}</text></svg>"#,
        escape(text)
    );
    usvg::Tree::from_str(&svg, &options())
        .map(|tree| f64::from(tree.root().abs_bounding_box().width()))
        // Without the font, a generous guess: DejaVu Sans Bold is under 0.75 em a glyph.
        .unwrap_or(text.chars().count() as f64 * size * 0.75)
}

/// The chart as an SVG document. Every name and sum at the lines' ends fits inside the
/// picture: the column on the right is as wide as the widest label (a very long name is drawn
/// smaller), and the labels, kept 30 pixels apart, stay between the top and the bottom.
pub fn chart_svg(title: &str, currency: &str, series: &[Series]) -> String {
    let (w, h) = (f64::from(CHART_WIDTH), f64::from(CHART_HEIGHT));
    let label_of = |s: &Series| {
        format!(
            "{} {currency}{}",
            s.name,
            s.values.last().copied().unwrap_or(0)
        )
    };
    let widest = series
        .iter()
        .map(|s| text_width(&label_of(s), LABEL_SIZE))
        .fold(0.0, f64::max);
    let label_size = if widest > MAX_LABEL_COLUMN {
        (LABEL_SIZE * MAX_LABEL_COLUMN / widest * 10.0).floor() / 10.0
    } else {
        LABEL_SIZE
    };
    let (left, top, bottom) = (90.0, 70.0, 70.0);
    let right = (widest.min(MAX_LABEL_COLUMN) + 30.0).max(120.0);
    let points = series.iter().map(|s| s.values.len()).max().unwrap_or(0);
    let max = series
        .iter()
        .flat_map(|s| s.values.iter().copied())
        .max()
        .unwrap_or(0)
        .max(1);
    let min = series
        .iter()
        .flat_map(|s| s.values.iter().copied())
        .min()
        .unwrap_or(0)
        .min(0);
    let x = |i: usize| left + (w - left - right) * i as f64 / (points.max(2) - 1) as f64;
    let y = |v: i64| top + (h - top - bottom) * (max - v) as f64 / (max - min) as f64;
    let mut svg = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="{FONT_FAMILY}"><rect width="{w}" height="{h}" fill="white"/>"#
    );
    svg.push_str(&format!(
        r#"<text x="{left}" y="44" font-size="30" font-weight="bold" fill="black">{}</text>"#,
        escape(title)
    ));
    // Axes, with the top and the zero line labelled.
    for (value, label) in [
        (max, format!("{currency}{max}")),
        (min, format!("{currency}{min}")),
    ] {
        let yy = y(value);
        svg.push_str(&format!(
            r##"<line x1="{left}" y1="{yy:.1}" x2="{:.1}" y2="{yy:.1}" stroke="#bbbbbb" stroke-width="2"/><text x="{:.1}" y="{:.1}" font-size="24" text-anchor="end" fill="#444444">{}</text>"##,
            w - right,
            left - 10.0,
            yy + 8.0,
            escape(&label)
        ));
    }
    svg.push_str(&format!(
        r##"<text x="{:.1}" y="{:.1}" font-size="24" text-anchor="middle" fill="#444444">moves: {}</text>"##,
        (left + w - right) / 2.0,
        h - 24.0,
        points.saturating_sub(1)
    ));
    // The lines, then the names at their ends, moved apart so they never overlap.
    let mut labels: Vec<(f64, usize)> = Vec::new();
    for (i, s) in series.iter().enumerate() {
        let colour = PALETTE[i % PALETTE.len()];
        let path: Vec<String> = s
            .values
            .iter()
            .enumerate()
            .map(|(j, v)| format!("{:.1},{:.1}", x(j), y(*v)))
            .collect();
        svg.push_str(&format!(
            r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="5" stroke-linejoin="round"/>"#,
            path.join(" ")
        ));
        if let Some(last) = s.values.last() {
            labels.push((y(*last), i));
        }
    }
    labels.sort_by(|a, b| a.0.total_cmp(&b.0));
    // Apart downwards, then back up from the bottom if the last went below it.
    let gap = 30.0;
    let mut previous = f64::MIN;
    for label in &mut labels {
        label.0 = label.0.max(previous + gap);
        previous = label.0;
    }
    let mut next = h - 20.0 - label_size;
    for label in labels.iter_mut().rev() {
        label.0 = label.0.min(next);
        next = label.0 - gap;
    }
    for (yy, i) in labels {
        let yy = yy.max(label_size);
        svg.push_str(&format!(
            r#"<text x="{:.1}" y="{:.1}" font-size="{label_size}" font-weight="bold" fill="{}">{}</text>"#,
            w - right + 10.0,
            yy + 9.0,
            PALETTE[i % PALETTE.len()],
            escape(&label_of(&series[i]))
        ));
    }
    svg.push_str("</svg>");
    svg
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

static FONTS: LazyLock<Arc<usvg::fontdb::Database>> = LazyLock::new(|| {
    let mut db = usvg::fontdb::Database::new();
    db.load_font_data(FONT_REGULAR.to_vec());
    db.load_font_data(FONT_BOLD.to_vec());
    db.set_sans_serif_family(FONT_FAMILY);
    Arc::new(db)
});

/// How the chart's SVG is read: with its embedded fonts.
fn options() -> usvg::Options<'static> {
    usvg::Options {
        font_family: FONT_FAMILY.to_string(),
        fontdb: Arc::clone(&FONTS),
        ..usvg::Options::default()
    }
}

/// The chart as a PNG image, [`CHART_WIDTH`] × [`CHART_HEIGHT`] pixels.
pub fn chart_png(title: &str, currency: &str, series: &[Series]) -> Result<Vec<u8>, PictureError> {
    let options = options();
    let failed = |e: &dyn std::fmt::Display| PictureError(format!("the chart failed: {e}"));
    let tree = usvg::Tree::from_str(&chart_svg(title, currency, series), &options)
        .map_err(|e| failed(&e))?;
    let mut pixmap = tiny_skia::Pixmap::new(CHART_WIDTH, CHART_HEIGHT)
        .ok_or_else(|| failed(&"no picture of that size"))?;
    resvg::render(
        &tree,
        tiny_skia::Transform::identity(),
        &mut pixmap.as_mut(),
    );
    pixmap.encode_png().map_err(|e| failed(&e))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn series() -> Vec<Series> {
        vec![
            Series {
                name: "ann".into(),
                values: vec![20, 13, 13, 19, 40],
            },
            Series {
                name: "bob & co".into(),
                values: vec![20, 20, 15, 15, 41],
            },
        ]
    }

    #[test]
    fn the_chart_names_every_line_and_draws_every_move() {
        let svg = chart_svg("Irish Gauge — net worth", "£", &series());
        assert_eq!(svg.matches("<polyline").count(), 2);
        assert!(svg.contains(">ann £40</text>"), "{svg}");
        assert!(svg.contains(">bob &amp; co £41</text>"), "{svg}");
        assert!(svg.contains("moves: 4"), "{svg}");
        assert!(svg.contains("stroke=\"#0072B2\"") && svg.contains("stroke=\"#E69F00\""));
        // Two names a pound apart are drawn at least 30 pixels apart.
        let ys: Vec<f64> = svg
            .match_indices("font-size=\"26\"")
            .map(|(i, _)| {
                let before = &svg[..i];
                let y = before.rsplit("y=\"").next().unwrap_or("0");
                y.split('"').next().unwrap_or("0").parse().unwrap_or(0.0)
            })
            .collect();
        assert_eq!(ys.len(), 2);
        assert!((ys[0] - ys[1]).abs() >= 30.0, "{ys:?}");
    }

    /// Every text node of the chart as drawn: its text's bounding box in the picture.
    fn drawn_texts(svg: &str) -> Vec<usvg::Rect> {
        fn walk(group: &usvg::Group, out: &mut Vec<usvg::Rect>) {
            for node in group.children() {
                match node {
                    usvg::Node::Group(g) => walk(g, out),
                    usvg::Node::Text(t) => out.push(t.abs_bounding_box()),
                    _ => {}
                }
            }
        }
        let tree = usvg::Tree::from_str(svg, &options()).expect("the chart reads");
        let mut out = Vec::new();
        walk(tree.root(), &mut out);
        out
    }

    #[test]
    fn no_label_is_clipped_by_the_picture() {
        // Privates' final chart of four automa seats (issue 33: `Automa 1 $` was clipped),
        // a long name, many players close together at the top and the bottom.
        let cases: Vec<(&str, Vec<Series>)> = vec![
            (
                "$",
                (1..=4)
                    .map(|n| Series {
                        name: format!("Automa {n}"),
                        values: vec![120, 300 + n, 440 + n],
                    })
                    .collect(),
            ),
            (
                "£",
                vec![
                    Series {
                        name: "Bartholomew-Featherstonehaugh the Third".into(),
                        values: vec![20, 87],
                    },
                    Series {
                        name: "ann".into(),
                        values: vec![20, 87],
                    },
                ],
            ),
            (
                "£",
                (0..7)
                    .map(|n| Series {
                        name: format!("player {n}"),
                        values: vec![20, 0],
                    })
                    .collect(),
            ),
        ];
        let (w, h) = (CHART_WIDTH as f32, CHART_HEIGHT as f32);
        for (currency, series) in cases {
            let svg = chart_svg("Privates chart-1 — net worth", currency, &series);
            let texts = drawn_texts(&svg);
            assert!(texts.len() >= series.len() + 3, "{svg}");
            for rect in texts {
                assert!(
                    rect.left() >= 0.0
                        && rect.top() >= 0.0
                        && rect.right() <= w
                        && rect.bottom() <= h,
                    "a text drawn at {rect:?} leaves the {w}×{h} picture: {svg}"
                );
            }
        }
    }

    #[test]
    fn the_chart_is_a_png_of_its_size() {
        let png = chart_png("net worth", "$", &series()).expect("a picture");
        assert_eq!(&png[1..4], b"PNG");
        let width = u32::from_be_bytes([png[16], png[17], png[18], png[19]]);
        let height = u32::from_be_bytes([png[20], png[21], png[22], png[23]]);
        assert_eq!((width, height), (CHART_WIDTH, CHART_HEIGHT));
    }
}
