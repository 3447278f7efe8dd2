// "Jogar agora com pessoas" (docs/site.md, "Quick match"): joins the queue over
// ws/quick/, shows how many wait and for how long, leaves it, and opens the
// table once seated; and the lobby's "N jogando agora · M na fila" line, kept
// fresh from GET /api/now/.

import { openSocket } from "./socket_client.js";
import { makeT, ready } from "./util.js";

const NOW_EVERY_MS = 5000;
let t;
let ws = null; // the queue's socket client
let wanted = null; // the join message while the person wants to be in a queue
let since = null;
let waiting = 0;
let ticking = null;

const $ = (sel) => document.querySelector(sel);

function status(text) {
  const box = $("[data-quick-status]");
  if (box) box.textContent = text;
}

function waitingNow(on) {
  $("[data-action=quick-join]").hidden = on;
  $("[data-action=quick-leave]").hidden = !on;
  for (const input of $("[data-quick-form]").querySelectorAll("select, input")) input.disabled = on;
}

function elapsed() {
  if (!since) return "0:00";
  const s = Math.max(0, Math.floor((Date.now() - Date.parse(since)) / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function showQueue() {
  status(t("Waiting for players: %(n)s in this queue · %(time)s", { n: waiting, time: elapsed() }));
}

function onMessage(msg) {
  if (msg.type === "queue") {
    since = msg.since;
    waiting = msg.waiting;
    waitingNow(true);
    showQueue();
    refreshNow(); // the lobby's line counts this queue too
    clearInterval(ticking);
    ticking = setInterval(showQueue, 1000);
  } else if (msg.type === "matched") {
    clearInterval(ticking);
    wanted = null;
    status(t("Found a table: taking you there…"));
    location.assign(msg.url);
  } else if (msg.type === "left") {
    stopWaiting(t("You left the queue."));
    refreshNow();
  } else if (msg.type === "error") {
    wanted = null;
    stopWaiting(msg.message || "");
    if (msg.code === "already_seated" && msg.room) {
      const link = document.createElement("a");
      link.href = `/r/${msg.room}/`;
      link.textContent = t("Go back to your table");
      $("[data-quick-status]").append(" ", link);
    }
  }
}

function stopWaiting(text) {
  clearInterval(ticking);
  since = null;
  waitingNow(false);
  status(text);
}

// The queue's socket (socket_client.js: its backoff and close codes), opened on a
// join (or on a page that already waits); it comes back only while the person
// still wants to be in a queue, and joins again then.
function open() {
  ws ??= openSocket("/ws/quick/", {
    lazy: true,
    keep: () => wanted !== null,
    onOpen: () => wanted && ws.send(wanted),
    onMessage,
  });
  ws.connect();
}

function join(form) {
  wanted = {
    type: "join",
    preset: form.elements.preset.value,
    move_seconds: Number(form.elements.move_seconds.value),
    people_only: form.elements.people_only.checked,
  };
  status(t("Looking for players…"));
  open();
  ws.send(wanted); // not open yet: it goes when the socket opens
}

function leave() {
  wanted = null;
  if (!ws?.send({ type: "leave" })) stopWaiting(t("You left the queue."));
}

async function refreshNow() {
  try {
    const answer = await fetch("/api/now/", { headers: { Accept: "application/json" } });
    if (!answer.ok) return;
    const now = await answer.json();
    const queued = Object.values(now.queued || {}).reduce((a, b) => a + b, 0);
    const line = $("[data-quick-now]");
    if (line) line.textContent = t("%(playing)s playing now · %(queued)s in the queue", { playing: now.playing, queued });
  } catch {
    /* offline for a moment: the next refresh tries again */
  }
}

ready(() => {
  const boot = JSON.parse(document.getElementById("quick-boot").textContent);
  t = makeT(boot.strings);
  setInterval(refreshNow, NOW_EVERY_MS);
  const form = $("[data-quick-form]");
  if (!form) return;
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    join(form);
  });
  $("[data-action=quick-leave]").addEventListener("click", leave);
  if (boot.waiting) open(); // already waiting (another tab, a reload): the socket says so
});
