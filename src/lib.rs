//! hexpost: the server, its store and its command-line tools. The rules
//! live in the `hexpost-engine` crate. docs/architecture.md maps the
//! folders; `layers` checks which way they depend on each other.

pub mod api;
pub mod app;
pub mod auth;
pub mod cli;
pub mod clock;
pub mod commands;
pub mod config;
pub mod describe;
pub mod error;
pub mod inbound;
#[cfg(test)]
mod layers;
pub mod mail;
pub mod metrics;
pub mod openapi;
pub mod private_files;
pub mod server;
pub mod service;
pub mod store;
pub mod workers;
