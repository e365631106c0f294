//! The web client as the server serves it: its files, the pages behind the
//! links in the mails, caching and the security headers, and that the API's
//! own 404s and 405s are untouched.

use crate::common::{self, BACKENDS, TestServer};

const PAGES: [&str; 6] = [
    "/",
    "/login",
    "/new",
    "/games",
    "/games/0b9f4c1e-7d2a-4e15-9c3b-5a8e2f61d7c4",
    "/invitations/5014f9af3a684fdd64a775c1c4c532ee66b1b96cb56b1d02",
];

#[test]
fn pages_files_and_unknown_paths() {
    for backend in BACKENDS {
        let server = TestServer::start(backend);
        let api = server.client();

        // Every client route, the mail links among them, is the one page.
        for path in PAGES {
            let r = api.get(path);
            assert_eq!(r.status, 200, "{path}");
            assert_eq!(r.content_type, "text/html; charset=utf-8", "{path}");
            let html = r.body.as_str().unwrap();
            assert!(html.contains(r#"<script type="module" src="/app/main.js">"#));
            let csp = r.headers["content-security-policy"].to_str().unwrap();
            assert!(csp.contains("script-src 'self'") && csp.contains("default-src 'none'"));
            assert_eq!(r.headers["referrer-policy"], "no-referrer");
            assert_eq!(r.headers["x-content-type-options"], "nosniff");
        }

        for (path, content_type) in [
            ("/app/main.js", "text/javascript; charset=utf-8"),
            ("/app/geometry.js", "text/javascript; charset=utf-8"),
            ("/style.css", "text/css; charset=utf-8"),
            ("/favicon.svg", "image/svg+xml"),
        ] {
            let r = api.get(path);
            assert_eq!(r.status, 200, "{path}");
            assert_eq!(r.content_type, content_type, "{path}");
            assert_eq!(r.headers["cache-control"], "no-cache");
            // Revalidation: the same ETag gets a bodiless 304.
            let etag = r.headers["etag"].to_str().unwrap().to_string();
            assert!(etag.starts_with('"') && etag.len() == 66, "{etag}");
            let again = api.request("GET", path, &[("if-none-match", &etag)]);
            assert_eq!(again.status, 304, "{path}");
            assert_eq!(again.body, serde_json::Value::String(String::new()));
            let other = api.request("GET", path, &[("if-none-match", "\"other\"")]);
            assert_eq!(other.status, 200, "{path}");
        }

        // What is neither a page nor a file keeps the API's answers.
        for path in [
            "/nope",
            "/games/",
            "/games/x/y",
            "/app/missing.js",
            "/api/v1/nope",
            "/api/v1/games/x/y/z",
            "/api/index.html",
            "/../Cargo.toml",
        ] {
            api.get(path).problem(404, "not_found");
        }
        api.post("/", &serde_json::json!({}))
            .problem(404, "not_found");
        api.post("/games", &serde_json::json!({}))
            .problem(404, "not_found");
        let r = api.request("DELETE", "/api/v1/games", &[]);
        r.problem(405, "method_not_allowed");

        // The API and the docs are not shadowed by the client.
        assert_eq!(api.get("/healthz").status, 200);
        assert_eq!(api.get("/api/v1/topology").status, 200);
        assert_eq!(api.get("/docs/").status, 200);
    }
}

/// The client's geometry tests run on a copy of the topology; it must be
/// the one the server publishes.
#[test]
fn the_client_tests_draw_the_published_topology() {
    let server = TestServer::start(common::Backend::Sqlite);
    let served = server.client().get("/api/v1/topology").ok().clone();
    let copy: serde_json::Value = serde_json::from_str(include_str!("../web/test/topology.json"))
        .expect("web/test/topology.json parses");
    assert_eq!(
        served, copy,
        "web/test/topology.json is stale: save GET /api/v1/topology there"
    );
}
