// The table page's state: the last snapshot (docs/protocol.md `room`), what this
// browser has chosen, the page's boot data, and small readings of the snapshot
// that every part of the page shares. No DOM.

// Read it anywhere (`state.selected`); change it only through `setState`, which
// tells the subscribers which keys changed. Assigning to `state` throws.
const current = {
  snap: null,
  selected: null, // tile chosen by the viewer, waiting for an end
  hints: localStorage.getItem("domino.hints") !== "off",
  resultHidden: false,
  resultFor: null,
  botLevel: "medium",
  sent: null, // version a move was sent on: ignore clicks until a newer snapshot
  firstRender: false,
  lastLogSeq: null,
  adjusting: false, // "Ajustar a fila": bend controls shown at the ends
  bendAt: null, // {end: chain index}: the tile chosen to bend at (table-rules.js)
  resultAt: 0, // the result panel waits until then: the last tile stays in view
};

export const state = new Proxy(current, {
  set(_, key) {
    throw new TypeError(`table state: setState({${String(key)}}), not an assignment`);
  },
});

const subscribers = new Set();

export function setState(changes) {
  const changed = Object.keys(changes).filter((key) => current[key] !== changes[key]);
  if (!changed.length) return;
  Object.assign(current, changes);
  for (const fn of subscribers) fn(changed);
}

// `fn(changedKeys)` after each change; returns the unsubscribe.
export function subscribe(fn) {
  subscribers.add(fn);
  return () => subscribers.delete(fn);
}

// The hints switch is this browser's: it outlives the page.
subscribe((changed) => changed.includes("hints") && localStorage.setItem("domino.hints", current.hints ? "on" : "off"));

// Set once at start (table.js): the boot island, the translations, the page's
// root element and the quick chat (chat.js).
export const page = { boot: null, t: null, root: null, chat: null };

export const t = (key, params) => page.t(key, params);
export const $ = (sel, el = page.root) => el.querySelector(sel);

export const snap = () => state.snap;
export const seatCount = () => snap().seats.length;
export const mySeat = () => snap().you?.seat ?? null;
export const legal = () => snap().round?.legal ?? [];

export function legalEnds(tile) {
  return legal()
    .filter((a) => a.type === "play" && a.tile === tile)
    .map((a) => a.end ?? null);
}

export function can(type) {
  return legal().some((a) => a.type === type);
}

export function isMyTurn() {
  const r = snap().round;
  return !!r && r.turn !== null && r.turn !== undefined && r.turn === mySeat() && !r.result;
}

export function seatName(index) {
  const seat = snap().seats[index];
  if (!seat) return "?";
  if (seat.kind === "empty") return t("Seat %(n)s", { n: index + 1 });
  // Bots share generic names ("Bot (medium)"): number them by seat instead.
  if (seat.kind === "bot") return t("Bot %(n)s", { n: index + 1 });
  return seat.name || t("Seat %(n)s", { n: index + 1 });
}

export function sideSeats(side) {
  const rules = snap().room.rules || {};
  if (rules.partnership) return [side, side + 2];
  return [side];
}

export function sideCount() {
  const rules = snap().room.rules || {};
  return rules.partnership ? 2 : seatCount();
}

export function sideName(side) {
  return sideSeats(side).map(seatName).join(" & ");
}

function relative(index) {
  const me = mySeat() ?? 0;
  return (index - me + seatCount()) % seatCount();
}

// Where a seat sits around the felt, seen from this viewer.
export function position(index) {
  const rel = relative(index);
  const n = seatCount();
  if (rel === 0) return "bottom";
  if (n === 2) return "top";
  if (n === 3) return rel === 1 ? "right" : "left";
  return ["bottom", "right", "top", "left"][rel];
}

// The bots' levels, weakest first (docs/protocol.md `add_bot`; rooms.models.BOT_LEVELS).
export const BOT_LEVELS = ["easy", "medium", "hard"];

export function levelName(level) {
  return { easy: t("easy"), medium: t("medium"), hard: t("hard") }[level] || level;
}

export function isDbl(tile) {
  return tile.split("-")[0] === tile.split("-")[1];
}
