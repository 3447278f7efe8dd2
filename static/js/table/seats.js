// The seats around the felt: name, badges, the face-down fan, the move clock
// ring, and the seat's buttons (sit, bots for the host, mute).

import { css, html, keyed, nothing, render, unsafeHTML } from "../lit.js";
import { backSVG } from "../tiles.js";
import { ngettext } from "../util.js";
import { BOT_LEVELS, levelName, mySeat, page, position, seatName, snap, t } from "./state.js";
import { autoBadge } from "./table-rules.js";

export const ICON_CROWN = html`<svg class="icon crown" viewBox="0 0 24 24" aria-hidden="true"><path d="M3 18h18l-1.5-10-4.5 4-3-7-3 7-4.5-4z"/></svg>`;
export const ICON_BOT = html`<svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><rect x="4" y="8" width="16" height="12" rx="3"/><circle cx="9" cy="14" r="1.6" class="cut"/><circle cx="15" cy="14" r="1.6" class="cut"/><path d="M12 3v5" stroke-width="2"/></svg>`;
const BACK = backSVG();
let ringEpoch = 0; // a new one draws the clock rings afresh (restarts their animation)
let ring = { key: null, style: "" };

// Keeps clock rings honest after the tab was in the background.
export function redrawRings() {
  ringEpoch += 1;
  renderSeats();
}

// A seat's tiles in words ("0 pedras" before the deal, "1 pedra"); nothing for an empty seat.
export function tileCountText(seat) {
  return seat.kind === "empty" ? "" : ngettext("%(n)s tile", "%(n)s tiles", seat.tile_count ?? 0);
}

export function renderSeats() {
  const s = snap();
  const at = new Map(s.seats.map((seat) => [position(seat.index), seat]));
  for (const slot of page.root.querySelectorAll("[data-slot]")) {
    const seat = at.get(slot.dataset.slot);
    render(seat ? seatView(seat) : nothing, slot);
  }
}

function seatView(seat) {
  const s = snap();
  const r = s.round;
  const isHost = s.room.host_seat === seat.index;
  const turn = r && !r.result && r.turn === seat.index;
  const me = seat.index === mySeat();
  const classes = ["seat", `kind-${seat.kind}`];
  if (turn) classes.push("is-turn");
  if (me) classes.push("is-me");
  if (seat.connected === false && seat.kind === "human") classes.push("is-away");
  const name = seat.kind === "empty" ? t("Empty seat") : seatName(seat.index);
  const count = seat.tile_count ?? 0;
  const badges = [];
  if (isHost) badges.push(html`<span class="badge host" title=${t("Host")}>${ICON_CROWN}<span class="visually-hidden">${t("Host")}</span></span>`);
  if (seat.kind === "bot" || seat.bot_level) {
    badges.push(html`<span class="badge bot">${ICON_BOT}${levelName(seat.bot_level)}</span>`);
  }
  if (seat.reserved_for) badges.push(html`<span class="badge">${t("reserved")}</span>`);
  if (seat.leaving) badges.push(html`<span class="badge">${t("leaving")}</span>`);
  const waitingReady = s.room.status === "between_rounds" && s.room.rules?.next_round === "all_ready" && !s.match?.over;
  if (seat.ready && seat.kind === "human" && waitingReady) badges.push(html`<span class="badge ok">${t("ready")}</span>`);
  badges.push(autoBadge(seat), ...seatExtras(seat, me));
  const dot =
    seat.kind === "human"
      ? html`<span class="dot ${seat.connected ? "on" : "off"}" title=${seat.connected ? t("online") : t("offline")}></span>`
      : nothing;
  const fan = me ? nothing : html`<div class="fan" aria-hidden="true">${unsafeHTML(BACK.repeat(Math.min(count, 14)))}</div>`;
  const countText = tileCountText(seat);
  const label = `${t("Seat %(n)s", { n: seat.index + 1 })}: ${seat.kind === "empty" ? t("Empty seat") : seatName(seat.index)}${turn ? ", " + t("to play") : ""}`;
  const initial = seat.kind === "empty" ? "+" : seat.kind === "bot" ? String(seat.index + 1) : (seat.name || "?").slice(0, 1).toUpperCase();
  return html`<section class=${classes.join(" ")} data-seat=${seat.index} aria-label=${label}>${page.chat.bubble(seat.index)}
    <div class="avatar">${clockRing(turn)}<span>${initial}</span></div>
    <div class="seat-body">
      <div class="seat-name">${dot}<span class="name">${name}</span>${badges}</div>
      ${fan}
      <div class="seat-count">${countText}</div>
      ${seatActions(seat)}
    </div>
  </section>`;
}

function clockRing(turn) {
  const s = snap();
  const r = s.round;
  if (!turn || !r) return nothing;
  // A rated match without a move clock still limits a turn (docs/rated-play.md).
  const total = s.room.turn_seconds ?? s.room.move_seconds;
  if (!total || !r.deadline) return html`<svg class="ring idle" viewBox="0 0 44 44" aria-hidden="true"><circle cx="22" cy="22" r="20"/></svg>`;
  // A running CSS animation keeps its start: the ring of one deadline is drawn
  // once, with its delay as of then; a new deadline gets a new ring.
  const key = `${r.deadline}:${total}:${ringEpoch}`;
  if (ring.key !== key) {
    const left = Math.max(0, (Date.parse(r.deadline) - Date.now()) / 1000);
    const elapsed = Math.max(0, total - left);
    ring = { key, style: `animation-duration: ${total}s; animation-delay: -${elapsed.toFixed(2)}s;` };
  }
  return keyed(
    key,
    html`<svg class="ring" viewBox="0 0 44 44" aria-hidden="true"><circle class="track" cx="22" cy="22" r="20"/><circle class="run" cx="22" cy="22" r="20" pathLength="100" ${css(ring.style)}/></svg>`,
  );
}

function seatActions(seat) {
  const s = snap();
  const buttons = [];
  const host = s.you?.is_host;
  const seated = mySeat() !== null;
  if (seat.kind === "empty" && !seated && s.room.status !== "closed") {
    buttons.push(html`<button type="button" class="chip" data-action="sit" data-seat-index=${seat.index}>${t("Sit here")}</button>`);
  }
  if (seat.kind === "bot" && !seated && !seat.reserved_for) {
    buttons.push(html`<button type="button" class="chip" data-action="sit" data-seat-index=${seat.index}>${t("Take this seat")}</button>`);
  }
  if (host && seat.kind === "empty") {
    buttons.push(html`<button type="button" class="chip" data-action="add_bot" data-seat-index=${seat.index}>${ICON_BOT}${t("Add bot")}</button>`);
  }
  if (host && seat.kind === "bot") {
    const options = BOT_LEVELS.map(
      (l) => html`<option value=${l} .selected=${l === seat.bot_level}>${levelName(l)}</option>`,
    );
    buttons.push(
      html`<label class="visually-hidden" for="lvl-${seat.index}">${t("Bot level")}</label>`,
      html`<select id="lvl-${seat.index}" class="chip" data-bot-level=${seat.index}>${options}</select>`,
      html`<button type="button" class="chip" data-action="remove_bot" data-seat-index=${seat.index} aria-label=${t("Remove bot")}>✕</button>`,
    );
  }
  // A private table's host may stand up someone not ready once the ready deadline
  // is over (a public table does it by itself; the server says when it is too early).
  if (host && s.room.visibility === "private" && s.round?.ready_deadline && seat.kind === "human" && !seat.ready && seat.index !== mySeat()) {
    buttons.push(html`<button type="button" class="chip" data-action="stand_up" data-seat-index=${seat.index}>${t("Stand up (not ready)")}</button>`);
  }
  return buttons.length ? html`<div class="seat-actions">${buttons}</div>` : nothing;
}

function seatExtras(seat, me) {
  const s = snap();
  const out = [];
  if (s.match?.over && s.room.rules?.goal === "single" && seat.kind === "human" && seat.ready) {
    out.push(html`<span class="badge ok" data-accepted>${t("wants a new game")}</span>`);
  }
  if (seat.kind === "human" && !me && seat.name) out.push(page.chat.muteButton(seat));
  return out;
}
