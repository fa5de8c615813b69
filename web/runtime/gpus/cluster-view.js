// <sb-gpu-cluster>'s picture after the form: the cluster as a tree (spine switches over the
// scalable units' leaf switches over nodes of GPUs), a few of each drawn and the rest counted,
// with the links into the level that binds the collectives in the comms colour; then a table of
// the levels (the engine's `levels`: D, W, each GPU's share, the collective bandwidth D W /
// (D - 1), switches). Pure: runs in the builder and the browser; every number comes from the
// gpu-cluster result.
import { si, displayText } from '../core/format.js';
import { escapeHTML as esc } from '../core/escape.js';
import { registerLead, registerOwnTables } from '../core/render.js';

export const CLUSTER_LEAD = ['gpus', 'collective_bandwidth', 'binding_level', 'bisection_bandwidth', 'switches'];
registerLead('gpu-cluster', CLUSTER_LEAD);
registerOwnTables('gpu-cluster', ['levels']);

const WIDTH = 640;
const MAX_SPINES = 6;
const MAX_SUS = 4;
const MAX_LEAVES = 3;
const MAX_NODES = 3;
const MAX_GPUS = 8;
const ROW = { spine: 30, leaf: 120, node: 210 };
const SWITCH = { w: 26, h: 16 };

const count = (x) => (Number.isFinite(x) && x > 0 ? Math.round(x) : 0);

// Up to `max` evenly spread x positions over [x0, x1].
function spread(n, x0, x1) {
  if (n <= 0) return [];
  if (n === 1) return [(x0 + x1) / 2];
  return Array.from({ length: n }, (_, i) => x0 + ((x1 - x0) * i) / (n - 1));
}

function switchBox(x, y, title) {
  return `<rect class="switch" x="${(x - SWITCH.w / 2).toFixed(1)}" y="${y - SWITCH.h / 2}" width="${SWITCH.w}" height="${SWITCH.h}" rx="3"><title>${esc(title)}</title></rect>`;
}

function line(x1, y1, x2, y2, binding) {
  return `<line class="link${binding ? ' binding' : ''}" x1="${x1.toFixed(1)}" y1="${y1}" x2="${x2.toFixed(1)}" y2="${y2}"/>`;
}

// A node: a dashed box of GPUs (up to 8 drawn) over its NVSwitches' row.
function nodeSVG(cx, y, gpusPerNode, width) {
  const shown = Math.min(gpusPerNode, MAX_GPUS);
  const cell = Math.min(10, (width - 8) / MAX_GPUS);
  const x0 = cx - (shown * cell) / 2;
  const gpus = Array.from({ length: shown }, (_, i) =>
    `<rect class="gpu" x="${(x0 + i * cell + 1).toFixed(1)}" y="${y + 6}" width="${(cell - 2).toFixed(1)}" height="${(cell - 2).toFixed(1)}"/>`).join('');
  const more = gpusPerNode > shown ? `<text class="more" x="${cx}" y="${y + cell + 18}" text-anchor="middle" font-size="11">+${gpusPerNode - shown}</text>` : '';
  return `<rect class="node" x="${(cx - width / 2).toFixed(1)}" y="${y}" width="${width.toFixed(1)}" height="${cell + 10}" rx="4">` +
    `<title>${esc(`a node of ${gpusPerNode} GPUs`)}</title></rect>${gpus}${more}`;
}

// The counts the tree is drawn from, read off the result.
export function treeModel(r) {
  const level = (name) => (r.levels ?? []).find((l) => l.level === name) ?? null;
  const sus = count(r.sus) || 1;
  return {
    gpusPerNode: count(level('node')?.fan_in) || count(r.gpus) / Math.max(1, count(r.nodes)),
    nodes: count(r.nodes),
    sus,
    nodesPerSu: count(level('leaf')?.fan_in) || count(r.nodes),
    leavesPerSu: count(r.leaf_switches) / sus,
    spines: count(r.spine_switches),
    cores: count(r.core_switches),
    binding: r.binding_level,
  };
}

export function treeSVG(r) {
  const m = treeModel(r);
  const scaleOut = m.leavesPerSu > 0;
  const height = scaleOut ? 250 : 80;
  const nodeY = scaleOut ? ROW.node : 30;
  const parts = [];
  const left = 70;
  const right = WIDTH - 10;
  const sus = Math.min(m.sus, MAX_SUS);
  const groupW = (right - left) / Math.max(1, scaleOut ? sus : 1);
  const spineXs = spread(Math.min(m.spines, MAX_SPINES), left + 20, right - 20);
  const labels = [];
  if (scaleOut && m.spines) labels.push(['spine', ROW.spine, `${displayText(m.spines)} switches`]);
  if (scaleOut) labels.push(['leaf', ROW.leaf, `${displayText(m.leavesPerSu)} switches a SU`]);
  labels.push(['node', nodeY + 10, `${displayText(m.gpusPerNode)} GPUs each`]);
  for (let s = 0; s < (scaleOut ? sus : 1); s += 1) {
    const g0 = left + s * groupW;
    const leafXs = scaleOut ? spread(Math.min(m.leavesPerSu, MAX_LEAVES), g0 + 18, g0 + groupW - 18) : [];
    const nodesShown = Math.min(m.nodesPerSu || m.nodes, MAX_NODES);
    const nodeW = Math.min(90, (groupW - 12) / Math.max(1, nodesShown) - 6);
    const nodeXs = spread(nodesShown, g0 + nodeW / 2 + 6, g0 + groupW - nodeW / 2 - 6);
    for (const lx of leafXs) {
      for (const sx of spineXs) parts.push(line(lx, ROW.leaf - SWITCH.h / 2, sx, ROW.spine + SWITCH.h / 2, m.binding === 'spine'));
      for (const nx of nodeXs) parts.push(line(nx, nodeY, lx, ROW.leaf + SWITCH.h / 2, m.binding === 'leaf'));
    }
    for (const lx of leafXs) parts.push(switchBox(lx, ROW.leaf, 'a leaf switch'));
    for (const nx of nodeXs) parts.push(nodeSVG(nx, nodeY, m.gpusPerNode, nodeW));
    const hiddenNodes = (m.nodesPerSu || m.nodes) - nodesShown;
    if (hiddenNodes > 0) {
      parts.push(`<text class="more" x="${(g0 + groupW / 2).toFixed(1)}" y="${nodeY + 40}" text-anchor="middle" font-size="11">${esc(`+${hiddenNodes} nodes`)}</text>`);
    }
  }
  for (const sx of spineXs) parts.push(switchBox(sx, ROW.spine, 'a spine switch'));
  if (m.spines > spineXs.length) parts.push(`<text class="more" x="${right}" y="${ROW.spine + 24}" text-anchor="end" font-size="11">+${m.spines - spineXs.length} spine</text>`);
  if (scaleOut && m.sus > sus) parts.push(`<text class="more" x="${right}" y="${ROW.leaf + 26}" text-anchor="end" font-size="11">+${m.sus - sus} SUs</text>`);
  const side = labels.map(([name, y, text]) =>
    `<text class="level-label${m.binding === name ? ' binding' : ''}" x="4" y="${y + 4}" font-size="12" fill="currentColor">${esc(name)}</text>` +
    `<text class="level-count" x="4" y="${y + 18}" font-size="10" fill="currentColor" fill-opacity="0.75">${esc(text)}</text>`).join('');
  const title = `The cluster's tree: ${displayText(m.nodes, 'nodes')} of ${displayText(m.gpusPerNode, 'GPUs')}` +
    (scaleOut ? `, ${displayText(m.sus, 'SUs')} under ${displayText(m.spines, 'spine switches')}` : '') +
    (m.binding ? `; the ${m.binding} level binds` : '');
  return `<svg class="tree" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-label="${esc(title)}">` +
    `<title>${esc(title)}</title>${parts.join('')}${side}</svg>`;
}

function levelsTableHTML(r) {
  const rows = (r.levels ?? []).map((l) => `<tr class="${l.level === r.binding_level ? 'binding' : ''}" data-level="${esc(l.level)}">` +
    `<td>${esc(l.level)}${l.level === r.binding_level ? ' (binds)' : ''}</td><td>${esc(displayText(l.gpus, 'GPUs'))}</td>` +
    `<td>${esc(displayText(l.fan_in))}</td><td>${esc(si(l.child_bandwidth, 'B/s'))}</td>` +
    `<td>${esc(si(l.bandwidth_per_gpu, 'B/s'))}</td><td>${esc(si(l.collective_bandwidth, 'B/s'))}</td>` +
    `<td>${esc(displayText(l.switches, 'switches'))}</td></tr>`).join('');
  return '<div class="table-wrap" role="region" aria-label="The levels of the cluster" tabindex="0"><table class="levels">' +
    '<caption class="visually-hidden">Each level of the tree, innermost first</caption>' +
    '<thead><tr><th scope="col">Level</th><th scope="col">GPUs under a group</th><th scope="col">D</th><th scope="col">W a child</th>' +
    '<th scope="col">Per GPU</th><th scope="col">Collective D W / (D − 1)</th><th scope="col">Switches</th></tr></thead>' +
    `<tbody>${rows}</tbody></table></div>`;
}

export function clusterExtrasHTML(result) {
  if (!result?.levels) return '<div class="gpu-extras" data-extras></div>';
  return '<div class="gpu-extras" data-extras>' +
    '<h4 class="results">The tree, and each level\'s bandwidth</h4>' +
    `<div class="plot">${treeSVG(result)}</div>${levelsTableHTML(result)}` +
    '<p class="note">A few switches, nodes and GPUs are drawn and the rest counted. The links drawn thick and red lead into the level ' +
    'whose collective bandwidth is lowest: a ring over every GPU is as fast as that level lets it be.</p></div>';
}
