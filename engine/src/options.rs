//! Game configuration: the variant, and every option RULES.md names, each
//! usable on its own. `GameConfig` is what a game creator sends; `Rules` is
//! the resolved, complete set the engine plays by.

use crate::board::LayoutKind;
use serde::{Deserialize, Serialize};

#[cfg_attr(
    feature = "openapi",
    derive(utoipa::ToSchema),
    schema(example = "standard")
)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Variant {
    #[default]
    Standard,
    Duel,
    /// Official two-player rules: two neutral builders and trade tokens (RULES.md §3).
    CatanForTwo,
    /// One neutral player that produces, builds roads and trades by chart (§4).
    NeutralTrader,
    /// Two fictional players and a shrunken board (§5).
    Shadow,
    /// Cities & Knights for two: neutral builders and knights (§6).
    CkForTwo,
}

impl Variant {
    pub const ALL: [Variant; 6] = [
        Variant::Standard,
        Variant::Duel,
        Variant::CatanForTwo,
        Variant::NeutralTrader,
        Variant::Shadow,
        Variant::CkForTwo,
    ];

    pub fn id(self) -> &'static str {
        match self {
            Variant::Standard => "standard",
            Variant::Duel => "duel",
            Variant::CatanForTwo => "catan_for_two",
            Variant::NeutralTrader => "neutral_trader",
            Variant::Shadow => "shadow",
            Variant::CkForTwo => "ck_for_two",
        }
    }

    pub fn parse(id: &str) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.id() == id)
    }
}

/// catan_for_two: where the two neutral start settlements go.
#[cfg_attr(
    feature = "openapi",
    derive(utoipa::ToSchema),
    schema(example = "fixed")
)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NeutralStart {
    /// Our marked spots (docs/rules.md).
    #[default]
    Fixed,
    /// A random mirrored pair of the same kind.
    Random,
}

/// shadow: which text of the variant is played.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "EditionName", into = "&'static str")]
pub enum Edition {
    /// The 1998 text (seed 002).
    Y1998,
    /// The edited text (seed 004).
    #[default]
    Edited,
}

/// `edition=1998` arrives as a JSON number from `--option`, `"1998"` from
/// an API body; both are accepted.
#[derive(Deserialize)]
#[serde(untagged)]
enum EditionName {
    Number(u64),
    Text(String),
}

impl TryFrom<EditionName> for Edition {
    type Error = String;
    fn try_from(n: EditionName) -> Result<Self, String> {
        match n {
            EditionName::Number(1998) => Ok(Edition::Y1998),
            EditionName::Text(t) if t == "1998" => Ok(Edition::Y1998),
            EditionName::Text(t) if t == "edited" => Ok(Edition::Edited),
            _ => Err("expected \"1998\" or \"edited\"".into()),
        }
    }
}

impl From<Edition> for &'static str {
    fn from(e: Edition) -> &'static str {
        match e {
            Edition::Y1998 => "1998",
            Edition::Edited => "edited",
        }
    }
}

/// shadow: when the removal roll is rolled again.
#[cfg_attr(
    feature = "openapi",
    derive(utoipa::ToSchema),
    schema(example = "auto")
)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RemovalReroll {
    /// While more than two 6/8 tokens would be removed.
    #[default]
    Auto,
    /// When both players ask, after seeing the result.
    Agree,
    Never,
}

/// The revisions of the rules. A game plays by the revision it was created
/// under for all its life: a fix that changes what happens in a game is a
/// new revision, which new games get, while stored games replay under
/// theirs. docs/rules.md lists what each one changed.
pub struct Revision;

impl Revision {
    /// Games stored before revisions were recorded.
    pub const FIRST: u32 = 0;
    /// catan_for_two: fixed neutral start spots that touch the desert give
    /// way to the nearest valid mirrored pair (RULES.md §3).
    pub const NEUTRAL_START_AWAY_FROM_DESERT: u32 = 1;
    /// neutral_trader: the neutral discards when it holds more than 7,
    /// whatever the players' `discard_limit` (RULES.md §4).
    pub const NEUTRAL_DISCARDS_ABOVE_SEVEN: u32 = 1;
    /// What new games are created under.
    pub const CURRENT: u32 = 1;
}

/// Options that belong to some variants only; giving one to another
/// variant is refused (a mistake worth reporting rather than ignoring).
pub const VARIANT_OPTIONS: [(&str, &[Variant]); 4] = [
    ("neutral_start", &[Variant::CatanForTwo, Variant::CkForTwo]),
    ("edition", &[Variant::Shadow]),
    ("removal_reroll", &[Variant::Shadow]),
    ("reroll_six", &[Variant::Shadow]),
];

/// Options as the game creator gives them; every field may be left out, and
/// the variant's preset fills the gaps.
#[cfg_attr(
    feature = "openapi",
    derive(utoipa::ToSchema),
    schema(example = json!({"vp_target": 12, "friendly_robber": true}))
)]
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
    /// Players may not trade with each other (the seed's optional rule of
    /// neutral_trader; usable with any variant).
    pub no_player_trade: Option<bool>,
    /// catan_for_two, ck_for_two: `fixed` (default) or `random` neutral start spots.
    pub neutral_start: Option<NeutralStart>,
    /// shadow: `1998` or `edited` (default).
    pub edition: Option<Edition>,
    /// shadow: `auto` (default), `agree` or `never`.
    pub removal_reroll: Option<RemovalReroll>,
    /// shadow: the offer die is rolled again on a 6 instead of offering nothing.
    pub reroll_six: Option<bool>,
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GameConfig {
    pub variant: Variant,
    pub options: GameOptions,
    /// The revision of the rules the game was created under; games created
    /// before revisions were recorded have none and play revision 0.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(minimum = 0))]
    pub revision: Option<u32>,
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
    #[serde(default)]
    pub no_player_trade: bool,
    #[serde(default)]
    pub neutral_start: NeutralStart,
    #[serde(default)]
    pub edition: Edition,
    #[serde(default)]
    pub removal_reroll: RemovalReroll,
    #[serde(default)]
    pub reroll_six: bool,
    /// The revision of the rules the game plays by, fixed when it was
    /// created (docs/rules.md lists what each revision changed); 0 for
    /// games created before revisions were recorded.
    #[serde(default, skip_serializing_if = "is_first_revision")]
    pub revision: u32,
}

fn is_first_revision(r: &u32) -> bool {
    *r == Revision::FIRST
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize)]
#[error("option `{option}` {reason}")]
pub struct ConfigError {
    pub option: &'static str,
    pub reason: String,
}

impl GameConfig {
    /// A new game of `variant` with the preset's options, under the
    /// current revision.
    pub fn new(variant: Variant) -> Self {
        GameConfig {
            variant,
            options: GameOptions::default(),
            revision: Some(Revision::CURRENT),
        }
    }

    pub fn resolve(&self) -> Result<Rules, ConfigError> {
        let o = &self.options;
        let duel = self.variant == Variant::Duel;
        let rules = Rules {
            variant: self.variant,
            vp_target: o.vp_target.unwrap_or(match self.variant {
                Variant::Duel => 15,
                Variant::CkForTwo => 13,
                _ => 10,
            }),
            discard_limit: o.discard_limit.unwrap_or(if duel { 9 } else { 7 }),
            friendly_robber: o.friendly_robber.unwrap_or(duel),
            balanced_dice: o.balanced_dice.unwrap_or(duel),
            board: o.board.unwrap_or_default(),
            no_adjacent_red: o.no_adjacent_red.unwrap_or(true),
            no_player_trade: o.no_player_trade.unwrap_or(false),
            neutral_start: o.neutral_start.unwrap_or_default(),
            edition: o.edition.unwrap_or_default(),
            removal_reroll: o.removal_reroll.unwrap_or_default(),
            reroll_six: o.reroll_six.unwrap_or(false),
            revision: self.revision.unwrap_or(Revision::FIRST),
        };
        // A variant's own option given to another variant is a mistake worth
        // reporting rather than ignoring.
        let given = |name: &str| match name {
            "neutral_start" => o.neutral_start.is_some(),
            "edition" => o.edition.is_some(),
            "removal_reroll" => o.removal_reroll.is_some(),
            "reroll_six" => o.reroll_six.is_some(),
            _ => false,
        };
        for (option, variants) in VARIANT_OPTIONS {
            if given(option) && !variants.contains(&self.variant) {
                let ids: Vec<&str> = variants.iter().map(|v| v.id()).collect();
                return Err(ConfigError {
                    option,
                    reason: format!(
                        "applies to the {} variant{} only",
                        ids.join(" and "),
                        if ids.len() > 1 { "s" } else { "" }
                    ),
                });
            }
        }
        if !(3..=20).contains(&rules.vp_target) {
            return Err(ConfigError {
                option: "vp_target",
                reason: format!("must be between 3 and 20, got {}", rules.vp_target),
            });
        }
        if rules.revision > Revision::CURRENT {
            return Err(ConfigError {
                option: "revision",
                reason: format!(
                    "revision {} is newer than this engine's {}",
                    rules.revision,
                    Revision::CURRENT
                ),
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

    #[test]
    fn variant_options_parse_and_belong_to_their_variant() {
        let mut c = GameConfig::new(Variant::Shadow);
        c.set_option("edition", "1998").unwrap();
        c.set_option("removal_reroll", "agree").unwrap();
        c.set_option("reroll_six", "true").unwrap();
        let r = c.resolve().unwrap();
        assert_eq!(
            (r.edition, r.removal_reroll, r.reroll_six),
            (Edition::Y1998, RemovalReroll::Agree, true)
        );
        c.set_option("edition", "\"edited\"").unwrap();
        assert_eq!(c.resolve().unwrap().edition, Edition::Edited);
        assert!(c.set_option("edition", "2001").is_err());
        assert_eq!(serde_json::to_string(&Edition::Y1998).unwrap(), "\"1998\"");

        let mut c = GameConfig::new(Variant::Standard);
        c.set_option("neutral_start", "random").unwrap();
        assert_eq!(c.resolve().unwrap_err().option, "neutral_start");
        let mut c = GameConfig::new(Variant::CatanForTwo);
        c.set_option("neutral_start", "random").unwrap();
        c.set_option("no_player_trade", "true").unwrap();
        let r = c.resolve().unwrap();
        assert_eq!(
            (r.neutral_start, r.no_player_trade),
            (NeutralStart::Random, true)
        );
        for v in Variant::ALL {
            assert_eq!(Variant::parse(v.id()), Some(v));
            assert_eq!(serde_json::to_value(v).unwrap(), v.id());
        }
    }
}
