//! The events of ck_for_two (Cities & Knights for two).

use super::cards::{cards, commodity, one, progress, progress_cards, resource, track};
use super::core_game::{free_of, traded_with_bank};
use super::places::{edge, hex, hex_without_number, node};
use super::{Table, and_list, plural};
use hexpost_engine::Event;
use hexpost_engine::cards::{Card, CardKind, ProgressCard};
use hexpost_engine::dice::EventFace;
use hexpost_engine::events::KnightRemoval;
use hexpost_engine::rulesets::ck_for_two::KnightLevel;

/// The barbarians attack on this space of their track.
const ATTACK_SPACE: u8 = 7;

pub fn sentence(e: &Event, t: &Table) -> Option<String> {
    let who = |s| t.seat(s);
    Some(match e {
        Event::StoleCommodity {
            thief,
            victim,
            commodity: c,
        } => format!(
            "{} stole {} from {}.",
            who(*thief),
            c.map_or_else(|| "a commodity".into(), one),
            who(*victim)
        ),
        Event::CommodityWithheld { commodity: c } => format!(
            "the bank ran short of {}, so nobody received any.",
            commodity(*c)
        ),
        Event::EventDieRolled { face, .. } => match face {
            EventFace::Ship => "the event die shows the barbarian ship.".into(),
            EventFace::Trade => "the event die shows the yellow (trade) gate.".into(),
            EventFace::Politics => "the event die shows the blue (politics) gate.".into(),
            EventFace::Science => "the event die shows the green (science) gate.".into(),
        },
        Event::BarbariansAdvanced { position } if *position >= ATTACK_SPACE => {
            format!("the barbarians reach space {position} of {ATTACK_SPACE} and attack!")
        }
        Event::BarbariansAdvanced { position } => {
            format!("the barbarians advance to space {position} of {ATTACK_SPACE}.")
        }
        Event::BarbarianAttack {
            strength,
            defence,
            contributions,
        } => {
            let parts: Vec<String> = contributions
                .iter()
                .map(|(s, n)| format!("{} {n}", who(*s)))
                .collect();
            let outcome = if strength > defence {
                "the barbarians win"
            } else {
                "Catan holds"
            };
            format!(
                "the barbarians attack with strength {strength} against the knights' {defence} ({}): {outcome}.",
                and_list(&parts)
            )
        }
        Event::CityPillaged {
            seat,
            node: at,
            tipped,
            wall,
        } => {
            let mut text = format!(
                "the barbarians pillaged {} city on {}: it is a settlement again",
                t.seats(*seat),
                node(*at, t)
            );
            if *tipped {
                text.push_str(" (the city piece stays, tipped over: no settlement piece was left)");
            }
            if *wall {
                text.push_str(", and its city wall is gone");
            }
            text + "."
        }
        Event::DefenderOfCatan { seat } => {
            format!("{} is a Defender of Catan: 1 victory point.", who(*seat))
        }
        Event::BarbariansReturned { attacks } => format!(
            "the barbarian ship sails back to its start and every knight is inactive again ({} so far).",
            plural(u32::from(*attacks), "attack", "attacks")
        ),
        Event::ProgressDrawn {
            seat,
            track: tr,
            card,
        } => match card {
            Some(card) => format!(
                "{} drew a {} progress card: {}.",
                who(*seat),
                track(*tr),
                progress(*card)
            ),
            None => format!("{} drew a {} progress card.", who(*seat), track(*tr)),
        },
        Event::VictoryCardLaidDown { seat, card } => format!(
            "{} laid down {} face up: 1 victory point.",
            who(*seat),
            progress(*card)
        ),
        Event::ProgressPlayed { seat, card } => format!(
            "{} played {}: {}.",
            who(*seat),
            progress(*card),
            effect(*card)
        ),
        Event::ProgressDiscarded { seat, card } => format!(
            "{} discarded {}, over the limit of 4 progress cards.",
            who(*seat),
            progress(*card)
        ),
        Event::AqueductTaken { seat, resource: r } => format!(
            "{} took 1 {} from the bank with the Aqueduct.",
            who(*seat),
            resource(*r)
        ),
        Event::AqueductDeclined { seat } => {
            format!("{} took nothing with the Aqueduct.", who(*seat))
        }
        Event::WallBuilt {
            seat,
            node: at,
            free,
        } => format!(
            "{} built a city wall{} on {}.",
            who(*seat),
            free_of(*free),
            node(*at, t)
        ),
        Event::ImprovementBought {
            seat,
            track: tr,
            level,
            paid,
            crane,
        } => format!(
            "{} raised {} to level {level} for {}{}.",
            who(*seat),
            track(*tr),
            cards(paid),
            if *crane { " with a Crane" } else { "" }
        ),
        Event::MetropolisPlaced {
            seat,
            track: tr,
            node: at,
            from,
        } => {
            let taken = match from {
                Some(from) => format!(", taking it from {}", who(*from)),
                None => String::new(),
            };
            format!(
                "{} city on {}, is now the {} metropolis{taken}.",
                t.seats(*seat),
                node(*at, t),
                track(*tr)
            )
        }
        Event::KnightPlaced {
            seat,
            node: at,
            level,
            active,
            free,
        } => format!(
            "{} placed {} {} knight{} on {}.",
            who(*seat),
            if *active { "an active" } else { "an inactive" },
            knight(*level),
            free_of(*free),
            node(*at, t)
        ),
        Event::KnightActivated {
            seat,
            node: at,
            free,
        } => format!(
            "{} activated the knight{} on {}.",
            who(*seat),
            free_of(*free),
            node(*at, t)
        ),
        Event::KnightPromoted {
            seat,
            node: at,
            level,
            free,
        } => format!(
            "{} promoted the knight on {}, to {}{}.",
            who(*seat),
            node(*at, t),
            knight(*level),
            free_of(*free)
        ),
        Event::KnightMoved { seat, from, to } => format!(
            "{} moved a knight from node {from} to {}.",
            who(*seat),
            node(*to, t)
        ),
        Event::KnightDisplaced {
            seat,
            from,
            node: at,
            owner,
        } => match from {
            Some(from) => format!(
                "{} knight from node {from} drove {} knight off {}.",
                t.seats(*seat),
                t.seats(*owner),
                node(*at, t)
            ),
            None => format!(
                "{} drove {} knight off {}, with an Intrigue.",
                who(*seat),
                t.seats(*owner),
                node(*at, t)
            ),
        },
        Event::KnightRetreated { seat, from, to } => format!(
            "{} displaced knight retreated from node {from} to {}.",
            t.seats(*seat),
            node(*to, t)
        ),
        Event::KnightRemoved {
            seat,
            node: at,
            level,
            reason,
        } => match reason {
            KnightRemoval::Tokens => format!(
                "{} took the {} knight on {}, off the board for trade tokens.",
                who(*seat),
                knight(*level),
                node(*at, t)
            ),
            KnightRemoval::Deserter => format!(
                "{} gave up the {} knight on {}, to a Deserter.",
                who(*seat),
                knight(*level),
                node(*at, t)
            ),
            KnightRemoval::NoRetreat => format!(
                "{} {} knight on {}, had nowhere to retreat and went back to the supply.",
                t.seats(*seat),
                knight(*level),
                node(*at, t)
            ),
        },
        Event::RobberChased { seat, knight: at } => format!(
            "{} knight on {}, chased the robber away.",
            t.seats(*seat),
            node(*at, t)
        ),
        Event::BankTraded {
            seat,
            gave,
            received,
        } => traded_with_bank(t, *seat, gave, *received),
        Event::CardsGiven { seat, to, cards: c } => format!(
            "{} gave {} {}.",
            who(*seat),
            who(*to),
            c.as_ref().map_or_else(|| "cards".into(), cards)
        ),
        Event::CardsTaken {
            seat,
            from,
            cards: c,
        } => format!(
            "{} took {} from {}.",
            who(*seat),
            c.as_ref().map_or_else(|| "cards".into(), cards),
            who(*from)
        ),
        Event::HandShown { seat, of, cards: c } => match c {
            Some(c) => format!("{} showed {} a hand of {}.", who(*of), who(*seat), cards(c)),
            None => format!("{} showed {} their hand.", who(*of), who(*seat)),
        },
        Event::ProgressHandShown { seat, of, cards: c } => match c {
            Some(c) => format!(
                "{} showed {} their progress cards: {}.",
                who(*of),
                who(*seat),
                progress_cards(c)
            ),
            None => format!("{} showed {} their progress cards.", who(*of), who(*seat)),
        },
        Event::ProgressTaken { seat, from, card } => match card {
            Some(card) => format!(
                "{} took {} from {}.",
                who(*seat),
                progress(*card),
                who(*from)
            ),
            None => format!("{} took a progress card from {}.", who(*seat), who(*from)),
        },
        Event::NumberTokensSwapped { seat, hexes } => {
            let hexes: Vec<String> = hexes.iter().map(|&h| hex_without_number(h, t)).collect();
            format!(
                "{} swapped the number tokens of {}.",
                who(*seat),
                and_list(&hexes)
            )
        }
        Event::MerchantPlaced { seat, hex: h, from } => {
            let taken = match from {
                Some(from) if from != seat => format!(", taking it from {}", who(*from)),
                _ => String::new(),
            };
            format!(
                "{} placed the merchant on {}{taken}.",
                who(*seat),
                hex(*h, t)
            )
        }
        Event::MerchantFleet { seat, card } => format!(
            "{} trades {} 2:1 with the bank for the rest of the turn.",
            who(*seat),
            card_name(*card)
        ),
        Event::Harvested { seat, resources } => {
            format!("{} took {} from the bank.", who(*seat), cards(resources))
        }
        Event::RoadRemoved { seat, edge: at, by } => format!(
            "{} removed {} road on {}.",
            who(*by),
            if by == seat {
                "their own".to_string()
            } else {
                t.seats(*seat)
            },
            edge(*at, t)
        ),
        _ => return None,
    })
}

fn card_name(card: Card) -> &'static str {
    card.name()
}

pub(super) fn knight(level: KnightLevel) -> &'static str {
    match level {
        KnightLevel::Basic => "basic",
        KnightLevel::Strong => "strong",
        KnightLevel::Mighty => "mighty",
    }
}

/// What playing `card` does, in a few words (the events after it say how
/// it turned out).
fn effect(card: ProgressCard) -> &'static str {
    use ProgressCard as P;
    match card {
        P::Alchemist => "the player chooses the number dice of the first roll",
        P::Crane => "a city improvement for one commodity less",
        P::Engineer => "a free city wall",
        P::Inventor => "two number tokens swap places",
        P::Irrigation => "2 grain for each fields hex touching the player's buildings",
        P::Medicine => "a city for 2 ore and 1 grain",
        P::Mining => "2 ore for each mountains hex touching the player's buildings",
        P::Printer | P::Constitution => "1 victory point",
        P::RoadBuilding => "two free roads",
        P::Smith => "up to two knights promoted for free",
        P::Bishop => "the robber moves, and robs",
        P::Deserter => "the opponent or a neutral gives up a knight",
        P::Diplomat => "an open road is removed",
        P::Intrigue => "a knight of another colour is driven off",
        P::Saboteur => {
            "the opponent, with as many victory points or more, discards half their cards"
        }
        P::Spy => "a look at the opponent's progress cards, and one taken or none",
        P::Warlord => "every inactive knight of the player's is activated for free",
        P::Wedding => "the opponent, with more victory points, gives the player 2 cards",
        P::CommercialHarbor => "a resource given for a commodity of the opponent's choice",
        P::MasterMerchant => {
            "a look at the hand of an opponent with more victory points, and 2 cards taken"
        }
        P::Merchant => "the merchant moves",
        P::MerchantFleet => "one kind of card trades 2:1 with the bank this turn",
        P::ResourceMonopoly => "the opponent gives up to 2 of a resource",
        P::TradeMonopoly => "the opponent gives 1 of a commodity",
    }
}
