// An arena's page: the live standings, the time left, the podium and the way
// back to one's table, over ws/arenas/<id>/ (docs/protocol.md, "Arenas").

import { html, nothing, render } from "./lit.js";
import { openSocket } from "./socket_client.js";
import { makeT, ready } from "./util.js";

let t;
let frame;
let lastTable = null;

function clockText(now) {
  if (frame.status === "finished") return frame.cancelled ? t("Cancelled") : t("Finished");
  const target = new Date(frame.status === "running" ? frame.ends_at : frame.starts_at);
  const left = Math.max(0, Math.round((target - now) / 1000));
  const pad = (n) => String(n).padStart(2, "0");
  const hours = Math.floor(left / 3600);
  const minutes = Math.floor((left % 3600) / 60);
  const time = hours ? `${hours}:${pad(minutes)}:${pad(left % 60)}` : `${minutes}:${pad(left % 60)}`;
  return frame.status === "running" ? t("Ends in %(time)s", { time }) : t("Starts in %(time)s", { time });
}

function streak(row) {
  if (row.streak < 2) return nothing;
  return html` <span class="streak" title=${t("%(n)s wins in a row: the next win counts double", { n: row.streak })}>×${row.streak}</span>`;
}

function standingRow(row) {
  const state = !row.active ? html` <span class="muted small">${t("left the arena")}</span>` : row.playing ? html` <span class="muted small">${t("playing")}</span>` : nothing;
  return html`<tr data-player=${row.player}>
    <td>${row.rank}</td>
    <td>${row.removed ? row.name : html`<a href="/players/${encodeURIComponent(row.player)}/">${row.player}</a>`}${state}</td>
    <td data-score>${row.score}${streak(row)}</td>
    <td>${row.matches}</td>
  </tr>`;
}

function standings() {
  if (!frame.standings.length) return html`<p class="empty">${t("Nobody has joined yet.")}</p>`;
  return html`<table class="standings">
    <thead><tr><th>${t("Rank")}</th><th>${t("Player")}</th><th>${t("Score")}</th><th>${t("Matches")}</th></tr></thead>
    <tbody>${frame.standings.map(standingRow)}</tbody>
  </table>`;
}

function podium() {
  if (!frame.podium.length) return nothing;
  return html`<ol class="podium" data-podium-list aria-label=${t("Podium")}>
    ${frame.podium.map((row) => html`<li class="place-${row.rank}"><strong>${row.name || row.player}</strong> <span>${row.score}</span></li>`)}
  </ol>`;
}

function table() {
  const code = frame.you?.table;
  if (!code) return nothing;
  return html`<a class="button" href="/r/${code}/" data-action="back-to-table">${t("Back to your table")}</a>`;
}

function draw() {
  render(standings(), document.querySelector("[data-standings]"));
  render(podium(), document.querySelector("[data-podium]"));
  render(table(), document.querySelector("[data-arena-table]"));
  tick();
}

function tick() {
  const clock = document.querySelector("[data-arena-clock]");
  clock.textContent = clockText(Date.now());
  clock.dataset.status = frame.status;
}

function onFrame(next) {
  const joinedBefore = frame.you?.joined;
  frame = next;
  const code = frame.you?.table;
  // A new table while this page is open: the player goes to it (as the quick
  // match does); the link stays for whoever comes back to the page.
  if (code && code !== lastTable) {
    lastTable = code;
    location.assign(`/r/${code}/`);
    return;
  }
  lastTable = code;
  if (joinedBefore !== frame.you?.joined) {
    location.reload(); // the join/leave form is the server's
    return;
  }
  draw();
}

ready(() => {
  const boot = JSON.parse(document.getElementById("arena-boot").textContent);
  t = makeT(boot.strings);
  frame = boot.frame;
  // A table the player already had when the page opened is not "new".
  lastTable = frame.you?.table ?? null;
  // The server's rendering gives way to lit's (which only manages what it drew).
  for (const hook of ["[data-standings]", "[data-podium]", "[data-arena-table]"]) {
    document.querySelector(hook).replaceChildren();
  }
  draw();
  setInterval(tick, 1000);
  // socket_client.js: its backoff, and no coming back from 4004 (an arena
  // that is not there, or private to others).
  openSocket(boot.socket, { onMessage: (msg) => msg.type === "arena" && onFrame(msg) });
});
