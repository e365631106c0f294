//! ck_for_two (RULES.md §6.16 "Hidden information"): progress cards in
//! hand and the kinds of cards in a hand are hidden; the counts of 6.16 are
//! public; drawn cards, and the hands shown by the Spy and the Master
//! Merchant, reach their one player; cards moved between the players by a
//! card reach the two. Proven as for the other variants: every hidden fact
//! changed, no view or legal list moves.

use crate::common::ck::*;
use crate::common::{S0, S1};
use hexpost_engine::cards::{ProgressCard as C, Track};
use hexpost_engine::invariants::{check_events_redacted, check_view_hides};
use hexpost_engine::rulesets::VariantState;
use hexpost_engine::rulesets::ck_for_two::wire::ProgressPlay as P;
use hexpost_engine::rulesets::ck_for_two::{CkState, HandCounts};
use hexpost_engine::testkit::Scenario;
use hexpost_engine::{Event, Redact, Seat};

fn view_state(s: &Scenario, viewer: Option<Seat>) -> CkState {
    match s.state.view(viewer).variant {
        VariantState::CkForTwo(c) => *c,
        other => panic!("{other:?}"),
    }
}

fn hides(s: &Scenario) {
    for viewer in [S0, S1] {
        for salt in 0..8 {
            if let Err(e) = check_view_hides(&s.state, viewer, salt) {
                panic!("{e}");
            }
        }
    }
}

fn with_hands() -> Scenario {
    let mut s = main_phase();
    s.progress(S0, C::Spy)
        .progress(S1, C::Warlord)
        .progress(S1, C::Merchant)
        .give(S0, cards([1, 0, 2, 0, 0, 1, 0, 0]))
        .give(S1, cards([0, 3, 0, 0, 1, 0, 2, 1]));
    s
}

#[test]
fn views_show_ones_own_progress_cards_and_only_the_count_of_the_opponents() {
    let s = with_hands();
    let mine = view_state(&s, Some(S0));
    assert_eq!(mine.players[0].progress.cards.map(|c| c[C::Spy]), Some(1));
    assert_eq!(mine.players[1].progress.count, 2);
    assert_eq!(mine.players[1].progress.cards, None);
    let theirs = view_state(&s, Some(S1));
    assert_eq!(theirs.players[0].progress.cards, None);
    assert_eq!(theirs.players[1].progress.count, 2);
    let spectator = view_state(&s, None);
    assert!(spectator.players.iter().all(|p| p.progress.cards.is_none()));
    let json = serde_json::to_string(&s.state.view(Some(S0))).unwrap();
    assert!(!json.contains("warlord") && !json.contains("\"merchant\":1"));
}

#[test]
fn views_show_deck_sizes_never_deck_cards() {
    let s = with_hands();
    for viewer in [Some(S0), Some(S1), None] {
        let v = view_state(&s, viewer);
        for t in Track::ALL {
            assert_eq!(v.decks[t.index()].cards, None);
        }
        assert_eq!(v.decks[Track::Politics.index()].size, 16);
        assert_eq!(v.decks[Track::Trade.index()].size, 17);
        assert_eq!(v.decks[Track::Science.index()].size, 18);
    }
}

#[test]
fn views_show_each_players_resource_and_commodity_card_counts() {
    let s = with_hands();
    for viewer in [Some(S0), Some(S1), None] {
        assert_eq!(
            view_state(&s, viewer).hand_counts,
            Some([
                HandCounts {
                    resources: 3,
                    commodities: 1
                },
                HandCounts {
                    resources: 4,
                    commodities: 3
                }
            ])
        );
    }
    let view = s.state.view(Some(S0));
    assert_eq!(view.players[1].resource_count, 7, "all cards in hand");
    assert_eq!(view.you.unwrap().resources, cards([1, 0, 2, 0, 0, 1, 0, 0]));
}

#[test]
fn changing_every_hidden_fact_changes_no_view_and_no_legal_list() {
    let mut s = with_hands();
    s.knight(S0, 31, BASIC, true);
    hides(&s);
    // While the Spy's player picks from the hand shown to them.
    let mut spy = s.clone();
    play(&mut spy, S0, P::Spy);
    hides(&spy);
    // While the Master Merchant's player picks.
    let mut mm = s.clone();
    mm.settlement(S1, 44).progress(S0, C::MasterMerchant);
    play(&mut mm, S0, P::MasterMerchant);
    hides(&mm);
    // While the opponent owes cards of their choice.
    let mut wedding = s.clone();
    wedding.settlement(S1, 44).progress(S0, C::Wedding);
    play(&mut wedding, S0, P::Wedding);
    hides(&wedding);
}

#[test]
fn a_drawn_card_is_shown_to_its_drawer_only_and_a_victory_card_to_all() {
    let mut s = game();
    s.levels(S1, [0, 0, 2]).deck_top(C::Crane);
    let ev = roll(&mut s, S0, [2, 1, SCIENCE], QUIET_12);
    let drawn = ev
        .iter()
        .find(|e| matches!(e, Event::ProgressDrawn { .. }))
        .unwrap()
        .clone();
    assert_eq!(
        drawn,
        Event::ProgressDrawn {
            seat: S1,
            track: Track::Science,
            card: Some(C::Crane)
        }
    );
    for viewer in [Some(S0), None] {
        assert_eq!(
            drawn.redacted_for(viewer),
            Event::ProgressDrawn {
                seat: S1,
                track: Track::Science,
                card: None
            }
        );
        check_events_redacted(&ev, viewer).unwrap();
    }
    let laid = Event::VictoryCardLaidDown {
        seat: S1,
        card: C::Printer,
    };
    assert_eq!(laid.redacted_for(None), laid);
}

#[test]
fn cards_moved_between_the_players_by_a_card_reach_the_two_only() {
    let mut s = with_hands();
    s.progress(S0, C::ResourceMonopoly);
    let ev = play(
        &mut s,
        S0,
        P::ResourceMonopoly {
            resource: hexpost_engine::Resource::Lumber,
        },
    );
    let taken = ev
        .iter()
        .find(|e| matches!(e, Event::CardsTaken { .. }))
        .unwrap();
    assert_eq!(taken.redacted_for(Some(S1)), *taken);
    assert_eq!(taken.redacted_for(Some(S0)), *taken);
    assert_eq!(
        taken.redacted_for(None),
        Event::CardsTaken {
            seat: S0,
            from: S1,
            cards: None
        }
    );
    let ev = play(&mut s, S0, P::Spy);
    check_events_redacted(&ev, None).unwrap();
    let ev = s.ok(
        S0,
        hexpost_engine::Action::SpyTake {
            card: Some(C::Merchant),
        },
    );
    let taken = &ev[0];
    assert_eq!(
        taken.redacted_for(None),
        Event::ProgressTaken {
            seat: S0,
            from: S1,
            card: None
        }
    );
    assert_eq!(taken.redacted_for(Some(S1)), *taken);
    for viewer in [Some(S0), Some(S1), None] {
        check_events_redacted(&ev, viewer).unwrap();
    }
}

#[test]
fn dice_discards_and_played_cards_are_shown_to_all() {
    let mut s = with_hands();
    s.knight(S0, 31, BASIC, false).progress(S0, C::Warlord);
    let ev = play(&mut s, S0, P::Warlord);
    for e in &ev {
        assert_eq!(&e.redacted_for(None), e, "{e:?}");
    }
    let discarded = Event::ProgressDiscarded {
        seat: S1,
        card: C::Warlord,
    };
    assert_eq!(discarded.redacted_for(Some(S0)), discarded);
}
