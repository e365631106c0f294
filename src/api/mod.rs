//! HTTP handlers, one file per resource.

pub mod account;
pub mod accounts;
pub mod admin;
pub mod admin_games;
pub mod admin_mail;
pub mod admin_users;
pub mod body_deadline;
pub mod caller;
pub mod clean_path;
pub mod etag;
pub mod games;
pub mod health;
pub mod json;
pub mod limited;
pub mod notifications;
pub mod problem;
pub mod ratelimit;
pub mod recovery;
pub mod request_id;
pub mod sessions;
pub mod streams;
pub mod web_client;

use utoipa_actix_web::service_config::ServiceConfig;

pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(accounts::register)
        .service(accounts::confirm)
        .service(accounts::login)
        .service(recovery::request_reset)
        .service(recovery::reset)
        .service(recovery::request_sign_in)
        .service(recovery::sign_in)
        .service(sessions::refresh)
        .service(sessions::logout)
        .service(sessions::mail_link)
        .service(sessions::list)
        .service(sessions::revoke)
        .service(sessions::revoke_all)
        .service(sessions::change_password)
        .service(accounts::me)
        .service(accounts::add_key)
        .service(accounts::list_keys)
        .service(accounts::revoke_key)
        .service(account::change_email)
        .service(account::confirm_email)
        .service(account::delete)
        .service(account::export)
        .service(notifications::get_settings)
        .service(notifications::put_settings)
        .service(notifications::time_zones)
        .service(games::create)
        .service(games::list)
        .service(games::get_game)
        .service(games::invite)
        .service(games::cancel)
        .service(games::resign)
        .service(games::start_vacation)
        .service(games::end_vacation)
        .service(games::submit_move)
        .service(games::log)
        .service(streams::game_stream)
        .service(streams::account_stream)
        .service(games::invitation)
        .service(games::accept)
        .service(games::decline)
        .service(games::topology)
        .service(admin::full_log)
        .service(admin::verify)
        .service(admin_games::list)
        .service(admin_games::export)
        .service(admin_games::import)
        .service(admin_games::purge_invitations)
        .service(admin_users::create_user)
        .service(admin_users::disable)
        .service(admin_users::enable)
        .service(account::admin_delete)
        .service(admin_mail::failed)
        .service(admin_mail::inbound)
        .service(admin_mail::retry_all)
        .service(admin_mail::retry_one);
}

/// The published OpenAPI document (see `openapi::to_document`).
pub struct ServedDoc(pub serde_json::Value);

/// Serves the OpenAPI document the app was built from (not itself documented).
pub async fn openapi_json(doc: actix_web::web::Data<ServedDoc>) -> actix_web::HttpResponse {
    actix_web::HttpResponse::Ok().json(&doc.0)
}
