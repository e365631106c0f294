//! The migrations, on SQLite and PostgreSQL: each down.sql undoes its
//! up.sql (nothing is left behind, and migrating again works), and the two
//! migration folders build the same tables with the same columns and
//! nullability.

use crate::common::{self, BACKENDS, TempDatabase};
use diesel::prelude::*;
use diesel::sql_types::{Integer, Text};
use hexpost::store::DbConnection;
use std::collections::BTreeMap;

const TABLES: [&str; 15] = [
    "account_codes",
    "admin_log",
    "game_players",
    "games",
    "idempotency_keys",
    "inbound_mails",
    "invitations",
    "moves",
    "outbox",
    "refresh_tokens",
    "sessions",
    "sign_in_codes",
    "used_jtis",
    "user_keys",
    "users",
];

#[derive(QueryableByName)]
struct UserId {
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    id: i64,
}

const DIESEL_TABLE: &str = "__diesel_schema_migrations";

#[derive(QueryableByName, Debug)]
struct Name {
    #[diesel(sql_type = Text)]
    name: String,
}

#[derive(QueryableByName, Debug)]
struct PgColumn {
    #[diesel(sql_type = Text)]
    column_name: String,
    #[diesel(sql_type = Text)]
    is_nullable: String,
}

#[derive(QueryableByName, Debug)]
struct SqliteColumn {
    #[diesel(sql_type = Text)]
    name: String,
    #[diesel(sql_type = Text)]
    #[diesel(column_name = type_)]
    #[allow(dead_code)]
    type_: String,
    #[diesel(sql_type = Integer)]
    notnull: i32,
    #[diesel(sql_type = Integer)]
    pk: i32,
}

/// Every schema object hexpost could have left: (kind, name), diesel's own
/// bookkeeping table excepted.
fn objects(conn: &mut DbConnection) -> Vec<(String, String)> {
    let names = |conn: &mut DbConnection, q: &str| -> Vec<String> {
        match conn {
            DbConnection::Pg(c) => diesel::sql_query(q).load::<Name>(c),
            DbConnection::Sqlite(c) => diesel::sql_query(q).load::<Name>(c),
        }
        .unwrap()
        .into_iter()
        .map(|n| n.name)
        .collect()
    };
    let mut out = Vec::new();
    let kinds: Vec<(&str, String)> = match conn {
        DbConnection::Pg(_) => vec![
            (
                "table",
                format!(
                    "SELECT table_name::text AS name FROM information_schema.tables \
                     WHERE table_schema = 'public' AND table_name <> '{DIESEL_TABLE}'"
                ),
            ),
            (
                "index",
                format!(
                    "SELECT indexname::text AS name FROM pg_indexes \
                     WHERE schemaname = 'public' AND tablename <> '{DIESEL_TABLE}'"
                ),
            ),
            (
                "sequence",
                "SELECT sequence_name::text AS name FROM information_schema.sequences \
                 WHERE sequence_schema = 'public'"
                    .into(),
            ),
            (
                "type",
                "SELECT t.typname::text AS name FROM pg_type t \
                 JOIN pg_namespace n ON n.oid = t.typnamespace \
                 WHERE n.nspname = 'public' AND t.typtype IN ('e', 'd', 'c') \
                 AND NOT EXISTS (SELECT 1 FROM pg_class c WHERE c.reltype = t.oid)"
                    .into(),
            ),
            (
                "function",
                "SELECT p.proname::text AS name FROM pg_proc p \
                 JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public'"
                    .into(),
            ),
        ],
        DbConnection::Sqlite(_) => vec![(
            "object",
            format!(
                "SELECT type || ' ' || name AS name FROM sqlite_master \
                 WHERE name NOT LIKE 'sqlite_%' AND tbl_name <> '{DIESEL_TABLE}'"
            ),
        )],
    };
    for (kind, q) in kinds {
        out.extend(names(conn, &q).into_iter().map(|n| (kind.to_string(), n)));
    }
    out.sort();
    out
}

fn tables(conn: &mut DbConnection) -> Vec<String> {
    objects(conn)
        .into_iter()
        .filter_map(
            |(kind, name)| match (kind.as_str(), name.strip_prefix("table ")) {
                ("table", _) => Some(name),
                ("object", Some(t)) => Some(t.to_string()),
                _ => None,
            },
        )
        .collect()
}

/// Per table, its columns in order: (name, nullable).
fn columns(conn: &mut DbConnection) -> BTreeMap<String, Vec<(String, bool)>> {
    let mut out = BTreeMap::new();
    for table in tables(conn) {
        let cols: Vec<(String, bool)> = match conn {
            DbConnection::Pg(c) => diesel::sql_query(format!(
                "SELECT column_name::text AS column_name, is_nullable::text AS is_nullable \
                 FROM information_schema.columns \
                 WHERE table_schema = 'public' AND table_name = '{table}' \
                 ORDER BY ordinal_position"
            ))
            .load::<PgColumn>(c)
            .unwrap()
            .into_iter()
            .map(|c| (c.column_name, c.is_nullable == "YES"))
            .collect(),
            // SQLite reports primary-key columns as nullable unless declared
            // NOT NULL; an INTEGER PRIMARY KEY is the rowid and never NULL,
            // and the app never writes a NULL key, so a key column counts as
            // NOT NULL here, as PostgreSQL makes it.
            DbConnection::Sqlite(c) => diesel::sql_query(format!(
                "SELECT name, type AS type_, \"notnull\", pk FROM pragma_table_info('{table}') ORDER BY cid"
            ))
            .load::<SqliteColumn>(c)
            .unwrap()
            .into_iter()
            .map(|c| (c.name, c.notnull == 0 && c.pk == 0))
            .collect(),
        };
        assert!(!cols.is_empty(), "{table}");
        out.insert(table, cols);
    }
    out
}

fn open(db: &TempDatabase) -> hexpost::store::DbPool {
    hexpost::store::connect(&db.url, 1).unwrap()
}

#[test]
fn each_down_undoes_its_up() {
    for backend in BACKENDS {
        let db = TempDatabase::new(backend);
        let pool = open(&db);
        let mut conn = pool.get().unwrap();
        assert_eq!(
            objects(&mut conn),
            vec![],
            "{backend:?}: not empty at first"
        );

        let ran = hexpost::store::migrate(&mut conn).unwrap();
        assert!(ran >= 1);
        let first = objects(&mut conn);
        assert_eq!(tables(&mut conn), TABLES.to_vec(), "{backend:?}");
        let first_columns = columns(&mut conn);
        // Nothing is pending any more.
        assert_eq!(hexpost::store::migrate(&mut conn).unwrap(), 0);

        hexpost::store::revert_all(&mut conn).unwrap();
        assert_eq!(
            objects(&mut conn),
            vec![],
            "{backend:?}: left behind after revert_all"
        );

        // Migrating again builds the same schema, and it works.
        assert_eq!(hexpost::store::migrate(&mut conn).unwrap(), ran);
        assert_eq!(objects(&mut conn), first, "{backend:?}");
        assert_eq!(columns(&mut conn), first_columns, "{backend:?}");
        let user = hexpost::store::users::insert(&mut conn, "ada@example.org", "Ada", "x", false)
            .unwrap()
            .unwrap();
        assert!(
            hexpost::store::users::insert(&mut conn, "ada@example.org", "Ada", "x", false)
                .unwrap()
                .is_none(),
            "the unique e-mail constraint is back"
        );
        hexpost::store::users::add_key(&mut conn, user.id, "key")
            .unwrap()
            .unwrap();
    }
    // A server on a database that was migrated, reverted and migrated.
    for backend in BACKENDS {
        let server = common::TestServer::start(backend);
        let pool = server.db();
        let mut conn = pool.get().unwrap();
        hexpost::store::revert_all(&mut conn).unwrap();
        assert_eq!(objects(&mut conn), vec![], "{backend:?}");
        hexpost::store::migrate(&mut conn).unwrap();
        drop(conn);
        let api = server.client();
        let (a, b, id) = api.new_game("standard", serde_json::json!({}));
        assert_eq!(common::game(&a, &id)["status"], "active");
        assert_eq!(common::game(&b, &id)["move_number"], 1);
    }
}

#[test]
fn both_backends_build_the_same_columns() {
    let mut schemas = Vec::new();
    for backend in BACKENDS {
        let db = TempDatabase::new(backend);
        let pool = open(&db);
        let mut conn = pool.get().unwrap();
        hexpost::store::migrate(&mut conn).unwrap();
        schemas.push((backend, columns(&mut conn)));
    }
    let (_, sqlite) = &schemas[0];
    let (_, pg) = &schemas[1];
    assert_eq!(
        sqlite.keys().collect::<Vec<_>>(),
        pg.keys().collect::<Vec<_>>()
    );
    for (table, cols) in sqlite {
        assert_eq!(cols, &pg[table], "table {table}: SQLite vs PostgreSQL");
    }
    // And both match what the code expects (store/schema.rs): spot checks
    // of nullable and required columns.
    let nullable = |t: &str, c: &str| {
        pg[t]
            .iter()
            .find(|(n, _)| n == c)
            .unwrap_or_else(|| panic!("{t}.{c} missing"))
            .1
    };
    for (t, c) in [
        ("games", "state"),
        ("games", "winner_seat"),
        ("games", "creator_seat"),
        ("games", "finished_at"),
        ("moves", "seat"),
        ("moves", "user_id"),
        ("moves", "jws"),
        ("user_keys", "revoked_at"),
        ("invitations", "responded_at"),
        ("admin_log", "admin_user_id"),
        ("outbox", "game_id"),
        ("outbox", "user_id"),
        ("outbox", "claimed_until"),
        ("outbox", "sent_at"),
    ] {
        assert!(nullable(t, c), "{t}.{c} should be nullable");
    }
    for (t, c) in [
        ("games", "id"),
        ("games", "seed"),
        ("moves", "events"),
        ("moves", "hash"),
        ("users", "email"),
        ("users", "id"),
        ("idempotency_keys", "response"),
        ("users", "notify"),
        ("outbox", "context"),
        ("outbox", "message_id"),
        ("outbox", "due_at"),
    ] {
        assert!(!nullable(t, c), "{t}.{c} should be NOT NULL");
    }
}

/// The migration that makes a key active on one account at most: a key
/// active on two accounts (nobody can tell whose) is revoked on both; one
/// an account registered twice keeps its first registration; others stay.
#[test]
fn keys_active_on_two_accounts_are_revoked_when_keys_become_unique() {
    use diesel_migrations::{EmbeddedMigrations, MigrationHarness, embed_migrations};
    const PG: EmbeddedMigrations = embed_migrations!("migrations/postgres");
    const SQLITE: EmbeddedMigrations = embed_migrations!("migrations/sqlite");
    const UNIQUE_KEYS: &str = "20261125200001";
    for backend in BACKENDS {
        let db = TempDatabase::new(backend);
        let pool = open(&db);
        let mut conn = pool.get().unwrap();
        hexpost::store::migrate(&mut conn).unwrap();
        // Back to just before that migration (and any after it).
        let mut reverted = 0;
        loop {
            let version = match &mut *conn {
                DbConnection::Pg(c) => c.revert_last_migration(PG),
                DbConnection::Sqlite(c) => c.revert_last_migration(SQLITE),
            }
            .unwrap();
            reverted += 1;
            if version.to_string().starts_with(UNIQUE_KEYS) {
                break;
            }
        }
        // The users table as it was then: `store::users` reads columns
        // that later migrations add.
        let user = |conn: &mut DbConnection, name: &str| {
            diesel::sql_query(format!(
                "INSERT INTO users (email, display_name, password_hash, is_admin, created_at) \
                 VALUES ('{name}@example.org', '{name}', 'x', false, 0)"
            ))
            .execute(conn)
            .unwrap();
            diesel::sql_query(format!(
                "SELECT id FROM users WHERE email = '{name}@example.org'"
            ))
            .get_result::<UserId>(conn)
            .unwrap()
            .id
        };
        let (ada, bob) = (user(&mut conn, "ada"), user(&mut conn, "bob"));
        let mut add = |who: i64, key: &str| {
            hexpost::store::users::add_key(&mut conn, who, key)
                .unwrap()
                .unwrap()
                .id
        };
        let shared = [add(ada, "shared"), add(bob, "shared")];
        let twice = [add(ada, "twice"), add(ada, "twice")];
        let bobs = add(bob, "bobs");
        let passed_on = [add(ada, "passed-on"), add(bob, "passed-on")];
        assert!(hexpost::store::users::revoke_key(&mut conn, ada, passed_on[0]).unwrap());

        assert_eq!(
            hexpost::store::migrate(&mut conn).unwrap(),
            reverted,
            "{backend:?}"
        );
        let active = |conn: &mut DbConnection, who: i64| -> Vec<i64> {
            hexpost::store::users::active_keys(conn, who)
                .unwrap()
                .iter()
                .map(|k| k.id)
                .collect()
        };
        assert_eq!(active(&mut conn, ada), vec![twice[0]], "{backend:?}");
        assert_eq!(
            active(&mut conn, bob),
            vec![bobs, passed_on[1]],
            "{backend:?}"
        );
        assert!(!active(&mut conn, ada).contains(&shared[0]));
        // And now a second registration of an active key is refused.
        assert!(
            hexpost::store::users::add_key(&mut conn, bob, "twice")
                .unwrap()
                .is_none()
        );
    }
}
