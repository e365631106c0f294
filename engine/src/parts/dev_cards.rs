//! The development cards (RULES.md §1 "Development cards", "Largest
//! army"): the deck, what each seat holds and has played, the one card a
//! turn, and Largest Army, which only played knights decide.

use crate::actions::LegalAction;
use crate::board::HexId;
use crate::cards::{Cards, DevCard, DevCounts, Resource, cost};
use crate::contract::Ruleset;
use crate::error::ActionError;
use crate::events::Event;
use crate::phases::Phase;
use crate::rng::GameRng;
use crate::seats::Seat;
use crate::state::GameState;

pub const DECK_SIZE: u32 = 25;
pub const MIN_LARGEST_ARMY: u8 = 3;

/// The part's state: the deck, each seat's cards, this turn's play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DevCards {
    /// Drawn from the end.
    pub deck: Vec<DevCard>,
    /// By seat; automated seats hold none.
    pub hands: Vec<DevHand>,
    pub played_this_turn: bool,
    pub largest_army: Option<Seat>,
}

/// What one seat holds and has played.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DevHand {
    /// Playable (bought before this turn).
    pub cards: DevCounts,
    /// Bought this turn: not playable until the owner's next turn.
    pub new_cards: DevCounts,
    /// Knights played and still counting for Largest Army.
    pub knights_played: u8,
    /// Played knights given up again (catan_for_two trades them for
    /// tokens): `knights_played + knights_discarded == played.knight`.
    pub knights_discarded: u8,
    /// Every card played so far, by kind (public).
    pub played: DevCounts,
}

impl DevHand {
    /// Victory point cards, hidden until they win the game.
    pub fn hidden_vp(&self) -> u8 {
        self.cards[DevCard::VictoryPoint] + self.new_cards[DevCard::VictoryPoint]
    }

    pub fn count(&self) -> u32 {
        self.cards.total() + self.new_cards.total()
    }
}

impl DevCards {
    /// The 25 cards of RULES.md §1, shuffled, for `seats` seats.
    pub fn new(rng: &mut GameRng, seats: usize) -> DevCards {
        let mut deck = Vec::with_capacity(DECK_SIZE as usize);
        for (card, n) in [
            (DevCard::Knight, 14),
            (DevCard::VictoryPoint, 5),
            (DevCard::RoadBuilding, 2),
            (DevCard::YearOfPlenty, 2),
            (DevCard::Monopoly, 2),
        ] {
            deck.extend(std::iter::repeat_n(card, n));
        }
        rng.shuffle(&mut deck);
        DevCards {
            deck,
            hands: vec![DevHand::default(); seats],
            played_this_turn: false,
            largest_army: None,
        }
    }

    pub fn hand(&self, seat: Seat) -> &DevHand {
        &self.hands[seat.index()]
    }

    pub fn hand_mut(&mut self, seat: Seat) -> &mut DevHand {
        &mut self.hands[seat.index()]
    }

    /// At the end of a turn: cards bought in it become playable.
    pub fn turn_ended(&mut self, seat: Seat) {
        let h = self.hand_mut(seat);
        let fresh = std::mem::take(&mut h.new_cards);
        h.cards.add(&fresh);
        self.played_this_turn = false;
    }

    /// Conservation and the Largest Army holder.
    pub fn check(&self) -> Result<(), String> {
        let total: u32 = self.deck.len() as u32
            + self
                .hands
                .iter()
                .map(|h| h.count() + h.played.total())
                .sum::<u32>();
        if total != DECK_SIZE {
            return Err(format!(
                "development cards: deck + held + played = {total}, not 25"
            ));
        }
        for (i, h) in self.hands.iter().enumerate() {
            if h.knights_played + h.knights_discarded != h.played[DevCard::Knight] {
                return Err(format!(
                    "seat {i}: knights_played {} + discarded {} != knights in played cards {}",
                    h.knights_played,
                    h.knights_discarded,
                    h.played[DevCard::Knight]
                ));
            }
            if i >= 2 && (h.count() > 0 || h.played.total() > 0) {
                return Err(format!("automated seat {i} holds development cards"));
            }
        }
        if let Some(holder) = self.largest_army {
            let hk = self.hand(holder).knights_played;
            if hk < MIN_LARGEST_ARMY || self.hands.iter().any(|h| h.knights_played > hk) {
                return Err(format!(
                    "largest army held by {holder} with {hk} knights, not the largest or below 3"
                ));
            }
        }
        Ok(())
    }

    /// For the hidden-information test: another seat's cards of the same
    /// counts (new and old), and another deck order.
    pub fn perturb_hidden(&mut self, viewer: Seat, rng: &mut GameRng) {
        for (i, h) in self.hands.iter_mut().enumerate() {
            if i == viewer.index() {
                continue;
            }
            for cards in [&mut h.cards, &mut h.new_cards] {
                let n = cards.total();
                *cards = DevCounts::ZERO;
                for _ in 0..n {
                    cards[DevCard::ALL[rng.below(5) as usize]] += 1;
                }
            }
        }
        rng.shuffle(&mut self.deck);
    }
}

/// What a seat holds when the game deals no development cards.
static NO_CARDS: DevHand = DevHand {
    cards: DevCounts::ZERO,
    new_cards: DevCounts::ZERO,
    knights_played: 0,
    knights_discarded: 0,
    played: DevCounts::ZERO,
};

impl GameState {
    /// What `seat` holds and has played (nothing in a game without the cards).
    pub fn dev_hand(&self, seat: Seat) -> &DevHand {
        self.dev
            .as_ref()
            .and_then(|d| d.hands.get(seat.index()))
            .unwrap_or(&NO_CARDS)
    }

    /// The development deck, top last (empty in a game without the cards).
    pub fn dev_deck(&self) -> &[DevCard] {
        self.dev.as_ref().map_or(&[], |d| d.deck.as_slice())
    }

    pub fn dev_played_this_turn(&self) -> bool {
        self.dev.as_ref().is_some_and(|d| d.played_this_turn)
    }

    pub fn largest_army(&self) -> Option<Seat> {
        self.dev.as_ref().and_then(|d| d.largest_army)
    }

    /// The development-card part; only rulesets that deal the cards route
    /// their actions here.
    fn dev_part(&self) -> Result<&DevCards, ActionError> {
        self.dev.as_ref().ok_or(ActionError::NotInVariant {
            action: "development cards",
            variant: self.rules.variant.id(),
        })
    }

    fn dev_mut(&mut self) -> &mut DevCards {
        self.dev.as_mut().expect("checked by dev_part")
    }

    /// Victory point cards `seat` holds, hidden from the others.
    pub fn hidden_dev_vp(&self, seat: Seat) -> u8 {
        self.dev_hand(seat).hidden_vp()
    }

    pub(crate) fn buy_dev_card(
        &mut self,
        seat: Seat,
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        if self.dev_part()?.deck.is_empty() {
            return Err(ActionError::DeckEmpty);
        }
        if !self.player(seat).hand.contains(&cost::DEV_CARD) {
            return Err(ActionError::CannotAfford {
                cost: cost::DEV_CARD,
            });
        }
        let dev = self.dev_mut();
        let card = dev.deck.pop().expect("checked non-empty");
        dev.hand_mut(seat).new_cards[card] += 1;
        self.player_mut(seat).hand.sub(&cost::DEV_CARD);
        self.bank.add(&cost::DEV_CARD);
        ev.push(Event::DevCardBought {
            seat,
            card: Some(card),
        });
        Ok(())
    }

    /// Checks the timing rules common to every card: one per turn, not
    /// bought this turn, and victory points are never played.
    pub(crate) fn check_playable(&self, seat: Seat, card: DevCard) -> Result<(), ActionError> {
        let dev = self.dev_part()?;
        if card == DevCard::VictoryPoint {
            return Err(ActionError::VictoryPointNotPlayable);
        }
        self.require_active(seat, "play a development card")?;
        let h = dev.hand(seat);
        if h.cards[card] == 0 {
            return Err(if h.new_cards[card] > 0 {
                ActionError::CardBoughtThisTurn { card }
            } else {
                ActionError::NoSuchCard { card }
            });
        }
        if dev.played_this_turn {
            return Err(ActionError::DevCardAlreadyPlayed);
        }
        Ok(())
    }

    fn mark_played(&mut self, seat: Seat, card: DevCard, ev: &mut Vec<Event>) {
        let dev = self.dev_mut();
        let h = dev.hand_mut(seat);
        h.cards[card] -= 1;
        h.played[card] += 1;
        dev.played_this_turn = true;
        ev.push(Event::DevCardPlayed { seat, card });
    }

    pub(crate) fn play_knight(
        &mut self,
        seat: Seat,
        hex: HexId,
        victim: Option<Seat>,
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        self.check_playable(seat, DevCard::Knight)?;
        self.check_robber_move(seat, hex, victim)?;
        self.mark_played(seat, DevCard::Knight, ev);
        self.dev_mut().hand_mut(seat).knights_played += 1;
        self.update_largest_army(ev);
        self.do_robber_move(seat, hex, victim, ev);
        Ok(())
    }

    pub(crate) fn play_road_building(
        &mut self,
        seat: Seat,
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        self.check_playable(seat, DevCard::RoadBuilding)?;
        let roads_left = self.player(seat).roads_left;
        if roads_left == 0 {
            return Err(ActionError::NoPiecesLeft { piece: "road" });
        }
        if !self.any_road_site(seat) {
            return Err(ActionError::NotConnected);
        }
        self.mark_played(seat, DevCard::RoadBuilding, ev);
        self.phases.push(Phase::RoadBuilding {
            seat,
            remaining: roads_left.min(2),
        });
        Ok(())
    }

    /// How many cards Year of Plenty takes: two, or what the bank has left.
    pub(crate) fn year_of_plenty_count(&self) -> u8 {
        self.bank.total().min(2) as u8
    }

    pub(crate) fn play_year_of_plenty(
        &mut self,
        seat: Seat,
        resources: &[Resource],
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        self.check_playable(seat, DevCard::YearOfPlenty)?;
        let expected = self.year_of_plenty_count();
        if expected == 0 {
            return Err(ActionError::BankShortage {
                resource: resources.first().copied().unwrap_or(Resource::Brick),
            });
        }
        if resources.len() != expected as usize {
            return Err(ActionError::WrongResourceCount { expected });
        }
        let mut take = Cards::ZERO;
        for &r in resources {
            take[r] += 1;
        }
        if let Some(&r) = resources.iter().find(|&&r| self.bank[r] < take[r]) {
            return Err(ActionError::BankShortage { resource: r });
        }
        self.mark_played(seat, DevCard::YearOfPlenty, ev);
        self.bank.sub(&take);
        self.player_mut(seat).hand.add(&take);
        ev.push(Event::YearOfPlenty {
            seat,
            resources: take,
        });
        Ok(())
    }

    pub(crate) fn play_monopoly(
        &mut self,
        seat: Seat,
        resource: Resource,
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        self.check_playable(seat, DevCard::Monopoly)?;
        self.mark_played(seat, DevCard::Monopoly, ev);
        let mut taken = Vec::new();
        let mut total = 0u8;
        for p in self.players.iter_mut().filter(|p| p.seat != seat) {
            let n = p.hand[resource];
            p.hand[resource] = 0;
            total += n;
            taken.push((p.seat, n));
        }
        self.player_mut(seat).hand[resource] += total;
        ev.push(Event::Monopoly {
            seat,
            resource,
            taken,
        });
        self.ruleset().after_monopoly(self, seat, resource, ev);
        Ok(())
    }

    /// The cards `seat` may play now, one a turn (before or after the roll).
    pub(crate) fn legal_dev_plays(&self, seat: Seat, out: &mut Vec<LegalAction>) {
        let Some(dev) = &self.dev else { return };
        if dev.played_this_turn {
            return;
        }
        let cards = dev.hand(seat).cards;
        if cards[DevCard::Knight] > 0 {
            out.push(LegalAction::PlayKnight {
                targets: self.robber_targets(seat),
            });
        }
        if cards[DevCard::RoadBuilding] > 0
            && self.player(seat).roads_left > 0
            && self.any_road_site(seat)
        {
            out.push(LegalAction::PlayRoadBuilding);
        }
        if cards[DevCard::YearOfPlenty] > 0 && self.year_of_plenty_count() > 0 {
            out.push(LegalAction::PlayYearOfPlenty {
                count: self.year_of_plenty_count(),
            });
        }
        if cards[DevCard::Monopoly] > 0 {
            out.push(LegalAction::PlayMonopoly);
        }
    }

    /// Whether buying a card is open to `seat` now.
    pub(crate) fn may_buy_dev_card(&self, seat: Seat) -> bool {
        self.dev.as_ref().is_some_and(|d| !d.deck.is_empty())
            && self.player(seat).hand.contains(&cost::DEV_CARD)
    }

    /// Largest Army after a knight was played.
    pub(crate) fn update_largest_army(&mut self, ev: &mut Vec<Event>) {
        let Some(dev) = &self.dev else { return };
        let knights: Vec<u8> = dev.hands.iter().map(|h| h.knights_played).collect();
        let holder = dev.largest_army;
        let (to, knights) = self.reassign_award(holder, &knights, MIN_LARGEST_ARMY);
        if holder != to {
            self.dev_mut().largest_army = to;
            ev.push(Event::LargestArmyChanged {
                from: holder,
                to,
                knights,
            });
        }
    }

    /// After a player gave up a played knight (catan_for_two's discard for
    /// tokens): the holder keeps the card only while at the minimum and
    /// strictly ahead of everyone; otherwise it is set aside, and then a
    /// single player with the most knights (at least the minimum) takes it.
    pub(crate) fn reevaluate_largest_army_strictly(&mut self, ev: &mut Vec<Event>) {
        let Some(dev) = &self.dev else { return };
        let knights: Vec<u8> = dev.hands.iter().map(|h| h.knights_played).collect();
        let max = knights.iter().copied().max().unwrap_or(0);
        let mut leaders = knights.iter().enumerate().filter(|&(_, &v)| v == max);
        let single_leader = match (leaders.next(), leaders.next()) {
            (Some((i, _)), None) if max >= MIN_LARGEST_ARMY => Some(self.players[i].seat),
            _ => None,
        };
        let holder = dev.largest_army;
        if single_leader != holder {
            self.move_award(holder, single_leader);
            self.dev_mut().largest_army = single_leader;
            ev.push(Event::LargestArmyChanged {
                from: holder,
                to: single_leader,
                knights: max,
            });
        }
    }
}
