//! The base game's concerns, each a part with its own state (where it has
//! any), actions, legal entries and checks. Rulesets compose them: the base
//! game's composition is `rulesets::base`, and a ruleset may use a part as
//! it is, call it with its own data, or leave it out.
//!
//! | part | RULES.md | state |
//! |---|---|---|
//! | `setup` | §1 Set-up | `GameState::setup` |
//! | `turn` | §1 Turn | `active`, `turn` |
//! | `roads` | §1 Costs, connection | `roads`, supply |
//! | `buildings` | §1 Costs, distance rule | `buildings`, supply |
//! | `production` | §1 Turn (production, bank shortage) | `bank`, hands |
//! | `seven` | §1 Seven (discards) | the `Discard` phase |
//! | `robber` | §1 Seven, §2 friendly robber | `robber` |
//! | `trade` | §1 Trade | `offer` |
//! | `dev_cards` | §1 Development cards, Largest Army | `dev` |
//! | `awards` | §1 Longest Road | `longest_road`, road lengths |
//! | `victory` | §1 Victory | `winner` |
//! | `neutral_builders` | §3 neutral colours | their seats and pieces |
//! | `trade_tokens` | §3 trade tokens | `Tokens`, in the ruleset's state |

pub mod awards;
pub mod buildings;
pub mod dev_cards;
pub mod neutral_builders;
pub mod production;
pub mod roads;
pub mod robber;
pub mod setup;
pub mod seven;
pub mod trade;
pub mod trade_tokens;
pub mod turn;
pub mod victory;
