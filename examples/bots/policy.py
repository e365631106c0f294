"""A simple, explained heuristic for every decision of a hexpost game.

The policy sees only what a client is served: its own view (``GameView``),
the board's geometry (``TopologyView``) and the ``legal_actions`` list. It
works on the plain JSON form of those (``model.to_dict()``) and answers an
action as JSON, which the caller turns back into the generated ``Action``
model (so an action the spec does not allow fails before it is sent).

The rules of thumb, strongest first:

1. Roll when a roll is due; answer forced steps (discards, neutral
   buildings, robber moves) at once.
2. Build: a city before a settlement before a road, on the node that earns
   the most ("pips": how many of the 36 dice rolls pay each adjacent hex,
   5 for a 6 or 8, 1 for a 2 or 12).
3. Buy a development card when nothing can be built; play a knight (it
   moves the robber) and the other cards when they are in hand.
4. Trade with the bank (maritime trade) when that gets a card of a kind
   the hand lacks, from a kind it holds plenty of.
5. Accept an offered trade that gives a kind the hand lacks for one it
   holds in surplus; decline the others. Never offer trades, never concede.
6. Otherwise end the turn.

The robber goes to the hex with the most pips that hurts the opponent
(one of the opponent's buildings touches it) and not ourselves.
"""

from __future__ import annotations

import random

RESOURCES = ["brick", "lumber", "wool", "grain", "ore"]

# The score of each kind: higher is chosen first. Kinds not listed score 0;
# kinds scored None are never chosen while anything else is legal.
KIND_SCORES = {
    "roll_dice": 100,
    "discard": 100,
    "move_robber": 100,
    "build_neutral_settlement": 100,
    "build_neutral_road": 100,
    "forced_trade_give": 100,
    "build_city": 90,
    "build_settlement": 80,
    "play_knight": 70,
    "play_road_building": 65,
    "play_year_of_plenty": 65,
    "play_monopoly": 65,
    "build_road": 50,
    "buy_development_card": 40,
    "maritime_trade": 30,
    "accept_trade": 20,
    "decline_trade": 10,
    "withdraw_trade": 10,
    "decline_neutral_trade": 10,
    "end_turn": 1,
    "offer_trade": None,
    "concede": None,
}


def pips(number: int | None) -> int:
    """How many of the 36 rolls of two dice produce ``number``."""
    if number is None:
        return 0
    return 6 - abs(7 - number)


class Board:
    """What the heuristic needs of the board: each node's earning and which
    buildings touch which hex."""

    def __init__(self, view: dict, topology: dict):
        tiles = view["board"]["tiles"]
        self.hex_pips = [pips(t.get("number")) for t in tiles]
        self.node_hexes = {n["id"]: n["hexes"] for n in topology["nodes"]}
        self.edge_nodes = {e["id"]: e["nodes"] for e in topology["edges"]}
        self.viewer = view.get("viewer")
        self.robber = view.get("robber")
        self.owners = {}
        for b in view.get("buildings", []):
            self.owners[b["node"]] = b["owner"]

    def node_value(self, node: int) -> int:
        return sum(self.hex_pips[h] for h in self.node_hexes.get(node, []) if h < len(self.hex_pips))

    def edge_value(self, edge: int) -> int:
        """A road is worth the best free node it reaches."""
        return max((self.node_value(n) for n in self.edge_nodes.get(edge, []) if n not in self.owners), default=0)

    def robber_value(self, hex_id: int) -> int:
        """Pips taken from the opponent, minus our own loss there."""
        total = 0
        for node, owner in self.owners.items():
            if hex_id in self.node_hexes.get(node, []):
                sign = -2 if owner == self.viewer else 1
                total += sign * self.hex_pips[hex_id]
        return total


def hand_of(view: dict) -> dict[str, int]:
    you = view.get("you") or {}
    resources = you.get("resources") or {}
    return {k: v for k, v in resources.items() if isinstance(v, int)}


def pick_cards(hand: dict[str, int], count: int, keep: str | None = None) -> dict[str, int]:
    """``count`` cards from the hand, taking from the largest piles first
    (they are the least needed), never of kind ``keep``."""
    left = {k: v for k, v in hand.items() if k != keep}
    chosen: dict[str, int] = {}
    for _ in range(count):
        kind = max(left, key=lambda k: left[k], default=None)
        if kind is None or left[kind] == 0:
            break
        left[kind] -= 1
        chosen[kind] = chosen.get(kind, 0) + 1
    return chosen


def lacking(hand: dict[str, int]) -> list[str]:
    """Base resources the hand has none of, in the order builds need them."""
    return [r for r in ["ore", "grain", "brick", "lumber", "wool"] if hand.get(r, 0) == 0]


def helps(offer: dict | None, seat: int | None, hand: dict[str, int]) -> bool:
    """An open offer helps if it brings a kind we lack and takes only kinds
    we hold more than one of."""
    if not offer or offer.get("from") == seat:
        return False
    gets = offer.get("give") or {}
    pays = offer.get("receive") or {}
    brings_missing = any(gets.get(r, 0) > 0 for r in lacking(hand))
    affordable = all(hand.get(k, 0) > v for k, v in pays.items() if v)
    return brings_missing and affordable


def to_action(entry: dict, view: dict, board: Board, rng: random.Random) -> dict | None:
    """The action sent for one legal-action entry, choosing where the entry
    leaves a choice (docs/clients.md, "From a legal-action entry to an
    action"). ``None`` where this policy does not take that entry."""
    kind = entry["type"]
    hand = hand_of(view)
    action: dict = {"type": kind}
    if "nodes" in entry:
        nodes = entry["nodes"]
        if not nodes:
            return None
        action["node"] = max(nodes, key=lambda n: (board.node_value(n), rng.random()))
    if "edges" in entry:
        edges = entry["edges"]
        if not edges:
            return None
        action["edge"] = max(edges, key=lambda e: (board.edge_value(e), rng.random()))
    if "neutral" in entry:
        action["neutral"] = entry["neutral"]
    if "knight" in entry:
        action["knight"] = entry["knight"]
    if "targets" in entry:
        targets = entry["targets"]
        if not targets:
            return None
        best = max(targets, key=lambda t: (len(t["victims"]) > 0, board.robber_value(t["hex"]), rng.random()))
        action["hex"] = best["hex"]
        action["victim"] = best["victims"][0] if best["victims"] else None
    if "options" in entry and kind in ("maritime_trade", "bank_trade"):
        missing = lacking(hand)
        for option in entry["options"]:
            give = option["give"]
            wanted = [r for r in option["receive"] if r in missing]
            # Keep at least one card of the kind given away.
            if wanted and hand.get(give, 0) > option["ratio"]:
                action.update(give=give, receive=wanted[0], ratio=None)
                return action
        return None
    if "moves" in entry:
        move = rng.choice(entry["moves"])
        action["from"] = move["from"]
        action["to"] = rng.choice(move["to"])
    if kind in ("discard", "forced_trade_give", "give_cards"):
        action["cards"] = pick_cards(hand, entry["count"])
    elif kind == "play_year_of_plenty":
        wanted = lacking(hand) or RESOURCES
        action["resources"] = [wanted[i % len(wanted)] for i in range(entry["count"])]
    elif kind == "play_monopoly":
        action["resource"] = lacking(hand)[0] if lacking(hand) else "ore"
    elif kind == "accept_trade" and not helps(view.get("offer"), view.get("viewer"), hand):
        return None
    elif kind == "accept_neutral_trade":
        receive = entry["receive"][0]
        action["give"] = pick_cards(hand, entry["give"], keep=receive)
        action["receive"] = receive
    elif kind == "vote_reroll":
        action["reroll"] = False
    elif kind in ("bid", "raise_bid", "take_cards", "spy_take", "play_progress", "discard_progress"):
        # Variants this bot does not play (shadow, Cities & Knights).
        return None
    elif kind == "draw_progress":
        action["track"] = entry["tracks"][0]
    elif kind == "buy_improvement":
        option = entry["options"][0]
        action.update(track=option["track"], crane=option["crane"])
    elif kind == "aqueduct_pick":
        action["resource"] = (lacking(hand) or RESOURCES)[0]
    return action


def choose(view: dict, legal: list[dict], topology: dict, rng: random.Random) -> dict:
    """The action for this decision: the best-scoring entry this policy can
    turn into an action."""
    board = Board(view, topology)
    ranked = sorted(legal, key=lambda e: KIND_SCORES.get(e["type"], 0) or -1, reverse=True)
    for entry in ranked:
        if KIND_SCORES.get(entry["type"], 0) is None and len(legal) > 1:
            continue
        action = to_action(entry, view, board, rng)
        if action is not None:
            return action
    raise RuntimeError(f"no action for any of {[e['type'] for e in legal]}")
