// Board geometry against the published topology (test/topology.json is
// GET /api/v1/topology; a Rust test keeps it equal to the server's).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  edgeEnds, edgeMidpoint, harborAnchor, hexCorners, isRemoved, pips, pointsAttr, toPixel, viewBox,
} from '../public/app/geometry.js';

const topology = JSON.parse(readFileSync(new URL('./topology.json', import.meta.url)));
const SIZE = 50;
const close = (a, b, what) => assert.ok(Math.abs(a - b) < 1e-9, `${what}: ${a} != ${b}`);
const dist = (a, b) => Math.hypot(a.x - b.x, a.y - b.y);

test('the topology has the board of RULES.md', () => {
  assert.equal(topology.hexes.length, 19);
  assert.equal(topology.nodes.length, 54);
  assert.equal(topology.edges.length, 72);
  assert.equal(topology.harbor_edges.length, 9);
  topology.hexes.forEach((h, i) => assert.equal(h.id, i));
  topology.nodes.forEach((n, i) => assert.equal(n.id, i));
  topology.edges.forEach((e, i) => assert.equal(e.id, i));
});

test('every node is one radius from the centre of each hex it touches', () => {
  for (const node of topology.nodes) {
    for (const hexId of node.hexes) {
      close(dist(toPixel(node, SIZE), toPixel(topology.hexes[hexId], SIZE)), SIZE, `node ${node.id} hex ${hexId}`);
    }
  }
});

test('the corners drawn for a hex are exactly its published nodes, in order', () => {
  for (const hex of topology.hexes) {
    const corners = hexCorners(hex, SIZE);
    assert.equal(corners.length, 6);
    hex.nodes.forEach((nodeId, i) => {
      const node = toPixel(topology.nodes[nodeId], SIZE);
      close(corners[i].x, node.x, `hex ${hex.id} corner ${i} x`);
      close(corners[i].y, node.y, `hex ${hex.id} corner ${i} y`);
    });
  }
});

test('the corners form a regular hexagon, pointy side up', () => {
  const corners = hexCorners({ x: 0, y: 0 }, SIZE);
  for (let i = 0; i < 6; i += 1) {
    close(dist(corners[i], corners[(i + 1) % 6]), SIZE, `side ${i}`);
    close(dist(corners[i], { x: 0, y: 0 }), SIZE, `radius ${i}`);
  }
  close(corners[0].x, 0, 'top corner x');
  close(corners[0].y, -SIZE, 'top corner y');
});

test('every edge is one radius long and its midpoint halfway between its hexes', () => {
  const apothem = (SIZE * Math.sqrt(3)) / 2;
  for (const edge of topology.edges) {
    const [a, b] = edgeEnds(edge, topology.nodes, SIZE);
    close(dist(a, b), SIZE, `edge ${edge.id} length`);
    const mid = edgeMidpoint(edge, topology.nodes, SIZE);
    for (const hexId of edge.hexes) {
      close(dist(mid, toPixel(topology.hexes[hexId], SIZE)), apothem, `edge ${edge.id} hex ${hexId}`);
    }
  }
});

test('harbors sit on the sea, outside every land hex and inside the view box', () => {
  const apothem = (SIZE * Math.sqrt(3)) / 2;
  const box = viewBox(topology, SIZE, 1.2);
  for (const edgeId of topology.harbor_edges) {
    const edge = topology.edges[edgeId];
    assert.equal(edge.hexes.length, 1, `harbor edge ${edgeId} is coastal`);
    const anchor = harborAnchor(edge, topology, SIZE);
    for (const hex of topology.hexes) {
      assert.ok(dist(anchor, toPixel(hex, SIZE)) > apothem, `harbor at edge ${edgeId} off hex ${hex.id}`);
    }
    assert.ok(anchor.x > box.minX && anchor.x < box.minX + box.width, `harbor ${edgeId} x in box`);
    assert.ok(anchor.y > box.minY && anchor.y < box.minY + box.height, `harbor ${edgeId} y in box`);
  }
});

test('the view box holds every node with the margin asked for', () => {
  const box = viewBox(topology, SIZE, 1);
  const points = topology.nodes.map((n) => toPixel(n, SIZE));
  close(Math.min(...points.map((p) => p.x)) - box.minX, SIZE, 'left margin');
  close(Math.min(...points.map((p) => p.y)) - box.minY, SIZE, 'top margin');
  close(box.minX + box.width - Math.max(...points.map((p) => p.x)), SIZE, 'right margin');
  close(box.minY + box.height - Math.max(...points.map((p) => p.y)), SIZE, 'bottom margin');
});

test('removed hexes are read from the bit set', () => {
  const mask = (1 << 0) | (1 << 7) | (1 << 18);
  const removed = topology.hexes.filter((h) => isRemoved(mask, h.id)).map((h) => h.id);
  assert.deepEqual(removed, [0, 7, 18]);
  assert.equal(isRemoved(undefined, 3), false);
  assert.equal(isRemoved(0, 3), false);
});

test('pips count the rolls that give a number', () => {
  assert.deepEqual([2, 3, 4, 5, 6, 8, 9, 10, 11, 12].map(pips), [1, 2, 3, 4, 5, 5, 4, 3, 2, 1]);
  assert.equal(pips(null), 0);
});

test('polygon points are rounded to two decimals', () => {
  assert.equal(pointsAttr([{ x: 1 / 3, y: -2 }, { x: 43.30127, y: 25 }]), '0.33,-2 43.3,25');
});
