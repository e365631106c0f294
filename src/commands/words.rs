//! The words of the grammar: how a line splits into words, and the names
//! of cards, tracks, progress cards and seats a player may type.

use super::CommandError;
use crate::describe::{Table, seat_colour};
use hexpost_engine::Seat;
use hexpost_engine::cards::{Card, CardKind, Cards, ProgressCard, Resource, Track};

/// The words of one command line: lower case, punctuation that phones and
/// habits add (`-`, `,`, `:`, `;`, a final `.`) read as spaces, and a code
/// written against its number (`S14`, `KM14-20`) split from it.
pub fn split(line: &str) -> Vec<String> {
    let mut words = normalised(line);
    if let Some(first) = words.first().cloned() {
        let letters = first.chars().take_while(char::is_ascii_alphabetic).count();
        if letters > 0
            && letters < first.len()
            && first[letters..].starts_with(|c: char| c.is_ascii_digit())
        {
            words[0] = first[..letters].to_string();
            words.insert(1, first[letters..].to_string());
        }
    }
    words
}

/// The words of a line or a name, cleaned as [`split`] cleans them.
fn normalised(line: &str) -> Vec<String> {
    let cleaned: String = line
        .trim()
        .trim_end_matches(['.', '!'])
        .to_lowercase()
        .chars()
        .map(|c| {
            if matches!(c, '-' | ',' | ':' | ';') {
                ' '
            } else {
                c
            }
        })
        .filter(|&c| c != '_')
        .collect();
    cleaned.split_whitespace().map(str::to_string).collect()
}

/// Other names players use for the resources.
const CARD_SYNONYMS: [(&str, Card); 6] = [
    ("wood", Card::Lumber),
    ("sheep", Card::Wool),
    ("wheat", Card::Grain),
    ("clay", Card::Brick),
    ("stone", Card::Ore),
    ("coins", Card::Coin),
];

/// A card by its name, a common other name, or the first three letters or
/// more of either when only one card starts so.
pub fn card(word: &str) -> Result<Card, CommandError> {
    // Plurals read as the card: "2 ores", "bricks".
    let word = word
        .strip_suffix('s')
        .filter(|w| w.len() >= 3)
        .unwrap_or(word);
    let names = Card::ALL
        .iter()
        .map(|&c| (c.name(), c))
        .chain(CARD_SYNONYMS);
    let mut found: Vec<Card> = Vec::new();
    for (name, c) in names {
        if name == word {
            return Ok(c);
        }
        if word.len() >= 3 && name.starts_with(word) && !found.contains(&c) {
            found.push(c);
        }
    }
    match found.as_slice() {
        [one] => Ok(*one),
        [] => Err(CommandError::new(
            "unknown_card",
            format!("\"{word}\" is not a card; the cards are {}", card_names()),
        )),
        many => Err(CommandError::new(
            "ambiguous_card",
            format!(
                "\"{word}\" could be {}; write more of the name",
                many.iter()
                    .map(|c| c.name())
                    .collect::<Vec<_>>()
                    .join(" or ")
            ),
        )),
    }
}

fn card_names() -> String {
    Card::ALL
        .iter()
        .map(|c| c.name())
        .collect::<Vec<_>>()
        .join(", ")
}

/// A resource: a card that is not a commodity.
pub fn resource(word: &str) -> Result<Resource, CommandError> {
    let c = card(word)?;
    c.resource().ok_or_else(|| {
        CommandError::new(
            "card_not_allowed",
            format!("{c} is a commodity; name a resource (brick, lumber, wool, grain or ore)"),
        )
    })
}

/// A list of cards: names, each optionally after a count (`2 brick wool`,
/// `brick brick wool`, `2brick`).
pub fn cards(words: &[String]) -> Result<Cards, CommandError> {
    let mut out = Cards::ZERO;
    for c in card_sequence(words)? {
        out[c] = out[c].saturating_add(1);
    }
    Ok(out)
}

/// The cards of a list one by one, in the order written.
pub fn card_sequence(words: &[String]) -> Result<Vec<Card>, CommandError> {
    let mut out = Vec::new();
    let mut count: Option<u8> = None;
    for word in words {
        let digits = word.chars().take_while(char::is_ascii_digit).count();
        let (number, name) = word.split_at(digits);
        if !number.is_empty() {
            if count.is_some() {
                return Err(CommandError::new(
                    "bad_number",
                    format!("two counts in a row before \"{name}\"; write a count, then a card"),
                ));
            }
            let n: u8 = number
                .parse()
                .ok()
                .filter(|n| (1..=30).contains(n))
                .ok_or_else(|| {
                    CommandError::new(
                        "bad_number",
                        format!("{number} is not a count of cards (1 to 30)"),
                    )
                })?;
            count = Some(n);
        }
        if name.is_empty() {
            continue;
        }
        let c = card(name)?;
        out.extend(std::iter::repeat_n(
            c,
            usize::from(count.take().unwrap_or(1)),
        ));
    }
    if let Some(n) = count {
        return Err(CommandError::new(
            "missing_argument",
            format!("the count {n} is not followed by a card"),
        ));
    }
    Ok(out)
}

/// A list of cards as the grammar writes it: `2 brick wool`.
pub fn write_cards(cards: &Cards) -> String {
    let words: Vec<String> = cards
        .iter()
        .filter(|&(_, n)| n > 0)
        .map(|(c, n)| {
            if n == 1 {
                c.name().to_string()
            } else {
                format!("{n} {}", c.name())
            }
        })
        .collect();
    words.join(" ")
}

/// A track by name or by the colour of its deck.
pub fn track(word: &str) -> Result<Track, CommandError> {
    let t = match word {
        "trade" | "yellow" | "t" => Track::Trade,
        "politics" | "blue" | "p" => Track::Politics,
        "science" | "green" | "s" => Track::Science,
        other => {
            return Err(CommandError::new(
                "unknown_track",
                format!("\"{other}\" is not a track; write trade, politics or science"),
            ));
        }
    };
    Ok(t)
}

/// Short names of the progress cards whose names are long.
const PROGRESS_SHORT: [(&str, ProgressCard); 12] = [
    ("rb", ProgressCard::RoadBuilding),
    ("harbor", ProgressCard::CommercialHarbor),
    ("harbour", ProgressCard::CommercialHarbor),
    ("commercialharbour", ProgressCard::CommercialHarbor),
    ("ch", ProgressCard::CommercialHarbor),
    ("mm", ProgressCard::MasterMerchant),
    ("fleet", ProgressCard::MerchantFleet),
    ("mf", ProgressCard::MerchantFleet),
    ("rm", ProgressCard::ResourceMonopoly),
    ("tm", ProgressCard::TradeMonopoly),
    ("alch", ProgressCard::Alchemist),
    ("med", ProgressCard::Medicine),
];

/// A progress card by its name written without spaces or underscores
/// (`roadbuilding`, `road_building`) or a short name (`rb`, `mm`, `fleet`).
pub fn progress(words: &[String]) -> Result<(ProgressCard, usize), CommandError> {
    // A name may be typed in two words ("master merchant").
    for take in [2, 1] {
        if words.len() < take {
            continue;
        }
        let joined: String = words[..take].concat();
        let found = ProgressCard::ALL
            .iter()
            .find(|c| c.name().replace('_', "") == joined)
            .copied()
            .or_else(|| {
                PROGRESS_SHORT
                    .iter()
                    .find(|(n, _)| *n == joined)
                    .map(|(_, c)| *c)
            });
        if let Some(c) = found {
            return Ok((c, take));
        }
    }
    let word = words.first().map_or("", String::as_str);
    Err(CommandError::new(
        "unknown_progress_card",
        format!(
            "\"{word}\" is not a progress card; write its name without spaces, e.g. mastermerchant or mm"
        ),
    ))
}

/// A progress card as the grammar writes it: `roadbuilding`.
pub fn write_progress(card: ProgressCard) -> String {
    card.name().replace('_', "")
}

/// A seat as the grammar writes it when no names are known: its colour.
pub fn write_seat(seat: Seat) -> String {
    seat_colour(seat).map_or_else(|| format!("seat{}", seat.0), str::to_string)
}

/// Whom `words` name among `choices`: a player's name, `opp` or
/// `opponent` for the real player among them, or a seat's colour with or
/// without "neutral"/"fictional" before it.
pub fn seat(
    words: &[String],
    choices: &[Seat],
    table: Option<&Table>,
) -> Result<Seat, CommandError> {
    let said = words.join(" ");
    let bare = said
        .strip_prefix("neutral ")
        .or_else(|| said.strip_prefix("fictional "))
        .unwrap_or(&said);
    let names_of = |s: Seat| -> Vec<String> {
        let mut names = vec![write_seat(s)];
        if let Some(t) = table {
            names.push(normalised(&t.seat(s)).join(" "));
        }
        if s.is_real() {
            names.extend(["opp".to_string(), "opponent".to_string()]);
        }
        names
    };
    let everyone = (0..4).map(Seat);
    let matches: Vec<Seat> = everyone
        // "neutral white" is an automated seat's colour, never a player's name.
        .filter(|&s| {
            let bare_fits = bare == said || !s.is_real();
            names_of(s)
                .iter()
                .any(|n| n == &said || (bare_fits && n == bare))
        })
        .collect();
    let chosen: Vec<Seat> = matches
        .iter()
        .copied()
        .filter(|s| choices.contains(s))
        .collect();
    match (chosen.as_slice(), matches.as_slice()) {
        ([one], _) => Ok(*one),
        ([], []) => Err(CommandError::new(
            "unknown_player",
            format!(
                "\"{said}\" names no player; write {}",
                seat_choices(choices, table)
            ),
        )),
        ([], _) => Err(CommandError::new(
            "bad_player",
            format!(
                "\"{said}\" cannot be chosen here; write {}",
                seat_choices(choices, table)
            ),
        )),
        _ => Err(CommandError::new(
            "ambiguous_player",
            format!(
                "\"{said}\" could name several players; write their colour: {}",
                seat_choices(choices, None)
            ),
        )),
    }
}

/// The seats one may name, as a person reads them: "Bob or neutral white".
pub fn seat_choices(choices: &[Seat], table: Option<&Table>) -> String {
    let names: Vec<String> = choices
        .iter()
        .map(|&s| table.map_or_else(|| write_seat(s), |t| t.seat(s)))
        .collect();
    if names.is_empty() {
        "nobody".into()
    } else {
        names.join(" or ")
    }
}
