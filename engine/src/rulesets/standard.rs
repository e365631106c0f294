//! `standard` and `duel`: the base game as it is (RULES.md §1, §2). The
//! duel preset differs only in option defaults (`options::GameConfig::resolve`).

use crate::contract::Ruleset;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Standard;

impl Ruleset for Standard {}
