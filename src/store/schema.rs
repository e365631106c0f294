//! Table definitions shared by both backends (see migrations/).

diesel::table! {
    users (id) {
        id -> BigInt,
        email -> Text,
        display_name -> Text,
        password_hash -> Text,
        is_admin -> Bool,
        created_at -> BigInt,
        notify -> Text,
        time_zone -> Text,
        quiet_start -> Nullable<Integer>,
        quiet_end -> Nullable<Integer>,
        digest_hour -> Integer,
        version -> BigInt,
        disabled_at -> Nullable<BigInt>,
        deleted_at -> Nullable<BigInt>,
    }
}

diesel::table! {
    user_keys (id) {
        id -> BigInt,
        user_id -> BigInt,
        public_key -> Text,
        created_at -> BigInt,
        revoked_at -> Nullable<BigInt>,
    }
}

diesel::table! {
    games (id) {
        id -> Text,
        variant -> Text,
        config -> Text,
        status -> Text,
        created_by -> BigInt,
        seed -> Text,
        seed_hash -> Text,
        state -> Nullable<Text>,
        move_number -> BigInt,
        chain_head -> Text,
        awaiting -> Text,
        winner_seat -> Nullable<Integer>,
        time_limit_secs -> BigInt,
        creator_seat -> Nullable<Integer>,
        created_at -> BigInt,
        updated_at -> BigInt,
        finished_at -> Nullable<BigInt>,
        timeout_policy -> Text,
        max_auto_decisions -> Integer,
        vacation_days -> Integer,
        clocks -> Text,
        wake_at -> Nullable<BigInt>,
        version -> BigInt,
        committed_from -> Nullable<BigInt>,
    }
}

diesel::table! {
    game_players (game_id, seat) {
        game_id -> Text,
        seat -> Integer,
        user_id -> BigInt,
    }
}

diesel::table! {
    invitations (id) {
        id -> Text,
        game_id -> Text,
        email -> Text,
        token_hash -> Text,
        status -> Text,
        created_at -> BigInt,
        responded_at -> Nullable<BigInt>,
    }
}

diesel::table! {
    moves (game_id, seq) {
        game_id -> Text,
        seq -> BigInt,
        actor -> Text,
        seat -> Nullable<Integer>,
        user_id -> Nullable<BigInt>,
        action -> Text,
        jws -> Nullable<Text>,
        events -> Text,
        state_hash -> Text,
        prev_hash -> Text,
        hash -> Text,
        created_at -> BigInt,
        sealed -> Bool,
    }
}

diesel::table! {
    idempotency_keys (user_id, key) {
        user_id -> BigInt,
        key -> Text,
        request_hash -> Text,
        status -> Integer,
        response -> Text,
        created_at -> BigInt,
    }
}

diesel::table! {
    admin_log (id) {
        id -> BigInt,
        admin_user_id -> Nullable<BigInt>,
        action -> Text,
        target -> Text,
        detail -> Text,
        created_at -> BigInt,
    }
}

diesel::table! {
    outbox (id) {
        id -> BigInt,
        kind -> Text,
        game_id -> Nullable<Text>,
        user_id -> Nullable<BigInt>,
        recipient -> Text,
        context -> Text,
        message_id -> Text,
        game_seq -> Nullable<BigInt>,
        status -> Text,
        attempts -> Integer,
        due_at -> BigInt,
        claimed_until -> Nullable<BigInt>,
        last_error -> Nullable<Text>,
        created_at -> BigInt,
        sent_at -> Nullable<BigInt>,
    }
}

diesel::table! {
    inbound_mails (id) {
        id -> BigInt,
        received_at -> BigInt,
        via -> Text,
        sender -> Nullable<Text>,
        message_id -> Text,
        user_id -> Nullable<BigInt>,
        game_id -> Nullable<Text>,
        move_number -> Nullable<BigInt>,
        outcome -> Text,
        applied -> Integer,
        moves_to -> Nullable<BigInt>,
        detail -> Nullable<Text>,
    }
}

diesel::table! {
    used_jtis (user_id, jti) {
        user_id -> BigInt,
        jti -> Text,
        expires_at -> BigInt,
    }
}

diesel::table! {
    sessions (id) {
        id -> BigInt,
        user_id -> BigInt,
        created_at -> BigInt,
        last_used_at -> BigInt,
        expires_at -> BigInt,
        user_agent -> Text,
        ip -> Text,
        revoked_at -> Nullable<BigInt>,
    }
}

diesel::table! {
    refresh_tokens (token_hash) {
        token_hash -> Text,
        session_id -> BigInt,
        issued_at -> BigInt,
        used_at -> Nullable<BigInt>,
    }
}

diesel::table! {
    sign_in_codes (code_hash) {
        code_hash -> Text,
        user_id -> BigInt,
        game_id -> Text,
        expires_at -> BigInt,
        used_at -> Nullable<BigInt>,
    }
}

diesel::table! {
    account_codes (id) {
        id -> BigInt,
        purpose -> Text,
        email -> Text,
        user_id -> Nullable<BigInt>,
        display_name -> Nullable<Text>,
        password_hash -> Nullable<Text>,
        code_hash -> Text,
        attempts -> Integer,
        created_at -> BigInt,
        expires_at -> BigInt,
        used_at -> Nullable<BigInt>,
    }
}

diesel::joinable!(user_keys -> users (user_id));
diesel::joinable!(sessions -> users (user_id));
diesel::joinable!(refresh_tokens -> sessions (session_id));
diesel::joinable!(used_jtis -> users (user_id));
diesel::joinable!(game_players -> games (game_id));
diesel::joinable!(game_players -> users (user_id));
diesel::joinable!(invitations -> games (game_id));
diesel::joinable!(moves -> games (game_id));

diesel::allow_tables_to_appear_in_same_query!(
    users,
    user_keys,
    games,
    game_players,
    invitations,
    moves,
    idempotency_keys,
    admin_log,
    outbox,
    inbound_mails,
    used_jtis,
    sessions,
    refresh_tokens,
    sign_in_codes,
    account_codes
);
