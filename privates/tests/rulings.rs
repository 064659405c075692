//! One test (or more) per ruling P1–P16 of `privates-rulings.md`, named after it. Each is a
//! short script in the players' notation through `support::Table` (`t.play("ann", "bid 17 on
//! C")`); every refusal is checked to leave the game unchanged and to name its ruling.

mod support;

use privates::card::{CostCounts, DEFAULT_COPIES};
use privates::draw::{
    chip_population, dealer_population, dealer_seat, deck_population, PURPOSE_CHIPS,
    PURPOSE_DEALER, PURPOSE_DECK,
};
use privates::error::Drawn;
use privates::event::{Income, SeatBid};
use privates::scoring::{score, winners, SequenceScore, SetScore};
use privates::setup::starting_cash;
use privates::{
    Actor, Card, Chip, ChipCounts, DrawKind, DrawRequest, Event, Game, LegalActions, Letter,
    PlayError, Ruling, Setup, SetupError,
};
use support::Table;

use Chip::{Black, Blue, Green, Red, Yellow};

/// Dealt 10 5 25 50 10 35 40: the row is A 5 red, B 10 blue, C 10 green (price 12), D 25 red,
/// E 35 black, F 40 yellow, G 50 green.
const DEAL: &str = "10 5 25 50 10 35 40 chips:red,blue,green,red,black,yellow,green";

fn letter(c: char) -> Letter {
    Letter::from_char(c).expect("a row letter")
}

/// ann, bob and cat ($120 each) at the first round's row above; ann deals and acts first.
fn table() -> Table {
    let mut t = Table::manual(&["ann", "bob", "cat"], 0);
    t.deal(DEAL);
    t
}

fn cards(list: &[(u32, Chip)]) -> Vec<Card> {
    list.iter()
        .map(|&(cost, chip)| Card::new(cost, Some(chip)).expect("a card"))
        .collect()
}

// ============================================================================ P1 The deck

#[test]
fn p1_the_deck_is_six_copies_of_nine_kinds_54_cards_for_seven_rounds() {
    let deck = deck_population(DEFAULT_COPIES);
    assert_eq!(deck.len(), 54);
    for cost in [5, 10, 15, 20, 25, 30, 35, 40, 50] {
        assert_eq!(deck.iter().filter(|&&c| c == cost).count(), 6, "{cost}");
    }
    let t = Table::manual(&["ann", "bob", "cat"], 0);
    assert_eq!(t.game.rounds(), 7);
    assert_eq!(t.game.deck_left().total(), 54);
    // Cost/revenue: 5/$3 … 40/$10, 50/$15.
    let revenues: Vec<u32> = [5, 10, 15, 20, 25, 30, 35, 40, 50]
        .iter()
        .map(|&c| Card::new(c, None).expect("a card").revenue)
        .collect();
    assert_eq!(revenues, [3, 4, 5, 6, 7, 8, 9, 10, 15]);
}

#[test]
fn p1_the_copies_5_variant_has_45_cards_and_plays_six_rounds() {
    let mut setup = Setup::manual(&["ann", "bob"], 0);
    setup.copies = 5;
    let game = Game::new(&setup).expect("the variant");
    assert_eq!(game.rounds(), 6);
    assert_eq!(game.deck_left().total(), 45);
    setup.copies = 4;
    assert_eq!(
        Game::new(&setup),
        Err(SetupError::Copies {
            copies: 4,
            ruling: Ruling::P1
        })
    );
}

#[test]
fn p1_a_deal_can_only_use_cards_left_in_the_deck() {
    let mut t = Table::manual(&["ann", "bob"], 0);
    let chips = [Red, Red, Yellow, Yellow, Green, Green, Blue];
    let before = t.game.clone();
    assert_eq!(
        t.game.resolve_deal(&[5, 5, 5, 5, 5, 5, 5], &chips),
        Err(PlayError::CardNotInDeck {
            cost: 5,
            left: 6,
            wanted: 7,
            ruling: Ruling::P1
        })
    );
    assert_eq!(
        t.game.resolve_deal(&[5, 10, 15, 20, 25, 30, 45], &chips),
        Err(PlayError::NotACard {
            cost: 45,
            ruling: Ruling::P1
        })
    );
    assert_eq!(t.game, before);
    let mut deck = deck_population(6);
    deck[0] = 50;
    assert!(matches!(
        Game::new(&Setup::audited(&["ann", "bob"], 0, deck)),
        Err(SetupError::DeckCopies {
            cost: 5,
            given: 5,
            expected: 6,
            ruling: Ruling::P1
        })
    ));
}

// ============================================================================ P2 The chips

#[test]
fn p2_each_round_two_chips_of_each_colour_move_from_the_reserve_to_the_bag() {
    let mut t = Table::audited_sorted(&["ann", "bob", "cat"], 0);
    assert_eq!(t.game.bag(), ChipCounts::uniform(2));
    assert_eq!(t.game.reserve(), ChipCounts::uniform(9));
    // Round 1 draws 2 red, 2 yellow, 2 green, 1 blue: 1 blue and 2 black stay in the bag.
    t.chips_in_order();
    assert_eq!(
        t.game.bag(),
        ChipCounts {
            red: 0,
            yellow: 0,
            green: 0,
            blue: 1,
            black: 2
        }
    );
    t.finish_round();
    let events = t.log.clone();
    assert!(events.iter().any(|e| matches!(
        e,
        Event::ChipsToBag { round: 2, chips } if *chips == ChipCounts::uniform(2)
    )));
    // Round 2: the leftovers stay and 2 of each colour join them.
    assert_eq!(
        t.game.bag(),
        ChipCounts {
            red: 2,
            yellow: 2,
            green: 2,
            blue: 3,
            black: 4
        }
    );
    assert_eq!(t.game.reserve(), ChipCounts::uniform(7));
}

#[test]
fn p2_once_a_colours_reserve_is_empty_no_more_of_it_reaches_the_bag() {
    let mut t = Table::audited_sorted(&["ann", "bob", "cat"], 0);
    let mut reserves = Vec::new();
    while !t.game.is_finished() {
        reserves.push(t.game.reserve().red);
        let bag_before = t.game.bag();
        assert!(bag_before.total() >= 7, "the bag always holds 7 to draw");
        t.chips_in_order();
        t.finish_round();
    }
    // 11 red: 2 each round for five rounds, the last one in round 6, none in round 7.
    assert_eq!(reserves, [9, 7, 5, 3, 1, 0, 0]);
}

#[test]
fn p2_chips_must_come_from_the_bag() {
    let mut t = Table::manual(&["ann", "bob", "cat"], 0);
    let before = t.game.clone();
    assert_eq!(
        t.game.resolve_deal(
            &[10, 5, 25, 50, 10, 35, 40],
            &[Red, Red, Red, Blue, Black, Yellow, Green]
        ),
        Err(PlayError::ChipNotInBag {
            chip: Red,
            in_bag: 2,
            wanted: 3,
            ruling: Ruling::P2
        })
    );
    assert_eq!(t.game, before);
}

// ============================================================================ P3 Players, money

#[test]
fn p3_two_to_six_players_share_360_dollars() {
    for (n, cash) in [(2, 180), (3, 120), (4, 90), (5, 72), (6, 60)] {
        let names = ["ann", "bob", "cat", "dan", "eve", "fay"];
        let t = Table::manual(&names[..n], 0);
        assert_eq!(starting_cash(n), cash);
        assert!(t.game.players().iter().all(|p| p.cash == cash), "{n}");
    }
    for n in [1, 7] {
        let names: Vec<String> = (0..n).map(|i| format!("p{i}")).collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        assert_eq!(
            Game::new(&Setup::manual(&refs, 0)),
            Err(SetupError::PlayerCount {
                count: n,
                ruling: Ruling::P3
            })
        );
    }
    assert_eq!(
        Game::new(&Setup::manual(&["ann", "Ann"], 0)),
        Err(SetupError::PlayerName {
            name: "Ann".into(),
            ruling: Ruling::P3
        })
    );
}

// ============================================================================ P4 The dealer

#[test]
fn p4_the_first_dealer_is_drawn_and_the_deal_passes_to_the_left() {
    assert_eq!(dealer_population(4), [1, 2, 3, 4]);
    assert_eq!(dealer_seat(3, 4), Ok(2));
    assert!(dealer_seat(5, 4).is_err());
    assert_eq!(
        Game::new(&Setup::manual(&["ann", "bob"], 2)),
        Err(SetupError::Dealer {
            number: 3,
            players: 2,
            ruling: Ruling::P4
        })
    );
    let mut t = Table::audited_sorted(&["ann", "bob", "cat"], 2);
    let mut dealers = Vec::new();
    while !t.game.is_finished() {
        t.chips_in_order();
        dealers.push(t.game.name(t.game.dealer()).to_string());
        // The dealer acts first (P7).
        assert_eq!(
            t.to_act().as_deref(),
            Some(dealers.last().expect("a dealer").as_str())
        );
        t.finish_round();
    }
    assert_eq!(dealers, ["cat", "ann", "bob", "cat", "ann", "bob", "cat"]);
}

// ============================================================================ P5 The row

#[test]
fn p5_the_row_is_arranged_by_cost_lettered_a_to_g_with_chips_drawn_onto_a_b_in_order() {
    let t = table();
    let row: Vec<(char, u32, Option<Chip>)> = t
        .game
        .row()
        .iter()
        .map(|c| (c.letter.as_char(), c.card.cost, c.card.colour))
        .collect();
    assert_eq!(
        row,
        [
            ('A', 5, Some(Red)),
            ('B', 10, Some(Blue)),
            ('C', 10, Some(Green)),
            ('D', 25, Some(Red)),
            ('E', 35, Some(Black)),
            ('F', 40, Some(Yellow)),
            ('G', 50, Some(Green)),
        ]
    );
    assert!(
        matches!(&t.last[..], [Event::RoundStarted { round: 1, rounds: 7, dealer: 0, row }] if row.len() == 7)
    );
}

#[test]
fn p5_a_card_keeps_its_letter_all_round_and_a_taken_card_cannot_be_named() {
    let mut t = table();
    t.play("ann", "buy A");
    assert_eq!(t.card('A').owner, Some(0));
    assert_eq!(t.game.cheapest(), Some(letter('B')));
    assert_eq!(t.card('B').letter, letter('B'));
    assert_eq!(
        t.refused("bob", "bid 20 on A"),
        PlayError::CardTaken {
            letter: letter('A'),
            owner: 0,
            ruling: Ruling::P5
        }
    );
}

#[test]
fn p5_a_deal_is_seven_cards() {
    let mut t = Table::manual(&["ann", "bob"], 0);
    assert_eq!(
        t.game.resolve_deal(&[5, 10, 15, 20, 25, 30], &[Red; 2]),
        Err(PlayError::WrongCount {
            what: Drawn::Cards,
            expected: 7,
            given: 6,
            ruling: Ruling::P5
        })
    );
}

// ============================================================================ P6 Prices

#[test]
fn p6_each_further_card_of_the_same_cost_costs_2_dollars_more() {
    let mut t = Table::manual(&["ann", "bob"], 0);
    t.deal("10 20 10 5 10 20 50 chips:red,red,yellow,yellow,green,green,blue");
    let prices: Vec<(u32, u32)> = t
        .game
        .row()
        .iter()
        .map(|c| (c.card.cost, c.price))
        .collect();
    assert_eq!(
        prices,
        [
            (5, 5),
            (10, 10),
            (10, 12),
            (10, 14),
            (20, 20),
            (20, 22),
            (50, 50)
        ]
    );
    // The price stays with the card when the first of its cost is taken.
    t.play("ann", "buy");
    t.play("bob", "buy");
    assert_eq!(t.cash("bob"), 170);
    assert_eq!(t.card('C').price, 12);
}

// ============================================================================ P7 A turn

#[test]
fn p7_the_dealer_starts_and_only_the_cheapest_card_may_be_bought() {
    let mut t = table();
    assert_eq!(t.to_act().as_deref(), Some("ann"));
    assert_eq!(
        t.refused("bob", "buy"),
        PlayError::NotYourTurn {
            player: 1,
            to_act: 0,
            ruling: Ruling::P7
        }
    );
    assert_eq!(
        t.refused("ann", "buy B"),
        PlayError::NotCheapest {
            letter: letter('B'),
            cheapest: letter('A'),
            ruling: Ruling::P7
        }
    );
    let events = t.play("ann", "buy A");
    assert_eq!(
        events[0],
        Event::CardBought {
            player: 0,
            letter: letter('A'),
            cost: 5,
            price: 5
        }
    );
    assert_eq!(t.cash("ann"), 115);
    assert_eq!(t.cards("ann"), [5]);
    assert_eq!(t.to_act().as_deref(), Some("bob"));
}

#[test]
fn p7_the_cheapest_card_cannot_be_bid_on_only_bought() {
    let mut t = table();
    assert_eq!(
        t.refused("ann", "bid 20 on A"),
        PlayError::BidOnCheapest {
            letter: letter('A'),
            price: 5,
            ruling: Ruling::P7
        }
    );
    match t.game.legal_actions() {
        LegalActions::Turn {
            buy, bids, pass, ..
        } => {
            assert_eq!(buy.map(|b| (b.letter, b.price)), Some((letter('A'), 5)));
            assert!(bids.iter().all(|b| b.letter != letter('A')));
            assert_eq!(bids.len(), 6);
            assert!(pass);
        }
        other => panic!("not a turn: {other:?}"),
    }
}

// ============================================================================ P8 Bids

#[test]
fn p8_a_bid_is_at_least_price_plus_2_and_high_bid_plus_1() {
    let mut t = table();
    // C costs 10 but is the second 10: price 12, so the least bid is 14.
    assert_eq!(
        t.refused("ann", "bid 13 on C"),
        PlayError::BidTooLow {
            letter: letter('C'),
            bid: 13,
            minimum: 14,
            ruling: Ruling::P8
        }
    );
    t.play("ann", "bid 16 on C");
    assert_eq!(
        t.refused("bob", "bid 16 on C"),
        PlayError::BidTooLow {
            letter: letter('C'),
            bid: 16,
            minimum: 17,
            ruling: Ruling::P8
        }
    );
    t.play("bob", "bid $17 on C");
    assert_eq!(
        t.card('C').bids,
        [
            SeatBid {
                player: 0,
                amount: 16
            },
            SeatBid {
                player: 1,
                amount: 17
            }
        ]
    );
}

#[test]
fn p8_a_new_bid_replaces_the_players_earlier_bid_on_that_card() {
    let mut t = table();
    t.script("ann: bid 16 on C\nbob: bid 17 on C\ncat: pass");
    let events = t.play("ann", "bid C 18");
    assert_eq!(
        events[0],
        Event::BidPlaced {
            player: 0,
            letter: letter('C'),
            amount: 18,
            replaced: Some(16)
        }
    );
    assert_eq!(t.card('C').bid_of(0), Some(18));
    assert_eq!(t.game.open_bids(0), 18);
}

#[test]
fn p8_the_highest_bidder_may_not_bid_again_on_that_card() {
    let mut t = table();
    t.script("ann: pass\nbob: bid 19 on C\ncat: pass\nann: pass");
    assert_eq!(
        t.refused("bob", "bid 20 on C"),
        PlayError::AlreadyHighBidder {
            letter: letter('C'),
            bid: 19,
            ruling: Ruling::P8
        }
    );
}

#[test]
fn p8_open_bids_may_never_exceed_cash() {
    let mut t = table();
    t.script("ann: bid 100 on G\nbob: pass\ncat: pass");
    assert_eq!(
        t.refused("ann", "bid 42 on F"),
        PlayError::OverCommitted {
            letter: letter('F'),
            bid: 42,
            cash: 120,
            other_bids: 100,
            maximum: 20,
            ruling: Ruling::P8
        }
    );
    // Nor can a buy leave less cash than the open bids.
    let mut t = table();
    t.script("ann: bid 118 on G\nbob: pass\ncat: pass");
    assert_eq!(
        t.refused("ann", "buy"),
        PlayError::CannotAfford {
            letter: letter('A'),
            price: 5,
            cash: 120,
            open_bids: 118,
            ruling: Ruling::P8
        }
    );
    // Raising one's own (not highest) bid may reuse it.
    let mut t = table();
    t.script("ann: bid 60 on G\nbob: bid 61 on G\ncat: pass");
    t.play("ann", "bid 120 on G");
}

// ============================================================================ P9 Passing

#[test]
fn p9_when_everyone_passes_in_succession_the_cheapest_price_drops_5() {
    let mut t = table();
    t.script("ann: pass\nbob: bid 15 on C\ncat: pass\nann: pass");
    // Only two passes since bob's bid: no drop yet.
    assert_eq!(t.card('A').price, 5);
    let events = t.play("bob", "pass");
    assert_eq!(
        events,
        [
            Event::Passed {
                player: 1,
                in_a_row: 3
            },
            Event::PriceDropped {
                letter: letter('A'),
                from: 5,
                to: 0
            }
        ]
    );
    // The next to act is to the left of the last passer.
    assert_eq!(t.to_act().as_deref(), Some("cat"));
}

#[test]
fn p9_at_0_dollars_the_next_player_must_take_the_card_for_free() {
    let mut t = table();
    t.script("ann: pass\nbob: pass\ncat: pass");
    assert_eq!(t.card('A').price, 0);
    for line in ["pass", "bid 20 on C"] {
        assert_eq!(
            t.refused("ann", line),
            PlayError::MustTakeFree {
                letter: letter('A'),
                ruling: Ruling::P9
            }
        );
    }
    match t.game.legal_actions() {
        LegalActions::Turn {
            buy, bids, pass, ..
        } => {
            assert!(buy.is_some_and(|b| b.free && b.price == 0));
            assert!(bids.is_empty());
            assert!(!pass);
        }
        other => panic!("not a turn: {other:?}"),
    }
    let events = t.play("ann", "buy");
    assert_eq!(
        events[0],
        Event::TakenFree {
            player: 0,
            letter: letter('A'),
            cost: 5
        }
    );
    assert_eq!(t.cash("ann"), 120);
    assert_eq!(t.cards("ann"), [5]);
    assert_eq!(t.to_act().as_deref(), Some("bob"));
}

#[test]
fn p9_prices_drop_again_after_each_full_round_of_passes_but_not_below_0() {
    let mut t = table();
    t.play("ann", "buy");
    // B costs 10: two rounds of passes take it to 0.
    t.script("bob: pass\ncat: pass\nann: pass");
    assert_eq!(t.card('B').price, 5);
    t.script("bob: pass\ncat: pass\nann: pass");
    assert_eq!(t.card('B').price, 0);
    t.play("bob", "buy");
    assert_eq!(t.card('B').owner, Some(1));
}

// ============================================================================ P10 Waterfall

#[test]
fn p10_after_a_buy_the_cheapest_card_goes_to_its_single_bidder_and_so_on_down_the_row() {
    let mut t = table();
    t.script("ann: bid 12 on B\nbob: bid 15 on C");
    let events = t.play("cat", "buy");
    assert_eq!(
        events,
        [
            Event::CardBought {
                player: 2,
                letter: letter('A'),
                cost: 5,
                price: 5
            },
            Event::WonByBid {
                player: 0,
                letter: letter('B'),
                cost: 10,
                price: 12
            },
            Event::WonByBid {
                player: 1,
                letter: letter('C'),
                cost: 10,
                price: 15
            },
        ]
    );
    // D has no bid: the waterfall stops there.
    assert_eq!(t.game.cheapest(), Some(letter('D')));
    assert_eq!(
        (t.cash("ann"), t.cash("bob"), t.cash("cat")),
        (108, 105, 115)
    );
    assert_eq!(t.game.open_bids(0) + t.game.open_bids(1), 0);
}

#[test]
fn p10_the_waterfall_stops_at_a_card_without_bids_even_if_later_cards_have_some() {
    let mut t = table();
    t.script("ann: bid 37 on E\nbob: buy");
    assert_eq!(t.game.cheapest(), Some(letter('B')));
    assert_eq!(t.card('E').owner, None);
    assert_eq!(t.card('E').bid_of(0), Some(37));
}

// ============================================================================ P11 Bid-off

#[test]
fn p11_several_bidders_hold_a_bid_off_from_the_left_of_the_highest_and_the_last_in_pays() {
    let mut t = table();
    t.script("ann: bid 12 on B\nbob: bid 13 on B\ncat: bid 14 on B");
    let events = t.play("ann", "buy");
    assert_eq!(
        events[1],
        Event::BidOffStarted {
            letter: letter('B'),
            cost: 10,
            bids: vec![
                SeatBid {
                    player: 0,
                    amount: 12
                },
                SeatBid {
                    player: 1,
                    amount: 13
                },
                SeatBid {
                    player: 2,
                    amount: 14
                }
            ],
            high_bidder: 2,
            high: 14,
            first: 0
        }
    );
    assert_eq!(t.to_act().as_deref(), Some("ann"));
    assert_eq!(
        t.refused("bob", "raise 20"),
        PlayError::NotYourTurn {
            player: 1,
            to_act: 0,
            ruling: Ruling::P11
        }
    );
    assert_eq!(
        t.refused("ann", "buy"),
        PlayError::BidOffRunning {
            letter: letter('B'),
            high: 14,
            ruling: Ruling::P11
        }
    );
    t.play("ann", "raise 15");
    t.play("bob", "bid 16");
    let events = t.play("cat", "drop");
    assert_eq!(
        events,
        [Event::BidOffDropped {
            player: 2,
            letter: letter('B'),
            released: 14
        }]
    );
    assert_eq!(
        t.refused("ann", "raise 15"),
        PlayError::RaiseTooLow {
            letter: letter('B'),
            bid: 15,
            minimum: 17,
            ruling: Ruling::P11
        }
    );
    let events = t.play("ann", "pass");
    assert_eq!(
        events[1],
        Event::BidOffWon {
            player: 1,
            letter: letter('B'),
            cost: 10,
            price: 16
        }
    );
    // Losing bidders pay nothing.
    assert_eq!(
        (t.cash("ann"), t.cash("bob"), t.cash("cat")),
        (115, 104, 120)
    );
}

#[test]
fn p11_a_raise_is_within_cash_less_the_other_open_bids() {
    let mut t = table();
    t.script("ann: bid 100 on G\nbob: bid 12 on B\ncat: bid 13 on B\nann: bid 14 on B\nbob: buy");
    assert_eq!(t.to_act().as_deref(), Some("bob"));
    t.script("bob: raise 15\ncat: drop");
    assert_eq!(
        t.refused("ann", "raise 21"),
        PlayError::RaiseOverCommitted {
            letter: letter('B'),
            bid: 21,
            cash: 120,
            other_bids: 100,
            maximum: 20,
            ruling: Ruling::P11
        }
    );
    t.script("ann: raise 20\nbob: raise 21");
    match t.game.legal_actions() {
        LegalActions::BidOff {
            player,
            raise,
            drop,
            ..
        } => {
            assert_eq!(player, 0);
            assert_eq!(raise, None);
            assert!(drop);
        }
        other => panic!("not a bid-off: {other:?}"),
    }
    t.play("ann", "drop");
    assert_eq!(t.card('B').owner, Some(1));
    assert_eq!(t.cash("bob"), 120 - 5 - 21);
    assert_eq!(t.game.open_bids(0), 100);
}

#[test]
fn p11_raise_and_drop_are_only_for_a_bid_off() {
    let mut t = table();
    for line in ["raise 20", "drop", "bid 20"] {
        assert_eq!(
            t.refused("ann", line),
            PlayError::NoBidOff {
                ruling: Ruling::P11
            }
        );
    }
}

// ============================================================================ P12 Turn after

#[test]
fn p12_after_a_waterfall_the_turn_goes_to_the_left_of_who_bought() {
    let mut t = table();
    // cat buys; the bid-off for B ends with bob's drop, yet the turn goes to ann, cat's left.
    t.script("ann: bid 12 on B\nbob: bid 13 on B\ncat: buy");
    assert_eq!(t.to_act().as_deref(), Some("ann"));
    t.script("ann: raise 14\nbob: drop");
    assert_eq!(t.card('B').owner, Some(0));
    assert!(matches!(
        t.game.legal_actions(),
        LegalActions::Turn { player: 0, .. }
    ));
    // And after a price drop, to the left of the last passer.
    let mut t = table();
    t.script("ann: buy\nbob: pass\ncat: pass\nann: pass");
    assert_eq!(t.to_act().as_deref(), Some("bob"));
}

// ============================================================================ P13 Round end

#[test]
fn p13_at_round_end_every_player_receives_the_revenue_of_all_their_cards() {
    let mut t = Table::audited_sorted(&["ann", "bob", "cat"], 0);
    t.chips_in_order();
    // Round 1: 5 5 5 5 5 5 10, priced 5 7 9 11 13 15 and 10.
    t.script("ann: buy\nbob: buy\ncat: buy\nann: buy\nbob: buy\ncat: buy\nann: buy");
    let ended = t
        .last
        .iter()
        .find_map(|e| match e {
            Event::RoundEnded {
                round,
                double,
                income,
            } => Some((*round, *double, income.clone())),
            _ => None,
        })
        .expect("the round ended");
    assert_eq!(
        ended,
        (
            1,
            false,
            vec![
                Income {
                    player: 0,
                    cards: 3,
                    revenue: 10,
                    amount: 10
                },
                Income {
                    player: 1,
                    cards: 2,
                    revenue: 6,
                    amount: 6
                },
                Income {
                    player: 2,
                    cards: 2,
                    revenue: 6,
                    amount: 6
                },
            ]
        )
    );
    // ann: 120 − 5 − 11 − 10 + 10; bob: 120 − 7 − 13 + 6; cat: 120 − 9 − 15 + 6.
    assert_eq!(
        (t.cash("ann"), t.cash("bob"), t.cash("cat")),
        (104, 106, 102)
    );
    // Round 2 pays for round 1's cards again.
    t.chips_in_order();
    let before: Vec<u32> = t.game.players().iter().map(|p| p.cash).collect();
    let spent_before = t.log.len();
    t.finish_round();
    let mut spent = [0u32; 3];
    for e in &t.log[spent_before..] {
        if let Event::CardBought { player, price, .. } = e {
            spent[*player] += price;
        }
    }
    for seat in 0..3 {
        let revenue: u32 = t.game.players()[seat].cards.iter().map(|c| c.revenue).sum();
        assert_eq!(
            t.game.players()[seat].cash,
            before[seat] - spent[seat] + revenue
        );
    }
}

#[test]
fn p13_the_last_round_pays_double() {
    let mut t = Table::audited_sorted(&["ann", "bob"], 0);
    while t.game.round() < 7 || t.game.pending_draw().is_some() {
        t.chips_in_order();
        if t.game.round() == 7 {
            break;
        }
        t.finish_round();
    }
    t.finish_round();
    let ended = t.log.iter().rev().find_map(|e| match e {
        Event::RoundEnded {
            round,
            double,
            income,
        } => Some((*round, *double, income.clone())),
        _ => None,
    });
    let (round, double, income) = ended.expect("round 7 ended");
    assert_eq!((round, double), (7, true));
    for i in income {
        assert_eq!(i.amount, 2 * i.revenue);
        let all: u32 = t.game.players()[i.player]
            .cards
            .iter()
            .map(|c| c.revenue)
            .sum();
        assert_eq!(i.revenue, all);
    }
    assert!(t.game.is_finished());
    assert!(matches!(t.log.last(), Some(Event::GameOver { .. })));
}

// ============================================================================ P14 Scoring

#[test]
fn p14_cash_plus_sets_of_three_or_more_cards_of_one_cost() {
    let hand = cards(&[
        (20, Red),
        (20, Blue),
        (20, Green),
        (20, Black),
        (5, Red),
        (5, Red),
    ]);
    let s = score(0, 100, &hand);
    assert_eq!(
        s.sets,
        [SetScore {
            cost: 20,
            revenue: 6,
            count: 4,
            points: 24
        }]
    );
    assert_eq!(s.total, 124);
}

#[test]
fn p14_sequences_of_three_or_more_consecutive_revenues_in_one_colour_score_length_times_highest() {
    // Red 15/$5, 20/$6, 25/$7, 30/$8 and a yellow 35/$9: red 5-8 scores 4 x 8.
    let hand = cards(&[(15, Red), (20, Red), (25, Red), (30, Red), (35, Yellow)]);
    let s = score(0, 0, &hand);
    assert_eq!(
        s.sequences,
        [SequenceScore {
            colour: Red,
            layer: 1,
            low: 5,
            high: 8,
            length: 4,
            points: 32
        }]
    );
    // A gap breaks a run: 3 4 _ 6 7 8 scores only 6-8.
    let hand = cards(&[(5, Blue), (10, Blue), (20, Blue), (25, Blue), (30, Blue)]);
    assert_eq!(score(0, 0, &hand).sequence_points, 3 * 8);
}

#[test]
fn p14_the_50_card_never_counts_in_a_sequence() {
    let hand = cards(&[(35, Green), (40, Green), (50, Green), (30, Green)]);
    let s = score(0, 0, &hand);
    assert_eq!(s.sequence_points, 3 * 10);
    assert_eq!(s.sequences[0].high, 10);
}

#[test]
fn p14_a_card_counts_in_a_set_and_in_a_sequence() {
    let hand = cards(&[(20, Red), (20, Blue), (20, Green), (15, Red), (25, Red)]);
    let s = score(0, 10, &hand);
    assert_eq!(s.set_points, 3 * 6);
    assert_eq!(s.sequence_points, 3 * 7);
    assert_eq!(s.total, 10 + 18 + 21);
}

#[test]
fn p14_sequences_with_duplicates_are_taken_in_layers() {
    // Black: 5/$3 x2, 10/$4 x2, 15/$5 x2, 20/$6 x1.
    // Layer 1: 3 4 5 6 = 4 x 6 = 24; layer 2: 3 4 5 = 3 x 5 = 15.
    let hand = cards(&[
        (5, Black),
        (5, Black),
        (10, Black),
        (10, Black),
        (15, Black),
        (15, Black),
        (20, Black),
    ]);
    let s = score(0, 0, &hand);
    assert_eq!(
        s.sequences
            .iter()
            .map(|q| (q.layer, q.low, q.high, q.points))
            .collect::<Vec<_>>(),
        [(1, 3, 6, 24), (2, 3, 5, 15)]
    );
    // A second copy of only two revenues makes no second sequence.
    let hand = cards(&[
        (5, Black),
        (10, Black),
        (15, Black),
        (10, Black),
        (15, Black),
    ]);
    assert_eq!(score(0, 0, &hand).sequence_points, 3 * 5);
}

// ============================================================================ P15 Winners

#[test]
fn p15_the_highest_total_wins_and_ties_are_shared() {
    assert_eq!(winners(&[300, 412, 412, 90]), [1, 2]);
    assert_eq!(winners(&[5, 4]), [0]);
    let t = table();
    assert!(t.game.winners().is_empty(), "nobody wins before the end");
}

#[test]
fn p15_a_finished_game_names_every_player_with_the_top_total() {
    let mut t = Table::audited_sorted(&["ann", "bob", "cat"], 0);
    while !t.game.is_finished() {
        t.chips_in_order();
        t.finish_round();
    }
    let totals: Vec<u32> = t.game.scores().iter().map(|s| s.total).collect();
    let best = totals.iter().copied().max();
    let expected: Vec<usize> = (0..3).filter(|&s| Some(totals[s]) == best).collect();
    assert_eq!(t.game.winners(), expected);
    match t.log.last() {
        Some(Event::GameOver { scores, winners }) => {
            assert_eq!(scores, &t.game.scores());
            assert_eq!(winners, &expected);
        }
        other => panic!("no game over: {other:?}"),
    }
}

// ============================================================================ P16 Randomness

#[test]
fn p16_draws_are_asked_for_never_made() {
    // Manual play: the round's cards and chips together.
    let mut t = Table::manual(&["ann", "bob", "cat"], 0);
    assert_eq!(t.game.to_act(), Actor::Draw);
    assert_eq!(
        t.game.pending_draw(),
        Some(DrawRequest::Deal {
            round: 1,
            deck: CostCounts::full(6),
            cards: 7,
            bag: ChipCounts::uniform(2),
            count: 7
        })
    );
    assert_eq!(
        t.refused("ann", "buy"),
        PlayError::DrawPending {
            draw: DrawKind::Deal,
            round: 1,
            ruling: Ruling::P16
        }
    );
    assert_eq!(
        t.game.resolve_chips(&[Red; 7]),
        Err(PlayError::WrongDraw {
            expected: DrawKind::Deal,
            given: DrawKind::Chips,
            ruling: Ruling::P16
        })
    );
    // Audited play: the engine knows the shuffled deck and asks for the chips only.
    let mut a = Table::audited_sorted(&["ann", "bob", "cat"], 0);
    let request = a.game.pending_draw().expect("the chips");
    assert_eq!(
        request,
        DrawRequest::Chips {
            round: 1,
            bag: ChipCounts::uniform(2),
            count: 7
        }
    );
    assert_eq!((request.purpose(), request.index()), (PURPOSE_CHIPS, 1));
    assert_eq!(
        a.game.resolve_deal(&[5; 7], &[Red; 7]),
        Err(PlayError::WrongDraw {
            expected: DrawKind::Chips,
            given: DrawKind::Deal,
            ruling: Ruling::P16
        })
    );
    assert_eq!(
        a.game.resolve_chips(&[Red, Red]),
        Err(PlayError::WrongCount {
            what: Drawn::Chips,
            expected: 7,
            given: 2,
            ruling: Ruling::P16
        })
    );
    a.game
        .resolve_chips(&[Blue, Red, Green, Red, Black, Yellow, Green])
        .expect("chips from the bag");
    let row: Vec<(u32, Option<Chip>)> = a
        .game
        .row()
        .iter()
        .map(|c| (c.card.cost, c.card.colour))
        .collect();
    assert_eq!(
        row,
        [
            (5, Some(Blue)),
            (5, Some(Red)),
            (5, Some(Green)),
            (5, Some(Red)),
            (5, Some(Black)),
            (5, Some(Yellow)),
            (10, Some(Green))
        ]
    );
    assert_eq!(
        a.game.resolve_chips(&[Red; 7]),
        Err(PlayError::NoDrawPending {
            ruling: Ruling::P16
        })
    );
}

#[test]
fn p16_each_draw_lists_its_population_in_the_order_of_the_ruling() {
    assert_eq!(
        (PURPOSE_DEALER, PURPOSE_DECK, PURPOSE_CHIPS),
        ("privates-dealer", "privates-deck", "privates-chips")
    );
    assert_eq!(dealer_population(3), [1, 2, 3]);
    let deck = deck_population(6);
    assert_eq!(&deck[..7], &[5, 5, 5, 5, 5, 5, 10]);
    assert_eq!(&deck[48..], &[50; 6]);
    assert_eq!(deck_population(5).len(), 45);
    let bag = ChipCounts {
        red: 1,
        yellow: 0,
        green: 2,
        blue: 0,
        black: 1,
    };
    assert_eq!(chip_population(&bag), [Red, Green, Green, Black]);
    assert!(matches!(
        Game::new(&Setup::audited(&["ann", "bob"], 0, vec![5; 10])),
        Err(SetupError::DeckSize {
            given: 10,
            expected: 54,
            ruling: Ruling::P16
        })
    ));
}

#[test]
fn p16_a_deal_is_given_in_the_moderators_notation() {
    let mut t = Table::manual(&["ann", "bob", "cat"], 1);
    // Three red chips cannot come from a bag of two: refused, nothing changes.
    let deal =
        privates::parse_deal("10 5 25 50 10 35 40 chips:red,blue,green,red,black,yellow,red")
            .expect("reads");
    let before = t.game.clone();
    assert!(matches!(
        t.game.resolve_deal(&deal.cards, &deal.chips),
        Err(PlayError::ChipNotInBag { chip: Red, .. })
    ));
    assert_eq!(t.game, before);
    let events = t.deal(DEAL);
    assert!(matches!(
        &events[..],
        [Event::RoundStarted { dealer: 1, .. }]
    ));
    assert_eq!(t.to_act().as_deref(), Some("bob"));
    assert_eq!(t.game.deck_left().total(), 47);
    assert_eq!(t.game.bag().total(), 3);
}
