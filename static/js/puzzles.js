// The puzzle page (templates/puzzles/page.html, puzzles/views.py): a position
// exactly as its mover saw it (their hand, the chain, the other hands' sizes,
// the passes and draws so far: the engine's Round.view(seat), in the
// "puzzle-boot" island) and the question "your move?". The answer goes to the
// server, which alone knows the solution; it says whether it was the best
// move, shows the solution, the expected points of each choice and the ratings.

import { chainSVG } from "./board.js";
import { html, nothing, render as draw, unsafeHTML } from "./lit.js";
import { tileSVG } from "./tiles.js";
import { makeT, ngettext, ready } from "./util.js";

const THEMES = {
  endgame: "endgame",
  blocking: "blocking",
  partner: "following the partner",
  right_end: "leaving the right end",
};

let boot;
let t;
let view;
let state = { choosing: null, sending: false, result: null, error: "" };

const num = (x) => Number(x).toLocaleString(document.documentElement.lang || undefined, { maximumFractionDigits: 1 });

function actionText(a) {
  if (a.type === "pass") return t("pass");
  if (a.type === "draw") return t("draw");
  return a.end ? t("%(tile)s on end %(end)s", { tile: a.tile, end: a.end }) : a.tile;
}

function seatLabel(seat) {
  const n = t("Seat %(n)s", { n: seat + 1 });
  if (seat === view.seat) return `${n} (${t("you")})`;
  if (view.rules.partnership && (seat + 2) % 4 === view.seat) return `${n} (${t("partner")})`;
  return n;
}

function legalPlays(tile) {
  return view.legal.filter((a) => a.type === "play" && a.tile === tile);
}

// The ends a tile may go to that leave different positions (one per number shown).
function distinctEnds(tile) {
  const seen = new Map();
  for (const a of legalPlays(tile)) {
    const shows = view.ends ? view.ends[a.end ?? "A"] : null;
    if (!seen.has(shows)) seen.set(shows, a);
  }
  return [...seen.values()];
}

async function send(action) {
  state = { ...state, sending: true, choosing: null, error: "" };
  paint();
  const token = document.querySelector("[data-puzzle] input[name=csrfmiddlewaretoken]")?.value || "";
  try {
    const reply = await fetch(boot.answer_url, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRFToken": token },
      credentials: "same-origin",
      body: JSON.stringify({ action }),
    });
    const body = await reply.json();
    if (!reply.ok) state = { ...state, sending: false, error: body.message || t("Could not send the answer: try again.") };
    else state = { ...state, sending: false, result: { ...body, answer: action } };
  } catch {
    state = { ...state, sending: false, error: t("Could not send the answer: try again.") };
  }
  paint();
}

function pickTile(tile) {
  const ends = distinctEnds(tile);
  if (ends.length === 1) send(ends[0]);
  else if (ends.length > 1) {
    state = { ...state, choosing: tile };
    paint();
  }
}

function handTemplate() {
  const done = Boolean(state.result) || state.sending;
  return view.hand.map((tile) => {
    const fits = legalPlays(tile).length > 0;
    return html`<button type="button" class="puzzle-tile${state.choosing === tile ? " choosing" : ""}" data-tile=${tile}
      ?disabled=${done || !fits} aria-label=${tile} @click=${() => pickTile(tile)}>${unsafeHTML(tileSVG(tile))}</button>`;
  });
}

function otherActions() {
  const done = Boolean(state.result) || state.sending;
  return view.legal
    .filter((a) => a.type === "draw" || a.type === "pass")
    .map((a) => html`<button type="button" class="button" data-answer=${a.type} ?disabled=${done} @click=${() => send(a)}>${actionText(a)}</button>`);
}

function endChoice() {
  if (!state.choosing) return nothing;
  const options = distinctEnds(state.choosing).map(
    (a) => html`<button type="button" class="button" data-end=${a.end} @click=${() => send(a)}>${t("End %(end)s (shows %(n)s)", { end: a.end, n: view.ends[a.end] })}</button>`,
  );
  return html`<div class="puzzle-ends" role="group" aria-label=${t("Which end?")}><span>${t("Which end?")}</span> ${options}</div>`;
}

function seatsTemplate() {
  const rows = view.tile_counts.map((count, seat) => (seat === view.seat ? nothing : html`<li data-seat=${seat}>${seatLabel(seat)}: ${ngettext("%(n)s tile", "%(n)s tiles", count)}</li>`));
  const bone = view.rules.draw ? html`<li data-boneyard>${t("Boneyard: %(n)s", { n: view.boneyard_count })}</li>` : nothing;
  return html`<ul class="puzzle-seats">${rows}${bone}</ul>`;
}

function historyTemplate() {
  if (!view.history.length) return html`<p class="hint">${t("Nothing has been played yet.")}</p>`;
  const items = view.history.map((h) => {
    let what = h.type === "pass" ? t("passed") : h.type === "draw" ? t("drew") : t("played %(tile)s", { tile: h.tile });
    return html`<li class="h-${h.type}">${seatLabel(h.seat)}: ${what}</li>`;
  });
  return html`<ol class="puzzle-history">${items}</ol>`;
}

function resultTemplate() {
  const r = state.result;
  if (!r) return state.error ? html`<p class="error" role="alert">${state.error}</p>` : nothing;
  let rating;
  if (r.rated) rating = html`<p data-rating-change>${t("Your rating: %(before)s → %(after)s", { before: r.rating_before, after: r.rating_after })}</p>`;
  else {
    const reasons = {
      guest: t("log in to get a puzzle rating"),
      training: t("your own positions are not rated"),
      tried_before: t("you had tried this puzzle before"),
      seen: t("its answer had been shown on this browser or connection before"),
    };
    const why = reasons[r.unrated] || (!boot.signed_in ? reasons.guest : boot.puzzle.training ? reasons.training : reasons.tried_before);
    rating = html`<p class="hint" data-unrated>${t("Not rated: %(why)s", { why })}</p>`;
  }
  const options = r.options.map((o) => html`<li data-option-value=${o.value}>${actionText(o)}: <strong>${o.value > 0 ? "+" : ""}${num(o.value)}</strong></li>`);
  const themes = boot.puzzle.themes.length ? html`<p>${t("Themes")}: ${boot.puzzle.themes.map((k) => t(THEMES[k] || k)).join(", ")}</p>` : nothing;
  const streak = r.streak === null || r.streak === undefined ? nothing : html` · <span data-streak>${t("Streak: %(n)s", { n: r.streak })}</span>`;
  return html`<div class="puzzle-result ${r.correct ? "good" : "bad"}" data-result=${r.correct ? "correct" : "wrong"}>
      <p class="verdict">${r.correct ? t("Correct!") : t("Not the best move.")}</p>
      <p>${t("The best move: %(action)s", { action: actionText(r.solution) })}</p>
      ${rating}
      <p><span data-puzzle-rating>${t("Puzzle rating: %(r)s", { r: r.puzzle_rating })}</span>${streak}</p>
      <h3>${t("Expected points of each choice")}</h3><ul class="puzzle-options">${options}</ul>
      ${themes}
      <p class="row">
        ${r.correct ? nothing : html`<button type="button" class="button" data-action="retry" @click=${() => { state = { ...state, result: null }; paint(); }}>${t("Try again")}</button>`}
        <a class="button primary" href=${boot.next_url} data-action="next">${t("Next puzzle")}</a>
      </p></div>`;
}

function paint() {
  const root = document.querySelector("[data-puzzle-root]");
  const board = root.querySelector("[data-puzzle-chain]");
  const rect = board?.getBoundingClientRect();
  const aspect = rect && rect.width > 0 && rect.height > 0 ? rect.width / rect.height : 2;
  const { svg } = chainSVG(view.chain, aspect, { label: t("Your move") });
  const side = view.rules.partnership ? t("your side") : t("you");
  draw(
    html`<h2>${t("Your move")}</h2>
      <p class="puzzle-question">${t("Find the best move for %(side)s.", { side })} <span class="tag">${boot.puzzle.preset}</span></p>
      <div class="puzzle-layout">
        <div class="puzzle-main">
          <div class="board puzzle-chain" data-puzzle-chain>${svg}</div>
          <h3>${t("Your hand")}</h3>
          <div class="puzzle-hand" data-puzzle-hand>${handTemplate()}</div>
          ${endChoice()}
          <div class="row">${otherActions()}</div>
          ${state.sending ? html`<p class="hint">${t("Sending…")}</p>` : nothing}
          ${resultTemplate()}
        </div>
        <div class="puzzle-side">
          ${seatsTemplate()}
          <h3>${t("What happened so far")}</h3>
          ${historyTemplate()}
        </div>
      </div>`,
    root,
  );
}

ready(() => {
  const island = document.getElementById("puzzle-boot");
  if (!island) return;
  boot = JSON.parse(island.textContent);
  t = makeT(boot.strings || {});
  view = boot.puzzle.view;
  paint();
  paint(); // again, now that the board has its size
  window.addEventListener("resize", paint); // the chain's layout follows the board's shape
  document.querySelector("[data-puzzle]").dataset.ready = "1";
});
