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
    onMessage: handlers.onMessage,
    onState: handlers.onState,
    pingEvery: PING_EVERY_MS,
  });
}

// This tab was replaced by another: no reconnecting.
export function stop() {
  client?.stop();
}

export const connected = () => !!client?.isOpen();

export function send(type, fields = {}) {
  ref += 1;
  const msg = { type, ref: String(ref), ...fields };
  if (state.snap) msg.version = state.snap.version;
  if (client?.send(msg)) return true;
  onUnsent();
  return false;
}
