//! Long and repetitive texts for the phrasing reader: read by `tests/phrasing.rs` (every one
//! reads as something) and timed by `benches/phrasing.rs` (how long reading them takes).

/// Long texts that a slow (quadratic or backtracking) reader would choke on.
pub fn long_texts() -> Vec<String> {
    vec![
        "bid 8 or ".repeat(5_000),
        "bid ".repeat(20_000),
        "a ".repeat(50_000),
        "x".repeat(100_000),
        format!("bid {}", "9".repeat(100_000)),
        "build WLW ".to_string() + &"K3 ".repeat(20_000),
        "interest ".to_string() + &"Sligo pink ".repeat(10_000),
        "I'm out ".repeat(10_000),
        format!(
            "bid {}",
            (0..20_000)
                .map(|n| n.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        ),
        format!("auction {}", "GSW MGW WLW 6 7 8 ".repeat(3_000)),
        "pas ".repeat(10) + &"or pas ".repeat(10),
    ]
}
