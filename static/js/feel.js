// The table's feel (docs/table-feel.md): what changed between two snapshots,
// shown (motion.js), heard (sound.js) and told (alerts.js); the sound, alert
// and sort buttons. Called by table.js around each render and at start.

import { askNotify, initAlerts, notify, own, setAlert, showTurn, vibrate } from "./alerts.js";
import { orderedHand, saveHandOrder } from "./dnd.js";
import { finishAll, fly, mark, pulse } from "./motion.js";
import { bySuit, byPips } from "./sort.js";
import { setSound, sound, soundOn, unlock } from "./sound.js";
import { $, page, snap, t } from "./table/state.js";

let rects = new Map(); // hand tile -> where it was drawn before this render
const $$ = (sel) => [...page.root.querySelectorAll(sel)];
const box = (sel) => $(sel)?.getBoundingClientRect();
const isDouble = (tile) => tile.split("-")[0] === tile.split("-")[1];
const turnOf = (s) => !!s?.round && !s.round.result && s.you?.seat != null && s.round.turn === s.you.seat;
const where = (s) => `${s?.match?.number}:${s?.round?.number}`;

export function feelBefore() {
  finishAll();
  rects = new Map($$("[data-hand] [data-tile]").map((el) => [el.dataset.tile, el.getBoundingClientRect()]));
}

export function feelAfter(prev, next) {
  const r = next.round;
  const mine = turnOf(next);
  showTurn(mine);
  const tools = $("[data-hand-tools]");
  if (tools) tools.hidden = (r?.hand?.length ?? 0) < 2;
  if (!prev || !r) return;
  if (where(prev) !== where(next)) dealt(next);
  else {
    // After a reconnection many moves may be new: only the last few are shown.
    const seen = Math.max(0, ...(prev.log ?? []).map((e) => e.seq));
    for (const e of (next.log ?? []).filter((x) => x.seq > seen).slice(-3)) moved(e, prev, next);
    if (r.result && !prev.round?.result) ended(next);
  }
  if (mine && !turnOf(prev)) {
    sound("turn");
    vibrate();
    notify(t("Your turn"), "turn");
  }
  joined(prev, next);
}

const seatBox = (seat) => box(`[data-seat="${seat}"]`);

function moved(e, prev, next) {
  const me = e.seat === next.you?.seat;
  if (e.type === "play") {
    const el = $(`[data-board] [data-link="${e.tile}"]`);
    fly(el, (me && rects.get(e.tile)) || seatBox(e.seat));
    sound(isDouble(e.tile) ? "double" : "lay");
  } else if (e.type === "draw") {
    const before = new Set(prev.round?.hand ?? []);
    const drawn = (next.round.hand ?? []).find((tile) => !before.has(tile));
    const el = me && drawn ? $(`[data-hand] [data-tile="${drawn}"]`) : $$(`[data-seat="${e.seat}"] .tile-back`).pop();
    fly(el, box(".boneyard") || box("[data-board]"));
    sound("draw");
  } else if (e.type === "pass") {
    // The mark sits on the seat's edge toward the board, never on its name.
    const at = seatBox(e.seat);
    if (at) mark(t("passed"), passPoint(at, e.seat === next.you?.seat), "pass");
    sound("pass");
  }
}

// Just under a seat's box (just over it for the player's own seat, under which the hand lies).
function passPoint(at, mine) {
  const y = mine ? at.top - 16 : at.bottom + 16;
  return new DOMRect(at.left, y - 1, at.width, 2);
}

// A new round: the hand fans out from the middle of the felt.
function dealt(next) {
  const from = box("[data-board]");
  const tiles = $$("[data-hand] [data-tile]");
  tiles.forEach((el, i) => fly(el, from, { duration: 180, delay: Math.round((i * 110) / tiles.length) }));
  if (tiles.length) sound("draw");
  if (next.round.number > 1 || next.match?.number > 1) notify(t("A new round is dealt."), "round");
}

// Batida (the last tile) or a blocked game (the counts), before the result panel.
function ended(next) {
  const res = next.round.result;
  const f = box(".felt"); // low on the felt: the last tile stays in view
  const felt = f && { left: f.left, width: f.width, top: f.bottom - f.height * 0.2, height: 0 };
  if (res.reason === "domino") {
    pulse($("[data-board] .tile.last"));
    if (felt) mark(t("Domino!"), felt, "big", 1450);
    sound("batida");
  } else if (felt) {
    mark(`${t("Blocked game")} ${(res.counted ?? []).join(" × ")}`, felt, "big", 1450);
  }
  setTimeout(() => sound(next.match?.over ? "match" : "round"), 700);
}

// Someone sits down in the viewer's private room.
function joined(prev, next) {
  if (next.room.visibility !== "private" || next.you?.seat == null) return;
  for (const seat of next.seats) {
    const was = prev.seats[seat.index];
    if (was && was.kind !== "human" && seat.kind === "human" && seat.index !== next.you.seat) {
      notify(t("%(name)s joined your table.", { name: seat.name || t("A guest") }), "join");
    }
  }
}

// --- the buttons and settings ------------------------------------------------

function showPrefs() {
  const on = soundOn();
  for (const el of $$("[data-sound-toggle]")) el.setAttribute("aria-pressed", String(on));
  for (const el of $$("[data-alert]")) {
    el.checked = own(el.dataset.alert);
    el.disabled = !on; // the sound switch silences every alert
  }
  const ask = $("[data-notify-ask]");
  if (ask) {
    ask.hidden = !window.Notification;
    ask.disabled = !on;
    ask.setAttribute("aria-pressed", String(own("notify")));
  }
}

export function initFeel(render) {
  const root = page.root;
  initAlerts(t("(Your turn) "));
  const start = () => unlock();
  for (const type of ["pointerdown", "keydown"]) document.addEventListener(type, start, { capture: true });
  root.addEventListener("click", async (event) => {
    const el = event.target.closest("[data-sound-toggle], [data-notify-ask], [data-sort]");
    if (!el) return;
    if (el.dataset.sort) return sortHand(el.dataset.sort, render);
    if (el.hasAttribute("data-sound-toggle")) setSound(!soundOn());
    else if (own("notify")) setAlert("notify", false);
    else await askNotify();
    showPrefs();
    if (snap()) showTurn(turnOf(snap()));
  });
  root.addEventListener("change", (event) => {
    const name = event.target.dataset?.alert;
    if (!name) return;
    setAlert(name, event.target.checked);
    showPrefs();
  });
  showPrefs();
}

function sortHand(by, render) {
  const code = page.boot.code;
  const hand = $$("[data-hand] [data-tile]").map((el) => el.dataset.tile);
  saveHandOrder(code, (by === "pips" ? byPips : bySuit)(orderedHand(code, hand)));
  feelBefore();
  render();
  for (const el of $$("[data-hand] [data-tile]")) fly(el, rects.get(el.dataset.tile), { duration: 200 });
}
