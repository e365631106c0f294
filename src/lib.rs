//! hexpost: the server, its store and its command-line tools. The rules
//! live in the `hexpost-engine` crate.

pub mod api;
pub mod app;
pub mod auth;
pub mod background;
pub mod cli;
pub mod clock;
pub mod commands;
pub mod config;
pub mod describe;
pub mod error;
pub mod feed_listener;
pub mod inbound;
#[cfg(test)]
mod layers;
pub mod mail;
pub mod mail_worker;
pub mod metrics;
pub mod openapi_action_pairs;
pub mod openapi_ck_examples;
pub mod openapi_ck_shortage;
pub mod openapi_examples;
pub mod openapi_for_generators;
pub mod private_files;
pub mod ratelimit;
pub mod server;
pub mod service;
pub mod store;
pub mod sweeper;
pub mod web_client;
