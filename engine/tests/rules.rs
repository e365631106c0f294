//! The rules engine's scenario and property tests, in one test binary:
//! each module covers a part of RULES.md (its file's first lines say
//! which). One binary is compiled and linked once instead of once per file.

mod common;

mod arbitrary_actions;
mod awards;
mod building;
mod ck_barbarians;
mod ck_cities;
mod ck_commerce;
mod ck_decisions;
mod ck_dice;
mod ck_hidden;
mod ck_knights;
mod ck_politics;
mod ck_science;
mod ck_setup_production;
mod ck_trade;
mod dev_cards;
mod duel_options;
mod errors;
mod production;
mod random_games;
mod revisions;
mod robber;
mod setup;
mod stored_games;
mod timeouts;
mod trade;
mod variant_catan_for_two;
mod variant_neutral_trader;
mod variant_random_games;
mod variant_shadow;
mod victory;
mod views;
