//! The events of catan_for_two, neutral_trader and shadow.

use super::cards::{cards, one, resource};
use super::core_game::traded_with_bank;
use super::places::hex;
use super::{Table, and_list, or_list, plural};
use hexpost_engine::Event;
use hexpost_engine::events::{AuctionWin, ChartOutcome, RerollReason, RollOffPurpose, TokenReason};
use hexpost_engine::phases::Piece;

pub fn sentence(e: &Event, t: &Table) -> Option<String> {
    let who = |s| t.seat(s);
    let tokens = |n: u8| plural(u32::from(n), "trade token", "trade tokens");
    Some(match e {
        // --- catan_for_two ---
        Event::TokensEarned {
            seat,
            tokens: n,
            reason,
        } => {
            let why = match reason {
                TokenReason::Desert => "for building next to the desert",
                TokenReason::Coast => "for building on the coast",
                TokenReason::DesertAndCoast => "for building next to the desert and on the coast",
                TokenReason::Knight => "for discarding a played knight",
            };
            format!("{} earned {} {why}.", who(*seat), tokens(*n))
        }
        Event::TokensPaid { seat, tokens: n } => {
            format!("{} paid {}.", who(*seat), tokens(*n))
        }
        Event::SecondRollRepeated { seat, dice, total } => format!(
            "{} rolled {} and {}: {total}, the first roll's total again, so the dice are rolled again.",
            who(*seat),
            dice[0],
            dice[1]
        ),
        Event::NeutralBuildSkipped { seat, piece } => format!(
            "no neutral colour could take the free {} {} build owed, so none was built.",
            piece_name(*piece),
            t.seats(*seat)
        ),
        Event::KnightDiscarded { seat } => format!("{} discarded a played knight.", who(*seat)),
        Event::ForcedTradeDrew {
            seat,
            from,
            cards: c,
        } => format!(
            "{} drew {} from {} hand in a forced trade.",
            who(*seat),
            c.as_ref().map_or_else(|| "cards".into(), cards),
            t.seats(*from)
        ),
        Event::ForcedTradeGave { seat, to, cards: c } => format!(
            "{} gave {} {} back.",
            who(*seat),
            who(*to),
            c.as_ref().map_or_else(|| "cards".into(), cards)
        ),

        // --- neutral_trader ---
        Event::NeutralConverted {
            seat,
            gave,
            received,
        } => traded_with_bank(t, *seat, gave, *received),
        Event::RollOff {
            purpose,
            rounds,
            winner,
        } => {
            let what = match purpose {
                RollOffPurpose::NeutralRoad => "the neutral road",
                RollOffPurpose::Robber => "the robber",
                RollOffPurpose::Auction => "the auction",
            };
            let rounds: Vec<String> = rounds
                .iter()
                .map(|[a, b]| {
                    let (a_name, b_name) = (&t.names()[0], &t.names()[1]);
                    format!("{a_name} {a} to {b_name} {b}")
                })
                .collect();
            format!(
                "{} won the roll-off for {what} ({}).",
                who(*winner),
                rounds.join(", then ")
            )
        }
        Event::ChartRolled {
            seat,
            dice,
            total,
            outcome,
        } => {
            let result = match outcome {
                ChartOutcome::Offer { give, receive } => {
                    let wanted: Vec<String> =
                        receive.iter().map(|r| resource(r).to_string()).collect();
                    format!(
                        "the neutral offers 1 {} for {}",
                        or_list(&wanted),
                        plural(u32::from(*give), "card", "cards")
                    )
                }
                ChartOutcome::NeutralLacks => {
                    "the neutral holds none of what the chart names, so no trade".into()
                }
                ChartOutcome::TurnEnds => "no deal, and the turn ends".into(),
            };
            format!(
                "{} rolled {} and {} on the trade chart: {total}; {result}.",
                who(*seat),
                dice[0],
                dice[1]
            )
        }
        Event::NeutralTraded {
            seat,
            neutral,
            gave,
            received,
        } => format!(
            "{} gave {} {} for {}.",
            who(*seat),
            who(*neutral),
            cards(gave),
            one(*received)
        ),
        Event::NeutralTradeDeclined { seat } => {
            format!("{} declined the neutral's trade.", who(*seat))
        }

        // --- shadow ---
        Event::HexesRemoved {
            dice,
            hexes,
            red_tokens,
            ..
        } => {
            let dice: Vec<String> = dice.iter().map(u8::to_string).collect();
            let gone: Vec<String> = hexes.iter().map(|&h| hex(h, t)).collect();
            let gone = if gone.is_empty() {
                "no hex".into()
            } else {
                and_list(&gone)
            };
            let red = match red_tokens {
                0 => String::new(),
                n => format!(", {n} of them with a red 6 or 8"),
            };
            format!(
                "the removal roll ({}) takes out {gone}{red}.",
                and_list(&dice)
            )
        }
        Event::RemovalRerolled { reason } => match reason {
            RerollReason::TooManyRedTokens => {
                "the removal is rolled again: it took out more than two 6 or 8 tokens.".into()
            }
            RerollReason::BothAsked => {
                "the removal is rolled again: both players asked for it.".into()
            }
        },
        Event::RerollVoted { seat, reroll } => {
            if *reroll {
                format!("{} asked for the removal to be rolled again.", who(*seat))
            } else {
                format!("{} chose to keep the removal.", who(*seat))
            }
        }
        Event::FictionalTurnStarted { seat } => format!("{} turn begins.", t.seats(*seat)),
        Event::CardLost {
            seat,
            by,
            resource: r,
        } => format!(
            "{} lost {} to the bank to the robber {} moved.",
            who(*seat),
            r.map_or_else(|| "a card".into(), one),
            who(*by)
        ),
        Event::BankCardTaken {
            seat,
            rolls,
            resource: r,
        } => format!(
            "{} rolled {} for a card from the bank and took {}.",
            who(*seat),
            die_list(rolls),
            r.map_or_else(|| "nothing".into(), one)
        ),
        Event::CardOffered {
            seat,
            rolls,
            resource: r,
        } => format!(
            "{} rolled {} and offers {}.",
            who(*seat),
            die_list(rolls),
            r.map_or_else(|| "nothing".into(), one)
        ),
        Event::AuctionOpened {
            resource: r,
            bidders,
        } => {
            let bidders: Vec<String> = bidders.iter().map(|s| who(*s)).collect();
            format!("{} is auctioned; {} may bid.", one(*r), and_list(&bidders))
        }
        Event::BidSubmitted { seat } => format!("{} placed a sealed bid.", who(*seat)),
        Event::BidsRevealed { bids } => {
            let bids: Vec<String> = bids
                .iter()
                .map(|(s, c)| match c {
                    Some(c) => format!("{} {}", who(*s), cards(c)),
                    None => format!("{} passed", who(*s)),
                })
                .collect();
            format!("the bids are revealed: {}.", and_list(&bids))
        }
        Event::BidRaised { seat, added, total } => format!(
            "{} raised the bid by {} to {}.",
            who(*seat),
            cards(added),
            cards(total)
        ),
        Event::Conceded { seat } => format!("{} conceded the auction.", who(*seat)),
        Event::AuctionWon {
            seat,
            paid,
            resource: r,
            by,
        } => {
            let how = match by {
                AuctionWin::OnlyBidder => "as the only bidder",
                AuctionWin::OtherConceded => "as the other bidder conceded",
                AuctionWin::FewerVp => "on a tie, with fewer victory points",
                AuctionWin::RollOff => "on a tie, by the roll-off",
            };
            format!("{} won {} for {} {how}.", who(*seat), one(*r), cards(paid))
        }
        Event::MonopolyFromFictional {
            seat,
            resource: r,
            draws,
        } => {
            let draws: Vec<String> = draws
                .iter()
                .map(|(f, die, n)| format!("{} {n} (die {die})", who(*f)))
                .collect();
            format!(
                "the fictional players' share of {} came from the bank to {}: {}.",
                resource(*r),
                who(*seat),
                and_list(&draws)
            )
        }
        _ => return None,
    })
}

fn piece_name(piece: Piece) -> &'static str {
    match piece {
        Piece::Settlement => "settlement",
        Piece::Road => "road",
        Piece::City => "city",
    }
}

/// "5", "6, then 2".
fn die_list(rolls: &[u8]) -> String {
    let rolls: Vec<String> = rolls.iter().map(u8::to_string).collect();
    rolls.join(", then ")
}
