//! Buying and playing development cards (RULES.md §1 "Development cards").

use crate::board::HexId;
use crate::error::ActionError;
use crate::events::Event;
use crate::state::{GameState, Phase};
use crate::types::{DevCard, Resource, ResourceCounts, Seat, cost};

impl GameState {
    pub(super) fn buy_dev_card(
        &mut self,
        seat: Seat,
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        if self.dev_deck.is_empty() {
            return Err(ActionError::DeckEmpty);
        }
        if !self.player(seat).hand.contains(&cost::DEV_CARD) {
            return Err(ActionError::CannotAfford {
                cost: cost::DEV_CARD,
            });
        }
        let card = self.dev_deck.pop().expect("checked non-empty");
        let p = self.player_mut(seat);
        p.hand.sub(&cost::DEV_CARD);
        *p.new_dev_cards.get_mut(card) += 1;
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
        if card == DevCard::VictoryPoint {
            return Err(ActionError::VictoryPointNotPlayable);
        }
        self.require_active(seat, "play a development card")?;
        let p = self.player(seat);
        if p.dev_cards.get(card) == 0 {
            return Err(if p.new_dev_cards.get(card) > 0 {
                ActionError::CardBoughtThisTurn { card }
            } else {
                ActionError::NoSuchCard { card }
            });
        }
        if self.dev_played_this_turn {
            return Err(ActionError::DevCardAlreadyPlayed);
        }
        Ok(())
    }

    fn mark_played(&mut self, seat: Seat, card: DevCard, ev: &mut Vec<Event>) {
        let p = self.player_mut(seat);
        *p.dev_cards.get_mut(card) -= 1;
        *p.played_dev.get_mut(card) += 1;
        self.dev_played_this_turn = true;
        ev.push(Event::DevCardPlayed { seat, card });
    }

    pub(super) fn play_knight(
        &mut self,
        seat: Seat,
        hex: HexId,
        victim: Option<Seat>,
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        self.check_playable(seat, DevCard::Knight)?;
        self.check_robber_move(seat, hex, victim)?;
        self.mark_played(seat, DevCard::Knight, ev);
        self.player_mut(seat).knights_played += 1;
        self.update_largest_army(ev);
        self.do_robber_move(seat, hex, victim, ev);
        Ok(())
    }

    pub(super) fn play_road_building(
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

    pub(super) fn play_year_of_plenty(
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
        let mut take = ResourceCounts::ZERO;
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

    pub(super) fn play_monopoly(
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
        crate::variants::hooks(self.rules.variant).after_monopoly(self, seat, resource, ev);
        Ok(())
    }
}
