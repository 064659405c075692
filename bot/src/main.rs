//! The `gaugebot` command: the Discord bot, the console table, and the tools for audits, game
//! records, the database and the map.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use gaugebot::config::Config;
use gaugebot::console::{self, PlayOptions};

#[derive(Parser)]
#[command(
    name = "gaugebot",
    version,
    about = "Moderates play-by-forum games of Irish Gauge and Privates on Discord, or at a table in the terminal.",
    long_about = "Moderates play-by-forum games of Irish Gauge and Privates on Discord, or at a table in the \
terminal. Players post their moves in bold; the bot enforces the rules, stores every accepted \
move before it replies and makes dice auditable. Without a subcommand it connects to Discord \
when a token is set, and otherwise starts the console table."
)]
struct Cli {
    /// Configuration file (default: config.yaml if present).
    #[arg(long, global = true)]
    config: Option<PathBuf>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Connect to Discord and serve every channel as a table of either game.
    ///
    /// The token is read from the environment variable the configuration names (default
    /// `DISCORD_TOKEN`). Exit code 78 when the operator must fix something first (the
    /// configuration or templates, a token that cannot be one by its shape (refused before the
    /// database is created) or that Discord refuses, the Message Content intent not
    /// enabled in the Developer Portal); 1 on any other failure.
    Run,
    /// Play one table of either game in the terminal: input lines are `name: message`.
    ///
    /// `!setup ann bob cat` starts a game of Irish Gauge, `!setup privates ann bob cat` one of
    /// Privates; `mod: !help` lists the commands.
    Play {
        /// Database: a SQLite path (`sqlite:PATH` too) or `postgres://…` (default: a throwaway
        /// in-memory SQLite database).
        #[arg(long)]
        db: Option<String>,
        /// The moderator's name.
        #[arg(long, default_value = "mod")]
        moderator: String,
        /// A fixed dice seed (64 hex digits) instead of one from the OS.
        #[arg(long)]
        seed: Option<String>,
        /// Write the state as JSON to this file at the end of input.
        #[arg(long)]
        dump_state: Option<PathBuf>,
        /// Folder for images and files the bot attaches (none are written without it).
        #[arg(long)]
        attachments: Option<PathBuf>,
        /// Don't attach the map to the setup or after builds.
        #[arg(long)]
        no_map: bool,
        /// Print this line after the replies to every input line (for driving programs).
        #[arg(long)]
        end_marker: Option<String>,
        /// How hard automa seats think: `cheap` (a few simulations, for quick scripted games),
        /// `standard` or a number of simulations (default: the configuration's `automa`).
        #[arg(long)]
        automa: Option<gaugebot_table::game::automa::AutomaLevel>,
        /// The dice specification of new games: `gaugebot-dice-v3` (the default), or an earlier
        /// one (`gaugebot-dice-v2`, `gaugebot-dice-v1`) only to make records of that version for
        /// tests; hidden from the help.
        #[arg(long, hide = true, value_parser = parse_dice_spec)]
        dice_spec: Option<gaugebot_table::dice::Spec>,
        /// Post the dice commitment of a new game first, and make its setup draws (seating,
        /// cubes, deck) with that post's id as the game's client seed, an id nobody knew when
        /// the seed was committed (docs/DICE.md §3.3).
        #[arg(long)]
        commit_first: bool,
        /// Serve the games' web pages at this address (`127.0.0.1:8080`) to watch the game
        /// in a browser; each game's address is printed on standard error, and after the
        /// input ends the pages are served until ctrl-c.
        #[arg(long, value_name = "ADDR")]
        web: Option<std::net::SocketAddr>,
        /// Transcript file (default: standard input).
        transcript: Option<PathBuf>,
    },
    /// Recompute every draw of an audit export (from `!audit`) or a game record (from
    /// `!export`) of either game.
    ///
    /// Exit code 0: every draw matches (and a game record is complete, its chain whole, and
    /// every witness matches; a record of a game with manual dice has no draws to recompute);
    /// 1: the seed or a draw does not match, or a game record is incomplete, its chain broken or
    /// a witness does not match; 2: the file is unreadable or invalid.
    Verify {
        /// The audit export or game record (JSON).
        export: PathBuf,
        /// A head players saw under a report, `SEQ:HEAD` (the entry number and the 12 hex
        /// digits shown, `setup:HEAD` for the setup's); repeatable.
        #[arg(long = "witness", value_name = "SEQ:HEAD")]
        witnesses: Vec<gaugebot_table::record::chain::Witness>,
    },
    /// Copy the SQLite database (every game of Irish Gauge and Privates), while the bot runs,
    /// into a new file readable by its owner only.
    ///
    /// The copy is consistent (`VACUUM INTO`) and holds the unrevealed dice seeds, like the
    /// database: keep it private. An existing file is never overwritten. For PostgreSQL, use
    /// pg_dump (docs/DEPLOY.md, "Backups").
    Backup {
        /// The new file.
        path: PathBuf,
        /// The database (default: the configured one).
        #[arg(long)]
        db: Option<String>,
    },
    /// Copy every game (Irish Gauge and Privates) of a SQLite database into an empty PostgreSQL
    /// database, verbatim: every table, checked row by row and game by game; re-run it after an
    /// interruption.
    Migrate {
        /// The SQLite database: `sqlite:PATH`.
        #[arg(long)]
        from: String,
        /// The PostgreSQL database: `postgres://user@host/db`.
        #[arg(long)]
        to: String,
    },
    /// Replay a game record (from `!export`, Irish Gauge or Privates) offline and print the
    /// position.
    Replay {
        /// The game record JSON.
        record: PathBuf,
        /// Stop after this log entry (the numbers `!log` shows).
        #[arg(long)]
        until: Option<i64>,
        /// Write the state dump (as `play --dump-state`) to this file.
        #[arg(long)]
        dump_state: Option<PathBuf>,
    },
    /// Continue a game (Irish Gauge or Privates) from its record (from `!export`) in a channel
    /// of this bot's database.
    Import {
        /// The game record JSON.
        record: PathBuf,
        /// The database (default: the configured one).
        #[arg(long)]
        db: Option<String>,
        /// The channel to continue it in (the console table is `console`).
        #[arg(long, default_value = "console")]
        channel: String,
    },
    /// Draw the Irish Gauge map of a dumped state as a PNG (Privates has no map).
    ///
    /// The state is a dump of an Irish Gauge game written by `play --dump-state` or `replay
    /// --dump-state`.
    Render {
        /// The state JSON.
        #[arg(long)]
        state: PathBuf,
        /// The PNG to write.
        #[arg(long)]
        out: PathBuf,
    },
}

/// Whether the logs may carry colour codes: only on a terminal, and not when `NO_COLOR` is set
/// (to anything but the empty string, as no-color.org says). journald, a container's log and a
/// file get plain text.
fn colour_logs() -> bool {
    use std::io::IsTerminal as _;
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    std::io::stderr().is_terminal() && !no_color
}

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(gaugebot::logging::filter(
            std::env::var("RUST_LOG").ok().as_deref(),
        ))
        .with_ansi(colour_logs())
        .with_writer(std::io::stderr)
        .init();
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("gaugebot: {}", said_once(&e));
            exit_code(&e)
        }
    }
}

/// An error and its causes, each said once: a cause whose text its wrapper already ends with
/// (`invalid configuration x.yaml: <the YAML error>`) is not repeated.
fn said_once(error: &anyhow::Error) -> String {
    let mut out = String::new();
    for cause in error.chain() {
        let text = cause.to_string();
        if out.ends_with(&text) {
            continue;
        }
        if !out.is_empty() {
            out.push_str(": ");
        }
        out.push_str(&text);
    }
    out
}

/// 78 (`EX_CONFIG`) for what the operator must fix (the configuration, the templates, a token
/// or intent Discord refuses), 1 for any other failure.
fn exit_code(error: &anyhow::Error) -> ExitCode {
    let setup = error.chain().any(|e| {
        e.is::<gaugebot::config::ConfigError>()
            || e.is::<gaugebot::games::HostError>()
            || e.is::<gaugebot::discord::SetupError>()
    });
    if setup {
        ExitCode::from(gaugebot::discord::SETUP_EXIT_CODE)
    } else {
        ExitCode::FAILURE
    }
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    let config = Config::load(cli.config.as_deref())?;
    // A token that cannot be one is refused before anything is created (database, connection).
    let token = match cli.command {
        Some(Command::Run) | None => config.checked_token()?,
        Some(_) => None,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    match cli.command {
        Some(Command::Run) => {
            let token = token.ok_or_else(|| {
                anyhow::anyhow!(
                    "no Discord token: set the environment variable {}",
                    config.discord.token_env
                )
            })?;
            runtime.block_on(gaugebot::discord::run(config, token))?;
            Ok(ExitCode::SUCCESS)
        }
        None => match token {
            Some(token) => {
                runtime.block_on(gaugebot::discord::run(config, token))?;
                Ok(ExitCode::SUCCESS)
            }
            None => {
                eprintln!(
                    "No Discord token in {}: starting the console table (database {}). Type `mod: !help`.",
                    config.discord.token_env,
                    gaugebot_store::backend::Database::parse(&config.database.to_string_lossy()).display()
                );
                runtime.block_on(console::play(PlayOptions {
                    db: config.database.to_string_lossy().into_owned(),
                    moderator: "mod".to_string(),
                    seed: None,
                    dump_state: None,
                    attachments: None,
                    transcript: None,
                    prefix: config.prefix.clone(),
                    templates_dir: config.templates_dir.clone(),
                    map_after_build: config.map.after_build,
                    end_marker: None,
                    automa: config.automa,
                    dice_spec: gaugebot_table::dice::Spec::V3,
                    commit_first: true,
                    web: config.web.as_ref().map(|w| w.listen),
                }))?;
                Ok(ExitCode::SUCCESS)
            }
        },
        Some(Command::Play {
            db,
            moderator,
            seed,
            dump_state,
            attachments,
            no_map,
            end_marker,
            automa,
            dice_spec,
            commit_first,
            web,
            transcript,
        }) => {
            runtime.block_on(console::play(PlayOptions {
                db: db.unwrap_or_else(|| ":memory:".to_string()),
                moderator,
                seed,
                dump_state,
                attachments,
                transcript,
                prefix: config.prefix.clone(),
                templates_dir: config.templates_dir.clone(),
                map_after_build: config.map.after_build && !no_map,
                end_marker,
                automa: automa.unwrap_or(config.automa),
                dice_spec: dice_spec.unwrap_or(gaugebot_table::dice::Spec::V3),
                commit_first,
                web,
            }))?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Verify { export, witnesses }) => Ok(verify(&export, &witnesses)),
        Some(Command::Backup { path, db }) => {
            let db = db.unwrap_or_else(|| config.database.to_string_lossy().into_owned());
            let said = runtime.block_on(gaugebot::backup::backup(&db, &path))?;
            println!("{said}");
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Replay {
            record,
            until,
            dump_state,
        }) => gaugebot::records::replay(&record, until, dump_state.as_deref()),
        Some(Command::Import {
            record,
            db,
            channel,
        }) => {
            let db = db.unwrap_or_else(|| config.database.to_string_lossy().into_owned());
            runtime.block_on(gaugebot::records::import(&record, &db, &channel))
        }
        Some(Command::Migrate { from, to }) => {
            let report = runtime.block_on(gaugebot::migrate::migrate(&from, &to, &mut |step| {
                eprintln!("gaugebot migrate: {step}")
            }))?;
            println!("migrated {report}");
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Render { state, out }) => {
            let text = std::fs::read_to_string(&state)?;
            let view: irish_gauge::table::View = serde_json::from_str(&text)?;
            let png = irish_gauge::table::map::render_png(&view)?;
            std::fs::write(&out, png)?;
            println!("wrote {}", out.display());
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// `gaugebot verify`: the same exit codes as `tools/verify_draws.py` — 0 every draw matches (and
/// a game record is complete), 1 the seed does not match its commitment, a draw does not match, or
/// a game record is incomplete, 2 the file cannot be read or is not a valid export.
fn verify(
    path: &std::path::Path,
    witnesses: &[gaugebot_table::record::chain::Witness],
) -> ExitCode {
    gaugebot::records::verify(path, witnesses)
}

/// `--dice-spec`: a dice specification's version string.
fn parse_dice_spec(text: &str) -> Result<gaugebot_table::dice::Spec, String> {
    gaugebot_table::dice::Spec::of(text)
        .ok_or_else(|| format!("not a dice specification: {text} (gaugebot-dice-v1, -v2 or -v3)"))
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::Cli;

    #[test]
    fn the_help_names_both_games_and_every_subcommand_has_its_own() {
        let cli = Cli::command();
        cli.clone().debug_assert();
        let about = cli.get_about().map(|a| a.to_string()).unwrap_or_default();
        assert!(
            about.contains("Irish Gauge") && about.contains("Privates"),
            "{about}"
        );
        let mut seen = std::collections::BTreeSet::new();
        for sub in cli.get_subcommands() {
            let name = sub.get_name();
            let about = sub.get_about().map(|a| a.to_string()).unwrap_or_default();
            assert!(!about.trim().is_empty(), "`{name}` has no help text");
            assert!(
                seen.insert(about.clone()),
                "`{name}` repeats a help text: {about}"
            );
            // Each subcommand's help names what it works on: the map is Irish Gauge's only.
            let games = if name == "render" {
                vec!["Irish Gauge"]
            } else {
                vec![
                    "either game",
                    "Irish Gauge or Privates",
                    "Irish Gauge and Privates",
                ]
            };
            let long = sub
                .get_long_about()
                .map(|a| a.to_string())
                .unwrap_or_default();
            assert!(
                games.iter().any(|g| about.contains(g) || long.contains(g)),
                "`{name}`'s help does not say which games: {about}"
            );
        }
        assert_eq!(
            seen.len(),
            8,
            "run, play, verify, backup, migrate, replay, import, render"
        );
    }
}
