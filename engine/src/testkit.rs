//! Building exact positions for scenario tests and tools. Every helper keeps
//! the state consistent (cards come from the bank, pieces from the supply,
//! VP and road lengths recounted), so the invariants hold in any scenario.

use crate::board::{EdgeId, HexId, LayoutKind, NodeId, topology};
use crate::cards::{Cards, DevCard, ProgressCard, Track};
use crate::phases::Phase;
use crate::rng::GameRng;
use crate::rulesets::VariantState;
use crate::rulesets::ck_for_two::{CkState, Knight, KnightLevel, Merchant};
use crate::seats::Seat;
use crate::state::{Building, BuildingKind, GameState};
use crate::{Action, ActionError, Event, GameConfig, Variant};

#[derive(Clone)]
pub struct Scenario {
    pub state: GameState,
}

impl Scenario {
    /// A game on the beginner board with set-up not yet done.
    pub fn in_setup(variant: Variant) -> Scenario {
        let mut config = GameConfig::new(variant);
        config.options.board = Some(LayoutKind::Beginner);
        Self::from_config(&config)
    }

    pub fn from_config(config: &GameConfig) -> Scenario {
        let (state, _) = GameState::new(config, 42).expect("valid config");
        Scenario { state }
    }

    /// Beginner board, set-up skipped, seat 0 to roll on turn 1.
    pub fn standard() -> Scenario {
        Self::after_setup(Variant::Standard)
    }

    pub fn after_setup(variant: Variant) -> Scenario {
        let mut s = Self::in_setup(variant);
        s.skip_setup();
        s
    }

    pub fn with_options(variant: Variant, set: &[(&str, &str)]) -> Scenario {
        let mut config = GameConfig::new(variant);
        config.options.board = Some(LayoutKind::Beginner);
        for (k, v) in set {
            config.set_option(k, v).expect("valid option");
        }
        let mut s = Self::from_config(&config);
        s.skip_setup();
        s
    }

    pub fn skip_setup(&mut self) -> &mut Self {
        self.state.setup.pos = self.state.setup.steps.len();
        self.state.setup.anchor = None;
        self.state.phases = vec![Phase::BeforeRoll];
        self.state.active = Seat(0);
        self.state.turn = 1;
        self
    }

    /// `seat`'s turn, dice already rolled.
    pub fn main_phase(&mut self, seat: Seat) -> &mut Self {
        self.state.active = seat;
        self.state.phases = vec![Phase::Main];
        self
    }

    /// `seat`'s turn, before the roll.
    pub fn before_roll(&mut self, seat: Seat) -> &mut Self {
        self.state.active = seat;
        self.state.phases = vec![Phase::BeforeRoll];
        self
    }

    /// Moves cards from the bank to `seat`.
    pub fn give(&mut self, seat: Seat, cards: Cards) -> &mut Self {
        assert!(
            self.state.bank.contains(&cards),
            "bank cannot give {cards:?}"
        );
        self.state.bank.sub(&cards);
        self.state.player_mut(seat).hand.add(&cards);
        self
    }

    /// Replaces `seat`'s hand, returning the old one to the bank.
    pub fn set_hand(&mut self, seat: Seat, cards: Cards) -> &mut Self {
        let old = self.state.player(seat).hand;
        self.state.bank.add(&old);
        self.state.player_mut(seat).hand = Cards::ZERO;
        self.give(seat, cards)
    }

    /// Moves cards from `seat`'s hand back to the bank, leaving it with none.
    pub fn empty_hand(&mut self, seat: Seat) -> &mut Self {
        self.set_hand(seat, Cards::ZERO)
    }

    pub fn settlement(&mut self, seat: Seat, node: NodeId) -> &mut Self {
        self.place(seat, node, BuildingKind::Settlement)
    }

    pub fn city(&mut self, seat: Seat, node: NodeId) -> &mut Self {
        self.place(seat, node, BuildingKind::City)
    }

    fn place(&mut self, seat: Seat, node: NodeId, kind: BuildingKind) -> &mut Self {
        assert!(
            self.state.buildings[node as usize].is_none(),
            "node {node} taken"
        );
        self.state.buildings[node as usize] = Some(Building { owner: seat, kind });
        let p = self.state.player_mut(seat);
        match kind {
            BuildingKind::Settlement => {
                p.settlements_left -= 1;
                p.visible_vp += 1;
            }
            BuildingKind::City => {
                p.cities_left -= 1;
                p.visible_vp += 2;
            }
        }
        self.recount_roads()
    }

    pub fn road(&mut self, seat: Seat, edge: EdgeId) -> &mut Self {
        assert!(
            self.state.roads[edge as usize].is_none(),
            "edge {edge} taken"
        );
        self.state.roads[edge as usize] = Some(seat);
        self.state.player_mut(seat).roads_left -= 1;
        self.recount_roads()
    }

    /// A chain of roads along consecutive nodes.
    pub fn road_path(&mut self, seat: Seat, nodes: &[NodeId]) -> &mut Self {
        for w in nodes.windows(2) {
            let e = edge(w[0], w[1]);
            self.road(seat, e);
        }
        self
    }

    fn recount_roads(&mut self) -> &mut Self {
        for i in 0..self.state.players.len() {
            let seat = self.state.players[i].seat;
            self.state.players[i].road_length = self.state.longest_road_of(seat);
        }
        let mut ev = Vec::new();
        self.state.update_longest_road(&mut ev);
        self
    }

    /// Gives `seat` a development card from the deck.
    pub fn dev_card(&mut self, seat: Seat, card: DevCard, bought_this_turn: bool) -> &mut Self {
        let dev = self
            .state
            .dev
            .as_mut()
            .expect("the game deals development cards");
        let pos = dev
            .deck
            .iter()
            .position(|&c| c == card)
            .expect("card left in deck");
        dev.deck.remove(pos);
        let h = dev.hand_mut(seat);
        let cards = if bought_this_turn {
            &mut h.new_cards
        } else {
            &mut h.cards
        };
        cards[card] += 1;
        self
    }

    /// Records `n` knights as already played by `seat` and re-evaluates the army.
    pub fn knights_played(&mut self, seat: Seat, n: u8) -> &mut Self {
        let dev = self
            .state
            .dev
            .as_mut()
            .expect("the game deals development cards");
        for _ in 0..n {
            let pos = dev
                .deck
                .iter()
                .position(|&c| c == DevCard::Knight)
                .expect("knight left");
            dev.deck.remove(pos);
        }
        let h = dev.hand_mut(seat);
        h.knights_played += n;
        h.played[DevCard::Knight] += n;
        let mut ev = Vec::new();
        self.state.update_largest_army(&mut ev);
        self
    }

    pub fn robber(&mut self, hex: HexId) -> &mut Self {
        self.state.robber = hex;
        self
    }

    /// Reseeds the game's generator so that the next rolls of the game's
    /// dice total `totals`, in order, with nothing else drawn in between.
    pub fn rig_rolls(&mut self, totals: &[u8]) -> &mut Self {
        for k in 0..1_000_000u64 {
            let mut rng = GameRng::from_seed(k);
            let mut dice = self.state.dice.clone();
            if totals.iter().all(|&t| {
                let d = dice.roll(&mut rng);
                d[0] + d[1] == t
            }) {
                self.state.rng = GameRng::from_seed(k);
                return self;
            }
        }
        panic!("no seed rolls {totals:?}");
    }

    /// Reseeds the game's generator with the first seed for which `want`,
    /// run on a copy, returns true; the copy may apply actions to see what
    /// the dice do. The caller then applies the same actions for real.
    pub fn rig(&mut self, want: impl Fn(&mut Scenario) -> bool) -> &mut Self {
        for k in 0..100_000u64 {
            let mut copy = Scenario {
                state: self.state.clone(),
            };
            copy.state.rng = GameRng::from_seed(k);
            if want(&mut copy) {
                self.state.rng = GameRng::from_seed(k);
                return self;
            }
        }
        panic!("no seed gives the wanted outcome");
    }

    /// Shadow: replaces the removal roll with `sides` (one side: doubles).
    pub fn removed_sides(&mut self, sides: &[u8]) -> &mut Self {
        let (a, b) = match sides {
            [a] => (*a, *a),
            [a, b] => (*a, *b),
            _ => panic!("one or two sides"),
        };
        self.state.board.removed = crate::rulesets::shadow::removal_mask(a, b);
        if let VariantState::Shadow(st) = &mut self.state.variant {
            st.removal_sides = sides.to_vec();
            st.removal_dice = vec![a, b];
        }
        self
    }

    /// catan_for_two: sets `seat`'s trade tokens, the supply making up the 20.
    pub fn tokens(&mut self, seat: Seat, n: u8) -> &mut Self {
        if let Some(t) = self.state.variant.tokens_mut() {
            let total = t.supply + t.held[seat.index()];
            assert!(n <= total, "only {total} tokens to give");
            t.held[seat.index()] = n;
            t.supply = total - n;
        }
        self
    }

    pub fn tokens_of(&self, seat: Seat) -> u8 {
        self.state.tokens().map_or(0, |t| t.held[seat.index()])
    }

    pub fn token_supply(&self) -> u8 {
        self.state.tokens().map_or(0, |t| t.supply)
    }

    /// ck_for_two: the ruleset's state.
    pub fn ck(&self) -> &CkState {
        match &self.state.variant {
            VariantState::CkForTwo(c) => c,
            _ => panic!("not a ck_for_two game"),
        }
    }

    pub fn ck_mut(&mut self) -> &mut CkState {
        match &mut self.state.variant {
            VariantState::CkForTwo(c) => c,
            _ => panic!("not a ck_for_two game"),
        }
    }

    /// ck_for_two: puts a knight of `seat` on `node` (from its supply).
    pub fn knight(
        &mut self,
        seat: Seat,
        node: NodeId,
        level: KnightLevel,
        active: bool,
    ) -> &mut Self {
        assert!(
            self.state.buildings[node as usize].is_none(),
            "node {node} built on"
        );
        let c = self.ck_mut();
        assert!(c.knight_at(node).is_none(), "a knight on node {node}");
        c.put_knight(Knight {
            node,
            owner: seat,
            level,
            active,
            activated: false,
            promoted: false,
        });
        self.recount_roads()
    }

    /// ck_for_two: `seat`'s improvement levels (trade, politics, science).
    pub fn levels(&mut self, seat: Seat, levels: [u8; 3]) -> &mut Self {
        self.ck_mut().player_mut(seat).levels = levels;
        self
    }

    /// ck_for_two: moves a `card` from its deck into `seat`'s hand.
    pub fn progress(&mut self, seat: Seat, card: ProgressCard) -> &mut Self {
        let c = self.ck_mut();
        let deck = &mut c.decks[card.track().index()];
        let cards = deck.cards.as_mut().expect("the true state knows its decks");
        let pos = cards
            .iter()
            .position(|&x| x == card)
            .unwrap_or_else(|| panic!("no {card} left in its deck"));
        cards.remove(pos);
        deck.size -= 1;
        c.hold(seat, card);
        self
    }

    /// ck_for_two: puts `card` on top of its deck (the next drawn).
    pub fn deck_top(&mut self, card: ProgressCard) -> &mut Self {
        let cards = self.ck_mut().decks[card.track().index()]
            .cards
            .as_mut()
            .expect("the true state knows its decks");
        let pos = cards
            .iter()
            .position(|&x| x == card)
            .unwrap_or_else(|| panic!("no {card} left in its deck"));
        let c = cards.remove(pos);
        cards.push(c);
        self
    }

    /// ck_for_two: empties `track`'s deck into `seat`'s hand (its
    /// victory-point cards laid down), for scenarios that need it empty.
    pub fn drain_deck(&mut self, track: Track, seat: Seat) -> &mut Self {
        let c = self.ck_mut();
        let cards: Vec<ProgressCard> = c.decks[track.index()]
            .cards
            .as_mut()
            .expect("the true state knows its decks")
            .drain(..)
            .collect();
        c.decks[track.index()].size = 0;
        let mut vp = 0;
        for card in cards {
            if card.is_victory_point() {
                c.player_mut(seat).laid_down[card] += 1;
                vp += 1;
            } else {
                c.hold(seat, card);
            }
        }
        self.state.player_mut(seat).visible_vp += vp;
        self
    }

    /// ck_for_two: the barbarian ship's space and the attacks so far.
    pub fn barbarians(&mut self, position: u8, attacks: u16) -> &mut Self {
        let c = self.ck_mut();
        c.barbarians = position;
        c.attacks = attacks;
        self
    }

    /// ck_for_two: a wall under `node`'s city.
    pub fn wall(&mut self, node: NodeId) -> &mut Self {
        self.ck_mut().walls.insert(node);
        self
    }

    /// ck_for_two: `track`'s metropolis on the city at `node` (2 VP more).
    pub fn metropolis(&mut self, track: Track, node: NodeId) -> &mut Self {
        let owner = self.state.building_at(node).expect("a city there").owner;
        self.ck_mut().metropolises[track.index()] = Some(node);
        self.state.player_mut(owner).visible_vp += 2;
        self
    }

    /// ck_for_two: `seat` controls the merchant on `hex` (1 VP).
    pub fn merchant(&mut self, seat: Seat, hex: HexId) -> &mut Self {
        self.ck_mut().merchant = Some(Merchant { owner: seat, hex });
        self.state.player_mut(seat).visible_vp += 1;
        self
    }

    /// Adds visible VP to `seat` as Defender of Catan cards (ck_for_two).
    pub fn defenders(&mut self, seat: Seat, n: u8) -> &mut Self {
        let c = self.ck_mut();
        c.player_mut(seat).defenders += n;
        c.defenders_left = c.defenders_left.saturating_sub(n);
        self.state.player_mut(seat).visible_vp += n;
        self
    }

    /// Reseeds the game's generator so that its next dice — each a
    /// `GameRng::die`, the number dice (yellow, red) then the event die of
    /// every ck_for_two throw — show `faces`, in order.
    pub fn rig_dice(&mut self, faces: &[u8]) -> &mut Self {
        for k in 0..50_000_000u64 {
            let mut rng = GameRng::from_seed(k);
            if faces.iter().all(|&f| rng.die() == f) {
                self.state.rng = GameRng::from_seed(k);
                return self;
            }
        }
        panic!("no seed throws {faces:?}");
    }

    /// The state's invariants hold (panics with the broken one).
    pub fn check(&self) -> &Self {
        if let Err(e) = crate::invariants::check_state(&self.state) {
            panic!("invariant broken: {e}");
        }
        self
    }

    /// Reseeds the game's generator so that the next roll totals `total`,
    /// leaving the dice themselves (fair or balanced) to produce it.
    pub fn rig_next_roll(&mut self, total: u8) -> &mut Self {
        for k in 0..100_000u64 {
            let mut rng = GameRng::from_seed(k);
            let mut dice = self.state.dice.clone();
            let d = dice.roll(&mut rng);
            if d[0] + d[1] == total {
                self.state.rng = GameRng::from_seed(k);
                return self;
            }
        }
        panic!("no seed rolls {total}");
    }

    pub fn apply(&mut self, seat: Seat, action: Action) -> Result<Vec<Event>, ActionError> {
        self.state.apply(seat, &action)
    }

    /// Applies and panics with the reason if refused.
    pub fn ok(&mut self, seat: Seat, action: Action) -> Vec<Event> {
        match self.state.apply(seat, &action) {
            Ok(ev) => ev,
            Err(e) => panic!("{action:?} by {seat} refused: {e}"),
        }
    }

    /// Applies, expects a refusal, and checks nothing changed.
    pub fn refused(&mut self, seat: Seat, action: Action) -> ActionError {
        let before = self.state.clone();
        match self.state.apply(seat, &action) {
            Ok(ev) => panic!("{action:?} by {seat} was accepted: {ev:?}"),
            Err(e) => {
                assert_eq!(self.state, before, "refused action changed the state");
                e
            }
        }
    }

    pub fn hand(&self, seat: Seat) -> Cards {
        self.state.player(seat).hand
    }
}

/// The edge between two adjacent nodes.
pub fn edge(a: NodeId, b: NodeId) -> EdgeId {
    topology()
        .edge_between(a, b)
        .unwrap_or_else(|| panic!("nodes {a} and {b} are not adjacent"))
}

/// The hex at axial `(q, r)`.
pub fn hex(q: i8, r: i8) -> HexId {
    topology().hex_by_axial(q, r).expect("hex on the board")
}

/// The node shared by all of `hexes` (two or three hex ids, or one with a
/// corner index 0..6 clockwise from the top via `corner`).
pub fn node_of(hexes: &[HexId]) -> NodeId {
    let t = topology();
    let mut found = t
        .nodes
        .iter()
        .filter(|n| hexes.iter().all(|h| n.hexes.contains(h)));
    let n = found.next().expect("hexes share a node");
    n.id
}

/// Corner `i` (clockwise from the top) of `hex`.
pub fn corner(hex: HexId, i: usize) -> NodeId {
    topology().hexes[hex as usize].nodes[i]
}
