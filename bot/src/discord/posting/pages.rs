//! The ◀ ▶ buttons of a status report: they page through the game's positions, one record
//! entry at a time. A button's custom id names the game and the entry whose position it shows:
//! `gbp|501-1|17`. A click is answered to the person who clicked only
//! ([`crate::discord::interactions::buttons`]), with the report of that position and its own
//! ◀ ▶, so a returning player can step through what happened without scrolling.

use serenity::all::{ButtonStyle, CreateActionRow, CreateButton};

use gaugebot_table::Page;

/// The start of every custom id of a page button.
const TAG: &str = "gbp";
/// Discord's limit on a custom id.
const MAX_ID: usize = 100;

/// The custom id of the button to the position after record entry `entry` of `game`.
pub(crate) fn custom_id(game: &str, entry: i64) -> String {
    format!("{TAG}|{game}|{entry}")
}

/// Reads a custom id made by [`custom_id`]: (game, entry).
pub(crate) fn parse(id: &str) -> Option<(String, i64)> {
    let mut parts = id.splitn(3, '|');
    if parts.next()? != TAG {
        return None;
    }
    let game = parts.next()?.to_string();
    let entry = parts.next()?.parse().ok().filter(|e: &i64| *e >= 0)?;
    (!game.is_empty()).then_some((game, entry))
}

/// The ◀ ▶ row of a status report showing `page`: none when there is nowhere to go.
pub(crate) fn rows(page: &Page) -> Vec<CreateActionRow> {
    let button = |entry: i64, label: String| {
        let id = custom_id(&page.game_id, entry);
        (id.chars().count() <= MAX_ID).then(|| {
            CreateButton::new(id)
                .label(label)
                .style(ButtonStyle::Secondary)
        })
    };
    let buttons: Vec<CreateButton> = [
        page.before().and_then(|e| button(e, format!("◀ #{e}"))),
        page.after().and_then(|e| button(e, format!("#{e} ▶"))),
    ]
    .into_iter()
    .flatten()
    .collect();
    if buttons.is_empty() {
        Vec::new()
    } else {
        vec![CreateActionRow::Buttons(buttons)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn custom_ids_round_trip() {
        let id = custom_id("501-1", 17);
        assert_eq!(id, "gbp|501-1|17");
        assert_eq!(parse(&id), Some(("501-1".into(), 17)));
        assert_eq!(parse("gb|501-1|17|pass"), None);
        assert_eq!(parse("gbp|501-1|-3"), None);
        assert_eq!(parse("gbp||3"), None);
    }

    #[test]
    fn a_page_has_a_button_each_way_there_is_to_go() {
        let page = |entry| Page {
            game_id: "g-1".into(),
            entry,
            entries: Some((0, 5)),
        };
        assert_eq!(rows(&page(None)).len(), 1);
        assert_eq!(rows(&page(Some(2))).len(), 1);
        let none = Page {
            entries: None,
            ..page(None)
        };
        assert!(rows(&none).is_empty());
    }
}
