// The round analysis on the replay page (templates/replays/_replay_analysis.html):
// each person's accuracy, and for the move on show its mark, the expected
// points of every choice as small bars, and on the chain a ring on the tile
// played and the best alternative as a ghost tile at its end.
// The analysis exists only for a finished round and arrives in its own
// json_script island; replay.js tells which step is drawn ("replay:render").

import { html, nothing, render as draw } from "./lit.js";
import { tileGroup } from "./tiles.js";
import { makeT, ready } from "./util.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const LABELS = { imprecisao: "Inaccuracy", erro: "Mistake", capivarada: "Blunder" };
const GLYPHS = { imprecisao: "?!", erro: "?", capivarada: "??" };

let data;
let seats;
let t;
let bySeq;

// Numbers as the page's language writes them (80,9 in Portuguese).
const num = (x) => Number(x).toLocaleString(document.documentElement.lang || undefined, { maximumFractionDigits: 1 });

function seatName(index) {
  const seat = seats[index];
  if (!seat || seat.kind === "bot" || !seat.name) return `#${index + 1}`;
  return seat.name;
}

function actionText(option) {
  if (option.type === "pass") return t("pass");
  if (option.type === "draw") return t("draw");
  return option.end ? t("%(tile)s on end %(end)s", { tile: option.tile, end: option.end }) : option.tile;
}

function labelText(decision) {
  if (decision.label) return t(LABELS[decision.label]);
  return decision.best === decision.chosen ? t("Best move") : t("Good move");
}

// --- the side panel -----------------------------------------------------------

function renderPlayers(box) {
  const items = data.players.map((p) => {
    const text = p.match_accuracy === null || p.match_accuracy === undefined
      ? t("round %(r)s", { r: `${num(p.accuracy)}%` })
      : t("round %(r)s · match %(m)s", { r: `${num(p.accuracy)}%`, m: `${num(p.match_accuracy)}%` });
    return html`<li data-accuracy-seat=${p.seat}><span>${seatName(p.seat)}</span> <strong>${text}</strong></li>`;
  });
  draw(html`<h2>${t("Accuracy")}</h2><ul class="analysis-accuracy">${items}</ul>`, box);
}

function renderMove(box, decision) {
  if (!decision) {
    draw(html`<p class="hint">${t("Not analysed: no choice, a bot, or an automatic move.")}</p>`, box);
    return;
  }
  const values = decision.options.map((o) => o.value);
  const top = Math.max(1, ...values.map(Math.abs));
  const bars = decision.options.map((option, i) => {
    const width = Math.round((Math.abs(option.value) / top) * 50);
    const sign = option.value < 0 ? "neg" : "pos";
    const cls = `${i === decision.chosen ? " chosen" : ""}${i === decision.best ? " best" : ""}`;
    return html`<li class="analysis-option${cls}" data-option=${i}>
        <span class="option-name">${actionText(option)}</span>
        <span class="option-bar" aria-hidden="true"><span class="bar ${sign}" data-width=${width}></span></span>
        <span class="option-value">${option.value > 0 ? "+" : ""}${num(option.value)}</span></li>`;
  });
  const best = decision.options[decision.best];
  const lossLine = decision.best === decision.chosen ? nothing : html`<p class="analysis-loss">${t("Loss: %(loss)s points", { loss: num(decision.loss) })} · ${t("Best: %(action)s", { action: actionText(best) })}</p>`;
  draw(
    html`<p class="analysis-mark mark-${decision.label || "none"}" data-mark=${decision.label || ""}>${labelText(decision)}</p>
      ${lossLine}
      <h3>${t("Expected points of each choice")}</h3>
      <ol class="analysis-options">${bars}</ol>
      <p class="hint">${t("Points for the mover's side, from what the mover could see.")}</p>`,
    box,
  );
  // Widths as properties, not inline style attributes (the page's CSP).
  for (const bar of box.querySelectorAll(".bar[data-width]")) bar.style.width = `${bar.dataset.width}%`;
}

// --- on the chain -------------------------------------------------------------

function svgEl(name, attrs) {
  const el = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
  return el;
}

function endPoints(svg) {
  const points = {};
  for (const mark of svg.querySelectorAll(".end-mark")) {
    const letter = mark.querySelector(".end-letter")?.textContent;
    const m = /translate\(([-\d.]+) ([-\d.]+)\)/.exec(mark.getAttribute("transform") || "");
    if (letter && m) points[letter] = { x: Number(m[1]), y: Number(m[2]) };
  }
  return points;
}

function drawOnChain(board, pos, decision) {
  const svg = board.querySelector("svg.chain");
  if (!svg) return;
  for (const old of svg.querySelectorAll(".analysis-layer")) old.remove();
  if (!decision) return;
  const layer = svgEl("g", { class: "analysis-layer", "data-analysis-layer": "" });
  let anchor = null;
  const played = pos.log?.tile ? svg.querySelector(`[data-link="${pos.log.tile}"]`) : null;
  if (played) {
    const b = played.getBBox();
    anchor = b;
    layer.append(svgEl("rect", { class: `analysis-ring mark-${decision.label || "none"}`, x: b.x - 0.08, y: b.y - 0.08, width: b.width + 0.16, height: b.height + 0.16, rx: 0.2 }));
    if (decision.label) {
      const glyph = svgEl("text", { class: `analysis-glyph mark-${decision.label}`, x: b.x + b.width, y: b.y - 0.1, "data-glyph": decision.label });
      glyph.textContent = GLYPHS[decision.label];
      layer.append(glyph);
    }
  }
  const best = decision.options[decision.best];
  if (decision.best !== decision.chosen && best.type === "play") {
    const ends = endPoints(svg);
    const at = (best.end && ends[best.end]) || (anchor ? { x: anchor.x + anchor.width + 1.3, y: anchor.y + anchor.height / 2 } : { x: 0, y: 0 });
    const [a, b] = best.tile.split("-").map(Number);
    const ghost = svgEl("g", { class: "analysis-ghost", "data-best": best.tile });
    ghost.innerHTML = tileGroup(a, b, at.x - 1, at.y - 0.5, 2, 1);
    layer.append(ghost);
  }
  svg.append(layer);
}

function markLog(root) {
  for (const button of root.querySelectorAll("[data-log] [data-goto]")) {
    const decision = bySeq.get(Number(button.dataset.goto));
    const old = button.querySelector(".log-mark");
    const label = decision?.label || "";
    if (old && old.dataset.mark === label) continue;
    old?.remove();
    if (!label) continue;
    const mark = document.createElement("span");
    mark.className = `log-mark mark-${label}`;
    mark.dataset.mark = label;
    mark.title = t(LABELS[label]);
    mark.textContent = ` ${GLYPHS[label]}`;
    button.append(mark);
  }
}

ready(() => {
  const island = document.getElementById("replay-analysis");
  const root = document.querySelector("[data-replay]");
  if (!island || !root) return;
  data = JSON.parse(island.textContent);
  if (!data) return;
  seats = JSON.parse(document.getElementById("replay-boot").textContent).seats || [];
  t = makeT(data.strings || {});
  bySeq = new Map(data.decisions.map((d) => [d.seq, d]));
  const panel = document.querySelector("[data-analysis]");
  renderPlayers(panel.querySelector("[data-analysis-players]"));
  const board = root.querySelector("[data-board]");
  const onRender = (pos) => {
    const decision = bySeq.get(pos.seq);
    renderMove(panel.querySelector("[data-analysis-move]"), decision);
    drawOnChain(board, pos, decision);
    markLog(root);
  };
  root.addEventListener("replay:render", (event) => onRender(event.detail.pos));
  root.addEventListener("replay:board", (event) => drawOnChain(board, event.detail.pos, bySeq.get(event.detail.pos.seq)));
  if (root.dataset.ready) {
    // replay.js drew its first step before this module ran.
    const boot = JSON.parse(document.getElementById("replay-boot").textContent);
    onRender(boot.positions[Number(root.dataset.step || 0)]);
  }
  panel.hidden = false;
  panel.dataset.ready = "1";
});
