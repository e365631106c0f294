//! `standard` and `duel`: the base rules with no automated seats. The duel
//! preset differs only in option defaults (`options::GameConfig::resolve`).

use super::VariantHooks;

pub struct Standard;

impl VariantHooks for Standard {}
