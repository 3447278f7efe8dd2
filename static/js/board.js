// The chain on the felt as SVG markup, shared by the table page (table.js) and
// the round replay page (replay.js): the snake of chain_layout.js, tiles of tiles.js,
// the A/B end markers, the last tile highlighted. A lit-html template; of the DOM
// it reads only <html>'s data-tile-size (tileZoom).

import { layoutChain } from "./chain_layout.js";
import { html, unsafeSVG } from "./lit.js";
import { tileGroup } from "./tiles.js";

// Keep the scale steady while the chain is short: the view is at least as big
// as one full row of the snake.
export function fitBox(b, aspect, half) {
  let w = Math.max(b.w, half * 2 + 2.4);
  let h = Math.max(b.h, w / Math.max(aspect, 0.5), 5);
  if (w / h < aspect) w = h * aspect;
  return { x: b.x + b.w / 2 - w / 2, y: b.y + b.h / 2 - h / 2, w, h };
}

// Large tiles (static/js/table_theme.js sets data-tile-size on <html>): a short
// chain's rows hold fewer tiles, so each is drawn larger.
export const LARGE_ZOOM = 1.35;
export function tileZoom() {
  return document.documentElement.dataset.tileSize === "large" ? LARGE_ZOOM : 1;
}

export function markerPoint(e) {
  return { x: e.x + (e.dx || 0) * 0.75, y: e.y + (e.dy || 0) * 0.75 };
}

// `chain`: the snapshot's round.chain; `aspect`: the board's width / height;
// `hot`: the ends to highlight ("A", "B", a spinner's "C", "D"); `label`: the SVG's
// accessible name. Returns {svg, lay, box}: the template, chain_layout.js's layout
// and the view box. `bends`: the round's layout (chain index -> "left" | "right",
// "ajustar a fila"). `ends`: the round's open ends by name; with C among them (a
// spinner's sides are open) arms C and D are drawn from the spinner.
export function chainSVG(chain, aspect, { hot = [], label = "", bends = {}, ends: open = null } = {}) {
  const lay = layoutChain(chain, aspect, bends, tileZoom(), open?.C !== undefined && open?.C !== null);
  const box = fitBox(lay.box, aspect, lay.half);
  const last = chain.length - 1;
  const tiles = lay.tiles
    .map((tl) => tileGroup(tl.first, tl.second, tl.x, tl.y, tl.w, tl.h, `data-chain="${tl.index}" data-link="${tl.tile}"`, tl.index === last ? "last" : ""))
    .join("");
  let ends = "";
  if (chain.length) {
    for (const end of ["A", "B", "C", "D"]) {
      const e = lay.ends[end];
      if (!e) continue;
      const p = markerPoint(e);
      const cls = hot.includes(end) ? " hot" : "";
      ends += `<g class="end-mark${cls}" transform="translate(${p.x.toFixed(2)} ${p.y.toFixed(2)})">
        <circle r="0.5"/><text class="end-letter" y="-0.06">${end}</text><text class="end-value" y="0.32">${e.value}</text></g>`;
    }
  }
  // The tiles and markers are numbers only (tiles.js): the label is escaped.
  const viewBox = `${box.x.toFixed(2)} ${box.y.toFixed(2)} ${box.w.toFixed(2)} ${box.h.toFixed(2)}`;
  const svg = html`<svg class="chain" viewBox=${viewBox} role="img" aria-label=${label}>${unsafeSVG(tiles + ends)}</svg>`;
  return { svg, lay, box };
}
