//! The game registry: every game this bot hosts. Adding a game is one line here (and its crate
//! in `Cargo.toml`); the first game is the one `!setup` starts when no game is named.

use std::path::Path;
use std::sync::Arc;

use gaugebot_table::game::session::{plugin_with_automa, SharedPlugin};
use gaugebot_table::templates::{TemplateError, Templates};
use gaugebot_table::{Host, TableSettings};

/// Every game of this bot, the default first, each with its automa (the computer player that
/// `!setup … automa` and `!sub @old automa` seat; docs/AUTOMA.md).
pub fn registry() -> Vec<SharedPlugin> {
    vec![
        plugin_with_automa(
            irish_gauge::table::IrishGauge,
            irish_gauge_automa::table::Automa,
        ),
        plugin_with_automa(privates::table::Privates, privates_automa::table::Automa),
    ]
}

/// What the tables share: the games, their templates and the adapter's (with overrides from
/// `templates_dir`),
/// the command registry and the settings.
pub fn host(
    templates_dir: Option<&Path>,
    settings: TableSettings,
) -> Result<Arc<Host>, TemplateError> {
    let games = registry();
    let templates = Templates::load(templates_dir, &gaugebot_table::texts_of(&games))?
        .with(templates_dir, &crate::templates::DISCORD)?;
    Ok(Arc::new(Host::new(games, templates, settings)))
}

/// Recomputes audit records with every registered game's purposes and the table core's own
/// (`signup-pick`).
pub struct AllGames(pub Vec<SharedPlugin>);

impl gaugebot_table::dice::Recompute for AllGames {
    fn recompute(
        &self,
        record: &gaugebot_table::dice::DrawRecord,
        source: gaugebot_table::dice::DrawSource<'_>,
    ) -> Option<Result<serde_json::Value, gaugebot_table::dice::DiceError>> {
        self.0
            .iter()
            .find_map(|g| g.recompute(record, source))
            .or_else(|| gaugebot_table::weeks::signup::recompute(record, source))
    }
}

/// Verifies an audit export with the purposes of every registered game.
pub fn verify(
    export: &gaugebot_table::dice::AuditExport,
) -> Result<gaugebot_table::dice::VerifyReport, gaugebot_table::dice::DiceError> {
    gaugebot_table::dice::verify(export, &AllGames(registry()))
}
