// "E se eu tivesse jogado…?" on the replay page (templates/replays/_replay_whatif.html;
// docs/site.md, "What if, on the replay"): at the move on show, every legal
// action its mover had; picking one asks the server (POST .../whatif/,
// docs/protocol.md) for its expected points beside the one played and the best,
// the chain it would have left and a few words of what it does.
// replay.js tells which step is drawn ("replay:render").

import { chainSVG } from "./board.js";
import { html, nothing, render as draw } from "./lit.js";
import { makeT, ready } from "./util.js";

let boot;
let seats;
let t;
let panel;
let current = 0; // the move on show
let asked = 0; // the latest request: older answers are dropped

const num = (x) => {
  const text = Number(x).toLocaleString(document.documentElement.lang || undefined, { maximumFractionDigits: 1 });
  return x > 0 ? `+${text}` : text;
};

function seatName(index) {
  const seat = seats[index];
  if (!seat || seat.kind === "bot" || !seat.name) return t("Seat %(n)s", { n: index + 1 });
  return seat.name;
}

function actionText(a) {
  if (a.type === "pass") return t("pass");
  if (a.type === "draw") return t("draw");
  return a.end ? t("%(tile)s on end %(end)s", { tile: a.tile, end: a.end }) : a.tile;
}

function showChoices(seq) {
  current = seq;
  asked += 1;
  const box = panel.querySelector("[data-whatif-choices]");
  draw(nothing, panel.querySelector("[data-whatif-answer]"));
  const move = boot.moves[String(seq)];
  if (!move) {
    draw(html`<p class="hint">${t("Go to a move to try another action there.")}</p>`, box);
    return;
  }
  const lead = move.choices.length > 1
    ? t("Move %(n)s: %(name)s played %(action)s. Try another:", { n: seq, name: seatName(move.seat), action: actionText(move.choices[move.played]) })
    : t("The only legal action: nothing else to try. Its expected points:");
  const buttons = move.choices.map((a, i) => html`<li><button type="button" class="button small${i === move.played ? " played" : ""}" data-whatif-choice=${i} @click=${() => ask(seq, i)}>${actionText(a)}${i === move.played ? html` <span class="tag">${t("played")}</span>` : nothing}</button></li>`);
  draw(html`<p>${lead}</p><ul class="whatif-choices">${buttons}</ul>`, box);
}

async function ask(seq, index) {
  const move = boot.moves[String(seq)];
  const mine = ++asked;
  const out = panel.querySelector("[data-whatif-answer]");
  for (const b of panel.querySelectorAll("[data-whatif-choice]")) b.setAttribute("aria-pressed", String(Number(b.dataset.whatifChoice) === index));
  draw(html`<p class="hint" data-whatif-state="computing">${t("Computing…")}</p>`, out);
  const token = panel.querySelector("input[name=csrfmiddlewaretoken]")?.value || "";
  let reply;
  let body;
  try {
    reply = await fetch(boot.url, {
      method: "POST",
      headers: { "X-CSRFToken": token, "Content-Type": "application/json" },
      credentials: "same-origin",
      body: JSON.stringify({ seq, action: move.choices[index] }),
    });
    body = await reply.json();
  } catch (error) {
    body = { message: String(error) };
  }
  if (mine !== asked || seq !== current) return; // the viewer moved on
  if (!reply?.ok) {
    draw(html`<p class="error" role="alert" data-whatif-error=${body.error || ""}>${body.message || ""}</p>`, out);
    return;
  }
  showAnswer(out, body);
}

function showAnswer(out, answer) {
  const row = (label, i, key) => html`<tr data-whatif-row=${key}><th scope="row">${label}</th><td>${actionText(answer.choices[i])}</td><td class="value" data-whatif-value=${key}>${num(answer.choices[i].value)}</td></tr>`;
  const rect = out.getBoundingClientRect();
  const aspect = Math.max(1.2, (rect.width || 300) / 140);
  const { svg } = chainSVG(answer.chain, aspect, { label: t("The table after it") });
  const notes = answer.notes.map((n) => html`<li>${n}</li>`);
  draw(
    html`<table class="whatif-values" data-source=${answer.source}>
        <caption>${t("Expected points")}</caption>
        ${row(t("This choice"), answer.picked, "picked")}
        ${row(t("Played"), answer.played, "played")}
        ${row(t("Best"), answer.best, "best")}
      </table>
      <h3>${t("The table after it")}</h3>
      <div class="whatif-chain" data-whatif-chain>${svg}</div>
      <h3>${t("What it does")}</h3>
      <ul class="whatif-notes" data-whatif-notes>${notes}</ul>
      <p class="hint">${t("Points for the mover's side, from what the mover could see.")}</p>`,
    out,
  );
}

ready(() => {
  const island = document.getElementById("replay-whatif");
  const root = document.querySelector("[data-replay]");
  panel = document.querySelector("[data-whatif]");
  if (!island || !root || !panel) return;
  boot = JSON.parse(island.textContent);
  const replayBoot = JSON.parse(document.getElementById("replay-boot").textContent);
  seats = replayBoot.seats || [];
  t = makeT(boot.strings || {});
  root.addEventListener("replay:render", (event) => {
    if (event.detail.pos.seq !== current) showChoices(event.detail.pos.seq);
  });
  showChoices(replayBoot.positions[Number(root.dataset.step || 0)].seq);
  panel.hidden = false;
  panel.dataset.ready = "1";
});
