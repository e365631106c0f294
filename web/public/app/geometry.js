// Board geometry: from the topology's integer lattice to SVG coordinates.
// Pure functions, no DOM, so they run under `node --test` as well.
//
// The lattice (GET /api/v1/topology, `coordinate_note`): hexes are pointy-top;
// one unit of x is sqrt(3)/2 hex radii and one unit of y half a radius, so
// every corner and centre is an integer point. `size` is the hex radius in
// SVG units.

export const X_UNIT = Math.sqrt(3) / 2;
export const Y_UNIT = 1 / 2;

// Corner offsets of a pointy-top hex in the lattice, clockwise from the top.
export const CORNER_OFFSETS = [[0, -2], [1, -1], [1, 1], [0, 2], [-1, 1], [-1, -1]];

export function toPixel(point, size) {
  return { x: point.x * X_UNIT * size, y: point.y * Y_UNIT * size };
}

export function hexCorners(hex, size) {
  return CORNER_OFFSETS.map(([dx, dy]) => toPixel({ x: hex.x + dx, y: hex.y + dy }, size));
}

export function edgeEnds(edge, nodes, size) {
  return edge.nodes.map((id) => toPixel(nodes[id], size));
}

export function midpoint(a, b) {
  return { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
}

export function edgeMidpoint(edge, nodes, size) {
  const [a, b] = edgeEnds(edge, nodes, size);
  return midpoint(a, b);
}

// Where a harbor's marker sits: beyond the coastal edge, away from its
// only land hex, `distance` radii out from the edge's midpoint.
export function harborAnchor(edge, topology, size, distance = 0.55) {
  const mid = edgeMidpoint(edge, topology.nodes, size);
  const land = toPixel(topology.hexes[edge.hexes[0]], size);
  const dx = mid.x - land.x;
  const dy = mid.y - land.y;
  const len = Math.hypot(dx, dy);
  return { x: mid.x + (dx / len) * distance * size, y: mid.y + (dy / len) * distance * size };
}

// The smallest box holding every node, widened by `margin` radii on each side.
export function viewBox(topology, size, margin = 1) {
  const points = topology.nodes.map((n) => toPixel(n, size));
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  const minX = Math.min(...xs) - margin * size;
  const minY = Math.min(...ys) - margin * size;
  return {
    minX,
    minY,
    width: Math.max(...xs) + margin * size - minX,
    height: Math.max(...ys) + margin * size - minY,
  };
}

// `board.removed` is a bit set over hex ids (the shadow variant).
export function isRemoved(removedMask, hexId) {
  return Boolean((removedMask ?? 0) & (2 ** hexId));
}

export function pointsAttr(points) {
  return points.map((p) => `${round(p.x)},${round(p.y)}`).join(' ');
}

export function round(v) {
  return Math.round(v * 100) / 100;
}

// Pips under a number token: how many of the 36 rolls give it.
export function pips(number) {
  return number ? 6 - Math.abs(7 - number) : 0;
}
