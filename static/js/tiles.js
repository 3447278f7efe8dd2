// Domino tiles as SVG markup (strings), in tile units: a half is a 1 x 1 square.

const SPOTS = {
  0: [],
  1: [[0.5, 0.5]],
  2: [[0.27, 0.27], [0.73, 0.73]],
  3: [[0.25, 0.25], [0.5, 0.5], [0.75, 0.75]],
  4: [[0.27, 0.27], [0.73, 0.27], [0.27, 0.73], [0.73, 0.73]],
  5: [[0.25, 0.25], [0.75, 0.25], [0.5, 0.5], [0.25, 0.75], [0.75, 0.75]],
  6: [[0.27, 0.22], [0.73, 0.22], [0.27, 0.5], [0.73, 0.5], [0.27, 0.78], [0.73, 0.78]],
};

// Pips of one half whose top-left corner is (x, y); `across` turns the six's
// columns into rows so that they run along a horizontal tile, as on real ones.
function pips(n, x, y, across, extra = "") {
  return SPOTS[n]
    .map(([px, py]) => {
      const [sx, sy] = across ? [py, px] : [px, py];
      return `<circle cx="${(x + sx).toFixed(3)}" cy="${(y + sy).toFixed(3)}" r="0.092"/>`;
    })
    .join("") + extra;
}

// One face-up tile at (x, y), w x h units (2 x 1 horizontal, 1 x 2 vertical);
// `first` is the number on the left (or top) half. `attrs` go on the <g>.
export function tileGroup(first, second, x, y, w, h, attrs = "", cls = "") {
  const horizontal = w > h;
  const hx = horizontal ? x + 1 : x;
  const hy = horizontal ? y : y + 1;
  const line = horizontal
    ? `<line x1="${x + 1}" y1="${y + 0.14}" x2="${x + 1}" y2="${y + 0.86}"/>`
    : `<line x1="${x + 0.14}" y1="${y + 1}" x2="${x + 0.86}" y2="${y + 1}"/>`;
  return (
    `<g class="tile${cls ? " " + cls : ""}" ${attrs}>` +
    `<rect class="tile-face" x="${x + 0.03}" y="${y + 0.03}" width="${w - 0.06}" height="${h - 0.06}" rx="0.14"/>` +
    `<g class="tile-line">${line}</g>` +
    `<g class="pips">` +
    `<g class="half" data-n="${first}">${hover(x, y)}${pips(first, x, y, horizontal)}</g>` +
    `<g class="half" data-n="${second}">${hover(hx, hy)}${pips(second, hx, hy, horizontal)}</g>` +
    `</g></g>`
  );
}

// An invisible square that catches the pointer for the "how many are out" hint.
function hover(x, y) {
  return `<rect class="half-hit" x="${x}" y="${y}" width="1" height="1"/>`;
}

// A standalone upright tile (for the hand and the result panel).
export function tileSVG(tile, { horizontal = false, className = "" } = {}) {
  const [a, b] = tile.split("-").map(Number);
  const [w, h] = horizontal ? [2, 1] : [1, 2];
  return (
    `<svg class="tile-svg ${className}" viewBox="0 0 ${w} ${h}" aria-hidden="true" focusable="false">` +
    tileGroup(a, b, 0, 0, w, h) +
    `</svg>`
  );
}

// A face-down tile (the seats' fans).
export function backSVG() {
  return (
    `<svg class="tile-back" viewBox="0 0 1 2" aria-hidden="true" focusable="false">` +
    `<rect x="0.04" y="0.04" width="0.92" height="1.92" rx="0.16"/>` +
    `<rect class="inlay" x="0.2" y="0.2" width="0.6" height="1.6" rx="0.1"/></svg>`
  );
}
