// Everything around the felt: the actions under the table, the scores, the
// host's controls and room settings, the log, the round result (and the
// series' walkover), the title's extras, and the notices (banner, toast).
// Longer than the other parts because each panel is a short template of its
// own; they share one render pass and the state readings imported below.

import { css, html, nothing, render, unsafeHTML } from "../lit.js";
import { backSVG, tileSVG } from "../tiles.js";
import { ngettext } from "../util.js";
import { pickReveals } from "../pickreveal.js";
import { adjustToggle } from "./chain_draw.js";
import { howText, moveText, reasonText } from "./moves.js";
import { autoButton, boneyardPile, rulesHref, waitingNotice } from "./table-rules.js";
import {
  $,
  BOT_LEVELS,
  can,
  isMyTurn,
  legalEnds,
  levelName,
  mySeat,
  page,
  seatName,
  setState,
  sideCount,
  sideName,
  sideSeats,
  snap,
  state,
  t,
} from "./state.js";

export function actionButton(action, label, kind = "") {
  return html`<button type="button" class="button ${kind}" data-action=${action}>${label}</button>`;
}

const hint = (text) => html`<p class="hint">${text}</p>`;

// --- actions under the table ----------------------------------------------

export function renderActions() {
  const s = snap();
  const r = s.round;
  // The turn's own buttons sit on the status's line: on a short phone a turn
  // with only "Passar" or "Comprar" costs the board no extra row.
  const turnButtons = [];
  if (can("draw")) turnButtons.push(actionButton("draw", t("Draw from the boneyard"), "primary"));
  if (can("pass")) turnButtons.push(actionButton("pass", t("Pass"), "primary"));
  if (state.selected) turnButtons.push(actionButton("cancel", t("Cancel (Esc)")));
  const buttons = [...adjustToggle(), autoButton()];
  let status = "";
  if (r && !r.result && s.room.status === "playing") {
    if (isMyTurn()) {
      const ends = state.selected ? legalEnds(state.selected) : [];
      status = state.selected
        ? ends.every((end) => end === "A" || end === "B")
          ? t("Choose the end: A or B.")
          : t("Choose the end: %(ends)s.", { ends: ends.join(", ") }) // a spinner's C and D
        : can("draw")
          ? t("Nothing fits: draw a tile.")
          : can("pass")
            ? t("Nothing fits: you pass automatically.")
            : t("Your turn: choose a tile.");
    } else if (r.turn !== null && r.turn !== undefined) {
      status = t("%(name)s is playing…", { name: seatName(r.turn) });
    }
  }
  const bone =
    r && s.room.rules?.draw
      ? html`<span class="boneyard" title=${t("Tiles left to draw")}>${unsafeHTML(backSVG())}<span>${t("Boneyard: %(n)s", { n: r.boneyard_count ?? 0 })}</span></span>`
      : nothing;
  // Quick chat for seated people, when someone can read it (bots never do).
  const audience = s.seats.some((x) => x.kind === "human" && x.index !== mySeat()) || (s.room.watchers ?? 0) > 0;
  const talk = mySeat() !== null && s.seats[mySeat()]?.kind === "human" && audience ? page.chat.panel() : nothing;
  render(
    html`${waitingNotice()}<div class="turn-line"><div class="turn-status${isMyTurn() ? " mine" : ""}" role="status">${status}</div>${turnButtons}</div>${bone}${boneyardPile()}<div class="action-buttons">${buttons}</div>${talk}`,
    $("[data-actions]"),
  );
}

// --- scores ----------------------------------------------------------------

export function renderScores() {
  const s = snap();
  const m = s.match;
  const rules = s.room.rules || {};
  const sides = sideCount();
  const scores = m?.scores ?? Array(sides).fill(0);
  const target = m?.target ?? rules.target;
  const goal = m?.goal ?? rules.goal;
  const mySide = s.you?.side;
  const rows = scores.map((score, side) => {
    const pct =
      goal === "points" && target
        ? Math.min(100, (score / target) * 100)
        : goal === "best_of" && rules.rounds
          ? Math.min(100, (score / Math.ceil(rules.rounds / 2)) * 100)
          : 0;
    const you = side === mySide ? html` <span class="you">${t("(you)")}</span>` : nothing;
    return html`<li class="score${side === mySide ? " mine" : ""}"><span class="score-name">${sideName(side)}${you}</span><span class="score-value">${score}${madeNow(side)}</span><span class="bar"><span ${css(`width: ${pct.toFixed(0)}%;`)}></span></span></li>`;
  });
  let goalText = "";
  if (goal === "points") goalText = targetText(target, rules.scoring);
  else if (goal === "best_of") goalText = t("Best of %(n)s rounds", { n: rules.rounds });
  else if (goal === "single") goalText = t("A single round");
  const roundNo = s.round?.number;
  const bonus = s.round && !s.round.result ? s.round.bonus ?? 0 : 0; // the partida's blocked rounds
  const bits = [
    goalText,
    bonus ? ngettext("This round is worth %(n)s point more", "This round is worth %(n)s points more", bonus) : "",
    m ? t("Match %(n)s", { n: m.number }) : "",
    roundNo ? t("Round %(n)s", { n: roundNo }) : "",
    s.room.move_seconds
      ? t("%(n)s s per move", { n: s.room.move_seconds })
      : s.room.turn_seconds
        ? t("%(n)s s per move (rated match)", { n: s.room.turn_seconds })
        : t("No move clock"),
  ].filter(Boolean);
  render(html`<ul class="scores">${rows}</ul><p class="match-info">${bits.join(" · ")}</p>`, $("[data-scores]"));
  // Phones: the side panel is below the table, so a one-line score stays on top.
  const line = scores.map(
    (score, side) => html`${side ? html`<i>×</i>` : nothing}<span class="sc${side === mySide ? " mine" : ""}"><span class="nm">${sideName(side)}</span><b>${score}</b></span>`,
  );
  const compact =
    goal === "points" && roundNo
      ? t("Round %(round)s · to %(target)s", { round: roundNo, target })
      : roundNo
        ? t("Round %(n)s", { n: roundNo })
        : "";
  render(html`${line}<small>${compact}</small>`, $("[data-scoreline]"));
}

// The game of points: what a side's plays have made in the round under way (added
// to its score when the round ends), shown beside the score as it is made.
function madeNow(side) {
  const r = snap().round;
  const made = r && !r.result ? r.made?.[side] ?? 0 : 0;
  return made ? html` <small class="made" data-made>+${made}</small>` : nothing;
}

// --- the host's controls, the invite link, leaving and annulment -------------

export function renderHost() {
  const s = snap();
  const parts = [];
  const status = s.room.status;
  if (s.you?.is_host && status !== "closed") {
    const b = [];
    if (status === "waiting") b.push(actionButton("start", t("Start"), "primary"));
    if (status === "waiting") b.push(...aloneButton());
    if (!atStake()) {
      if (status === "playing" && !s.room.paused) b.push(actionButton("pause", t("Pause")));
      if (s.room.paused) b.push(actionButton("resume", t("Resume"), "primary"));
    }
    const levels = BOT_LEVELS.map(
      (l) => html`<option value=${l} .selected=${l === state.botLevel}>${levelName(l)}</option>`,
    );
    const hasEmpty = s.seats.some((x) => x.kind === "empty");
    const level = hasEmpty
      ? html`<label class="inline-field">${t("New bots play")} <select data-new-bot-level>${levels}</select></label>`
      : nothing;
    parts.push(html`<div class="host-controls"><h2>${t("Host")}</h2><div class="row">${b}</div>${level}${settingsForm()}</div>`);
  }
  if (s.room.invite_url && s.room.visibility === "private") {
    const url = new URL(s.room.invite_url, location.href).href;
    parts.push(html`<div class="invite"><h2>${t("Invite link")}</h2>
      <div class="row"><input type="text" readonly .value=${url} aria-label=${t("Invite link")} data-invite-url>
      <button type="button" class="button" data-action="copy_invite">${t("Copy")}</button></div>
      ${hint(t("Whoever opens this link may sit at the first free seat, no account needed."))}</div>`);
  }
  const seated = mySeat() !== null;
  if (seated) parts.push(html`<div class="row">${actionButton("leave", t("Leave the seat"), "ghost small")}${annulButton()}${stakePauseButton()}</div>${annulNote()}`);
  parts.push(pauseNote());
  render(parts, $("[data-host]"));
}

// A rated match in progress (docs/rated-play.md, "The rulebook"): every player
// may pause from their own budget, and the pause ends by itself.
function atStake() {
  const s = snap();
  return !!(s.room.rated && s.match && !s.match.over);
}

function stakePauseButton() {
  const s = snap();
  const me = s.seats[mySeat()];
  if (!atStake() || !me || me.kind !== "human" || s.room.status === "closed") return nothing;
  if (s.room.paused) return s.room.pause?.seat === mySeat() ? actionButton("resume", t("Resume"), "primary small") : nothing;
  if (!(me.pause_left_s > 0)) return nothing;
  return actionButton("pause", t("Pause (%(n)s s left)", { n: me.pause_left_s }), "ghost small");
}

function pauseNote() {
  const p = snap().room.pause;
  if (!p?.ends_at) return nothing;
  const when = new Date(p.ends_at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
  const text = t("%(name)s paused the game: it goes on by itself at %(time)s.", { name: seatName(p.seat), time: when });
  return html`<p class="hint" data-pause-note>${text}</p>`;
}

// A friendly annulment: every person bound to a seat agrees and the match counts
// for nobody. A vote lasts until the end of its round and may be withdrawn; the
// count is the server's (match.annul_voters: no bots, no stand-ins, nobody who left).
function annulButton() {
  const s = snap();
  const me = s.seats[mySeat()];
  if (!s.match || s.match.over || !me || me.kind !== "human") return nothing;
  if ((s.match.annul_votes ?? []).includes(mySeat())) return actionButton("annul_withdraw", t("Withdraw my annulment vote"), "ghost small");
  return actionButton("annul", t("Propose to annul the match"), "ghost small");
}

function annulNote() {
  const s = snap();
  if (s.match?.annulled) return hint(t("This match was annulled: it counts for nobody."));
  const votes = s.match?.annul_votes ?? [];
  if (!votes.length || s.match?.over) return nothing;
  const humans = (s.match?.annul_voters ?? []).length;
  return hint(annulText(votes.length, humans));
}

export function annulText(votes, humans) {
  return ngettext(
    "Annulment: %(votes)s of %(humans)s person agrees.",
    "Annulment: %(votes)s of %(humans)s people agree.",
    humans,
    { votes, humans },
  );
}

function settingsForm() {
  const s = snap();
  if (!["waiting", "between_rounds"].includes(s.room.status)) return nothing;
  const current = s.room.move_seconds ?? "";
  const opts = ["", 10, 15, 20, 30, 45, 60].map(
    (v) => html`<option value=${v} .selected=${String(v) === String(current)}>${v ? ngettext("%(n)s second", "%(n)s seconds", v) : t("No clock")}</option>`,
  );
  // The rules change only before the first match or once a match is over.
  const between = !s.match || s.match.over;
  return html`<details class="settings"><summary>${t("Room settings")}</summary>
    <form data-settings-form class="settings-form">
      <label class="inline-field">${t("Move clock")} <select name="move_seconds">${opts}</select></label>
      ${between ? optionFields() : nothing}
      <button type="submit" class="button" data-action="settings">${t("Save")}</button>
    </form></details>`;
}

function optionFields() {
  const rules = snap().room.rules || {};
  const allowed = page.boot.options || [];
  const yesNo = (name, value) =>
    html`<select name=${name}><option value="1" .selected=${!!value}>${t("yes")}</option><option value="0" .selected=${!value}>${t("no")}</option></select>`;
  const fields = {
    seats: () => html`<select name="seats">${[2, 3, 4].map((n) => html`<option .selected=${n === rules.seats}>${n}</option>`)}</select>`,
    partnership: () => yesNo("partnership", rules.partnership),
    draw: () => yesNo("draw", rules.draw),
    hand_size: () => html`<input type="number" name="hand_size" min="2" max="14" .value=${String(rules.hand_size)}>`,
    target: () => html`<input type="number" name="target" min="50" max="300" .value=${String(rules.target ?? "")}>`,
    scoring: () =>
      html`<select name="scoring">${["opponents", "goat"].map((v) => html`<option value=${v} .selected=${v === rules.scoring}>${v === "goat" ? t("penalty (goat)") : t("opponents' pips")}</option>`)}</select>`,
  };
  const labels = {
    seats: t("Seats"),
    partnership: t("Pairs"),
    draw: t("Boneyard"),
    hand_size: t("Tiles in each hand"),
    target: t("Points to end the match"),
    scoring: t("Scoring"),
  };
  return allowed
    .filter((name) => fields[name])
    .map((name) => html`<label class="inline-field">${labels[name]} ${fields[name]()}</label>`);
}

// --- log ----------------------------------------------------------------------

export function describe(entry) {
  const name = entry.seat !== null && entry.seat !== undefined ? seatName(entry.seat) : "";
  switch (entry.type) {
    case "pass":
      if (entry.by === "auto") return t("%(name)s passed (automatic)", { name }); // "passou (automático)"
      break;
    case "adjust":
      return t("%(name)s adjusted the line", { name }); // "ajustou a fila"
    case "chat":
      return `${entry.name}: ${entry.text}`;
  }
  return moveText(entry, name, t, entry.text || entry.message || entry.type);
}

// Where a chat line goes in the log: after the last move seen.
export function chatPlace() {
  const s = snap();
  return { after: (s.log ?? []).length, round: `${s.match?.number}:${s.round?.number}` };
}

function withChat(log) {
  const s = snap();
  const here = `${s.match?.number}:${s.round?.number}`;
  const redealt = (s.round?.redeals ?? []).map(([seat, doubles]) => ({
    type: "redeal",
    n: 0,
    text: t("%(name)s was dealt %(n)s doubles: every tile was dealt again", { name: seatName(seat), n: doubles }),
  }));
  const out = [...redealt, ...log.map((e, i) => ({ ...e, n: i + 1 }))]; // n: its place in the round's log
  const how = howText(s.round?.result, t); // the partida: "Batida de carroça! +2"
  if (how) out.push({ type: "result", text: how, n: log.length });
  for (const line of page.chat.logLines()) {
    if (line.round !== here) continue;
    let i = out.length;
    while (i > 0 && out[i - 1].type !== "chat" && entryNumber(out[i - 1]) > line.after) i -= 1;
    out.splice(i, 0, { type: "chat", n: line.after, name: line.name, text: line.text });
  }
  return out;
}

export function renderLog() {
  const s = snap();
  const list = $("[data-log]");
  const entries = withChat(s.log ?? []).slice(-60);
  render(
    entries.length
      ? entries.map((e, i) => html`<li class="${i === entries.length - 1 ? "latest" : ""} kind-${e.type}">${describe(e)}</li>`)
      : html`<li class="empty">${t("Nothing played yet.")}</li>`,
    list,
  );
  list.scrollTop = list.scrollHeight;
  // "Last move": a move, not a bend of the line; the screen reader hears every
  // new entry (adjustments too), told apart by its own place in the log (`n`).
  const moves = entries.filter((e) => !["chat", "adjust", "result", "redeal"].includes(e.type));
  const lastMove = moves[moves.length - 1];
  $("[data-last-move]").textContent = lastMove ? describe(lastMove) : "";
  const logged = entries.filter((e) => e.type !== "chat");
  const last = logged[logged.length - 1];
  const key = last ? `${s.match?.number}:${s.round?.number}:${entryNumber(last)}` : null;
  if (last && key !== state.lastLogSeq) {
    setState({ lastLogSeq: key });
    $("[data-announce]").textContent = describe(last);
  }
}

// An entry's place in the round's log (adjustments take no move's `seq`).
function entryNumber(entry) {
  return entry.n ?? 0;
}

// --- round result ---------------------------------------------------------

export function renderResult() {
  const s = snap();
  const panel = $("[data-panel=result]");
  const res = s.round?.result;
  const key = res ? `${s.match?.number}:${s.round.number}` : null;
  if (key !== state.resultFor) {
    setState({ resultFor: key, resultHidden: false });
  }
  if (walkoverPanel(panel)) return;
  // The last tile stays in view for a moment before the panel covers the table.
  const show = res && !state.resultHidden && Date.now() >= state.resultAt;
  panel.hidden = !show;
  $("[data-show-result]").hidden = !(res && state.resultHidden);
  if (!show) {
    render(nothing, panel);
    return;
  }
  const rules = s.room.rules || {};
  const m = s.match;
  let headline;
  if (m?.over) {
    headline = m.winner === null || m.winner === undefined ? t("The match is over.") : t("%(name)s won the match!", { name: sideName(m.winner) });
  } else if (res.winner === null || res.winner === undefined) {
    headline = t("Round drawn: nobody scores.");
  } else {
    headline = t("%(name)s won the round", { name: sideName(res.winner) });
  }
  const hands = s.seats.map((seat) => {
    const tiles = res.hands?.[seat.index] ?? [];
    const shown = tiles.length
      ? unsafeHTML(tiles.map((tile) => tileSVG(tile, { className: "mini" })).join(""))
      : html`<span class="out">${t("no tiles left")}</span>`;
    const pips = pipsCount(res, rules) ? html`<span class="pips">${pipsText(res.pips?.[seat.index] ?? 0)}</span>` : nothing;
    return html`<li><span class="who">${seatName(seat.index)}</span><span class="reveal">${shown}</span>${pips}</li>`;
  });
  const points = (res.points ?? []).map((p, side) => html`<li><span>${sideName(side)}</span><strong>+${p}</strong></li>`);
  render(
    html`<div class="result-card" role="dialog" aria-labelledby="result-title">
    <h2 id="result-title">${headline}</h2>
    <p class="reason" data-how=${res.how ?? ""}>${reasonText(res, t)}</p>
    <ul class="reveal-list" tabindex="0" aria-label=${t("Every hand, revealed")}>${hands}</ul>
    ${pickReveals(s.round.pick_off, seatName, t)}
    <div class="explain">${explain(res, rules).map((l) => html`<p>${l}</p>`)}</div>
    <ul class="points">${points}</ul>
    ${ratingLines()}${noteLine()}${replayLink()}
    <div class="row result-actions">${resultButtons()}</div>
  </div>`,
    panel,
  );
  tickCountdowns();
}

// A finished rated match: each player's rating before and after, and the XP.
function ratingLines() {
  const m = snap().match;
  const changes = m?.over ? m.rating ?? [] : [];
  if (!changes.length) return nothing;
  const rows = changes.map((c) => html`<li><span>${seatName(c.seat)}</span><span>${t("Rating %(before)s → %(after)s, +%(xp)s XP", c)}</span></li>`);
  return html`<ul class="rating-changes" data-rating-changes>${rows}</ul>`;
}

// The finished round's replay page (every hand face up, step by step).
function replayLink() {
  const s = snap();
  if (!s.round?.over) return nothing;
  const url = `/r/${encodeURIComponent(s.room.code)}/rounds/${s.round.number}/?match=${s.match?.number ?? ""}`;
  return html`<p class="replay-link"><a href=${url} data-replay-link>${t("Watch the replay of this round")}</a></p>`;
}

// Whether the pips left in the hands count in this result: everywhere but in
// the partida, where only a blocked round scored to the lower hand reads them
// (docs/rules.md, "How a round is won"); there the panel shows no pips.
export function pipsCount(res, rules) {
  if (rules.scoring !== "how_won") return true;
  return res.reason === "blocked" && rules.closed_round !== "carry"; // (lower_hand: the default, left out of the JSON)
}

// A count of pips in words ("0 pontos", "1 ponto"): the result panel's hands.
export function pipsText(n) {
  return ngettext("%(n)s pip", "%(n)s pips", n);
}

// The scoreboard's goal of a match to points, through the plural like every count.
export function targetText(target, scoring) {
  return scoring === "goat"
    ? ngettext("Whoever reaches %(n)s point loses", "Whoever reaches %(n)s points loses", target)
    : ngettext("Match to %(n)s point", "Match to %(n)s points", target);
}

// The partida's result in words: how the round was won and what it scored.
function explainHowWon(res) {
  const lines = [];
  if (res.reason === "domino" && res.last_player !== null && res.last_player !== undefined) {
    lines.push(t("%(name)s played their last tile.", { name: seatName(res.last_player) }));
  }
  const way = {
    simples: t("The last tile fitted one end only."),
    carroca: t("The last tile was a double."),
    la_e_lo: t("The last tile was not a double and fitted either end."),
    cruzada: t("The last tile was a double and both ends showed its number."),
  }[res.how];
  if (way) lines.push(way);
  if (res.how === "fechado") {
    lines.push(
      res.carry
        ? ngettext(
            "Nobody could play: nobody scores, and the next round is worth %(n)s point more.",
            "Nobody could play: nobody scores, and the next round is worth %(n)s points more.",
            res.carry,
          )
        : t("Nobody could play: the lowest sum scores."),
    );
  }
  const w = res.winner;
  if (w !== null && w !== undefined) {
    const n = res.points?.[w] ?? 0;
    lines.push(ngettext("%(name)s scores %(n)s point.", "%(name)s scores %(n)s points.", n, { name: sideName(w) }));
  }
  return lines;
}

// The game of points' result: what the plays made, and the winner's count of the others' tiles.
function explainFives(res) {
  const made = res.made ?? [];
  const lines = [t("Made by plays: %(terms)s", { terms: made.map((m, side) => `${sideName(side)} ${m}`).join(" · ") })];
  const w = res.winner;
  if (res.reason === "target" && w !== null && w !== undefined) {
    lines.push(t("%(name)s reached the match's target first: the round ends at that play, and the hands are not counted.", { name: sideName(w) }));
  } else if (w !== null && w !== undefined) {
    const n = (res.points?.[w] ?? 0) - (made[w] ?? 0);
    lines.push(t("%(name)s also scores the opponents' pips, rounded to the nearest 5: +%(n)s", { name: sideName(w), n }));
  }
  return lines;
}

export function explain(res, rules) {
  if (rules.scoring === "how_won") return explainHowWon(res);
  if (rules.scoring === "fives") return explainFives(res);
  const lines = [];
  const sides = sideCount();
  const pips = res.pips ?? [];
  if (res.reason === "domino" && res.last_player !== null && res.last_player !== undefined) {
    lines.push(t("%(name)s played their last tile.", { name: seatName(res.last_player) }));
  } else if (res.reason === "blocked") {
    lines.push(t("Nobody could play: the lowest sum wins."));
    const counted = res.counted ?? [];
    if (counted.length) {
      lines.push(counted.map((c, side) => `${sideName(side)}: ${c}`).join(" · "));
      const low = Math.min(...counted);
      if (counted.filter((c) => c === low).length > 1) {
        lines.push(
          {
            last_player_loses: t("Tie: the side that placed the last tile loses."),
            draw: t("Tie: nobody scores."),
            opener_wins: t("Tie: the side that opened the round wins."),
            tiebreak: t("Tie: broken by picking face-down tiles."),
          }[rules.blocked_tie] || "",
        );
      }
    }
  }
  const w = res.winner;
  if (w === null || w === undefined) return lines.filter(Boolean);
  const seatsOf = (side) => sideSeats(side).filter((i) => i < pips.length);
  const all = [...Array(pips.length).keys()];
  const terms = (list) => list.map((i) => `${pips[i]} (${seatName(i)})`).join(" + ");
  const pts = res.points?.[w] ?? 0;
  if (rules.scoring === "series") {
    lines.push(t("The round winner scores 1 point."));
  } else if (rules.scoring === "goat") {
    lines.push(t("Penalty scoring: every other side scores the pips left in its own hands."));
  } else if (res.reason === "blocked" && rules.blocked_points === "difference") {
    const other = (res.counted ?? []).find((_, side) => side !== w) ?? 0;
    lines.push(t("%(name)s scores the difference: %(a)s − %(b)s = %(n)s", { name: sideName(w), a: other, b: res.counted?.[w] ?? 0, n: pts }));
  } else if (rules.scoring === "all_hands") {
    lines.push(t("%(name)s scores the pips left in every hand: %(terms)s = %(n)s", { name: sideName(w), terms: terms(all), n: pts }));
  } else {
    const opp = all.filter((i) => !seatsOf(w).includes(i));
    lines.push(t("%(name)s scores the pips left in the opponents' hands: %(terms)s = %(n)s", { name: sideName(w), terms: terms(opp), n: pts }));
  }
  if (sides > 2) lines.push("");
  return lines.filter(Boolean);
}

function resultButtons() {
  const s = snap();
  const rules = s.room.rules || {};
  const b = [];
  const host = s.you?.is_host;
  if (s.match?.over && rules.goal === "single") {
    b.push(...duelButtons()); // both players accept; alone: against the computer
  } else if (s.match?.over) {
    if (host) b.push(actionButton("new_match", t("New match"), "primary"));
    else b.push(hint(t("Waiting for the host to start a new match.")));
    b.push(...aloneButton());
  } else if (s.room.status === "between_rounds") {
    if (rules.next_round === "all_ready") {
      const me = s.seats[mySeat()];
      if (me && me.kind === "human" && !me.ready) b.push(actionButton("ready", t("Ready"), "primary"));
      else b.push(hint(t("Waiting for everyone to be ready…")));
      b.push(readyCountdown()); // arena: confirm within 60 s or lose by W.O.
    } else if (host) {
      b.push(actionButton("next_round", t("Next round"), "primary"));
    } else {
      b.push(hint(t("Waiting for the host to deal the next round.")));
    }
  }
  b.push(actionButton("hide_result", t("See the table"), "ghost"));
  return b;
}

// --- the duelo's next game and the arena's deadline ----------------------------

function duelButtons() {
  const s = snap();
  const me = s.seats[mySeat()];
  const other = s.seats.find((x) => x.index !== mySeat());
  const b = [];
  if (me?.kind === "human") {
    if (!me.ready) b.push(actionButton("new_match", t("New match"), "primary"));
    else if (other?.kind === "human") b.push(html`<p class="hint" data-pending>${t("Waiting for %(name)s to accept…", { name: seatName(other.index) })}</p>`);
    if (other?.kind === "human" && other.ready && !me.ready) {
      b.push(html`<p class="hint" data-pending>${t("%(name)s wants a new game.", { name: seatName(other.index) })}</p>`);
    }
  }
  b.push(...aloneButton());
  return b;
}

// While the second seat is free the creator may restart alone against the computer.
function aloneButton() {
  const s = snap();
  const other = s.seats.length === 2 && mySeat() !== null ? s.seats[1 - mySeat()] : null;
  if (!s.you?.is_host || other?.kind !== "empty" || s.room.status === "playing") return [];
  return [actionButton("restart_alone", t("Play against the computer"))];
}

// The countdown's text is kept by tickCountdowns (the template leaves it empty).
function readyCountdown() {
  const r = snap().round;
  if (!["walkover", "ready"].includes(r?.due_kind) || !r.deadline) return nothing;
  return html`<p class="countdown" data-deadline=${r.deadline} data-deadline-kind=${r.due_kind}></p>`;
}

function countdownText(deadline, kind) {
  const left = Math.max(0, Math.ceil((Date.parse(deadline) - Date.now()) / 1000));
  if (kind === "ready") return t("Be ready within %(n)s s, or your seat is freed.", { n: left });
  return t("Confirm within %(n)s s, or lose the series by walkover (W.O.).", { n: left });
}

export function tickCountdowns() {
  for (const el of page.root.querySelectorAll("[data-deadline]")) el.textContent = countdownText(el.dataset.deadline, el.dataset.deadlineKind);
}

// A series ended by walkover (W.O.): said so, with what comes next.
function walkoverPanel(panel) {
  const m = snap().match;
  if (!m?.over) return false;
  const won = m.winner !== null && m.winner !== undefined;
  if (m.ended_by === "abandono") {
    // A rated match left before its end: the leaver's side lost it (docs/rated-play.md).
    const headline = won
      ? t("%(name)s wins: the other side abandoned the match.", { name: sideName(m.winner) })
      : t("The match ended: a player abandoned it.");
    return endedPanel(panel, `ab:${m.number}`, html`<h2 id="result-title">${headline}</h2>
      <p class="reason">${t("Abandonment")}</p>
      ${abandonedLines(m).map(({ seat, text }) => html`<p class="hint" data-abandoned-seat=${seat}>${text}</p>`)}
      ${ratingLines()}${noteLine()}`, "abandoned");
  }
  if (m.ended_by !== "walkover") return false;
  const headline = won
    ? t("%(name)s wins the series by walkover (W.O.).", { name: sideName(m.winner) })
    : t("The series ended by walkover (W.O.).");
  endedPanel(panel, `wo:${m.number}`, html`<h2 id="result-title">${headline}</h2>
    <p class="reason">${t("Walkover")}</p>`, "walkover");
  tickCountdowns();
  return true;
}

// "X abandoned the match." for each who did, named as their seat showed them
// then (kept by the server: the seat is empty by now, docs/protocol.md), else
// by the seat's own name.
export function abandonedLines(m) {
  const names = m.abandoned_names || [];
  return (m.abandoned || []).map((seat, k) => ({ seat, text: t("%(name)s abandoned the match.", { name: names[k] || seatName(seat) }) }));
}

// The panel of a match that ended without its last round: `body`, then the buttons.
function endedPanel(panel, key, body, marker) {
  if (state.resultFor !== key) {
    setState({ resultFor: key, resultHidden: false });
  }
  panel.hidden = state.resultHidden;
  $("[data-show-result]").hidden = !state.resultHidden;
  const card = html`${body}<div class="row result-actions">${resultButtons()}</div>`;
  render(
    marker === "walkover"
      ? html`<div class="result-card" role="dialog" aria-labelledby="result-title" data-walkover>${card}</div>`
      : html`<div class="result-card" role="dialog" aria-labelledby="result-title" data-abandoned>${card}</div>`,
    panel,
  );
  return true;
}

// Why a finished match that started rated counted for nobody.
function noteLine() {
  const m = snap().match;
  if (!m?.over || m.note !== "no_move") return nothing;
  return html`<p class="hint" data-match-note>${t("This match counts for nobody: a player never made a move themselves.")}</p>`;
}

// --- the title's extras ------------------------------------------------------

export function renderTitleExtras() {
  const s = snap();
  const watching = $("[data-watchers]");
  if (watching) {
    const n = s.room.watchers ?? 0;
    watching.hidden = n < 1;
    watching.textContent = ngettext("%(n)s watching", "%(n)s watching", n);
  }
  const rules = $("[data-rules-link]");
  if (rules) rules.href = rulesHref(s.room); // this table's options, not the preset's defaults
}

// ---------------------------------------------------------------------------
// Notices

export function banner(text, kind = "warn") {
  const el = $("[data-banner]");
  el.hidden = !text;
  el.className = `banner ${kind}`;
  el.textContent = text || "";
}

let toastTimer;
export function toast(text, kind = "info") {
  const el = $("[data-toast]");
  el.textContent = text;
  el.className = `toast ${kind} show`;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => el.classList.remove("show"), 3500);
}

export function showReplaced() {
  $("[data-replaced]").hidden = false;
  banner(null);
}
