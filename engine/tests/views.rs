//! What each seat, and a spectator, is shown.

use hexpost_engine::Redact;
use hexpost_engine::testkit::{Scenario, corner, hex};
use hexpost_engine::{Action, DevCard, Event, ResourceCounts, Seat, topology_view};

#[test]
fn own_hand_in_full_opponent_as_counts_spectator_neither() {
    let mut s = Scenario::standard();
    s.give(Seat(0), ResourceCounts::new(1, 2, 0, 0, 3))
        .give(Seat(1), ResourceCounts::new(0, 0, 4, 0, 0))
        .dev_card(Seat(1), DevCard::VictoryPoint, false)
        .dev_card(Seat(1), DevCard::Knight, true);
    let v0 = s.state.view(Some(Seat(0)));
    assert_eq!(
        v0.you.as_ref().unwrap().resources,
        ResourceCounts::new(1, 2, 0, 0, 3)
    );
    assert_eq!(v0.players[1].resource_count, 4);
    assert_eq!(v0.players[1].dev_card_count, 2);
    assert_eq!(v0.players[1].visible_vp, 0);
    assert_eq!(v0.players[1].final_vp, None);
    let v1 = s.state.view(Some(Seat(1)));
    let mine = v1.you.unwrap();
    assert_eq!(mine.dev_cards[DevCard::VictoryPoint], 1);
    assert_eq!(mine.new_dev_cards[DevCard::Knight], 1);
    assert_eq!(mine.total_vp, 1);
    let spectator = s.state.view(None);
    assert!(spectator.you.is_none());
    let json = serde_json::to_string(&spectator).unwrap();
    for hidden in ["victory_point\":1", "\"dev_deck\"", "\"rng\"", "\"hand\""] {
        assert!(!json.contains(hidden), "spectator view contains {hidden}");
    }
    assert_eq!(spectator.bank_total, 95 - 10);
    assert_eq!(spectator.dev_deck_remaining, 23);
}

#[test]
fn stolen_card_and_bought_card_are_redacted_for_others() {
    let mut s = Scenario::standard();
    let h = hex(0, -1);
    s.settlement(Seat(1), corner(h, 0))
        .give(Seat(1), ResourceCounts::new(0, 0, 0, 1, 0))
        .give(Seat(0), ResourceCounts::new(0, 0, 1, 1, 1))
        .dev_card(Seat(0), DevCard::Knight, false);
    let events = s.ok(
        Seat(0),
        Action::PlayKnight {
            hex: h,
            victim: Some(Seat(1)),
        },
    );
    let stole = events
        .iter()
        .find(|e| matches!(e, Event::Stole { .. }))
        .unwrap();
    let full = Event::Stole {
        thief: Seat(0),
        victim: Seat(1),
        resource: Some(hexpost_engine::Resource::Grain),
    };
    assert_eq!(stole, &full);
    assert_eq!(stole.redacted_for(Some(Seat(0))), full);
    assert_eq!(stole.redacted_for(Some(Seat(1))), full);
    assert_eq!(
        stole.redacted_for(None),
        Event::Stole {
            thief: Seat(0),
            victim: Seat(1),
            resource: None
        }
    );
    s.state.phases = vec![hexpost_engine::Phase::Main];
    let events = s.ok(Seat(0), Action::BuyDevelopmentCard);
    let bought = &events[0];
    assert!(matches!(bought, Event::DevCardBought { card: Some(_), .. }));
    assert_eq!(
        bought.redacted_for(Some(Seat(1))),
        Event::DevCardBought {
            seat: Seat(0),
            card: None
        }
    );
}

#[test]
fn published_topology_has_every_id_with_coordinates() {
    let t = topology_view();
    let json = serde_json::to_value(&t).unwrap();
    assert_eq!(json["hexes"].as_array().unwrap().len(), 19);
    assert_eq!(json["nodes"].as_array().unwrap().len(), 54);
    assert_eq!(json["edges"].as_array().unwrap().len(), 72);
    assert_eq!(json["harbor_edges"].as_array().unwrap().len(), 9);
    let n0 = &json["nodes"][0];
    assert!(n0["x"].is_i64() && n0["y"].is_i64() && n0["hexes"].is_array());
    let e0 = &json["edges"][0];
    assert_eq!(e0["nodes"].as_array().unwrap().len(), 2);
    let h9 = &json["hexes"][9];
    assert_eq!((h9["q"].as_i64(), h9["r"].as_i64()), (Some(0), Some(0)));
    assert_eq!(h9["nodes"].as_array().unwrap().len(), 6);
}
