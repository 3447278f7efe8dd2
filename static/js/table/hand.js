// The viewer's hand: one button per tile, in this browser's order (dnd.js).
// Each tile keeps its element across snapshots (keyed by the tile), so focus
// and the keyboard's place in the hand survive every update.

import { html, nothing, render, repeat, unsafeHTML } from "../lit.js";
import { orderedHand } from "../dnd.js";
import { tileSVG } from "../tiles.js";
import { $, legalEnds, mySeat, page, snap, state, t } from "./state.js";
import { handFace, isTurned } from "./table-rules.js";

export function renderHand() {
  const r = snap().round;
  const hand = $("[data-hand]");
  if (mySeat() === null) {
    render(html`<p class="hand-note">${t("You are watching. Sit on a free seat to play.")}</p>`, hand);
    return;
  }
  const tiles = orderedHand(page.boot.code, r?.hand ?? []); // this browser's order (dnd.js)
  if (!tiles.length) {
    render(r?.result ? nothing : html`<p class="hand-note">${r ? "" : t("Your tiles appear here when the round is dealt.")}</p>`, hand);
    return;
  }
  render(repeat(tiles, (tile) => tile, (tile) => tileButton(tile, r)), hand);
}

function tileButton(tile, r) {
  const playable = legalEnds(tile).length > 0;
  const mandatory = r.mandatory_tile === tile;
  const selected = state.selected === tile;
  const [a, b] = tile.split("-");
  let label = t("tile %(a)s-%(b)s", { a, b });
  if (playable) label += ", " + t("playable");
  if (mandatory) label += ", " + t("must open with it");
  if (selected) label += ", " + t("chosen: pick an end (A or B)");
  if (isTurned(tile)) label += ", " + t("turned");
  const cls = ["hand-tile", playable ? "playable" : "", mandatory ? "mandatory" : "", selected ? "selected" : ""].join(" ");
  return html`<button type="button" class=${cls} data-tile=${tile} aria-label=${label} aria-pressed=${String(selected)} aria-disabled=${playable ? nothing : "true"}>${unsafeHTML(tileSVG(handFace(tile)))}</button>`;
}

// Arrows, Home and End move along the hand.
export function moveInHand(tile, key) {
  const all = [...page.root.querySelectorAll("[data-hand] [data-tile]")];
  let i = all.indexOf(tile);
  if (key === "Home") i = 0;
  else if (key === "End") i = all.length - 1;
  else i = (i + (key === "ArrowLeft" || key === "ArrowUp" ? -1 : 1) + all.length) % all.length;
  all[i]?.focus();
  all[i]?.scrollIntoView({ block: "nearest", inline: "nearest" });
}
