//! The automa at the gaugebot table (feature `table`): [`Automa`] chooses for a seat an automa
//! holds, registered beside the game's plug-in in the bot's game registry
//! (`plugin_with_automa(IrishGauge, Automa)`). Its reason crosses to the table as data, worded
//! by `templates/irish-gauge/automa.md.j2`.

use gaugebot_table::game::automa::{AutomaChoice, AutomaLevel, TableAutoma};
use irish_gauge::table::IrishGauge;
use irish_gauge::{Action, Game};
use serde_json::{json, Value};

use crate::{decide, Estimate, Level, Reason};

/// The Irish Gauge automa at the table: [`decide`] on the public position (a `Game` holds
/// nothing secret), seeded by the table from public data.
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

/// A reason (and the search's estimate) as the template's data.
pub fn reason_data(reason: &Reason, estimate: Option<Estimate>) -> Value {
    let mut data = match reason {
        Reason::OnlyMove | Reason::Random => json!({ "kind": "only_move" }),
        Reason::ValueAbovePrice {
            railway,
            price,
            value,
        } => json!({
            "kind": "value_above_price", "railway": railway.to_string(), "price": price, "value": value,
        }),
        Reason::PriceAboveValue {
            railway,
            price,
            value,
        } => json!({
            "kind": "price_above_value", "railway": railway.to_string(), "price": price, "value": value,
        }),
        Reason::Extends {
            railway,
            locomotives,
            income_before,
            income_after,
        } => json!({
            "kind": "extends", "railway": railway.to_string(), "locomotives": locomotives,
            "income_before": income_before, "income_after": income_after,
        }),
        Reason::Simulated {
            railway,
            price,
            value,
            pass,
        } => json!({
            "kind": "simulated", "railway": railway.to_string(), "price": price, "value": value,
            "pass": pass,
        }),
        Reason::Approaches {
            railway,
            locomotives,
            gains,
        } => json!({
            "kind": "approaches", "railway": railway.to_string(), "locomotives": locomotives,
            "gains": gains,
        }),
        Reason::NewCity { town, colour } => json!({
            "kind": "new_city", "town": town.to_string(), "colour": colour.to_string(),
        }),
        Reason::Dividends { expected } => json!({ "kind": "dividends", "expected": expected }),
    };
    if let (Some(estimate), Value::Object(map)) = (estimate, &mut data) {
        map.insert("win_percent".into(), estimate.win_percent.into());
        map.insert("simulations".into(), estimate.simulations.into());
    }
    data
}

impl TableAutoma<IrishGauge> for Automa {
    fn choose(
        &self,
        _game: &IrishGauge,
        state: &Game,
        seat: usize,
        table_level: AutomaLevel,
        seed: u64,
    ) -> Option<AutomaChoice<Action>> {
        let choice = decide(state, seat, level(table_level), seed)?;
        Some(AutomaChoice {
            reason: reason_data(&choice.reason, choice.estimate),
            action: choice.action,
        })
    }
}
