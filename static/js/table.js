// The table page: one WebSocket (docs/protocol.md), full snapshots in, small
// messages out. Every snapshot renders the whole page again through lit-html
// templates (vendor/lit-html), which change only what differs: reconnection
// and missed messages never leave stale pieces, and focus stays where it was.
//
// The parts: table/state.js (the snapshot and readings of it), table/socket.js
// (the connection), table/seats.js, table/chain_draw.js (the felt), table/hand.js,
// table/panels.js (actions, scores, host, log, result, notices). This module
// starts them and turns input into messages.

import { whileBusy } from "./build.js";
import { createChat } from "./chat.js";
import { initDrag, saveHandOrder } from "./dnd.js";
import { feelAfter, feelBefore, initFeel } from "./feel.js";
import { renderBoard } from "./table/chain_draw.js";
import { fairAfter, initFair } from "./table/fair.js";
import { moveInHand, renderHand } from "./table/hand.js";
import {
  banner,
  chatPlace,
  renderActions,
  renderHost,
  renderLog,
  renderResult,
  renderScores,
  renderTitleExtras,
  showReplaced,
  tickCountdowns,
  toast,
} from "./table/panels.js";
import { redrawRings, renderSeats } from "./table/seats.js";
import { connected, moveUnanswered, send, start, stop } from "./table/socket.js";
import { $, isMyTurn, legalEnds, mySeat, page, setState, snap, state, t } from "./table/state.js";
import { chooseBendPoint, isTurnClick, myAuto, ratedTitle, turnTile } from "./table/table-rules.js";
import { makeT, ready } from "./util.js";

// ---------------------------------------------------------------------------
// Messages from the server

// A socket just (re)opened: its first snapshot is the room as stored now, taken
// whatever version this page last saw (after a restore from a backup the room's
// version goes back: docs/scaling.md, "Backups"). Within one socket an older
// snapshot than the one shown is a late frame, and dropped.
let freshSocket = false;

function onMessage(msg) {
  switch (msg.type) {
    case "room": {
      if (state.snap && !freshSocket && msg.version < state.snap.version) return;
      freshSocket = false;
      holdResult(state.snap?.round, msg.round);
      const prev = state.snap;
      feelBefore(); // motion, sound and alerts (feel.js)
      setState({ snap: msg });
      autoSit();
      setState({ sent: null });
      if (state.selected && !legalEnds(state.selected).length) setState({ selected: null });
      render();
      feelAfter(prev, msg);
      fairAfter(); // the deal's commitment, and this browser's seed for it
      break;
    }
    case "error":
      setState({ sent: null });
      onError(msg);
      break;
    case "replaced":
      stop(); // no coming back: another tab has this seat
      showReplaced();
      break;
    case "watchers":
      if (state.snap) state.snap.room.watchers = msg.count;
      if (state.snap) renderTitleExtras(), renderActions();
      break;
    case "chat":
      if (state.snap && page.chat.received(msg, snap().seats[msg.seat], chatPlace(), rerenderChat)) rerenderChat();
      break;
    default:
      break;
  }
}

// The most precise words we have: the rule knob at fault, then the server's own
// message for a refused request, then the code's translation.
function errorText(msg) {
  const boot = page.boot;
  if (msg.field && boot.rule_errors?.[msg.field]) return boot.rule_errors[msg.field];
  if (msg.code === "bad_message" && msg.message) return msg.message;
  return boot.errors[msg.code] || msg.message || t("That is not possible now.");
}

// Arriving from the lobby's "Sit" button: take the first free seat once.
function autoSit() {
  if (!page.boot.autosit || !connected()) return;
  page.boot.autosit = false;
  if (mySeat() !== null) return;
  // An empty seat first; else a bot's (taken at once, or reserved during a round).
  const seats = snap().seats;
  const free = seats.find((seat) => seat.kind === "empty") ?? seats.find((seat) => seat.kind === "bot" && !seat.reserved_for);
  if (free) send("sit", { seat: free.index });
}

function onError(msg) {
  if (msg.code === "stale") {
    // Our snapshot is behind (a message was lost): ask for the current one.
    send("refresh");
    return;
  }
  toast(errorText(msg), "error");
  render();
}

// A round that ends while the page is open: the last tile stays in view for
// about 1.5 s before the result panel covers the table (docs/site.md).
function holdResult(before, after) {
  if (after?.result && before && !before.result && before.number === after.number) {
    setState({ resultAt: Date.now() + 1500 });
    setTimeout(() => snap() && renderResult(), 1550);
  }
}

// ---------------------------------------------------------------------------
// Rendering

function render() {
  if (!snap()) return;
  const s = snap();
  const root = page.root;
  root.dataset.status = s.room.status;
  root.dataset.version = String(s.version);
  root.classList.toggle("is-paused", !!s.room.paused);
  root.classList.toggle("my-turn", isMyTurn());
  root.classList.toggle("hints-off", !state.hints); // one switch for every hint
  renderTitleExtras();
  const rated = $("[data-rated]"); // the rated marker; its tooltip names seats on automatic
  if (rated) {
    rated.hidden = !s.room.rated;
    rated.dataset.base = rated.dataset.base ?? rated.title;
    rated.title = ratedTitle(rated.dataset.base);
  }
  const unrated = $("[data-unrated]"); // why a competitive table is not rated, before it starts
  if (unrated) {
    unrated.hidden = s.room.unrated !== "pair_limit";
    unrated.textContent = t("Not rated: two players here already had their rated matches against each other for the last 24 hours.");
  }
  renderSeats();
  renderBoard();
  renderHand();
  renderActions();
  renderScores();
  renderHost();
  renderLog();
  renderResult();
  if (!state.firstRender) {
    setState({ firstRender: true });
    performance.mark("table-first-render");
    document.documentElement.dataset.firstRenderMs = String(Math.round(performance.now()));
  }
}

// Bubbles come and go by the seats, lines in the log, and the phrase picker
// (in the actions) is enabled again once the 3 s between phrases are over.
function rerenderChat() {
  if (!snap()) return;
  renderSeats();
  renderLog();
  renderActions();
}

// ---------------------------------------------------------------------------
// Input

function chooseTile(tile) {
  if (state.sent !== null) return;
  const ends = legalEnds(tile);
  if (!ends.length) {
    if (isMyTurn()) toast(t("This tile does not fit."), "error");
    return;
  }
  if (state.selected === tile) {
    setState({ selected: null }); // a second click cancels
    render();
    return;
  }
  if (ends.length === 1) {
    play(tile, ends[0]);
    return;
  }
  setState({ selected: tile });
  render();
  $("[data-end]")?.focus();
}

function play(tile, end) {
  const fields = { tile };
  if (end) fields.end = end;
  setState({ selected: null });
  if (send("play", fields)) setState({ sent: snap().version });
  render();
}

function chooseEnd(end) {
  const tile = state.selected;
  if (!tile || !legalEnds(tile).includes(end)) return;
  play(tile, end);
  $("[data-hand] [data-tile]")?.focus();
}

function cancel() {
  if (!state.selected) return;
  const tile = state.selected;
  setState({ selected: null });
  render();
  $(`[data-tile="${tile}"]`)?.focus();
}

function bendAt(at, bend) {
  if (state.sent !== null) return;
  if (send("adjust", { at, bend })) setState({ sent: snap().version });
}

function onClick(event) {
  const root = page.root;
  const el = event.target.closest("[data-tile], [data-end], [data-action], [data-pick], [data-show-result], [data-chat], [data-bend], [data-bend-point], [data-boneyard-tile]");
  if (!el || !root.contains(el)) return;
  if (rulesClick(event, el)) return;
  if (el.dataset.chat) return page.chat.say(el.dataset.chat, rerenderChat), renderActions();
  if (el.dataset.bend) return bendAt(Number(el.dataset.at), el.dataset.bend);
  if (el.dataset.tile) return chooseTile(el.dataset.tile);
  if (el.dataset.end) return chooseEnd(el.dataset.end);
  if (el.dataset.pick !== undefined) return send("pick", { index: Number(el.dataset.pick) });
  if (el.hasAttribute("data-show-result")) {
    setState({ resultHidden: false });
    return renderResult();
  }
  const action = el.dataset.action;
  const index = el.dataset.seatIndex !== undefined ? Number(el.dataset.seatIndex) : undefined;
  switch (action) {
    case "reload": // "Play in this tab", after another tab took the seat
      return location.reload();
    case "cancel":
      return cancel();
    case "hide_result":
      setState({ resultHidden: true });
      return renderResult();
    case "copy_invite":
      return copyInvite();
    case "sit":
      return send("sit", { seat: index });
    case "add_bot":
      return send("add_bot", { seat: index, level: state.botLevel });
    case "remove_bot":
      return send("remove_bot", { seat: index });
    case "stand_up": // a private table's host: someone not ready by the deadline
      return send("stand_up", { seat: index });
    case "annul_withdraw":
      return send("annul", { on: false });
    case "settings":
      return; // handled by the form's submit
    case "mute":
      page.chat.toggleMute(snap().seats[index]);
      return render();
    case "chat_toggle":
      page.chat.toggle();
      return renderActions();
    case "adjust_mode":
      setState({ adjusting: !state.adjusting, bendAt: null }); // bendAt: the outermost tiles again, until one is chosen
      return render();
    case "auto": // automatic mode on or off (table-rules.js)
      return send("auto", { on: !myAuto() });
    case "restart_alone": // duelo: the other seat is free; a medium bot takes it
      return send(snap().room.status === "waiting" ? "start" : "new_match", { alone: true });
    case "draw":
    case "pass":
      if (state.sent !== null) return;
      if (send(action)) setState({ sent: snap().version });
      return;
    default:
      if (action) send(action);
  }
}

// Clicks of the rules texts' behaviours (table-rules.js): turning a hand tile
// on its lower half, choosing where the line bends. True when handled.
function rulesClick(event, el) {
  if (el.dataset.tile && isTurnClick(event, el)) {
    turnTile(el.dataset.tile);
    renderHand();
    return true;
  }
  if (el.dataset.boneyardTile !== undefined) {
    if (state.sent === null && send("draw")) setState({ sent: snap().version }); // any face-down tile draws
    return true;
  }
  if (el.dataset.bendPoint !== undefined) {
    chooseBendPoint(el.dataset.bendEnd, Number(el.dataset.bendPoint));
    renderBoard();
    return true;
  }
  return false;
}

function onChange(event) {
  const el = event.target;
  if (el.matches("[data-bot-level]")) send("bot_level", { seat: Number(el.dataset.botLevel), level: el.value });
  if (el.matches("[data-new-bot-level]")) setState({ botLevel: el.value });
  if (el.matches("[data-hints-toggle]")) {
    setState({ hints: el.checked }); // kept in localStorage (table/state.js)
    if (!el.checked) hideHint();
    render(); // the raised playable tiles follow the same switch
  }
}

function onSubmit(event) {
  const form = event.target.closest("[data-settings-form]");
  if (!form) return;
  event.preventDefault();
  const value = form.elements.move_seconds.value;
  const fields = { move_seconds: value ? Number(value) : null };
  const options = {};
  for (const name of page.boot.options || []) {
    const input = form.elements[name];
    if (!input || input.value === "") continue;
    if (name === "partnership" || name === "draw") options[name] = input.value === "1";
    else if (name === "scoring") options[name] = input.value;
    else options[name] = Number(input.value);
  }
  if (Object.keys(options).length) fields.options = options;
  send("settings", fields);
}

function onKey(event) {
  const tag = event.target.tagName;
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
  const key = event.key;
  if (key === "Escape") {
    if (state.selected) {
      event.preventDefault();
      cancel();
    }
    return;
  }
  if (state.selected && ["a", "b", "c", "d"].includes(key.toLowerCase())) { // C, D: a spinner's sides
    event.preventDefault();
    chooseEnd(key.toUpperCase());
    return;
  }
  if ((key === "d" || key === "D") && !state.selected && snap()?.round?.legal?.some((a) => a.type === "draw")) {
    event.preventDefault(); // D draws, like the button and the boneyard's tiles
    if (state.sent === null && send("draw")) setState({ sent: snap().version });
    return;
  }
  const tile = event.target.closest?.("[data-tile]");
  if (tile && (key === "r" || key === "R") && tile.closest("[data-hand]")) {
    event.preventDefault(); // R turns the focused tile
    turnTile(tile.dataset.tile);
    return renderHand();
  }
  if (tile && ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"].includes(key)) {
    event.preventDefault();
    moveInHand(tile, key);
  }
}

async function copyInvite() {
  const input = $("[data-invite-url]");
  if (!input) return;
  try {
    await navigator.clipboard.writeText(input.value);
  } catch {
    input.select();
    document.execCommand?.("copy");
  }
  toast(t("Invite link copied."));
}

// --- hover hints: how many tiles of a number are already out ----------------

function onHover(event) {
  if (!state.hints || !snap()?.round || event.pointerType === "touch") return; // touch: a long press
  const half = event.target.closest?.("[data-board] .half");
  if (!half) return hideHint();
  const n = Number(half.dataset.n);
  const r = snap().round;
  const onTable = (r.chain ?? []).filter((l) => l.tile.split("-").map(Number).includes(n)).length;
  const mine = (r.hand ?? []).filter((tile) => tile.split("-").map(Number).includes(n)).length;
  const hint = $("[data-hint]");
  hint.textContent = t("%(n)s: %(out)s of 7 on the table, %(mine)s in your hand, %(left)s unseen", {
    n,
    out: onTable,
    mine,
    left: 7 - onTable - mine,
  });
  const box = $("[data-board]").getBoundingClientRect();
  hint.style.left = `${Math.min(event.clientX - box.left + 12, box.width - 200)}px`;
  hint.style.top = `${event.clientY - box.top + 14}px`;
  hint.hidden = false;
}

function hideHint() {
  const hint = $("[data-hint]");
  if (hint) hint.hidden = true;
}

// ---------------------------------------------------------------------------

function tick() {
  // Keeps clock rings honest after the tab was in the background.
  if (document.visibilityState === "visible" && snap()?.round?.deadline) redrawRings();
}

ready(() => {
  const root = document.querySelector("[data-table]");
  if (!root) return;
  page.root = root;
  page.boot = JSON.parse(document.getElementById("table-boot").textContent);
  page.t = makeT(JSON.parse(document.getElementById("table-strings").textContent));
  page.boot.errors = page.boot.errors || {};
  root.addEventListener("click", onClick);
  root.addEventListener("change", onChange);
  root.addEventListener("submit", onSubmit);
  document.addEventListener("keydown", onKey);
  root.addEventListener("pointermove", onHover);
  root.addEventListener("pointerleave", hideHint);
  startExtras();
  initFair();
  initFeel(render);
  const toggle = $("[data-hints-toggle]");
  if (toggle) toggle.checked = state.hints;
  new ResizeObserver(() => snap() && renderBoard()).observe($("[data-board]"));
  document.addEventListener("domino:table-theme", () => snap() && renderBoard()); // large tiles (table_theme.js)
  document.addEventListener("visibilitychange", tick);
  if (page.boot.snapshot) onMessage({ type: "room", ...page.boot.snapshot });
  // A newer build reloads the page (build.js), never with a move waiting for its
  // answer or a tile picked up.
  whileBusy(() => state.sent !== null || state.selected !== null || moveUnanswered());
  start({ onMessage, onState: onSocketState, onUnsent: () => toast(t("Not connected yet. Try again in a moment.")) });
});

// The socket's state (socket_client.js) on the page: `data-connected` while open,
// a banner while it comes back, and why when it will not (docs/protocol.md,
// "Close codes").
function onSocketState(name, { code } = {}) {
  if (name === "open") {
    freshSocket = true;
    page.root.dataset.connected = "1";
    banner(null);
    return;
  }
  delete page.root.dataset.connected;
  if (name === "retrying") banner(t("Connection lost. Reconnecting…"), "warn");
  else if (code === 4001) showReplaced();
  else if (code === 4003 || code === 4004) banner(t("This room is closed or you may not enter it."), "error");
}

// ---------------------------------------------------------------------------
// Quick chat (chat.js), drag and drop (dnd.js), right-click, long press.

function startExtras() {
  const root = page.root;
  page.chat = createChat({ t, phrases: page.boot.chat || [], send, room: page.boot.code });
  initDrag(root, {
    ends: (tile) => legalEnds(tile),
    start(tile) {
      if (!legalEnds(tile).length || state.sent !== null) return;
      setState({ selected: tile }); // the fitting ends light up while dragging
      renderBoard();
    },
    play(tile, end) {
      if (state.sent !== null || !legalEnds(tile).includes(end)) {
        setState({ selected: null });
        return render();
      }
      play(tile, end);
    },
    reorder(tiles) {
      saveHandOrder(page.boot.code, tiles);
      setState({ selected: null });
      render();
    },
    cancel() {
      setState({ selected: null });
      render();
    },
  });
  // Right-click cancels a chosen tile (as the variants site says).
  root.addEventListener("contextmenu", (event) => {
    if (!state.selected) return;
    event.preventDefault();
    cancel();
  });
  // Touch screens: a long press on a number of the table shows the count.
  let pressTimer;
  root.addEventListener("pointerdown", (event) => {
    if (event.pointerType !== "touch" || !state.hints) return;
    const half = event.target.closest?.("[data-board] .half");
    if (!half) return;
    const { clientX, clientY } = event;
    clearTimeout(pressTimer);
    pressTimer = setTimeout(() => {
      onHover({ target: half, clientX, clientY });
      setTimeout(hideHint, 2500);
    }, 450);
  });
  for (const type of ["pointerup", "pointercancel", "pointermove"]) {
    root.addEventListener(type, (event) => type !== "pointermove" || event.pointerType !== "touch" || clearTimeout(pressTimer));
  }
  setInterval(tickCountdowns, 1000);
  setInterval(() => snap()?.room.waits_for_both && renderActions(), 1000); // "esperando … voltar" counts up
}
