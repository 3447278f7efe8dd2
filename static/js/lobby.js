// The lobby: the public room list, live over ws/lobby/, and the create form's
// preset-dependent options.

import { html, nothing, render } from "./lit.js";
import { makeT, ready } from "./util.js";

let t;
let boot;
let drawn = false;

function statusLabel(room) {
  if (room.paused) return t("paused");
  return { waiting: t("waiting for players"), playing: t("playing"), between_rounds: t("between rounds") }[room.status] || room.status;
}

function roomRow(room) {
  const preset = boot.presets[room.preset]?.label ?? room.preset;
  const people = t("%(humans)s people, %(bots)s bots", { humans: room.humans, bots: room.bots });
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

// A seat a person can take: empty, or a bot's.
const sittable = (room) => room.humans < room.seats;

// The creator's choice (the portal's marker): competitive (⚔) or friendly.
function kindTag(room) {
  return room.competitive === false
    ? html`<span class="tag friendly" data-kind="friendly" title=${t("Friendly table: never rated.")}>${t("Friendly")}</span>`
    : html`<span class="tag competitive" data-kind="competitive" title=${t("Competitive table: rated when every seat is an account and no two share an address.")}>⚔ ${t("Competitive")}</span>`;
}

const loggedIn = () => document.querySelector("[data-rooms]")?.hasAttribute("data-logged-in");

function renderRooms(rooms) {
  const box = document.querySelector("[data-rooms]");
  if (!box) return;
  if (!drawn) box.replaceChildren(); // the server's rows (rooms/_room_rows.html) give way
  drawn = true;
  render(
    rooms.length
      ? html`<ul class="room-list">${rooms.map(roomRow)}</ul>`
      : html`<p class="empty" data-empty="rooms">${t("No open rooms right now.")}</p>`,
    box,
  );
}

function connect(retries = 0) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/ws/lobby/`);
  const live = document.querySelector("[data-live]");
  ws.addEventListener("open", () => {
    retries = 0;
    live?.classList.add("on");
  });
  ws.addEventListener("message", (event) => {
    try {
      const msg = JSON.parse(event.data);
      if (msg.type === "rooms") renderRooms(msg.rooms || []);
    } catch {
      /* ignore a malformed frame */
    }
  });
  ws.addEventListener("close", () => {
    live?.classList.remove("on");
    setTimeout(() => connect(retries + 1), Math.min(1000 * 2 ** retries, 15000));
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
    renderRooms(boot.rooms || []);
    connect();
  }
});
