//! One test per clause: of the official rulebook (tests named `rulebook_…`), of the reference
//! manual's FAQ (`faq_…`) and of each numbered ruling of `docs/RULINGS.md` (`ruling_NN_…`); that
//! file's preface describes the rule texts.
//! Each test is a short script in the players' own notation (see `support/mod.rs`); every
//! refusal is checked to leave the game unchanged and to name the rule it applies.
//!
//! Board geometry used below (from `board.yaml`):
//! - Limerick L4 (WLW): Shannon K3 (town), K4, K5 (difficult), L3, L5, M4. J4 touches K4 only;
//!   J3 touches both K3 and K4. L5-L6-L7 lead east to Kilkenny L8, then New Ross L9 (town) and
//!   Waterford M9.
//! - Dublin H11 (GSW, MGW): G11, H10, I10, I11 (difficult). G11 touches Drogheda F11 (town);
//!   I11 touches Wicklow J12 (town). Drogheda-E11-D11-C11 leads to Belfast C12; row H leads
//!   west through Tullamore H7 to Galway H3.
//! - Cork O4 (CBSC): N3, N4 (difficult), N5, O3. Belfast C12 (BCD): B11, C11, B12/D12 (difficult).

mod support;

use irish_gauge::event::AutoPassReason;
use irish_gauge::{
    parse_action, Action, Actor, Colour, Event, Game, LegalActions, NotationError, Railway, Rule,
    Setup, SetupError,
};
use support::{hex, setup, Table, FORUM_CITIES};

use Colour::{Black, Pink, White};
use Railway::{Bcd, Cbsc, Gsw, Mgw, Wlw};

/// A city roll with all four white setup cubes on cities (Galway, Limerick, Cork, Derry):
/// the supply holds 6 white, 8 pink, 8 black.
const FOUR_WHITE_CITIES: [u8; 8] = [1, 2, 3, 4, 5, 6, 9, 10];

fn events_of<'a>(events: &'a [Event], f: impl Fn(&Event) -> bool + 'a) -> Vec<&'a Event> {
    events.iter().filter(|e| f(e)).collect()
}

fn share_won(events: &[Event]) -> Option<(usize, Railway, u32, u32)> {
    events.iter().find_map(|e| match e {
        Event::ShareWon {
            player,
            railway,
            face,
            price,
        } => Some((*player, *railway, *face, *price)),
        _ => None,
    })
}

fn turn_began(events: &[Event]) -> Option<(usize, u32)> {
    events.iter().find_map(|e| match e {
        Event::TurnBegan { player, turn } => Some((*player, *turn)),
        _ => None,
    })
}

fn game_over(events: &[Event]) -> Option<(Vec<u32>, Vec<usize>)> {
    events.iter().find_map(|e| match e {
        Event::GameOver { scores, winners } => Some((scores.clone(), winners.clone())),
        _ => None,
    })
}

// ===================================================================================== Rulebook

#[test]
fn rulebook_setup_every_player_starts_with_twenty_pounds_and_no_shares() {
    let t = Table::new(&["ann", "bob", "cat", "dan"]);
    for name in ["ann", "bob", "cat", "dan"] {
        assert_eq!(t.cash(name), 20, "{name}");
        assert!(t.shares(name).is_empty(), "{name}");
    }
}

#[test]
fn rulebook_setup_one_locomotive_of_each_railway_stands_in_its_starting_city() {
    let t = Table::new(&["ann", "bob", "cat"]);
    assert_eq!(t.track(Cbsc), ["O4"], "Cork");
    assert_eq!(t.track(Wlw), ["L4"], "Limerick");
    assert_eq!(t.track(Bcd), ["C12"], "Belfast");
    assert_eq!(t.track(Gsw), ["H11"], "Dublin");
    assert_eq!(t.track(Mgw), ["H11"], "Dublin");
    for railway in Railway::ALL {
        assert_eq!(t.unplaced(railway), 18, "{railway}");
    }
}

#[test]
fn rulebook_initial_auctions_are_cbsc_wlw_bcd_gsw_mgw_in_that_order() {
    let mut t = Table::new(&["ann", "bob", "cat"]);
    assert!(matches!(
        t.game.phase(),
        irish_gauge::Phase::InitialAuction { auction, .. } if auction.railway == Cbsc
    ));
    t.initial_auctions(&[("ann", 7), ("bob", 5), ("cat", 8), ("ann", 4), ("bob", 6)]);
    let opened: Vec<Railway> = t
        .log
        .iter()
        .filter_map(|e| match e {
            Event::AuctionOpened {
                railway,
                initial: true,
                ..
            } => Some(*railway),
            _ => None,
        })
        .collect();
    // CBSC opened with the game; the four others were opened by the commands.
    assert_eq!(opened, [Wlw, Bcd, Gsw, Mgw]);
    let won: Vec<Railway> = t
        .log
        .iter()
        .filter_map(|e| match e {
            Event::ShareWon { railway, .. } => Some(*railway),
            _ => None,
        })
        .collect();
    assert_eq!(won, [Cbsc, Wlw, Bcd, Gsw, Mgw]);
}

#[test]
fn rulebook_fewer_than_three_build_points_may_be_spent() {
    let mut t = Table::standard();
    t.play("ann: build GSW G11");
    assert_eq!(t.last_build_costs(), [("G11", 2)]);
    assert_eq!(t.to_act(), Some("bob"));
}

#[test]
fn rulebook_build_points_are_not_saved_from_turn_to_turn() {
    let mut t = Table::standard();
    t.play_all(
        "ann: build GSW G11
         bob: build WLW K4
         cat: build BCD B11",
    );
    // ann spent 1 BP last turn; she still has only 3 now.
    t.refused(
        "ann: build GSW H10 I10 G10 Drogheda",
        Rule::BuildPoints,
        "costs 4 BP",
    );
    t.play("ann: build GSW H10 I10 G10");
}

#[test]
fn rulebook_a_build_is_for_one_railway() {
    // Build points cannot be used by another railway: a build names one railway, and another
    // railway's name is no hex.
    assert!(matches!(
        parse_action("build GSW G11 MGW H10"),
        Err(NotationError::UnknownHex { .. })
    ));
}

#[test]
fn rulebook_the_major_city_dividend_is_paid_immediately() {
    let t = gsw_reaches_the_three_major_cities();
    // In the same command, right after the placement and before the next turn begins.
    let kinds: Vec<&str> = t
        .last
        .iter()
        .map(|e| match e {
            Event::LocomotivesPlaced { .. } => "placed",
            Event::MajorCityDividend { .. } => "major",
            Event::TurnBegan { .. } => "turn",
            _ => "other",
        })
        .collect();
    assert_eq!(kinds, ["placed", "major", "turn"]);
}

#[test]
fn faq_a_share_of_a_railway_the_auctioneer_does_not_own_may_be_auctioned() {
    let mut t = Table::standard();
    t.play("ann: build GSW G11");
    assert!(!t.shares("bob").iter().any(|(r, _)| *r == Gsw));
    t.play("bob: auction GSW");
    assert!(t.last.contains(&Event::AuctionOpened {
        by: t.seat("bob"),
        railway: Gsw,
        face: 9,
        initial: false
    }));
}

// ============================================================================ Money and shares

#[test]
fn ruling_01_a_fraction_of_a_pound_is_no_bid() {
    assert!(matches!(
        parse_action("bid 7.5"),
        Err(NotationError::Syntax { command: "bid", .. })
    ));
    assert!(matches!(
        parse_action("auction GSW 4.50"),
        Err(NotationError::Syntax {
            command: "auction",
            ..
        })
    ));
}

#[test]
fn ruling_01_the_bank_pays_rounded_up_dividends_in_full() {
    // £14 income over 3 shares: the bank pays £15.
    let t = fourteen_pounds_over_three_wlw_shares();
    let (income, per_share, payouts) = t.dividend(Wlw);
    assert_eq!((income, per_share), (14, 5));
    assert_eq!(payouts.iter().map(|(_, a)| a).sum::<u32>(), 15);
}

#[test]
fn ruling_02_a_bid_below_face_value_is_refused() {
    let mut t = Table::new(&["ann", "bob", "cat"]);
    t.refused("ann: bid 6", Rule::Bid, "face value of £7");
}

#[test]
fn ruling_02_a_bid_of_face_value_is_accepted() {
    let mut t = Table::new(&["ann", "bob", "cat"]);
    t.play("ann: bid 7");
    assert!(t.last.contains(&Event::Bid {
        player: 0,
        amount: 7
    }));
}

#[test]
fn ruling_02_a_bid_must_be_more_than_the_high_bid() {
    let mut t = Table::new(&["ann", "bob", "cat"]);
    t.play("ann: bid 8");
    t.refused("bob: bid 8", Rule::Bid, "more than the high bid of £8");
    t.refused("bob: bid 7", Rule::Bid, "");
    t.play("bob: bid 9");
}

#[test]
fn ruling_02_a_bid_may_not_exceed_the_bidders_cash() {
    let mut t = Table::new(&["ann", "bob", "cat"]);
    t.refused("ann: bid 21", Rule::Bid, "ann has only £20");
    t.play("ann: bid 20");
}

#[test]
fn ruling_03_the_lowest_share_of_a_railway_is_sold_first() {
    let mut t = Table::standard();
    t.play("ann: build GSW G11");
    assert_eq!(t.game.available_shares(Gsw), [9, 14, 18]);
    t.play("bob: auction GSW");
    t.play("cat: pass"); // ann (£9) cannot raise £9 and is passed automatically
    assert_eq!(share_won(&t.last), Some((t.seat("bob"), Gsw, 9, 9)));
    assert_eq!(t.game.available_shares(Gsw), [14, 18]);
    assert!(t.shares("bob").contains(&(Gsw, vec![9])));
}

#[test]
fn ruling_03_the_sixteen_shares_and_their_face_values() {
    let t = Table::new(&["ann", "bob", "cat"]);
    let shares: Vec<(Railway, Vec<u32>)> = Railway::ALL
        .iter()
        .map(|&r| (r, t.game.available_shares(r)))
        .collect();
    assert_eq!(
        shares,
        [
            (Cbsc, vec![7, 12, 17]),
            (Wlw, vec![5, 10, 15, 19]),
            (Bcd, vec![8, 13]),
            (Gsw, vec![4, 9, 14, 18]),
            (Mgw, vec![6, 11, 16]),
        ]
    );
    assert_eq!(shares.iter().map(|(_, v)| v.len()).sum::<usize>(), 16);
}

// ============================================================================= Initial auction

#[test]
fn ruling_04_the_first_player_of_the_order_roll_opens_the_first_auction() {
    let game = Game::new(&Setup {
        players: vec!["ann".into(), "bob".into(), "cat".into()],
        order: vec![2, 3, 1],
        cities: FORUM_CITIES,
    })
    .expect("valid");
    assert_eq!(game.name(0), "bob");
    assert_eq!(game.to_act(), Actor::Player { seat: 0 });
    assert!(matches!(
        game.phase(),
        irish_gauge::Phase::InitialAuction {
            opener: 0,
            lot: 0,
            ..
        }
    ));
}

#[test]
fn ruling_05_the_opening_bidder_may_bid() {
    let mut t = Table::new(&["ann", "bob", "cat"]);
    t.play("ann: bid 7");
    assert_eq!(t.to_act(), Some("bob"));
}

#[test]
fn ruling_05_an_opening_bidder_who_passes_is_out_of_the_auction() {
    let mut t = Table::new(&["ann", "bob", "cat"]);
    t.play_all("ann: pass\nbob: bid 7");
    t.refused("ann: bid 8", Rule::TurnOrder, "cat's bid");
    t.play("cat: pass");
    // ann is not asked again: bob takes the share.
    assert_eq!(share_won(&t.last), Some((t.seat("bob"), Cbsc, 7, 7)));
}

#[test]
fn ruling_05_bidding_goes_clockwise_among_players_who_have_not_passed() {
    let mut t = Table::new(&["ann", "bob", "cat"]);
    t.play("ann: bid 7");
    assert_eq!(t.to_act(), Some("bob"));
    t.play("bob: pass");
    assert_eq!(t.to_act(), Some("cat"));
    t.play("cat: bid 8");
    assert_eq!(t.to_act(), Some("ann"));
    t.play("ann: bid 9");
    assert_eq!(t.to_act(), Some("cat"), "bob has passed and is skipped");
}

#[test]
fn ruling_05_while_nobody_has_bid_every_player_still_gets_to_bid_or_pass() {
    let mut t = Table::new(&["ann", "bob", "cat"]);
    t.play_all("ann: pass\nbob: pass");
    assert_eq!(t.to_act(), Some("cat"));
    t.play("cat: bid 7");
    assert_eq!(share_won(&t.last), Some((t.seat("cat"), Cbsc, 7, 7)));
}

#[test]
fn ruling_05_the_high_bidder_pays_when_every_other_player_has_passed() {
    let mut t = Table::new(&["ann", "bob", "cat"]);
    t.play_all(
        "ann: bid 7
         bob: bid 9
         cat: pass",
    );
    assert_eq!(share_won(&t.last), None, "ann is still in");
    t.play("ann: pass");
    assert_eq!(share_won(&t.last), Some((t.seat("bob"), Cbsc, 7, 9)));
    assert_eq!(t.cash("bob"), 11);
    assert_eq!(t.shares("bob"), [(Cbsc, vec![7])]);
    assert_eq!(t.cash("ann"), 20);
}

#[test]
fn ruling_05_opening_bidder_gets_the_share_free_if_nobody_bids() {
    let mut t = Table::new(&["ann", "bob", "cat"]);
    t.play_all("ann: pass\nbob: pass\ncat: pass");
    assert_eq!(share_won(&t.last), Some((t.seat("ann"), Cbsc, 7, 0)));
    assert_eq!(t.cash("ann"), 20);
    assert_eq!(t.shares("ann"), [(Cbsc, vec![7])]);
}

#[test]
fn ruling_05_an_opening_bidder_passed_automatically_still_gets_the_share_free() {
    let mut t = Table::new(&["ann", "bob", "cat"]);
    // Nobody can raise £20: bob and cat are passed automatically and ann wins CBSC at once.
    t.play("ann: bid 20");
    assert_eq!(share_won(&t.last), Some((t.seat("ann"), Cbsc, 7, 20)));
    assert_eq!(t.cash("ann"), 0);
    // ann opens WLW but cannot bid £5: she is passed automatically.
    assert!(t.last.contains(&Event::AutoPassed {
        player: t.seat("ann"),
        reason: AutoPassReason::CannotAffordFaceValue { cash: 0, face: 5 }
    }));
    assert_eq!(t.to_act(), Some("bob"));
    t.play_all("bob: pass\ncat: pass");
    assert_eq!(share_won(&t.last), Some((t.seat("ann"), Wlw, 5, 0)));
    assert_eq!(t.shares("ann"), [(Cbsc, vec![7]), (Wlw, vec![5])]);
}

#[test]
fn ruling_06_the_winner_opens_the_next_initial_auction() {
    let mut t = Table::new(&["ann", "bob", "cat"]);
    t.play_all("ann: pass\nbob: bid 7\ncat: pass");
    assert!(t.last.contains(&Event::AuctionOpened {
        by: t.seat("bob"),
        railway: Wlw,
        face: 5,
        initial: true
    }));
    assert_eq!(t.to_act(), Some("bob"));
}

#[test]
fn ruling_06_the_free_taker_opens_the_next_initial_auction() {
    let mut t = Table::new(&["ann", "bob", "cat"]);
    t.play_all("ann: bid 7\nbob: pass\ncat: pass");
    t.play_all("ann: pass\nbob: pass\ncat: bid 6");
    // cat won WLW at £6; then nobody bids on BCD: cat, its opener, takes it free.
    t.play_all("cat: pass\nann: pass\nbob: pass");
    assert_eq!(share_won(&t.last), Some((t.seat("cat"), Bcd, 8, 0)));
    assert!(t.last.contains(&Event::AuctionOpened {
        by: t.seat("cat"),
        railway: Gsw,
        face: 4,
        initial: true
    }));
    assert_eq!(t.to_act(), Some("cat"));
}

#[test]
fn ruling_07_the_cbsc_owner_takes_the_first_turn() {
    let mut t = Table::new(&["ann", "bob", "cat"]);
    t.initial_auctions(&[("cat", 7), ("ann", 5), ("bob", 8), ("ann", 4), ("bob", 6)]);
    // Neither the first seat (ann) nor the last winner (bob): cat holds CBSC.
    assert_eq!(turn_began(&t.last), Some((t.seat("cat"), 1)));
    assert_eq!(t.to_act(), Some("cat"));
    assert_eq!(t.game.turn(), 1);
}

// ======================================================================================= Turns

#[test]
fn ruling_08_a_turn_is_exactly_one_action() {
    let mut t = Table::standard();
    t.play("ann: build GSW G11");
    assert_eq!(turn_began(&t.last), Some((t.seat("bob"), 2)));
    t.refused("ann: build GSW H10", Rule::TurnOrder, "bob's turn");
    t.refused("ann: dividends", Rule::TurnOrder, "bob's turn");
}

#[test]
fn ruling_08_there_is_no_null_action() {
    let mut t = Table::standard();
    t.refused("ann: pass", Rule::Phase, "no auction is running");
    t.refused("ann: bid 5", Rule::Phase, "no auction is running");
}

#[test]
fn ruling_08_only_bids_and_passes_while_an_auction_runs() {
    let mut t = Table::new(&["ann", "bob", "cat"]);
    t.refused("ann: dividends", Rule::Phase, "may only bid");
    t.refused("ann: auction GSW", Rule::Phase, "may only bid");
    let mut t = Table::rich();
    t.play("ann: auction GSW");
    t.refused("bob: build WLW K4", Rule::Phase, "may only bid");
}

#[test]
fn ruling_08_call_for_dividends_is_legal_with_nothing_else_to_do() {
    let mut t = Table::rich();
    // cat holds no share: she can neither build nor place a special interest.
    t.play_all(
        "ann: build GSW G11
         bob: dividends
         draw: white pink black",
    );
    match t.game.legal_actions() {
        LegalActions::Turn {
            player,
            builds,
            interests,
            ..
        } => {
            assert_eq!(player, t.seat("cat"));
            assert!(builds.is_empty() && interests.is_empty());
        }
        other => panic!("{other:?}"),
    }
    t.refused("cat: build GSW H10", Rule::ShareNeeded, "cat owns no share");
    t.play("cat: dividends");
    assert!(t.last.contains(&Event::DividendsCalled {
        player: t.seat("cat"),
        count: 3
    }));
}

#[test]
fn ruling_09_the_turn_passes_clockwise() {
    let mut t = Table::standard();
    t.play("ann: build GSW G11");
    assert_eq!(turn_began(&t.last), Some((t.seat("bob"), 2)));
    t.play("bob: build WLW K4");
    assert_eq!(turn_began(&t.last), Some((t.seat("cat"), 3)));
    t.play("cat: build BCD B11");
    assert_eq!(turn_began(&t.last), Some((t.seat("ann"), 4)));
}

#[test]
fn ruling_09_after_an_auction_someone_else_won_the_turn_passes_from_the_auctioneer() {
    let mut t = Table::standard();
    t.play("ann: auction GSW"); // £9; bob (£9) cannot raise
    t.play("cat: bid 10"); // ann (£9) cannot raise: cat wins
    assert_eq!(share_won(&t.last), Some((t.seat("cat"), Gsw, 9, 10)));
    // The next player after ann, not after cat.
    assert_eq!(turn_began(&t.last), Some((t.seat("bob"), 2)));
    assert_eq!(t.to_act(), Some("bob"));
}

// ============================================================================ Auction a Share

#[test]
fn ruling_10_auction_opens_at_face_value() {
    let mut t = Table::rich();
    t.play("ann: auction GSW");
    assert!(t.last.contains(&Event::AuctionOpened {
        by: 0,
        railway: Gsw,
        face: 9,
        initial: false
    }));
    assert!(t.last.contains(&Event::Bid {
        player: 0,
        amount: 9
    }));
    assert!(matches!(
        t.game.legal_actions(),
        LegalActions::Bidding {
            player: 1,
            min: 10,
            max: 20,
            ..
        }
    ));
}

#[test]
fn ruling_10_auction_with_an_opening_bid_opens_at_that_bid() {
    let mut t = Table::rich();
    t.play("ann: auction GSW 12");
    assert!(t.last.contains(&Event::Bid {
        player: 0,
        amount: 12
    }));
    assert!(matches!(
        t.game.legal_actions(),
        LegalActions::Bidding {
            player: 1,
            min: 13,
            ..
        }
    ));
    t.refused("bob: bid 12", Rule::Bid, "more than the high bid of £12");
}

#[test]
fn ruling_10_an_opening_bid_below_face_value_is_refused() {
    let mut t = Table::rich();
    t.refused("ann: auction GSW 8", Rule::Bid, "face value of £9");
}

#[test]
fn ruling_10_an_opening_bid_above_cash_is_refused() {
    let mut t = Table::rich();
    t.refused("ann: auction GSW 21", Rule::Bid, "ann has only £20");
}

#[test]
fn ruling_10_a_railway_whose_share_costs_more_than_the_auctioneers_cash_cannot_be_chosen() {
    let mut t = Table::standard();
    // ann has £9; CBSC's next share is £12.
    t.refused("ann: auction CBSC", Rule::Auction, "costs at least £12");
    match t.game.legal_actions() {
        LegalActions::Turn { auctions, .. } => {
            let railways: Vec<Railway> = auctions.iter().map(|a| a.railway).collect();
            assert_eq!(railways, [Gsw], "only GSW's £9 is within £9");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn ruling_10_a_railway_without_shares_left_cannot_be_chosen() {
    let mut t = Table::rich();
    t.play_all("ann: auction BCD\nbob: pass\ncat: pass");
    assert_eq!(t.game.available_shares(Bcd), Vec::<u32>::new());
    t.refused("bob: auction BCD", Rule::Auction, "BCD has no shares left");
}

#[test]
fn ruling_11_bidding_starts_at_the_auctioneers_left() {
    let mut t = Table::rich();
    t.play("ann: build GSW G11");
    t.play("bob: auction MGW");
    assert_eq!(t.to_act(), Some("cat"));
    t.play("cat: pass");
    assert_eq!(t.to_act(), Some("ann"));
}

#[test]
fn ruling_11_an_outbid_auctioneer_stays_in_and_may_raise() {
    let mut t = Table::rich();
    t.play_all(
        "ann: auction GSW
         bob: bid 10
         cat: pass",
    );
    assert_eq!(t.to_act(), Some("ann"));
    t.play_all("ann: bid 11\nbob: pass");
    assert_eq!(share_won(&t.last), Some((t.seat("ann"), Gsw, 9, 11)));
    assert_eq!(t.cash("ann"), 9);
}

#[test]
fn ruling_11_passed_players_are_out_of_the_auction() {
    let mut t = Table::rich();
    t.play_all(
        "ann: auction GSW
         bob: pass
         cat: bid 10
         ann: bid 11",
    );
    assert_eq!(t.to_act(), Some("cat"), "bob passed and is not asked");
    t.refused("bob: bid 12", Rule::TurnOrder, "cat's bid");
    t.play("cat: pass");
    assert_eq!(share_won(&t.last), Some((t.seat("ann"), Gsw, 9, 11)));
}

#[test]
fn ruling_11_when_only_the_high_bidder_remains_they_pay_and_take_the_share() {
    let mut t = Table::rich();
    t.play_all(
        "ann: auction GSW
         bob: bid 12
         cat: pass",
    );
    assert_eq!(share_won(&t.last), None);
    t.play("ann: pass");
    assert_eq!(share_won(&t.last), Some((t.seat("bob"), Gsw, 9, 12)));
    assert_eq!(t.cash("bob"), 8);
    assert_eq!(t.shares("bob"), [(Gsw, vec![9])]);
    assert_eq!(t.cash("ann"), 20);
}

#[test]
fn ruling_11_a_player_who_cannot_raise_is_passed_automatically_and_the_report_says_so() {
    let mut t = Table::standard();
    t.play("ann: auction GSW");
    assert!(t.last.contains(&Event::AutoPassed {
        player: t.seat("bob"),
        reason: AutoPassReason::CannotRaise { cash: 9, high: 9 }
    }));
    assert_eq!(t.to_act(), Some("cat"));
    t.play("cat: bid 10");
    assert!(t.last.contains(&Event::AutoPassed {
        player: t.seat("ann"),
        reason: AutoPassReason::CannotRaise { cash: 9, high: 10 }
    }));
}

#[test]
fn ruling_11_a_player_who_cannot_afford_face_value_is_passed_automatically() {
    let mut t = Table::new(&["ann", "bob", "cat"]);
    t.play_all("ann: bid 7\nbob: pass\ncat: pass"); // ann opens WLW
    t.play_all("ann: pass\nbob: bid 17\ncat: pass"); // bob (£3) opens BCD (£8)
    assert!(t.last.contains(&Event::AutoPassed {
        player: t.seat("bob"),
        reason: AutoPassReason::CannotAffordFaceValue { cash: 3, face: 8 }
    }));
    assert_eq!(t.to_act(), Some("cat"));
}

#[test]
fn ruling_11_the_player_asked_to_bid_is_always_one_who_can() {
    let mut t = Table::standard();
    t.play("ann: auction GSW"); // bob is passed automatically
    let LegalActions::Bidding {
        player, min, max, ..
    } = t.game.legal_actions()
    else {
        panic!("an auction runs");
    };
    assert_eq!(player, t.seat("cat"));
    assert!(min <= max, "cat can bid £{min} with £{max}");
    t.play(&format!("cat: bid {min}"));
}

// ======================================================================== Place Railway Track

#[test]
fn ruling_12_building_needs_a_share_of_the_railway() {
    let mut t = Table::standard();
    t.refused(
        "ann: build WLW K4",
        Rule::ShareNeeded,
        "ann owns no share of WLW",
    );
    t.play("ann: build GSW G11");
}

/// bob builds WLW from Limerick until one locomotive is left (18 placed with the start).
fn wlw_with_one_locomotive_left() -> Table {
    let mut t = Table::standard();
    t.play_all(
        "ann: build GSW G11
         bob: build WLW K4 L3 L5
         cat: build BCD B11
         ann: build GSW H10
         bob: build WLW Shannon M4 L6
         cat: build BCD C11
         ann: build GSW I10
         bob: build WLW J3 J4 K2
         cat: build BCD A11
         ann: build GSW G10
         bob: build WLW L2 L7 M5
         cat: build BCD B10
         ann: build GSW H9
         bob: build WLW Kilkenny M6 J5
         cat: build BCD C10
         ann: build GSW G9
         bob: build WLW New Ross M8
         cat: build BCD D11
         ann: build GSW F10",
    );
    assert_eq!(t.unplaced(Wlw), 1);
    t
}

#[test]
fn ruling_12_nineteen_locomotives_per_railway_the_start_included() {
    let mut t = wlw_with_one_locomotive_left();
    t.play("bob: build WLW K7");
    assert!(matches!(
        t.last[0],
        Event::LocomotivesPlaced { unplaced: 0, .. }
    ));
    assert_eq!(t.track(Wlw).len(), 19);
    t.play_all("cat: build BCD E11\nann: build GSW F9");
    t.refused("bob: build WLW K8", Rule::Locomotives, "placed all 19");
    match t.game.legal_actions() {
        LegalActions::Turn { builds, .. } => {
            let railways: Vec<Railway> = builds.iter().map(|b| b.railway).collect();
            assert_eq!(railways, [Mgw], "WLW has nothing left to place");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn ruling_13_more_locomotives_than_the_railway_has_left_is_refused() {
    let mut t = wlw_with_one_locomotive_left();
    t.refused(
        "bob: build WLW K7 K8",
        Rule::Locomotives,
        "only 1 locomotive left, not 2",
    );
}

#[test]
fn ruling_13_three_build_points_may_be_spent() {
    let mut t = Table::standard();
    t.play("ann: build GSW G11 H10 I10");
    assert_eq!(t.last_build_costs(), [("G11", 2), ("H10", 2), ("I10", 2)]);
    assert!(matches!(
        t.last[0],
        Event::LocomotivesPlaced {
            half_points: 6,
            unplaced: 15,
            ..
        }
    ));
}

#[test]
fn ruling_13_more_than_three_build_points_is_refused() {
    let mut t = Table::standard();
    t.refused(
        "ann: build GSW G11 H10 I10 G10",
        Rule::BuildPoints,
        "costs 4 BP",
    );
}

#[test]
fn ruling_13_a_build_places_at_least_one_locomotive() {
    let mut t = Table::standard();
    let nothing = Action::Build {
        railway: Gsw,
        hexes: vec![],
    };
    t.refused_action(0, &nothing, Rule::BuildPoints, "at least one locomotive");
    assert!(parse_action("build GSW").is_err());
}

#[test]
fn ruling_13_easy_or_urban_hex_with_no_other_railway_costs_one() {
    let mut t = Table::standard();
    t.play("ann: build GSW G11");
    t.play("bob: build WLW K4 Shannon");
    assert_eq!(t.last_build_costs(), [("K4", 2), ("K3", 2)]);
}

#[test]
fn ruling_13_easy_hex_with_another_railway_costs_one_and_a_half() {
    let mut t = Table::standard();
    t.play("ann: build GSW G11");
    t.play("bob: build MGW G11");
    assert_eq!(t.last_build_costs(), [("G11", 3)]);
}

#[test]
fn ruling_13_urban_hex_with_another_railway_costs_one_and_a_half() {
    let mut t = Table::standard();
    t.play("ann: build GSW G11 Drogheda");
    t.play("bob: build MGW G11 Drogheda");
    assert_eq!(t.last_build_costs(), [("G11", 3), ("F11", 3)]);
}

#[test]
fn ruling_13_one_and_a_half_twice_is_exactly_three_build_points() {
    let mut t = Table::standard();
    t.play("ann: build GSW G11 H10");
    t.play("bob: build MGW G11 H10");
    assert!(matches!(
        t.last[0],
        Event::LocomotivesPlaced { half_points: 6, .. }
    ));
}

#[test]
fn ruling_13_one_and_a_half_twice_plus_one_is_four_and_refused() {
    let mut t = Table::standard();
    t.play("ann: build GSW G11 H10");
    t.refused(
        "bob: build MGW G11 H10 I10",
        Rule::BuildPoints,
        "costs 4 BP",
    );
}

#[test]
fn ruling_13_difficult_hex_with_no_other_railway_costs_two() {
    let mut t = Table::standard();
    t.play("ann: build GSW I11 I10");
    assert_eq!(t.last_build_costs(), [("I11", 4), ("I10", 2)]);
    t.play("bob: build WLW K5");
    assert_eq!(t.last_build_costs(), [("K5", 4)]);
}

#[test]
fn ruling_13_difficult_hex_and_two_easy_hexes_are_four_and_refused() {
    let mut t = Table::standard();
    t.refused(
        "ann: build GSW I11 I10 H10",
        Rule::BuildPoints,
        "costs 4 BP",
    );
}

#[test]
fn ruling_13_difficult_hex_with_another_railway_is_refused() {
    let mut t = Table::standard();
    t.play("ann: build GSW I11");
    t.refused(
        "bob: build MGW I11",
        Rule::DifficultHex,
        "Only one railway may occupy a difficult hex",
    );
}

#[test]
fn ruling_13_gsw_and_mgw_are_other_railways_to_each_other() {
    let mut t = Table::standard();
    t.play("ann: build CBSC N5");
    t.play("bob: build MGW H10");
    assert_eq!(t.last_build_costs(), [("H10", 2)]);
    t.play("cat: build BCD B11");
    // Next to their shared Dublin start, where MGW already is: 1.5.
    t.play("ann: build GSW H10 G11");
    assert_eq!(t.last_build_costs(), [("H10", 3), ("G11", 2)]);
}

#[test]
fn ruling_13_a_railways_own_placements_never_change_its_costs() {
    let mut t = Table::standard();
    t.play("ann: build GSW G11 G10");
    assert_eq!(t.last_build_costs(), [("G11", 2), ("G10", 2)]);
    t.play("bob: build WLW K4 K5");
    // K5 is difficult and WLW enters K4 in the same action: still 2, and allowed.
    assert_eq!(t.last_build_costs(), [("K4", 2), ("K5", 4)]);
    t.play("cat: build BCD B11");
    // GSW's own track next to or in the way changes nothing: H10 costs 1 beside G10 and G11.
    t.play("ann: build GSW H10");
    assert_eq!(t.last_build_costs(), [("H10", 2)]);
}

#[test]
fn ruling_13_a_bad_second_hex_refuses_the_whole_build() {
    let mut t = Table::standard();
    t.refused(
        "ann: build GSW I11 Dublin",
        Rule::OneLocomotivePerHex,
        "GSW already has a locomotive in Dublin (H11)",
    );
    assert_eq!(t.track(Gsw), ["H11"]);
    t.play("ann: build GSW I11");
    t.refused(
        "bob: build MGW H10 I11",
        Rule::DifficultHex,
        "Only one railway may occupy a difficult hex",
    );
    assert_eq!(t.track(Mgw), ["H11"]);
    assert_eq!(t.unplaced(Mgw), 18);
}

#[test]
fn ruling_13_a_hex_listed_twice_is_refused() {
    let mut t = Table::standard();
    t.refused(
        "ann: build GSW G11 G11",
        Rule::OneLocomotivePerHex,
        "G11 is listed twice",
    );
}

#[test]
fn ruling_13_a_hex_the_railway_already_has_is_refused() {
    let mut t = Table::standard();
    t.play_all(
        "ann: build GSW G11
         bob: build WLW K4
         cat: build BCD B11",
    );
    t.refused(
        "ann: build GSW G11",
        Rule::OneLocomotivePerHex,
        "GSW already has a locomotive in G11",
    );
}

#[test]
fn ruling_13_a_railway_never_has_two_locomotives_in_its_starting_city() {
    let mut t = Table::standard();
    t.play("ann: build GSW G11");
    t.refused(
        "bob: build WLW Limerick",
        Rule::OneLocomotivePerHex,
        "WLW already has a locomotive in Limerick (L4)",
    );
}

#[test]
fn ruling_14_placements_may_be_listed_in_any_order() {
    let mut t = Table::standard();
    t.play("ann: build GSW G11");
    // J4 touches K4 only: listed first, it connects once K4 is placed in the same action.
    t.play("bob: build WLW J4 K4");
    assert_eq!(t.last_build_costs(), [("J4", 2), ("K4", 2)]);
    assert_eq!(t.track(Wlw), ["J4", "K4", "L4"]);
}

#[test]
fn ruling_14_a_placement_that_does_not_connect_to_the_start_is_refused() {
    let mut t = Table::standard();
    t.play("ann: build GSW G11");
    // 3 BP are spent on L5 M4 J4 and J4 does not touch WLW's track.
    t.refused(
        "bob: build WLW L5 M4 J4",
        Rule::Connection,
        "no locomotive adjacent to J4",
    );
}

#[test]
fn ruling_14_track_connects_through_the_railways_own_locomotives_only() {
    let mut t = Table::standard();
    t.play("ann: build GSW G11");
    // G10 touches GSW's G11, but MGW has only Dublin.
    t.refused(
        "bob: build MGW G10 F10 E10",
        Rule::Connection,
        "would not connect to MGW's track from Dublin",
    );
}

#[test]
fn ruling_14_shorthand_builds_the_unique_cheapest_path() {
    let mut t = Table::standard();
    t.play("ann: build GSW G11");
    t.play("bob: build WLW J4");
    assert_eq!(t.last_build_costs(), [("K4", 2), ("J4", 2)]);
    assert_eq!(t.track(Wlw), ["J4", "K4", "L4"]);
}

#[test]
fn ruling_14_shorthand_with_several_cheapest_paths_is_ambiguous() {
    let mut t = Table::standard();
    t.play("ann: build GSW G11");
    let options = t.ambiguous("bob: build WLW J3");
    let mut texts: Vec<String> = options.iter().map(|a| a.to_string()).collect();
    texts.sort();
    assert_eq!(texts, ["build WLW K3 J3", "build WLW K4 J3"]);
    t.play(&format!("bob: {}", options[0]));
    assert_eq!(t.unplaced(Wlw), 16);
}

#[test]
fn ruling_14_shorthand_out_of_reach_is_refused() {
    let mut t = Table::standard();
    t.play("ann: build GSW G11");
    t.refused(
        "bob: build WLW Galway",
        Rule::Connection,
        "no path within 3 BP reaches it",
    );
}

#[test]
fn ruling_14_shorthand_to_a_neighbouring_town_builds_just_the_town() {
    let mut t = Table::standard();
    t.play("ann: build GSW G11");
    t.play("bob: build WLW Shannon");
    assert_eq!(t.last_build_costs(), [("K3", 2)]);
}

/// ann holds two GSW shares (£4, £9) and cat one (£14); they build GSW from Dublin to Belfast
/// and Galway; the last command, ann's, reaches Galway.
fn gsw_reaches_the_three_major_cities() -> Table {
    let mut t = Table::new(&["ann", "bob", "cat"]);
    t.initial_auctions(&[("ann", 0), ("bob", 5), ("bob", 8), ("ann", 4), ("ann", 0)]);
    t.play_all(
        "ann: auction GSW
         cat: pass
         bob: build WLW K4
         cat: auction GSW",
    );
    assert_eq!(t.shares("ann")[1], (Gsw, vec![4, 9]));
    assert_eq!(t.shares("cat"), [(Gsw, vec![14])]);
    assert_eq!((t.cash("ann"), t.cash("cat")), (7, 6));
    t.play_all(
        "ann: build GSW G11 Drogheda E11
         bob: build WLW J4
         cat: build GSW D11 C11 H10
         ann: build GSW Belfast H9
         bob: build WLW J5
         cat: build GSW H8 Tullamore H6",
    );
    // Belfast, where BCD is, cost 1.5.
    assert!(events_of(&t.log, |e| matches!(e, Event::MajorCityDividend { .. })).is_empty());
    t.play("ann: build GSW H5 H4 Galway");
    t
}

#[test]
fn ruling_15_major_city_dividend_when_a_railway_has_track_in_belfast_dublin_and_galway() {
    let t = gsw_reaches_the_three_major_cities();
    let payouts: Vec<(usize, u32, u32)> = t
        .last
        .iter()
        .find_map(|e| match e {
            Event::MajorCityDividend {
                railway: Gsw,
                per_share,
                payouts,
            } => {
                assert_eq!(*per_share, 4);
                Some(
                    payouts
                        .iter()
                        .map(|p| (p.player, p.shares, p.amount))
                        .collect(),
                )
            }
            _ => None,
        })
        .expect("GSW pays the Major City Dividend");
    assert_eq!(payouts, [(t.seat("ann"), 2, 8), (t.seat("cat"), 1, 4)]);
    assert_eq!((t.cash("ann"), t.cash("cat")), (15, 10));
    assert!(t.game.railway(Gsw).major_bonus_paid);
}

#[test]
fn ruling_15_per_share_is_twelve_over_the_shares_owned_by_players_rounded_up() {
    let t = gsw_reaches_the_three_major_cities();
    // GSW has 4 shares, 3 of them owned: £4 a share, not £3.
    assert_eq!(t.game.available_shares(Gsw), [18]);
    assert!(t
        .last
        .iter()
        .any(|e| matches!(e, Event::MajorCityDividend { per_share: 4, .. })));
}

#[test]
fn ruling_15_major_city_dividend_is_paid_once_per_railway() {
    let mut t = gsw_reaches_the_three_major_cities();
    t.play_all("bob: build WLW J3\ncat: build GSW I10");
    assert!(!t
        .last
        .iter()
        .any(|e| matches!(e, Event::MajorCityDividend { .. })));
    assert_eq!((t.cash("ann"), t.cash("cat")), (15, 10));
    assert_eq!(
        events_of(&t.log, |e| matches!(e, Event::MajorCityDividend { .. })).len(),
        1
    );
}

// =================================================================== Place a Special Interest

#[test]
fn ruling_16_a_special_interest_turns_a_connected_town_into_a_city() {
    let mut t = Table::standard();
    t.play_all(
        "ann: build GSW G11
         bob: build WLW Shannon
         cat: build BCD B11
         ann: build GSW H10",
    );
    let before = t.game.supply();
    assert!(t.game.is_town(hex("Shannon")));
    t.play("bob: interest Shannon pink");
    assert!(t.last.contains(&Event::SpecialInterestPlaced {
        player: t.seat("bob"),
        town: hex("Shannon"),
        colour: Pink
    }));
    assert_eq!(t.game.cube(hex("Shannon")), Some(Pink));
    assert!(!t.game.is_town(hex("Shannon")));
    assert_eq!(t.game.supply().pink, before.pink - 1);
    assert_eq!(t.game.cities().count(), 9);
    assert_eq!(turn_began(&t.last), Some((t.seat("cat"), 6)));
}

#[test]
fn ruling_16_the_player_chooses_the_colour_of_the_cube() {
    let mut t = Table::standard();
    t.play_all(
        "ann: build GSW G11 Drogheda
         bob: build WLW Shannon
         cat: build BCD B11",
    );
    t.play("ann: interest Drogheda black");
    assert_eq!(t.game.cube(hex("Drogheda")), Some(Black));
    t.play("bob: interest Shannon white");
    assert_eq!(t.game.cube(hex("Shannon")), Some(White));
}

#[test]
fn ruling_16_a_hex_that_is_not_urban_is_refused() {
    let mut t = Table::standard();
    t.play_all(
        "ann: build GSW G11
         bob: build WLW K4
         cat: build BCD B11
         ann: build GSW H10",
    );
    t.refused(
        "bob: interest K4 pink",
        Rule::SpecialInterest,
        "K4 is not a town",
    );
}

#[test]
fn ruling_16_a_city_is_refused() {
    let mut t = Table::standard();
    t.refused(
        "ann: interest Cork pink",
        Rule::SpecialInterest,
        "Cork (O4) is already a city with a white cube",
    );
}

#[test]
fn ruling_16_a_town_made_a_city_takes_no_second_cube() {
    let mut t = Table::standard();
    t.play_all(
        "ann: build GSW G11 Drogheda
         bob: build WLW K4
         cat: build BCD B11
         ann: interest Drogheda pink
         bob: build WLW J4
         cat: build BCD C11",
    );
    t.refused(
        "ann: interest Drogheda black",
        Rule::SpecialInterest,
        "already a city with a pink cube",
    );
}

#[test]
fn ruling_16_the_town_must_have_track_of_a_railway_the_player_holds() {
    let mut t = Table::standard();
    t.play_all(
        "ann: build GSW G11
         bob: build WLW Shannon
         cat: build BCD B11",
    );
    t.refused(
        "ann: interest Shannon pink",
        Rule::SpecialInterest,
        "no railway in which ann owns a share has track in Shannon (K3)",
    );
}

#[test]
fn ruling_16_a_town_without_track_is_refused() {
    let mut t = Table::standard();
    t.refused(
        "ann: interest Sligo pink",
        Rule::SpecialInterest,
        "has track in Sligo (D4)",
    );
}

#[test]
fn ruling_16_the_colour_must_still_be_in_the_supply() {
    let mut t = Table::standard_with_cities(FOUR_WHITE_CITIES);
    assert_eq!(t.game.supply().white, 6);
    t.play_all(
        "ann: dividends
         draw: white white white
         bob: build WLW Shannon
         cat: dividends
         draw: white white white
         ann: build GSW G11",
    );
    assert_eq!(t.game.supply().white, 0);
    t.refused(
        "bob: interest Shannon white",
        Rule::SpecialInterest,
        "no white cube is left in the supply",
    );
    t.play("bob: interest Shannon pink");
}

#[test]
fn ruling_16_a_town_made_a_city_counts_only_as_a_city() {
    let mut t = Table::standard();
    t.play_all(
        "ann: build GSW G11
         bob: build WLW Shannon
         cat: dividends
         draw: white pink pink",
    );
    // Limerick (white) and the town Shannon: £6.
    assert_eq!(t.dividend(Wlw).0, 6);
    t.play_all(
        "ann: build GSW H10
         bob: interest Shannon black
         cat: dividends
         draw: white pink pink",
    );
    // Shannon is a black city now, not a town: Limerick alone does not pay.
    assert_eq!(t.dividend(Wlw).0, 0);
    t.play_all(
        "ann: dividends
         draw: white black pink",
    );
    // Two paying cities: £8.
    assert_eq!(t.dividend(Wlw).0, 8);
}

// ========================================================================== Call for Dividends

#[test]
fn ruling_17_three_cubes_are_drawn() {
    let mut t = Table::standard();
    t.play("ann: dividends");
    assert!(t.last.contains(&Event::DividendsCalled {
        player: t.seat("ann"),
        count: 3
    }));
    assert_eq!(t.game.to_act(), Actor::Dice);
    let request = t.game.pending_draw().expect("a draw is pending");
    assert_eq!(request.count, 3);
}

#[test]
fn ruling_17_drawn_cubes_leave_the_game() {
    let mut t = Table::standard();
    t.play_all("ann: dividends\ndraw: white pink black");
    let supply = t.game.supply();
    assert_eq!((supply.white, supply.pink, supply.black), (6, 7, 6));
    assert_eq!(t.game.draws(), [vec![White, Pink, Black]]);
    assert_eq!(t.game.cities().count(), 8);
}

#[test]
fn ruling_17_fewer_than_three_cubes_left_are_all_drawn() {
    let mut t = Table::standard();
    for name in ["ann", "bob", "cat", "ann", "bob", "cat", "ann"] {
        t.play(&format!("{name}: dividends"));
        t.draw_any();
    }
    assert_eq!(t.game.supply().total(), 1);
    t.play("bob: dividends");
    assert!(t.last.contains(&Event::DividendsCalled {
        player: t.seat("bob"),
        count: 1
    }));
    t.refused_draw("black black black", "exactly 1 cubes");
}

#[test]
fn ruling_17_two_cubes_left_are_both_drawn() {
    let mut t = Table::standard();
    t.play_all(
        "ann: build GSW G11 Drogheda
         bob: build WLW Shannon
         cat: dividends
         draw: white white white
         ann: interest Drogheda pink
         bob: interest Shannon pink",
    );
    // 22 - 3 - 2 = 17: five more calls leave 2.
    for name in ["cat", "ann", "bob", "cat", "ann"] {
        t.play(&format!("{name}: dividends"));
        t.draw_any();
    }
    assert_eq!(t.game.supply().total(), 2);
    t.play("bob: dividends");
    assert_eq!(t.game.pending_draw().map(|r| r.count), Some(2));
}

/// ann holds WLW £5 and £10, cat WLW £15; WLW runs Limerick (white) - L5 - L6 - L7 -
/// Kilkenny (white) - New Ross (town) - Waterford (pink). ann has just called for dividends.
fn wlw_three_shares_three_cities_and_a_town() -> Table {
    let mut t = Table::new(&["ann", "bob", "cat"]);
    t.initial_auctions(&[("ann", 0), ("ann", 5), ("bob", 8), ("cat", 4), ("cat", 0)]);
    t.play_all(
        "ann: auction WLW
         bob: pass
         cat: pass
         bob: build BCD B11
         cat: auction WLW
         ann: build WLW L5 L6 L7
         bob: build BCD C11
         cat: build WLW Kilkenny New Ross Waterford
         ann: dividends",
    );
    assert_eq!(t.shares("ann")[1], (Wlw, vec![5, 10]));
    assert_eq!(t.shares("cat")[0], (Wlw, vec![15]));
    assert_eq!((t.cash("ann"), t.cash("cat")), (5, 1));
    t
}

fn fourteen_pounds_over_three_wlw_shares() -> Table {
    let mut t = wlw_three_shares_three_cities_and_a_town();
    t.draw("white pink pink");
    t
}

#[test]
fn ruling_18_fourteen_pounds_over_three_shares_pays_five_a_share() {
    let t = fourteen_pounds_over_three_wlw_shares();
    let (income, per_share, payouts) = t.dividend(Wlw);
    assert_eq!(income, 14, "3 paying cities × £4 + 1 town × £2");
    assert_eq!(per_share, 5);
    assert_eq!(payouts, [("ann".to_string(), 10), ("cat".to_string(), 5)]);
    assert_eq!((t.cash("ann"), t.cash("cat")), (15, 6));
}

#[test]
fn ruling_18_cities_whose_colour_was_not_drawn_do_not_pay() {
    let mut t = wlw_three_shares_three_cities_and_a_town();
    t.draw("white black black");
    // Waterford (pink) does not pay: 2 × £4 + £2 = £10 over 3 shares, £4 a share.
    let (income, per_share, payouts) = t.dividend(Wlw);
    assert_eq!((income, per_share), (10, 4));
    assert_eq!(payouts, [("ann".to_string(), 8), ("cat".to_string(), 4)]);
    let cities: Vec<&str> = t
        .last
        .iter()
        .find_map(|e| match e {
            Event::Dividend {
                railway: Wlw,
                paying_cities,
                ..
            } => Some(paying_cities.iter().map(|h| h.display_name()).collect()),
            _ => None,
        })
        .expect("WLW dividend");
    assert_eq!(cities, ["Limerick", "Kilkenny"]);
}

#[test]
fn ruling_18_two_paying_cities_pay_without_a_town() {
    let mut t = Table::standard();
    t.play_all(
        "ann: build GSW G11
         bob: build WLW L5 L6 L7
         cat: build BCD B11
         ann: build GSW H10
         bob: build WLW Kilkenny
         cat: dividends
         draw: white pink pink",
    );
    assert_eq!(t.dividend(Wlw), (8, 8, vec![("bob".to_string(), 8)]));
    assert_eq!(t.cash("bob"), 17);
}

#[test]
fn ruling_18_one_paying_city_and_one_town_pay() {
    let mut t = Table::standard();
    t.play_all(
        "ann: build GSW G11
         bob: build WLW Shannon
         cat: dividends
         draw: white pink black",
    );
    assert_eq!(t.dividend(Wlw), (6, 6, vec![("bob".to_string(), 6)]));
}

#[test]
fn ruling_18_one_paying_city_without_a_town_does_not_pay() {
    let mut t = Table::standard();
    t.play_all("ann: dividends\ndraw: white pink black");
    // Every railway has its paying starting city and nothing else.
    for railway in Railway::ALL {
        assert_eq!(t.dividend(railway), (0, 0, vec![]), "{railway}");
    }
    assert_eq!(
        (t.cash("ann"), t.cash("bob"), t.cash("cat")),
        (9, 9, 12),
        "nobody is paid"
    );
}

#[test]
fn ruling_18_no_paying_city_does_not_pay_even_with_towns() {
    let mut t = Table::standard();
    t.play_all(
        "ann: build GSW G11 Drogheda
         bob: build WLW Shannon
         cat: build BCD B11
         ann: build GSW I11 Wicklow
         bob: dividends
         draw: white white pink",
    );
    let towns = t
        .last
        .iter()
        .find_map(|e| match e {
            Event::Dividend {
                railway: Gsw,
                towns,
                ..
            } => Some(towns.len()),
            _ => None,
        })
        .expect("GSW dividend");
    assert_eq!(towns, 2);
    // Dublin (black) does not pay: two towns alone earn nothing.
    assert_eq!(t.dividend(Gsw), (0, 0, vec![]));
}

#[test]
fn ruling_18_a_colour_drawn_twice_pays_once() {
    let mut t = Table::standard();
    t.play_all(
        "ann: build GSW G11
         bob: build WLW Shannon
         cat: dividends
         draw: white white white",
    );
    assert_eq!(t.dividend(Wlw).0, 6);
}

#[test]
fn ruling_18_major_cities_count_as_cities() {
    let mut t = Table::standard();
    t.play_all(
        "ann: build GSW G11 Drogheda
         bob: dividends
         draw: black pink pink",
    );
    // Dublin (black) and the town Drogheda.
    assert_eq!(t.dividend(Gsw), (6, 6, vec![("ann".to_string(), 6)]));
    // MGW, also in Dublin but with no town, does not pay.
    assert_eq!(t.dividend(Mgw).0, 0);
}

#[test]
fn ruling_18_railways_pay_in_the_order_cbsc_wlw_bcd_gsw_mgw() {
    let mut t = Table::standard();
    t.play_all("ann: dividends\ndraw: black white pink");
    let order: Vec<Railway> = t
        .last
        .iter()
        .filter_map(|e| match e {
            Event::Dividend { railway, .. } => Some(*railway),
            _ => None,
        })
        .collect();
    assert_eq!(order, [Cbsc, Wlw, Bcd, Gsw, Mgw]);
    assert!(matches!(t.last[0], Event::CubesDrawn { .. }));
}

// ====================================================================== Cubes and the end

#[test]
fn ruling_19_thirty_cubes_eight_on_cities_and_twenty_two_in_the_supply() {
    let t = Table::new(&["ann", "bob", "cat"]);
    assert_eq!(t.game.supply().total(), 22);
    assert_eq!(t.game.cities().count(), 8);
    for colour in Colour::ALL {
        let on_cities = t.game.cities().filter(|(_, c)| *c == colour).count() as u8;
        assert_eq!(t.game.supply().get(colour) + on_cities, 10, "{colour}");
    }
}

#[test]
fn ruling_19_the_forum_roll_5_2_3_11_4_7_9_12() {
    let t = Table::new(&["ann", "bob", "cat"]);
    let colour = |name: &str| t.game.cube(hex(name));
    assert_eq!(colour("Galway"), Some(Pink));
    for city in ["Limerick", "Cork", "Kilkenny"] {
        assert_eq!(colour(city), Some(White), "{city}");
    }
    assert_eq!(colour("Waterford"), Some(Pink));
    for city in ["Derry", "Belfast", "Dublin"] {
        assert_eq!(colour(city), Some(Black), "{city}");
    }
}

#[test]
fn ruling_19_cubes_are_conserved_through_interests_and_draws() {
    let mut t = Table::standard();
    t.play_all(
        "ann: build GSW G11 Drogheda
         bob: build WLW Shannon
         cat: dividends
         draw: black black pink
         ann: interest Drogheda white
         bob: dividends
         draw: white pink white",
    );
    for colour in Colour::ALL {
        let on_cities = t.game.cities().filter(|(_, c)| *c == colour).count();
        let drawn = t
            .game
            .draws()
            .iter()
            .flatten()
            .filter(|&&c| c == colour)
            .count();
        assert_eq!(
            t.game.supply().get(colour) as usize + on_cities + drawn,
            10,
            "{colour}"
        );
    }
}

#[test]
fn ruling_20_the_supply_is_public() {
    let mut t = Table::standard();
    let shown = t.game.supply().to_string();
    assert_eq!(shown, "7 white, 8 pink, 7 black");
    t.play("ann: dividends");
    // Also while a draw is pending, the request shows the supply.
    assert_eq!(
        t.game.legal_actions(),
        LegalActions::Draw(irish_gauge::DrawRequest {
            count: 3,
            supply: t.game.supply()
        })
    );
}

/// The standard table after seven dividend calls (ann, bob, cat, …, ann; bob built Shannon on
/// his first turn instead): one cube is left and it is bob's turn.
fn one_cube_left() -> Table {
    let mut t = Table::standard();
    t.play("ann: dividends");
    t.draw_any();
    t.play("bob: build WLW Shannon");
    for name in ["cat", "ann", "bob", "cat", "ann"] {
        t.play(&format!("{name}: dividends"));
        t.draw_any();
    }
    assert_eq!(t.game.supply().total(), 4);
    t.play("bob: dividends");
    t.draw_any();
    assert_eq!(t.game.supply().total(), 1);
    t
}

#[test]
fn ruling_21_the_game_goes_on_while_a_cube_is_left() {
    let t = one_cube_left();
    assert!(!t.game.is_finished());
    assert_eq!(turn_began(&t.last), Some((t.seat("cat"), 9)));
    assert!(t.game.winners().is_empty());
}

#[test]
fn ruling_21_the_game_ends_after_the_dividend_call_that_empties_the_supply() {
    let mut t = one_cube_left();
    t.play("cat: dividends");
    t.draw_any();
    // The call pays in full, then the game is over: no next turn.
    assert_eq!(
        events_of(&t.last, |e| matches!(e, Event::Dividend { .. })).len(),
        5
    );
    assert!(matches!(t.last.last(), Some(Event::GameOver { .. })));
    assert_eq!(turn_began(&t.last), None);
    assert!(t.game.is_finished());
    assert_eq!(t.game.to_act(), Actor::Nobody);
    t.refused("ann: dividends", Rule::GameOver, "the game is over");
}

#[test]
fn ruling_21_the_game_ends_after_the_special_interest_that_empties_the_supply() {
    let mut t = one_cube_left();
    let last = Colour::ALL
        .into_iter()
        .find(|&c| t.game.supply().get(c) == 1)
        .expect("one cube");
    t.play_all("cat: build BCD B11\nann: build GSW G11");
    assert!(!t.game.is_finished());
    t.play(&format!("bob: interest Shannon {last}"));
    assert!(matches!(
        t.last.as_slice(),
        [Event::SpecialInterestPlaced { .. }, Event::GameOver { .. }]
    ));
    assert!(t.game.is_finished());
    t.refused("cat: build BCD C11", Rule::GameOver, "the game is over");
}

#[test]
fn ruling_21_score_is_cash_plus_face_values_of_shares_held() {
    let mut t = one_cube_left();
    t.play("cat: dividends");
    t.draw_any();
    let (scores, _) = game_over(&t.last).expect("game over");
    for name in ["ann", "bob", "cat"] {
        let faces: u32 = t.shares(name).iter().flat_map(|(_, v)| v).sum();
        assert_eq!(scores[t.seat(name)], t.cash(name) + faces, "{name}");
        assert_eq!(t.game.score(t.seat(name)), t.cash(name) + faces, "{name}");
    }
    // bob: £9 + dividends of WLW (Limerick white + Shannon) + WLW 5 + MGW 6.
    assert!(scores[t.seat("bob")] > 20);
}

#[test]
fn ruling_21_equal_top_scores_share_the_win() {
    let mut t = Table::new(&["ann", "bob", "cat"]);
    // cat pays £9 for the £8 BCD share; everyone else pays face value.
    t.initial_auctions(&[("ann", 7), ("bob", 5), ("cat", 9), ("ann", 4), ("bob", 6)]);
    // Nobody builds, so no railway ever pays; eight calls empty the supply of 22.
    for name in ["ann", "bob", "cat", "ann", "bob", "cat", "ann"] {
        t.play(&format!("{name}: dividends"));
        t.draw_any();
        assert!(!t.game.is_finished());
    }
    t.play("bob: dividends");
    t.draw_any();
    let (scores, winners) = game_over(&t.last).expect("game over");
    assert_eq!(scores, [20, 20, 19]);
    assert_eq!(winners, [t.seat("ann"), t.seat("bob")]);
    assert_eq!(t.game.winners(), winners);
}

#[test]
fn ruling_26_score_is_cash_plus_face_values_also_before_the_end() {
    let t = Table::standard();
    // ann: £9, CBSC 7, GSW 4; cat: £12, BCD 8.
    assert_eq!(t.game.score(t.seat("ann")), 20);
    assert_eq!(t.game.score(t.seat("cat")), 20);
    assert!(t.game.winners().is_empty(), "no winners before the end");
}

#[test]
fn ruling_22_three_to_five_players() {
    let names = ["a", "b", "c", "d", "e", "f"];
    for count in 3..=5 {
        assert!(
            Game::new(&setup(&names[..count], FORUM_CITIES)).is_ok(),
            "{count}"
        );
    }
}

#[test]
fn ruling_22_two_players_are_too_few() {
    let refused = Game::new(&setup(&["a", "b"], FORUM_CITIES)).expect_err("too few");
    assert_eq!(refused, SetupError::PlayerCount { count: 2 });
    assert!(refused.to_string().contains("ruling 22"));
}

#[test]
fn ruling_22_six_players_are_too_many() {
    let names = ["a", "b", "c", "d", "e", "f"];
    assert_eq!(
        Game::new(&setup(&names, FORUM_CITIES)),
        Err(SetupError::PlayerCount { count: 6 })
    );
}

// ================================================================================ Manual rolls

fn forum_signups(order: Vec<u8>, cities: [u8; 8]) -> Setup {
    Setup {
        players: ["discrider", "Daemonis", "JPants", "38thDoe"]
            .map(String::from)
            .to_vec(),
        order,
        cities,
    }
}

#[test]
fn ruling_23_the_order_roll_lists_the_sign_up_number_of_each_seat() {
    let game = Game::new(&forum_signups(vec![3, 1, 2, 4], FORUM_CITIES)).expect("valid");
    let seats: Vec<&str> = game.players().iter().map(|p| p.name.as_str()).collect();
    assert_eq!(seats, ["JPants", "discrider", "Daemonis", "38thDoe"]);
    assert_eq!(game.seat_of("jpants"), Some(0));
}

#[test]
fn ruling_23_an_order_roll_that_is_not_every_sign_up_number_once_is_refused() {
    for order in [
        vec![3, 1, 1, 4],
        vec![3, 1, 2, 5],
        vec![0, 1, 2, 3],
        vec![3, 1, 2],
    ] {
        assert!(
            matches!(
                Game::new(&forum_signups(order.clone(), FORUM_CITIES)),
                Err(SetupError::PlayerOrder { .. })
            ),
            "{order:?}"
        );
    }
}

#[test]
fn ruling_24_the_city_roll_is_for_galway_limerick_cork_derry_kilkenny_waterford_belfast_dublin() {
    let setup = forum_signups(vec![1, 2, 3, 4], [1, 5, 9, 2, 6, 10, 3, 7]);
    let game = Game::new(&setup).expect("valid");
    let cubes: Vec<(&str, Colour)> = [
        "Galway",
        "Limerick",
        "Cork",
        "Derry",
        "Kilkenny",
        "Waterford",
        "Belfast",
        "Dublin",
    ]
    .into_iter()
    .map(|name| (name, game.cube(hex(name)).expect("a city")))
    .collect();
    assert_eq!(
        cubes,
        [
            ("Galway", White),
            ("Limerick", Pink),
            ("Cork", Black),
            ("Derry", White),
            ("Kilkenny", Pink),
            ("Waterford", Black),
            ("Belfast", White),
            ("Dublin", Pink),
        ]
    );
    assert_eq!(setup.city_colours().expect("valid")[0], ("Galway", White));
}

#[test]
fn ruling_24_one_to_four_white_five_to_eight_pink_nine_to_twelve_black() {
    let colours: Vec<Option<Colour>> = (0..=13).map(Colour::of_setup_number).collect();
    assert_eq!(colours[0], None);
    assert!(colours[1..=4].iter().all(|c| *c == Some(White)));
    assert!(colours[5..=8].iter().all(|c| *c == Some(Pink)));
    assert!(colours[9..=12].iter().all(|c| *c == Some(Black)));
    assert_eq!(colours[13], None);
    let game = Game::new(&forum_signups(vec![1, 2, 3, 4], [4, 5, 8, 9, 12, 1, 6, 11])).unwrap();
    assert_eq!(game.cube(hex("Galway")), Some(White));
    assert_eq!(game.cube(hex("Limerick")), Some(Pink));
    assert_eq!(game.cube(hex("Cork")), Some(Pink));
    assert_eq!(game.cube(hex("Derry")), Some(Black));
    assert_eq!(game.cube(hex("Kilkenny")), Some(Black));
}

#[test]
fn ruling_24_a_city_roll_not_of_eight_distinct_numbers_from_1_to_12_is_refused() {
    for cities in [
        [5, 2, 3, 11, 4, 7, 9, 5],
        [5, 2, 3, 11, 4, 7, 9, 13],
        [0, 2, 3, 11, 4, 7, 9, 12],
    ] {
        let refused = Game::new(&forum_signups(vec![3, 1, 2, 4], cities)).expect_err("bad roll");
        assert!(
            matches!(refused, SetupError::CityCubes { .. }),
            "{cities:?}: {refused}"
        );
        assert!(refused.to_string().contains("ruling 24"));
    }
}

#[test]
fn ruling_25_a_manual_draw_has_exactly_as_many_cubes_as_asked() {
    let mut t = Table::standard();
    t.play("ann: dividends");
    t.refused_draw("white pink", "exactly 3 cubes must be drawn, not 2");
    t.refused_draw(
        "white pink black white",
        "exactly 3 cubes must be drawn, not 4",
    );
    t.draw("white pink black");
}

#[test]
fn ruling_25_a_manual_draw_must_be_possible_from_the_supply() {
    let mut t = Table::standard_with_cities(FOUR_WHITE_CITIES);
    t.play_all(
        "ann: dividends
         draw: white white white
         bob: dividends
         draw: white white pink",
    );
    assert_eq!(t.game.supply().white, 1);
    t.play("cat: dividends");
    t.refused_draw(
        "white white black",
        "cannot be drawn from a supply of 1 white",
    );
    t.draw("white black black");
}

#[test]
fn ruling_25_a_manual_draw_is_recorded_in_the_order_given() {
    let mut t = Table::standard();
    t.play_all("ann: dividends\ndraw: pink black white");
    assert_eq!(
        t.last[0],
        Event::CubesDrawn {
            cubes: vec![Pink, Black, White]
        }
    );
    assert_eq!(t.game.draws().last(), Some(&vec![Pink, Black, White]));
}

#[test]
fn ruling_25_player_commands_are_refused_while_a_draw_is_pending() {
    let mut t = Table::standard();
    t.play("ann: dividends");
    t.refused("bob: build WLW K4", Rule::Draw, "must be drawn");
    t.refused("ann: dividends", Rule::Draw, "must be drawn");
    t.draw("white pink black");
    t.play("bob: build WLW K4");
}

#[test]
fn ruling_25_a_draw_with_none_pending_is_refused() {
    let mut t = Table::standard();
    t.refused_draw("white pink black", "no draw is pending");
}
