//! The checked-in OpenAPI document is the one the app builds, the app
//! serves it, and the interactive page loads with vendored assets.

mod common;

use common::{Backend, TestServer};

fn generated() -> String {
    serde_json::to_string_pretty(&hexpost::app::document()).unwrap()
}

#[test]
fn checked_in_spec_is_up_to_date() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/openapi/openapi.json");
    let on_disk = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        on_disk.trim_end() == generated().trim_end(),
        "openapi/openapi.json is out of date: run `cargo run -- openapi > openapi/openapi.json`"
    );
}

#[test]
fn every_operation_documents_its_errors_as_problem_json() {
    let doc: serde_json::Value = serde_json::from_str(&generated()).unwrap();
    let paths = doc["paths"].as_object().unwrap();
    assert!(paths.len() >= 20, "only {} paths", paths.len());
    for (path, item) in paths {
        for (method, op) in item.as_object().unwrap() {
            let responses = op["responses"].as_object().unwrap();
            assert!(
                responses.keys().any(|k| k.starts_with('2')),
                "{method} {path}: no success response"
            );
            for (status, r) in responses {
                if status.starts_with('4') || status.starts_with('5') {
                    assert!(
                        r["content"]["application/problem+json"].is_object(),
                        "{method} {path} {status}: not documented as problem+json"
                    );
                }
            }
            if path != "/healthz" && path != "/readyz" && !op["tags"].is_array() {
                panic!("{method} {path}: no tag");
            }
        }
    }
}

#[test]
fn the_app_serves_its_spec_and_the_docs_page() {
    let server = TestServer::start(Backend::Sqlite);
    let api = server.client();
    let served = api.get("/api/v1/openapi.json");
    let served = served.ok();
    let expected: serde_json::Value = serde_json::from_str(&generated()).unwrap();
    assert_eq!(served, &expected);
    let page = api.http.get(format!("{}/docs/", api.base)).send().unwrap();
    assert_eq!(page.status().as_u16(), 200);
    let html = page.text().unwrap();
    assert!(
        html.contains("swagger"),
        "docs page: {}",
        &html[..html.len().min(200)]
    );
    let redirect = reqwest::blocking::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
        .get(format!("{}/docs", api.base))
        .send()
        .unwrap();
    assert_eq!(redirect.status().as_u16(), 302);
}
