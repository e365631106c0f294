//! Any concrete action written as a command line, the way the grammar's
//! reference writes it: what the tests read back and the examples show.

use super::words::{write_cards, write_progress, write_seat};
use hexpost_engine::Action;
use hexpost_engine::Seat;
use hexpost_engine::rulesets::ck_for_two::wire::ProgressPlay;

/// `action` as one command line that [`super::parse`] reads back as it.
pub fn encode(action: &Action) -> String {
    use Action as A;
    let cards = write_cards;
    let victim = |hex: u8, v: &Option<Seat>| match v {
        Some(s) => format!("{hex} {}", write_seat(*s)),
        None => hex.to_string(),
    };
    let or_none = |n: Option<u8>| n.map_or_else(|| "none".to_string(), |n| n.to_string());
    match action {
        A::RollDice => "R".into(),
        A::EndTurn => "E".into(),
        A::BuildRoad { edge } => format!("D{edge}"),
        A::BuildSettlement { node } => format!("S{node}"),
        A::BuildCity { node } => format!("C{node}"),
        A::BuyDevelopmentCard => "DEV".into(),
        A::PlayKnight { hex, victim: v } => format!("K {}", victim(*hex, v)),
        A::PlayRoadBuilding => "RB".into(),
        A::PlayYearOfPlenty { resources } => {
            let names: Vec<String> = resources.iter().map(|r| r.to_string()).collect();
            format!("YOP {}", names.join(" "))
        }
        A::PlayMonopoly { resource } => format!("MONO {resource}"),
        A::MoveRobber { hex, victim: v } => format!("M {}", victim(*hex, v)),
        A::Discard { cards: c } => format!("X {}", cards(c)),
        A::MaritimeTrade {
            give,
            receive,
            ratio,
        } => trade(ratio, &give.to_string(), &receive.to_string()),
        A::BankTrade {
            give,
            receive,
            ratio,
        } => trade(ratio, &give.to_string(), &receive.to_string()),
        A::OfferTrade { give, receive } => format!("OFFER {} FOR {}", cards(give), cards(receive)),
        A::AcceptTrade => "ACCEPT".into(),
        A::DeclineTrade | A::DeclineNeutralTrade => "DECLINE".into(),
        A::WithdrawTrade => "WITHDRAW".into(),
        A::BuildNeutralRoad { neutral, edge } => format!("ND{edge} {}", write_seat(*neutral)),
        A::BuildNeutralSettlement { neutral, node } => {
            format!("NS{node} {}", write_seat(*neutral))
        }
        A::ForcedTrade => "FT".into(),
        A::ForcedTradeResources => "FTR".into(),
        A::ForcedTradeGive { cards: c } | A::GiveCards { cards: c } => format!("GIVE {}", cards(c)),
        A::RobberToDesert => "DESERT".into(),
        A::DiscardKnight => "DK".into(),
        A::AskNeutralTrade => "ASK".into(),
        A::AcceptNeutralTrade { give, receive } => format!("ACCEPT {} FOR {receive}", cards(give)),
        A::VoteReroll { reroll } => format!("VOTE {}", if *reroll { "YES" } else { "NO" }),
        A::Bid { cards: c } => format!("BID {}", cards(c)),
        A::PassBid => "PASS".into(),
        A::RaiseBid { cards: c } => format!("RAISE {}", cards(c)),
        A::Concede => "CONCEDE".into(),
        A::BuildWall { node } => format!("W{node}"),
        A::BuyImprovement { track, crane } => {
            format!("I {track}{}", if *crane { " crane" } else { "" })
        }
        A::RecruitKnight { node } => format!("KR{node}"),
        A::ActivateKnight { node } => format!("KA{node}"),
        A::PromoteKnight { node } => format!("KP{node}"),
        A::MoveKnight { from, to } => format!("KM{from}-{to}"),
        A::DisplaceKnight { from, to } => format!("KD{from}-{to}"),
        A::ChaseRobber {
            knight,
            hex,
            victim: v,
        } => format!("KC{knight} {}", victim(*hex, v)),
        A::RemoveKnight { node } => format!("KX{node}"),
        A::PlayProgress { play } => format!("P {}", progress_play(play)),
        A::DiscardProgress { card } => format!("XP {}", write_progress(*card)),
        A::LoseCity { node } => format!("LOSE{node}"),
        A::DrawProgress { track } => format!("DRAW {track}"),
        A::AqueductPick { resource } => {
            format!(
                "AQ {}",
                resource.map_or_else(|| "none".into(), |r| r.to_string())
            )
        }
        A::GiveUpKnight { node } => format!("GU{node}"),
        A::RetreatKnight { node } => format!("RETREAT{node}"),
        A::PlaceNeutralKnight { neutral, node } => format!("NK{node} {}", write_seat(*neutral)),
        A::PromoteNeutralKnight { node } => format!("NKP{node}"),
        A::PlaceDeserterKnight { node } => format!("PD {}", or_none(*node)),
        A::ReplaceRoad { edge } => format!("REPLACE {}", or_none(*edge)),
        A::SpyTake { card } => {
            format!("SPY {}", card.map_or_else(|| "none".into(), write_progress))
        }
        A::TakeCards { cards: c } => format!("TAKE {}", cards(c)),
        A::SmithPromote { node } => format!("SMITH {}", or_none(*node)),
        A::PlaceMetropolis { node } => format!("METRO{node}"),
    }
}

fn trade(ratio: &Option<u8>, give: &str, receive: &str) -> String {
    match ratio {
        Some(r) => format!("T {r} {give} {receive}"),
        None => format!("T {give} {receive}"),
    }
}

fn progress_play(play: &ProgressPlay) -> String {
    use ProgressPlay as P;
    let name = write_progress(play.card());
    let args = match play {
        P::Alchemist { yellow, red } => format!("{yellow} {red}"),
        P::Engineer { node } | P::Medicine { node } | P::Smith { node } | P::Intrigue { node } => {
            node.to_string()
        }
        P::Inventor { hexes: [a, b] } => format!("{a} {b}"),
        P::Bishop { hex, victim } => match victim {
            Some(s) => format!("{hex} {}", write_seat(*s)),
            None => hex.to_string(),
        },
        P::Deserter { target, node } => match node {
            Some(n) => format!("{} {n}", write_seat(*target)),
            None => write_seat(*target),
        },
        P::Diplomat { edge } => edge.to_string(),
        P::CommercialHarbor { resource } => resource.to_string(),
        P::Merchant { hex } => hex.to_string(),
        P::MerchantFleet { named } => named.to_string(),
        P::ResourceMonopoly { resource } => resource.to_string(),
        P::TradeMonopoly { commodity } => commodity.to_string(),
        P::Irrigation
        | P::Mining
        | P::RoadBuilding
        | P::Saboteur
        | P::Spy
        | P::Warlord
        | P::Wedding
        | P::MasterMerchant => String::new(),
    };
    if args.is_empty() {
        name
    } else {
        format!("{name} {args}")
    }
}
