//! The decisions a seat is asked for, one phrase per kind of legal action:
//! "roll the dice", "build a road".

use super::cards::{progress, track};
use super::{Table, or_list, plural};
use hexpost_engine::LegalAction;
use hexpost_engine::cards::ProgressCard;
use hexpost_engine::rulesets::ck_for_two::wire::ProgressOption;

/// What `legal` asks of its seat, each phrase once, in the engine's order.
pub fn decisions(legal: &[LegalAction], table: &Table) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for action in legal {
        let phrase = decision(action, table);
        if !out.contains(&phrase) {
            out.push(phrase);
        }
    }
    out
}

/// What one entry of a seat's legal actions asks: the phrase the web
/// client labels its control with (`legal_action_text`).
pub fn decision(action: &LegalAction, t: &Table) -> String {
    use LegalAction as L;
    let cards = |n: u8| plural(u32::from(n), "card", "cards");
    let tokens = |n: u8| plural(u32::from(n), "trade token", "trade tokens");
    match action {
        L::RollDice => "roll the dice".into(),
        L::EndTurn => "end your turn".into(),
        L::BuildRoad { free: true, .. } => "place a road for free".into(),
        L::BuildRoad { free: false, .. } => "build a road".into(),
        L::BuildSettlement { free: true, .. } => "place a settlement for free".into(),
        L::BuildSettlement { free: false, .. } => "build a settlement".into(),
        L::BuildCity { .. } => "build a city".into(),
        L::BuyDevelopmentCard => "buy a development card".into(),
        L::PlayKnight { .. } => "play a knight".into(),
        L::PlayRoadBuilding => "play Road Building".into(),
        L::PlayYearOfPlenty { .. } => "play Year of Plenty".into(),
        L::PlayMonopoly => "play Monopoly".into(),
        L::MoveRobber { .. } => "move the robber".into(),
        L::Discard { count } => format!("discard {}", cards(*count)),
        L::MaritimeTrade { .. } | L::BankTrade { .. } => "trade with the bank".into(),
        L::OfferTrade => "offer a trade".into(),
        L::AcceptTrade => "accept the trade offered to you".into(),
        L::DeclineTrade => "decline the trade offered to you".into(),
        L::WithdrawTrade => "withdraw your trade offer".into(),
        L::BuildNeutralRoad { neutral, .. } => format!("build a road for {}", t.seat(*neutral)),
        L::BuildNeutralSettlement { neutral, .. } => {
            format!("build a settlement for {}", t.seat(*neutral))
        }
        L::ForcedTrade { cost } => format!("force a trade ({})", tokens(*cost)),
        L::ForcedTradeResources { cost } => {
            format!("force a trade of resources ({})", tokens(*cost))
        }
        L::ForcedTradeGive {
            count,
            resources_only,
        } => {
            let what = if *resources_only { "resource " } else { "" };
            format!(
                "give back {count} {what}{}",
                if *count == 1 { "card" } else { "cards" }
            )
        }
        L::RobberToDesert { cost } => {
            format!("move the robber to the desert ({})", tokens(*cost))
        }
        L::DiscardKnight => "discard a played knight for trade tokens".into(),
        L::AskNeutralTrade => "roll on the neutral's trade chart".into(),
        L::AcceptNeutralTrade { give, receive } => {
            let wanted: Vec<String> = receive.iter().map(|r| r.to_string()).collect();
            format!(
                "give the neutral {} for 1 {}",
                cards(*give),
                or_list(&wanted)
            )
        }
        L::DeclineNeutralTrade => "decline the neutral's trade".into(),
        L::VoteReroll => "say whether the removal is rolled again".into(),
        L::Bid => "bid in the auction".into(),
        L::PassBid => "pass on the auction".into(),
        L::RaiseBid { min, .. } => format!("raise your bid by at least {}", cards(*min)),
        L::Concede => "concede the auction".into(),
        L::BuildWall { .. } => "build a city wall".into(),
        L::BuyImprovement { .. } => "buy a city improvement".into(),
        L::RecruitKnight { .. } => "recruit a knight".into(),
        L::ActivateKnight { .. } => "activate a knight".into(),
        L::PromoteKnight { .. } => "promote a knight".into(),
        L::MoveKnight { .. } => "move a knight".into(),
        L::DisplaceKnight { .. } => "displace a knight".into(),
        L::ChaseRobber { .. } => "chase the robber away with a knight".into(),
        L::RemoveKnight { .. } => "take a knight off the board for trade tokens".into(),
        L::PlayProgress { play } => format!("play {}", progress_name(play)),
        L::DiscardProgress => "discard a progress card (you hold more than 4)".into(),
        L::LoseCity { .. } => "choose the city the barbarians pillage".into(),
        L::DrawProgress { tracks } => {
            let decks: Vec<String> = tracks.iter().map(|tr| track(*tr).to_string()).collect();
            format!(
                "as a tied defender, draw a progress card from the {} deck",
                or_list(&decks)
            )
        }
        L::AqueductPick => "take a resource with the Aqueduct, or none".into(),
        // Only the Commercial Harbor asks for commodities; only the Wedding
        // for any cards.
        L::GiveCards {
            count,
            commodities_only: true,
        } => format!(
            "give {} in return for the Commercial Harbor",
            plural(u32::from(*count), "commodity", "commodities")
        ),
        L::GiveCards {
            count,
            commodities_only: false,
        } => format!("give {} as a Wedding gift", cards(*count)),
        L::GiveUpKnight { .. } => "give up a knight to the Deserter".into(),
        L::RetreatKnight { .. } => "choose where your displaced knight retreats".into(),
        L::PlaceNeutralKnight { neutral, .. } => {
            format!("place a knight for {}", t.seat(*neutral))
        }
        L::PromoteNeutralKnight { .. } => "promote a neutral knight".into(),
        L::PlaceDeserterKnight { .. } => "place the Deserter's knight, or none".into(),
        L::ReplaceRoad { .. } => "place your removed road again, or keep it".into(),
        L::SpyTake => "take one of the progress cards shown, or none".into(),
        L::TakeCards { count } => format!("take {} from the hand shown", cards(*count)),
        L::SmithPromote { .. } => "promote a second knight with the Smith, or none".into(),
        L::PlaceMetropolis { .. } => "choose the city for your metropolis".into(),
    }
}

/// The card a `play_progress` entry plays: its wire tag (`card`) is the
/// card's own wire name.
fn progress_name(play: &ProgressOption) -> String {
    serde_json::to_value(play)
        .ok()
        .and_then(|v| serde_json::from_value::<ProgressCard>(v["card"].clone()).ok())
        .map_or_else(|| "a progress card".into(), progress)
}
