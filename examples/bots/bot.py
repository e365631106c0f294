"""A hexpost bot on the generated Python client: it signs in, follows its
account's event stream and answers every decision in its games with the
heuristic of policy.py. See README.md beside it for how to run it.

    HEXPOST_PASSWORD=… python bot.py --url http://127.0.0.1:8080 --user bot@example.org
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import sys
import time
from collections.abc import Iterator

import httpx

from hexpost_client import AuthenticatedClient, Client
from hexpost_client.api.accounts import login
from hexpost_client.api.games import create, get_game, list_, submit_move, topology
from hexpost_client.api.invitations import accept
from hexpost_client.models import (
    AccountEvent,
    CreateGame,
    Created,
    GameDetail,
    IllegalMoveProblem,
    ListFilter,
    LoginRequest,
    MoveOutcome,
    MoveRequest,
    TokenResponse,
)

import policy

log = logging.getLogger("hexpost-bot")

# The server sends a heartbeat every 20 s by default: a read waiting much
# longer than that means the connection is gone.
STREAM_READ_TIMEOUT = 75.0
# Refusals the spec says a legal entry may still meet (the bank's stock is
# hidden): choose again without that kind.
RETRY_REASONS = {"bank_shortage", "commodity_shortage"}


class Failure(RuntimeError):
    """A response the bot cannot go on from."""


def body(response, expected: type):
    if not isinstance(response.parsed, expected):
        raise Failure(f"{int(response.status_code)}: {response.content.decode(errors='replace')}")
    return response.parsed


def sign_in(url: str, email: str, password: str) -> AuthenticatedClient:
    anonymous = Client(base_url=url, raise_on_unexpected_status=True)
    token = body(login.sync_detailed(client=anonymous, body=LoginRequest(email=email, password=password)), TokenResponse)
    return AuthenticatedClient(base_url=url, token=token.access_token, raise_on_unexpected_status=True)


def open_stream(client: AuthenticatedClient, path: str, last_id: str | None):
    """Opens the Server-Sent Events stream at ``path``, sending
    ``Last-Event-ID`` when resuming a stream that numbers its events."""
    headers = {"Accept": "text/event-stream"}
    if last_id is not None:
        headers["Last-Event-ID"] = last_id
    timeout = httpx.Timeout(10.0, read=STREAM_READ_TIMEOUT)
    return client.get_httpx_client().stream("GET", path, headers=headers, timeout=timeout)


def parse_events(lines: Iterator[str]) -> Iterator[tuple[str, str, str | None]]:
    """The events of an SSE body as (event, data, id), heartbeats skipped."""
    event, data, event_id = "message", [], None
    for line in lines:
        if line == "":
            if data:
                yield event, "\n".join(data), event_id
            event, data, event_id = "message", [], None
        elif line.startswith(":"):
            continue
        else:
            field, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if field == "event":
                event = value
            elif field == "data":
                data.append(value)
            elif field == "id":
                event_id = value


class Bot:
    def __init__(self, client: AuthenticatedClient, rng: random.Random):
        self.client = client
        self.rng = rng
        self.geometry = body(topology.sync_detailed(client=client), object).to_dict()
        self.ended = 0

    def accept(self, token: str) -> None:
        game = body(accept.sync_detailed(token, client=self.client), GameDetail)
        log.info("accepted the invitation to game %s (%s)", game.id, game.variant)
        self.play(game.id)

    def challenge(self, email: str, variant: str) -> None:
        request = CreateGame.from_dict({"variant": variant, "opponent_email": email})
        created = body(create.sync_detailed(client=self.client, body=request), Created)
        log.info("invited %s to game %s (%s)", email, created.game.id, variant)

    def catch_up(self) -> None:
        """Plays every game awaiting the bot: the account stream replays
        nothing, so this runs on each (re)connection."""
        games = body(list_.sync_detailed(client=self.client, filter_=ListFilter.AWAITING_ME), list)
        for game in games:
            self.play(game.id)

    def play(self, game_id: str) -> None:
        """Answers the game's decisions until it no longer awaits the bot."""
        detail = body(get_game.sync_detailed(game_id, client=self.client), GameDetail)
        view, legal, number = detail.view, detail.legal_actions, detail.move_number
        tried: set[str] = set()
        while legal and detail.status == "active":
            entries = [e.to_dict() for e in legal if e.to_dict()["type"] not in tried]
            action = policy.choose(view.to_dict(), entries, self.geometry, self.rng)
            request = MoveRequest.from_dict({"expected_move_number": number, "action": action})
            response = submit_move.sync_detailed(game_id, client=self.client, body=request)
            problem = response.parsed
            if isinstance(problem, IllegalMoveProblem) and problem.reason and problem.reason.to_dict().get("code") in RETRY_REASONS:
                tried.add(action["type"])
                continue
            if int(response.status_code) == 409:
                # The game moved on (a timeout, or the other player): read it again.
                detail = body(get_game.sync_detailed(game_id, client=self.client), GameDetail)
                view, legal, number, tried = detail.view, detail.legal_actions, detail.move_number, set()
                continue
            outcome = body(response, MoveOutcome)
            log.debug("game %s move %s: %s", game_id, number, json.dumps(action))
            view, legal, number, tried = outcome.view, outcome.legal_actions, outcome.move_number, set()
            if outcome.status != "active":
                break

    def handle(self, kind: str, data: str) -> None:
        event = AccountEvent.from_dict(json.loads(data))
        if kind in ("your_turn", "game_started"):
            self.play(event.game_id)
        elif kind == "game_ended":
            self.ended += 1
            log.info("game %s ended: %s", event.game_id, event.status)
        elif kind == "resync":
            self.catch_up()

    def run(self, games: int | None) -> None:
        """Follows the account stream, reconnecting when it drops, until
        ``games`` games have ended (forever without a limit)."""
        last_id = None
        backoff = 1.0
        while games is None or self.ended < games:
            try:
                with open_stream(self.client, "/api/v1/account/stream", last_id) as response:
                    if response.status_code != 200:
                        response.read()
                        raise Failure(f"account stream: {response.status_code} {response.text}")
                    # Connected first, then caught up: nothing falls between.
                    self.catch_up()
                    for kind, data, event_id in parse_events(response.iter_lines()):
                        last_id = event_id or last_id
                        backoff = 1.0
                        self.handle(kind, data)
                        if games is not None and self.ended >= games:
                            return
            except (httpx.HTTPError, Failure) as e:
                log.warning("stream interrupted (%s); reconnecting in %.0f s", e, backoff)
                time.sleep(backoff)
                backoff = min(backoff * 2, 60.0)


def main() -> int:
    args = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    args.add_argument("--url", required=True, help="the server, e.g. http://127.0.0.1:8080")
    args.add_argument("--user", required=True, help="the bot account's e-mail address")
    args.add_argument("--accept", action="append", default=[], metavar="TOKEN", help="accept this invitation (the token of the link in the invitation mail)")
    args.add_argument("--challenge", metavar="EMAIL", help="create a game and invite this address")
    args.add_argument("--variant", default="standard", help="the variant of a --challenge game")
    args.add_argument("--games", type=int, help="exit once this many games have ended")
    args.add_argument("--seed", type=int, help="seed the tie-breaks, to repeat a game")
    args.add_argument("--verbose", action="store_true", help="log every move")
    opts = args.parse_args()
    logging.basicConfig(level=logging.DEBUG if opts.verbose else logging.INFO, format="%(asctime)s %(message)s")
    # httpx logs every request at INFO; the moves are logged with --verbose.
    logging.getLogger("httpx").setLevel(logging.WARNING)
    password = os.environ.get("HEXPOST_PASSWORD")
    if not password:
        print("set HEXPOST_PASSWORD to the bot account's password", file=sys.stderr)
        return 2
    bot = Bot(sign_in(opts.url, opts.user, password), random.Random(opts.seed))
    for token in opts.accept:
        bot.accept(token)
    if opts.challenge:
        bot.challenge(opts.challenge, opts.variant)
    try:
        bot.run(opts.games)
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
