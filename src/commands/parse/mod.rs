//! Reading one command line against a seat's legal actions.

mod arguments;
mod checked;

use super::CommandError;
use super::words;
use crate::describe::Table;
use arguments::{commodity_refused, non_empty, union, wrong_count};
use hexpost_engine::board::EdgeSet;
use hexpost_engine::cards::Resource;
use hexpost_engine::{Action, LegalAction};

/// Reads `line` as one of the `legal` actions, naming seats by colour or
/// `opp` (see [`parse_for`] to accept the players' names too).
pub fn parse(line: &str, legal: &[LegalAction]) -> Result<Action, CommandError> {
    Line::new(line, legal, None)?.read()
}

/// [`parse`], also accepting the names `table` gives the seats ("bob",
/// "neutral white").
pub fn parse_for(line: &str, legal: &[LegalAction], table: &Table) -> Result<Action, CommandError> {
    Line::new(line, legal, Some(table))?.read()
}

/// Longer words for the codes, each read as the code.
const ALIASES: [(&str, &str); 30] = [
    ("roll", "r"),
    ("end", "e"),
    ("done", "e"),
    ("road", "d"),
    ("settle", "s"),
    ("settlement", "s"),
    ("city", "c"),
    ("buy", "dev"),
    ("knight", "k"),
    ("robber", "m"),
    ("discard", "x"),
    ("trade", "t"),
    ("monopoly", "mono"),
    ("plenty", "yop"),
    ("roadbuilding", "rb"),
    ("wall", "w"),
    ("improve", "i"),
    ("recruit", "kr"),
    ("activate", "ka"),
    ("promote", "kp"),
    ("move", "km"),
    ("displace", "kd"),
    ("chase", "kc"),
    ("remove", "kx"),
    ("play", "p"),
    ("aqueduct", "aq"),
    ("giveup", "gu"),
    ("metropolis", "metro"),
    ("deserter", "pd"),
    ("reroll", "vote"),
];

struct Line<'a> {
    code: String,
    args: Vec<String>,
    next: usize,
    legal: &'a [LegalAction],
    table: Option<&'a Table>,
}

impl<'a> Line<'a> {
    fn new(
        line: &str,
        legal: &'a [LegalAction],
        table: Option<&'a Table>,
    ) -> Result<Line<'a>, CommandError> {
        let mut words = words::split(line);
        if words.is_empty() {
            return Err(CommandError::new("empty_command", "the line is empty"));
        }
        let first = words.remove(0);
        let code = ALIASES
            .iter()
            .find(|(alias, _)| *alias == first)
            .map_or(first.clone(), |(_, code)| code.to_string());
        Ok(Line {
            code,
            args: words,
            next: 0,
            legal,
            table,
        })
    }

    fn read(mut self) -> Result<Action, CommandError> {
        let action = self.action()?;
        if self.next == self.args.len() {
            return Ok(action);
        }
        Err(CommandError::new(
            "extra_argument",
            format!(
                "\"{}\" is more than {} takes; write one command per line",
                self.args[self.next..].join(" "),
                self.code.to_uppercase(),
            ),
        ))
    }

    fn action(&mut self) -> Result<Action, CommandError> {
        use LegalAction as L;
        Ok(match self.code.as_str() {
            "r" => self.bare(|l| matches!(l, L::RollDice).then_some(Action::RollDice))?,
            "e" => self.bare(|l| matches!(l, L::EndTurn).then_some(Action::EndTurn))?,
            "d" => {
                let edges = self.entry(|l| match l {
                    L::BuildRoad { edges, .. } => Some(*edges),
                    _ => None,
                })?;
                Action::BuildRoad {
                    edge: self.edge_in(&edges)?,
                }
            }
            "s" => Action::BuildSettlement {
                node: self.node_of(|l| match l {
                    L::BuildSettlement { nodes, .. } => Some(*nodes),
                    _ => None,
                })?,
            },
            "c" => Action::BuildCity {
                node: self.node_of(|l| match l {
                    L::BuildCity { nodes } => Some(*nodes),
                    _ => None,
                })?,
            },
            "dev" => self.bare(|l| {
                matches!(l, L::BuyDevelopmentCard).then_some(Action::BuyDevelopmentCard)
            })?,
            "k" => {
                let targets = self.entry(|l| match l {
                    L::PlayKnight { targets } => Some(targets.clone()),
                    _ => None,
                })?;
                let (hex, victim) = self.robber(&targets)?;
                Action::PlayKnight { hex, victim }
            }
            "rb" => {
                self.bare(|l| matches!(l, L::PlayRoadBuilding).then_some(Action::PlayRoadBuilding))?
            }
            "yop" => {
                let count = self.entry(|l| match l {
                    L::PlayYearOfPlenty { count } => Some(*count),
                    _ => None,
                })?;
                let rest = self.rest();
                let resources = words::card_sequence(&rest)?
                    .into_iter()
                    .map(|c| c.resource().ok_or_else(|| commodity_refused(c)))
                    .collect::<Result<Vec<Resource>, _>>()?;
                if resources.len() != usize::from(count) {
                    return Err(wrong_count(count, resources.len(), "resources"));
                }
                Action::PlayYearOfPlenty { resources }
            }
            "mono" => {
                self.entry(|l| matches!(l, L::PlayMonopoly).then_some(()))?;
                Action::PlayMonopoly {
                    resource: self.resource()?,
                }
            }
            "m" => {
                let targets = self.entry(|l| match l {
                    L::MoveRobber { targets } => Some(targets.clone()),
                    _ => None,
                })?;
                let (hex, victim) = self.robber(&targets)?;
                Action::MoveRobber { hex, victim }
            }
            "x" => {
                let count = self.entry(|l| match l {
                    L::Discard { count } => Some(*count),
                    _ => None,
                })?;
                Action::Discard {
                    cards: self.exactly(count)?,
                }
            }
            "t" => self.trade()?,
            "offer" => {
                self.entry(|l| matches!(l, L::OfferTrade).then_some(()))?;
                let (give, receive) = self.cards_for()?;
                Action::OfferTrade {
                    give: non_empty(give, "what you give")?,
                    receive: non_empty(receive, "what you ask for")?,
                }
            }
            "accept" if self.args.is_empty() && self.has(|l| matches!(l, L::AcceptTrade)) => {
                Action::AcceptTrade
            }
            "accept" => self.accept_neutral()?,
            "decline" => self.bare(|l| match l {
                L::DeclineTrade => Some(Action::DeclineTrade),
                L::DeclineNeutralTrade => Some(Action::DeclineNeutralTrade),
                _ => None,
            })?,
            "withdraw" => {
                self.bare(|l| matches!(l, L::WithdrawTrade).then_some(Action::WithdrawTrade))?
            }
            "nd" => {
                let offers = self.entries(|l| match l {
                    L::BuildNeutralRoad { neutral, edges } => Some((*neutral, *edges)),
                    _ => None,
                })?;
                let edge =
                    self.edge_in(&offers.iter().fold(EdgeSet::default(), |mut all, (_, e)| {
                        e.iter().for_each(|x| all.insert(x));
                        all
                    }))?;
                let neutral = self.neutral(
                    offers
                        .iter()
                        .filter(|(_, e)| e.contains(edge))
                        .map(|(n, _)| *n),
                )?;
                Action::BuildNeutralRoad { neutral, edge }
            }
            "ns" => {
                let (neutral, node) = self.neutral_node(|l| match l {
                    L::BuildNeutralSettlement { neutral, nodes } => Some((*neutral, *nodes)),
                    _ => None,
                })?;
                Action::BuildNeutralSettlement { neutral, node }
            }
            "nk" => {
                let (neutral, node) = self.neutral_node(|l| match l {
                    L::PlaceNeutralKnight { neutral, nodes } => Some((*neutral, *nodes)),
                    _ => None,
                })?;
                Action::PlaceNeutralKnight { neutral, node }
            }
            // Where only the forced trade of resources is open, FT is it.
            "ft" if !self.has(|l| matches!(l, L::ForcedTrade { .. })) => self.bare(|l| {
                matches!(l, L::ForcedTradeResources { .. }).then_some(Action::ForcedTradeResources)
            })?,
            "ft" => {
                self.bare(|l| matches!(l, L::ForcedTrade { .. }).then_some(Action::ForcedTrade))?
            }
            "ftr" => self.bare(|l| {
                matches!(l, L::ForcedTradeResources { .. }).then_some(Action::ForcedTradeResources)
            })?,
            "give" => self.give()?,
            "desert" => self.bare(|l| {
                matches!(l, L::RobberToDesert { .. }).then_some(Action::RobberToDesert)
            })?,
            "dk" => {
                self.bare(|l| matches!(l, L::DiscardKnight).then_some(Action::DiscardKnight))?
            }
            "ask" => {
                self.bare(|l| matches!(l, L::AskNeutralTrade).then_some(Action::AskNeutralTrade))?
            }
            "vote" => {
                self.entry(|l| matches!(l, L::VoteReroll).then_some(()))?;
                let reroll = match self.word("yes or no")?.as_str() {
                    "yes" | "y" | "reroll" => true,
                    "no" | "n" | "keep" => false,
                    other => {
                        return Err(CommandError::new(
                            "bad_choice",
                            format!("\"{other}\" is neither YES (roll the removal again) nor NO"),
                        ));
                    }
                };
                Action::VoteReroll { reroll }
            }
            "bid" => {
                self.entry(|l| matches!(l, L::Bid).then_some(()))?;
                Action::Bid {
                    cards: non_empty(self.cards()?, "your bid")?,
                }
            }
            "pass" => self.bare(|l| matches!(l, L::PassBid).then_some(Action::PassBid))?,
            "raise" => {
                let (min, available) = self.entry(|l| match l {
                    L::RaiseBid { min, available } => Some((*min, *available)),
                    _ => None,
                })?;
                let cards = self.cards()?;
                let n = cards.total();
                if n < u32::from(min) || n > u32::from(available) {
                    return Err(CommandError::new(
                        "wrong_count",
                        format!("a raise is {min} to {available} cards; this one is {n}"),
                    ));
                }
                Action::RaiseBid { cards }
            }
            "concede" => self.bare(|l| matches!(l, L::Concede).then_some(Action::Concede))?,
            "w" => Action::BuildWall {
                node: self.node_of(|l| match l {
                    L::BuildWall { nodes } => Some(*nodes),
                    _ => None,
                })?,
            },
            "i" => self.improvement()?,
            "kr" => Action::RecruitKnight {
                node: self.node_of(|l| match l {
                    L::RecruitKnight { nodes } => Some(*nodes),
                    _ => None,
                })?,
            },
            "ka" => Action::ActivateKnight {
                node: self.node_of(|l| match l {
                    L::ActivateKnight { nodes } => Some(*nodes),
                    _ => None,
                })?,
            },
            "kp" => Action::PromoteKnight {
                node: self.node_of(|l| match l {
                    L::PromoteKnight { nodes } => Some(*nodes),
                    _ => None,
                })?,
            },
            "km" | "kd" => {
                let displace = self.code == "kd";
                let moves = self.entry(|l| match l {
                    L::MoveKnight { moves } if !displace => Some(moves.clone()),
                    L::DisplaceKnight { moves } if displace => Some(moves.clone()),
                    _ => None,
                })?;
                let from = self.node_in(&moves.iter().map(|m| m.from).collect())?;
                let to = self.node_in(&union(
                    moves.iter().filter(|m| m.from == from).map(|m| &m.to),
                ))?;
                if displace {
                    Action::DisplaceKnight { from, to }
                } else {
                    Action::MoveKnight { from, to }
                }
            }
            "kc" => {
                let knights = self.entries(|l| match l {
                    L::ChaseRobber { knight, targets } => Some((*knight, targets.clone())),
                    _ => None,
                })?;
                let knight = self.node_in(&knights.iter().map(|(k, _)| *k).collect())?;
                let targets = knights
                    .iter()
                    .find(|(k, _)| *k == knight)
                    .map(|(_, t)| t.clone())
                    .unwrap_or_default();
                let (hex, victim) = self.robber(&targets)?;
                Action::ChaseRobber {
                    knight,
                    hex,
                    victim,
                }
            }
            "kx" => Action::RemoveKnight {
                node: self.node_of(|l| match l {
                    L::RemoveKnight { nodes } => Some(*nodes),
                    _ => None,
                })?,
            },
            "p" => Action::PlayProgress {
                play: self.progress_play()?,
            },
            "xp" => {
                self.entry(|l| matches!(l, L::DiscardProgress).then_some(()))?;
                Action::DiscardProgress {
                    card: self.progress_card()?,
                }
            }
            "lose" => Action::LoseCity {
                node: self.node_of(|l| match l {
                    L::LoseCity { nodes } => Some(*nodes),
                    _ => None,
                })?,
            },
            "draw" => {
                let tracks = self.entry(|l| match l {
                    L::DrawProgress { tracks } => Some(tracks.clone()),
                    _ => None,
                })?;
                let track = words::track(&self.word("track (trade, politics or science)")?)?;
                if !tracks.contains(&track) {
                    return Err(CommandError::new(
                        "bad_choice",
                        format!(
                            "you cannot draw from the {track} deck; you can draw from {}",
                            tracks
                                .iter()
                                .map(|t| t.to_string())
                                .collect::<Vec<_>>()
                                .join(" or ")
                        ),
                    ));
                }
                Action::DrawProgress { track }
            }
            "aq" => {
                self.entry(|l| matches!(l, L::AqueductPick).then_some(()))?;
                let resource = if self.none_follows() {
                    None
                } else {
                    Some(self.resource()?)
                };
                Action::AqueductPick { resource }
            }
            "gu" => Action::GiveUpKnight {
                node: self.node_of(|l| match l {
                    L::GiveUpKnight { nodes } => Some(*nodes),
                    _ => None,
                })?,
            },
            "retreat" => Action::RetreatKnight {
                node: self.node_of(|l| match l {
                    L::RetreatKnight { nodes } => Some(*nodes),
                    _ => None,
                })?,
            },
            "nkp" => Action::PromoteNeutralKnight {
                node: self.node_of(|l| match l {
                    L::PromoteNeutralKnight { nodes } => Some(*nodes),
                    _ => None,
                })?,
            },
            "pd" => Action::PlaceDeserterKnight {
                node: self.node_or_none(|l| match l {
                    L::PlaceDeserterKnight { nodes } => Some(*nodes),
                    _ => None,
                })?,
            },
            "smith" => Action::SmithPromote {
                node: self.node_or_none(|l| match l {
                    L::SmithPromote { nodes } => Some(*nodes),
                    _ => None,
                })?,
            },
            "replace" => {
                let edges = self.entry(|l| match l {
                    L::ReplaceRoad { edges } => Some(*edges),
                    _ => None,
                })?;
                let edge = if self.none_follows() {
                    None
                } else {
                    Some(self.edge_in(&edges)?)
                };
                Action::ReplaceRoad { edge }
            }
            "spy" => {
                self.entry(|l| matches!(l, L::SpyTake).then_some(()))?;
                let card = if self.none_follows() {
                    None
                } else {
                    Some(self.progress_card()?)
                };
                Action::SpyTake { card }
            }
            "take" => {
                let count = self.entry(|l| match l {
                    L::TakeCards { count } => Some(*count),
                    _ => None,
                })?;
                Action::TakeCards {
                    cards: self.exactly(count)?,
                }
            }
            "metro" => Action::PlaceMetropolis {
                node: self.node_of(|l| match l {
                    L::PlaceMetropolis { nodes } => Some(*nodes),
                    _ => None,
                })?,
            },
            other => {
                return Err(CommandError::new(
                    "unknown_command",
                    format!("\"{other}\" is not a command; {}", self.may_now()),
                ));
            }
        })
    }
}
