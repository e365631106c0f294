//! The arguments of a command: the legal entry it needs, and the nodes,
//! edges, hexes, players and cards it names.

use super::Line;
use crate::commands::CommandError;
use crate::commands::menu::code_of;
use crate::commands::words::{self, seat_choices};
use crate::describe::Table;
use hexpost_engine::board::{EdgeId, EdgeSet, HexId, NodeId, NodeSet, topology};
use hexpost_engine::cards::{Card, CardKind, Cards, ProgressCard, Resource};
use hexpost_engine::rulesets::ck_for_two::wire::ProgressOption;
use hexpost_engine::{Action, LegalAction, RobberTarget, Seat};

impl Line<'_> {
    // --- Finding the legal entry a command needs ---

    pub(super) fn has(&self, f: impl Fn(&LegalAction) -> bool) -> bool {
        self.legal.iter().any(f)
    }

    /// What the first legal entry `f` accepts gives, or `not_legal_now`.
    pub(super) fn entry<T>(
        &self,
        f: impl Fn(&LegalAction) -> Option<T>,
    ) -> Result<T, CommandError> {
        self.legal.iter().find_map(f).ok_or_else(|| self.not_now())
    }

    /// What every legal entry `f` accepts gives (at least one).
    pub(super) fn entries<T>(
        &self,
        f: impl Fn(&LegalAction) -> Option<T>,
    ) -> Result<Vec<T>, CommandError> {
        let found: Vec<T> = self.legal.iter().filter_map(f).collect();
        if found.is_empty() {
            return Err(self.not_now());
        }
        Ok(found)
    }

    /// A command without arguments: the one action the legal entries give,
    /// `ambiguous_command` if two different ones do.
    pub(super) fn bare(
        &self,
        f: impl Fn(&LegalAction) -> Option<Action>,
    ) -> Result<Action, CommandError> {
        let mut found = self.entries(f)?;
        found.dedup();
        if found.len() > 1 {
            return Err(CommandError::new(
                "ambiguous_command",
                format!(
                    "{} could mean {}",
                    self.code.to_uppercase(),
                    found
                        .iter()
                        .map(Action::name)
                        .collect::<Vec<_>>()
                        .join(" or ")
                ),
            ));
        }
        Ok(found.remove(0))
    }

    pub(super) fn not_now(&self) -> CommandError {
        CommandError::new(
            "not_legal_now",
            format!(
                "{} is not something you can do now; {}",
                self.code.to_uppercase(),
                self.may_now()
            ),
        )
    }

    pub(super) fn may_now(&self) -> String {
        let mut codes: Vec<String> = Vec::new();
        for l in self.legal {
            let code = code_of(l);
            if !codes.contains(&code) {
                codes.push(code);
            }
        }
        if codes.is_empty() {
            "nothing is asked of you now".into()
        } else {
            format!("you may now: {}", codes.join(", "))
        }
    }

    // --- Arguments ---

    pub(super) fn word(&mut self, what: &str) -> Result<String, CommandError> {
        let w = self.args.get(self.next).cloned().ok_or_else(|| {
            CommandError::new(
                "missing_argument",
                format!("{} needs a {what}", self.code.to_uppercase()),
            )
        })?;
        self.next += 1;
        Ok(w)
    }

    pub(super) fn rest(&mut self) -> Vec<String> {
        let rest = self.args[self.next..].to_vec();
        self.next = self.args.len();
        rest
    }

    pub(super) fn number(&mut self, what: &str) -> Result<u8, CommandError> {
        let w = self.word(&format!("{what} number"))?;
        w.parse()
            .map_err(|_| CommandError::new("bad_number", format!("\"{w}\" is not a {what} number")))
    }

    pub(super) fn next_is_number(&self) -> bool {
        self.args
            .get(self.next)
            .is_some_and(|w| w.parse::<u8>().is_ok())
    }

    /// `none` (or `no`, `nobody`) as the next word, taken.
    pub(super) fn none_follows(&mut self) -> bool {
        let none = self
            .args
            .get(self.next)
            .is_some_and(|w| matches!(w.as_str(), "none" | "no" | "nobody" | "nothing"));
        if none {
            self.next += 1;
        }
        none
    }

    pub(super) fn node_of(
        &mut self,
        f: impl Fn(&LegalAction) -> Option<NodeSet>,
    ) -> Result<NodeId, CommandError> {
        let nodes = self.entry(f)?;
        self.node_in(&nodes)
    }

    pub(super) fn node_or_none(
        &mut self,
        f: impl Fn(&LegalAction) -> Option<NodeSet>,
    ) -> Result<Option<NodeId>, CommandError> {
        let nodes = self.entry(f)?;
        if self.none_follows() {
            return Ok(None);
        }
        self.node_in(&nodes).map(Some)
    }

    pub(super) fn node_in(&mut self, nodes: &NodeSet) -> Result<NodeId, CommandError> {
        let node = self.number("node")?;
        if nodes.contains(node) {
            return Ok(node);
        }
        Err(CommandError::new(
            "bad_node",
            format!(
                "node {node} cannot be chosen here; choose {}",
                ids(nodes.iter())
            ),
        ))
    }

    /// An edge by its id (`20`) or by the two nodes it joins (`7-8`).
    pub(super) fn edge_in(&mut self, edges: &EdgeSet) -> Result<EdgeId, CommandError> {
        let first = self.number("edge")?;
        let edge = if self.next_is_number() {
            let second = self.number("node")?;
            topology().edge_between(first, second).ok_or_else(|| {
                CommandError::new(
                    "bad_edge",
                    format!("nodes {first} and {second} are not joined by an edge"),
                )
            })?
        } else {
            first
        };
        if edges.contains(edge) {
            return Ok(edge);
        }
        Err(CommandError::new(
            "bad_edge",
            format!(
                "edge {edge} cannot be chosen here; choose {}",
                ids(edges.iter())
            ),
        ))
    }

    pub(super) fn hex_in(&mut self, hexes: &[HexId]) -> Result<HexId, CommandError> {
        let hex = self.number("hex")?;
        if hexes.contains(&hex) {
            return Ok(hex);
        }
        Err(CommandError::new(
            "bad_hex",
            format!(
                "hex {hex} cannot be chosen here; choose {}",
                ids(hexes.iter().copied())
            ),
        ))
    }

    /// A hex and whom to rob there: named, or left out when there is
    /// nobody or only one to rob.
    pub(super) fn robber(
        &mut self,
        targets: &[RobberTarget],
    ) -> Result<(HexId, Option<Seat>), CommandError> {
        let hexes: Vec<HexId> = targets.iter().map(|t| t.hex).collect();
        let hex = self.hex_in(&hexes)?;
        let victims: Vec<Seat> = targets
            .iter()
            .find(|t| t.hex == hex)
            .map(|t| t.victims.to_vec())
            .unwrap_or_default();
        let said = self.rest();
        if said.is_empty() || said == ["none"] || said == ["nobody"] {
            return match victims.as_slice() {
                [] => Ok((hex, None)),
                [only] if said.is_empty() => Ok((hex, Some(*only))),
                _ => Err(must_rob(hex, &victims, self.table)),
            };
        }
        if victims.is_empty() {
            return Err(CommandError::new(
                "bad_player",
                format!("nobody can be robbed on hex {hex}; write only the hex"),
            ));
        }
        Ok((hex, Some(words::seat(&said, &victims, self.table)?)))
    }

    /// A node offered for a neutral, and the neutral it is for.
    pub(super) fn neutral_node(
        &mut self,
        f: impl Fn(&LegalAction) -> Option<(Seat, NodeSet)>,
    ) -> Result<(Seat, NodeId), CommandError> {
        let offers = self.entries(f)?;
        let node = self.node_in(&union(offers.iter().map(|(_, n)| n)))?;
        let neutral = self.neutral(
            offers
                .iter()
                .filter(|(_, n)| n.contains(node))
                .map(|(s, _)| *s),
        )?;
        Ok((neutral, node))
    }

    /// The neutral a build is for: named, or the only one that can take it.
    pub(super) fn neutral(
        &mut self,
        choices: impl Iterator<Item = Seat>,
    ) -> Result<Seat, CommandError> {
        let choices: Vec<Seat> = choices.collect();
        let said = self.rest();
        match (choices.as_slice(), said.is_empty()) {
            ([one], true) => Ok(*one),
            (_, true) => Err(CommandError::new(
                "missing_argument",
                format!(
                    "say which neutral builds: {}",
                    seat_choices(&choices, self.table)
                ),
            )),
            _ => words::seat(&said, &choices, self.table),
        }
    }

    pub(super) fn resource(&mut self) -> Result<Resource, CommandError> {
        words::resource(&self.word("resource")?)
    }

    pub(super) fn cards(&mut self) -> Result<Cards, CommandError> {
        let rest = self.rest();
        if rest.is_empty() {
            return Err(CommandError::new(
                "missing_argument",
                format!(
                    "{} needs cards, e.g. 2 brick wool",
                    self.code.to_uppercase()
                ),
            ));
        }
        words::cards(&rest)
    }

    /// Exactly `count` cards.
    pub(super) fn exactly(&mut self, count: u8) -> Result<Cards, CommandError> {
        let cards = self.cards()?;
        if cards.total() != u32::from(count) {
            return Err(wrong_count(count, cards.total() as usize, "cards"));
        }
        Ok(cards)
    }

    /// `<cards> FOR <cards>`.
    pub(super) fn cards_for(&mut self) -> Result<(Cards, Cards), CommandError> {
        let rest = self.rest();
        let Some(at) = rest.iter().position(|w| w == "for") else {
            return Err(CommandError::new(
                "missing_argument",
                format!(
                    "{} needs what you give, FOR, then what you receive",
                    self.code.to_uppercase()
                ),
            ));
        };
        Ok((words::cards(&rest[..at])?, words::cards(&rest[at + 1..])?))
    }

    pub(super) fn progress_card(&mut self) -> Result<ProgressCard, CommandError> {
        let rest = self.args[self.next..].to_vec();
        let (card, used) = words::progress(&rest)?;
        self.next += used;
        Ok(card)
    }
}

/// The card a `play_progress` option is for.
pub(super) fn progress_of(option: &ProgressOption) -> Option<ProgressCard> {
    let tag = serde_json::to_value(option).ok()?;
    serde_json::from_value(tag["card"].clone()).ok()
}

pub(super) fn union<'s>(sets: impl Iterator<Item = &'s NodeSet>) -> NodeSet {
    let mut all = NodeSet::default();
    for s in sets {
        s.iter().for_each(|n| all.insert(n));
    }
    all
}

pub(super) fn ids(ids: impl Iterator<Item = u8>) -> String {
    let ids: Vec<String> = ids.map(|i| i.to_string()).collect();
    if ids.is_empty() {
        "none is left".into()
    } else {
        ids.join(", ")
    }
}

pub(super) fn wrong_count(expected: u8, got: usize, what: &str) -> CommandError {
    CommandError::new(
        "wrong_count",
        format!("exactly {expected} {what} are needed here, not {got}"),
    )
}

pub(super) fn non_empty(cards: Cards, what: &str) -> Result<Cards, CommandError> {
    if cards.is_empty() {
        return Err(CommandError::new(
            "missing_argument",
            format!("{what} is empty"),
        ));
    }
    Ok(cards)
}

pub(super) fn commodity_refused(c: Card) -> CommandError {
    CommandError::new(
        "card_not_allowed",
        format!("{c} is a commodity; name a resource (brick, lumber, wool, grain or ore)"),
    )
}

/// A bank trade giving a card the bank takes no trade in now; `gives` are
/// the rates and cards it does.
pub(super) fn not_offered(give: Card, gives: impl Iterator<Item = (u8, Card)>) -> CommandError {
    let gives: Vec<String> = gives.map(|(ratio, c)| format!("{ratio} {c}")).collect();
    CommandError::new(
        "card_not_allowed",
        format!(
            "you cannot trade {give} with the bank now; you can give {}",
            gives.join(", ")
        ),
    )
}

pub(super) fn cannot_receive(c: Card, choices: impl Iterator<Item = Card>) -> CommandError {
    let names: Vec<&str> = choices.map(|c| c.name()).collect();
    CommandError::new(
        "card_not_allowed",
        format!("{c} cannot be chosen here; choose {}", names.join(", ")),
    )
}

pub(super) fn must_rob(hex: HexId, victims: &[Seat], table: Option<&Table>) -> CommandError {
    CommandError::new(
        "missing_argument",
        format!(
            "say whom you rob on hex {hex}: {}",
            seat_choices(victims, table)
        ),
    )
}
