// A small line of counts over time (an SVG polyline): points [{at, count}] placed by time between from and to.

import { svg } from './dom.js';

const WIDTH = 160;
const HEIGHT = 28;

export function sparkline(points, from, to, testid) {
  const start = Date.parse(from);
  const span = Math.max(1, Date.parse(to) - start);
  const top = Math.max(1, ...points.map((point) => point.count));
  const xy = points.map((point) => {
    const x = ((Date.parse(point.at) - start) / span) * WIDTH;
    const y = HEIGHT - 2 - (point.count / top) * (HEIGHT - 4);
    return `${x.toFixed(1)},${y.toFixed(1)}`;
  });
  const line = points.length > 1
    ? svg('polyline', { points: xy.join(' '), fill: 'none', stroke: 'currentColor', 'stroke-width': 1.5 })
    : null;
  const dots = points.map((point, index) => {
    const [x, y] = xy[index].split(',');
    return svg('circle', { cx: x, cy: y, r: 1.8, fill: 'currentColor' },
      svg('title', {}, `${point.at}: ${point.count}`));
  });
  return svg('svg', {
    class: 'sparkline', width: WIDTH, height: HEIGHT, viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
    'data-testid': testid, role: 'img',
  }, line, ...dots);
}
