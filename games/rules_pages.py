"""The rules pages (docs/site.md, "Rules pages"): ``/regras/`` lists the tables and
``/regras/<preset>/`` explains one, generated from the preset's `RuleSet` knobs
(seats, dealing, who opens, drawing, blocking, scoring, ties, match goal), so a
page never disagrees with the engine. The worked example is played by the
engine itself: a round where seat 1 plays its last tile, scored by the rules.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET

from games.engine import PRESET_OPTIONS, PRESETS, Round, RuleSet
from games.presets import PRESET_LABELS, describe_rules

#: Hands of the worked example, by seat count: seat 0 holds one tile and plays it.
EXAMPLE_HANDS = {
    2: [["3-4"], ["5-6", "2-3"]],
    3: [["3-4"], ["5-6", "2-3"], ["1-1", "0-4"]],
    4: [["3-4"], ["5-6", "2-3"], ["4-4"], ["1-1", "0-2"]],
}


def seat_label(index: int) -> str:
    return _("Seat %(n)s") % {"n": index + 1}


def side_label(rules: RuleSet, side: int) -> str:
    seats = rules.seats_of(side)
    if len(seats) == 1:
        return seat_label(seats[0])
    return _("Seats %(a)s and %(b)s") % {"a": seats[0] + 1, "b": seats[1] + 1}


def _points(n: int) -> str:
    return ngettext("%(n)s point", "%(n)s points", n) % {"n": n}


def sections(rules: RuleSet) -> list[dict[str, Any]]:
    """The page's sections, each ``{"key", "title", "lines"}``, from the knobs."""
    return [
        {"key": "seats", "title": _("Players"), "lines": _players(rules)},
        {"key": "deal", "title": _("Dealing"), "lines": _deal(rules)},
        {"key": "opening", "title": _("Who opens"), "lines": _opening(rules)},
        {"key": "play", "title": _("Playing a tile"), "lines": _play()},
        {"key": "draw", "title": _("When nothing fits"), "lines": _draw(rules)},
        {"key": "blocked", "title": _("Blocked game"), "lines": _blocked(rules)},
        {"key": "scoring", "title": _("Scoring"), "lines": _scoring(rules)},
        {"key": "ties", "title": _("Ties"), "lines": _ties(rules)},
        {"key": "goal", "title": _("The match"), "lines": _goal(rules)},
    ]


def _players(rules: RuleSet) -> list[str]:
    if rules.partnership:
        return [
            _("Four players in two fixed pairs: seats 1 and 3 against seats 2 and 4."),
            _("Partners add their hands together; turns go 1, 2, 3, 4 and back to 1."),
        ]
    return [
        _("%(n)s players, each for themselves; turns go in seat order.") % {"n": rules.seats},
    ]


def _deal(rules: RuleSet) -> list[str]:
    dealt = rules.seats * rules.hand_size
    left = 28 - dealt
    lines = [
        _("The set has 28 tiles, from 0-0 to 6-6. Each player gets %(n)s, shuffled by the server.")
        % {"n": rules.hand_size}
    ]
    if left and rules.draw:
        lines.append(
            ngettext(
                "The other tile forms the boneyard to draw from.",
                "The other %(n)s tiles form the boneyard to draw from.",
                left,
            )
            % {"n": left}
        )
    elif left:
        lines.append(
            ngettext(
                "The other tile sleeps face down: nobody draws it or ever sees it.",
                "The other %(n)s tiles sleep face down: nobody draws them or ever sees them.",
                left,
            )
            % {"n": left}
        )
    else:
        lines.append(_("Every tile is dealt: there is no boneyard."))
    return lines + _redeal(rules)


def _redeal(rules: RuleSet) -> list[str]:
    """The doubles in the deal (docs/rules.md, "Doubles in the deal")."""
    if rules.redeal_doubles is None:
        return []
    lines = [
        _("A hand dealt %(n)s doubles or more is shown to everyone and all the tiles are "
          "dealt again.") % {"n": rules.redeal_doubles}
    ]  # fmt: skip
    if rules.redeal_worth_double:
        lines.append(_("The round dealt again is worth double."))
    if rules.doubles_prizes:
        lines.append(
            _("Five doubles in a hand score 1 point for its side; six doubles win the match "
              "at once.")
        )  # fmt: skip
    return lines


def _opening_rule(kind: str) -> str:
    return {
        "double_six": _("whoever holds 6-6 opens, and must open with it (if 6-6 was not "
                        "dealt: the highest double)"),
        "one_one": _("whoever holds 1-1 opens with it; without 1-1, the lowest double from "
                     "2-2 up to 6-6, then 0-0; with no double, the highest tile"),
        "highest_double": _("whoever holds the highest double opens with it; with no double, "
                            "the highest tile by pips (ties: the larger half, 1-6 before "
                            "2-5), which must be played first"),
        "lowest_double": _("whoever holds the lowest double (0-0 does not count) opens, with "
                           "any tile; with no such double, whoever holds the lowest tile"),
        "highest_tile": _("whoever holds the highest tile by pips opens, with any tile (ties: "
                          "the larger half)"),
    }[kind]  # fmt: skip


def _opening(rules: RuleSet) -> list[str]:
    first = _opening_rule(rules.first_opening)
    lines = [_("First round of a match: %(rule)s.") % {"rule": first}]
    if rules.goal == "single":
        return lines
    later = {
        "rotate": _("Later rounds: the seat after the previous opener opens, with any tile."),
        "winner": _("Later rounds: the winner of the previous round opens, with any tile "
                    "(after a drawn round, the previous opener)."),
        "same": _("Later rounds are opened the same way as the first."),
    }[rules.next_opening]  # fmt: skip
    lines.append(later)
    return lines


def _play() -> list[str]:
    return [
        _("A tile goes on end A or end B of the line; one of its halves must show that "
          "end's number. The server turns it so that the numbers touch."),
        _("Doubles lie across the line but are ordinary links: the line always has two ends."),
        _("When a tile fits both ends, you choose the end. If a tile fits, you must play."),
        _("On your turn you may adjust the line: bend it left or right at a tile (never at "
          "the first tile, at a double or right after one). It is not a move: you play next."),
    ]  # fmt: skip


def _draw(rules: RuleSet) -> list[str]:
    if rules.draw:
        return [
            _("Nothing fits: draw one tile at a time from the boneyard until one does."),
            _("Only with the boneyard empty and nothing that fits do you pass; the server "
              "passes for you after about a second."),
        ]  # fmt: skip
    return [
        _("Nothing fits: you pass. The server passes for you after about a second."),
        _("A play resets the count of passes in a row."),
    ]


def _blocked(rules: RuleSet) -> list[str]:
    lines = [
        _("When every player passes in a row (%(n)s passes), the game is blocked.")
        % {"n": rules.seats}
    ]
    if rules.lock_closure:
        lines.append(
            _("It is blocked at once when both ends show the same number and all seven tiles "
              "of that number are on the table. A last tile that does this is still a domino.")
        )  # fmt: skip
    if rules.scoring == "how_won" and rules.closed_round == "carry":
        lines.append(
            _("A blocked game (jogo fechado) scores nothing: the next round is worth 1 point "
              "more, and blocked rounds in a row add up.")
        )  # fmt: skip
        return lines
    lines.append(
        _("Blocked: the hands are shown and the side with the lowest pip total wins, whatever "
          "the number of tiles.")
    )  # fmt: skip
    if rules.scoring == "how_won":
        lines.append(_("A blocked game (jogo fechado) is worth 1 point to that side."))
    return lines


def _ways(rules: RuleSet) -> dict[str, str]:
    """Each way of winning a round of the partida, with what it is worth here."""
    return {
        "simples": _("Batida simples: the last tile fits one end only. %(points)s.")
        % {"points": _points(rules.simples_points)},
        "carroca": _("Carroça: the last tile is a double. %(points)s.")
        % {"points": _points(rules.carroca_points)},
        "la_e_lo": _("Lá-e-lô: the last tile is not a double and fits either end (ends 3 and "
                     "5, last tile 3-5). %(points)s.")
        % {"points": _points(rules.la_e_lo_points)},
        "cruzada": _("Cruzada: the last tile is a double and both ends show its number. "
                     "%(points)s.")
        % {"points": _points(rules.cruzada_points)},
    }  # fmt: skip


def _newer_scoring(rules: RuleSet) -> list[str]:
    """The partida (``how_won``) and the game of points (``fives``)."""
    if rules.scoring == "how_won":
        return [
            _("The points depend on how the round is won, with the last tile:"),
            *_ways(rules).values(),
            _("The tiles left in the hands do not count, except to decide a blocked game."),
        ]
    lines = [
        _("After every play, if the open ends add up to a multiple of 5 the player's side "
          "scores that sum; a double at an end counts both halves."),
    ]  # fmt: skip
    if rules.spinner:
        lines.append(
            _("The first double played is a spinner: once a tile lies on each of its sides "
              "along the line, its two other sides open as ends C and D, which count once a "
              "tile lies on them.")
        )  # fmt: skip
    lines.append(
        _("The winner of the round also scores the pips left in the opponents' hands, "
          "rounded to the nearest 5.")
    )  # fmt: skip
    return lines


def _scoring(rules: RuleSet) -> list[str]:
    if rules.scoring in ("how_won", "fives"):
        return _newer_scoring(rules)
    lines = {
        "opponents": [_("The winning side scores the pips left in the opponents' hands; a "
                        "partner's tiles neither add nor subtract.")],
        "all_hands": [_("The winning side scores the pips left in every hand at the table, "
                        "the partner's included.")],
        "goat": [_("Penalty scoring: the winner scores nothing; every other side scores the "
                   "pips left in its own hands."),
                 _("A lone 0-0 left in a hand counts 25 and a lone 6-6 counts 50.")],
        "series": [_("The winner of each round scores 1 point.")],
    }[rules.scoring]  # fmt: skip
    if rules.blocked_points == "difference":
        lines.append(
            _("On a blocked game the winner scores the difference: the loser's pips minus "
              "their own.")
        )  # fmt: skip
    lines.append(_("There are no bonuses (no points for a double at the end, nor for ends "
                   "adding up to fives)."))  # fmt: skip
    return lines


def _ties(rules: RuleSet) -> list[str]:
    if rules.scoring == "how_won" and rules.closed_round == "carry":
        return [_("A blocked game has no winner here, so there is no tie to break.")]
    return [
        {
            "last_player_loses": _("Equal lowest sums on a blocked game: the side of the "
                                   "player who placed the last tile loses."),
            "draw": _("Equal lowest sums on a blocked game: a draw, nobody scores."),
            "opener_wins": _("Equal lowest sums on a blocked game: the side that opened the "
                             "round wins."),
            "tiebreak": _("Equal lowest sums on a blocked game: the tied players each pick a "
                          "face-down tile; the lowest pips wins, and those still tied pick "
                          "again."),
        }[rules.blocked_tie]
    ]  # fmt: skip


def _goal(rules: RuleSet) -> list[str]:
    if rules.goal == "points" and rules.scoring == "goat":
        lines = [ngettext("Points add up from round to round; whoever reaches %(n)s point first "
                          "loses the match.",
                          "Points add up from round to round; whoever reaches %(n)s points first "
                          "loses the match.", rules.target or 0) % {"n": rules.target}]  # fmt: skip
    elif rules.goal == "points":
        lines = [ngettext("Points add up from round to round; the first side to reach %(n)s point "
                          "wins the match.",
                          "Points add up from round to round; the first side to reach %(n)s points "
                          "wins the match.", rules.target or 0) % {"n": rules.target}]  # fmt: skip
        if rules.scoring == "fives":
            lines.append(
                _("The first side to reach the match's target wins it at once: a play that "
                  "takes a side there ends the round, and the hands are not counted.")
            )  # fmt: skip
    elif rules.goal == "best_of":
        lines = [_("Best of %(n)s rounds: the first to win %(k)s rounds wins the series.")
                 % {"n": rules.rounds, "k": (rules.rounds or 1) // 2 + 1}]  # fmt: skip
    else:
        lines = [_("A single round decides the game. A new game starts when both players "
                   "accept it; alone at the table, you can restart against the computer.")]  # fmt: skip
    if rules.goal != "single":
        lines.append(
            _("The host deals the next round.") if rules.next_round == "host"
            else _("The next round starts when every player has pressed Ready (bots always are).")
        )  # fmt: skip
    if rules.walkover:
        lines.append(_("Between rounds each player confirms within 60 seconds; who does not, "
                       "or abandons the series, loses by walkover (W.O.)."))  # fmt: skip
    lines.append(_("The tiles are shown after each round, with the sums that justify the score."))
    return lines


def worked_example(rules: RuleSet) -> dict[str, Any]:
    """Seat 1 plays its last tile (a domino), scored by the engine with these rules."""
    hands = EXAMPLE_HANDS[rules.seats]
    rnd = Round.from_hands(rules, hands=hands, opener=0)
    rnd.apply(0, rnd.legal_actions(0)[0])
    result = rnd.result
    assert result is not None, "the example's first tile ends the round"
    left = []
    for index in range(1, rules.seats):
        tiles = hands[index]
        pips = result.pips[index]
        left.append({"seat": seat_label(index), "tiles": tiles, "pips": _points(pips)})
    scores = [
        {"side": side_label(rules, side), "points": result.points[side]}
        for side in range(rules.sides)
    ]
    winner = side_label(rules, result.winner) if result.winner is not None else ""
    if result.how in ("simples", "carroca", "la_e_lo", "cruzada"):
        explain = _ways(rules)[result.how]
    else:
        explain = _scoring(rules)[-1 if rules.scoring == "fives" else 0]
    return {
        "intro": _("%(seat)s plays 3-4, their last tile: a domino. The others still hold:")
        % {"seat": seat_label(0)},
        "left": left,
        "winner": winner,
        "scores": scores,
        "explain": explain,
    }


def _option_label(name: str) -> str:
    labels = {
        "seats": _("Number of players (2 to 4)"),
        "partnership": _("Pairs at four players"),
        "hand_size": _("Tiles in each hand"),
        "scoring": _("Scoring: the winner takes the points, or the goat's penalty scoring"),
        "target": _("Points that end the match"),
        "draw": _("Boneyard below four players"),
    }
    return labels.get(name, name)


OPTION_KINDS = {"seats": int, "hand_size": int, "target": int, "partnership": bool, "draw": bool,
                "scoring": str}  # fmt: skip


def table_options(preset: str, query: Any) -> dict[str, Any]:
    """The options of a table read from a query string: only knobs the preset lets
    a room change, each of its type; an impossible combination gives none."""
    options: dict[str, Any] = {}
    for name in sorted(PRESET_OPTIONS.get(preset, frozenset()) & set(OPTION_KINDS)):
        raw = query.get(name)
        if raw is None or len(raw) > 8:
            continue
        kind = OPTION_KINDS[name]
        if kind is bool:
            if raw not in ("0", "1"):
                return {}
            options[name] = raw == "1"
        elif kind is int:
            if not raw.isdigit():
                return {}
            options[name] = int(raw)
        else:
            options[name] = raw
    try:
        RuleSet.preset(preset, **options)
    except (ValueError, TypeError):  # InvalidRules is a ValueError
        return {}
    return options


@require_GET
def rules_index(request: HttpRequest) -> HttpResponse:
    """``/regras/``: every table with its summary."""
    tables = [
        {"key": key, "label": PRESET_LABELS.get(key, key), "summary": describe_rules(rules)}
        for key, rules in PRESETS.items()
    ]
    return render(request, "games/rules_index.html", {"tables": tables})


@require_GET
def rules_preset(request: HttpRequest, preset: str) -> HttpResponse:
    """``/regras/<preset>/``: one table's rules, from its `RuleSet`; with a table's
    options in the query ("Regras desta mesa": ``?target=150&hand_size=5``) the
    rules of that table, not the preset's defaults."""
    rules = PRESETS.get(preset)
    if rules is None:
        raise Http404(_("There is no such table."))
    options = table_options(preset, request.GET)
    if options:
        rules = RuleSet.preset(preset, **options)
    context = {
        "key": preset,
        "this_table": bool(options),
        "label": PRESET_LABELS.get(preset, preset),
        "summary": describe_rules(rules),
        "sections": sections(rules),
        "example": worked_example(rules),
        "options": [_option_label(name) for name in sorted(PRESET_OPTIONS[preset])],
        "others": [
            {"key": key, "label": PRESET_LABELS.get(key, key)} for key in PRESETS if key != preset
        ],
    }
    return render(request, "games/rules_preset.html", context)
