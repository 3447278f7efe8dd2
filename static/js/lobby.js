// The lobby: one filtered page of the public room list, live over ws/lobby/
// (the server sends the page, then only what changes on it: docs/protocol.md),
// and the create form's preset-dependent options.

import { html, nothing, render } from "./lit.js";
import { openSocket } from "./socket_client.js";
import { makeT, ngettext, ready } from "./util.js";

let t;
let boot;
let drawn = false;
let socket = null;
// What this page looks at (the server's `view`), its rows, and the paging.
let view;
let rows = [];
let more = false;
let nextCursor = null;
const cursors = []; // the cursors of the pages before this one (for "previous")

function statusLabel(room) {
  if (room.paused) return t("paused");
  return { waiting: t("waiting for players"), playing: t("playing"), between_rounds: t("between rounds") }[room.status] || room.status;
}

function roomRow(room) {
  const preset = boot.presets[room.preset]?.label ?? room.preset;
  const people = peopleText(room);
  const clock = room.move_seconds ? t("%(n)s s a move", { n: room.move_seconds }) : t("no clock");
  const pips = Array.from({ length: room.seats }, (_, i) => {
    const kind = i < room.humans ? "human" : i < room.humans + room.bots ? "bot" : "free";
    return html`<span class="seat-pip ${kind}"></span>`;
  });
  // "Assistir" on every row for logged-in people (docs/site.md); "Sentar" while a seat
  // is free or held by a bot (a bot's seat is taken, or reserved during a round).
  const sit = sittable(room) ? html`<a class="button small" href="${room.url}?sit=1" data-action="sit">${t("Sit")}</a>` : nothing;
  const watch = loggedIn() ? html`<a class="button small ghost" href=${room.url} data-action="watch">${t("Watch")}</a>` : nothing;
  const rated = room.rated
    ? html`<span class="tag rated" data-rated title=${t("Rated table: the match moves ratings and experience.")}>${t("Rated")}</span>`
    : nothing;
  return html`<li class="room-row" data-room=${room.code}>
    <div class="room-main"><a class="room-name" href=${room.url}>${room.name}</a><span class="room-preset">${preset}</span>${kindTag(room)}${rated}</div>
    <div class="room-facts">
      <span class="seats-taken" title=${people}><span class="seat-pips" aria-hidden="true">${pips}</span>${t("%(taken)s/%(total)s seats", { taken: room.seats_taken, total: room.seats })} <span class="muted">(${people})</span></span>
      <span>${clock}</span>
      <span class="status status-${room.status}">${statusLabel(room)}</span>
    </div>
    <div class="row-actions">${sit}${watch}</div>
  </li>`;
}

// Who sits at the table, each count in its language's plural ("1 pessoa, 0 bots",
// "2 pessoas, 1 bot"): the server's rows say the same (rooms/views.py).
export function peopleText(room) {
  return `${ngettext("%(n)s person", "%(n)s people", room.humans)}, ${ngettext("%(n)s bot", "%(n)s bots", room.bots)}`;
}

// A seat a person can take: empty, or a bot's.
const sittable = (room) => room.humans < room.seats;

// The creator's choice (the portal's marker): competitive (⚔) or friendly.
function kindTag(room) {
  return room.competitive === false
    ? html`<span class="tag friendly" data-kind="friendly" title=${t("Friendly table: never rated.")}>${t("Friendly")}</span>`
    : html`<span class="tag competitive" data-kind="competitive" title=${t("Competitive table: rated when every seat is an account and no two share an address.")}>⚔ ${t("Competitive")}</span>`;
}

const loggedIn = () => document.querySelector("[data-rooms]")?.hasAttribute("data-logged-in");

function renderRooms() {
  const box = document.querySelector("[data-rooms]");
  if (!box) return;
  if (!drawn) box.replaceChildren(); // the server's rows (lobby/_room_rows.html) give way
  drawn = true;
  render(
    rows.length
      ? html`<ul class="room-list">${rows.map(roomRow)}</ul>`
      : html`<p class="empty" data-empty="rooms">${t("No open rooms right now.")}</p>`,
    box,
  );
  renderPages();
}

function renderPages() {
  const nav = document.querySelector("[data-pages]");
  if (!nav) return;
  if (!nav.dataset.drawn) nav.replaceChildren(); // the server's links give way
  nav.dataset.drawn = "1";
  const previous = cursors.length
    ? html`<button type="button" class="button small ghost" data-page="previous" @click=${previousPage}>${t("Previous page")}</button>`
    : nothing;
  const next = more
    ? html`<button type="button" class="button small ghost" data-page="next" @click=${nextPage}>${t("Next page")}</button>`
    : nothing;
  render(html`${previous}${next}`, nav);
}

// --- the view: filter and page ----------------------------------------------

const sameView = (a, b) =>
  ["preset", "move_seconds", "free", "rated", "cursor", "page_size"].every((k) => (a?.[k] ?? null) === (b?.[k] ?? null));

function filterOf(form) {
  const clock = form.elements.move_seconds.value;
  return {
    preset: form.elements.preset.value || null,
    move_seconds: clock === "" ? null : Number(clock),
    free: form.elements.free.checked,
    rated: form.elements.rated.checked,
  };
}

function ask(next) {
  view = { ...view, ...next };
  socket?.send({ type: "view", ...view }); // closed: the next open says it
  // The address says the view: a reload (or a link) opens the same page.
  const query = new URLSearchParams();
  if (view.preset) query.set("preset", view.preset);
  if (view.move_seconds !== null) query.set("move_seconds", view.move_seconds);
  if (view.free) query.set("free", "1");
  if (view.rated) query.set("rated", "1");
  if (view.cursor) query.set("cursor", view.cursor);
  if (view.page_size !== boot.firstPageSize) query.set("page_size", view.page_size);
  history.replaceState(null, "", query.size ? `?${query}` : location.pathname);
}

function nextPage() {
  if (!more || !nextCursor) return;
  cursors.push(view.cursor);
  ask({ cursor: nextCursor });
}

function previousPage() {
  if (!cursors.length) return;
  ask({ cursor: cursors.pop() });
}

function showRooms(msg) {
  if (!sameView(msg.view, view)) return; // the answer to a view this page left already
  rows = msg.rooms || [];
  more = !!msg.more;
  nextCursor = msg.next ?? null;
  renderRooms();
}

// `rooms_changed`: rows that came onto the page (`added`, each at its place on the
// page, `added_at`), rows that changed, codes that left. Rooms never change places
// among themselves, so dropping and then inserting in turn gives the page.
function changeRooms(msg) {
  const removed = new Set(msg.removed || []);
  const changed = new Map((msg.changed || []).map((r) => [r.code, r]));
  rows = rows.filter((r) => !removed.has(r.code)).map((r) => changed.get(r.code) ?? r);
  (msg.added || []).forEach((row, i) => rows.splice(msg.added_at?.[i] ?? rows.length, 0, row));
  more = !!msg.more;
  nextCursor = msg.next ?? null;
  renderRooms();
}

// The live list (socket_client.js: its backoff and close codes). Saying the view
// on every open (even the first page of everything) asks for the changes alone
// (`rooms_changed`) instead of the page whole at every change.
function connect() {
  const live = document.querySelector("[data-live]");
  socket = openSocket("/ws/lobby/", {
    onOpen: () => socket.send({ type: "view", ...view }),
    onMessage: (msg) => {
      if (msg.type === "rooms") showRooms(msg);
      else if (msg.type === "rooms_changed") changeRooms(msg);
    },
    onState: (name) => live?.classList.toggle("on", name === "open"),
  });
}

function setUpFilter() {
  const form = document.querySelector("[data-form=room-filter]");
  if (!form) return;
  form.querySelector("[data-action=filter]")?.setAttribute("hidden", ""); // live: no button needed
  const changed = () => {
    cursors.length = 0;
    ask({ ...filterOf(form), cursor: null });
  };
  form.addEventListener("change", changed);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    changed();
  });
}

// --- create form -------------------------------------------------------------

function syncOptions(form) {
  const key = form.elements.preset.value;
  const info = boot.presets[key];
  if (!info) return;
  const allowed = new Set(info.options);
  for (const field of form.querySelectorAll("[data-option]")) {
    const on = allowed.has(field.dataset.option);
    field.hidden = !on;
    for (const input of field.querySelectorAll("input, select")) input.disabled = !on;
  }
  form.querySelector("[data-no-options]").hidden = allowed.size > 0;
  const summary = form.querySelector("[data-preset-summary]");
  if (summary) summary.textContent = info.summary;
  const rules = form.querySelector("[data-rules-link]");
  if (rules) rules.href = `/regras/${encodeURIComponent(key)}/`;
  const d = info.defaults;
  if (form.elements.target) form.elements.target.placeholder = d.target ?? "";
  if (form.elements.hand_size) form.elements.hand_size.placeholder = d.hand_size ?? "";
}

ready(() => {
  boot = JSON.parse(document.getElementById("lobby-boot").textContent);
  t = makeT(boot.strings);
  const form = document.querySelector("[data-form=create-room]");
  if (form) {
    form.elements.preset.addEventListener("change", () => syncOptions(form));
    syncOptions(form);
  }
  if (document.querySelector("[data-rooms]")) {
    view = { ...boot.view };
    // A page opened past the first (a link with a cursor) goes back to the first.
    if (view.cursor) cursors.push(null);
    showRooms({ view, rooms: boot.rooms || [], more: boot.more, next: boot.next });
    setUpFilter();
    connect();
  }
});
