//! The decision taken for a player whose time ran out: at every decision of
//! random games in every variant it exists, is legal, and is safe (it never
//! spends by choice, trades, or plays a development card).

use hexpost_engine::rng::GameRng;
use hexpost_engine::sim::{Checks, play_game};
use hexpost_engine::{Action, GameConfig, GameState, LegalAction, Resource, Variant};

fn configs() -> Vec<GameConfig> {
    let mut out: Vec<GameConfig> = [
        Variant::Standard,
        Variant::Duel,
        Variant::CatanForTwo,
        Variant::NeutralTrader,
        Variant::Shadow,
        Variant::CkForTwo,
    ]
    .into_iter()
    .map(GameConfig::new)
    .collect();
    let mut agree = GameConfig::new(Variant::Shadow);
    agree.set_option("removal_reroll", "\"agree\"").unwrap();
    out.push(agree);
    out
}

fn is_safe(action: &Action) -> bool {
    !matches!(
        action,
        Action::BuyDevelopmentCard
            | Action::PlayKnight { .. }
            | Action::PlayRoadBuilding
            | Action::PlayYearOfPlenty { .. }
            | Action::PlayMonopoly { .. }
            | Action::MaritimeTrade { .. }
            | Action::OfferTrade { .. }
            | Action::AcceptTrade
            | Action::AcceptNeutralTrade { .. }
            | Action::AskNeutralTrade
            | Action::ForcedTrade
            | Action::RobberToDesert
            | Action::DiscardKnight
            | Action::RaiseBid { .. }
            | Action::BuildCity { .. }
            | Action::BuildWall { .. }
            | Action::BuyImprovement { .. }
            | Action::RecruitKnight { .. }
            | Action::ActivateKnight { .. }
            | Action::PromoteKnight { .. }
            | Action::MoveKnight { .. }
            | Action::DisplaceKnight { .. }
            | Action::ChaseRobber { .. }
            | Action::RemoveKnight { .. }
            | Action::BankTrade { .. }
            | Action::ForcedTradeResources
            | Action::PlayProgress { .. }
            | Action::AqueductPick { resource: Some(_) }
            | Action::PlaceDeserterKnight { node: Some(_) }
            | Action::ReplaceRoad { edge: Some(_) }
            | Action::SpyTake { card: Some(_) }
            | Action::SmithPromote { node: Some(_) }
    )
}

/// Checks the timeout decision of every awaited seat in `s`.
fn check_all(s: &GameState, what: &str) -> usize {
    let mut checked = 0;
    for &seat in s.awaiting().iter() {
        let legal = s.legal_actions(seat);
        let action = s
            .timeout_decision(seat)
            .unwrap_or_else(|| panic!("{what}: no timeout decision for {seat:?} in {legal:?}"));
        // A set-up city, like a set-up settlement, is free and owed.
        let setup_city = s.in_setup() && matches!(action, Action::BuildCity { .. });
        assert!(is_safe(&action) || setup_city, "{what}: unsafe {action:?}");
        // Declining and ending come first whenever they are possible.
        for (entry, preferred) in [
            (LegalAction::DeclineTrade, Action::DeclineTrade),
            (LegalAction::PassBid, Action::PassBid),
            (LegalAction::EndTurn, Action::EndTurn),
        ] {
            if legal.contains(&entry) && !legal.contains(&LegalAction::DeclineTrade) {
                assert_eq!(action, preferred, "{what}: {legal:?}");
            }
        }
        if let Action::Discard { cards } = &action {
            // The first cards in resource order: no card of a later
            // resource while one of an earlier resource stays in hand.
            let hand = s.player(seat).hand;
            let mut rest = hand;
            rest.sub(cards);
            let first_kept = Resource::ALL.iter().position(|&r| rest[r] > 0);
            let last_given = Resource::ALL.iter().rposition(|&r| cards[r] > 0);
            if let (Some(k), Some(g)) = (first_kept, last_given) {
                assert!(g <= k, "{what}: discarded {cards:?} from {hand:?}");
            }
        }
        let mut probe = s.clone();
        probe
            .apply(seat, &action)
            .unwrap_or_else(|e| panic!("{what}: {action:?} refused: {e}"));
        checked += 1;
    }
    checked
}

#[test]
fn every_decision_of_random_games_has_a_safe_legal_timeout_decision() {
    for config in configs() {
        let mut checked = 0;
        for seed in 0..12 {
            let record = play_game(&config, seed, 1000, Checks::None).unwrap();
            let (mut s, _) = GameState::new(&config, seed).unwrap();
            let what = format!("{:?} seed {seed}", config.variant);
            for (seat, action) in &record.actions {
                checked += check_all(&s, &what);
                s.apply(*seat, action).unwrap();
            }
            assert!(s.is_over() || record.turns >= 1000, "{what}");
        }
        assert!(checked > 5_000, "{:?}: {checked}", config.variant);
    }
}

#[test]
fn a_game_of_timeouts_never_wedges() {
    // One seat only ever times out, the other plays at random: the game
    // goes on to its end or the turn limit with every decision legal.
    for config in configs() {
        for seed in 0..4 {
            let (mut s, _) = GameState::new(&config, 900 + seed).unwrap();
            let mut rng = GameRng::from_seed(seed);
            let mut steps = 0;
            while !s.is_over() && s.turn < 400 {
                let seat = *s.awaiting().iter().next().expect("someone is awaited");
                let action = if seat.0 == 0 {
                    s.timeout_decision(seat).expect("a timeout decision")
                } else {
                    let legal = s.legal_actions(seat);
                    hexpost_engine::sim::random_action(&s, seat, &legal, &mut rng)
                        .expect("a random action")
                };
                if s.apply(seat, &action).is_err() {
                    assert_ne!(seat.0, 0, "timeout decision refused: {action:?}");
                }
                steps += 1;
            }
            assert!(steps > 100, "{:?}", config.variant);
        }
    }
}
