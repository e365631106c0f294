//! The checked-in OpenAPI document is the one the app builds, the app
//! serves it, and the interactive page loads with vendored assets.

use crate::common::{Backend, TestServer};
use serde_json::Value;

fn generated() -> String {
    serde_json::to_string_pretty(&hexpost::openapi::document()).unwrap()
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

/// `hexpost openapi` prints the same document; a reader that stops early
/// (`| head`) ends it quietly. The document is larger than a pipe's
/// buffer, so the command is still writing when the reader goes away.
#[test]
fn the_openapi_command_prints_the_document_and_survives_a_closed_pipe() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    let out = Command::new(env!("CARGO_BIN_EXE_hexpost"))
        .arg("openapi")
        .output()
        .unwrap();
    assert!(out.status.success());
    let printed = String::from_utf8(out.stdout).unwrap();
    assert_eq!(printed.trim_end(), generated().trim_end());
    assert!(
        printed.len() > 128 * 1024,
        "the check needs a large document"
    );

    let mut child = Command::new(env!("CARGO_BIN_EXE_hexpost"))
        .arg("openapi")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 16];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{:?}: {stderr}", out.status);
    assert!(stderr.is_empty(), "{stderr}");
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
                assert!(
                    r["description"].as_str().is_some_and(|d| !d.is_empty()),
                    "{method} {path} {status}: no description"
                );
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

fn component_schemas(doc: &Value) -> &serde_json::Map<String, Value> {
    doc["components"]["schemas"].as_object().unwrap()
}

#[test]
fn every_component_schema_has_an_example() {
    let doc = hexpost::openapi::document();
    let schemas = component_schemas(&doc);
    assert!(schemas.len() >= 70, "only {} schemas", schemas.len());
    let missing: Vec<&String> = schemas
        .iter()
        .filter(|(_, s)| s.get("example").is_none() && s.get("examples").is_none())
        .map(|(name, _)| name)
        .collect();
    assert!(
        missing.is_empty(),
        "component schemas without an example: {missing:?}"
    );
}

/// `schema` as the root of a JSON Schema 2020-12 document (OpenAPI 3.1's
/// dialect) with the spec's components beside it, so its `$ref`s resolve.
fn validator(doc: &Value, schema: &Value) -> jsonschema::Validator {
    let mut root = schema.clone();
    root["components"] = doc["components"].clone();
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .should_validate_formats(true)
        .build(&root)
        .unwrap_or_else(|e| panic!("schema does not compile: {e}\n{schema:#}"))
}

/// Every `example` and `examples` entry in `schema` and its subschemas, with
/// the subschema it illustrates and where it sits.
fn schema_examples<'a>(
    schema: &'a Value,
    at: String,
    out: &mut Vec<(String, &'a Value, &'a Value)>,
) {
    match schema {
        Value::Object(o) => {
            let listed = o
                .get("examples")
                .and_then(Value::as_array)
                .into_iter()
                .flatten();
            for example in o.get("example").into_iter().chain(listed) {
                out.push((at.clone(), schema, example));
            }
            for (key, sub) in o {
                // Values, not schemas.
                if !matches!(
                    key.as_str(),
                    "example" | "examples" | "default" | "const" | "enum"
                ) {
                    schema_examples(sub, format!("{at}/{key}"), out);
                }
            }
        }
        Value::Array(items) => {
            for (i, sub) in items.iter().enumerate() {
                schema_examples(sub, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

#[test]
fn every_example_is_valid_against_its_schema() {
    let doc = hexpost::openapi::document();
    let mut examples = Vec::new();
    for (name, schema) in component_schemas(&doc) {
        schema_examples(
            schema,
            format!("#/components/schemas/{name}"),
            &mut examples,
        );
    }
    // Response and request bodies' own examples.
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let bodies = op["responses"]
                .as_object()
                .into_iter()
                .flatten()
                .map(|(status, r)| (status.as_str(), r))
                .chain(op.get("requestBody").map(|b| ("request", b)));
            for (what, body) in bodies {
                for (media, content) in body["content"].as_object().into_iter().flatten() {
                    if let Some(example) = content.get("example") {
                        let at = format!("{method} {path} {what} {media}");
                        examples.push((at, &content["schema"], example));
                    }
                }
            }
        }
    }
    assert!(examples.len() >= 75, "only {} examples", examples.len());
    let mut failures = Vec::new();
    for (at, schema, example) in &examples {
        let errors: Vec<String> = validator(&doc, schema)
            .iter_errors(example)
            .map(|e| format!("{e} (at {})", e.instance_path()))
            .collect();
        if !errors.is_empty() {
            failures.push(format!("{at}: {}", errors.join("; ")));
        }
    }
    assert!(
        failures.is_empty(),
        "examples that do not match their schema:\n{}",
        failures.join("\n")
    );
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

/// Every node of `value` with its JSON pointer.
fn nodes<'a>(value: &'a Value, at: String, out: &mut Vec<(String, &'a Value)>) {
    match value {
        Value::Object(fields) => fields
            .iter()
            .for_each(|(k, v)| nodes(v, format!("{at}/{k}"), out)),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .for_each(|(i, v)| nodes(v, format!("{at}/{i}"), out)),
        _ => {}
    }
    out.push((at, value));
}

/// The shapes client generators stumble on stay out of the document
/// (tests/generated_clients.rs runs the generators themselves): tuples
/// closed with `items: false`, `oneOf` members that merge a reference with
/// `allOf`, and operation ids used twice (one type name per operation).
#[test]
fn the_document_avoids_shapes_generators_reject() {
    let doc = hexpost::openapi::document();
    let mut all = Vec::new();
    nodes(&doc, String::new(), &mut all);
    let closed_tuples: Vec<&String> = all
        .iter()
        .filter(|(_, v)| v.get("items") == Some(&Value::Bool(false)))
        .map(|(at, _)| at)
        .collect();
    assert!(
        closed_tuples.is_empty(),
        "items: false at {closed_tuples:?}"
    );
    let merged_members: Vec<String> = all
        .iter()
        .filter_map(|(at, v)| Some((at, v.get("oneOf")?.as_array()?)))
        .flat_map(|(at, members)| {
            members
                .iter()
                .enumerate()
                .filter(|(_, m)| m["allOf"][0].get("$ref").is_some())
                .map(move |(i, _)| format!("{at}/oneOf/{i}"))
        })
        .collect();
    assert!(
        merged_members.is_empty(),
        "allOf members of a oneOf at {merged_members:?}"
    );
    let mut ids: Vec<&str> = doc["paths"]
        .as_object()
        .unwrap()
        .values()
        .flat_map(|item| item.as_object().unwrap().values())
        .filter_map(|op| op.get("operationId")?.as_str())
        .collect();
    let count = ids.len();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), count, "an operationId is used twice");
    assert!(count > 30, "only {count} operations have an id");
}

/// Every Cities & Knights schema, event and progress card shows an example
/// from a game the engine played (src/openapi_ck_examples.rs): the types
/// carry none written by hand, and the document's is the generator's.
#[test]
fn cities_and_knights_examples_come_from_played_games() {
    use hexpost::openapi::ck_examples as ck;
    let doc = hexpost::openapi::document();
    let derived = serde_json::to_value(hexpost::openapi::derived_openapi()).unwrap();
    let schemas = component_schemas(&doc);
    let found = ck::found();
    for name in ck::SCHEMAS {
        let own = &derived["components"]["schemas"][name];
        assert!(own.is_object(), "{name} is not a schema");
        assert!(
            own.get("example").is_none(),
            "{name} has an example written by hand: {}",
            own["example"]
        );
        let played = found
            .schemas
            .get(name)
            .unwrap_or_else(|| panic!("no game showed {name}"));
        assert_eq!(&schemas[name]["example"], played, "{name}");
    }
    let wanted = ck::wanted_members();
    // Every event of the variant, and every progress card that is played.
    assert!(wanted.len() > 50, "only {} members", wanted.len());
    let events = schemas["Event"]["oneOf"].as_array().unwrap().iter();
    let ck_events: Vec<String> = events
        .map(|m| {
            m["properties"]["type"]["enum"][0]
                .as_str()
                .unwrap()
                .to_string()
        })
        .skip_while(|name| name != ck::FIRST_CK_EVENT)
        .collect();
    for name in &ck_events {
        assert!(
            wanted.contains(&("Event", name.clone())),
            "{name} has no example"
        );
    }
    // The bank short of a commodity owed to both players comes from a
    // game steered to it: its last event.
    let steered = hexpost::openapi::ck_shortage::events();
    let last = serde_json::to_value(steered.last().expect("the steered game")).unwrap();
    assert_eq!(last["type"], "commodity_withheld");
    assert!(ck_events.contains(&"commodity_withheld".to_string()));
    for (schema, name) in wanted {
        let tag = ck::MEMBERS.iter().find(|(s, _)| *s == schema).unwrap().1;
        let member = schemas[schema]["oneOf"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["properties"][tag]["enum"][0] == name.as_str())
            .unwrap_or_else(|| panic!("{schema} has no member {name}"));
        let played = found
            .members
            .get(&(schema, name.clone()))
            .unwrap_or_else(|| panic!("no game showed {schema} {name}"));
        assert_eq!(&member["example"], played, "{schema} {name}");
        assert_eq!(played[tag], name.as_str(), "{schema} {name}");
    }
}
