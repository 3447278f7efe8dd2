// The table's one WebSocket (docs/protocol.md): full snapshots in, small messages
// out, reconnection with backoff. `onMessage` is the page's (table.js).

import { banner, showReplaced, toast } from "./panels.js";
import { page, state, t } from "./state.js";

let onMessage = () => {};

function socketUrl() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  return `${proto}//${location.host}/ws/rooms/${page.boot.code}/`;
}

export function start(handler) {
  onMessage = handler;
  setInterval(() => state.socket?.readyState === WebSocket.OPEN && state.socket.send('{"type":"ping"}'), 25000);
  connect();
}

function connect() {
  const root = page.root;
  if (state.replaced) return;
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
    // Exponential backoff with jitter: after a restart every page reconnects,
    // and a random half of each step spreads them out (0.5-1 s, 1-2 s, ... 5-10 s).
    const step = Math.min(1000 * 2 ** state.retries, 10000);
    const delay = step / 2 + Math.random() * (step / 2);
    state.retries += 1;
    banner(t("Connection lost. Reconnecting…"), "warn");
    setTimeout(connect, delay);
  });
}

export function send(type, fields = {}) {
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
