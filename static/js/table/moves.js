// A log entry in words, for the table's log (panels.js) and the replay page's
// (replay.js): a play, a draw, a pass or a pick, and how it was made (time ran
// out, the bot standing in, automatic). The caller names the seat and hands
// over its own t(); what only one page shows stays with that page. The strings
// are the table's (rooms/page_strings.py TABLE), which the replay page also gets.

import { ngettext } from "../util.js";

// `other`: the text of an entry of another type.
export function moveText(entry, name, t, other = entry.type) {
  let text;
  switch (entry.type) {
    case "play":
      text = entry.end
        ? t("%(name)s played %(tile)s on end %(end)s", { name, tile: entry.tile, end: entry.end })
        : t("%(name)s opened with %(tile)s", { name, tile: entry.tile });
      break;
    case "draw":
      text = entry.ends ? missing(entry.ends, name, t, "drew") : t("%(name)s drew a tile", { name });
      break;
    case "pass":
      text = entry.ends ? missing(entry.ends, name, t, "passed") : t("%(name)s passed", { name });
      break;
    case "pick":
      text = t("%(name)s picked a face-down tile", { name });
      break;
    default:
      text = other;
  }
  if (entry.type === "play" && entry.scored) {
    text += " — " + t("the ends add up to %(n)s: +%(n)s", { n: entry.scored }); // the game of points
  }
  if (entry.by === "timeout") text += " — " + t("time ran out: automatic move");
  else if (entry.by === "substitute") text += " — " + t("played by the bot standing in");
  else if (entry.by === "auto") text += " — " + t("automatic move");
  return text;
}

// A draw or a pass names the numbers the seat lacks: once when both ends show
// the same number ("no 6", not "no 6, no 6"); at a spinner's four ends, every
// number they show ("none of 0, 3, 5").
function missing(ends, name, t, verb) {
  const numbers = [...new Set(Object.values(ends))];
  if (numbers.length > 2) {
    const list = numbers.join(", ");
    return verb === "drew"
      ? t("%(name)s drew a tile (none of %(numbers)s)", { name, numbers: list })
      : t("%(name)s passed (none of %(numbers)s)", { name, numbers: list });
  }
  const b = numbers.length > 1 ? numbers[1] : ends.B;
  const same = numbers.length === 1;
  if (verb === "drew") {
    return same
      ? t("%(name)s drew a tile (no %(a)s)", { name, a: numbers[0] })
      : t("%(name)s drew a tile (no %(a)s, no %(b)s)", { name, a: numbers[0], b });
  }
  return same
    ? t("%(name)s passed (no %(a)s)", { name, a: numbers[0] })
    : t("%(name)s passed (no %(a)s, no %(b)s)", { name, a: numbers[0], b });
}

// A spinner's open sides in the chain's accessible name (table and replay).
export function sidesLabel(ends, t) {
  if (ends?.C === undefined || ends?.C === null) return "";
  return " " + t("The spinner's end C shows %(c)s, end D shows %(d)s.", { c: ends.C, d: ends.D });
}

// How a round of the partida was won, with what it scored (pt-BR "Batida de carroça! +2"):
// the result panel's headline and the log's last line (docs/rules.md, "How a round
// is won"). The points blocked rounds carried to the round (`carried`) are said
// apart from the win's own, as the rules page counts them: "Lá-e-lô! +3, mais 1
// do jogo fechado". Empty for a table that scores otherwise.
export function howText(res, t) {
  const words = {
    simples: t("Simple domino (batida simples)!"),
    carroca: t("Domino with a double (carroça)!"),
    la_e_lo: t("Either end (lá-e-lô)!"),
    cruzada: t("A double on both ends (cruzada)!"),
    fechado: t("Closed game (jogo fechado)"),
    doubles: t("Six doubles in one hand!"),
  }[res?.how];
  if (!words) return "";
  const w = res.winner;
  const points = w === null || w === undefined ? 0 : res.points?.[w] ?? 0;
  if (!points) return words;
  const carried = Math.min(res.carried ?? 0, points);
  if (!carried) return `${words} +${points}`;
  const more = ngettext("plus %(n)s from the closed game", "plus %(n)s from the closed games", carried);
  return `${words} +${points - carried}, ${more}`;
}

// How a round ended, in words: the partida's way of winning (`howText`), a
// domino, a game of points stopped at the match's target, or a blocked game.
export function reasonText(res, t) {
  const how = howText(res, t);
  if (how) return how;
  if (res?.reason === "domino") return t("Domino!");
  if (res?.reason === "target") return t("The match's target is reached!");
  return t("Blocked game");
}
