//! The browser client: the files under `web/public/` compiled into the
//! binary (so a single binary or a distroless image serves it) and served
//! at `/`. The client's own routes — among them the links in the mails,
//! `/games/{id}`, `/invitations/{token}` and `/settings` — answer with `index.html`;
//! every other unknown path, and all of `/api/`, keeps the API's
//! problem+json 404.

use crate::api::problem;
use crate::error::Error;
use actix_web::http::{Method, header};
use actix_web::{HttpRequest, HttpResponse};
use rust_embed::Embed;

#[derive(Embed)]
#[folder = "web/public/"]
struct Assets;

/// The pages load scripts, styles and data from this origin only; nothing
/// inline, so an injected string can never run.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; \
     style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; \
     form-action 'self'; frame-ancestors 'none'";

/// Paths the client routes itself; they all load the same page.
fn is_client_route(path: &str) -> bool {
    let segments: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    matches!(
        segments.as_slice(),
        [""] | ["login"]
            | ["signup"]
            | ["confirm"]
            | ["forgot"]
            | ["reset"]
            | ["sign-in"]
            | ["account"]
            | ["account", "email"]
            | ["sessions"]
            | ["new"]
            | ["games"]
            | ["settings"]
            | ["games", _]
            | ["invitations", _]
    ) && segments.iter().skip(1).all(|s| !s.is_empty())
}

fn content_type(name: &str) -> &'static str {
    match name.rsplit_once('.').map(|(_, ext)| ext) {
        Some("html") => "text/html; charset=utf-8",
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("json") => "application/json",
        _ => "application/octet-stream",
    }
}

/// The fallback service: a client file or page, else the API's 404/405.
pub async fn serve(req: HttpRequest) -> Result<HttpResponse, Error> {
    let path = req.path();
    let readable = req.method() == Method::GET || req.method() == Method::HEAD;
    if !readable || path.starts_with("/api/") {
        return problem::no_route(req).await;
    }
    let name = if is_client_route(path) {
        "index.html"
    } else {
        path.trim_start_matches('/')
    };
    // Only plain relative names reach the embedded files (in debug builds
    // they are read from the disk).
    let plain =
        !name.split('/').any(|s| s.is_empty() || s.starts_with('.')) && !name.contains('\\');
    let Some(file) = plain.then(|| Assets::get(name)).flatten() else {
        return problem::no_route(req).await;
    };
    // The files carry no version in their names, so browsers revalidate
    // each time and get a 304 while the binary is unchanged.
    let etag = format!("\"{}\"", hex::encode(file.metadata.sha256_hash()));
    let fresh = crate::api::etag::matches(&req, &etag);
    let mut res = if fresh {
        HttpResponse::NotModified()
    } else {
        HttpResponse::Ok()
    };
    res.insert_header((header::ETAG, etag))
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .insert_header((header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        // An invitation link carries its token: never pass it on.
        .insert_header((header::REFERRER_POLICY, "no-referrer"));
    if fresh {
        return Ok(res.finish());
    }
    Ok(res
        .content_type(content_type(name))
        .body(file.data.into_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_routes_are_the_pages_and_the_mail_links() {
        for path in [
            "/",
            "/login",
            "/signup",
            "/new",
            "/games",
            "/games/0b9f4c1e-7d2a-4e15-9c3b-5a8e2f61d7c4",
            "/invitations/5014f9af3a684fdd",
            "/settings",
            "/sessions",
            "/confirm",
            "/forgot",
            "/reset",
            "/sign-in",
            "/account",
            "/account/email",
        ] {
            assert!(is_client_route(path), "{path}");
        }
        for path in [
            "/nope",
            "/games/",
            "/games/x/y/z",
            "/invitations",
            "/style.css",
            "/app/main.js",
        ] {
            assert!(!is_client_route(path), "{path}");
        }
    }

    #[test]
    fn the_page_and_its_modules_are_embedded() {
        assert!(Assets::get("index.html").is_some());
        assert!(Assets::get("app/main.js").is_some());
        assert!(Assets::get("style.css").is_some());
    }
}
