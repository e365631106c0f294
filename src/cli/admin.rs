//! `hexpost admin …`: operations for the people who run the server.

use crate::config::Config;
use crate::service::{audit, moves};
use crate::store::{games as db, users};
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
