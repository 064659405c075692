//! Reports and help texts rendered from the templates in `templates/` with minijinja.
//! The templates are built into the binary; a configured directory overrides them.

use std::path::{Path, PathBuf};

use irish_gauge::build::format_half_points;
use irish_gauge::game::{describe, LegalActions, Phase};
use irish_gauge::notation::FORMS;
use irish_gauge::{Colour, Event, Game, Railway};
use minijinja::{context, Environment};
use serde::Serialize;

/// Discord's limit on one message.
pub const MESSAGE_LIMIT: usize = 2000;

const BUILT_IN: [(&str, &str); 4] = [
    ("status.md.j2", include_str!("../../templates/status.md.j2")),
    ("events.md.j2", include_str!("../../templates/events.md.j2")),
    ("help.md.j2", include_str!("../../templates/help.md.j2")),
    ("moves.md.j2", include_str!("../../templates/moves.md.j2")),
];

/// The template set.
#[derive(Debug)]
pub struct Templates {
    env: Environment<'static>,
}

/// A template failed to load or render.
#[derive(Debug, thiserror::Error)]
#[error("template {name}: {source}")]
pub struct TemplateError {
    name: String,
    #[source]
    source: minijinja::Error,
}

impl Templates {
    /// The built-in templates, or those of `dir` where it has a file of the same name.
    pub fn load(dir: Option<&Path>) -> Result<Templates, TemplateError> {
        let mut env = Environment::new();
        env.set_trim_blocks(true);
        env.set_lstrip_blocks(true);
        env.set_keep_trailing_newline(false);
        for (name, built_in) in BUILT_IN {
            let text = dir
                .map(|d| PathBuf::from(d).join(name))
                .and_then(|p| std::fs::read_to_string(p).ok())
                .unwrap_or_else(|| built_in.to_string());
            env.add_template_owned(name.to_string(), text)
                .map_err(|source| TemplateError {
                    name: name.to_string(),
                    source,
                })?;
        }
        Ok(Templates { env })
    }

    /// Renders a template with a context.
    pub fn render(&self, name: &str, ctx: minijinja::Value) -> Result<String, TemplateError> {
        let wrap = |source| TemplateError {
            name: name.to_string(),
            source,
        };
        let text = self
            .env
            .get_template(name)
            .map_err(wrap)?
            .render(ctx)
            .map_err(wrap)?;
        Ok(tidy(&text))
    }

    /// The help text on a topic ("" for the overview).
    pub fn help(&self, topic: &str, prefix: &str) -> Result<String, TemplateError> {
        let forms: Vec<&str> = FORMS.iter().map(|(_, f)| *f).collect();
        self.render(
            "help.md.j2",
            context! { topic => topic.to_ascii_lowercase(), p => prefix, forms => forms },
        )
    }
}

/// Drops blank lines that templates leave doubled and trailing spaces.
fn tidy(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut blank = false;
    for line in text.lines() {
        let line = line.trim_end();
        if line.is_empty() {
            if !blank && !out.is_empty() {
                out.push('\n');
            }
            blank = true;
        } else {
            out.push_str(line);
            out.push('\n');
            blank = false;
        }
    }
    out.trim_end().to_string()
}

/// Splits a long reply at line breaks into messages of at most `limit` characters.
pub fn split_message(text: &str, limit: usize) -> Vec<String> {
    let mut parts = Vec::new();
    let mut current = String::new();
    for line in text.split('\n') {
        let mut line = line.to_string();
        // A single line longer than the limit is cut at character boundaries.
        while line.chars().count() > limit {
            if !current.is_empty() {
                parts.push(std::mem::take(&mut current));
            }
            let cut: String = line.chars().take(limit).collect();
            line = line.chars().skip(limit).collect();
            parts.push(cut);
        }
        let needed =
            current.chars().count() + line.chars().count() + usize::from(!current.is_empty());
        if needed > limit {
            parts.push(std::mem::take(&mut current));
        }
        if !current.is_empty() {
            current.push('\n');
        }
        current.push_str(&line);
    }
    if !current.trim().is_empty() {
        parts.push(current);
    }
    parts
}

fn pounds(values: &[u32]) -> String {
    values
        .iter()
        .map(|v| format!("£{v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn capital(colour: Colour) -> &'static str {
    match colour {
        Colour::White => "White",
        Colour::Pink => "Pink",
        Colour::Black => "Black",
    }
}

#[derive(Serialize)]
struct PlayerView {
    name: String,
    cash: u32,
    shares: String,
    score: u32,
}

#[derive(Serialize)]
struct RailwayView {
    code: &'static str,
    unplaced: u8,
    connections: Vec<String>,
    available: String,
    major_bonus_paid: bool,
}

/// The `Player Status` line of a player's shares: `CBSC £7, £12; WLW £5`.
pub fn shares_text(game: &Game, seat: usize) -> String {
    game.shares_of(seat)
        .iter()
        .map(|(r, values)| format!("{r} {}", pounds(values)))
        .collect::<Vec<_>>()
        .join("; ")
}

/// A railway's connections as the forum writes them: `Cork (White City), Shannon (Town)`.
pub fn connections(game: &Game, railway: Railway) -> Vec<String> {
    let mut out: Vec<(String, String)> = game
        .railway(railway)
        .track
        .iter()
        .filter(|h| h.hex().terrain.is_urban())
        .map(|h| {
            let name = h.display_name().to_string();
            let kind = match game.cube(h) {
                Some(c) => format!("{name} ({} City)", capital(c)),
                None => format!("{name} (Town)"),
            };
            (name, kind)
        })
        .collect();
    out.sort();
    if out.is_empty() {
        vec!["none".to_string()]
    } else {
        out.into_iter().map(|(_, k)| k).collect()
    }
}

/// The cities by colour: `3 White (Cork, Kilkenny, Limerick)`.
pub fn cities_by_colour(game: &Game) -> Vec<String> {
    Colour::ALL
        .iter()
        .map(|&colour| {
            let mut names: Vec<&str> = game
                .cities()
                .filter(|(_, c)| *c == colour)
                .map(|(h, _)| h.display_name())
                .collect();
            names.sort();
            if names.is_empty() {
                format!("0 {}", capital(colour))
            } else {
                format!("{} {} ({})", names.len(), capital(colour), names.join(", "))
            }
        })
        .collect()
}

/// The full status report.
pub fn status(
    templates: &Templates,
    game_id: &str,
    game: &Game,
    prompt: &str,
) -> Result<String, TemplateError> {
    let players: Vec<PlayerView> = game
        .players()
        .iter()
        .enumerate()
        .map(|(seat, p)| PlayerView {
            name: p.name.clone(),
            cash: p.cash,
            shares: shares_text(game, seat),
            score: game.score(seat),
        })
        .collect();
    let railways: Vec<RailwayView> = Railway::ALL
        .iter()
        .map(|&r| RailwayView {
            code: r.code(),
            unplaced: game.railway(r).unplaced(),
            connections: connections(game, r),
            available: pounds(&game.available_shares(r)),
            major_bonus_paid: game.railway(r).major_bonus_paid,
        })
        .collect();
    let drawn: Vec<String> = game
        .draws()
        .iter()
        .map(|d| d.iter().map(|c| c.name()).collect::<Vec<_>>().join(" "))
        .collect();
    let supply = game.supply();
    let winners: Vec<&str> = game.winners().iter().map(|&s| game.name(s)).collect();
    let mut ranking: Vec<&PlayerView> = players.iter().collect();
    ranking.sort_by_key(|p| std::cmp::Reverse(p.score));
    let best_score = ranking.first().map(|p| p.score).unwrap_or(0);
    templates.render(
        "status.md.j2",
        context! {
            game_id, turn => game.turn(), players, railways, drawn,
            cities => cities_by_colour(game),
            supply => context!{ white => supply.white, pink => supply.pink, black => supply.black, total => supply.total() },
            finished => game.is_finished(), winners, ranking, best_score, prompt, show_scores => false,
        },
    )
}

/// Who acts next and what they may do, with a mention when `mention` is given.
pub fn prompt(game: &Game, mention: &dyn Fn(usize) -> String, prefix: &str) -> String {
    match game.phase() {
        Phase::InitialAuction {
            auction, opener, ..
        }
        | Phase::Auction {
            auction,
            auctioneer: opener,
            ..
        } => {
            let seat = auction.to_bid;
            let cash = game.players()[seat].cash;
            match auction.high {
                Some((high_seat, high)) => format!(
                    "{}: the {} £{} share, high bid £{high} by {}. **bid {}** or more (you have £{cash}), or **pass**.",
                    mention(seat),
                    auction.railway,
                    auction.face,
                    game.name(high_seat),
                    high + 1
                ),
                None => format!(
                    "{}: the {} £{} share, no bids yet{}. **bid {}** or more (you have £{cash}), or **pass**.",
                    mention(seat),
                    auction.railway,
                    auction.face,
                    if matches!(game.phase(), Phase::InitialAuction { .. }) {
                        format!("; if nobody bids, {} takes it free", game.name(*opener))
                    } else {
                        String::new()
                    },
                    auction.face
                ),
            }
        }
        Phase::Turn { player } => {
            let mut options = Vec::new();
            if let LegalActions::Turn {
                auctions,
                builds,
                interests,
                ..
            } = game.legal_actions()
            {
                if !auctions.is_empty() {
                    options.push(format!(
                        "**auction** {}",
                        auctions
                            .iter()
                            .map(|a| a.railway.code())
                            .collect::<Vec<_>>()
                            .join("/")
                    ));
                }
                if !builds.is_empty() {
                    options.push(format!(
                        "**build** {}",
                        builds
                            .iter()
                            .map(|b| b.railway.code())
                            .collect::<Vec<_>>()
                            .join("/")
                    ));
                }
                if !interests.is_empty() {
                    options.push("**interest**".to_string());
                }
            }
            options.push("**dividends**".to_string());
            format!(
                "{}, it is your turn: {} (`{prefix}moves` for details).",
                mention(*player),
                options.join(", ")
            )
        }
        Phase::AwaitingDraw { count, .. } => format!(
            "Waiting for the moderator's `{prefix}draw` of {count} cube{} from a supply of {}.",
            if *count == 1 { "" } else { "s" },
            game.supply()
        ),
        Phase::Finished => "The game is over.".to_string(),
    }
}

/// The narration of events.
pub fn narrate(
    templates: &Templates,
    game: &Game,
    events: &[Event],
    draw_source: Option<&str>,
) -> Result<String, TemplateError> {
    let name = |seat: usize| game.name(seat).to_string();
    let payouts = |list: &[irish_gauge::Payout]| -> Vec<String> {
        list.iter()
            .map(|p| format!("{} £{}", name(p.player), p.amount))
            .collect()
    };
    let views: Vec<minijinja::Value> = events
        .iter()
        .filter_map(|event| {
            Some(match event {
                Event::AuctionOpened { by, railway, face, initial } => context! {
                    event => "auction_opened", by => name(*by), railway => railway.code(), face, initial
                },
                Event::Bid { player, amount } => context! { event => "bid", player => name(*player), amount },
                Event::Passed { player } => context! { event => "passed", player => name(*player) },
                Event::AutoPassed { player, reason } => {
                    let why = match reason {
                        irish_gauge::event::AutoPassReason::CannotAffordFaceValue { cash, face } => {
                            format!("£{cash} is less than the £{face} face value")
                        }
                        irish_gauge::event::AutoPassReason::CannotRaise { cash, high } => {
                            format!("£{cash} cannot beat the high bid of £{high}")
                        }
                    };
                    context! { event => "auto_passed", player => name(*player), why }
                }
                Event::ShareWon { player, railway, face, price } => context! {
                    event => "share_won", player => name(*player), railway => railway.code(), face, price
                },
                Event::LocomotivesPlaced { railway, hexes, half_points, unplaced } => context! {
                    event => "locomotives_placed", railway => railway.code(), count => hexes.len(),
                    hexes => hexes.iter().map(|(h, c)| format!("{} {}", describe(*h), format_half_points(*c))).collect::<Vec<_>>(),
                    cost => format_half_points(*half_points), unplaced
                },
                Event::MajorCityDividend { railway, per_share, payouts: list } => context! {
                    event => "major_city_dividend", railway => railway.code(), per_share, payouts => payouts(list)
                },
                Event::SpecialInterestPlaced { player, town, colour } => context! {
                    event => "special_interest_placed", player => name(*player), town => describe(*town), colour => colour.name()
                },
                Event::DividendsCalled { player, count } => context! {
                    event => "dividends_called", player => name(*player), count
                },
                Event::CubesDrawn { cubes } => {
                    let mut paying: Vec<Colour> = cubes.clone();
                    paying.sort();
                    paying.dedup();
                    context! {
                        event => "cubes_drawn",
                        cubes => cubes.iter().map(|c| c.name()).collect::<Vec<_>>(),
                        paying => paying.iter().map(|c| c.name()).collect::<Vec<_>>(),
                        source => draw_source,
                    }
                }
                Event::Dividend { railway, paying_cities, towns, income, per_share, payouts: list } => {
                    let detail = format!(
                        "{} paying cit{}{}, {} town{}{}",
                        paying_cities.len(),
                        if paying_cities.len() == 1 { "y" } else { "ies" },
                        list_names(paying_cities),
                        towns.len(),
                        if towns.len() == 1 { "" } else { "s" },
                        list_names(towns),
                    );
                    context! {
                        event => "dividend", railway => railway.code(), income, per_share,
                        payouts => payouts(list), detail
                    }
                }
                Event::GameOver { .. } => context! { event => "game_over" },
                Event::TurnBegan { .. } => return None,
            })
        })
        .collect();
    templates.render("events.md.j2", context! { events => views })
}

fn list_names(hexes: &[irish_gauge::HexId]) -> String {
    if hexes.is_empty() {
        String::new()
    } else {
        let names: Vec<&str> = hexes.iter().map(|h| h.display_name()).collect();
        format!(" ({})", names.join(", "))
    }
}

/// The legal moves of the player to act, for `!moves`.
pub fn moves(templates: &Templates, game: &Game, prefix: &str) -> Result<String, TemplateError> {
    let ctx = match game.legal_actions() {
        LegalActions::Bidding {
            player,
            railway,
            min,
            max,
        } => context! {
            kind => "bidding", player => game.name(player), railway => railway.code(), min, max, p => prefix
        },
        LegalActions::Turn {
            player,
            auctions,
            builds,
            interests,
        } => {
            let builds: Vec<minijinja::Value> = builds
                .iter()
                .map(|b| {
                    context! {
                        railway => b.railway.code(), unplaced => b.unplaced,
                        hexes => b.hexes.iter().map(|(h, c)| format!("{} {}", describe(*h), format_half_points(*c))).collect::<Vec<_>>()
                    }
                })
                .collect();
            let colours: Vec<&str> = interests
                .first()
                .map(|i| i.colours.iter().map(|c| c.name()).collect())
                .unwrap_or_default();
            context! {
                kind => "turn", player => game.name(player), cash => game.players()[player].cash,
                auctions => auctions.iter().map(|a| format!("{} (£{})", a.railway, a.face)).collect::<Vec<_>>(),
                builds, interests => interests.iter().map(|i| describe(i.town)).collect::<Vec<_>>(), colours, p => prefix
            }
        }
        LegalActions::Draw(request) => context! {
            kind => "draw", count => request.count, supply => request.supply.to_string(), p => prefix
        },
        LegalActions::None => context! { kind => "none" },
    };
    templates.render("moves.md.j2", ctx)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_replies_split_at_line_breaks_under_the_limit() {
        let text = (0..300)
            .map(|i| format!("line {i}"))
            .collect::<Vec<_>>()
            .join("\n");
        let parts = split_message(&text, 100);
        assert!(parts.len() > 1);
        for part in &parts {
            assert!(part.chars().count() <= 100, "{}", part.len());
            assert!(!part.starts_with('\n'));
        }
        assert_eq!(parts.join("\n"), text);
        let one_long_line = "x".repeat(250);
        let parts = split_message(&one_long_line, 100);
        assert_eq!(
            parts.iter().map(|p| p.len()).collect::<Vec<_>>(),
            [100, 100, 50]
        );
    }

    #[test]
    fn built_in_templates_render() {
        let templates = Templates::load(None).expect("templates load");
        let help = templates.help("", "!").expect("help renders");
        assert!(help.contains("!setup"), "{help}");
        assert!(templates
            .help("dice", "!")
            .expect("dice help")
            .contains("commitment"));
        assert!(templates
            .help("nonsense", "!")
            .expect("unknown topic")
            .contains("No help"));
    }
}
