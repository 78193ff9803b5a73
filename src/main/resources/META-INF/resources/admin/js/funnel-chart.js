// The feed funnel as an inline SVG: one horizontal bar per stage, in the funnel's order, split by source, with a
// legend of the sources; each segment's tooltip breaks it down by reason. Bars are to scale against the largest
// stage.

import { count, rate, svg } from './dom.js';

const COLORS = ['#d9822b', '#3b6ea8', '#3f9a5b', '#7b5ea7', '#c55f9a', '#8c6d4f'];
/** The colour of series counted for a whole stage (source "all"). */
const ALL_COLOR = '#7d8793';
const WIDTH = 1000;
const LABEL = 120;
const VALUE = 90;
const ROW = 30;
const BAR = 20;
const KEY = 130;
const KEYS_PER_LINE = Math.floor((WIDTH - LABEL) / KEY);

/**
 * @param funnel the overview's funnel counters, in stage order
 * @param perSecond bars of rates instead of counts since the instance started
 */
export function funnelChart(funnel, perSecond) {
  const value = (counter) => (perSecond ? counter.ratePerSec : counter.count);
  const format = (amount) => (perSecond ? `${rate(amount)}/s` : count(amount));
  const sourceOf = (counter) => counter.source ?? 'all';
  const sources = [...new Set(funnel.map(sourceOf))];
  const named = sources.filter((source) => source !== 'all');
  const color = (source) => (source === 'all' ? ALL_COLOR : COLORS[named.indexOf(source) % COLORS.length]);
  const stages = byStage(funnel, value, sourceOf);
  const largest = Math.max(...stages.map((stage) => stage.total), 0) || 1;
  const scale = (WIDTH - LABEL - VALUE) / largest;
  const legendHeight = Math.ceil(sources.length / KEYS_PER_LINE) * 18 + 10;

  const legend = sources.map((source, i) => svg('g', {
    transform: `translate(${LABEL + (i % KEYS_PER_LINE) * KEY}, ${6 + Math.floor(i / KEYS_PER_LINE) * 18})`,
  },
  svg('rect', { width: 12, height: 12, rx: 2, fill: color(source) }),
  svg('text', { x: 18, y: 10, class: 'legend' }, source)));
  const rows = stages.map((stage, i) => {
    const y = legendHeight + i * ROW;
    let x = LABEL;
    const segments = [...stage.sources].map(([source, part]) => {
      const width = part.total * scale;
      const reasons = [...part.reasons].filter(([, amount]) => amount > 0)
        .map(([reason, amount]) => `${reason} ${format(amount)}`).join(', ');
      const segment = svg('rect', { x, y: y + (ROW - BAR) / 2, width, height: BAR, fill: color(source) },
        svg('title', {}, `${stage.name} · ${source}: ${format(part.total)}${reasons ? ` (${reasons})` : ''}`));
      x += width;
      return segment;
    });
    return svg('g', { 'data-testid': 'funnel-stage', 'data-stage': stage.name },
      svg('text', { x: LABEL - 8, y: y + ROW / 2 + 4, 'text-anchor': 'end', class: 'stage' }, stage.name.replaceAll('_', ' ')),
      segments,
      svg('text', { x: x + 6, y: y + ROW / 2 + 4, class: 'value' }, format(stage.total)));
  });
  return svg('svg', {
    class: 'funnel-chart', viewBox: `0 0 ${WIDTH} ${legendHeight + stages.length * ROW}`, width: '100%', role: 'img',
    'aria-label': 'Feed funnel by stage and source', 'data-testid': 'funnel-chart',
  }, legend, rows);
}

/** Stages in the order given, each with its total and, per source, a total and the amounts by reason. */
function byStage(funnel, value, sourceOf) {
  const stages = new Map();
  for (const counter of funnel) {
    if (!stages.has(counter.stage)) stages.set(counter.stage, { name: counter.stage, total: 0, sources: new Map() });
    const stage = stages.get(counter.stage);
    const source = sourceOf(counter);
    if (!stage.sources.has(source)) stage.sources.set(source, { total: 0, reasons: new Map() });
    const part = stage.sources.get(source);
    const amount = value(counter);
    const reason = counter.reason ?? 'none';
    stage.total += amount;
    part.total += amount;
    part.reasons.set(reason, (part.reasons.get(reason) ?? 0) + amount);
  }
  return [...stages.values()];
}
