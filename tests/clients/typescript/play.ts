// Plays complete hexpost games through a TypeScript client generated from
// openapi/openapi.json (openapi-typescript types, openapi-fetch requests),
// both seats choosing from their served legal actions by a fixed order of
// preference. Every request and response is checked against the spec.
//
//   node play.js --url http://127.0.0.1:8080 --spec openapi.json --mail-dir DATA/mail \
//     --variant standard [--start-every-variant]
//
// Accounts are confirmed with the code mailed to them, read from the mail
// files of a server without SMTP_URL (--mail-dir).

import { parseArgs } from "node:util";
import { randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import createClient, { type Client } from "openapi-fetch";
import type { components, paths } from "hexpost-api";
import { SchemaMismatch, validating } from "./validate.js";

type Schemas = components["schemas"];
type Action = Schemas["Action"];
type Resource = Schemas["Resource"];
type Api = Client<paths>;

const { values: opts } = parseArgs({
  options: {
    url: { type: "string" },
    spec: { type: "string" },
    "mail-dir": { type: "string" },
    variant: { type: "string", multiple: true },
    "start-every-variant": { type: "boolean", default: false },
    "vp-target": { type: "string", default: "6" },
    seed: { type: "string", default: "1" },
    "max-moves": { type: "string", default: "5000" },
  },
});
if (!opts.url || !opts.spec || !opts.variant || !opts["mail-dir"]) {
  throw new Error("--url, --spec, --mail-dir and --variant are required");
}
const mailDir = opts["mail-dir"];
const baseUrl = opts.url;
const check = validating(opts.spec);

// A small deterministic generator, so a failing run can be repeated.
let state = Number(opts.seed) >>> 0 || 1;
function random(): number {
  state ^= state << 13;
  state ^= state >>> 17;
  state ^= state << 5;
  return (state >>> 0) / 2 ** 32;
}
function pick<T>(items: readonly T[]): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error("pick from an empty list");
  return item;
}

function ok<T>(what: string, r: { data?: T; error?: unknown; response: Response }): T {
  if (r.data === undefined) throw new SchemaMismatch(`${what}: ${r.response.status} ${JSON.stringify(r.error)}`);
  return r.data;
}

// The server closes idle keep-alive connections; a request sent on one
// just as it closes fails before reaching the server. Such a request is
// sent once more (moves carry an Idempotency-Key, so a retry never applies
// a move twice).
async function fetchRetrying(request: Request): Promise<Response> {
  const copy = request.clone();
  try {
    return await fetch(request);
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
    return await fetch(copy);
  }
}

function api(token?: string): Api {
  const client = createClient<paths>({
    baseUrl,
    headers: token ? { Authorization: `Bearer ${token}` } : {},
    fetch: fetchRetrying,
  });
  client.use(check);
  return client;
}

type Player = { api: Api; email: string };

async function getGame(player: Player, id: string) {
  return ok("game", await player.api.GET("/api/v1/games/{game_id}", { params: { path: { game_id: id } } }));
}
// The types as openapi-fetch answers them: its response types spell the
// spec's tuples differently from components["schemas"], so the driver
// uses these throughout.
type Detail = Awaited<ReturnType<typeof getGame>>;
type GameView = NonNullable<Detail["view"]>;
type LegalAction = Detail["legal_actions"][number];

// The code of the newest mail to `to` whose link confirms an address.
async function mailedCode(to: string): Promise<string> {
  const end = Date.now() + 30000;
  for (;;) {
    // The folder appears with the server's first mail.
    const names = existsSync(mailDir) ? readdirSync(mailDir) : [];
    const found = names
      .filter((n) => n.endsWith(".eml"))
      .map((n) => {
        const path = join(mailDir, n);
        const raw = readFileSync(path, "utf8").replaceAll("=\r\n", "").replaceAll("=\n", "").replaceAll("=3D", "=");
        return { at: statSync(path).mtimeMs, raw };
      })
      .filter((m) => m.raw.includes(`To: ${to}`) && m.raw.includes("/confirm#"))
      .sort((a, b) => b.at - a.at)[0];
    if (found) {
      const query = found.raw.split("/confirm#")[1]!.split(/[\s"]/)[0]!;
      const code = new URLSearchParams(query).get("code");
      if (code) return code;
    }
    if (Date.now() > end) throw new SchemaMismatch(`no confirmation mail to ${to} in ${mailDir}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function signUp(name: string): Promise<Player> {
  const email = `${name}-${randomUUID().slice(0, 8)}@example.org`;
  ok(
    "register",
    await api().POST("/api/v1/accounts", {
      body: { email, display_name: name, password: "correct horse battery" },
    }),
  );
  const code = await mailedCode(email);
  const token = ok(
    "confirm",
    await api().POST("/api/v1/accounts/confirm", { body: { email, code } }),
  );
  return { api: api(token.access_token), email };
}

async function startGame(host: Player, guest: Player, variant: Schemas["Variant"], vpTarget?: number): Promise<string> {
  const created = ok(
    "create",
    await host.api.POST("/api/v1/games", {
      body: { variant, creator_seat: 0, ...(vpTarget === undefined ? {} : { options: { vp_target: vpTarget } }) },
    }),
  );
  const id = created.game.id;
  const invitation = ok(
    "invite",
    await host.api.POST("/api/v1/games/{game_id}/invitations", {
      params: { path: { game_id: id } },
      body: { email: guest.email },
    }),
  );
  ok(
    "accept",
    await guest.api.POST("/api/v1/invitations/{token}/accept", {
      params: { path: { token: invitation.invite_token } },
    }),
  );
  return id;
}

// Preference among the kinds this player takes; kinds not listed are taken
// only when nothing listed is legal, and `concede` and `offer_trade` never.
const PREFERENCE: LegalAction["type"][] = [
  "roll_dice",
  "discard",
  "move_robber",
  "build_neutral_settlement",
  "build_neutral_road",
  "forced_trade_give",
  "build_city",
  "build_settlement",
  "play_knight",
  "build_road",
  "buy_development_card",
  "maritime_trade",
  "decline_trade",
  "decline_neutral_trade",
  "end_turn",
];
const NEVER = new Set<LegalAction["type"]>(["concede", "offer_trade"]);

function hand(view: GameView): Record<string, number> {
  return { ...(view.you?.resources ?? {}) } as Record<string, number>;
}

// `count` cards from the largest piles of the hand.
function cards(view: GameView, count: number, keep?: string): Record<string, number> {
  const left = hand(view);
  const out: Record<string, number> = {};
  for (let i = 0; i < count; i++) {
    const [kind] = Object.entries(left)
      .filter(([k, n]) => k !== keep && n > 0)
      .sort((a, b) => b[1] - a[1])[0] ?? [undefined];
    if (kind === undefined) break;
    left[kind]! -= 1;
    out[kind] = (out[kind] ?? 0) + 1;
  }
  return out;
}

// Receives the bank has refused for want of stock on the current move;
// the driver does not ask for them again until the game moves on.
let shortage = { move: -1, refused: new Set<Resource>() };

// Without trading with the bank a hand of one kind can stall a game for
// hundreds of moves: one card of the scarcest kind, paid from the pile
// with the most to spare beyond its ratio.
function maritimeTrade(options: Schemas["MaritimeOption"][], view: GameView): Action | undefined {
  const have = hand(view);
  const surplus = (o: Schemas["MaritimeOption"]) => (have[o.give] ?? 0) - o.ratio;
  const spare = options.filter((o) => surplus(o) > 0).sort((a, b) => surplus(b) - surplus(a))[0];
  if (!spare) return undefined;
  const wanted = spare.receive.filter((r) => r !== spare.give && !shortage.refused.has(r));
  if (!wanted.length) return undefined;
  const fewest = Math.min(...wanted.map((r) => have[r] ?? 0));
  const receive = pick(wanted.filter((r) => (have[r] ?? 0) === fewest));
  return { type: "maritime_trade", give: spare.give, receive, ratio: spare.ratio };
}

// The action sent for one entry (docs/clients.md, "From a legal-action
// entry to an action"); undefined where this player does not take it.
function toAction(entry: LegalAction, view: GameView): Action | undefined {
  switch (entry.type) {
    case "build_road":
    case "replace_road":
      return entry.edges.length ? { type: entry.type, edge: pick(entry.edges) } : undefined;
    case "build_neutral_road":
      return { type: entry.type, neutral: entry.neutral, edge: pick(entry.edges) };
    case "build_settlement":
    case "build_city":
      return entry.nodes.length ? { type: entry.type, node: pick(entry.nodes) } : undefined;
    case "build_neutral_settlement":
      return { type: entry.type, neutral: entry.neutral, node: pick(entry.nodes) };
    case "move_robber":
    case "play_knight": {
      const withVictims = entry.targets.filter((t) => t.victims.length > 0);
      const target = pick(withVictims.length ? withVictims : entry.targets);
      return { type: entry.type, hex: target.hex, victim: target.victims[0] ?? null };
    }
    case "discard":
    case "forced_trade_give":
      return { type: entry.type, cards: cards(view, entry.count) };
    case "play_year_of_plenty": {
      const resources: Resource[] = [];
      for (let i = 0; i < entry.count; i++) resources.push(pick<Resource>(["brick", "lumber", "wool", "grain", "ore"]));
      return { type: entry.type, resources };
    }
    case "play_monopoly":
      return { type: entry.type, resource: "ore" };
    case "maritime_trade":
      return maritimeTrade(entry.options, view);
    case "accept_neutral_trade": {
      const receive = pick(entry.receive);
      return { type: entry.type, receive, give: cards(view, entry.give, receive) };
    }
    case "roll_dice":
    case "end_turn":
    case "buy_development_card":
    case "play_road_building":
    case "decline_trade":
    case "decline_neutral_trade":
    case "withdraw_trade":
    case "accept_trade":
    case "forced_trade":
    case "robber_to_desert":
    case "discard_knight":
    case "ask_neutral_trade":
      return { type: entry.type };
    default:
      return undefined;
  }
}

function choose(view: GameView, legal: LegalAction[]): Action {
  const rank = (e: LegalAction) => {
    const i = PREFERENCE.indexOf(e.type);
    return i < 0 ? PREFERENCE.length : i;
  };
  const candidates = legal.filter((e) => !NEVER.has(e.type)).sort((a, b) => rank(a) - rank(b));
  for (const entry of candidates) {
    const action = toAction(entry, view);
    if (action) return action;
  }
  throw new Error(`no action for any of ${legal.map((e) => e.type).join(", ")}`);
}

async function play(players: Player[], gameId: string, maxMoves: number): Promise<Detail> {
  const path = { params: { path: { game_id: gameId } } };
  for (let moves = 0; moves <= maxMoves; moves++) {
    const details = await Promise.all(players.map((p) => getGame(p, gameId)));
    const first = details[0]!;
    if (first.status !== "active") return first;
    const i = details.findIndex((d) => d.legal_actions.length > 0);
    const detail = details[i];
    if (!detail || !detail.view) throw new SchemaMismatch(`an active game awaits nobody at move ${first.move_number}`);
    if (shortage.move !== detail.move_number) shortage = { move: detail.move_number, refused: new Set() };
    const action = choose(detail.view, detail.legal_actions);
    const r = await players[i]!.api.POST("/api/v1/games/{game_id}/moves", {
      ...path,
      headers: { "Idempotency-Key": randomUUID() },
      body: { expected_move_number: detail.move_number, action },
    });
    if (r.error && r.response.status === 422 && "reason" in r.error && r.error.reason?.code === "bank_shortage") {
      if (action.type === "maritime_trade") shortage.refused.add(action.receive);
      continue;
    }
    ok("move", r);
  }
  throw new SchemaMismatch(`no end after ${maxMoves} moves`);
}

const players = [await signUp("ada"), await signUp("grace")];
for (const variant of opts.variant) {
  const id = await startGame(players[0]!, players[1]!, variant as Schemas["Variant"], Number(opts["vp-target"]));
  const final = await play(players, id, Number(opts["max-moves"]));
  if (final.status !== "finished") throw new SchemaMismatch(`${variant}: the game ended as ${final.status}`);
  console.log(`${variant}: game ${id} finished at move ${final.move_number}, won by seat ${final.view?.winner}`);
}
if (opts["start-every-variant"]) {
  // Every variant the spec lists, each request checked against the spec.
  const spec = JSON.parse(readFileSync(opts.spec, "utf8"));
  for (const variant of spec.components.schemas.Variant.enum as Schemas["Variant"][]) {
    const id = await startGame(players[0]!, players[1]!, variant);
    const detail = await getGame(players[0]!, id);
    if (detail.status !== "active") throw new SchemaMismatch(`${variant}: the game is ${detail.status}`);
    console.log(`started ${variant}: game ${id}`);
  }
}
