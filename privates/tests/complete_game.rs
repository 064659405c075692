//! One complete three-player game with manual deals, every move in the players' notation. The
//! cash after every round and the final scores are worked out by hand in the comments and
//! asserted. Seats: ann 0, bob 1, cat 2; ann deals round 1, the deal passes left (P4).

mod support;

use privates::scoring::{SequenceScore, SetScore};
use privates::{Chip, Event, GameView, PlayError, Ruling};
use support::Table;

fn cash(t: &Table) -> [u32; 3] {
    [t.cash("ann"), t.cash("bob"), t.cash("cat")]
}

#[test]
fn a_complete_three_player_game_scored_by_hand() {
    let mut t = Table::manual(&["ann", "bob", "cat"], 0);
    assert_eq!(cash(&t), [120, 120, 120]); // $360 / 3 (P3)

    // ---------------------------------------------------------------- Round 1, ann deals.
    // Bag: 2 of each colour. Row: A 5 red, B 10 red, C 10 yellow ($12), D 25 yellow,
    // E 35 green, F 40 green, G 50 blue. Left in the bag: 1 blue, 2 black.
    t.deal("10 5 25 50 10 35 40 chips:red,red,yellow,yellow,green,green,blue");
    t.script(
        "ann: bid 14 on C
         bob: buy
         cat: bid 15 on C
         ann: buy
         ann: raise 16
         cat: drop
         bob: buy D
         cat: buy
         ann: pass
         bob: pass
         cat: pass
         ann: buy
         bob: buy",
    );
    // bob buys A $5; ann buys B $10, which starts the bid-off for C (ann 14, cat 15): ann is
    // asked first, raises to 16, cat drops, ann pays 16. bob D $25, cat E $35; three passes
    // drop F from 40 to 35, ann buys it; bob buys G $50.
    // ann 120 - 10 - 16 - 35 = 59; bob 120 - 5 - 25 - 50 = 40; cat 120 - 35 = 85.
    // Revenue: ann 4 + 4 + 10 = 18; bob 3 + 7 + 15 = 25; cat 9.
    assert_eq!(cash(&t), [59 + 18, 40 + 25, 85 + 9]); // 77, 65, 94

    // ---------------------------------------------------------------- Round 2, bob deals.
    // Bag: 1+2 blue, 2+2 black, 2 of the rest = 13. Row: A 5 black, B 10 black, C 15 blue,
    // D 15 red ($17), E 20 green, F 20 yellow ($22), G 30 black. Left: 1 red, 1 yellow,
    // 1 green, 2 blue, 1 black.
    t.deal("15 20 5 30 20 15 10 chips:black,black,blue,red,green,yellow,black");
    t.script(
        "bob: buy
         cat: buy
         ann: buy
         bob: buy
         cat: buy
         ann: buy
         bob: buy",
    );
    // bob 65 - 5 - 17 - 30 = 13; cat 94 - 10 - 20 = 64; ann 77 - 15 - 22 = 40.
    // Revenue: ann 18 + 5 + 6 = 29; bob 25 + 3 + 5 + 8 = 41; cat 9 + 4 + 6 = 19.
    assert_eq!(cash(&t), [40 + 29, 13 + 41, 64 + 19]); // 69, 54, 83

    // ---------------------------------------------------------------- Round 3, cat deals.
    // Bag: 3 red, 3 yellow, 3 green, 4 blue, 3 black = 16. Row: A 5 red, B 10 red,
    // C 20 red, D 25 yellow, E 30 green, F 35 blue, G 40 blue. Left: 0 red, 2 yellow,
    // 2 green, 2 blue, 3 black.
    t.deal("25 5 40 35 10 30 20 chips:red,red,red,yellow,green,blue,blue");
    t.script(
        "cat: bid 22 on C
         ann: buy
         bob: buy
         cat: buy
         ann: buy
         bob: pass
         cat: pass
         ann: pass
         bob: buy
         cat: pass
         ann: pass
         bob: pass
         cat: buy",
    );
    // ann A $5; bob B $10, and the waterfall gives C to its only bidder cat for $22; cat D $25;
    // ann E $30; three passes drop F to 30, bob buys it; three passes drop G to 35, cat buys.
    // ann 69 - 5 - 30 = 34; bob 54 - 10 - 30 = 14; cat 83 - 22 - 25 - 35 = 1.
    // Revenue: ann 29 + 3 + 8 = 40; bob 41 + 4 + 9 = 54; cat 19 + 6 + 7 + 10 = 42.
    assert_eq!(cash(&t), [34 + 40, 14 + 54, 1 + 42]); // 74, 68, 43

    // ---------------------------------------------------------------- Round 4, ann deals.
    // Bag: 2 red, 4 yellow, 4 green, 4 blue, 5 black = 19. Row: A 5 green, B 10 green,
    // C 15 yellow, D 20 blue, E 30 black, F 35 black, G 40 red. Left: 1 red, 3 yellow,
    // 2 green, 3 blue, 3 black.
    t.deal("35 15 30 5 20 40 10 chips:green,green,yellow,blue,black,black,red");
    t.script("ann: pass\nbob: pass\ncat: pass");
    // A is at $0: ann must take it (P9).
    assert_eq!(
        t.refused("ann", "pass"),
        PlayError::MustTakeFree {
            letter: privates::Letter::from_char('A').expect("A"),
            ruling: Ruling::P9
        }
    );
    t.script(
        "ann: buy
         bob: buy
         cat: bid 22 on D
         ann: bid 23 on D
         bob: bid 24 on D",
    );
    // cat may buy C for $15 with $43 cash and $22 in bids: 15 + 22 = 37 <= 43 (P8).
    t.play("cat", "buy");
    // The bid-off for D: bob 24 is high; cat (to his left) is asked first.
    t.script(
        "cat: raise 25
         ann: raise 26
         bob: drop
         cat: raise 28
         ann: raise 29",
    );
    // cat has only $28: she cannot raise to 30.
    assert_eq!(
        t.refused("cat", "raise 30"),
        PlayError::RaiseOverCommitted {
            letter: privates::Letter::from_char('D').expect("D"),
            bid: 30,
            cash: 28,
            other_bids: 0,
            maximum: 28,
            ruling: Ruling::P11
        }
    );
    t.play("cat", "drop");
    // ann wins D for $29; the turn goes to the left of cat, who bought C: ann (P12).
    t.script(
        "ann: buy
         bob: buy
         cat: pass
         ann: pass
         bob: pass
         cat: pass
         ann: pass
         bob: pass
         cat: pass
         ann: pass
         bob: pass
         cat: buy",
    );
    // ann takes A free, D $29, E $30; bob B $10, F $35; cat C $15, G at 40 - 5 - 5 - 5 = $25.
    // ann 74 - 29 - 30 = 15; bob 68 - 10 - 35 = 23; cat 43 - 15 - 25 = 3.
    // Revenue: ann 40 + 3 + 6 + 8 = 57; bob 54 + 4 + 9 = 67; cat 42 + 5 + 10 = 57.
    assert_eq!(cash(&t), [15 + 57, 23 + 67, 3 + 57]); // 72, 90, 60

    // ---------------------------------------------------------------- Round 5, bob deals.
    // Bag: 3 red, 5 yellow, 4 green, 5 blue, 5 black = 22 (the reserve keeps 1 of each).
    // Row: A 5 yellow, B 10 yellow, C 15 yellow, D 25 blue, E 25 blue ($27), F 30 red,
    // G 35 green. Left: 2 red, 2 yellow, 3 green, 3 blue, 5 black.
    t.deal("25 10 5 15 30 35 25 chips:yellow,yellow,yellow,blue,blue,red,green");
    t.script(
        "bob: buy
         cat: buy
         ann: buy
         bob: buy
         cat: buy
         ann: buy
         bob: buy",
    );
    // bob 90 - 5 - 25 - 35 = 25; cat 60 - 10 - 27 = 23; ann 72 - 15 - 30 = 27.
    // Revenue: ann 57 + 5 + 8 = 70; bob 67 + 3 + 7 + 9 = 86; cat 57 + 4 + 7 = 68.
    assert_eq!(cash(&t), [27 + 70, 25 + 86, 23 + 68]); // 97, 111, 91

    // ---------------------------------------------------------------- Round 6, cat deals.
    // The reserve's last chip of each colour: bag 3 red, 3 yellow, 4 green, 4 blue, 6 black.
    // Row: A 15 black, B 20 black, C 20 black ($22), D 30 green, E 35 red, F 40 yellow,
    // G 50 blue. Left: 2 red, 2 yellow, 3 green, 3 blue, 3 black.
    t.deal("20 40 15 20 50 35 30 chips:black,black,black,green,red,yellow,blue");
    assert_eq!(t.game.reserve().total(), 0);
    t.script(
        "cat: buy
         ann: buy
         bob: buy
         cat: buy
         ann: buy
         bob: buy
         cat: pass
         ann: pass
         bob: pass
         cat: buy",
    );
    // cat 91 - 15 - 30 - 45 = 1; ann 97 - 20 - 35 = 42; bob 111 - 22 - 40 = 49.
    // Revenue: ann 70 + 6 + 9 = 85; bob 86 + 6 + 10 = 102; cat 68 + 5 + 8 + 15 = 96.
    assert_eq!(cash(&t), [42 + 85, 49 + 102, 1 + 96]); // 127, 151, 97

    // ---------------------------------------------------------------- Round 7, ann deals.
    // No chips added. Bag: 2 red, 2 yellow, 3 green, 3 blue, 3 black. Deck left: 5, 15,
    // 25 x2, 30, 35, 40 x2, 50 x4. Row: A 5 yellow, B 15 blue, C 25 green, D 25 red ($27),
    // E 30 blue, F 35 black, G 40 black. Unused: a 40 and four 50s.
    t.deal("5 15 25 25 30 35 40 chips:yellow,blue,green,red,blue,black,black");
    t.script(
        "ann: buy
         bob: bid 42 on G
         cat: bid 27 on C
         ann: buy
         bob: buy
         cat: pass
         ann: pass
         bob: buy
         cat: buy",
    );
    // ann A $5, B $15 (C goes to cat for $27 in the waterfall); bob D $27, E $30; cat F $35,
    // and the waterfall gives G to bob for $42.
    // ann 127 - 5 - 15 = 107; bob 151 - 27 - 30 - 42 = 52; cat 97 - 27 - 35 = 35.
    // Revenue, doubled (P13): ann (85 + 3 + 5) x 2 = 186; bob (102 + 7 + 8 + 10) x 2 = 254;
    // cat (96 + 7 + 9) x 2 = 224.
    assert!(t.game.is_finished());
    assert_eq!(cash(&t), [107 + 186, 52 + 254, 35 + 224]); // 293, 306, 259
    assert_eq!(t.game.deck_left().total(), 5);

    // ---------------------------------------------------------------- Scoring (P14).
    let scores = t.game.scores();
    // ann: 5 red, 5 green, 5 yellow (3 x $3 = 9); 15 blue, 15 yellow, 15 blue (3 x $5 = 15);
    // 20 yellow, 20 blue, 20 black (3 x $6 = 18); 30 green, 30 black, 30 red (3 x $8 = 24).
    // Sets 9 + 15 + 18 + 24 = 66. Yellow revenues 3 4 5 6: 4 x 6 = 24; red 3 4 8 9, green
    // 3 8 10, blue 5 5 6 (layer 1: 5 6) and black 6 8 make no sequence.
    // Total 293 + 66 + 24 = 383.
    assert_eq!(
        scores[0].sets.iter().map(|s| s.points).collect::<Vec<_>>(),
        [9, 15, 18, 24]
    );
    assert_eq!(
        scores[0].sequences,
        [SequenceScore {
            colour: Chip::Yellow,
            layer: 1,
            low: 3,
            high: 6,
            length: 4,
            points: 24
        }]
    );
    assert_eq!(scores[0].total, 383);
    // bob: 5 red, 5 black, 5 yellow (9); 25 yellow, 25 blue, 25 red (3 x 7 = 21); 35 blue,
    // 35 black, 35 green (3 x 9 = 27). Sets 57. Red 3 4 5 7: 3-5 = 3 x 5 = 15; blue 7 8 9
    // (the 50/$15 does not count): 3 x 9 = 27; black 3 6 8 9 10: 8-10 = 3 x 10 = 30.
    // Sequences 72. Total 306 + 57 + 72 = 435.
    assert_eq!(
        scores[1].sets,
        [
            SetScore {
                cost: 5,
                revenue: 3,
                count: 3,
                points: 9
            },
            SetScore {
                cost: 25,
                revenue: 7,
                count: 3,
                points: 21
            },
            SetScore {
                cost: 35,
                revenue: 9,
                count: 3,
                points: 27
            }
        ]
    );
    assert_eq!(
        scores[1]
            .sequences
            .iter()
            .map(|s| (s.colour, s.low, s.high, s.points))
            .collect::<Vec<_>>(),
        [
            (Chip::Red, 3, 5, 15),
            (Chip::Blue, 7, 9, 27),
            (Chip::Black, 8, 10, 30)
        ]
    );
    assert_eq!(scores[1].total, 435);
    // cat: 25 yellow, 25 blue, 25 green (3 x 7 = 21). Green 6 7 8 9: 4 x 9 = 36; yellow
    // 4 5 7, black 4 5 9, red 6 10, blue 7 10 (+ $15) make none. Total 259 + 21 + 36 = 316.
    assert_eq!((scores[2].set_points, scores[2].sequence_points), (21, 36));
    assert_eq!(scores[2].total, 316);

    // bob wins alone (P15).
    assert_eq!(t.game.winners(), [1]);
    match t.log.last() {
        Some(Event::GameOver { scores: s, winners }) => {
            assert_eq!(s, &scores);
            assert_eq!(winners, &[1]);
        }
        other => panic!("no game over: {other:?}"),
    }

    // The dump.
    let view = serde_json::to_value(GameView::from_game(&t.game)).expect("json");
    assert_eq!(view["game"], "privates");
    assert_eq!(view["round"], 7);
    assert_eq!(view["dealer"], "ann");
    assert_eq!(view["finished"], true);
    assert_eq!(view["next"], serde_json::Value::Null);
    assert_eq!(view["scores"]["bob"], 435);
    assert_eq!(view["winners"], serde_json::json!(["bob"]));
    assert_eq!(view["row"][6]["owner"], "bob");
    assert_eq!(view["row"][6]["price"], 42);
    assert_eq!(view["deck_left"], 5);
    assert_eq!(view["bag"]["green"], 2);
}
