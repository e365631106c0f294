//! Game configuration: the variant, and every option RULES.md names, each
//! usable on its own. `GameConfig` is what a game creator sends; `Rules` is
//! the resolved, complete set the engine plays by.

use crate::board::LayoutKind;
use serde::{Deserialize, Serialize};

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Variant {
    #[default]
    Standard,
    Duel,
}

impl Variant {
    pub const ALL: [Variant; 2] = [Variant::Standard, Variant::Duel];

    pub fn id(self) -> &'static str {
        match self {
            Variant::Standard => "standard",
            Variant::Duel => "duel",
        }
    }

    pub fn parse(id: &str) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.id() == id)
    }
}

/// Options as the game creator gives them; every field may be left out, and
/// the variant's preset fills the gaps.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GameOptions {
    /// Victory points needed to win (3..=20).
    #[cfg_attr(feature = "openapi", schema(minimum = 3, maximum = 20))]
    pub vp_target: Option<u8>,
    /// A player holding more than this many cards discards half on a 7 (5..=20).
    #[cfg_attr(feature = "openapi", schema(minimum = 5, maximum = 20))]
    pub discard_limit: Option<u8>,
    /// The robber may not go on a hex touching a building of a player with
    /// 2 or fewer visible victory points.
    pub friendly_robber: Option<bool>,
    /// Rolls come from a deck of the 36 outcomes (see `rng::Dice`).
    pub balanced_dice: Option<bool>,
    pub board: Option<LayoutKind>,
    /// On random boards, no 6 or 8 next to another 6 or 8.
    pub no_adjacent_red: Option<bool>,
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GameConfig {
    pub variant: Variant,
    pub options: GameOptions,
}

/// The complete rule set of one game, after the preset and options are merged.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rules {
    pub variant: Variant,
    pub vp_target: u8,
    pub discard_limit: u8,
    pub friendly_robber: bool,
    pub balanced_dice: bool,
    pub board: LayoutKind,
    pub no_adjacent_red: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize)]
#[error("option `{option}` {reason}")]
pub struct ConfigError {
    pub option: &'static str,
    pub reason: String,
}

impl GameConfig {
    pub fn new(variant: Variant) -> Self {
        GameConfig {
            variant,
            options: GameOptions::default(),
        }
    }

    pub fn resolve(&self) -> Result<Rules, ConfigError> {
        let o = &self.options;
        let duel = self.variant == Variant::Duel;
        let rules = Rules {
            variant: self.variant,
            vp_target: o.vp_target.unwrap_or(if duel { 15 } else { 10 }),
            discard_limit: o.discard_limit.unwrap_or(if duel { 9 } else { 7 }),
            friendly_robber: o.friendly_robber.unwrap_or(duel),
            balanced_dice: o.balanced_dice.unwrap_or(duel),
            board: o.board.unwrap_or_default(),
            no_adjacent_red: o.no_adjacent_red.unwrap_or(true),
        };
        if !(3..=20).contains(&rules.vp_target) {
            return Err(ConfigError {
                option: "vp_target",
                reason: format!("must be between 3 and 20, got {}", rules.vp_target),
            });
        }
        if !(5..=20).contains(&rules.discard_limit) {
            return Err(ConfigError {
                option: "discard_limit",
                reason: format!("must be between 5 and 20, got {}", rules.discard_limit),
            });
        }
        Ok(rules)
    }

    /// Sets one option from `key=value` text, as the simulator's `--option`
    /// flag and admin tools pass them. The value is read as JSON when it
    /// parses as JSON, else as a string.
    pub fn set_option(&mut self, key: &str, value: &str) -> Result<(), ConfigError> {
        let mut obj = serde_json::to_value(&self.options).map_err(|e| ConfigError {
            option: "options",
            reason: e.to_string(),
        })?;
        let v =
            serde_json::from_str(value).unwrap_or_else(|_| serde_json::Value::String(value.into()));
        obj.as_object_mut()
            .expect("options serialize as an object")
            .insert(key.to_string(), v);
        self.options = serde_json::from_value(obj).map_err(|e| ConfigError {
            option: "options",
            reason: format!("{key}={value}: {e}"),
        })?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duel_preset_and_overrides() {
        let r = GameConfig::new(Variant::Duel).resolve().unwrap();
        assert_eq!(
            (
                r.vp_target,
                r.discard_limit,
                r.friendly_robber,
                r.balanced_dice
            ),
            (15, 9, true, true)
        );
        let mut c = GameConfig::new(Variant::Duel);
        c.set_option("vp_target", "12").unwrap();
        c.set_option("balanced_dice", "false").unwrap();
        let r = c.resolve().unwrap();
        assert_eq!(
            (r.vp_target, r.balanced_dice, r.friendly_robber),
            (12, false, true)
        );
        let mut s = GameConfig::new(Variant::Standard);
        s.set_option("friendly_robber", "true").unwrap();
        assert!(s.resolve().unwrap().friendly_robber);
        assert_eq!(s.resolve().unwrap().vp_target, 10);
    }

    #[test]
    fn bad_options_are_refused() {
        let mut c = GameConfig::default();
        assert!(c.set_option("no_such", "1").is_err());
        assert!(c.set_option("vp_target", "\"ten\"").is_err());
        c.set_option("vp_target", "99").unwrap();
        assert_eq!(c.resolve().unwrap_err().option, "vp_target");
    }
}
