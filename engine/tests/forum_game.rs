//! The real forum game of `000_…`: its setup rolls and opening status.

use irish_gauge::{Action, Actor, Board, Colour, Game, Railway, Setup};

fn forum_setup() -> Setup {
    Setup {
        players: ["discrider", "Daemonis", "JPants", "38thDoe"]
            .map(String::from)
            .to_vec(),
        order: vec![3, 1, 2, 4],
        cities: [5, 2, 3, 11, 4, 7, 9, 12],
    }
}

#[test]
fn order_roll_3_1_2_4_seats_jpants_discrider_daemonis_38thdoe() {
    let game = Game::new(&forum_setup()).expect("valid setup");
    let names: Vec<&str> = game.players().iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["JPants", "discrider", "Daemonis", "38thDoe"]);
}

#[test]
fn city_roll_gives_the_colours_the_moderator_posted() {
    let game = Game::new(&forum_setup()).expect("valid setup");
    let board = Board::get();
    let colour = |name: &str| game.cube(board.named(name));
    // "White cubes are placed in Limerick, Cork, and Kilkenny."
    for city in ["Limerick", "Cork", "Kilkenny"] {
        assert_eq!(colour(city), Some(Colour::White), "{city}");
    }
    // "Pink cubes are placed in Galway and Waterford."
    for city in ["Galway", "Waterford"] {
        assert_eq!(colour(city), Some(Colour::Pink), "{city}");
    }
    // "Black cubes are placed in Derry, Belfast, and Dublin."
    for city in ["Derry", "Belfast", "Dublin"] {
        assert_eq!(colour(city), Some(Colour::Black), "{city}");
    }
    assert_eq!(game.cities().count(), 8);
}

#[test]
fn opening_state_matches_the_posted_status() {
    let game = Game::new(&forum_setup()).expect("valid setup");
    for player in game.players() {
        assert_eq!(player.cash, 20, "{} has £20", player.name);
    }
    for seat in 0..4 {
        assert!(game.shares_of(seat).is_empty(), "no shares");
    }
    let expected: [(Railway, &[u32], &str); 5] = [
        (Railway::Cbsc, &[7, 12, 17], "Cork"),
        (Railway::Wlw, &[5, 10, 15, 19], "Limerick"),
        (Railway::Bcd, &[8, 13], "Belfast"),
        (Railway::Gsw, &[4, 9, 14, 18], "Dublin"),
        (Railway::Mgw, &[6, 11, 16], "Dublin"),
    ];
    for (railway, shares, start) in expected {
        let state = game.railway(railway);
        assert_eq!(state.unplaced(), 18, "{railway}: 18 unplaced tracks");
        assert_eq!(game.available_shares(railway), shares, "{railway}");
        let track: Vec<&str> = state.track.iter().map(|h| h.display_name()).collect();
        assert_eq!(track, [start], "{railway} connections");
    }
    // 22 cubes in the supply: 10 of each less 3 white, 2 pink, 3 black on the cities.
    let supply = game.supply();
    assert_eq!((supply.white, supply.pink, supply.black), (7, 8, 7));
    // "@JPants having first option on the CBSC £7 share."
    assert_eq!(game.to_act(), Actor::Player { seat: 0 });
    let mut after = game.clone();
    after
        .play(0, &Action::Bid { amount: 7 })
        .expect("JPants may bid 7");
    assert_eq!(after.to_act(), Actor::Player { seat: 1 });
}
