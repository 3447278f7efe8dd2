// Until a finished round is analysed, the replay page says where its analysis
// stands (templates/replays/_replay_analysis.html): "na fila (3ª)", "analisando…",
// and for a player of the round a button to ask for it, which puts it first. It asks the server
// again every few seconds (GET .../analysis/, docs/protocol.md) and shows the
// analysis, reloading the page, once it is written.

import { html, nothing, render as draw } from "./lit.js";
import { makeT, ready } from "./util.js";

const EVERY_MS = 3000;

let boot;
let t;
let box;
let problem = "";

function statusText(status) {
  if (status.state === "queued") return t("Analysis: in the queue (no. %(n)s)", { n: status.position });
  if (status.state === "running") return t("Analysing…");
  return t("This round is not in the analysis queue.");
}

function show(status) {
  // Opening the replay already queued it; asking puts it first (docs/site.md).
  const canAsk = status.state === "none" || status.state === "dropped" || (status.state === "queued" && !status.asked);
  const button = boot.may_ask && canAsk
    ? html`<button type="button" class="button" data-ask-analysis @click=${ask}>${t("Ask for the analysis")}</button>`
    : nothing;
  draw(
    html`<p data-analysis-state=${status.state}>${statusText(status)}</p>
      ${button}
      ${problem ? html`<p class="error" role="alert">${problem}</p>` : nothing}`,
    box,
  );
}

async function ask() {
  const token = box.closest("section").querySelector("input[name=csrfmiddlewaretoken]")?.value || "";
  const reply = await fetch(boot.url, { method: "POST", headers: { "X-CSRFToken": token }, credentials: "same-origin" });
  const body = await reply.json();
  problem = reply.ok ? "" : body.message || "";
  await follow(reply.ok ? body : null);
}

async function follow(known) {
  let status = known;
  if (!status) {
    const reply = await fetch(boot.url, { credentials: "same-origin" });
    if (!reply.ok) return;
    status = await reply.json();
  }
  if (status.state === "done") {
    draw(html`<p>${t("The analysis is ready: showing it…")}</p>`, box);
    window.location.reload();
    return;
  }
  show(status);
  if (status.state === "queued" || status.state === "running") {
    setTimeout(() => follow(null), EVERY_MS);
  }
}

ready(() => {
  const island = document.getElementById("replay-analysis-queue");
  box = document.querySelector("[data-analysis-queue]");
  if (!island || !box) return;
  boot = JSON.parse(island.textContent);
  t = makeT(boot.strings);
  box.closest("section").hidden = false;
  follow(boot);
});
