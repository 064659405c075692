//! Examples of the interaction payloads and REST answers, for the validation tests.

use super::*;
use crate::server::FakeDiscord;

/// A registered command with an integer, an autocompleted string and a user option.
pub(crate) fn command_body() -> Value {
    json!({
        "name": "bid",
        "description": "raise the high bid",
        "type": 1,
        "options": [
            {"type": 4, "name": "amount", "description": "pounds", "required": true, "autocomplete": true},
            {"type": 3, "name": "note", "description": "words", "required": false},
            {"type": 6, "name": "player", "description": "a player", "required": false},
        ],
        "default_member_permissions": "8192",
    })
}

/// INTERACTION_CREATE payloads (command, autocomplete, component) and REST answers
/// (commands, a follow-up message, pins), made by the code the fake runs.
pub(crate) fn all(
    s: &mut FakeState,
    channel: u64,
    guild: u64,
    user: &FakeUser,
    message: u64,
) -> (Vec<Value>, Vec<(String, Value)>) {
    let registered = command_json(s, &command_body(), None);
    s.native.global_commands = vec![registered.clone()];
    let id = s.next_id();
    let command = FakeDiscord::command_payload(
        s,
        id,
        Some(guild),
        channel,
        user,
        "bid",
        &[
            ("amount", "7"),
            ("note", "hi"),
            ("player", &user.id.to_string()),
        ],
        None,
    );
    let id = s.next_id();
    let autocomplete = FakeDiscord::command_payload(
        s,
        id,
        Some(guild),
        channel,
        user,
        "bid",
        &[("amount", "1")],
        Some("amount"),
    );
    let id = s.next_id();
    let mut component = interaction_base(s, id, 3, channel, Some(guild), user);
    component["message"] = s.message_json(&s.messages[&message], false);
    component["data"] = json!({"custom_id": "gb|x|1|pass", "component_type": 2});
    let dm_id = s.next_id();
    let mut dm = FakeDiscord::command_payload(
        s,
        dm_id,
        None,
        channel,
        user,
        "bid",
        &[("amount", "7")],
        None,
    );
    dm["channel"]["type"] = json!(1);
    let interactions = vec![command, autocomplete, component, dm];
    let follow = response_message(
        s,
        channel,
        &json!({"content": "ann: **bid 7**"}),
        Vec::new(),
        true,
        id,
    );
    let rest = vec![
        ("Commands".to_string(), Value::Array(vec![registered])),
        (
            "Followup".to_string(),
            s.message_json(&s.messages[&follow], false),
        ),
        (
            "Pins".to_string(),
            Value::Array(vec![s.message_json(&s.messages[&message], false)]),
        ),
    ];
    (interactions, rest)
}
