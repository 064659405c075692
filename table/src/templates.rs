//! All wording, from minijinja templates: the table's own (`templates/table/`) and each game's
//! (filed under `<kind>/`). They are built into the binary; a configured directory overrides any
//! of them by the same relative name (`table/messages.md.j2`, `irish-gauge/status.md.j2`).

use std::path::Path;

use minijinja::Environment;

use crate::game::session::SharedPlugin;

/// The table's own templates.
const TABLE_TEMPLATES: [(&str, &str); 3] = [
    (
        "table/messages.md.j2",
        include_str!("../../templates/table/messages.md.j2"),
    ),
    (
        "table/help.md.j2",
        include_str!("../../templates/table/help.md.j2"),
    ),
    (
        "table/pace.md.j2",
        include_str!("../../templates/table/pace.md.j2"),
    ),
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
    /// The built-in templates of the table and the games, or those of `dir` where it has a file
    /// of the same relative name.
    pub fn load(dir: Option<&Path>, games: &[SharedPlugin]) -> Result<Templates, TemplateError> {
        let mut env = Environment::new();
        env.set_trim_blocks(true);
        env.set_lstrip_blocks(true);
        env.set_keep_trailing_newline(false);
        let mut all: Vec<(String, &str)> = TABLE_TEMPLATES
            .iter()
            .map(|(name, text)| (name.to_string(), *text))
            .collect();
        for game in games {
            let kind = game.info().kind;
            for (name, text) in game.templates() {
                all.push((format!("{kind}/{name}"), text));
            }
        }
        let mut templates = Templates { env };
        for (name, built_in) in all {
            templates.add(dir, name, built_in)?;
        }
        Ok(templates)
    }

    /// Adds an adapter's built-in templates (relative name, text), each overridden by the file
    /// of the same relative name in `dir` like the others.
    pub fn with(
        mut self,
        dir: Option<&Path>,
        built_in: &[(&str, &str)],
    ) -> Result<Templates, TemplateError> {
        for (name, text) in built_in {
            self.add(dir, name.to_string(), text)?;
        }
        Ok(self)
    }

    fn add(
        &mut self,
        dir: Option<&Path>,
        name: String,
        built_in: &str,
    ) -> Result<(), TemplateError> {
        let text = dir
            .map(|d| d.join(&name))
            .and_then(|p| std::fs::read_to_string(p).ok())
            .unwrap_or_else(|| built_in.to_string());
        self.env
            .add_template_owned(name.clone(), text)
            .map_err(|source| TemplateError { name, source })
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

    /// Renders a template; a failure is shown in the text rather than lost.
    pub fn text(&self, name: &str, ctx: minijinja::Value) -> String {
        self.render(name, ctx)
            .unwrap_or_else(|e| format!("(text failed: {e})"))
    }

    /// One of the table's messages (`templates/table/messages.md.j2`): `msg` names it, `ctx`
    /// holds its data.
    pub fn message(&self, msg: &str, ctx: minijinja::Value) -> String {
        let ctx = minijinja::context! { msg => msg, ..ctx };
        self.text("table/messages.md.j2", ctx)
    }

    /// Whether a template of that name exists.
    pub fn has(&self, name: &str) -> bool {
        self.env.get_template(name).is_ok()
    }
}

/// Drops blank lines that templates leave doubled and trailing spaces.
pub fn tidy(text: &str) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;
    use minijinja::context;

    #[test]
    fn table_messages_render_with_their_data() {
        let templates = Templates::load(None, &[]).expect("templates load");
        let text = templates.message(
            "moderator_only",
            context! { author => "ann", p => "!", command => "undo" },
        );
        assert_eq!(text, "❌ ann: only a moderator may `!undo`.");
        assert!(templates
            .message("frozen", context! { game_id => "c-1", title => "Irish Gauge", seq => 4, reason => "bad", p => "!" })
            .contains("at entry #4"));
        assert_eq!(templates.message("nonsense", context! {}), "(nonsense)");
    }

    #[test]
    fn a_directory_overrides_a_template_by_its_relative_name() {
        let dir = std::env::temp_dir().join(format!("gaugebot-templates-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("table")).expect("dir");
        std::fs::write(dir.join("table/messages.md.j2"), "custom {{ msg }}").expect("write");
        let templates = Templates::load(Some(&dir), &[]).expect("templates load");
        assert_eq!(templates.message("no_game", context! {}), "custom no_game");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
