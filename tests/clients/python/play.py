"""Plays complete hexpost games through the Python client generated from
openapi/openapi.json, both seats choosing from their served legal actions
with the example bot's policy (examples/bots/policy.py).

    python play.py --url http://127.0.0.1:8080 --mail-dir DATA/mail \
        --variant standard --variant catan_for_two --start-every-variant

Accounts are confirmed with the code mailed to them, read from the mail
files of a server without SMTP_URL (``--mail-dir``). Needs the generated
package (``hexpost_client``) and examples/bots on PYTHONPATH. Prints one
line per finished game (and per game started); exits non-zero on anything
the spec does not describe.
"""

from __future__ import annotations

import argparse
import pathlib
import random
import sys
import time
import urllib.parse
import uuid

from hexpost_client import AuthenticatedClient, Client
from hexpost_client.api.accounts import confirm_registration, register
from hexpost_client.api.games import create, get_game, invite, submit_move, topology
from hexpost_client.api.invitations import accept
from hexpost_client.models import (
    CodeRequest,
    CodeSent,
    CreateGame,
    Created,
    GameDetail,
    IllegalMoveProblem,
    InviteRequest,
    InviteResponse,
    MoveOutcome,
    MoveRequest,
    RegisterRequest,
    TokenResponse,
    TopologyView,
    Variant,
)

import policy
from strict import SchemaMismatch, parsed

# Refusals the spec says a legal entry may still meet: the bank's hidden
# stock ran short. The player chooses again without that entry.
RETRY_REASONS = {"bank_shortage", "commodity_shortage"}


def mailed_code(mail_dir: pathlib.Path, to: str, timeout: float = 30.0) -> str:
    """The code of the newest mail to ``to`` whose link confirms an address."""
    end = time.monotonic() + timeout
    while True:
        found = []
        for path in mail_dir.glob("*.eml"):
            raw = path.read_text(errors="replace").replace("=\r\n", "").replace("=\n", "").replace("=3D", "=")
            if f"To: {to}" in raw and "/confirm#" in raw:
                query = raw.split("/confirm#", 1)[1].split()[0].split('"')[0]
                found.append((path.stat().st_mtime, urllib.parse.parse_qs(query)["code"][0]))
        if found:
            return max(found)[1]
        if time.monotonic() > end:
            raise SchemaMismatch(f"no confirmation mail to {to} in {mail_dir}")
        time.sleep(0.05)


def sign_up(url: str, mail_dir: pathlib.Path, name: str) -> tuple[AuthenticatedClient, str]:
    anonymous = Client(base_url=url, raise_on_unexpected_status=True)
    body = RegisterRequest(email=f"{name}-{uuid.uuid4().hex[:8]}@example.org", display_name=name, password="correct horse battery")
    sent = parsed(register.sync_detailed(client=anonymous, body=body), CodeSent)
    code = mailed_code(mail_dir, sent.email)
    token = parsed(confirm_registration.sync_detailed(client=anonymous, body=CodeRequest(email=sent.email, code=code)), TokenResponse)
    client = AuthenticatedClient(base_url=url, token=token.access_token, raise_on_unexpected_status=True)
    return client, body.email


def start_game(host: AuthenticatedClient, guest: AuthenticatedClient, guest_email: str, variant: str, vp_target: int | None) -> str:
    options = {} if vp_target is None else {"options": {"vp_target": vp_target}}
    body = CreateGame.from_dict({"variant": variant, "creator_seat": 0, **options})
    game = parsed(create.sync_detailed(client=host, body=body), Created).game
    invitation = parsed(invite.sync_detailed(game.id, client=host, body=InviteRequest(email=guest_email)), InviteResponse)
    parsed(accept.sync_detailed(invitation.invite_token, client=guest), GameDetail)
    return game.id


def refusal_reason(response) -> str | None:
    """The engine's reason code of an ``illegal_move`` refusal."""
    problem = response.parsed
    if int(response.status_code) == 422 and isinstance(problem, IllegalMoveProblem) and problem.reason:
        return problem.reason.to_dict().get("code")
    return None


def play(players: list[AuthenticatedClient], game_id: str, geometry: dict, rng: random.Random, max_moves: int) -> GameDetail:
    moves = 0
    while True:
        details = [parsed(get_game.sync_detailed(game_id, client=p), GameDetail) for p in players]
        if details[0].status != "active":
            return details[0]
        deciding = [(p, d) for p, d in zip(players, details) if d.legal_actions]
        if not deciding:
            raise SchemaMismatch(f"an active game awaits nobody: {details[0].to_dict()}")
        for player, detail in deciding:
            legal = [entry.to_dict() for entry in detail.legal_actions]
            view = detail.view.to_dict()
            while True:
                action = policy.choose(view, legal, geometry, rng)
                body = MoveRequest.from_dict({"expected_move_number": detail.move_number, "action": action})
                response = submit_move.sync_detailed(game_id, client=player, body=body)
                if refusal_reason(response) in RETRY_REASONS:
                    legal = [e for e in legal if e["type"] != action["type"]]
                    continue
                parsed(response, MoveOutcome)
                break
            moves += 1
            if moves > max_moves:
                raise SchemaMismatch(f"no end after {max_moves} moves")
            # The other player's decision may be gone now; read again.
            break


def main() -> int:
    args = argparse.ArgumentParser(description=__doc__)
    args.add_argument("--url", required=True)
    args.add_argument("--mail-dir", type=pathlib.Path, required=True)
    args.add_argument("--variant", action="append", required=True)
    args.add_argument("--start-every-variant", action="store_true")
    args.add_argument("--vp-target", type=int, default=6)
    args.add_argument("--seed", type=int, default=1)
    args.add_argument("--max-moves", type=int, default=2000)
    opts = args.parse_args()
    rng = random.Random(opts.seed)
    (ada, _), (grace, grace_email) = sign_up(opts.url, opts.mail_dir, "ada"), sign_up(opts.url, opts.mail_dir, "grace")
    players = [ada, grace]
    geometry = parsed(topology.sync_detailed(client=players[0]), TopologyView).to_dict()
    for variant in opts.variant:
        game_id = start_game(ada, grace, grace_email, variant, opts.vp_target)
        final = play(players, game_id, geometry, rng, opts.max_moves)
        if final.status != "finished":
            raise SchemaMismatch(f"{variant}: the game ended as {final.status}")
        print(f"{variant}: game {game_id} finished at move {final.move_number}, won by seat {final.view.winner}")
    if opts.start_every_variant:
        # Every variant the spec lists, as a client that validates its
        # requests against the spec sends it.
        for variant in [v.value for v in Variant]:
            game_id = start_game(ada, grace, grace_email, variant, None)
            detail = parsed(get_game.sync_detailed(game_id, client=ada), GameDetail)
            if detail.status != "active":
                raise SchemaMismatch(f"{variant}: the game is {detail.status}")
            print(f"started {variant}: game {game_id}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
