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

/// The templates could not be set up: a built-in or overriding template does not parse, or the
/// `templates_dir` is missing or holds a file that overrides nothing.
#[derive(Debug, thiserror::Error)]
pub enum HostError {
    /// A template does not parse.
    #[error(transparent)]
    Template(#[from] TemplateError),
    /// `templates_dir` names no directory.
    #[error("templates_dir {dir} is not a directory ({reason}); the templates it may override are, by relative name: {valid}")]
    MissingDir {
        /// The configured directory.
        dir: String,
        /// Why it cannot be read.
        reason: String,
        /// Every overridable name, one a line ([`one_per_line`]).
        valid: String,
    },
    /// Files in `templates_dir` that override no template (a misspelt or misplaced name).
    #[error("templates_dir {dir}: {unknown} override no template (names are relative to templates_dir, e.g. irish-gauge/status.md.j2); the valid names are: {valid}")]
    UnknownOverrides {
        /// The configured directory.
        dir: String,
        /// The files that match no template, comma-separated.
        unknown: String,
        /// Every overridable name, one a line ([`one_per_line`]).
        valid: String,
    },
}

/// A long list of names as a host reads it in a terminal or a log: one name a line, indented
/// under the sentence that introduces it (a line of 130 names is unreadable). Each name but the
/// last keeps its comma, so that the list still reads as one when copied into a single line.
pub fn one_per_line(names: &[String]) -> String {
    let mut out = String::new();
    for (i, name) in names.iter().enumerate() {
        out.push_str("\n  ");
        out.push_str(name);
        if i + 1 < names.len() {
            out.push_str(", ");
        }
    }
    out
}

/// What the tables share: the games, their templates and the adapter's (with overrides from
/// `templates_dir`, every file of which must override a template),
/// the command registry and the settings.
pub fn host(templates_dir: Option<&Path>, settings: TableSettings) -> Result<Arc<Host>, HostError> {
    host_with_pages(templates_dir, settings, None)
}

/// The host, its reports linking each game's web page under `page_url` (docs/DEPLOY.md, "The
/// web page"), when the pages are served.
pub fn host_with_pages(
    templates_dir: Option<&Path>,
    settings: TableSettings,
    page_url: Option<String>,
) -> Result<Arc<Host>, HostError> {
    let games = registry();
    let templates = Templates::load(templates_dir, &gaugebot_table::texts_of(&games))?
        .with(templates_dir, &crate::templates::DISCORD)?
        .with(templates_dir, &gaugebot_web::TEMPLATES)?;
    if let Some(dir) = templates_dir {
        check_overrides(dir, &templates.names())?;
    }
    Ok(Arc::new(
        Host::new(games, templates, settings).with_page_url(page_url),
    ))
}

/// Every file under `dir` (relative names with `/`) must be one of `valid`: a file that
/// overrides nothing would otherwise be silently ignored.
fn check_overrides(dir: &Path, valid: &[String]) -> Result<(), HostError> {
    let list = || one_per_line(valid);
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(at) = pending.pop() {
        let entries = std::fs::read_dir(&at).map_err(|e| HostError::MissingDir {
            dir: dir.display().to_string(),
            reason: e.to_string(),
            valid: list(),
        })?;
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else if let Ok(relative) = path.strip_prefix(dir) {
                let name = relative
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy())
                    .collect::<Vec<_>>()
                    .join("/");
                // Editor leftovers and notes are not templates.
                if name.ends_with(".j2") {
                    files.push(name);
                }
            }
        }
    }
    let mut unknown: Vec<String> = files.into_iter().filter(|f| !valid.contains(f)).collect();
    if unknown.is_empty() {
        return Ok(());
    }
    unknown.sort();
    Err(HostError::UnknownOverrides {
        dir: dir.display().to_string(),
        unknown: unknown.join(", "),
        valid: list(),
    })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_override_that_matches_no_template_is_an_error_listing_the_valid_names() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("status.md.j2"), "x").expect("write");
        let error = host(Some(dir.path()), TableSettings::default())
            .err()
            .expect("refused")
            .to_string();
        assert!(
            error.contains("status.md.j2 override no template"),
            "{error}"
        );
        assert!(error.contains("irish-gauge/status.md.j2"), "{error}");
        assert!(error.contains("table/help.md.j2"), "{error}");
        assert!(error.contains("discord/live_status.md.j2"), "{error}");
    }

    #[test]
    fn a_real_override_is_used_and_a_missing_directory_is_an_error() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir(dir.path().join("irish-gauge")).expect("mkdir");
        std::fs::write(dir.path().join("irish-gauge/status.md.j2"), "OVERRIDDEN").expect("write");
        std::fs::write(dir.path().join("README.txt"), "notes").expect("write");
        let host = host(Some(dir.path()), TableSettings::default()).expect("accepted");
        assert_eq!(
            host.templates
                .render("irish-gauge/status.md.j2", minijinja::context! {})
                .expect("renders"),
            "OVERRIDDEN"
        );
        let missing = dir.path().join("nope");
        let error = super::host(Some(&missing), TableSettings::default())
            .err()
            .expect("refused")
            .to_string();
        assert!(error.contains("is not a directory"), "{error}");
        assert!(error.contains("irish-gauge/status.md.j2"), "{error}");
    }
}
