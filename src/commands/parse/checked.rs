//! The commands with more to check than one choice: bank trades, the
//! neutral's chart, cards given, improvements and progress cards.

use super::Line;
use super::arguments::{cannot_receive, commodity_refused, not_offered, progress_of, wrong_count};
use crate::commands::CommandError;
use crate::commands::words;
use hexpost_engine::board::HexId;
use hexpost_engine::cards::{Card, Cards};
use hexpost_engine::rulesets::ck_for_two::wire::{ProgressOption, ProgressPlay, inventor_pairs};
use hexpost_engine::{Action, LegalAction, Seat};

impl Line<'_> {
    // --- Commands with more to check ---

    /// `T [ratio] <give> <receive>`: a maritime trade, or a Cities &
    /// Knights bank trade (which may give or take commodities).
    pub(super) fn trade(&mut self) -> Result<Action, CommandError> {
        let ratio = if self.next_is_number() {
            Some(self.number("ratio")?)
        } else {
            None
        };
        let give_word = self.word("card to give")?;
        let receive_word = self.word("card to receive")?;
        let (give, receive) = (words::card(&give_word)?, words::card(&receive_word)?);
        let maritime = self.legal.iter().find_map(|l| match l {
            LegalAction::MaritimeTrade { options } => Some(options.clone()),
            _ => None,
        });
        if let Some(options) = maritime {
            let (g, r) = (
                give.resource().ok_or_else(|| commodity_refused(give))?,
                receive
                    .resource()
                    .ok_or_else(|| commodity_refused(receive))?,
            );
            let option = options.iter().find(|o| o.give == g).ok_or_else(|| {
                not_offered(give, options.iter().map(|o| (o.ratio, Card::from(o.give))))
            })?;
            if !option.receive.contains(r) {
                return Err(cannot_receive(
                    receive,
                    option.receive.iter().map(Card::from),
                ));
            }
            return Ok(Action::MaritimeTrade {
                give: g,
                receive: r,
                ratio,
            });
        }
        let options = self.entry(|l| match l {
            LegalAction::BankTrade { options } => Some(options.clone()),
            _ => None,
        })?;
        let option = options
            .iter()
            .find(|o| o.give == give)
            .ok_or_else(|| not_offered(give, options.iter().map(|o| (o.ratio, o.give))))?;
        if !option.receive.contains(receive) {
            return Err(cannot_receive(receive, option.receive.iter()));
        }
        Ok(Action::BankTrade {
            give,
            receive,
            ratio,
        })
    }

    /// `ACCEPT <cards> FOR <resource>`: the neutral trader's chart.
    pub(super) fn accept_neutral(&mut self) -> Result<Action, CommandError> {
        let (count, receivable) = self.entry(|l| match l {
            LegalAction::AcceptNeutralTrade { give, receive } => Some((*give, *receive)),
            _ => None,
        })?;
        if self.args.is_empty() {
            return Err(CommandError::new(
                "missing_argument",
                format!("ACCEPT needs the {count} cards you give, FOR, and the resource you take"),
            ));
        }
        let (give, receive) = self.cards_for()?;
        if give.total() != u32::from(count) {
            return Err(wrong_count(count, give.total() as usize, "cards given"));
        }
        let taken: Vec<(Card, u8)> = receive.iter().filter(|&(_, n)| n > 0).collect();
        let receive = match taken.as_slice() {
            [(c, 1)] => c.resource().ok_or_else(|| commodity_refused(*c))?,
            _ => {
                return Err(CommandError::new(
                    "wrong_count",
                    "the neutral gives one resource: write one after FOR",
                ));
            }
        };
        if !receivable.contains(receive) {
            return Err(cannot_receive(
                Card::from(receive),
                receivable.iter().map(Card::from),
            ));
        }
        Ok(Action::AcceptNeutralTrade { give, receive })
    }

    /// `GIVE <cards>`: the cards owed after a forced trade's draw, to a
    /// Wedding or to a Commercial Harbor.
    pub(super) fn give(&mut self) -> Result<Action, CommandError> {
        use LegalAction as L;
        let (count, only, forced) = self.entry(|l| match l {
            L::ForcedTradeGive {
                count,
                resources_only,
            } => Some((*count, resources_only.then_some("resource"), true)),
            L::GiveCards {
                count,
                commodities_only,
            } => Some((*count, commodities_only.then_some("commodity"), false)),
            _ => None,
        })?;
        let cards = self.exactly(count)?;
        let wrong = match only {
            Some("resource") => cards.commodities(),
            Some(_) => cards.resources(),
            None => Cards::ZERO,
        };
        if !wrong.is_empty() {
            return Err(CommandError::new(
                "card_not_allowed",
                format!("only {} cards may be given here", only.unwrap_or_default()),
            ));
        }
        Ok(if forced {
            Action::ForcedTradeGive { cards }
        } else {
            Action::GiveCards { cards }
        })
    }

    /// `I <track> [crane]`.
    pub(super) fn improvement(&mut self) -> Result<Action, CommandError> {
        let options = self.entry(|l| match l {
            LegalAction::BuyImprovement { options } => Some(options.clone()),
            _ => None,
        })?;
        let track = words::track(&self.word("track (trade, politics or science)")?)?;
        let crane = self.args.get(self.next).is_some_and(|w| w == "crane");
        if crane {
            self.next += 1;
        }
        if options.iter().any(|o| o.track == track && o.crane == crane) {
            return Ok(Action::BuyImprovement { track, crane });
        }
        let can: Vec<String> = options
            .iter()
            .map(|o| format!("{}{}", o.track, if o.crane { " crane" } else { "" }))
            .collect();
        Err(CommandError::new(
            "bad_choice",
            format!(
                "you cannot buy {track}{} now; you can buy: {}",
                if crane { " with a Crane" } else { "" },
                can.join(", ")
            ),
        ))
    }

    /// `P <card> <its choices>`.
    pub(super) fn progress_play(&mut self) -> Result<ProgressPlay, CommandError> {
        use ProgressOption as O;
        use ProgressPlay as P;
        let card = self.progress_card()?;
        let options = self.entries(|l| match l {
            LegalAction::PlayProgress { play } => Some((**play).clone()),
            _ => None,
        })?;
        let option = options
            .into_iter()
            .find(|o| progress_of(o) == Some(card))
            .ok_or_else(|| {
                CommandError::new(
                    "not_legal_now",
                    format!(
                        "you cannot play {} now; {}",
                        words::write_progress(card),
                        self.may_now()
                    ),
                )
            })?;
        Ok(match option {
            O::Alchemist => {
                let yellow = self.die("yellow")?;
                let red = self.die("red")?;
                P::Alchemist { yellow, red }
            }
            O::Engineer { nodes } => P::Engineer {
                node: self.node_in(&nodes)?,
            },
            O::Inventor { hexes } => {
                let all: Vec<HexId> = hexes.iter().map(|h| h.hex).collect();
                let a = self.hex_in(&all)?;
                let b = self.hex_in(&all)?;
                if !inventor_pairs(&hexes).any(|p| p == [a, b] || p == [b, a]) {
                    return Err(CommandError::new(
                        "bad_hex",
                        format!("hexes {a} and {b} cannot be swapped: their numbers must differ"),
                    ));
                }
                P::Inventor { hexes: [a, b] }
            }
            O::Irrigation => P::Irrigation,
            O::Medicine { nodes } => P::Medicine {
                node: self.node_in(&nodes)?,
            },
            O::Mining => P::Mining,
            O::RoadBuilding => P::RoadBuilding,
            O::Smith { nodes } => P::Smith {
                node: self.node_in(&nodes)?,
            },
            O::Bishop { targets } => {
                let (hex, victim) = self.robber(&targets)?;
                P::Bishop { hex, victim }
            }
            O::Deserter { targets } => {
                let mut said = Vec::new();
                while self.next < self.args.len() && !self.next_is_number() {
                    said.push(self.args[self.next].clone());
                    self.next += 1;
                }
                let seats: Vec<Seat> = targets.iter().map(|t| t.target).collect();
                let target = match (seats.as_slice(), said.is_empty()) {
                    ([one], true) => *one,
                    _ => words::seat(&said, &seats, self.table)?,
                };
                let nodes = targets
                    .iter()
                    .find(|t| t.target == target)
                    .map(|t| t.nodes)
                    .unwrap_or_default();
                let node = match nodes.len() {
                    0 => None,
                    1 if !self.next_is_number() => nodes.nth(0),
                    _ => Some(self.node_in(&nodes)?),
                };
                P::Deserter { target, node }
            }
            O::Diplomat { edges } => P::Diplomat {
                edge: self.edge_in(&edges)?,
            },
            O::Intrigue { nodes } => P::Intrigue {
                node: self.node_in(&nodes)?,
            },
            O::Saboteur => P::Saboteur,
            O::Spy => P::Spy,
            O::Warlord => P::Warlord,
            O::Wedding => P::Wedding,
            O::CommercialHarbor { resources } => {
                let resource = self.resource()?;
                if !resources.contains(resource) {
                    return Err(cannot_receive(
                        Card::from(resource),
                        resources.iter().map(Card::from),
                    ));
                }
                P::CommercialHarbor { resource }
            }
            O::MasterMerchant => P::MasterMerchant,
            O::Merchant { hexes } => P::Merchant {
                hex: self.hex_in(&hexes)?,
            },
            O::MerchantFleet { cards } => {
                let named = words::card(&self.word("card")?)?;
                if !cards.contains(named) {
                    return Err(cannot_receive(named, cards.iter()));
                }
                P::MerchantFleet { named }
            }
            O::ResourceMonopoly => P::ResourceMonopoly {
                resource: self.resource()?,
            },
            O::TradeMonopoly => {
                let c = words::card(&self.word("commodity")?)?;
                let commodity = c.commodity().ok_or_else(|| {
                    CommandError::new(
                        "card_not_allowed",
                        format!("{c} is a resource; name a commodity (paper, cloth or coin)"),
                    )
                })?;
                P::TradeMonopoly { commodity }
            }
        })
    }

    pub(super) fn die(&mut self, colour: &str) -> Result<u8, CommandError> {
        let n = self.number(&format!("{colour} die"))?;
        if (1..=6).contains(&n) {
            return Ok(n);
        }
        Err(CommandError::new(
            "bad_number",
            format!("the {colour} die shows 1 to 6, not {n}"),
        ))
    }
}
