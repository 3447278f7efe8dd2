// The replay page of a finished round (/r/<code>/rounds/<n>/): the table's own
// drawing (board.js, chain_layout.js, tiles.js) and log lines (table/moves.js), every
// hand face up, the log beside it.
// Step with the buttons, the slider, the arrow keys (Home/End: start and end).
// The positions come from the server in a json_script island, the deal first;
// the boneyard's tiles are in none of them.

import { chainSVG } from "./board.js";
import { html, keyed, nothing, render as draw, unsafeHTML } from "./lit.js";
import { moveText, reasonText, sidesLabel } from "./table/moves.js";
import { pickReveals } from "./pickreveal.js";
import { tileSVG } from "./tiles.js";
import { makeT, ngettext, ready } from "./util.js";

const $ = (sel, el = document) => el.querySelector(sel);

let boot;
let t;
let root;
let step = 0;

const positions = () => boot.positions;
const last = () => positions().length - 1;
const rules = () => boot.rules || {};

function seatName(index) {
  const seat = boot.seats[index];
  if (!seat) return t("Seat %(n)s", { n: index + 1 });
  if (seat.kind === "bot") return t("Bot %(n)s", { n: index + 1 });
  return seat.name || t("Seat %(n)s", { n: index + 1 });
}

function sideSeats(side) {
  return rules().partnership ? [side, side + 2] : [side];
}

function sideName(side) {
  return sideSeats(side).map(seatName).join(" & ");
}

// Seat 0 at the bottom, as its player saw the table; partner on top.
function slotOf(index) {
  const n = rules().seats || boot.seats.length;
  if (index === 0) return "bottom";
  if (n === 2) return "top";
  if (n === 3) return index === 1 ? "right" : "left";
  return ["bottom", "right", "top", "left"][index];
}

const describe = (entry) => moveText(entry, seatName(entry.seat), t);

// --- drawing ------------------------------------------------------------------

function render() {
  const pos = positions()[step];
  root.dataset.step = String(step);
  renderSeats(pos);
  renderBoard(pos);
  renderControls(pos);
  renderLog();
  renderResult(pos);
  root.dispatchEvent(new CustomEvent("replay:render", { detail: { step, pos } })); // replay_analysis.js
}

function renderSeats(pos) {
  const at = new Map(pos.hands.map((hand, index) => [slotOf(index), index]));
  for (const slot of root.querySelectorAll("[data-slot]")) {
    const index = at.get(slot.dataset.slot);
    // A seat drawn afresh at each step, as before: "just moved" plays again.
    draw(index === undefined ? nothing : keyed(step, seatView(pos, index)), slot);
  }
}

function seatView(pos, index) {
  const hand = pos.hands[index];
  const turn = pos.turn === index && !pos.result;
  const moved = pos.log && pos.log.seat === index;
  const tiles = hand.length
    ? hand.map((tile) => html`<span class="replay-tile" data-tile=${tile} title=${tile}>${unsafeHTML(tileSVG(tile, { className: "mini" }))}</span>`)
    : html`<span class="out">${t("no tiles left")}</span>`;
  const count = !hand.length ? "" : ngettext("%(n)s tile", "%(n)s tiles", hand.length);
  const label = `${seatName(index)}: ${hand.join(", ") || t("no tiles left")}`;
  return html`<section class="seat replay-seat${turn ? " is-turn" : ""}${moved ? " just-moved" : ""}" data-seat=${index} aria-label=${label}>
      <div class="seat-body">
        <div class="seat-name"><span class="name">${seatName(index)}</span><span class="seat-count">${count}</span></div>
        <div class="replay-hand" data-replay-hand=${index}>${tiles}</div>
      </div></section>`;
}

function renderBoard(pos) {
  const board = $("[data-board]", root);
  const rect = board.getBoundingClientRect();
  const aspect = rect.width > 0 && rect.height > 0 ? rect.width / rect.height : 1.6;
  const label = pos.chain.length
    ? ngettext("Table: %(n)s tile, end A shows %(a)s, end B shows %(b)s.", "Table: %(n)s tiles, end A shows %(a)s, end B shows %(b)s.", pos.chain.length, { a: pos.ends?.A, b: pos.ends?.B }) + sidesLabel(pos.ends, t)
    : t("The table is empty.");
  const { svg } = chainSVG(pos.chain, aspect, { label, bends: pos.layout ?? {}, ends: pos.ends }); // the stored bends
  const note = step === 0 ? html`<div class="board-message" role="status">${t("The hands as dealt")}</div>` : "";
  const bone = rules().draw ? html`<div class="replay-boneyard">${t("Boneyard: %(n)s", { n: pos.boneyard_count })}</div>` : "";
  draw(html`${svg}${note}${bone}${pickReveals(pos.pick_off, seatName, t)}`, board);
  root.dispatchEvent(new CustomEvent("replay:board", { detail: { step, pos } })); // the chain redrawn
}

function renderControls(pos) {
  const slider = $("[data-replay-slider]", root);
  slider.max = String(last());
  slider.value = String(step);
  slider.setAttribute("aria-valuetext", stepText());
  $("[data-step-label]", root).textContent = stepText();
  $("[data-move-text]", root).textContent = pos.log ? describe(pos.log) : t("The hands as dealt");
  for (const el of root.querySelectorAll("[data-action=replay-start], [data-action=replay-prev]")) el.disabled = step === 0;
  for (const el of root.querySelectorAll("[data-action=replay-next], [data-action=replay-end]")) el.disabled = step === last();
}

function stepText() {
  return step === 0 ? t("Deal (move 0 of %(total)s)", { total: last() }) : t("Move %(n)s of %(total)s", { n: step, total: last() });
}

function renderLog() {
  const list = $("[data-log]", root);
  const items = positions()
    .slice(1)
    .map((pos, i) => {
      const n = i + 1;
      const cls = n === step ? "latest" : n > step ? "future" : "";
      return html`<li class="${cls} kind-${pos.log.type}"><button type="button" class="log-step" data-goto=${n} aria-current=${n === step ? "step" : nothing}>${describe(pos.log)}</button></li>`;
    });
  draw(items, list);
  const current = list.querySelector("[aria-current]");
  if (current) current.scrollIntoView({ block: "nearest" });
}

function renderResult(pos) {
  const box = $("[data-replay-result]", root);
  const res = pos.result;
  box.hidden = !res;
  if (!res) {
    draw(nothing, box);
    return;
  }
  const headline = res.winner === null || res.winner === undefined ? t("Round drawn: nobody scores.") : t("%(name)s won the round", { name: sideName(res.winner) });
  const points = (res.points ?? []).map((p, side) => html`<li><span>${sideName(side)}</span><strong>+${p}</strong></li>`);
  draw(html`<h2>${headline}</h2><p class="reason">${reasonText(res, t)}</p><ul class="points">${points}</ul>`, box);
}

// --- stepping -----------------------------------------------------------------

function go(n) {
  const next = Math.max(0, Math.min(last(), n));
  if (next === step) return;
  step = next;
  render();
}

function onClick(event) {
  const goto = event.target.closest("[data-goto]");
  if (goto) return go(Number(goto.dataset.goto));
  const el = event.target.closest("[data-action]");
  if (!el) return;
  const moves = { "replay-start": 0, "replay-prev": step - 1, "replay-next": step + 1, "replay-end": last() };
  if (el.dataset.action in moves) go(moves[el.dataset.action]);
}

function onKey(event) {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const tag = event.target.tagName;
  if (tag === "SELECT" || tag === "TEXTAREA" || (tag === "INPUT" && !event.target.matches("[data-replay-slider]"))) return;
  const moves = { ArrowLeft: step - 1, ArrowRight: step + 1, ArrowUp: step - 1, ArrowDown: step + 1, Home: 0, End: last(), PageUp: step - 10, PageDown: step + 10 };
  if (!(event.key in moves)) return;
  event.preventDefault(); // the slider would move a second time
  go(moves[event.key]);
}

ready(() => {
  root = document.querySelector("[data-replay]");
  if (!root) return;
  boot = JSON.parse(document.getElementById("replay-boot").textContent);
  t = makeT(boot.strings);
  root.addEventListener("click", onClick);
  document.addEventListener("keydown", onKey);
  $("[data-replay-slider]", root).addEventListener("input", (event) => go(Number(event.target.value)));
  new ResizeObserver(() => renderBoard(positions()[step])).observe($("[data-board]", root));
  document.addEventListener("domino:table-theme", () => renderBoard(positions()[step])); // large tiles (table_theme.js)
  step = new URLSearchParams(location.hash.slice(1)).get("step") === "end" ? last() : 0;
  render();
  root.dataset.ready = "1";
});
