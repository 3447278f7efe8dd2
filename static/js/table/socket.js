// The table's WebSocket (docs/protocol.md): full snapshots in, small messages
// out, over the pages' one client (../socket_client.js: its backoff and close
// codes). It draws nothing: table.js passes what the page does with a frame,
// with the socket's state, and with a message it could not send.

import { openSocket } from "../socket_client.js";
import { page, state } from "./state.js";

const PING_EVERY_MS = 25000;

let client = null;
let onUnsent = () => {};
let ref = 0;

// `handlers`: onMessage(msg), onState(name, detail) (socket_client.js), and
// onUnsent() when a message finds the socket closed.
export function start(handlers) {
  onUnsent = handlers.onUnsent ?? onUnsent;
  client = openSocket(`/ws/rooms/${page.boot.code}/`, {
    onMessage: (msg) => {
      answered(msg);
      handlers.onMessage(msg);
      if (msg.type === "room" && reopened) {
        reopened = false;
        resendUnanswered();
      }
    },
    onState: (name, detail) => {
      if (name === "retrying" || name === "closed") wasClosed = true;
      if (name === "open" && wasClosed) reopened = true;
      handlers.onState?.(name, detail);
    },
    pingEvery: PING_EVERY_MS,
  });
}

// A move sent and not answered yet (docs/protocol.md, "Close codes"): where in
// the round it was made (`place`), so that a socket that came back (a deploy's
// 4013) sends it again when the new snapshot shows nothing happened there; when
// something did (this move, applied before the close, or the clock's), it is
// not sent again. The version check refuses the copy that comes second.
const MOVES = new Set(["play", "draw", "pass", "pick"]);
let unanswered = null; // {type, fields, ref, place}
let wasClosed = false;
let reopened = false;

function placeOf(snap) {
  const log = snap?.log ?? [];
  const seq = log.reduce((most, entry) => Math.max(most, entry.seq ?? 0), 0);
  return { match: snap?.match?.number ?? null, round: snap?.round?.number ?? null, seq };
}

function movedOn(snap, place) {
  const now = placeOf(snap);
  return now.match !== place.match || now.round !== place.round || now.seq > place.seq;
}

function answered(msg) {
  if (!unanswered) return;
  if ((msg.type === "error" && msg.ref === unanswered.ref) || (msg.type === "room" && movedOn(msg, unanswered.place))) {
    unanswered = null;
  }
}

function resendUnanswered() {
  const move = unanswered;
  if (!move || !state.snap || movedOn(state.snap, move.place)) return;
  const legal = state.snap.round?.legal ?? [];
  const same = (l) => l.type === move.type && (move.fields.tile === undefined || l.tile === move.fields.tile);
  if (!legal.some(same)) return; // not this seat's move any more
  send(move.type, move.fields);
}

// A move waits for its answer (build.js does not reload the page then).
export const moveUnanswered = () => unanswered !== null;

// This tab was replaced by another: no reconnecting.
export function stop() {
  client?.stop();
}

export const connected = () => !!client?.isOpen();

export function send(type, fields = {}) {
  ref += 1;
  const msg = { type, ref: String(ref), ...fields };
  if (state.snap) msg.version = state.snap.version;
  if (client?.send(msg)) {
    if (MOVES.has(type)) unanswered = { type, fields, ref: msg.ref, place: placeOf(state.snap) };
    return true;
  }
  onUnsent();
  return false;
}
