//! The automa at the gaugebot table (feature `table`): [`Automa`] chooses for a seat an automa
//! holds, registered beside the game's plug-in in the bot's game registry
//! (`plugin_with_automa(Privates, Automa)`). Its reason crosses to the table as data, worded
//! by `templates/privates/automa.md.j2`.

use gaugebot_table::game::automa::{AutomaChoice, AutomaLevel, TableAutoma};
use privates::table::Privates;
use privates::{Action, Game};
use serde_json::{json, Value};

use crate::{decide, Level, Reason};

/// The Privates automa at the table: [`decide`] on the position with the audited deck's order
/// forgotten (`Game::without_hidden_deck`), seeded by the table from public data.
#[derive(Debug, Clone, Copy, Default)]
pub struct Automa;

/// The crate's level for the table's.
pub fn level(level: AutomaLevel) -> Level {
    match level {
        AutomaLevel::Cheap => Level::Cheap,
        AutomaLevel::Standard => Level::Standard,
        AutomaLevel::Simulations(n) => Level::Simulations(n),
    }
}

/// A reason as the template's data.
pub fn reason_data(reason: &Reason) -> Value {
    match reason {
        Reason::Searched {
            moves_weighed,
            simulations,
            runs,
            win_percent,
            mean_margin,
        } => json!({
            "kind": "searched", "moves_weighed": moves_weighed, "simulations": simulations,
            "runs": runs, "win_percent": win_percent, "mean_margin": mean_margin,
        }),
        Reason::OnlyMove | Reason::Random | Reason::Greedy => json!({ "kind": "only_move" }),
    }
}

impl TableAutoma<Privates> for Automa {
    fn choose(
        &self,
        _game: &Privates,
        state: &Game,
        seat: usize,
        table_level: AutomaLevel,
        seed: u64,
    ) -> Option<AutomaChoice<Action>> {
        // What a player can see: the undealt deck's order is forgotten before the automa looks.
        let visible = state.without_hidden_deck();
        let choice = decide(&visible, seat, level(table_level), seed)?;
        Some(AutomaChoice {
            reason: reason_data(&choice.reason),
            action: choice.action,
        })
    }
}
