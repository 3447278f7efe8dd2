// The rules texts' table behaviours (docs/table-rules.md), kept apart from the
// rest of the page so that each stays small:
// * turning a hand tile (the portal: "Clique na parte inferior de uma pedra para
//   girá-la"), kept per browser like the hand order;
// * drawing by clicking a face-down tile of the boneyard;
// * automatic mode: the switch, the seat's "automático" badge;
// * a private duel waiting for its absent player, and the bot the present one may call;
// * bending the line at any tile the server accepts ("num ponto à escolha");
// * the competitive / friendly marker and the rated marker's tooltip;
// * "Regras desta mesa" with this table's own options.

import { innermost } from "../chain_layout.js";
import { css, html, nothing, unsafeHTML } from "../lit.js";
import { backSVG } from "../tiles.js";
import { can, isDbl, mySeat, page, seatName, setState, snap, state, t } from "./state.js";

// --- turning a hand tile -------------------------------------------------------

const TURN_KEY = (code) => `domino.turned.${code}`;
const BONEYARD_SHOWN = 14; // face-down tiles drawn at most (the count says the rest)

function turnedSet() {
  try {
    return new Set(JSON.parse(localStorage.getItem(TURN_KEY(page.boot.code)) || "[]"));
  } catch {
    return new Set();
  }
}

// The tile as this browser draws it in the hand: "3-5", or "5-3" once turned.
export function handFace(tile) {
  if (!turnedSet().has(tile)) return tile;
  const [a, b] = tile.split("-");
  return `${b}-${a}`;
}

export function isTurned(tile) {
  return turnedSet().has(tile);
}

// Turn a hand tile: its halves swap in the drawing (the server still turns a
// played tile to match its end).
export function turnTile(tile) {
  const turned = turnedSet();
  if (turned.has(tile)) turned.delete(tile);
  else turned.add(tile);
  try {
    localStorage.setItem(TURN_KEY(page.boot.code), JSON.stringify([...turned]));
  } catch {
    /* kept for this page only */
  }
}

// A click on the lower half of a hand tile turns it; the rest of the tile
// chooses it. The middle band is the tile's: a click at its centre chooses.
export function isTurnClick(event, el) {
  // (A click from the keyboard has no position: Enter and Space choose the tile.)
  if (!el.closest("[data-hand]") || !event.clientY) return false;
  const box = el.getBoundingClientRect();
  return event.clientY > box.top + box.height * 0.6;
}

// --- drawing from the boneyard --------------------------------------------------

// Face-down tiles to click whenever drawing is the legal action (each draws, as
// the Draw button does; `data-action="draw"` stays the button's alone).
export function boneyardPile() {
  const r = snap().round;
  if (!r || !can("draw")) return nothing;
  const shown = Math.min(r.boneyard_count ?? 0, BONEYARD_SHOWN);
  const tiles = Array.from(
    { length: shown },
    (_, i) => html`<button type="button" class="bone-tile" data-boneyard-tile=${i} aria-label=${t("Draw this face-down tile")}>${unsafeHTML(backSVG())}</button>`,
  );
  return html`<div class="boneyard-pile" data-boneyard role="group" aria-label=${t("Boneyard: click a tile to draw it")}>${tiles}</div>`;
}

// --- automatic mode ---------------------------------------------------------------

export function myAuto() {
  const me = mySeat();
  return me !== null && !!snap().seats[me]?.auto;
}

// The switch, for a seated person while a match is on.
export function autoButton() {
  const s = snap();
  const me = mySeat();
  if (me === null || s.seats[me]?.kind !== "human" || s.seats[me]?.substitute || !s.round) return nothing;
  const on = myAuto();
  const label = on ? t("Automatic play: on") : t("Automatic play");
  return html`<button type="button" class="button ghost small" data-action="auto" aria-pressed=${String(on)} title=${t("The server plays for you at once until you switch it off or play yourself.")}>${label}</button>`;
}

export function autoBadge(seat) {
  return seat.auto ? html`<span class="badge auto" data-auto-badge>${t("automatic")}</span>` : nothing;
}

// The rated marker's tooltip: still rated when a seat plays on automatic.
export function ratedTitle(base) {
  const names = snap().seats.filter((seat) => seat.auto).map((seat) => seatName(seat.index));
  return names.length ? `${base} ${t("Automatic play: %(names)s (still rated).", { names: names.join(", ") })}` : base;
}

// --- a private duel waits for both ------------------------------------------------

const DUEL_BOT_AFTER_S = 120;

function awaited() {
  const s = snap();
  if (!s.room.waits_for_both || s.room.status !== "playing" || s.room.paused) return null;
  return s.seats.find((seat) => seat.kind === "human" && !seat.connected && !seat.substitute && seat.index !== mySeat()) ?? null;
}

function clockText(seconds) {
  const m = Math.floor(seconds / 60);
  return `${m}:${String(seconds % 60).padStart(2, "0")}`;
}

// "esperando <nome> voltar" with how long it has been; after 2 minutes the
// present one may play on against the computer until the other returns.
export function waitingNotice() {
  const seat = awaited();
  if (!seat || mySeat() === null) return nothing;
  const since = seat.away_since ? Date.parse(seat.away_since) : Date.now();
  const seconds = Math.max(0, Math.floor((Date.now() - since) / 1000));
  const text = t("Waiting for %(name)s to come back (%(time)s)", { name: seatName(seat.index), time: clockText(seconds) });
  const bot =
    seconds >= DUEL_BOT_AFTER_S
      ? html`<button type="button" class="button small" data-action="stand_in">${t("Play against the computer")}</button>`
      : nothing;
  return html`<div class="waiting-for" data-waiting-for role="status"><span>${text}</span>${bot}</div>`;
}

export function isWaiting() {
  return awaited() !== null;
}

// --- bending the line at any tile ------------------------------------------------

// Chain indexes where the server accepts a bend: not the first tile, not a
// double, not the tile right after a double on its side (rooms.services.flow).
export function bendableLinks(chain) {
  const out = [];
  for (let at = 1; at < chain.length; at += 1) {
    const end = chain[at].end;
    let inner = innermost(chain, end); // the first tile, or a spinner for its sides
    for (let i = at - 1; i > 0; i -= 1) {
      if (chain[i].end === end) {
        inner = i;
        break;
      }
    }
    if (!isDbl(chain[at].tile) && !isDbl(chain[inner].tile)) out.push(at);
  }
  return out;
}

// Small markers on every bendable tile of the chain; choosing one moves the
// bend controls of its end there (state.bendAt: end -> chain index).
export function bendPoints(lay, box, rect) {
  const chain = snap().round?.chain ?? [];
  if (!rect.width) return nothing;
  const scale = Math.min(rect.width / box.w, rect.height / box.h);
  const ox = (rect.width - box.w * scale) / 2;
  const oy = (rect.height - box.h * scale) / 2;
  const chosen = state.bendAt ?? {};
  return bendableLinks(chain).map((at) => {
    const tl = lay.tiles.find((x) => x.index === at);
    if (!tl) return nothing;
    const end = chain[at].end;
    const on = chosen[end] === at;
    const left = ox + (tl.x + tl.w / 2 - box.x) * scale;
    const top = oy + (tl.y + tl.h / 2 - box.y) * scale;
    const label = t("Bend the line at tile %(tile)s", { tile: chain[at].tile });
    return html`<button type="button" class="bend-point${on ? " on" : ""}" data-bend-point=${at} data-bend-end=${end} aria-pressed=${String(on)} aria-label=${label} title=${label} ${css(`left: ${left.toFixed(1)}px; top: ${top.toFixed(1)}px;`)}></button>`;
  });
}

// The index that the bend controls of ``end`` act on: the chosen tile, or the
// outermost by default (`outermost`: chain.js's endLinks).
export function bendTarget(end, outermost) {
  const chosen = state.bendAt?.[end];
  const chain = snap().round?.chain ?? [];
  return chosen !== undefined && bendableLinks(chain).includes(chosen) ? chosen : outermost;
}

export function chooseBendPoint(end, at) {
  setState({ bendAt: { ...(state.bendAt ?? {}), [end]: at } });
}

// --- the table's kind and its own rules ----------------------------------------------

export function kindTag() {
  const room = snap().room;
  return room.competitive === false
    ? html`<span class="tag friendly" data-kind="friendly" title=${t("Friendly table: never rated.")}>${t("Friendly")}</span>`
    : html`<span class="tag competitive" data-kind="competitive" title=${t("Competitive table: rated when every seat is an account and no two share an address.")}>⚔ ${t("Competitive")}</span>`;
}

// "Regras desta mesa": the preset's page with this table's options.
export function rulesHref(room) {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(room.options ?? {})) {
    if (value !== null && value !== undefined) query.set(name, typeof value === "boolean" ? (value ? "1" : "0") : String(value));
  }
  const q = query.toString();
  return `/regras/${encodeURIComponent(room.preset)}/${q ? `?${q}` : ""}`;
}
