//! The server's integration tests, in one test binary: each module is one
//! area (its file's first lines say which). One binary links the server
//! once instead of once per file, and its tests share the test threads
//! instead of each file's binary waiting for its slowest test.

mod common;

mod accounts;
mod admin_cli;
mod admin_games;
mod admin_users;
mod api_audit;
mod api_auth;
mod api_errors;
mod api_hidden;
mod api_moves;
mod api_play;
mod board_picture;
mod client_docs;
mod commands;
mod database_outage;
mod deadlines;
mod file_modes;
mod game_changes;
mod generated_clients;
mod healthcheck_cli;
mod inbound_authenticity;
mod inbound_imap;
mod inbound_listener;
mod mail;
mod mail_snapshots;
mod metrics;
mod migrations;
mod multi_instance;
mod openapi_spec;
mod pool;
mod reply_game;
mod reply_mail;
mod request_id;
mod running_games;
mod schemathesis;
mod sessions;
mod shutdown;
mod signed_moves;
mod simulate_cli;
mod slow_clients;
mod stored_archives;
mod streams;
mod web_client;
mod web_e2e;
