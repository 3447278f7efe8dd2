// The one WebSocket client of every page (the table, the lobby, the quick match,
// an arena's page and an arena table's link to the next one): open a socket on a
// path, hand each JSON frame on, and come back after a close by the rules of
// docs/protocol.md, "Close codes". It knows no page: each page passes callbacks
// and keeps its own UI.
//
// * Backoff with jitter: the n-th attempt in a row (n from 0) waits a random time
//   in [step/2, step], step = min(BACKOFF_BASE_MS * 2^n, BACKOFF_CAP_MS): 0.5-1 s,
//   1-2 s, 2-4 s, 4-8 s, then 5-10 s for ever. After a restart every page comes
//   back, and the random half spreads them out. An open socket starts it again.
// * 4001 (replaced), 4003 (not allowed) and 4004 (no such room or arena) are
//   final: no reconnect. Any other close reconnects, 4012 ("reconnect": the
//   server's channel layer failed) and 4008 (flooding) included, after a
//   jittered wait; but 4013 ("server restarting, reconnect now": a deploy) comes
//   back at once, without backoff: the proxy gives it another process.
// * Each connection's first frame names the server's build: another build than
//   the page's reloads the page at a quiet moment (build.js).

import { serverBuild } from "./build.js";

export const BACKOFF_BASE_MS = 1000;
export const BACKOFF_CAP_MS = 10000;
export const FINAL_CODES = new Set([4001, 4003, 4004]);
export const RESTARTING_CODE = 4013;

// How long the attempt after `retries` failed ones waits.
export function backoffDelay(retries) {
  const step = Math.min(BACKOFF_BASE_MS * 2 ** retries, BACKOFF_CAP_MS);
  return step / 2 + Math.random() * (step / 2);
}

export function socketUrl(path) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  return `${proto}//${location.host}${path}`;
}

// Opens `path` at once (unless `lazy`) and returns the client:
// * `onMessage(msg)`: each frame that is JSON (another is dropped);
// * `onOpen()`: the socket is open (again): say what the server must know;
// * `onClose(event)`: it closed (before any reconnect is planned);
// * `onState(name, detail)`: "open"; "retrying" ({code, delay}); "closed"
//   ({code, final}: a final code, `stop()`, or `keep()` said no);
// * `keep()`: asked at each non-final close: false leaves the socket closed until
//   `connect()` (the quick match only reconnects while someone waits);
// * `pingEvery`: ms between `{"type": "ping"}` frames while open (0: none).
export function openSocket(path, { onMessage, onOpen, onClose, onState, keep, pingEvery = 0, lazy = false } = {}) {
  let ws = null;
  let retries = 0;
  let timer = null;
  let stopped = false;

  const isOpen = () => ws?.readyState === WebSocket.OPEN;
  const report = (name, detail = {}) => onState?.(name, detail);

  function connect() {
    stopped = false;
    if (ws || timer !== null) return; // open, opening, or waiting to
    const socket = new WebSocket(socketUrl(path));
    ws = socket;
    let first = true;
    socket.addEventListener("open", () => {
      retries = 0;
      report("open");
      onOpen?.();
    });
    socket.addEventListener("message", (event) => {
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch {
        return; // a malformed frame
      }
      if (first) {
        first = false;
        serverBuild(msg?.build);
      }
      onMessage?.(msg);
    });
    socket.addEventListener("close", (event) => {
      if (ws !== socket) return;
      ws = null;
      onClose?.(event);
      const final = FINAL_CODES.has(event.code);
      if (final || stopped || (keep && !keep())) {
        report("closed", { code: event.code, final });
        return;
      }
      const restarting = event.code === RESTARTING_CODE;
      const delay = restarting ? 0 : backoffDelay(retries);
      if (!restarting) retries += 1;
      report("retrying", { code: event.code, delay });
      timer = setTimeout(() => {
        timer = null;
        connect();
      }, delay);
    });
  }

  function stop() {
    stopped = true;
    clearTimeout(timer);
    timer = null;
    const socket = ws;
    ws = null;
    socket?.close();
    if (socket) report("closed", { code: null, final: false });
  }

  // Sends `msg` (an object) when open; false when not.
  function send(msg) {
    if (!isOpen()) return false;
    ws.send(JSON.stringify(msg));
    return true;
  }

  if (pingEvery) setInterval(() => send({ type: "ping" }), pingEvery);
  if (!lazy) connect();
  return { connect, stop, send, isOpen };
}
