//! `hexpost admin …`: operations for the people who run the server.

use crate::config::Config;
use crate::service::{archive, audit, housekeeping, moves};
use crate::store::{games as db, outbox};
use clap::Subcommand;

#[derive(Subcommand)]
pub enum AdminCommand {
    /// Create a user (prompts for nothing: the password comes from the flag
    /// or HEXPOST_NEW_PASSWORD).
    CreateUser {
        #[arg(long)]
        email: String,
        #[arg(long)]
        name: String,
        #[arg(long, env = "HEXPOST_NEW_PASSWORD", hide_env_values = true)]
        password: String,
        /// Give the user admin rights.
        #[arg(long)]
        admin: bool,
    },
    /// Delete an account on its owner's request (by id, or by address):
    /// its running games are resigned, everything personal goes (see
    /// docs/security.md, "What is kept, and what deletion removes").
    DeleteUser {
        /// The account's id.
        #[arg(long, required_unless_present = "email", conflicts_with = "email")]
        id: Option<i64>,
        /// Or its address.
        #[arg(long)]
        email: Option<String>,
    },
    /// Replay a game from its seed and check every hash and link.
    Verify {
        /// The game id.
        game: String,
    },
    /// Mails that failed every attempt.
    #[command(subcommand)]
    Mail(MailCommand),
    /// Games: list them.
    #[command(subcommand)]
    Games(GamesCommand),
    /// Write a game as a JSON document (the seed and state only once it is
    /// finished).
    Export {
        /// The game id.
        game: String,
        /// Write here instead of to standard output.
        #[arg(long)]
        out: Option<std::path::PathBuf>,
    },
    /// Import an exported finished game; nothing is written unless it verifies.
    Import {
        /// The document (`-` for standard input).
        file: std::path::PathBuf,
    },
    /// Expire invitations pending for longer than N days and cancel the open
    /// games they leave without one.
    PurgeInvitations {
        #[arg(long)]
        older_than_days: i64,
    },
}

#[derive(Subcommand)]
pub enum GamesCommand {
    /// One JSON object a line, newest first.
    List {
        /// open, active, finished, cancelled or declined.
        #[arg(long)]
        status: Option<String>,
        #[arg(long, default_value_t = 1)]
        page: i64,
        #[arg(long, default_value_t = 50)]
        per_page: i64,
    },
}

#[derive(Subcommand)]
pub enum MailCommand {
    /// List failed mails (one JSON object a line).
    Failed,
    /// Queue a failed mail again (or every one with --all).
    Retry {
        /// The mail's id (from `failed`).
        #[arg(required_unless_present = "all", conflicts_with = "all")]
        id: Option<i64>,
        #[arg(long)]
        all: bool,
    },
}

fn json_line(value: &impl serde::Serialize) -> Result<(), String> {
    println!(
        "{}",
        serde_json::to_string(value).map_err(|e| e.to_string())?
    );
    Ok(())
}

/// A use case's refusal as the CLI reports it: its code and detail.
fn refused(e: crate::error::Error) -> String {
    match &e.extra {
        Some(extra) => format!(
            "{}: {} {}",
            e.code,
            e.detail,
            serde_json::Value::from(extra.clone())
        ),
        None => format!("{}: {}", e.code, e.detail),
    }
}

pub fn run(config: Config, cmd: AdminCommand) -> Result<(), String> {
    let pool = crate::server::open_store(&config).map_err(|e| e.to_string())?;
    let mut conn = pool.get().map_err(|e| e.to_string())?;
    match cmd {
        AdminCommand::Games(GamesCommand::List {
            status,
            page,
            per_page,
        }) => {
            let (statuses, page, per_page) =
                crate::api::admin_games::list_args(status.as_deref(), Some(page), Some(per_page))
                    .map_err(refused)?;
            for game in
                housekeeping::list_games(&mut conn, &statuses, page, per_page).map_err(refused)?
            {
                json_line(&game)?;
            }
            Ok(())
        }
        AdminCommand::Export { game, out } => {
            let doc = archive::export(&mut conn, None, &game).map_err(refused)?;
            let text = serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())?;
            match out {
                Some(path) => std::fs::write(&path, text + "\n")
                    .map_err(|e| format!("{}: {e}", path.display())),
                None => {
                    println!("{text}");
                    Ok(())
                }
            }
        }
        AdminCommand::Import { file } => {
            let text = if file.as_os_str() == "-" {
                std::io::read_to_string(std::io::stdin()).map_err(|e| e.to_string())?
            } else {
                std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?
            };
            let doc = crate::api::json::parse(text.as_bytes()).map_err(refused)?;
            json_line(&archive::import(&mut conn, None, doc).map_err(refused)?)
        }
        AdminCommand::PurgeInvitations { older_than_days } => json_line(
            &housekeeping::purge_invitations(
                &mut conn,
                None,
                older_than_days,
                crate::store::now_ms(),
            )
            .map_err(refused)?,
        ),
        AdminCommand::CreateUser {
            email,
            name,
            password,
            admin,
        } => {
            let account = crate::api::accounts::RegisterRequest {
                email,
                display_name: name.trim().to_string(),
                password,
                refresh_cookie: false,
                invitation_token: None,
            };
            let (email, name) =
                crate::api::accounts::check_registration(&account).map_err(|e| e.detail)?;
            let hash = crate::auth::password::hash(&account.password)?;
            let user = crate::service::housekeeping::create_user(
                &mut conn, None, &email, &name, &hash, admin,
            )
            .map_err(|e| e.detail)?;
            println!(
                "{}",
                serde_json::json!({"id": user.id, "email": user.email, "is_admin": user.is_admin})
            );
            Ok(())
        }
        AdminCommand::DeleteUser { id, email } => {
            let id = match (id, email) {
                (Some(id), _) => id,
                (None, Some(email)) => {
                    let email = crate::service::email::normalize(&email).map_err(refused)?;
                    crate::store::users::by_email(&mut conn, &email)
                        .map_err(|e| e.to_string())?
                        .filter(|u| u.deleted_at.is_none())
                        .ok_or_else(|| format!("no account has the address {email}"))?
                        .id
                }
                (None, None) => return Err("give --id or --email".into()),
            };
            let now = crate::service::Now::at(crate::store::now_ms());
            let deleted = crate::service::account_data::delete(
                &mut conn,
                id,
                crate::service::account_data::DeletedBy::Admin(None),
                now,
            )
            .map_err(refused)?;
            json_line(&serde_json::json!({"deleted": id, "games": deleted}))
        }
        AdminCommand::Mail(MailCommand::Failed) => {
            for row in outbox::failed(&mut conn, 0, i64::MAX).map_err(|e| e.to_string())? {
                let mail = crate::api::admin_mail::FailedMail::from(row);
                println!(
                    "{}",
                    serde_json::to_string(&mail).map_err(|e| e.to_string())?
                );
            }
            Ok(())
        }
        AdminCommand::Mail(MailCommand::Retry { id, .. }) => {
            let n =
                crate::service::notify::retry_failed(&mut conn, None, id).map_err(|e| e.detail)?;
            if let (0, Some(id)) = (n, id) {
                return Err(format!("no failed mail {id}"));
            }
            println!("{}", serde_json::json!({ "retried": n }));
            Ok(())
        }
        AdminCommand::Verify { game } => {
            let row = db::get(&mut conn, &game)
                .map_err(|e| e.to_string())?
                .ok_or_else(|| format!("no game {game}"))?;
            let rows = moves::all_rows(&mut conn, &game).map_err(|e| e.detail)?;
            let players = db::players(&mut conn, &game).map_err(|e| e.to_string())?;
            let report = audit::verify(&row, &players, &rows);
            db::admin_log(
                &mut conn,
                None,
                "verify",
                &game,
                if report.ok { "ok" } else { "diverged" },
            )
            .map_err(|e| e.to_string())?;
            println!(
                "{}",
                serde_json::to_string(&report).map_err(|e| e.to_string())?
            );
            if report.ok {
                Ok(())
            } else {
                Err("verification failed".into())
            }
        }
    }
}
