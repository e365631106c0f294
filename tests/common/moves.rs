//! Finding and making moves in a game over the API.

use super::{Api, game};
use hexpost_engine::{Action, LegalAction};
use serde_json::Value;

/// (awaited player, the other, the awaited player's view).
pub fn awaited<'a>(players: [&'a Api; 2], id: &str) -> (&'a Api, &'a Api, Value) {
    let views = [game(players[0], id), game(players[1], id)];
    let who = (0..2)
        .find(|&i| views[i]["awaiting_you"] == true)
        .expect("someone is awaited");
    (players[who], players[1 - who], views[who].clone())
}

/// A legal move for the awaited player (the first set-up choice, or the roll).
pub fn a_legal_move(view: &Value) -> Value {
    let legal: Vec<LegalAction> = serde_json::from_value(view["legal_actions"].clone()).unwrap();
    let action = match &legal[..] {
        [LegalAction::BuildSettlement { nodes, .. }] => Action::BuildSettlement {
            node: nodes.iter().next().unwrap(),
        },
        [LegalAction::BuildRoad { edges, .. }] => Action::BuildRoad {
            edge: edges.iter().next().unwrap(),
        },
        l if l.contains(&LegalAction::RollDice) => Action::RollDice,
        other => panic!("unexpected choices {other:?}"),
    };
    serde_json::to_value(action).unwrap()
}

pub fn move_number(api: &Api, id: &str) -> i64 {
    game(api, id)["move_number"].as_i64().unwrap()
}

/// The log rows after `after`, as `api` may read them.
pub fn rows_after(api: &Api, id: &str, after: i64) -> Vec<Value> {
    api.get(&format!("/api/v1/games/{id}/log?after={after}"))
        .ok()
        .as_array()
        .unwrap()
        .clone()
}
