//! The events of the base game, which every variant has.

use super::cards::{cards, dev_card, dev_cards, one, resource};
use super::places::{edge, hex, node};
use super::{Table, and_list, plural};
use hexpost_engine::Event;
use hexpost_engine::events::TradeEnd;

pub fn sentence(e: &Event, t: &Table) -> Option<String> {
    let who = |s| t.seat(s);
    Some(match e {
        Event::GameStarted { first } => {
            format!("the game began; {} goes first.", who(*first))
        }
        Event::RoadBuilt {
            seat,
            edge: at,
            free,
        } => format!(
            "{} built a road{} on {}.",
            who(*seat),
            free_of(*free),
            edge(*at, t)
        ),
        Event::SettlementBuilt {
            seat,
            node: at,
            free,
        } => format!(
            "{} built a settlement{} on {}.",
            who(*seat),
            free_of(*free),
            node(*at, t)
        ),
        Event::CityBuilt { seat, node: at } => {
            format!("{} built a city on {}.", who(*seat), node(*at, t))
        }
        Event::StartingResources { seat, resources } => {
            format!("{} received {} to start.", who(*seat), cards(resources))
        }
        Event::DiceRolled { seat, dice, total } => {
            format!(
                "{} rolled {} and {}: {total}.",
                who(*seat),
                dice[0],
                dice[1]
            )
        }
        Event::Produced { seat, resources } => {
            format!("{} received {}.", who(*seat), cards(resources))
        }
        Event::ProductionWithheld { resource: r } => format!(
            "the bank ran short of {}, so nobody received any.",
            resource(*r)
        ),
        Event::DiscardsRequired { owed } => {
            let owed: Vec<String> = owed
                .iter()
                .map(|(s, n)| {
                    let n = plural(u32::from(*n), "card", "cards");
                    format!("{} must discard {n}", who(*s))
                })
                .collect();
            format!("{}.", and_list(&owed))
        }
        Event::Discarded { seat, cards: c } => {
            format!("{} discarded {}.", who(*seat), cards(c))
        }
        Event::RobberMoved { seat, hex: h } => {
            format!("{} moved the robber to {}.", who(*seat), hex(*h, t))
        }
        Event::Stole {
            thief,
            victim,
            resource: r,
        } => format!(
            "{} stole {} from {}.",
            who(*thief),
            r.map_or_else(|| "a card".into(), one),
            who(*victim)
        ),
        Event::DevCardBought { seat, card } => match card {
            Some(card) => format!(
                "{} bought a development card: {}.",
                who(*seat),
                dev_card(*card)
            ),
            None => format!("{} bought a development card.", who(*seat)),
        },
        Event::DevCardPlayed { seat, card } => {
            format!("{} played {}.", who(*seat), dev_card(*card))
        }
        Event::YearOfPlenty { seat, resources } => format!(
            "{} took {} from the bank (Year of Plenty).",
            who(*seat),
            cards(resources)
        ),
        Event::Monopoly {
            seat,
            resource: r,
            taken,
        } => {
            let taken: Vec<String> = taken
                .iter()
                .filter(|(_, n)| *n > 0)
                .map(|(s, n)| format!("{n} from {}", who(*s)))
                .collect();
            let what = if taken.is_empty() {
                "but nobody had any".into()
            } else {
                format!("and took {}", and_list(&taken))
            };
            format!("{} named {} for Monopoly {what}.", who(*seat), resource(*r))
        }
        Event::MaritimeTraded {
            seat,
            gave,
            received,
        } => traded_with_bank(t, *seat, gave, *received),
        Event::TradeOffered {
            seat,
            to,
            give,
            receive,
        } => format!(
            "{} offered {} {} for {}.",
            who(*seat),
            who(*to),
            cards(give),
            cards(receive)
        ),
        Event::TradeAccepted {
            seat,
            by,
            give,
            receive,
        } => format!(
            "{} accepted: {} gave {} for {}.",
            who(*by),
            who(*seat),
            cards(give),
            cards(receive)
        ),
        Event::TradeDeclined { seat, by } => {
            format!("{} declined {} offer.", who(*by), t.seats(*seat))
        }
        Event::TradeWithdrawn { seat, reason } => match reason {
            TradeEnd::Withdrawn => format!("{} withdrew the trade offer.", who(*seat)),
            TradeEnd::TurnEnded => {
                format!("{} trade offer lapsed with the turn.", t.seats(*seat))
            }
            TradeEnd::OffererCannotPay => format!(
                "{} trade offer lapsed: the cards offered are gone.",
                t.seats(*seat)
            ),
        },
        Event::LongestRoadChanged { from, to, length } => award(
            "the Longest Road",
            *from,
            *to,
            t,
            &plural(u32::from(*length), "road", "roads"),
        ),
        Event::LargestArmyChanged { from, to, knights } => award(
            "the Largest Army",
            *from,
            *to,
            t,
            &plural(u32::from(*knights), "knight", "knights"),
        ),
        Event::TurnEnded { seat } => format!("{} ended the turn.", who(*seat)),
        Event::TurnStarted { seat, turn } => format!("turn {turn}: {} to play.", who(*seat)),
        Event::GameWon {
            seat,
            victory_points,
            revealed,
        } => {
            let shown = if revealed.total() == 0 {
                String::new()
            } else {
                format!(", revealing {}", dev_cards(revealed))
            };
            format!(
                "{} won with {victory_points} victory points{shown}.",
                who(*seat)
            )
        }
        _ => return None,
    })
}

/// "Ada traded 4 brick with the bank for 1 ore."
pub fn traded_with_bank(
    t: &Table,
    seat: hexpost_engine::Seat,
    gave: &hexpost_engine::Cards,
    received: impl Into<hexpost_engine::Card>,
) -> String {
    format!(
        "{} traded {} with the bank for {}.",
        t.seat(seat),
        cards(gave),
        one(received)
    )
}

/// " for free" when the piece cost nothing.
pub fn free_of(free: bool) -> &'static str {
    if free { " for free" } else { "" }
}

/// Longest Road, Largest Army: who holds it now, and from whom.
fn award(
    name: &str,
    from: Option<hexpost_engine::Seat>,
    to: Option<hexpost_engine::Seat>,
    t: &Table,
    size: &str,
) -> String {
    match (to, from) {
        (Some(to), Some(from)) => {
            format!("{} took {name} from {} ({size}).", t.seat(to), t.seat(from))
        }
        (Some(to), None) => format!("{} now holds {name} ({size}).", t.seat(to)),
        (None, Some(from)) => format!("{} lost {name}; nobody holds it now.", t.seat(from)),
        (None, None) => format!("nobody holds {name}."),
    }
}
