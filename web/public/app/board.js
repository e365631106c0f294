// The board as SVG: terrain, numbers, harbors, pieces, robber, and the
// legal targets of the chosen board action as focusable buttons.

import { s } from './dom.js';
import {
  edgeEnds, edgeMidpoint, harborAnchor, hexCorners, isRemoved, pips, pointsAttr, round,
  toPixel, viewBox,
} from './geometry.js';
import { harborLabel, seatLabel } from './format.js';
import { isCk } from './ck.js';
import { describeCkPieces, renderCkPieces } from './ck_view.js';

const SIZE = 50;

const TERRAIN_NAMES = {
  forest: 'forest (lumber)',
  pasture: 'pasture (wool)',
  fields: 'fields (grain)',
  hills: 'hills (brick)',
  mountains: 'mountains (ore)',
  desert: 'desert',
};

// `choice`: null, or { kind: 'node'|'edge'|'hex', ids: Set, label(id), pick(id) }.
export function renderBoard(topology, game, choice) {
  const view = game.view;
  const box = viewBox(topology, SIZE, 1.2);
  const removed = view.board.removed ?? 0;
  const svg = s('svg', {
    class: 'board',
    viewBox: `${round(box.minX)} ${round(box.minY)} ${round(box.width)} ${round(box.height)}`,
    role: 'group',
    'aria-labelledby': 'board-title',
    'aria-describedby': 'board-desc',
  });
  svg.append(
    s('title', { id: 'board-title' }, 'The board'),
    s('desc', { id: 'board-desc' }, describeBoard(topology, game)),
    s('rect', { class: 'sea', x: box.minX, y: box.minY, width: box.width, height: box.height }),
  );

  const hexLayer = s('g', { class: 'hexes', 'aria-hidden': 'true' });
  topology.hexes.forEach((hex) => {
    const tile = view.board.tiles[hex.id];
    const gone = isRemoved(removed, hex.id);
    const centre = toPixel(hex, SIZE);
    const g = s('g', { class: `hex ${gone ? 'removed' : tile.terrain}`, dataset: { hex: hex.id } },
      s('polygon', { points: pointsAttr(hexCorners(hex, SIZE)) }));
    if (gone) {
      g.append(s('text', { x: round(centre.x), y: round(centre.y + 8), class: 'removed-mark' }, '×'));
    } else if (tile.number) {
      const red = tile.number === 6 || tile.number === 8;
      g.append(
        s('circle', { cx: round(centre.x), cy: round(centre.y), r: 15, class: 'token' }),
        s('text', { x: round(centre.x), y: round(centre.y + 5), class: `number${red ? ' red' : ''}` },
          tile.number),
        s('text', { x: round(centre.x), y: round(centre.y + 12), class: `pips${red ? ' red' : ''}` },
          '•'.repeat(pips(tile.number))),
      );
    }
    hexLayer.append(g);
  });
  svg.append(hexLayer);

  svg.append(renderHarbors(topology, view));

  const roads = s('g', { class: 'roads', 'aria-hidden': 'true' });
  for (const road of view.roads) {
    const [a, b] = edgeEnds(topology.edges[road.edge], topology.nodes, SIZE);
    roads.append(s('line', {
      x1: round(a.x), y1: round(a.y), x2: round(b.x), y2: round(b.y),
      class: `road seat-${road.owner}`, dataset: { edge: road.edge },
    }));
  }
  svg.append(roads);

  const buildings = s('g', { class: 'buildings', 'aria-hidden': 'true' });
  for (const b of view.buildings) {
    const p = toPixel(topology.nodes[b.node], SIZE);
    buildings.append(s('path', {
      d: b.kind === 'city' ? cityPath(p) : settlementPath(p),
      class: `${b.kind} seat-${b.owner}`, dataset: { node: b.node },
    }));
  }
  svg.append(buildings);
  if (isCk(game)) svg.append(renderCkPieces(topology, game, SIZE));

  const robber = toPixel(topology.hexes[view.robber], SIZE);
  svg.append(s('g', { class: 'robber', 'aria-hidden': 'true' },
    s('ellipse', { cx: round(robber.x - 20), cy: round(robber.y + 4), rx: 7, ry: 11 }),
    s('circle', { cx: round(robber.x - 20), cy: round(robber.y - 9), r: 6 })));

  if (choice) svg.append(renderTargets(topology, choice));
  return svg;
}

function renderHarbors(topology, view) {
  const layer = s('g', { class: 'harbors', 'aria-hidden': 'true' });
  topology.harbor_edges.forEach((edgeId, slot) => {
    const edge = topology.edges[edgeId];
    const kind = view.board.harbors[slot];
    const anchor = harborAnchor(edge, topology, SIZE);
    const out = view.harbors_out.includes(slot);
    const g = s('g', { class: `harbor${out ? ' out' : ''}`, dataset: { harbor: slot } });
    for (const end of edgeEnds(edge, topology.nodes, SIZE)) {
      g.append(s('line', { x1: round(anchor.x), y1: round(anchor.y), x2: round(end.x), y2: round(end.y) }));
    }
    g.append(
      s('circle', { cx: round(anchor.x), cy: round(anchor.y), r: 14, class: kind.resource ?? 'generic' }),
      s('text', { x: round(anchor.x), y: round(anchor.y + 4) }, kind.kind === 'generic' ? '3:1' : '2:1'),
    );
    layer.append(g);
  });
  return layer;
}

function settlementPath({ x, y }) {
  return `M${round(x - 8)},${round(y + 7)}v-9l8,-8l8,8v9z`;
}

function cityPath({ x, y }) {
  return `M${round(x - 12)},${round(y + 8)}v-12l6,-6l6,6v3h12v9z`;
}

function renderTargets(topology, choice) {
  const layer = s('g', { class: `targets ${choice.kind}-targets`, role: 'group', 'aria-label': choice.title });
  for (const id of choice.ids) {
    let shape;
    if (choice.kind === 'edge') {
      const edge = topology.edges[id];
      const [a, b] = edgeEnds(edge, topology.nodes, SIZE);
      const m = edgeMidpoint(edge, topology.nodes, SIZE);
      shape = [
        s('line', { x1: round(a.x), y1: round(a.y), x2: round(b.x), y2: round(b.y), class: 'target-line' }),
        s('circle', { cx: round(m.x), cy: round(m.y), r: 9, class: 'target-dot' }),
      ];
    } else {
      const p = toPixel(choice.kind === 'node' ? topology.nodes[id] : topology.hexes[id], SIZE);
      shape = s('circle', { cx: round(p.x), cy: round(p.y), r: choice.kind === 'hex' ? 20 : 10, class: 'target-dot' });
    }
    const label = choice.label(id);
    const target = s('g', {
      class: 'target', tabindex: 0, role: 'button', 'aria-label': label,
      dataset: { [choice.kind]: id },
      onclick: () => choice.pick(id),
      onkeydown: (e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          choice.pick(id);
        }
      },
    }, s('title', {}, label), shape);
    layer.append(target);
  }
  return layer;
}

// A text alternative for the whole board: what a sighted player reads off
// the picture, in words.
export function describeBoard(topology, game) {
  const view = game.view;
  const removed = view.board.removed ?? 0;
  const hexes = topology.hexes.map((hex) => {
    const tile = view.board.tiles[hex.id];
    if (isRemoved(removed, hex.id)) return `hex ${hex.id}: removed`;
    const robber = view.robber === hex.id ? ', robber' : '';
    return `hex ${hex.id}: ${TERRAIN_NAMES[tile.terrain]}${tile.number ? ` ${tile.number}` : ''}${robber}`;
  });
  const buildings = view.buildings.map((b) => `${seatLabel(game, b.owner)} ${b.kind} at node ${b.node}`);
  const roads = view.roads.map((r) => `${seatLabel(game, r.owner)} road at edge ${r.edge}`);
  const harbors = view.board.harbors.map((k, slot) => `harbor ${slot} ${harborLabel(k)} at edge ${topology.harbor_edges[slot]}`);
  const parts = [hexes.join('; '), harbors.join('; '), buildings.join('; ') || 'no buildings', roads.join('; ') || 'no roads'];
  if (isCk(game)) parts.push(describeCkPieces(game));
  return parts.join('. ');
}
