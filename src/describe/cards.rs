//! Cards in words: "2 brick and 1 ore", "a knight", "Irrigation".

use super::{and_list, words};
use hexpost_engine::cards::{
    Card, CardKind, Cards, Commodity, DevCard, DevCounts, ProgressCard, ProgressCounts, Resource,
    Track,
};

/// "2 brick, 1 wool and 1 coin", or "nothing".
pub fn cards(cards: &Cards) -> String {
    listed(cards.iter().map(|(card, n)| format!("{n} {}", card.name())))
}

/// "1 knight and 2 victory point", or "none".
pub fn dev_cards(cards: &DevCounts) -> String {
    let listed: Vec<String> = cards
        .iter()
        .map(|(card, n)| format!("{n} {}", dev_card_name(card, n)))
        .collect();
    if listed.is_empty() {
        "none".into()
    } else {
        and_list(&listed)
    }
}

/// "Spy and 2 Bishop".
pub fn progress_cards(cards: &ProgressCounts) -> String {
    listed(cards.iter().map(|(card, n)| match n {
        1 => progress(card).to_string(),
        n => format!("{n} {}", progress(card)),
    }))
}

fn listed(items: impl Iterator<Item = String>) -> String {
    let items: Vec<String> = items.collect();
    if items.is_empty() {
        "nothing".into()
    } else {
        and_list(&items)
    }
}

fn dev_card_name(card: DevCard, n: u8) -> String {
    let name = match card {
        DevCard::Knight => "knight",
        DevCard::VictoryPoint => "victory point card",
        DevCard::RoadBuilding => "Road Building",
        DevCard::YearOfPlenty => "Year of Plenty",
        DevCard::Monopoly => "Monopoly",
    };
    if n == 1 || !matches!(card, DevCard::Knight | DevCard::VictoryPoint) {
        name.into()
    } else {
        format!("{name}s")
    }
}

/// "a knight", "Road Building".
pub fn dev_card(card: DevCard) -> String {
    match card {
        DevCard::Knight | DevCard::VictoryPoint => format!("a {}", dev_card_name(card, 1)),
        other => dev_card_name(other, 1),
    }
}

/// "1 ore".
pub fn one(card: impl Into<Card>) -> String {
    format!("1 {}", card.into().name())
}

pub fn resource(r: Resource) -> &'static str {
    Card::from(r).name()
}

pub fn commodity(c: Commodity) -> &'static str {
    Card::from(c).name()
}

/// "Irrigation", "Master Merchant".
pub fn progress(card: ProgressCard) -> String {
    words(card.name())
        .split(' ')
        .map(super::capitalised)
        .collect::<Vec<_>>()
        .join(" ")
}

/// "the science (green)".
pub fn track(track: Track) -> &'static str {
    match track {
        Track::Trade => "trade (yellow)",
        Track::Politics => "politics (blue)",
        Track::Science => "science (green)",
    }
}
