//! The server's dependencies run one way: cli → server → {workers,
//! openapi} → api → service → {engine, store, mail, auth} → commands →
//! describe, error/config. The compiler cannot see that inside one crate,
//! so this test reads the sources of every layer below `server` and checks
//! which of the crate's modules each one names.

use std::path::{Path, PathBuf};

/// The crate's top-level modules each layer may name (besides itself).
/// `server` and `cli` sit above all of them; `api` and `app` name each
/// other (the route table and the handlers' shared state).
const ALLOWED: &[(&str, &[&str])] = &[
    ("error", &[]),
    ("private_files", &[]),
    ("describe", &[]),
    ("commands", &["describe"]),
    ("store", &["error", "config", "private_files"]),
    ("auth", &["error", "config"]),
    (
        "mail",
        &[
            "error",
            "config",
            "store",
            "private_files",
            "describe",
            "commands",
        ],
    ),
    (
        "service",
        &[
            "error", "config", "store", "mail", "auth", "describe", "commands",
        ],
    ),
    // Reply mail: its listener and poller are workers of `serve` (they
    // watch `workers::Shutdown`); what a reply does is a use case.
    (
        "inbound",
        &[
            "error", "config", "store", "mail", "auth", "describe", "commands", "service", "app",
            "metrics", "workers",
        ],
    ),
    (
        "workers",
        &[
            "error", "config", "store", "mail", "auth", "describe", "commands", "service",
            "inbound", "clock", "metrics",
        ],
    ),
    // The document is derived from the route table and the handlers' types.
    (
        "openapi",
        &[
            "error", "config", "store", "mail", "auth", "describe", "commands", "service", "api",
            "app",
        ],
    ),
];

/// The top-level modules named through `crate::` in `source`, grouped
/// imports (`use crate::{a, b::c}`) included.
fn crate_modules(source: &str) -> Vec<String> {
    source
        .match_indices("crate::")
        // Not the tail of another name, such as `other_crate::`.
        .filter(|(at, _)| !source[..*at].ends_with(|c: char| c.is_alphanumeric() || c == '_'))
        .flat_map(|(at, _)| {
            let rest = &source[at + "crate::".len()..];
            match rest.strip_prefix('{') {
                Some(group) => group_items(group),
                None => vec![rest],
            }
        })
        .map(|path| {
            path.trim_start()
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect::<String>()
        })
        .filter(|module| !module.is_empty())
        .collect()
}

/// The items of a `{…}` import group (from just after its `{`), up to the
/// `}` that closes it.
fn group_items(group: &str) -> Vec<&str> {
    let mut items = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                items.push(&group[start..i]);
                return items;
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&group[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(&group[start..]);
    items
}

/// `src/<module>.rs`, or every file under `src/<module>/`.
fn sources(module: &str) -> Vec<PathBuf> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let file = src.join(format!("{module}.rs"));
    if file.is_file() {
        return vec![file];
    }
    let mut out = Vec::new();
    let mut dirs = vec![src.join(module)];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("a module directory") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    out
}

#[test]
fn lower_layers_name_no_module_above_them() {
    let mut wrong = Vec::new();
    for (layer, allowed) in ALLOWED {
        let files = sources(layer);
        assert!(!files.is_empty(), "no sources for {layer}");
        for file in files {
            let text = std::fs::read_to_string(&file).expect("a readable source");
            for module in crate_modules(&text) {
                if module != *layer && !allowed.contains(&module.as_str()) {
                    wrong.push(format!("{} names crate::{module}", file.display()));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn grouped_and_nested_imports_are_read() {
    let text = "use crate::api::problem;\nuse crate::{store::{self, games}, error::Error};\n\
                #[serde(with = \"crate::service::whole_numbers::optional\")] other_crate::x";
    assert_eq!(
        crate_modules(text),
        ["api", "store", "error", "service"].map(String::from)
    );
}
