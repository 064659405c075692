//! Buttons on the turn prompt for moves a click suffices for (pass, the least bid, calling
//! dividends). A button's custom id names the game, its position (the number of log entries
//! when the prompt was posted) and the move: `gb|501-1|12|bid 8`.

use serenity::all::{ButtonStyle, CreateActionRow, CreateButton};

use gaugebot_table::Prompt;

/// The start of every custom id the bot makes.
const TAG: &str = "gb";
/// Discord's limits: custom ids of 100 characters, 5 buttons a row.
const MAX_ID: usize = 100;
const PER_ROW: usize = 5;

/// The custom id of a button.
pub(crate) fn custom_id(game: &str, position: usize, notation: &str) -> String {
    format!("{TAG}|{game}|{position}|{notation}")
}

/// Reads a custom id made by [`custom_id`]: (game, position, move).
pub(crate) fn parse(id: &str) -> Option<(String, usize, String)> {
    let mut parts = id.splitn(4, '|');
    if parts.next()? != TAG {
        return None;
    }
    let game = parts.next()?.to_string();
    let position = parts.next()?.parse().ok()?;
    let notation = parts.next()?.to_string();
    (!game.is_empty() && !notation.is_empty()).then_some((game, position, notation))
}

/// The buttons of a turn prompt.
pub(crate) fn rows(prompt: &Prompt) -> Vec<CreateActionRow> {
    let buttons: Vec<CreateButton> = prompt
        .moves
        .iter()
        .map(|m| (custom_id(&prompt.game_id, prompt.position, &m.notation), m))
        .filter(|(id, _)| id.chars().count() <= MAX_ID)
        .map(|(id, m)| {
            let style = if m.notation == "pass" {
                ButtonStyle::Secondary
            } else {
                ButtonStyle::Primary
            };
            CreateButton::new(id).label(m.label.clone()).style(style)
        })
        .collect();
    buttons
        .chunks(PER_ROW)
        .map(|row| CreateActionRow::Buttons(row.to_vec()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn custom_ids_round_trip() {
        let id = custom_id("501-1", 12, "bid 8");
        assert_eq!(id, "gb|501-1|12|bid 8");
        assert_eq!(parse(&id), Some(("501-1".into(), 12, "bid 8".into())));
        assert_eq!(parse("other|x"), None);
        assert_eq!(parse("gb|x|notanumber|pass"), None);
        assert_eq!(parse("gb|x|3|"), None);
    }
}
