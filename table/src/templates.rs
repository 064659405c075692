//! All wording, from minijinja templates: the table's own (`templates/table/`) and each game's
//! (filed under `<kind>/`). They are built into the binary; a configured directory overrides any
//! of them by the same relative name (`table/messages/no_game.md.j2`, `irish-gauge/status.md.j2`).

use std::path::Path;

use minijinja::Environment;

use crate::messages::Message;

/// A game's built-in templates: its kind, the folder they are filed under (`irish-gauge/`), and
/// each file's name and text ([`crate::game::session::texts_of`] lists the registered games').
#[derive(Debug, Clone, Copy)]
pub struct GameTexts {
    /// The game's kind.
    pub kind: &'static str,
    /// (file name, text).
    pub files: &'static [(&'static str, &'static str)],
}

/// The table's own templates besides its messages ([`crate::messages`]).
const TABLE_TEMPLATES: [(&str, &str); 2] = [
    (
        "table/help.md.j2",
        include_str!("../../templates/table/help.md.j2"),
    ),
    (
        "table/macros.md.j2",
        include_str!("../../templates/table/macros.md.j2"),
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
    pub fn load(dir: Option<&Path>, games: &[GameTexts]) -> Result<Templates, TemplateError> {
        let mut env = Environment::new();
        env.set_trim_blocks(true);
        env.set_lstrip_blocks(true);
        env.set_keep_trailing_newline(false);
        let mut all: Vec<(String, &str)> = TABLE_TEMPLATES
            .iter()
            .chain(crate::messages::TEMPLATES)
            .map(|(name, text)| (name.to_string(), *text))
            .collect();
        for game in games {
            for (name, text) in game.files {
                all.push((format!("{}/{name}", game.kind), text));
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

    /// Renders one of the table's messages ([`crate::messages`]) with the command prefix `p`.
    pub fn render_message<M: Message>(&self, msg: &M, p: &str) -> Result<String, TemplateError> {
        let data = minijinja::Value::from_serialize(msg);
        self.render(M::TEMPLATE, minijinja::context! { p, ..data })
    }

    /// One of the table's messages with the command prefix `p`; a failure is shown in the text.
    pub fn say<M: Message>(&self, msg: &M, p: &str) -> String {
        self.render_message(msg, p)
            .unwrap_or_else(|e| format!("(text failed: {e})"))
    }

    /// The relative names of every template (`table/help.md.j2`, `irish-gauge/status.md.j2`),
    /// sorted: the names a `templates_dir` may override.
    pub fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.env.templates().map(|(n, _)| n.to_string()).collect();
        names.sort();
        names
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
    use crate::messages;

    #[test]
    fn table_messages_render_with_their_data() {
        let templates = Templates::load(None, &[]).expect("templates load");
        let text = templates.say(
            &messages::ModeratorOnly {
                author: "ann".into(),
                command: "undo".into(),
                ruling: "ruling 27".into(),
            },
            "!",
        );
        assert_eq!(text, "❌ ann: only a moderator may `!undo` (ruling 27).");
        assert!(templates
            .say(
                &messages::Frozen {
                    game_id: "c-1".into(),
                    title: "Irish Gauge".into(),
                    seq: Some(4),
                    reason: "bad".into(),
                },
                "!"
            )
            .contains("at entry #4"));
    }

    #[test]
    fn every_message_of_the_catalogue_renders() {
        let templates = Templates::load(None, &[]).expect("templates load");
        let every = messages::every_default();
        assert_eq!(every.len(), messages::TEMPLATES.len());
        for (name, data) in every {
            let data = minijinja::Value::from_serialize(&data);
            if let Err(e) = templates.render(name, minijinja::context! { p => "!", ..data }) {
                panic!("{name}: {e}");
            }
        }
    }

    #[test]
    fn a_directory_overrides_a_template_by_its_relative_name() {
        let dir = std::env::temp_dir().join(format!("gaugebot-templates-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("table/messages")).expect("dir");
        std::fs::write(dir.join("table/messages/no_game.md.j2"), "custom {{ p }}").expect("write");
        let templates = Templates::load(Some(&dir), &[]).expect("templates load");
        assert_eq!(templates.say(&messages::NoGame {}, "?"), "custom ?");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
