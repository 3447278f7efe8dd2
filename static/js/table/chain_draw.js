// The felt: the chain (board.js), the end buttons of a chosen tile, the bend
// controls of "ajustar a fila", the centre message and the tie-break pick-off.

import { chainSVG, markerPoint } from "../board.js";
import { endLinks, innermost } from "../chain_layout.js";
import { css, html, nothing, render, unsafeHTML } from "../lit.js";
import { backSVG } from "../tiles.js";
import { ngettext } from "../util.js";
import { pickReveals } from "../pickreveal.js";
import { sidesLabel } from "./moves.js";
import { $, isDbl, isMyTurn, legal, legalEnds, seatName, setState, snap, state, t } from "./state.js";
import { bendableLinks, bendPoints, bendTarget } from "./table-rules.js";

export function renderBoard() {
  const s = snap();
  const board = $("[data-board]");
  const r = s.round;
  const chain = r?.chain ?? [];
  const rect = board.getBoundingClientRect();
  const aspect = rect.width > 0 && rect.height > 0 ? rect.width / rect.height : 1.6;
  const targets = state.selected ? legalEnds(state.selected) : [];
  const { svg, lay, box } = chainSVG(chain, aspect, { hot: targets, label: chainLabel(), bends: r?.layout ?? {}, ends: r?.ends });
  const ends = chain.length ? endButtons(lay, box, rect, targets) : nothing;
  const adjust = state.adjusting && canAdjust() ? [bendPoints(lay, box, rect), adjustButtons(lay, box, rect, aspect)] : nothing;
  render(html`${svg}${ends}${adjust}${centerMessage()}${pickOff()}`, board);
}

function endButtons(lay, box, rect, targets) {
  if (!targets.length || !rect.width) return nothing;
  const scale = Math.min(rect.width / box.w, rect.height / box.h);
  const ox = (rect.width - box.w * scale) / 2;
  const oy = (rect.height - box.h * scale) / 2;
  const spots = targets
    .filter((end) => lay.ends[end]) // A, B, and a spinner's C and D once open
    .map((end) => {
      const p = markerPoint(lay.ends[end]);
      return { end, value: lay.ends[end].value, x: ox + (p.x - box.x) * scale, y: oy + (p.y - box.y) * scale };
    });
  spreadApart(spots, rect);
  return spots.map(({ end, value, x, y }) => {
    const label = t("End %(end)s (%(n)s)", { end, n: value });
    return html`<button type="button" class="end-target" data-end=${end} ${css(`left: ${x.toFixed(1)}px; top: ${y.toFixed(1)}px;`)} aria-label=${label} title=${label}>${end}</button>`;
  });
}

// The end buttons keep a finger's size (2.9rem): on a small board two ends can
// lie closer than that (a spinner's C and D on a phone), so each pair too close
// is pushed apart along the line between them, inside the board; where the
// board is too short (or narrow) for that, across it.
function spreadApart(spots, rect) {
  const rem = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
  const gap = 3.3 * rem; // the button and its ring
  for (let round = 0; round < 6; round += 1) {
    for (const [i, a] of spots.entries()) {
      for (const b of spots.slice(i + 1)) {
        const dx = b.x - a.x;
        const dy = b.y - a.y;
        const apart = Math.hypot(dx, dy);
        if (apart >= gap) continue;
        const [lx, ly] = apart > 0.5 ? [dx / apart, dy / apart] : [0, 1];
        const along = round < 3; // then across: the separation's sides add up in squares
        const [ux, uy] = along ? [lx, ly] : [-ly, lx];
        const push = (along ? gap - apart : Math.sqrt(gap * gap - apart * apart)) / 2;
        a.x -= ux * push;
        a.y -= uy * push;
        b.x += ux * push;
        b.y += uy * push;
      }
    }
    for (const spot of spots) {
      spot.x = Math.min(Math.max(spot.x, gap / 2), rect.width - gap / 2);
      spot.y = Math.min(Math.max(spot.y, gap / 2), rect.height - gap / 2);
    }
  }
}

function chainLabel() {
  const r = snap().round;
  if (!r || !r.chain?.length) return t("The table is empty.");
  const label = ngettext(
    "Table: %(n)s tile, end A shows %(a)s, end B shows %(b)s.",
    "Table: %(n)s tiles, end A shows %(a)s, end B shows %(b)s.",
    r.chain.length,
    { a: r.ends?.A, b: r.ends?.B },
  );
  return label + sidesLabel(r.ends, t);
}

function centerMessage() {
  const s = snap();
  const r = s.round;
  let text = "";
  if (s.room.paused) text = t("Game paused");
  else if (s.room.status === "waiting") {
    const filled = s.seats.filter((x) => x.kind !== "empty").length;
    text =
      filled < s.seats.length
        ? t("Waiting for players (%(filled)s of %(total)s)", { filled, total: s.seats.length })
        : s.room.start_on_seeds // play alone: dealt on this page's seed (fair.js)
          ? t("Shuffling with your seed…")
          : s.you?.is_host
          ? t("Everyone is seated: press Start.")
          : t("Waiting for the host to start.");
  } else if (r && !r.result && !r.chain?.length && r.turn !== null && r.turn !== undefined) {
    text = isMyTurn() ? t("You open the round.") : t("%(name)s opens the round.", { name: seatName(r.turn) });
  }
  return text ? html`<div class="board-message" role="status">${text}</div>` : nothing;
}

function pickOff() {
  const r = snap().round;
  if (!r?.pick_off) return nothing;
  const picks = legal().filter((a) => a.type === "pick");
  const title = html`<p>${t("Tie-break: pick a face-down tile; the lowest wins.")}</p>`;
  const shown = pickReveals(r.pick_off, seatName, t); // every round of picks, face up
  if (r.result) return html`<div class="pick-off done">${shown}</div>`;
  if (!picks.length) {
    return html`<div class="pick-off">${title}${shown}<p>${t("Waiting for the other picks…")}</p></div>`;
  }
  const buttons = picks.map(
    (p) => html`<button type="button" class="pick" data-pick=${p.index} aria-label=${t("Face-down tile %(n)s", { n: p.index + 1 })}>${unsafeHTML(backSVG())}</button>`,
  );
  return html`<div class="pick-off">${title}${shown}<div class="pick-grid">${buttons}</div></div>`;
}

// --- turning the line ("ajustar a fila") ----------------------------------------

export function canAdjust() {
  const s = snap();
  const r = s.round;
  if (!isMyTurn() || !r || (r.chain?.length ?? 0) < 2 || s.room.paused || r.pick_off) return false;
  return bendableLinks(r.chain).length > 0; // any tile the server accepts (table-rules.js)
}

// The chain index an adjustment at this end bends (its outermost tile), or null
// where the line may not bend: the first tile, a double, or the tile after one.
function bendable(end) {
  const chain = snap().round.chain;
  const at = endLinks(chain)[end];
  if (!at) return null;
  const inner = [...chain.keys()].filter((i) => i > 0 && i < at && chain[i].end === chain[at].end).pop() ?? innermost(chain, end);
  return isDbl(chain[at].tile) || isDbl(chain[inner].tile) ? null : at;
}

// "Adjust the line" under the table, while the line may bend.
export function adjustToggle() {
  if (!canAdjust()) {
    setState({ adjusting: false, bendAt: null });
    return [];
  }
  const label = state.adjusting ? t("Done adjusting") : t("Adjust the line");
  return [html`<button type="button" class="button ghost small" data-action="adjust_mode" aria-pressed=${String(state.adjusting)}>${label}</button>`];
}

function arrow([dx, dy]) {
  return { "1,0": "→", "-1,0": "←", "0,1": "↓", "0,-1": "↑" }[`${dx + 0},${dy + 0}`] ?? "•";
}

// At each end, three buttons bend its outermost tile: to the left, straight on,
// to the right of the way the line runs there (never the first tile, a double
// or the tile after one: the server refuses those too).
function adjustButtons(lay, box, rect, aspect) {
  if (!rect.width) return nothing;
  const r = snap().round;
  const chain = r.chain;
  const layout = r.layout ?? {};
  const scale = Math.min(rect.width / box.w, rect.height / box.h);
  const ox = (rect.width - box.w * scale) / 2;
  const oy = (rect.height - box.h * scale) / 2;
  return ["A", "B", "C", "D"].map((end) => {
    if (!lay.ends[end]) return nothing; // C and D: a spinner's sides, once open
    const at = bendTarget(end, bendable(end)); // the tile chosen on the line, or the outermost
    if (at === null) return nothing;
    // The way the line runs into that tile: the line as it was before it, bends kept.
    const before = Object.fromEntries(Object.entries(layout).filter(([i]) => Number(i) < at));
    const tip = chainSVG(chain.slice(0, at), aspect, { bends: before, ends: r.ends }).lay.ends[end];
    const d = [tip.dx, tip.dy];
    const dirs = { left: [d[1], -d[0]], straight: d, right: [-d[1], d[0]] };
    const current = layout[String(at)] ?? "straight";
    // Beside the end marker, not on it: further along the line, or across it
    // when that would leave the table.
    const e = lay.ends[end];
    const p = markerPoint(e);
    const px = ox + (p.x - box.x) * scale;
    const py = oy + (p.y - box.y) * scale;
    const away = 1.4 * scale + 24;
    let cx = px + (e.dx || 0) * away;
    let cy = py + (e.dy || 0) * away;
    if (cx < 60 || cx > rect.width - 60 || cy < 24 || cy > rect.height - 24) {
      cx = px - (e.dy || 0) * away;
      cy = py + (e.dx || 0) * away * (py > rect.height / 2 ? -1 : 1);
    }
    cx = Math.min(Math.max(cx, 60), rect.width - 60);
    cy = Math.min(Math.max(cy, 24), rect.height - 24);
    const labels = {
      left: t("Bend the line to the left at end %(end)s", { end }),
      straight: t("Straighten the line at end %(end)s", { end }),
      right: t("Bend the line to the right at end %(end)s", { end }),
    };
    const buttons = ["left", "straight", "right"].map(
      (bend) =>
        html`<button type="button" class="bend${bend === current ? " on" : ""}" data-bend=${bend} data-at=${at} aria-pressed=${String(bend === current)} aria-label=${labels[bend]} title=${labels[bend]}>${arrow(dirs[bend])}</button>`,
    );
    return html`<div class="adjust-ctl" data-adjust=${end} ${css(`left: ${cx.toFixed(1)}px; top: ${cy.toFixed(1)}px;`)}>${buttons}</div>`;
  });
}
