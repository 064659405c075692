//! How long the map picture of a mid-game position takes to render as PNG.

use criterion::{criterion_group, criterion_main, Criterion};
use irish_gauge::table::map::{render_png, render_svg, MapView};

/// A mid-game state dump: five railways spread over the board, a few draws, four players.
const MID_GAME: &str = r#"{
    "players": [
        {"name": "alice", "cash": 13, "shares": {"CBSC": [7], "GSW": [4, 9]}, "score": 33},
        {"name": "bob", "cash": 8, "shares": {"WLW": [5], "MGW": [6, 11]}, "score": 30},
        {"name": "carol", "cash": 21, "shares": {"BCD": [8], "WLW": [10]}, "score": 39},
        {"name": "dave", "cash": 17, "shares": {"CBSC": [12], "BCD": [13]}, "score": 42}
    ],
    "railways": {
        "CBSC": {"track": ["O4", "N5", "M5", "M6", "L7", "L8"], "unplaced": 13, "available": [17], "major_bonus_paid": false},
        "WLW": {"track": ["L4", "K3", "K4", "J4", "I4", "H3", "L5", "L6", "L7", "L8"], "unplaced": 9, "available": [15, 19], "major_bonus_paid": true},
        "BCD": {"track": ["C12", "C11", "D11", "E10", "F10", "F11", "G11", "H11"], "unplaced": 11, "available": [], "major_bonus_paid": true},
        "GSW": {"track": ["H11", "I10", "J10", "K9", "L8", "L9", "M9"], "unplaced": 12, "available": [14, 18], "major_bonus_paid": false},
        "MGW": {"track": ["H11", "H10", "H9", "H8", "H7", "G6", "I10"], "unplaced": 12, "available": [16], "major_bonus_paid": false}
    },
    "cities": {"Galway": "white", "Limerick": "pink", "Cork": "black", "Derry": "white",
               "Kilkenny": "pink", "Waterford": "black", "Belfast": "pink", "Dublin": "white",
               "Tullamore": "black"},
    "supply": {"white": 5, "pink": 6, "black": 5},
    "draws": [["pink", "black", "black"], ["white", "pink", "white"], ["black", "white", "pink"]],
    "next": "bob", "finished": false, "winners": [],
    "recent": ["K9", "L8"]
}"#;

fn bench_map(c: &mut Criterion) {
    let view: MapView = serde_json::from_str(MID_GAME).expect("the mid-game view parses");
    c.bench_function("map/render_svg mid-game", |b| b.iter(|| render_svg(&view)));
    c.bench_function("map/render_png mid-game", |b| {
        b.iter(|| render_png(&view).expect("the map renders"))
    });
}

criterion_group!(benches, bench_map);
criterion_main!(benches);
