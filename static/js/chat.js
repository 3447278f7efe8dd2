// Quick chat (docs/protocol.md `chat`, docs/site.md): a fixed set of phrases and emotes,
// nothing to moderate. Seated people send one every 3 s; each phrase shows as a
// bubble by its seat for a few seconds and goes into the log. Anyone can mute a
// player: the person at one seat of this room (not everyone with that name, and
// not in other rooms), kept per browser. Pieces of the page are lit-html
// templates (table/seats.js and table/panels.js put them in place).

import { html, nothing } from "./lit.js";

const MUTE_KEY = "domino.muted";
// Icons as SVG (an emoji font is not everywhere).
const ICON_SOUND = html`<svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><path d="M4 9h4l5-4v14l-5-4H4z"/><path d="M16 9a4 4 0 0 1 0 6" fill="none" stroke="currentColor" stroke-width="2"/></svg>`;
const ICON_MUTED = html`<svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><path d="M4 9h4l5-4v14l-5-4H4z"/><path d="M16 9l5 6M21 9l-5 6" stroke="currentColor" stroke-width="2"/></svg>`;
const ICON_TALK = html`<svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><path d="M4 5h16v10H9l-5 4z"/></svg>`;
const BUBBLE_MS = 4000;
const EVERY_MS = 3000;

export function createChat({ t, phrases, send, room = "" }) {
  const words = new Map(phrases.map((p) => [p.key, p]));
  const bubbles = new Map(); // seat -> {text, until}
  const lines = []; // {after: the log's length then, seat, name, who, text}
  let muted = new Set();
  try {
    muted = new Set(JSON.parse(localStorage.getItem(MUTE_KEY) || "[]"));
  } catch {
    muted = new Set();
  }
  let lastSent = 0;
  let open = false;

  const text = (key) => words.get(key)?.text ?? "";
  // Who a mute is for: this room's seat and the person sitting there now.
  const who = (seat) => `${room}:${seat?.index}:${seat?.name ?? ""}`;

  return {
    // Someone said something: ignored when that player is muted.
    // `place`: {after: the log's length, round: "match:round"}.
    received(msg, seat, place, onChange) {
      if (!seat || seat.kind !== "human" || muted.has(who(seat))) return false;
      const said = text(msg.phrase);
      if (!said) return false;
      bubbles.set(msg.seat, { text: said, until: Date.now() + BUBBLE_MS });
      lines.push({ ...place, seat: msg.seat, name: seat.name, who: who(seat), text: said });
      if (lines.length > 40) lines.shift();
      setTimeout(onChange, BUBBLE_MS + 50);
      return true;
    },
    bubble(index) {
      const b = bubbles.get(index);
      if (!b || b.until < Date.now()) return nothing;
      // Seats are drawn again with every change: only the first drawing pops in.
      const fresh = !b.drawn;
      b.drawn = true;
      return html`<div class="chat-bubble${fresh ? " fresh" : ""}" data-bubble=${index} role="status">${b.text}</div>`;
    },
    // The chat lines of the log, each after the move it followed.
    logLines: () => lines.filter((line) => !muted.has(line.who)),
    isMuted: (seat) => muted.has(who(seat)),
    toggleMute(seat) {
      if (!seat?.name) return;
      if (muted.has(who(seat))) muted.delete(who(seat));
      else muted.add(who(seat));
      try {
        localStorage.setItem(MUTE_KEY, JSON.stringify([...muted]));
      } catch {
        /* kept for this page only */
      }
    },
    muteButton(seat) {
      const on = muted.has(who(seat));
      const label = on ? t("Unmute %(name)s", { name: seat.name }) : t("Mute %(name)s", { name: seat.name });
      return html`<button type="button" class="chip mute${on ? " on" : ""}" data-action="mute" data-seat-index=${seat.index} aria-pressed=${String(on)} aria-label=${label} title=${label}>${on ? ICON_MUTED : ICON_SOUND}</button>`;
    },
    // The phrase picker (seated people only).
    panel() {
      const wait = Date.now() - lastSent < EVERY_MS;
      const buttons = phrases.map(
        (p) => html`<button type="button" class="phrase${p.emote ? " emote" : ""}" data-chat=${p.key} ?disabled=${wait}>${p.text}</button>`,
      );
      return html`<div class="quick-chat${open ? " open" : ""}">
        <button type="button" class="button ghost small chat-toggle" data-action="chat_toggle" aria-expanded=${String(open)} title=${t("Quick chat")}>${ICON_TALK}<span class="label">${t("Quick chat")}</span></button>
        ${open ? html`<div class="phrases" role="group" aria-label=${t("Quick chat")}>${buttons}</div>` : nothing}
      </div>`;
    },
    toggle() {
      open = !open;
    },
    say(key, onChange) {
      if (!words.has(key) || Date.now() - lastSent < EVERY_MS) return;
      if (!send("chat", { phrase: key })) return;
      lastSent = Date.now();
      open = false;
      setTimeout(onChange, EVERY_MS + 50);
    },
  };
}
