// A side as the subject of a sentence, for the table (panels.js) and the replay
// (replay.js). A side is one person or a partnership of two, and the verb agrees
// with it: "Ana marca 1 ponto", "Ana e Dona Cida marcam 2 pontos" (docs/site.md,
// "Names at the table"). Each sentence goes through Django's JavaScript catalog
// (ngettext, /jsi18n/) keyed on how many people the side is; the one that also
// counts points picks its sentence by the people and its form by the points, so
// both plurals come from the catalog (zero is plural in Portuguese).
// `names`: the side's seat names, as seatName gives them; `t`: the page's t().

import { ngettext } from "../util.js";

// "Ana e Dona Cida" (pt-BR), "Ana and Dona Cida".
export function joinNames(names, t) {
  return names.length === 2 ? t("%(a)s and %(b)s", { a: names[0], b: names[1] }) : names.join(", ");
}

const said = (names, t) => ({ name: joinNames(names, t) });

// What a side scored, both plurals through the catalog.
export function sideScores(names, n, t) {
  return names.length === 1
    ? ngettext("%(name)s scores %(n)s point.", "%(name)s scores %(n)s points.", n, said(names, t))
    : ngettext("%(name)s score %(n)s point.", "%(name)s score %(n)s points.", n, said(names, t));
}

export const sideWonRound = (names, t) => ngettext("%(name)s won the round", "%(name)s won the round", names.length, said(names, t));

export const sideWonMatch = (names, t) => ngettext("%(name)s won the match!", "%(name)s won the match!", names.length, said(names, t));

export const sideReachedTarget = (names, t) =>
  ngettext(
    "%(name)s reached the match's target first: the round ends at that play, and the hands are not counted.",
    "%(name)s reached the match's target first: the round ends at that play, and the hands are not counted.",
    names.length,
    said(names, t),
  );

export const sideAlsoScores = (names, n, t) =>
  ngettext(
    "%(name)s also scores the opponents' pips, rounded to the nearest 5: +%(points)s",
    "%(name)s also score the opponents' pips, rounded to the nearest 5: +%(points)s",
    names.length,
    { ...said(names, t), points: n },
  );

export const sideScoresDifference = (names, params, t) =>
  ngettext(
    "%(name)s scores the difference: %(a)s − %(b)s = %(points)s",
    "%(name)s score the difference: %(a)s − %(b)s = %(points)s",
    names.length,
    { ...said(names, t), ...params },
  );

export const sideScoresEveryHand = (names, params, t) =>
  ngettext(
    "%(name)s scores the pips left in every hand: %(terms)s = %(points)s",
    "%(name)s score the pips left in every hand: %(terms)s = %(points)s",
    names.length,
    { ...said(names, t), ...params },
  );

export const sideScoresOpponents = (names, params, t) =>
  ngettext(
    "%(name)s scores the pips left in the opponents' hands: %(terms)s = %(points)s",
    "%(name)s score the pips left in the opponents' hands: %(terms)s = %(points)s",
    names.length,
    { ...said(names, t), ...params },
  );

export const sideWinsAbandoned = (names, t) =>
  ngettext(
    "%(name)s wins: the other side abandoned the match.",
    "%(name)s win: the other side abandoned the match.",
    names.length,
    said(names, t),
  );

export const sideWinsWalkover = (names, t) =>
  ngettext("%(name)s wins the series by walkover (W.O.).", "%(name)s win the series by walkover (W.O.).", names.length, said(names, t));
