#!/usr/bin/env python3
"""How long a move takes to reach a game's event stream: on the instance
that applied it, and on another instance on the same PostgreSQL (through
LISTEN/NOTIFY). Standard library only.

    DATABASE_URL=postgres://…/bench HEXPOST_BIND=127.0.0.1:8081 \\
      JWT_KEYS=b:0123456789abcdef0123456789abcdef hexpost serve &
    DATABASE_URL=postgres://…/bench HEXPOST_BIND=127.0.0.1:8082 \\
      JWT_KEYS=b:0123456789abcdef0123456789abcdef hexpost serve &
    python3 bench/stream_latency.py http://127.0.0.1:8081 http://127.0.0.1:8082 [MOVES]

Both players' moves go through the first instance; the second player
follows the game on both. Each figure is from the moment a move was sent
to the moment its last row arrived on the stream.
"""

import http.client
import json
import queue
import statistics
import sys
import threading
import time
import urllib.parse
import urllib.request
import uuid


def call(base, method, path, token=None, body=None):
    req = urllib.request.Request(base + path, method=method)
    req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    data = json.dumps(body).encode() if body is not None else None
    with urllib.request.urlopen(req, data) as res:
        text = res.read()
        return json.loads(text) if text else None


def follow(base, token, game, out):
    """Puts (seq, arrival time) for every row the stream sends."""
    url = urllib.parse.urlparse(base)
    conn = http.client.HTTPConnection(url.hostname, url.port)
    conn.request("GET", f"/api/v1/games/{game}/stream",
                 headers={"Authorization": f"Bearer {token}"})
    res = conn.getresponse()
    assert res.status == 200, res.status
    seq = None
    while True:
        line = res.fp.readline()
        if not line:
            return
        line = line.decode().rstrip("\n")
        if line.startswith("id: "):
            seq = int(line[4:])
        elif line == "" and seq is not None:
            out.put((seq, time.monotonic()))
            seq = None


def action(game):
    """A plain legal action: set-up pieces, rolls, ends of turn, the
    robber, discards."""
    legal = {entry["type"]: entry for entry in game["legal_actions"]}
    hand = game["view"]["you"]["resources"]
    if "discard" in legal:
        left, cards = legal["discard"]["count"], {}
        for card, n in hand.items():
            take = min(n, left)
            cards[card], left = take, left - take
        return {"type": "discard", "cards": cards}
    for kind in ("build_settlement", "build_road"):
        if kind in legal and legal[kind].get("free"):
            key = "nodes" if kind == "build_settlement" else "edges"
            return {"type": kind, key[:-1]: legal[kind][key][0]}
    if "move_robber" in legal:
        target = legal["move_robber"]["targets"][0]
        victims = target["victims"]
        return {"type": "move_robber", "hex": target["hex"], "victim": victims[0] if victims else None}
    for kind in ("roll_dice", "end_turn"):
        if kind in legal:
            return {"type": kind}
    raise SystemExit(f"no plain action in {list(legal)}")


def main():
    first, second = sys.argv[1], sys.argv[2]
    moves = int(sys.argv[3]) if len(sys.argv) > 3 else 200
    tag = uuid.uuid4().hex[:8]
    tokens = []
    for name in ("ada", "bob"):
        body = {"email": f"{name}-{tag}@example.org", "display_name": name,
                "password": "correct horse battery"}
        tokens.append(call(first, "POST", "/api/v1/accounts", body=body)["access_token"])
    created = call(first, "POST", "/api/v1/games", tokens[0],
                   {"variant": "standard", "opponent_email": f"bob-{tag}@example.org"})
    game = created["game"]["id"]
    call(first, "POST", f"/api/v1/invitations/{created['invite_token']}/accept", tokens[1])

    arrivals = {}
    for name, base in (("same", first), ("other", second)):
        arrivals[name] = queue.Queue()
        threading.Thread(target=follow, args=(base, tokens[1], game, arrivals[name]),
                         daemon=True).start()
    time.sleep(1)
    sent = {}
    for _ in range(moves):
        views = [call(first, "GET", f"/api/v1/games/{game}", t) for t in tokens]
        who = next(i for i in (0, 1) if views[i]["awaiting_you"])
        body = {"expected_move_number": views[who]["move_number"], "action": action(views[who])}
        at = time.monotonic()
        out = call(first, "POST", f"/api/v1/games/{game}/moves", tokens[who], body)
        sent[out["move_number"]] = (at, time.monotonic())
    time.sleep(2)
    for name, q in arrivals.items():
        delays = []
        while not q.empty():
            seq, at = q.get()
            if seq in sent:
                delays.append((at - sent[seq][0]) * 1000)
        delays.sort()
        answers = sorted((done - start) * 1000 for start, done in sent.values())
        print(f"{name} instance: {len(delays)} moves, median {statistics.median(delays):.1f} ms, "
              f"p90 {delays[int(len(delays) * 0.9)]:.1f} ms, max {delays[-1]:.1f} ms "
              f"from sending the move to its row on the stream "
              f"(the move's own answer: median {statistics.median(answers):.1f} ms)")


if __name__ == "__main__":
    main()
