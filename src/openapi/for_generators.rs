//! Rewrites the published document into shapes client generators can use,
//! without changing which JSON any schema accepts. utoipa writes three
//! shapes that openapi-python-client rejects and that make other generators
//! emit anonymous or lossy types:
//!
//! - tuples as `prefixItems` with `items: false`, which the Python generator
//!   cannot parse: each gets `minItems`/`maxItems` of its length and an
//!   `items` schema that admits its members (no item lies past the prefix,
//!   so `items` adds no constraint the prefix does not already make);
//! - tagged enum members written as `allOf: [{$ref}, {tag}]`, which the
//!   generators cannot merge when the referenced schema is itself a `oneOf`
//!   or not yet parsed: each becomes the single object it stands for (the
//!   referenced schema's properties plus the tag), one per member where the
//!   referenced schema is a `oneOf`;
//! - inline copies of a component inside tuples, which make the Python
//!   generator build the same model twice: each becomes a `$ref`.

use serde_json::{Map, Value, json};

type Schemas = Map<String, Value>;

pub fn simplify(doc: &mut Value) {
    let Some(schemas) = doc
        .pointer("/components/schemas")
        .and_then(Value::as_object)
    else {
        return;
    };
    let originals = schemas.clone();
    rewrite(doc, &originals);
    let rewritten = doc["components"]["schemas"]
        .as_object()
        .cloned()
        .unwrap_or_default();
    refer_to_components(&mut doc["paths"], &rewritten);
    if let Some(Value::Object(schemas)) = doc.pointer_mut("/components/schemas") {
        for schema in schemas.values_mut() {
            if let Value::Object(fields) = schema {
                for value in fields.values_mut() {
                    refer_to_components(value, &rewritten);
                }
            }
        }
    }
}

fn rewrite(value: &mut Value, schemas: &Schemas) {
    match value {
        Value::Object(fields) => {
            close_tuple(fields);
            if let Some(Value::Array(members)) = fields.get_mut("oneOf") {
                *members = members
                    .iter()
                    .flat_map(|m| flatten_member(m, None, schemas))
                    .collect();
            }
            fields.values_mut().for_each(|v| rewrite(v, schemas));
        }
        Value::Array(items) => items.iter_mut().for_each(|v| rewrite(v, schemas)),
        _ => {}
    }
}

fn close_tuple(fields: &mut Map<String, Value>) {
    if fields.get("items") != Some(&Value::Bool(false)) {
        return;
    }
    let Some(Value::Array(prefix)) = fields.get("prefixItems") else {
        return;
    };
    let len = prefix.len();
    let items = if prefix.iter().all(|p| p == &prefix[0]) {
        prefix[0].clone()
    } else {
        json!({ "anyOf": prefix })
    };
    fields.insert("items".into(), items);
    fields.insert("minItems".into(), len.into());
    fields.insert("maxItems".into(), len.into());
}

/// The plain objects a `oneOf` member stands for, each with `extra`'s
/// properties added.
fn flatten_member(member: &Value, extra: Option<&Value>, schemas: &Schemas) -> Vec<Value> {
    let flat = match member
        .get("allOf")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
    {
        Some([base, tag]) if base.get("$ref").is_some() => {
            let mut flat = merge(base, tag, schemas);
            // The member's own description and example describe the whole.
            for m in &mut flat {
                for (k, v) in member.as_object().into_iter().flatten() {
                    if k != "allOf" {
                        m[k] = v.clone();
                    }
                }
            }
            flat
        }
        _ => vec![member.clone()],
    };
    match extra {
        Some(extra) => flat.iter().flat_map(|m| merge(m, extra, schemas)).collect(),
        None => flat,
    }
}

fn merge(base: &Value, tag: &Value, schemas: &Schemas) -> Vec<Value> {
    let base = resolve(base, schemas);
    if let Some(Value::Array(members)) = base.get("oneOf") {
        return members
            .iter()
            .flat_map(|m| flatten_member(m, Some(tag), schemas))
            .collect();
    }
    let mut merged: Map<String, Value> = base
        .as_object()
        .into_iter()
        .flatten()
        .filter(|(k, _)| !matches!(k.as_str(), "example" | "required" | "properties"))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    merged.insert("type".into(), "object".into());
    let mut properties = Map::new();
    let mut required: Vec<Value> = Vec::new();
    for part in [base, tag] {
        if let Some(Value::Object(p)) = part.get("properties") {
            properties.extend(p.clone());
        }
        for name in part
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if !required.contains(name) {
                required.push(name.clone());
            }
        }
    }
    merged.insert("properties".into(), Value::Object(properties));
    merged.insert("required".into(), Value::Array(required));
    vec![Value::Object(merged)]
}

fn resolve<'a>(mut schema: &'a Value, schemas: &'a Schemas) -> &'a Value {
    while let Some(name) = schema
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix("#/components/schemas/"))
    {
        match schemas.get(name) {
            Some(target) => schema = target,
            None => break,
        }
    }
    schema
}

/// Replaces every inline object schema that equals a component with a
/// reference to it.
fn refer_to_components(value: &mut Value, schemas: &Schemas) {
    if value.get("type").and_then(Value::as_str) == Some("object")
        && let Some(name) = schemas.iter().find(|(_, s)| *s == value).map(|(n, _)| n)
    {
        *value = json!({ "$ref": format!("#/components/schemas/{name}") });
        return;
    }
    match value {
        Value::Object(fields) => fields
            .values_mut()
            .for_each(|v| refer_to_components(v, schemas)),
        Value::Array(items) => items
            .iter_mut()
            .for_each(|v| refer_to_components(v, schemas)),
        _ => {}
    }
}
