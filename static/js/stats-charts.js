// The statistics page's charts, drawn as inline SVG: no charting library, and the colours are the
// page's CSS variables (pages.css, stats.css), so both themes draw them. Each chart is named by its
// heading (aria-labelledby) and has a table beside it saying the same for a screen reader.

const SVG = 'http://www.w3.org/2000/svg';
const WIDTH = 560;
const HEIGHT = 260;
const PLOT = { left: 52, right: 12, top: 18, bottom: 40 };
const PLOT_W = WIDTH - PLOT.left - PLOT.right;
const PLOT_H = HEIGHT - PLOT.top - PLOT.bottom;

function element(name, attributes, text) {
  const el = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) el.setAttribute(key, String(value));
  if (text !== undefined) el.textContent = text;
  return el;
}

function chart(titleId) {
  return element('svg', { class: 'chart', viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: 'img', 'aria-labelledby': titleId });
}

/** A horizontal grid line at `y` with its label on the left. */
function gridLine(svg, y, label) {
  svg.append(
    element('line', { class: 'chart-grid', x1: PLOT.left, x2: WIDTH - PLOT.right, y1: y.toFixed(1), y2: y.toFixed(1) }),
    element('text', { class: 'chart-axis', x: PLOT.left - 6, y: (y + 4).toFixed(1), 'text-anchor': 'end' }, label),
  );
}

/** Bars of `bars` ([{label, share (0..1), title}]), shares as `percent` writes them; named by the element `titleId`. */
export function shareChart(titleId, bars, percent) {
  const svg = chart(titleId);
  for (let step = 0; step <= 4; step += 1) gridLine(svg, PLOT.top + PLOT_H * (1 - step / 4), percent(step / 4));
  const slot = PLOT_W / Math.max(bars.length, 1);
  bars.forEach((bar, index) => {
    const x = PLOT.left + index * slot + slot * 0.2;
    const height = PLOT_H * bar.share;
    const middle = (x + slot * 0.3).toFixed(1);
    const rect = element('rect', { class: 'chart-bar', x: x.toFixed(1), y: (PLOT.top + PLOT_H - height).toFixed(1), width: (slot * 0.6).toFixed(1), height: height.toFixed(1) });
    rect.append(element('title', {}, bar.title));
    svg.append(
      rect,
      element('text', { class: 'chart-value', x: middle, y: (PLOT.top + PLOT_H - height - 4).toFixed(1), 'text-anchor': 'middle' }, percent(bar.share)),
      element('text', { class: 'chart-axis', x: middle, y: HEIGHT - PLOT.bottom + 18, 'text-anchor': 'middle' }, bar.label),
    );
  });
  return svg;
}

/**
 * Each game's largest tile as a dot and the best so far as a line, oldest game on the left: `games`
 * [{maxTile, best, title}]; the tiles are on a doubling scale, each doubling one step up.
 */
export function progressChart(titleId, games, format) {
  const svg = chart(titleId);
  const top = Math.max(11, ...games.map((game) => Math.log2(game.best))); // at least up to 2048
  const bottom = Math.min(3, ...games.map((game) => Math.log2(Math.max(game.maxTile, 2)))); // from 8, or lower
  const y = (tile) => PLOT.top + PLOT_H * (1 - (Math.log2(Math.max(tile, 2)) - bottom) / (top - bottom));
  const x = (index) => PLOT.left + (games.length > 1 ? (PLOT_W * index) / (games.length - 1) : PLOT_W / 2);
  const every = Math.ceil((top - bottom) / 6); // at most about seven labels
  for (let power = bottom; power <= top; power += every) gridLine(svg, y(2 ** power), format(2 ** power));
  const line = games.map((game, index) => `${index ? 'L' : 'M'}${x(index).toFixed(1)},${y(game.best).toFixed(1)}`).join(' ');
  svg.append(element('path', { class: 'chart-line', d: line }));
  games.forEach((game, index) => {
    const dot = element('circle', { class: 'chart-dot', cx: x(index).toFixed(1), cy: y(game.maxTile).toFixed(1), r: games.length > 100 ? 2.5 : 4 });
    dot.append(element('title', {}, game.title));
    svg.append(dot);
  });
  svg.append(
    element('text', { class: 'chart-axis', x: PLOT.left, y: HEIGHT - PLOT.bottom + 18, 'text-anchor': 'start' }, format(1)),
    element('text', { class: 'chart-axis', x: WIDTH - PLOT.right, y: HEIGHT - PLOT.bottom + 18, 'text-anchor': 'end' }, format(games.length)),
  );
  return svg;
}
