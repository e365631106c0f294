//! The menu a mail shows: one line per kind of decision, its code (with a
//! short template for what it takes) and what it does, with the choices.

use crate::describe::{Table, decisions};
use hexpost_engine::LegalAction;
use hexpost_engine::RobberTarget;
use hexpost_engine::board::{EdgeSet, NodeSet};
use hexpost_engine::rulesets::ck_for_two::wire::{ProgressOption, inventor_pairs};
use serde::Serialize;

/// One line of the menu a mail shows: the code a player types and a
/// readable line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MenuLine {
    pub code: String,
    pub text: String,
}

/// The menu for a seat's current legal actions: one line per kind of entry
/// in the engine's order, the entries of a kind that come several times
/// (a knight per chasing knight, a neutral per build) merged into one.
pub fn menu(legal: &[LegalAction], table: &Table) -> Vec<MenuLine> {
    let mut lines: Vec<(String, String, Vec<String>)> = Vec::new();
    for entry in legal {
        let code = code_of(entry);
        let choices = choices(entry, table);
        match lines.iter_mut().find(|(c, _, _)| *c == code) {
            Some((_, _, all)) => all.extend(choices),
            None => {
                let phrase = decisions(std::slice::from_ref(entry), table).remove(0);
                lines.push((code, phrase, choices.into_iter().collect()));
            }
        }
    }
    lines
        .into_iter()
        .map(|(code, phrase, choices)| {
            let text = if choices.is_empty() {
                phrase
            } else {
                format!("{phrase}: {}", choices.join("; "))
            };
            MenuLine { code, text }
        })
        .collect()
}

/// The code of an entry, with a template of what it takes: `S<node>`,
/// `T <give> <receive>`.
pub fn code_of(entry: &LegalAction) -> String {
    use LegalAction as L;
    match entry {
        L::RollDice => "R",
        L::EndTurn => "E",
        L::BuildRoad { .. } => "D<edge>",
        L::BuildSettlement { .. } => "S<node>",
        L::BuildCity { .. } => "C<node>",
        L::BuyDevelopmentCard => "DEV",
        L::PlayKnight { .. } => "K <hex> <player>",
        L::PlayRoadBuilding => "RB",
        L::PlayYearOfPlenty { .. } => "YOP <resources>",
        L::PlayMonopoly => "MONO <resource>",
        L::MoveRobber { .. } => "M <hex> <player>",
        L::Discard { .. } => "X <cards>",
        L::MaritimeTrade { .. } | L::BankTrade { .. } => "T <give> <receive>",
        L::OfferTrade => "OFFER <cards> FOR <cards>",
        L::AcceptTrade => "ACCEPT",
        L::DeclineTrade | L::DeclineNeutralTrade => "DECLINE",
        L::WithdrawTrade => "WITHDRAW",
        L::BuildNeutralRoad { .. } => "ND<edge> <neutral>",
        L::BuildNeutralSettlement { .. } => "NS<node> <neutral>",
        L::ForcedTrade { .. } => "FT",
        L::ForcedTradeResources { .. } => "FTR",
        L::ForcedTradeGive { .. } | L::GiveCards { .. } => "GIVE <cards>",
        L::RobberToDesert { .. } => "DESERT",
        L::DiscardKnight => "DK",
        L::AskNeutralTrade => "ASK",
        L::AcceptNeutralTrade { .. } => "ACCEPT <cards> FOR <resource>",
        L::VoteReroll => "VOTE YES|NO",
        L::Bid => "BID <cards>",
        L::PassBid => "PASS",
        L::RaiseBid { .. } => "RAISE <cards>",
        L::Concede => "CONCEDE",
        L::BuildWall { .. } => "W<node>",
        L::BuyImprovement { .. } => "I <track> [CRANE]",
        L::RecruitKnight { .. } => "KR<node>",
        L::ActivateKnight { .. } => "KA<node>",
        L::PromoteKnight { .. } => "KP<node>",
        L::MoveKnight { .. } => "KM<from>-<to>",
        L::DisplaceKnight { .. } => "KD<from>-<to>",
        L::ChaseRobber { .. } => "KC<knight> <hex> <player>",
        L::RemoveKnight { .. } => "KX<node>",
        L::PlayProgress { play } => return format!("P {}", progress_template(play)),
        L::DiscardProgress => "XP <card>",
        L::LoseCity { .. } => "LOSE<node>",
        L::DrawProgress { .. } => "DRAW <track>",
        L::AqueductPick => "AQ <resource>|NONE",
        L::GiveUpKnight { .. } => "GU<node>",
        L::RetreatKnight { .. } => "RETREAT<node>",
        L::PlaceNeutralKnight { .. } => "NK<node> <neutral>",
        L::PromoteNeutralKnight { .. } => "NKP<node>",
        L::PlaceDeserterKnight { .. } => "PD <node>|NONE",
        L::ReplaceRoad { .. } => "REPLACE <edge>|NONE",
        L::SpyTake => "SPY <card>|NONE",
        L::TakeCards { .. } => "TAKE <cards>",
        L::SmithPromote { .. } => "SMITH <node>|NONE",
        L::PlaceMetropolis { .. } => "METRO<node>",
    }
    .to_string()
}

fn progress_template(play: &ProgressOption) -> String {
    use ProgressOption as O;
    let (name, args) = match play {
        O::Alchemist => ("alchemist", "<yellow> <red>"),
        O::Engineer { .. } => ("engineer", "<node>"),
        O::Inventor { .. } => ("inventor", "<hex> <hex>"),
        O::Irrigation => ("irrigation", ""),
        O::Medicine { .. } => ("medicine", "<node>"),
        O::Mining => ("mining", ""),
        O::RoadBuilding => ("roadbuilding", ""),
        O::Smith { .. } => ("smith", "<node>"),
        O::Bishop { .. } => ("bishop", "<hex> <player>"),
        O::Deserter { .. } => ("deserter", "<player> [node]"),
        O::Diplomat { .. } => ("diplomat", "<edge>"),
        O::Intrigue { .. } => ("intrigue", "<node>"),
        O::Saboteur => ("saboteur", ""),
        O::Spy => ("spy", ""),
        O::Warlord => ("warlord", ""),
        O::Wedding => ("wedding", ""),
        O::CommercialHarbor { .. } => ("commercialharbor", "<resource>"),
        O::MasterMerchant => ("mastermerchant", ""),
        O::Merchant { .. } => ("merchant", "<hex>"),
        O::MerchantFleet { .. } => ("merchantfleet", "<card>"),
        O::ResourceMonopoly => ("resourcemonopoly", "<resource>"),
        O::TradeMonopoly => ("trademonopoly", "<commodity>"),
    };
    if args.is_empty() {
        name.to_string()
    } else {
        format!("{name} {args}")
    }
}

/// What an entry lets one choose, in ids the board picture shows.
fn choices(entry: &LegalAction, t: &Table) -> Option<String> {
    use LegalAction as L;
    Some(match entry {
        L::BuildRoad { edges, .. } | L::ReplaceRoad { edges } => edge_list(edges),
        L::BuildSettlement { nodes, .. }
        | L::BuildCity { nodes }
        | L::BuildWall { nodes }
        | L::RecruitKnight { nodes }
        | L::ActivateKnight { nodes }
        | L::PromoteKnight { nodes }
        | L::RemoveKnight { nodes }
        | L::LoseCity { nodes }
        | L::GiveUpKnight { nodes }
        | L::RetreatKnight { nodes }
        | L::PromoteNeutralKnight { nodes }
        | L::PlaceDeserterKnight { nodes }
        | L::SmithPromote { nodes }
        | L::PlaceMetropolis { nodes } => node_list(nodes),
        L::PlayKnight { targets } | L::MoveRobber { targets } => robber_list(targets, t),
        L::ChaseRobber { knight, targets } => {
            format!("knight {knight} to {}", robber_list(targets, t))
        }
        L::PlayYearOfPlenty { count } => format!("name {count}"),
        L::MaritimeTrade { options } => options
            .iter()
            .map(|o| {
                let to: Vec<String> = o.receive.iter().map(|r| r.to_string()).collect();
                format!("{} {} for {}", o.ratio, o.give, to.join("/"))
            })
            .collect::<Vec<_>>()
            .join(", "),
        L::BankTrade { options } => options
            .iter()
            .map(|o| {
                let to: Vec<String> = o.receive.iter().map(|c| c.to_string()).collect();
                format!("{} {} for {}", o.ratio, o.give, to.join("/"))
            })
            .collect::<Vec<_>>()
            .join(", "),
        L::BuildNeutralRoad { neutral, edges } => {
            format!("{}: {}", t.seat(*neutral), edge_list(edges))
        }
        L::BuildNeutralSettlement { neutral, nodes } | L::PlaceNeutralKnight { neutral, nodes } => {
            format!("{}: {}", t.seat(*neutral), node_list(nodes))
        }
        L::BuyImprovement { options } => options
            .iter()
            .map(|o| {
                let crane = if o.crane { " with a Crane" } else { "" };
                format!("{} to level {}{crane}", o.track, o.level)
            })
            .collect::<Vec<_>>()
            .join(", "),
        L::MoveKnight { moves } | L::DisplaceKnight { moves } => moves
            .iter()
            .map(|m| format!("{} to {}", m.from, ids(m.to.iter()).join("/")))
            .collect::<Vec<_>>()
            .join(", "),
        L::DrawProgress { tracks } => tracks
            .iter()
            .map(|tr| tr.to_string())
            .collect::<Vec<_>>()
            .join(" or "),
        L::PlayProgress { play } => return progress_choices(play, t),
        _ => return None,
    })
}

fn progress_choices(play: &ProgressOption, t: &Table) -> Option<String> {
    use ProgressOption as O;
    Some(match play {
        O::Engineer { nodes }
        | O::Medicine { nodes }
        | O::Smith { nodes }
        | O::Intrigue { nodes } => node_list(nodes),
        O::Inventor { hexes } => {
            let pairs: Vec<String> = inventor_pairs(hexes)
                .map(|[a, b]| format!("{a} {b}"))
                .collect();
            format!("hexes {}", pairs.join(", "))
        }
        O::Bishop { targets } => robber_list(targets, t),
        O::Deserter { targets } => targets
            .iter()
            .map(|d| {
                if d.nodes.is_empty() {
                    t.seat(d.target)
                } else {
                    format!("{} {}", t.seat(d.target), node_list(&d.nodes))
                }
            })
            .collect::<Vec<_>>()
            .join(", "),
        O::Diplomat { edges } => edge_list(edges),
        O::CommercialHarbor { resources } => resources
            .iter()
            .map(|r| r.to_string())
            .collect::<Vec<_>>()
            .join(", "),
        O::Merchant { hexes } => format!("hexes {}", ids(hexes.iter().copied()).join(", ")),
        O::MerchantFleet { cards } => cards
            .iter()
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
            .join(", "),
        _ => return None,
    })
}

fn robber_list(targets: &[RobberTarget], t: &Table) -> String {
    let spots: Vec<String> = targets
        .iter()
        .map(|target| {
            let who: Vec<String> = target.victims.iter().map(|&s| t.seat(s)).collect();
            if who.is_empty() {
                format!("hex {}", target.hex)
            } else {
                format!("hex {} ({})", target.hex, who.join(" or "))
            }
        })
        .collect();
    spots.join(", ")
}

fn node_list(nodes: &NodeSet) -> String {
    format!("nodes {}", ids(nodes.iter()).join(", "))
}

fn edge_list(edges: &EdgeSet) -> String {
    format!("edges {}", ids(edges.iter()).join(", "))
}

fn ids(ids: impl Iterator<Item = u8>) -> Vec<String> {
    ids.map(|i| i.to_string()).collect()
}
