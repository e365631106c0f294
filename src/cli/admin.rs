//! `hexpost admin …`: operations for the people who run the server.

use crate::config::Config;
use crate::service::{audit, moves};
use crate::store::{games as db, outbox, users};
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
    /// Replay a game from its seed and check every hash and link.
    Verify {
        /// The game id.
        game: String,
    },
    /// Mails that failed every attempt.
    #[command(subcommand)]
    Mail(MailCommand),
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

pub fn run(config: Config, cmd: AdminCommand) -> Result<(), String> {
    let pool = crate::server::open_store(&config).map_err(|e| e.to_string())?;
    let mut conn = pool.get().map_err(|e| e.to_string())?;
    match cmd {
        AdminCommand::CreateUser {
            email,
            name,
            password,
            admin,
        } => {
            let email = crate::api::accounts::normalize_email(&email).map_err(|e| e.detail)?;
            if password.chars().count() < 8 {
                return Err("the password must have at least 8 characters".into());
            }
            let hash = crate::auth::password::hash(&password)?;
            let user = users::insert(&mut conn, &email, name.trim(), &hash, admin)
                .map_err(|e| e.to_string())?
                .ok_or_else(|| format!("{email} is already registered"))?;
            db::admin_log(
                &mut conn,
                None,
                "create_user",
                &user.id.to_string(),
                &format!("admin={admin}"),
            )
            .map_err(|e| e.to_string())?;
            println!(
                "{}",
                serde_json::json!({"id": user.id, "email": user.email, "is_admin": user.is_admin})
            );
            Ok(())
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
            let report = audit::verify(&row, &rows);
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
