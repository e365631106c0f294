//! RULES.md §1 Development cards: buying, timing (one per turn, not on the
//! turn bought, knight before the roll), hidden victory points, and each
//! card's effect.
//!
//! Seat 0: settlement on node 0, road 0-4. Seat 1: settlement on node 12.
//! Both touch the mountains (hex (0,-2)).

use crate::common::*;
use hexpost_engine::Phase;
use hexpost_engine::Redact;
use hexpost_engine::actions::LegalAction;
use hexpost_engine::cards::DevCounts;
use hexpost_engine::testkit::{Scenario, edge, hex};
use hexpost_engine::{Action, ActionError, DevCard, Event, Resource};

fn base() -> Scenario {
    let mut s = Scenario::standard();
    s.settlement(S0, 0)
        .road(S0, edge(0, 4))
        .settlement(S1, 12)
        .main_phase(S0);
    s
}

fn knight_to(hex: u8, victim: Option<hexpost_engine::Seat>) -> Action {
    Action::PlayKnight { hex, victim }
}

fn mountains() -> u8 {
    hex(0, -2)
}

#[test]
fn buying_costs_ore_wool_grain_and_the_card_is_new() {
    let mut s = base();
    s.give(S0, rc(1, 0, 1, 1, 1));
    let top = *s.state.dev_deck().last().unwrap();
    let ev = s.ok(S0, Action::BuyDevelopmentCard);
    assert_eq!(
        ev,
        vec![Event::DevCardBought {
            seat: S0,
            card: Some(top)
        }]
    );
    assert_eq!(
        ev[0].redacted_for(Some(S1)),
        Event::DevCardBought {
            seat: S0,
            card: None
        }
    );
    assert_eq!(s.hand(S0), rc(1, 0, 0, 0, 0));
    assert_eq!(s.state.bank, bank_minus(rc(1, 0, 0, 0, 0)));
    assert_eq!(s.state.dev_deck().len(), 24);
    let p = s.state.dev_hand(S0);
    assert_eq!(p.new_cards[top], 1);
    assert_eq!(p.new_cards.total(), 1);
    assert_eq!(p.cards.total(), 0);
    // The opponent sees a count only.
    let v = s.state.view(Some(S1));
    assert_eq!(v.players[0].dev_card_count, 1);
    assert_eq!(v.dev_deck_remaining, 24);
    consistent(&s);
}

#[test]
fn buying_from_an_empty_deck_is_refused() {
    let mut s = base();
    while let Some(&c) = s.state.dev_deck().first() {
        s.dev_card(S1, c, false);
    }
    s.give(S0, rc(0, 0, 1, 1, 1));
    assert_eq!(
        s.refused(S0, Action::BuyDevelopmentCard),
        ActionError::DeckEmpty
    );
}

#[test]
fn a_card_bought_this_turn_cannot_be_played_until_the_next_turn() {
    let mut s = base();
    s.dev_card(S0, DevCard::Knight, true)
        .dev_card(S0, DevCard::Monopoly, true)
        .dev_card(S0, DevCard::YearOfPlenty, true)
        .dev_card(S0, DevCard::RoadBuilding, true);
    s.give(S1, rc(0, 0, 1, 0, 0));
    assert_eq!(
        s.refused(S0, knight_to(mountains(), Some(S1))),
        ActionError::CardBoughtThisTurn {
            card: DevCard::Knight
        }
    );
    assert_eq!(
        s.refused(
            S0,
            Action::PlayMonopoly {
                resource: Resource::Wool
            }
        ),
        ActionError::CardBoughtThisTurn {
            card: DevCard::Monopoly
        }
    );
    assert_eq!(
        s.refused(
            S0,
            Action::PlayYearOfPlenty {
                resources: vec![Resource::Ore, Resource::Ore]
            }
        ),
        ActionError::CardBoughtThisTurn {
            card: DevCard::YearOfPlenty
        }
    );
    assert_eq!(
        s.refused(S0, Action::PlayRoadBuilding),
        ActionError::CardBoughtThisTurn {
            card: DevCard::RoadBuilding
        }
    );
    // End the turn; seat 1 plays a turn; now the knight is playable, even
    // before the roll.
    s.ok(S0, Action::EndTurn);
    let p = s.state.dev_hand(S0);
    assert_eq!(p.new_cards, DevCounts::default());
    assert_eq!(p.cards[DevCard::Knight], 1);
    roll(&mut s, S1, 2);
    s.ok(S1, Action::EndTurn);
    assert_eq!(
        s.ok(S0, knight_to(mountains(), Some(S1))),
        vec![
            Event::DevCardPlayed {
                seat: S0,
                card: DevCard::Knight
            },
            Event::RobberMoved {
                seat: S0,
                hex: mountains()
            },
            Event::Stole {
                thief: S0,
                victim: S1,
                resource: Some(Resource::Wool)
            },
        ]
    );
}

#[test]
fn a_card_you_do_not_hold_cannot_be_played() {
    let mut s = base();
    assert_eq!(
        s.refused(S0, Action::PlayRoadBuilding),
        ActionError::NoSuchCard {
            card: DevCard::RoadBuilding
        }
    );
    assert_eq!(
        s.refused(S0, knight_to(mountains(), None)),
        ActionError::NoSuchCard {
            card: DevCard::Knight
        }
    );
}

#[test]
fn only_one_card_per_turn() {
    let mut s = base();
    s.dev_card(S0, DevCard::Knight, false)
        .dev_card(S0, DevCard::Knight, false)
        .dev_card(S0, DevCard::Monopoly, false);
    s.before_roll(S0);
    s.ok(S0, knight_to(hex(0, 2), None));
    assert!(s.state.dev_played_this_turn());
    // Neither before nor after the roll may a second card be played.
    assert_eq!(
        s.refused(
            S0,
            Action::PlayMonopoly {
                resource: Resource::Ore
            }
        ),
        ActionError::DevCardAlreadyPlayed
    );
    roll(&mut s, S0, 2);
    assert_eq!(
        s.refused(S0, knight_to(mountains(), None)),
        ActionError::DevCardAlreadyPlayed
    );
    assert!(!s.state.legal_actions(S0).iter().any(|a| matches!(
        a,
        LegalAction::PlayKnight { .. } | LegalAction::PlayMonopoly
    )),);
    // The next turn the limit resets.
    s.ok(S0, Action::EndTurn);
    assert!(!s.state.dev_played_this_turn());
    roll(&mut s, S1, 2);
    s.ok(S1, Action::EndTurn);
    s.ok(
        S0,
        Action::PlayMonopoly {
            resource: Resource::Ore,
        },
    );
    assert_eq!(s.state.dev_hand(S0).played[DevCard::Knight], 1);
    assert_eq!(s.state.dev_hand(S0).played[DevCard::Monopoly], 1);
}

#[test]
fn a_knight_may_be_played_before_the_roll() {
    let mut s = base();
    s.dev_card(S0, DevCard::Knight, false).before_roll(S0);
    s.give(S1, rc(0, 0, 0, 0, 2));
    // The robber must still move and a victim with cards must be named;
    // refusals keep the card.
    assert_eq!(
        s.refused(S0, knight_to(hex(0, 0), None)),
        ActionError::RobberMustMove
    );
    assert_eq!(
        s.refused(S0, knight_to(mountains(), None)),
        ActionError::VictimRequired {
            candidates: seats(&[S1])
        }
    );
    assert_eq!(
        s.ok(S0, knight_to(mountains(), Some(S1))),
        vec![
            Event::DevCardPlayed {
                seat: S0,
                card: DevCard::Knight
            },
            Event::RobberMoved {
                seat: S0,
                hex: mountains()
            },
            Event::Stole {
                thief: S0,
                victim: S1,
                resource: Some(Resource::Ore)
            },
        ]
    );
    assert_eq!(s.state.phases, vec![Phase::BeforeRoll]);
    assert_eq!(s.state.robber, mountains());
    let p = s.state.dev_hand(S0);
    assert_eq!(
        (
            p.knights_played,
            p.played[DevCard::Knight],
            p.cards[DevCard::Knight]
        ),
        (1, 1, 0)
    );
    assert_eq!(s.hand(S0), rc(0, 0, 0, 0, 1));
    assert_eq!(s.hand(S1), rc(0, 0, 0, 0, 1));
    // Then the roll; the robbed mountains (10) produce nothing.
    assert_eq!(roll(&mut s, S0, 10), vec![]);
    consistent(&s);
}

#[test]
fn only_the_active_player_plays_cards_and_not_during_pending_steps() {
    let mut s = base();
    s.dev_card(S1, DevCard::Knight, false)
        .dev_card(S0, DevCard::Knight, false);
    assert_eq!(
        s.refused(S1, knight_to(mountains(), None)),
        ActionError::NotYourDecision {
            awaiting: seats(&[S0])
        }
    );
    s.before_roll(S0);
    roll(&mut s, S0, 7);
    assert_eq!(
        s.refused(S0, knight_to(mountains(), None)),
        ActionError::WrongPhase {
            action: "play_knight",
            phase: "waiting for the robber to move"
        }
    );
}

#[test]
fn victory_point_cards_are_never_played_and_stay_hidden() {
    let mut s = base();
    s.dev_card(S0, DevCard::VictoryPoint, false).before_roll(S0);
    // No action plays it: before the roll the only choice is to roll.
    assert_eq!(s.state.legal_actions(S0), vec![LegalAction::RollDice]);
    let p = s.state.player(S0);
    assert_eq!((p.visible_vp, s.state.total_vp(S0)), (1, 2));
    assert_eq!(s.state.view(Some(S0)).you.unwrap().total_vp, 2);
    let theirs = s.state.view(Some(S1));
    assert_eq!(theirs.players[0].visible_vp, 1);
    assert_eq!(theirs.players[0].dev_card_count, 1);
    assert_eq!(theirs.players[0].final_vp, None);
    assert_eq!(theirs.you.unwrap().total_vp, 1, "seat 1's own");
    // The opponent's and a spectator's views are the same whether the card
    // is a victory point or a knight.
    let mut knight = base();
    knight.dev_card(S0, DevCard::Knight, false).before_roll(S0);
    for viewer in [Some(S1), None] {
        let a = serde_json::to_value(s.state.view(viewer)).unwrap();
        let b = serde_json::to_value(knight.state.view(viewer)).unwrap();
        assert_eq!(a, b, "view of {viewer:?}");
    }
    // It keeps counting after the turn ends and is never spent.
    roll(&mut s, S0, 2);
    s.ok(S0, Action::EndTurn);
    assert_eq!(s.state.dev_hand(S0).cards[DevCard::VictoryPoint], 1);
    assert_eq!(s.state.total_vp(S0), 2);
}

#[test]
fn a_victory_point_card_counts_on_the_turn_it_is_bought() {
    let mut s = base();
    let pos = s
        .state
        .dev_deck()
        .iter()
        .position(|&c| c == DevCard::VictoryPoint)
        .unwrap();
    let vp = s.state.dev.as_mut().unwrap().deck.remove(pos);
    s.state.dev.as_mut().unwrap().deck.push(vp);
    s.give(S0, rc(0, 0, 1, 1, 1));
    s.ok(S0, Action::BuyDevelopmentCard);
    assert_eq!(s.state.dev_hand(S0).new_cards[DevCard::VictoryPoint], 1);
    assert_eq!(s.state.total_vp(S0), 2);
    assert_eq!(s.state.player(S0).visible_vp, 1);
}

#[test]
fn road_building_places_two_free_roads_then_returns_to_the_main_phase() {
    let mut s = base();
    s.dev_card(S0, DevCard::RoadBuilding, false);
    assert_eq!(
        s.ok(S0, Action::PlayRoadBuilding),
        vec![Event::DevCardPlayed {
            seat: S0,
            card: DevCard::RoadBuilding
        }]
    );
    assert_eq!(
        *s.state.phase(),
        Phase::RoadBuilding {
            seat: S0,
            remaining: 2
        }
    );
    assert_eq!(&*s.state.awaiting(), &[S0]);
    assert_eq!(
        s.refused(S0, Action::EndTurn),
        ActionError::WrongPhase {
            action: "end_turn",
            phase: "placing free roads"
        }
    );
    assert_eq!(
        s.refused(S0, Action::BuildRoad { edge: edge(45, 49) }),
        ActionError::NotConnected
    );
    assert_eq!(
        s.ok(S0, Action::BuildRoad { edge: edge(4, 8) }),
        vec![Event::RoadBuilt {
            seat: S0,
            edge: edge(4, 8),
            free: true
        }]
    );
    assert_eq!(
        *s.state.phase(),
        Phase::RoadBuilding {
            seat: S0,
            remaining: 1
        }
    );
    s.ok(S0, Action::BuildRoad { edge: edge(8, 13) });
    assert_eq!(s.state.phases, vec![Phase::Main]);
    // Free: no cards held, none spent.
    assert_eq!(s.hand(S0), rc(0, 0, 0, 0, 0));
    assert_eq!(s.state.bank, bank_minus(rc(0, 0, 0, 0, 0)));
    assert_eq!(s.state.player(S0).roads_left, 12);
    assert_eq!(s.state.player(S0).road_length, 3);
    // Back in the main phase a road costs again.
    assert_eq!(
        s.refused(S0, Action::BuildRoad { edge: edge(13, 18) }),
        ActionError::CannotAfford {
            cost: rc(1, 1, 0, 0, 0)
        }
    );
    consistent(&s);
}

#[test]
fn road_building_before_the_roll_returns_to_before_the_roll() {
    let mut s = base();
    s.dev_card(S0, DevCard::RoadBuilding, false).before_roll(S0);
    s.ok(S0, Action::PlayRoadBuilding);
    s.ok(S0, Action::BuildRoad { edge: edge(0, 3) });
    s.ok(S0, Action::BuildRoad { edge: edge(4, 8) });
    assert_eq!(s.state.phases, vec![Phase::BeforeRoll]);
    roll(&mut s, S0, 2);
}

#[test]
fn road_building_with_one_road_left_places_one() {
    let mut s = Scenario::standard();
    s.settlement(S0, 0);
    s.road_path(S0, &[0, 4, 1, 5, 2, 6, 10, 15, 20, 26, 32, 37, 42, 46, 50]);
    s.main_phase(S0).dev_card(S0, DevCard::RoadBuilding, false);
    assert_eq!(s.state.player(S0).roads_left, 1);
    s.ok(S0, Action::PlayRoadBuilding);
    assert_eq!(
        *s.state.phase(),
        Phase::RoadBuilding {
            seat: S0,
            remaining: 1
        }
    );
    s.ok(S0, Action::BuildRoad { edge: edge(50, 53) });
    assert_eq!(s.state.phases, vec![Phase::Main]);
    assert_eq!(s.state.player(S0).roads_left, 0);
    // With no road left it cannot be played at all.
    let mut none = Scenario::standard();
    none.settlement(S0, 0);
    none.road_path(
        S0,
        &[3, 0, 4, 1, 5, 2, 6, 10, 15, 20, 26, 32, 37, 42, 46, 50],
    );
    none.main_phase(S0)
        .dev_card(S0, DevCard::RoadBuilding, false);
    assert_eq!(none.state.player(S0).roads_left, 0);
    assert_eq!(
        none.refused(S0, Action::PlayRoadBuilding),
        ActionError::NoPiecesLeft { piece: "road" }
    );
}

#[test]
fn year_of_plenty_takes_two_resources_from_the_bank() {
    let mut s = base();
    s.dev_card(S0, DevCard::YearOfPlenty, false);
    assert_eq!(
        s.refused(
            S0,
            Action::PlayYearOfPlenty {
                resources: vec![Resource::Ore]
            }
        ),
        ActionError::WrongResourceCount { expected: 2 }
    );
    assert_eq!(
        s.ok(
            S0,
            Action::PlayYearOfPlenty {
                resources: vec![Resource::Brick, Resource::Wool]
            }
        ),
        vec![
            Event::DevCardPlayed {
                seat: S0,
                card: DevCard::YearOfPlenty
            },
            Event::YearOfPlenty {
                seat: S0,
                resources: rc(1, 0, 1, 0, 0)
            },
        ]
    );
    assert_eq!(s.hand(S0), rc(1, 0, 1, 0, 0));
    assert_eq!(s.state.bank, bank_minus(rc(1, 0, 1, 0, 0)));
}

#[test]
fn year_of_plenty_may_name_one_resource_twice_if_the_bank_has_it() {
    let mut s = base();
    s.dev_card(S0, DevCard::YearOfPlenty, false);
    s.give(S1, rc(0, 0, 0, 0, 18));
    let two_ore = Action::PlayYearOfPlenty {
        resources: vec![Resource::Ore, Resource::Ore],
    };
    assert_eq!(
        s.refused(S0, two_ore),
        ActionError::BankShortage {
            resource: Resource::Ore
        }
    );
    s.ok(
        S0,
        Action::PlayYearOfPlenty {
            resources: vec![Resource::Ore, Resource::Grain],
        },
    );
    assert_eq!(s.hand(S0), rc(0, 0, 0, 1, 1));
    let mut t = base();
    t.dev_card(S0, DevCard::YearOfPlenty, false);
    t.ok(
        S0,
        Action::PlayYearOfPlenty {
            resources: vec![Resource::Ore, Resource::Ore],
        },
    );
    assert_eq!(t.hand(S0), rc(0, 0, 0, 0, 2));
}

#[test]
fn monopoly_takes_all_of_one_resource_from_the_opponent() {
    let mut s = base();
    s.dev_card(S0, DevCard::Monopoly, false);
    s.give(S0, rc(0, 0, 1, 0, 0)).give(S1, rc(1, 0, 3, 0, 2));
    assert_eq!(
        s.ok(
            S0,
            Action::PlayMonopoly {
                resource: Resource::Wool
            }
        ),
        vec![
            Event::DevCardPlayed {
                seat: S0,
                card: DevCard::Monopoly
            },
            Event::Monopoly {
                seat: S0,
                resource: Resource::Wool,
                taken: vec![(S1, 3)]
            },
        ]
    );
    assert_eq!(s.hand(S0), rc(0, 0, 4, 0, 0));
    assert_eq!(s.hand(S1), rc(1, 0, 0, 0, 2));
    assert_eq!(s.state.bank, bank_minus(rc(1, 0, 4, 0, 2)));
    consistent(&s);
}

#[test]
fn monopoly_on_a_resource_the_opponent_lacks_takes_nothing() {
    let mut s = base();
    s.dev_card(S0, DevCard::Monopoly, false);
    s.give(S1, rc(1, 0, 0, 0, 0));
    let ev = s.ok(
        S0,
        Action::PlayMonopoly {
            resource: Resource::Grain,
        },
    );
    assert_eq!(
        ev[1],
        Event::Monopoly {
            seat: S0,
            resource: Resource::Grain,
            taken: vec![(S1, 0)]
        }
    );
    assert_eq!(s.hand(S1), rc(1, 0, 0, 0, 0));
    assert_eq!(s.state.dev_hand(S0).cards[DevCard::Monopoly], 0);
}

/// "Every other player": with an automated seat in the game (added here as
/// the neutral-colour variants do), it hands over its cards too.
#[test]
fn monopoly_takes_from_every_other_seat() {
    use hexpost_engine::seats::SeatKind;
    use hexpost_engine::state::Player;
    let mut s = base();
    let neutral = hexpost_engine::Seat(2);
    s.state
        .players
        .push(Player::new(neutral, SeatKind::Neutral));
    s.dev_card(S0, DevCard::Monopoly, false);
    s.give(S1, rc(0, 2, 0, 0, 0))
        .give(neutral, rc(0, 3, 1, 0, 0));
    let ev = s.ok(
        S0,
        Action::PlayMonopoly {
            resource: Resource::Lumber,
        },
    );
    assert_eq!(
        ev[1],
        Event::Monopoly {
            seat: S0,
            resource: Resource::Lumber,
            taken: vec![(S1, 2), (neutral, 3)]
        }
    );
    assert_eq!(s.hand(S0), rc(0, 5, 0, 0, 0));
    assert_eq!(s.state.player(neutral).hand, rc(0, 0, 1, 0, 0));
}
