//! The dump's JSON schema, key by key.

mod support;

use privates::GameView;
use serde_json::{json, Value};
use support::Table;

fn keys(value: &Value) -> Vec<String> {
    value
        .as_object()
        .expect("an object")
        .keys()
        .cloned()
        .collect()
}

fn dump(t: &Table) -> Value {
    serde_json::to_value(GameView::from_game(&t.game)).expect("json")
}

#[test]
fn the_dump_has_exactly_the_schema_while_a_deal_is_awaited() {
    let t = Table::manual(&["ann", "bob", "cat"], 1);
    let v = dump(&t);
    assert_eq!(
        v,
        json!({
            "game": "privates",
            "round": 1,
            "dealer": "bob",
            "players": [
                {"name": "ann", "cash": 120, "cards": [], "bids": {}},
                {"name": "bob", "cash": 120, "cards": [], "bids": {}},
                {"name": "cat", "cash": 120, "cards": [], "bids": {}}
            ],
            "row": [],
            "deck_left": 54,
            "bag": {"red": 2, "yellow": 2, "green": 2, "blue": 2, "black": 2},
            "reserve": {"red": 9, "yellow": 9, "green": 9, "blue": 9, "black": 9},
            "next": null,
            "finished": false,
            "scores": {"ann": 120, "bob": 120, "cat": 120},
            "winners": []
        })
    );
}

#[test]
fn the_dump_shows_bids_owners_and_the_player_to_act_in_order() {
    let mut t = Table::manual(&["ann", "bob", "cat"], 0);
    t.deal("10 5 25 50 10 35 40 chips:red,blue,green,red,black,yellow,green");
    t.script("ann: bid 17 on C\nbob: bid 18 on C\ncat: buy");
    let v = dump(&t);
    // The text keeps the schema's key order (a `Value` sorts its keys).
    let text = serde_json::to_string(&GameView::from_game(&t.game)).expect("text");
    assert!(text.starts_with(r#"{"game":"privates","round":1,"dealer":"ann","players":"#));
    assert!(text.contains(
        r#""deck_left":47,"bag":{"red":0,"yellow":1,"green":0,"blue":1,"black":1},"reserve":"#
    ));
    assert!(text.ends_with(
        r#""next":"ann","finished":false,"scores":{"ann":120,"bob":120,"cat":115},"winners":[]}"#
    ));
    assert_eq!(
        keys(&v),
        [
            "bag",
            "dealer",
            "deck_left",
            "finished",
            "game",
            "next",
            "players",
            "reserve",
            "round",
            "row",
            "scores",
            "winners"
        ]
    );
    // The bid-off for C (ann 17, bob 18): ann is asked first.
    assert_eq!(v["next"], "ann");
    assert_eq!(v["players"][0]["bids"], json!({"C": 17}));
    assert_eq!(
        v["players"][2]["cards"],
        json!([{"cost": 5, "revenue": 3, "colour": "red"}])
    );
    assert_eq!(
        v["row"][0],
        json!({"letter": "A", "cost": 5, "revenue": 3, "colour": "red", "price": 5,
               "bids": {}, "owner": "cat"})
    );
    assert_eq!(
        v["row"][2],
        json!({"letter": "C", "cost": 10, "revenue": 4, "colour": "green", "price": 12,
               "bids": {"ann": 17, "bob": 18}, "owner": null})
    );
    assert_eq!(keys(&v["players"][0]), ["bids", "cards", "cash", "name"]);
    assert_eq!(v["deck_left"], 47);
    // Names in bids keep seat order in the text.
    let serialized = serde_json::to_string(&GameView::from_game(&t.game)).expect("text");
    assert!(serialized.contains(r#""bids":{"ann":17,"bob":18}"#));
    // And the dump reads back.
    let back: GameView = serde_json::from_str(&serialized).expect("reads");
    assert_eq!(back, GameView::from_game(&t.game));
}
