// The table page: one WebSocket (protocol.md), full snapshots in, small
// messages out. Every snapshot re-renders the page from scratch (cheap at this
// size) so that reconnection and missed messages never leave stale pieces.

import { chainSVG, markerPoint } from "./board.js";
import { endLinks } from "./chain.js";
import { createChat } from "./chat.js";
import { initDrag, orderedHand, saveHandOrder } from "./dnd.js";
import { backSVG, tileSVG } from "./tiles.js";
import { applyCss, makeT, ready } from "./util.js";

const $ = (sel, el = document) => el.querySelector(sel);
const esc = (s) =>
  String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

const ICON_CROWN =
  '<svg class="icon crown" viewBox="0 0 24 24" aria-hidden="true"><path d="M3 18h18l-1.5-10-4.5 4-3-7-3 7-4.5-4z"/></svg>';
const ICON_BOT =
  '<svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><rect x="4" y="8" width="16" height="12" rx="3"/><circle cx="9" cy="14" r="1.6" class="cut"/><circle cx="15" cy="14" r="1.6" class="cut"/><path d="M12 3v5" stroke-width="2"/></svg>';

const state = {
  snap: null,
  selected: null, // tile chosen by the viewer, waiting for an end
  hints: localStorage.getItem("domino.hints") !== "off",
  socket: null,
  retries: 0,
  replaced: false,
  resultHidden: false,
  resultFor: null,
  botLevel: "medium",
  ref: 0,
  sent: null, // version a move was sent on: ignore clicks until a newer snapshot
  firstRender: false,
  lastLogSeq: null,
  adjusting: false, // "Ajustar a fila": bend controls shown at the ends
  resultAt: 0, // the result panel waits until then: the last tile stays in view
};

let t;
let boot;
let root;
let chat;

// ---------------------------------------------------------------------------
// Connection

function socketUrl() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  return `${proto}//${location.host}/ws/rooms/${boot.code}/`;
}

function connect() {
  if (boot.sample || state.replaced) return;
  const ws = new WebSocket(socketUrl());
  state.socket = ws;
  ws.addEventListener("open", () => {
    state.retries = 0;
    root.dataset.connected = "1";
    banner(null);
  });
  ws.addEventListener("message", (event) => {
    let msg;
    try {
      msg = JSON.parse(event.data);
    } catch {
      return;
    }
    onMessage(msg);
  });
  ws.addEventListener("close", (event) => {
    if (state.socket !== ws) return;
    state.socket = null;
    delete root.dataset.connected;
    if (event.code === 4001 || state.replaced) {
      showReplaced();
      return;
    }
    if (event.code === 4004 || event.code === 4003) {
      banner(t("This room is closed or you may not enter it."), "error");
      return;
    }
    const delay = Math.min(1000 * 2 ** state.retries, 10000);
    state.retries += 1;
    banner(t("Connection lost. Reconnecting…"), "warn");
    setTimeout(connect, delay);
  });
}

function send(type, fields = {}) {
  if (boot.sample) {
    toast(t("Sample table: moves are not sent."));
    return false;
  }
  const ws = state.socket;
  if (!ws || ws.readyState !== WebSocket.OPEN) {
    toast(t("Not connected yet. Try again in a moment."));
    return false;
  }
  state.ref += 1;
  const msg = { type, ref: String(state.ref), ...fields };
  if (state.snap) msg.version = state.snap.version;
  ws.send(JSON.stringify(msg));
  return true;
}

function onMessage(msg) {
  switch (msg.type) {
    case "room":
      if (state.snap && msg.version < state.snap.version) return;
      holdResult(state.snap?.round, msg.round);
      state.snap = msg;
      autoSit();
      state.sent = null;
      if (state.selected && !legalEnds(state.selected).length) state.selected = null;
      render();
      break;
    case "error":
      state.sent = null;
      onError(msg);
      break;
    case "replaced":
      state.replaced = true;
      showReplaced();
      break;
    case "watchers":
      if (state.snap) state.snap.room.watchers = msg.count;
      if (state.snap) renderTitleExtras(), renderActions();
      break;
    case "chat":
      if (state.snap && chat.received(msg, snap().seats[msg.seat], chatPlace(), rerenderChat)) rerenderChat();
      break;
    default:
      break;
  }
}

// The most precise words we have: the rule knob at fault, then the server's own
// message for a refused request, then the code's translation.
function errorText(msg) {
  if (msg.field && boot.rule_errors?.[msg.field]) return boot.rule_errors[msg.field];
  if (msg.code === "bad_message" && msg.message) return msg.message;
  return boot.errors[msg.code] || msg.message || t("That is not possible now.");
}

// Arriving from the lobby's "Sit" button: take the first free seat once.
function autoSit() {
  if (!boot.autosit || !state.socket) return;
  boot.autosit = false;
  if (mySeat() !== null) return;
  const free = snap().seats.find((seat) => seat.kind === "empty");
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

// ---------------------------------------------------------------------------
// Small helpers over the snapshot

const snap = () => state.snap;
const seatCount = () => snap().seats.length;
const mySeat = () => snap().you?.seat ?? null;
const legal = () => snap().round?.legal ?? [];

function legalEnds(tile) {
  return legal()
    .filter((a) => a.type === "play" && a.tile === tile)
    .map((a) => a.end ?? null);
}

function can(type) {
  return legal().some((a) => a.type === type);
}

function seatName(index) {
  const seat = snap().seats[index];
  if (!seat) return "?";
  if (seat.kind === "empty") return t("Seat %(n)s", { n: index + 1 });
  // Bots share generic names ("Bot (medium)"): number them by seat instead.
  if (seat.kind === "bot") return t("Bot %(n)s", { n: index + 1 });
  return seat.name || t("Seat %(n)s", { n: index + 1 });
}

function sideSeats(side) {
  const rules = snap().room.rules || {};
  if (rules.partnership) return [side, side + 2];
  return [side];
}

function sideCount() {
  const rules = snap().room.rules || {};
  return rules.partnership ? 2 : seatCount();
}

function sideName(side) {
  return sideSeats(side).map(seatName).join(" & ");
}

function relative(index) {
  const me = mySeat() ?? 0;
  return (index - me + seatCount()) % seatCount();
}

function position(index) {
  const rel = relative(index);
  const n = seatCount();
  if (rel === 0) return "bottom";
  if (n === 2) return "top";
  if (n === 3) return rel === 1 ? "right" : "left";
  return ["bottom", "right", "top", "left"][rel];
}

function levelName(level) {
  return { easy: t("easy"), medium: t("medium"), hard: t("hard") }[level] || level;
}

// ---------------------------------------------------------------------------
// Rendering

function render() {
  if (!snap()) return;
  const s = snap();
  root.dataset.status = s.room.status;
  root.dataset.version = String(s.version);
  root.classList.toggle("is-paused", !!s.room.paused);
  root.classList.toggle("my-turn", isMyTurn());
  root.classList.toggle("hints-off", !state.hints); // one switch for every hint
  renderTitleExtras();
  const rated = $("[data-rated]", root); // the "competitive" marker (a rated table)
  if (rated) rated.hidden = !s.room.rated;
  renderSeats();
  renderBoard();
  renderHand();
  renderActions();
  renderScores();
  renderHost();
  renderLog();
  renderResult();
  if (!state.firstRender) {
    state.firstRender = true;
    performance.mark("table-first-render");
    document.documentElement.dataset.firstRenderMs = String(Math.round(performance.now()));
  }
}

function isMyTurn() {
  const r = snap().round;
  return !!r && r.turn !== null && r.turn !== undefined && r.turn === mySeat() && !r.result;
}

function renderSeats() {
  const s = snap();
  for (const slot of root.querySelectorAll("[data-slot]")) slot.innerHTML = "";
  s.seats.forEach((seat) => {
    const slot = $(`[data-slot="${position(seat.index)}"]`, root);
    if (slot) {
      slot.innerHTML = seatHTML(seat);
      applyCss(slot);
    }
  });
}

function seatHTML(seat) {
  const s = snap();
  const r = s.round;
  const isHost = s.room.host_seat === seat.index;
  const turn = r && !r.result && r.turn === seat.index;
  const me = seat.index === mySeat();
  const classes = ["seat", `kind-${seat.kind}`];
  if (turn) classes.push("is-turn");
  if (me) classes.push("is-me");
  if (seat.connected === false && seat.kind === "human") classes.push("is-away");
  const name = seat.kind === "empty" ? t("Empty seat") : esc(seatName(seat.index));
  const count = seat.tile_count ?? 0;
  const badges = [];
  if (isHost) badges.push(`<span class="badge host" title="${esc(t("Host"))}">${ICON_CROWN}<span class="visually-hidden">${esc(t("Host"))}</span></span>`);
  if (seat.kind === "bot" || seat.bot_level) {
    badges.push(`<span class="badge bot">${ICON_BOT}${esc(levelName(seat.bot_level))}</span>`);
  }
  if (seat.reserved_for) badges.push(`<span class="badge">${esc(t("reserved"))}</span>`);
  if (seat.leaving) badges.push(`<span class="badge">${esc(t("leaving"))}</span>`);
  const waitingReady = s.room.status === "between_rounds" && s.room.rules?.next_round === "all_ready" && !s.match?.over;
  if (seat.ready && seat.kind === "human" && waitingReady) badges.push(`<span class="badge ok">${esc(t("ready"))}</span>`);
  badges.push(...seatExtras(seat, me));
  const dot =
    seat.kind === "human"
      ? `<span class="dot ${seat.connected ? "on" : "off"}" title="${esc(seat.connected ? t("online") : t("offline"))}"></span>`
      : "";
  const fan = me
    ? ""
    : `<div class="fan" aria-hidden="true">${Array.from({ length: Math.min(count, 14) }, backSVG).join("")}</div>`;
  const countText = seat.kind === "empty" ? "" : count === 1 ? t("1 tile") : t("%(n)s tiles", { n: count });
  const label = `${t("Seat %(n)s", { n: seat.index + 1 })}: ${seat.kind === "empty" ? t("Empty seat") : seatName(seat.index)}${turn ? ", " + t("to play") : ""}`;
  return `<section class="${classes.join(" ")}" data-seat="${seat.index}" aria-label="${esc(label)}">${chat.bubble(seat.index)}
    <div class="avatar">${clockRing(turn)}<span>${esc(seat.kind === "empty" ? "+" : seat.kind === "bot" ? String(seat.index + 1) : (seat.name || "?").slice(0, 1).toUpperCase())}</span></div>
    <div class="seat-body">
      <div class="seat-name">${dot}<span class="name">${name}</span>${badges.join("")}</div>
      ${fan}
      <div class="seat-count">${esc(countText)}</div>
      ${seatActions(seat)}
    </div>
  </section>`;
}

function clockRing(turn) {
  const s = snap();
  const r = s.round;
  if (!turn || !r) return "";
  const total = s.room.move_seconds;
  if (!total || !r.deadline) return `<svg class="ring idle" viewBox="0 0 44 44" aria-hidden="true"><circle cx="22" cy="22" r="20"/></svg>`;
  const left = Math.max(0, (Date.parse(r.deadline) - Date.now()) / 1000);
  const elapsed = Math.max(0, total - left);
  const style = `animation-duration:${total}s;animation-delay:-${elapsed.toFixed(2)}s`;
  return `<svg class="ring" viewBox="0 0 44 44" aria-hidden="true"><circle class="track" cx="22" cy="22" r="20"/><circle class="run" cx="22" cy="22" r="20" pathLength="100" data-css="${style}"/></svg>`;
}

function seatActions(seat) {
  const s = snap();
  const buttons = [];
  const host = s.you?.is_host;
  const seated = mySeat() !== null;
  if (seat.kind === "empty" && !seated && s.room.status !== "closed") {
    buttons.push(`<button type="button" class="chip" data-action="sit" data-seat-index="${seat.index}">${esc(t("Sit here"))}</button>`);
  }
  if (seat.kind === "bot" && !seated && !seat.reserved_for) {
    buttons.push(`<button type="button" class="chip" data-action="sit" data-seat-index="${seat.index}">${esc(t("Take this seat"))}</button>`);
  }
  if (host && seat.kind === "empty") {
    buttons.push(`<button type="button" class="chip" data-action="add_bot" data-seat-index="${seat.index}">${ICON_BOT}${esc(t("Add bot"))}</button>`);
  }
  if (host && seat.kind === "bot") {
    const options = ["easy", "medium", "hard"]
      .map((l) => `<option value="${l}"${l === seat.bot_level ? " selected" : ""}>${esc(levelName(l))}</option>`)
      .join("");
    buttons.push(
      `<label class="visually-hidden" for="lvl-${seat.index}">${esc(t("Bot level"))}</label>` +
        `<select id="lvl-${seat.index}" class="chip" data-bot-level="${seat.index}">${options}</select>`,
      `<button type="button" class="chip" data-action="remove_bot" data-seat-index="${seat.index}" aria-label="${esc(t("Remove bot"))}">✕</button>`,
    );
  }
  return buttons.length ? `<div class="seat-actions">${buttons.join("")}</div>` : "";
}

// --- the board (chain) ---------------------------------------------------

function renderBoard() {
  const s = snap();
  const board = $("[data-board]", root);
  const r = s.round;
  const chain = r?.chain ?? [];
  const rect = board.getBoundingClientRect();
  const aspect = rect.width > 0 && rect.height > 0 ? rect.width / rect.height : 1.6;
  const targets = state.selected ? legalEnds(state.selected) : [];
  const { svg, lay, box } = chainSVG(chain, aspect, { hot: targets, label: chainLabel(), bends: r?.layout ?? {} });
  let overlay = chain.length ? endButtons(lay, box, rect, targets) : firstTileButton(targets);
  if (state.adjusting && canAdjust()) overlay += adjustButtons(lay, box, rect, aspect);
  board.innerHTML = svg + overlay + centerMessage() + pickOff();
  applyCss(board);
}

function endButtons(lay, box, rect, targets) {
  if (!targets.length || !rect.width) return "";
  const scale = Math.min(rect.width / box.w, rect.height / box.h);
  const ox = (rect.width - box.w * scale) / 2;
  const oy = (rect.height - box.h * scale) / 2;
  return targets
    .filter((end) => end === "A" || end === "B")
    .map((end) => {
      const e = lay.ends[end];
      const p = markerPoint(e);
      const left = ox + (p.x - box.x) * scale;
      const top = oy + (p.y - box.y) * scale;
      const label = t("End %(end)s (%(n)s)", { end, n: e.value });
      return `<button type="button" class="end-target" data-end="${end}" data-css="left:${left.toFixed(1)}px;top:${top.toFixed(1)}px" aria-label="${esc(label)}" title="${esc(label)}">${end}</button>`;
    })
    .join("");
}

function firstTileButton() {
  return "";
}

function chainLabel() {
  const r = snap().round;
  if (!r || !r.chain?.length) return t("The table is empty.");
  return t("Table: %(count)s tiles, end A shows %(a)s, end B shows %(b)s.", {
    count: r.chain.length,
    a: r.ends?.A,
    b: r.ends?.B,
  });
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
        : s.you?.is_host
          ? t("Everyone is seated: press Start.")
          : t("Waiting for the host to start.");
  } else if (r && !r.result && !r.chain?.length && r.turn !== null && r.turn !== undefined) {
    text = isMyTurn() ? t("You open the round.") : t("%(name)s opens the round.", { name: seatName(r.turn) });
  }
  return text ? `<div class="board-message" role="status">${esc(text)}</div>` : "";
}

function pickOff() {
  const r = snap().round;
  if (!r?.pick_off) return "";
  const picks = legal().filter((a) => a.type === "pick");
  const title = `<p>${esc(t("Tie-break: pick a face-down tile; the lowest wins."))}</p>`;
  if (!picks.length) {
    return `<div class="pick-off">${title}<p>${esc(t("Waiting for the other picks…"))}</p></div>`;
  }
  const buttons = picks
    .map((p) => `<button type="button" class="pick" data-pick="${p.index}" aria-label="${esc(t("Face-down tile %(n)s", { n: p.index + 1 }))}">${backSVG()}</button>`)
    .join("");
  return `<div class="pick-off">${title}<div class="pick-grid">${buttons}</div></div>`;
}

// --- the hand ---------------------------------------------------------------

function renderHand() {
  const s = snap();
  const hand = $("[data-hand]", root);
  const r = s.round;
  if (mySeat() === null) {
    hand.innerHTML = `<p class="hand-note">${esc(t("You are watching. Sit on a free seat to play."))}</p>`;
    return;
  }
  const tiles = orderedHand(boot.code, r?.hand ?? []); // this browser's order (dnd.js)
  if (!tiles.length) {
    hand.innerHTML = r?.result ? "" : `<p class="hand-note">${esc(r ? "" : t("Your tiles appear here when the round is dealt."))}</p>`;
    return;
  }
  const focused = document.activeElement?.dataset?.tile;
  hand.innerHTML = tiles
    .map((tile) => {
      const ends = legalEnds(tile);
      const playable = ends.length > 0;
      const mandatory = r.mandatory_tile === tile;
      const selected = state.selected === tile;
      const [a, b] = tile.split("-");
      let label = t("tile %(a)s-%(b)s", { a, b });
      if (playable) label += ", " + t("playable");
      if (mandatory) label += ", " + t("must open with it");
      if (selected) label += ", " + t("chosen: pick an end (A or B)");
      const cls = ["hand-tile", playable ? "playable" : "", mandatory ? "mandatory" : "", selected ? "selected" : ""].join(" ");
      return `<button type="button" class="${cls}" data-tile="${tile}" aria-label="${esc(label)}" aria-pressed="${selected}"${playable ? "" : ' aria-disabled="true"'}>${tileSVG(tile)}</button>`;
    })
    .join("");
  if (focused) hand.querySelector(`[data-tile="${focused}"]`)?.focus();
}

// --- actions under the table ----------------------------------------------

function renderActions() {
  const s = snap();
  const r = s.round;
  const box = $("[data-actions]", root);
  const buttons = [];
  if (can("draw")) buttons.push(actionButton("draw", t("Draw from the boneyard"), "primary"));
  if (can("pass")) buttons.push(actionButton("pass", t("Pass"), "primary"));
  if (state.selected) buttons.push(actionButton("cancel", t("Cancel (Esc)")));
  buttons.push(...extraActions());
  let status = "";
  if (r && !r.result && s.room.status === "playing") {
    if (isMyTurn()) {
      status = state.selected
        ? t("Choose the end: A or B.")
        : can("draw")
          ? t("Nothing fits: draw a tile.")
          : can("pass")
            ? t("Nothing fits: you pass automatically.")
            : t("Your turn: choose a tile.");
    } else if (r.turn !== null && r.turn !== undefined) {
      status = t("%(name)s is playing…", { name: seatName(r.turn) });
    }
  }
  const bone = r && s.room.rules?.draw ? `<span class="boneyard" title="${esc(t("Tiles left to draw"))}">${backSVG()}<span>${esc(t("Boneyard: %(n)s", { n: r.boneyard_count ?? 0 }))}</span></span>` : "";
  // Quick chat for seated people, when someone can read it (bots never do).
  const audience = s.seats.some((x) => x.kind === "human" && x.index !== mySeat()) || (s.room.watchers ?? 0) > 0;
  const talk = mySeat() !== null && s.seats[mySeat()]?.kind === "human" && audience ? chat.panel() : "";
  box.innerHTML = `<div class="turn-status${isMyTurn() ? " mine" : ""}" role="status">${esc(status)}</div>${bone}<div class="action-buttons">${buttons.join("")}</div>${talk}`;
}

function actionButton(action, label, kind = "") {
  return `<button type="button" class="button ${kind}" data-action="${action}">${esc(label)}</button>`;
}

// --- side panel ----------------------------------------------------------------

function renderScores() {
  const s = snap();
  const m = s.match;
  const rules = s.room.rules || {};
  const box = $("[data-scores]", root);
  const sides = sideCount();
  const scores = m?.scores ?? Array(sides).fill(0);
  const target = m?.target ?? rules.target;
  const goal = m?.goal ?? rules.goal;
  const mySide = s.you?.side;
  const rows = scores
    .map((score, side) => {
      const pct = goal === "points" && target ? Math.min(100, (score / target) * 100) : goal === "best_of" && rules.rounds ? Math.min(100, (score / Math.ceil(rules.rounds / 2)) * 100) : 0;
      const you = side === mySide ? ` <span class="you">${esc(t("(you)"))}</span>` : "";
      return `<li class="score${side === mySide ? " mine" : ""}"><span class="score-name">${esc(sideName(side))}${you}</span><span class="score-value">${score}</span><span class="bar"><span data-css="width:${pct.toFixed(0)}%"></span></span></li>`;
    })
    .join("");
  let goalText = "";
  if (goal === "points") goalText = rules.scoring === "goat" ? t("Whoever reaches %(n)s points loses", { n: target }) : t("Match to %(n)s points", { n: target });
  else if (goal === "best_of") goalText = t("Best of %(n)s rounds", { n: rules.rounds });
  else if (goal === "single") goalText = t("A single round");
  const roundNo = s.round?.number;
  const bits = [
    goalText,
    m ? t("Match %(n)s", { n: m.number }) : "",
    roundNo ? t("Round %(n)s", { n: roundNo }) : "",
    s.room.move_seconds ? t("%(n)s s per move", { n: s.room.move_seconds }) : t("No move clock"),
  ].filter(Boolean);
  box.innerHTML = `<ul class="scores">${rows}</ul><p class="match-info">${bits.map(esc).join(" · ")}</p>`;
  applyCss(box);
  // Phones: the side panel is below the table, so a one-line score stays on top.
  const line = scores
    .map((score, side) => `<span class="sc${side === mySide ? " mine" : ""}"><span class="nm">${esc(sideName(side))}</span><b>${score}</b></span>`)
    .join("<i>×</i>");
  const compact =
    goal === "points" && roundNo
      ? t("Round %(round)s · to %(target)s", { round: roundNo, target })
      : roundNo
        ? t("Round %(n)s", { n: roundNo })
        : "";
  $("[data-scoreline]", root).innerHTML = `${line}<small>${esc(compact)}</small>`;
}

function renderHost() {
  const s = snap();
  const box = $("[data-host]", root);
  const parts = [];
  const status = s.room.status;
  if (s.you?.is_host && status !== "closed") {
    const b = [];
    if (status === "waiting") b.push(actionButton("start", t("Start"), "primary"));
    if (status === "waiting") b.push(...aloneButton());
    if (status === "playing" && !s.room.paused) b.push(actionButton("pause", t("Pause")));
    if (s.room.paused) b.push(actionButton("resume", t("Resume"), "primary"));
    const levels = ["easy", "medium", "hard"]
      .map((l) => `<option value="${l}"${l === state.botLevel ? " selected" : ""}>${esc(levelName(l))}</option>`)
      .join("");
    const hasEmpty = s.seats.some((x) => x.kind === "empty");
    const level = hasEmpty
      ? `<label class="inline-field">${esc(t("New bots play"))} <select data-new-bot-level>${levels}</select></label>`
      : "";
    parts.push(`<div class="host-controls"><h3>${esc(t("Host"))}</h3><div class="row">${b.join("")}</div>${level}${settingsForm()}</div>`);
  }
  if (s.room.invite_url && s.room.visibility === "private") {
    const url = new URL(s.room.invite_url, location.href).href;
    parts.push(`<div class="invite"><h3>${esc(t("Invite link"))}</h3>
      <div class="row"><input type="text" readonly value="${esc(url)}" aria-label="${esc(t("Invite link"))}" data-invite-url>
      <button type="button" class="button" data-action="copy_invite">${esc(t("Copy"))}</button></div>
      <p class="hint">${esc(t("Whoever opens this link takes the first free seat, no account needed."))}</p></div>`);
  }
  const seated = mySeat() !== null;
  if (seated) parts.push(`<div class="row">${actionButton("leave", t("Leave the seat"), "ghost small")}${annulButton()}</div>${annulNote()}`);
  box.innerHTML = parts.join("");
}

// A friendly annulment: every human agrees and the match counts for nobody.
function annulButton() {
  const s = snap();
  const me = s.seats[mySeat()];
  if (!s.match || s.match.over || !me || me.kind !== "human") return "";
  if ((s.match.annul_votes ?? []).includes(mySeat())) return "";
  return actionButton("annul", t("Propose to annul the match"), "ghost small");
}

function annulNote() {
  const s = snap();
  if (s.match?.annulled) return `<p class="hint">${esc(t("This match was annulled: it counts for nobody."))}</p>`;
  const votes = s.match?.annul_votes ?? [];
  if (!votes.length || s.match?.over) return "";
  const humans = s.seats.filter((x) => x.kind === "human").length;
  return `<p class="hint">${esc(t("Annulment: %(votes)s of %(humans)s people agree.", { votes: votes.length, humans }))}</p>`;
}

function settingsForm() {
  const s = snap();
  if (!["waiting", "between_rounds"].includes(s.room.status)) return "";
  const current = s.room.move_seconds ?? "";
  const opts = ["", 10, 15, 20, 30, 45, 60]
    .map((v) => `<option value="${v}"${String(v) === String(current) ? " selected" : ""}>${esc(v ? t("%(n)s seconds", { n: v }) : t("No clock"))}</option>`)
    .join("");
  // The rules change only before the first match or once a match is over.
  const between = !s.match || s.match.over;
  const knobs = between ? optionFields() : "";
  return `<details class="settings"><summary>${esc(t("Room settings"))}</summary>
    <form data-settings-form class="settings-form">
      <label class="inline-field">${esc(t("Move clock"))} <select name="move_seconds">${opts}</select></label>
      ${knobs}
      <button type="submit" class="button" data-action="settings">${esc(t("Save"))}</button>
    </form></details>`;
}

// --- log ----------------------------------------------------------------------

function describe(entry) {
  const name = entry.seat !== null && entry.seat !== undefined ? seatName(entry.seat) : "";
  let text;
  switch (entry.type) {
    case "play":
      text = entry.end
        ? t("%(name)s played %(tile)s on end %(end)s", { name, tile: entry.tile, end: entry.end })
        : t("%(name)s opened with %(tile)s", { name, tile: entry.tile });
      break;
    case "draw":
      text = entry.ends
        ? t("%(name)s drew a tile (no %(a)s, no %(b)s)", { name, a: entry.ends.A, b: entry.ends.B })
        : t("%(name)s drew a tile", { name });
      break;
    case "pass":
      if (entry.by === "auto") return t("%(name)s passed (automatic)", { name }); // "passou (automático)"
      text = entry.ends
        ? t("%(name)s passed (no %(a)s, no %(b)s)", { name, a: entry.ends.A, b: entry.ends.B })
        : t("%(name)s passed", { name });
      break;
    case "adjust":
      return t("%(name)s adjusted the line", { name }); // "ajustou a fila"
    case "chat":
      return `${entry.name}: ${entry.text}`;
    case "pick":
      text = t("%(name)s picked a face-down tile", { name });
      break;
    default:
      text = entry.text || entry.message || entry.type;
  }
  if (entry.by === "timeout") text += " — " + t("time ran out: automatic move");
  else if (entry.by === "substitute") text += " — " + t("played by the bot standing in");
  else if (entry.by === "auto") text += " — " + t("automatic move");
  return text;
}

function renderLog() {
  const s = snap();
  const list = $("[data-log]", root);
  const entries = withChat(s.log ?? []).slice(-60);
  list.innerHTML = entries.length
    ? entries.map((e, i) => `<li class="${i === entries.length - 1 ? "latest" : ""} kind-${esc(e.type)}">${esc(describe(e))}</li>`).join("")
    : `<li class="empty">${esc(t("Nothing played yet."))}</li>`;
  list.scrollTop = list.scrollHeight;
  const moves = entries.filter((e) => e.type !== "chat");
  const last = moves[moves.length - 1];
  $("[data-last-move]", root).textContent = last ? describe(last) : "";
  if (last && last.seq !== state.lastLogSeq) {
    state.lastLogSeq = last.seq;
    $("[data-announce]", root).textContent = describe(last);
  }
}

// --- round result ---------------------------------------------------------

function renderResult() {
  const s = snap();
  const panel = $("[data-panel=result]", root);
  const res = s.round?.result;
  const key = res ? `${s.match?.number}:${s.round.number}` : null;
  if (key !== state.resultFor) {
    state.resultFor = key;
    state.resultHidden = false;
  }
  if (walkoverPanel(panel)) return;
  // The last tile stays in view for a moment before the panel covers the table.
  const show = res && !state.resultHidden && Date.now() >= state.resultAt;
  panel.hidden = !show;
  $("[data-show-result]", root).hidden = !(res && state.resultHidden);
  if (!show) {
    panel.innerHTML = "";
    return;
  }
  const rules = s.room.rules || {};
  const m = s.match;
  let headline;
  if (m?.over) {
    headline = m.winner === null || m.winner === undefined ? t("The match is over.") : t("%(name)s won the match!", { name: sideName(m.winner) });
  } else if (res.winner === null || res.winner === undefined) {
    headline = t("Round drawn: nobody scores.");
  } else {
    headline = t("%(name)s won the round", { name: sideName(res.winner) });
  }
  const hands = s.seats
    .map((seat) => {
      const tiles = res.hands?.[seat.index] ?? [];
      const shown = tiles.length ? tiles.map((tile) => tileSVG(tile, { className: "mini" })).join("") : `<span class="out">${esc(t("no tiles left"))}</span>`;
      return `<li><span class="who">${esc(seatName(seat.index))}</span><span class="reveal">${shown}</span><span class="pips">${esc(pipsText(res.pips?.[seat.index] ?? 0))}</span></li>`;
    })
    .join("");
  const lines = explain(res, rules);
  const points = (res.points ?? [])
    .map((p, side) => `<li><span>${esc(sideName(side))}</span><strong>+${p}</strong></li>`)
    .join("");
  panel.innerHTML = `<div class="result-card" role="dialog" aria-labelledby="result-title">
    <h2 id="result-title">${esc(headline)}</h2>
    <p class="reason">${esc(res.reason === "domino" ? t("Domino!") : t("Blocked game"))}</p>
    <ul class="reveal-list">${hands}</ul>
    <div class="explain">${lines.map((l) => `<p>${esc(l)}</p>`).join("")}</div>
    <ul class="points">${points}</ul>
    ${ratingLines()}${replayLink()}
    <div class="row result-actions">${resultButtons()}</div>
  </div>`;
}

// A finished rated match: each player's rating before and after, and the XP.
function ratingLines() {
  const m = snap().match;
  const changes = m?.over ? m.rating ?? [] : [];
  if (!changes.length) return "";
  const rows = changes
    .map((c) => `<li><span>${esc(seatName(c.seat))}</span><span>${esc(t("Rating %(before)s → %(after)s, +%(xp)s XP", c))}</span></li>`)
    .join("");
  return `<ul class="rating-changes" data-rating-changes>${rows}</ul>`;
}

// The finished round's replay page (every hand face up, step by step).
function replayLink() {
  const s = snap();
  if (!s.round?.over) return "";
  const url = `/r/${encodeURIComponent(s.room.code)}/rounds/${s.round.number}/?match=${s.match?.number ?? ""}`;
  return `<p class="replay-link"><a href="${esc(url)}" data-replay-link>${esc(t("Watch the replay of this round"))}</a></p>`;
}

function pipsText(n) {
  return n === 1 ? t("1 pip") : t("%(n)s pips", { n });
}

function explain(res, rules) {
  const lines = [];
  const sides = sideCount();
  const pips = res.pips ?? [];
  if (res.reason === "domino" && res.last_player !== null && res.last_player !== undefined) {
    lines.push(t("%(name)s played their last tile.", { name: seatName(res.last_player) }));
  } else if (res.reason === "blocked") {
    lines.push(t("Nobody could play: the lowest sum wins."));
    const counted = res.counted ?? [];
    if (counted.length) {
      lines.push(counted.map((c, side) => `${sideName(side)}: ${c}`).join(" · "));
      const low = Math.min(...counted);
      if (counted.filter((c) => c === low).length > 1) {
        lines.push(
          {
            last_player_loses: t("Tie: the side that placed the last tile loses."),
            draw: t("Tie: nobody scores."),
            opener_wins: t("Tie: the side that opened the round wins."),
            tiebreak: t("Tie: broken by picking face-down tiles."),
          }[rules.blocked_tie] || "",
        );
      }
    }
  }
  const w = res.winner;
  if (w === null || w === undefined) return lines.filter(Boolean);
  const seatsOf = (side) => sideSeats(side).filter((i) => i < pips.length);
  const all = [...Array(pips.length).keys()];
  const terms = (list) => list.map((i) => `${pips[i]} (${seatName(i)})`).join(" + ");
  const pts = res.points?.[w] ?? 0;
  if (rules.scoring === "series") {
    lines.push(t("The round winner scores 1 point."));
  } else if (rules.scoring === "goat") {
    lines.push(t("Penalty scoring: every other side scores the pips left in its own hands."));
  } else if (res.reason === "blocked" && rules.blocked_points === "difference") {
    const other = (res.counted ?? []).find((_, side) => side !== w) ?? 0;
    lines.push(t("%(name)s scores the difference: %(a)s − %(b)s = %(n)s", { name: sideName(w), a: other, b: res.counted?.[w] ?? 0, n: pts }));
  } else if (rules.scoring === "all_hands") {
    lines.push(t("%(name)s scores the pips left in every hand: %(terms)s = %(n)s", { name: sideName(w), terms: terms(all), n: pts }));
  } else {
    const opp = all.filter((i) => !seatsOf(w).includes(i));
    lines.push(t("%(name)s scores the pips left in the opponents' hands: %(terms)s = %(n)s", { name: sideName(w), terms: terms(opp), n: pts }));
  }
  if (sides > 2) lines.push("");
  return lines.filter(Boolean);
}

function resultButtons() {
  const s = snap();
  const rules = s.room.rules || {};
  const b = [];
  const host = s.you?.is_host;
  if (s.match?.over && rules.goal === "single") {
    b.push(...duelButtons()); // both players accept; alone: against the computer
  } else if (s.match?.over) {
    if (host) b.push(actionButton("new_match", t("New match"), "primary"));
    else b.push(`<p class="hint">${esc(t("Waiting for the host to start a new match."))}</p>`);
    b.push(...aloneButton());
  } else if (s.room.status === "between_rounds") {
    if (rules.next_round === "all_ready") {
      const me = s.seats[mySeat()];
      if (me && me.kind === "human" && !me.ready) b.push(actionButton("ready", t("Ready"), "primary"));
      else b.push(`<p class="hint">${esc(t("Waiting for everyone to be ready…"))}</p>`);
      b.push(readyCountdown()); // arena: confirm within 60 s or lose by W.O.
    } else if (host) {
      b.push(actionButton("next_round", t("Next round"), "primary"));
    } else {
      b.push(`<p class="hint">${esc(t("Waiting for the host to deal the next round."))}</p>`);
    }
  }
  b.push(actionButton("hide_result", t("See the table"), "ghost"));
  return b.join("");
}

// ---------------------------------------------------------------------------
// Notices

function banner(text, kind = "warn") {
  const el = $("[data-banner]", root);
  el.hidden = !text;
  el.className = `banner ${kind}`;
  el.textContent = text || "";
}

let toastTimer;
function toast(text, kind = "info") {
  const el = $("[data-toast]", root);
  el.textContent = text;
  el.className = `toast ${kind} show`;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => el.classList.remove("show"), 3500);
}

function showReplaced() {
  state.replaced = true;
  const el = $("[data-replaced]", root);
  el.hidden = false;
  banner(null);
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
    state.selected = null; // a second click cancels
    render();
    return;
  }
  if (ends.length === 1) {
    play(tile, ends[0]);
    return;
  }
  state.selected = tile;
  render();
  $("[data-end]", root)?.focus();
}

function play(tile, end) {
  const fields = { tile };
  if (end) fields.end = end;
  state.selected = null;
  if (send("play", fields)) state.sent = snap().version;
  render();
}

function chooseEnd(end) {
  const tile = state.selected;
  if (!tile || !legalEnds(tile).includes(end)) return;
  play(tile, end);
  $("[data-hand] [data-tile]", root)?.focus();
}

function cancel() {
  if (!state.selected) return;
  const tile = state.selected;
  state.selected = null;
  render();
  $(`[data-tile="${tile}"]`, root)?.focus();
}

function onClick(event) {
  const el = event.target.closest("[data-tile], [data-end], [data-action], [data-pick], [data-show-result], [data-chat], [data-bend]");
  if (!el || !root.contains(el)) return;
  if (el.dataset.chat) return chat.say(el.dataset.chat, rerenderChat), renderActions();
  if (el.dataset.bend) return bendAt(Number(el.dataset.at), el.dataset.bend);
  if (el.dataset.tile) return chooseTile(el.dataset.tile);
  if (el.dataset.end) return chooseEnd(el.dataset.end);
  if (el.dataset.pick !== undefined) return send("pick", { index: Number(el.dataset.pick) });
  if (el.hasAttribute("data-show-result")) {
    state.resultHidden = false;
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
      state.resultHidden = true;
      return renderResult();
    case "copy_invite":
      return copyInvite();
    case "sit":
      return send("sit", { seat: index });
    case "add_bot":
      return send("add_bot", { seat: index, level: state.botLevel });
    case "remove_bot":
      return send("remove_bot", { seat: index });
    case "settings":
      return; // handled by the form's submit
    case "mute":
      chat.toggleMute(snap().seats[index]);
      return render();
    case "chat_toggle":
      chat.toggle();
      return renderActions();
    case "adjust_mode":
      state.adjusting = !state.adjusting;
      return render();
    case "restart_alone": // duelo: the other seat is free; a medium bot takes it
      return send(snap().room.status === "waiting" ? "start" : "new_match", { alone: true });
    case "draw":
    case "pass":
      if (state.sent !== null) return;
      if (send(action)) state.sent = snap().version;
      return;
    default:
      if (action) send(action);
  }
}

function onChange(event) {
  const el = event.target;
  if (el.matches("[data-bot-level]")) send("bot_level", { seat: Number(el.dataset.botLevel), level: el.value });
  if (el.matches("[data-new-bot-level]")) state.botLevel = el.value;
  if (el.matches("[data-hints-toggle]")) {
    state.hints = el.checked;
    localStorage.setItem("domino.hints", el.checked ? "on" : "off");
    if (!el.checked) hideHint();
    render(); // the raised playable tiles follow the same switch
  }
}

function optionFields() {
  const rules = snap().room.rules || {};
  const allowed = boot.options || [];
  const yesNo = (name, value) =>
    `<select name="${name}"><option value="1"${value ? " selected" : ""}>${esc(t("yes"))}</option><option value="0"${value ? "" : " selected"}>${esc(t("no"))}</option></select>`;
  const fields = {
    seats: () => `<select name="seats">${[2, 3, 4].map((n) => `<option${n === rules.seats ? " selected" : ""}>${n}</option>`).join("")}</select>`,
    partnership: () => yesNo("partnership", rules.partnership),
    draw: () => yesNo("draw", rules.draw),
    hand_size: () => `<input type="number" name="hand_size" min="2" max="14" value="${rules.hand_size}">`,
    target: () => `<input type="number" name="target" min="50" max="300" value="${rules.target ?? ""}">`,
    scoring: () =>
      `<select name="scoring">${["opponents", "goat"].map((v) => `<option value="${v}"${v === rules.scoring ? " selected" : ""}>${esc(v === "goat" ? t("penalty (goat)") : t("opponents' pips"))}</option>`).join("")}</select>`,
  };
  const labels = {
    seats: t("Seats"),
    partnership: t("Pairs"),
    draw: t("Boneyard"),
    hand_size: t("Tiles in each hand"),
    target: t("Points to end the match"),
    scoring: t("Scoring"),
  };
  return allowed
    .filter((name) => fields[name])
    .map((name) => `<label class="inline-field">${esc(labels[name])} ${fields[name]()}</label>`)
    .join("");
}

function onSubmit(event) {
  const form = event.target.closest("[data-settings-form]");
  if (!form) return;
  event.preventDefault();
  const value = form.elements.move_seconds.value;
  const fields = { move_seconds: value ? Number(value) : null };
  const options = {};
  for (const name of boot.options || []) {
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
  if (state.selected && (key === "a" || key === "A" || key === "b" || key === "B")) {
    event.preventDefault();
    chooseEnd(key.toUpperCase());
    return;
  }
  const tile = event.target.closest?.("[data-tile]");
  if (tile && ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"].includes(key)) {
    event.preventDefault();
    const all = [...root.querySelectorAll("[data-hand] [data-tile]")];
    let i = all.indexOf(tile);
    if (key === "Home") i = 0;
    else if (key === "End") i = all.length - 1;
    else i = (i + (key === "ArrowLeft" || key === "ArrowUp" ? -1 : 1) + all.length) % all.length;
    all[i]?.focus();
    all[i]?.scrollIntoView({ block: "nearest", inline: "nearest" });
  }
}

async function copyInvite() {
  const input = $("[data-invite-url]", root);
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
  const hint = $("[data-hint]", root);
  hint.textContent = t("%(n)s: %(out)s of 7 on the table, %(mine)s in your hand, %(left)s unseen", {
    n,
    out: onTable,
    mine,
    left: 7 - onTable - mine,
  });
  const box = $("[data-board]", root).getBoundingClientRect();
  hint.style.left = `${Math.min(event.clientX - box.left + 12, box.width - 200)}px`;
  hint.style.top = `${event.clientY - box.top + 14}px`;
  hint.hidden = false;
}

function hideHint() {
  const hint = $("[data-hint]", root);
  if (hint) hint.hidden = true;
}

// ---------------------------------------------------------------------------

function tick() {
  // Keeps clock rings honest after the tab was in the background.
  if (document.visibilityState === "visible" && snap()?.round?.deadline) renderSeats();
}

ready(() => {
  root = document.querySelector("[data-table]");
  if (!root) return;
  boot = JSON.parse(document.getElementById("table-boot").textContent);
  t = makeT(JSON.parse(document.getElementById("table-strings").textContent));
  boot.errors = boot.errors || {};
  root.addEventListener("click", onClick);
  root.addEventListener("change", onChange);
  root.addEventListener("submit", onSubmit);
  document.addEventListener("keydown", onKey);
  root.addEventListener("pointermove", onHover);
  root.addEventListener("pointerleave", hideHint);
  startExtras();
  const toggle = $("[data-hints-toggle]", root);
  if (toggle) toggle.checked = state.hints;
  new ResizeObserver(() => snap() && renderBoard()).observe($("[data-board]", root));
  document.addEventListener("visibilitychange", tick);
  setInterval(() => state.socket?.readyState === WebSocket.OPEN && state.socket.send('{"type":"ping"}'), 25000);
  if (boot.snapshot) onMessage({ type: "room", ...boot.snapshot });
  connect();
});

// ---------------------------------------------------------------------------
// Turning the line, the duelo's next game, the arena's deadline, the last tile
// in view, watchers, quick chat (chat.js), drag and drop (dnd.js), long press.

function startExtras() {
  chat = createChat({ t, phrases: boot.chat || [], send, esc });
  initDrag(root, {
    ends: (tile) => legalEnds(tile),
    start(tile) {
      if (!legalEnds(tile).length || state.sent !== null) return;
      state.selected = tile; // the fitting ends light up while dragging
      renderBoard();
    },
    play(tile, end) {
      if (state.sent !== null || !legalEnds(tile).includes(end)) {
        state.selected = null;
        return render();
      }
      play(tile, end);
    },
    reorder(tiles) {
      saveHandOrder(boot.code, tiles);
      state.selected = null;
      render();
    },
    cancel() {
      state.selected = null;
      render();
    },
  });
  // Right-click cancels a chosen tile (seed 002).
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
}

// A round that ends while the page is open: the last tile stays in view for
// about 1.5 s before the result panel covers the table (site.md).
function holdResult(before, after) {
  if (after?.result && before && !before.result && before.number === after.number) {
    state.resultAt = Date.now() + 1500;
    setTimeout(() => snap() && renderResult(), 1550);
  }
}

function renderTitleExtras() {
  const s = snap();
  const watching = $("[data-watchers]", root);
  if (watching) {
    const n = s.room.watchers ?? 0;
    watching.hidden = n < 1;
    watching.textContent = n === 1 ? t("1 watching") : t("%(n)s watching", { n });
  }
  const rules = $("[data-rules-link]", root);
  if (rules) rules.href = `/regras/${encodeURIComponent(s.room.preset)}/`;
}

function seatExtras(seat, me) {
  const s = snap();
  const out = [];
  if (s.match?.over && s.room.rules?.goal === "single" && seat.kind === "human" && seat.ready) {
    out.push(`<span class="badge ok" data-accepted>${esc(t("wants a new game"))}</span>`);
  }
  if (seat.kind === "human" && !me && seat.name) out.push(chat.muteButton(seat));
  return out;
}

// --- turning the line ("ajustar a fila") ----------------------------------------

function canAdjust() {
  const s = snap();
  const r = s.round;
  if (!isMyTurn() || !r || (r.chain?.length ?? 0) < 2 || s.room.paused || r.pick_off) return false;
  return bendable("A") !== null || bendable("B") !== null;
}

// The chain index an adjustment at this end bends (its outermost tile), or null
// where the line may not bend: the first tile, a double, or the tile after one.
function bendable(end) {
  const chain = snap().round.chain;
  const at = endLinks(chain)[end];
  if (!at) return null;
  const inner = [...chain.keys()].filter((i) => i > 0 && i < at && chain[i].end === chain[at].end).pop() ?? 0;
  return isDbl(chain[at].tile) || isDbl(chain[inner].tile) ? null : at;
}

function extraActions() {
  if (!canAdjust()) {
    state.adjusting = false;
    return [];
  }
  const label = state.adjusting ? t("Done adjusting") : t("Adjust the line");
  return [`<button type="button" class="button ghost small" data-action="adjust_mode" aria-pressed="${state.adjusting}">${esc(label)}</button>`];
}

// Declarations, not consts: ready() above may render before this point of the module runs.
function isDbl(tile) {
  return tile.split("-")[0] === tile.split("-")[1];
}

function arrow([dx, dy]) {
  return { "1,0": "→", "-1,0": "←", "0,1": "↓", "0,-1": "↑" }[`${dx + 0},${dy + 0}`] ?? "•";
}

// At each end, three buttons bend its outermost tile: to the left, straight on,
// to the right of the way the line runs there (never the first tile, a double
// or the tile after one: the server refuses those too).
function adjustButtons(lay, box, rect, aspect) {
  if (!rect.width) return "";
  const r = snap().round;
  const chain = r.chain;
  const layout = r.layout ?? {};
  const scale = Math.min(rect.width / box.w, rect.height / box.h);
  const ox = (rect.width - box.w * scale) / 2;
  const oy = (rect.height - box.h * scale) / 2;
  return ["A", "B"]
    .map((end) => {
      const at = bendable(end);
      if (at === null) return "";
      // The way the line runs into that tile: the layout without its bend.
      const { [String(at)]: _, ...others } = layout;
      const tip = chainSVG(chain, aspect, { bends: others }).lay.ends[end];
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
      const css = `left:${cx.toFixed(1)}px;top:${cy.toFixed(1)}px`;
      const labels = {
        left: t("Bend the line to the left at end %(end)s", { end }),
        straight: t("Straighten the line at end %(end)s", { end }),
        right: t("Bend the line to the right at end %(end)s", { end }),
      };
      const buttons = ["left", "straight", "right"]
        .map((bend) => `<button type="button" class="bend${bend === current ? " on" : ""}" data-bend="${bend}" data-at="${at}" aria-pressed="${bend === current}" aria-label="${esc(labels[bend])}" title="${esc(labels[bend])}">${arrow(dirs[bend])}</button>`)
        .join("");
      return `<div class="adjust-ctl" data-adjust="${end}" data-css="${css}">${buttons}</div>`;
    })
    .join("");
}

function bendAt(at, bend) {
  if (state.sent !== null) return;
  if (send("adjust", { at, bend })) state.sent = snap().version;
}

// --- the duelo's next game and the arena's deadline ----------------------------

function duelButtons() {
  const s = snap();
  const me = s.seats[mySeat()];
  const other = s.seats.find((x) => x.index !== mySeat());
  const b = [];
  if (me?.kind === "human") {
    if (!me.ready) b.push(actionButton("new_match", t("New match"), "primary"));
    else if (other?.kind === "human") b.push(`<p class="hint" data-pending>${esc(t("Waiting for %(name)s to accept…", { name: seatName(other.index) }))}</p>`);
    if (other?.kind === "human" && other.ready && !me.ready) {
      b.push(`<p class="hint" data-pending>${esc(t("%(name)s wants a new game.", { name: seatName(other.index) }))}</p>`);
    }
  }
  b.push(...aloneButton());
  return b;
}

// While the second seat is free the creator may restart alone against the computer.
function aloneButton() {
  const s = snap();
  const other = s.seats.length === 2 && mySeat() !== null ? s.seats[1 - mySeat()] : null;
  if (!s.you?.is_host || other?.kind !== "empty" || s.room.status === "playing") return [];
  return [actionButton("restart_alone", t("Play against the computer"))];
}

function readyCountdown() {
  const r = snap().round;
  if (r?.due_kind !== "walkover" || !r.deadline) return "";
  return `<p class="countdown" data-deadline="${esc(r.deadline)}">${esc(countdownText(r.deadline))}</p>`;
}

function countdownText(deadline) {
  const left = Math.max(0, Math.ceil((Date.parse(deadline) - Date.now()) / 1000));
  return t("Confirm within %(n)s s, or lose the series by walkover (W.O.).", { n: left });
}

function tickCountdowns() {
  for (const el of root.querySelectorAll("[data-deadline]")) el.textContent = countdownText(el.dataset.deadline);
}

// A series ended by walkover (W.O.): said so, with what comes next.
function walkoverPanel(panel) {
  const m = snap().match;
  if (!m?.over || m.ended_by !== "walkover") return false;
  const key = `wo:${m.number}`;
  if (state.resultFor !== key) {
    state.resultFor = key;
    state.resultHidden = false;
  }
  panel.hidden = state.resultHidden;
  $("[data-show-result]", root).hidden = !state.resultHidden;
  const headline =
    m.winner === null || m.winner === undefined
      ? t("The series ended by walkover (W.O.).")
      : t("%(name)s wins the series by walkover (W.O.).", { name: sideName(m.winner) });
  panel.innerHTML = `<div class="result-card" role="dialog" aria-labelledby="result-title" data-walkover>
    <h2 id="result-title">${esc(headline)}</h2><p class="reason">${esc(t("Walkover"))}</p>
    <div class="row result-actions">${resultButtons()}</div></div>`;
  return true;
}

// --- quick chat in the log -------------------------------------------------------

function chatPlace() {
  const s = snap();
  const log = s.log ?? [];
  return { after: log.length ? log[log.length - 1].seq : 0, round: `${s.match?.number}:${s.round?.number}` };
}

function withChat(log) {
  const s = snap();
  const here = `${s.match?.number}:${s.round?.number}`;
  const out = [...log];
  for (const line of chat.logLines()) {
    if (line.round !== here) continue;
    let i = out.length;
    while (i > 0 && out[i - 1].type !== "chat" && (out[i - 1].seq ?? 0) > line.after) i -= 1;
    out.splice(i, 0, { type: "chat", seq: line.after, name: line.name, text: line.text });
  }
  return out;
}

function rerenderChat() {
  if (!snap()) return;
  renderSeats();
  renderLog();
}
