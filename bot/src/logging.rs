//! The bot's log filter: what `RUST_LOG` asks for (by default warnings, and the bot's own
//! information), never a library's trace of what it sends. The gateway's WebSocket library
//! (tungstenite) logs every frame it sends at trace level, and the first frame is IDENTIFY,
//! the bot's token inside: its levels are capped at debug, whatever `RUST_LOG` says.

use tracing_subscriber::filter::Directive;
use tracing_subscriber::EnvFilter;

/// The filter when `RUST_LOG` sets none.
pub const DEFAULT_FILTER: &str = "warn,gaugebot=info";

/// Libraries whose trace output carries secrets (the gateway's frames: IDENTIFY holds the
/// token), capped at debug.
const CAPPED: &[&str] = &["tungstenite", "tokio_tungstenite"];

/// The log filter for `rust_log` (the value of `RUST_LOG`, if set and readable), with the
/// libraries that would log secrets capped.
pub fn filter(rust_log: Option<&str>) -> EnvFilter {
    let mut filter = rust_log
        .and_then(|spec| EnvFilter::try_new(spec).ok())
        .unwrap_or_else(|| EnvFilter::new(DEFAULT_FILTER));
    for target in CAPPED {
        if let Ok(directive) = format!("{target}=debug").parse::<Directive>() {
            filter = filter.add_directive(directive);
        }
    }
    filter
}

#[cfg(test)]
mod tests {
    use super::*;
    use tracing::level_filters::LevelFilter;

    #[test]
    fn trace_everywhere_still_caps_the_gateway_library() {
        for asked in [
            "trace",
            "trace,tungstenite=trace",
            "tungstenite=trace,trace",
        ] {
            let shown = filter(Some(asked)).to_string();
            assert!(shown.contains("tungstenite=debug"), "{asked}: {shown}");
            assert!(!shown.contains("tungstenite=trace"), "{asked}: {shown}");
            assert_eq!(
                filter(Some(asked)).max_level_hint(),
                Some(LevelFilter::TRACE)
            );
        }
        assert!(filter(None).to_string().contains("gaugebot=info"));
    }
}
