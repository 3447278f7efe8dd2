"""One deal of dominoes, from the opening tile to domino or block.

>>> import random
>>> from games.engine import PRESETS, Round
>>> rnd = Round.deal(PRESETS["parceria"], rng=random.Random(7))
>>> seat = rnd.turn
>>> rnd.legal_actions()                      # the 6-6 holder must open with it
[Play(tile=Tile(6, 6), end=None)]
>>> rnd.apply(seat, rnd.legal_actions()[0])
>>> rnd.ends, rnd.turn == (seat + 1) % 4
((6, 6), True)

Choices docs/rules.md leaves open, decided here:

* The first link's ``exposed`` is its larger half (the number at end B).
* A play given an end for the very first tile is refused as ``malformed``: the
  first tile goes on no end, and the accepted actions stay exactly the legal ones
  (plus an end-less play where only one end fits).
* ``last_player_loses`` with three or more sides: if the last player's side is
  among the tied, the next tied side after it in turn order wins; otherwise the
  first tied side after the last player.
* Tie-break pick-off: every seat of every tied side picks; positions are
  exclusive (a position chosen by one picker is no longer offered to the others,
  so two secret picks never collide); the lowest revealed tile wins for its side;
  if the lowest is shared across sides only those pickers pick again. Should the
  positions run out (never in practice) the round is drawn.
* With ``previous`` given but ``first_of_match`` false and no previous round
  (tests), the first-round opening rule is used.

Why one long module: it is the one mutable `Round` (as python-chess keeps its
`Board` whole). Every rule of a round reads and writes the same hands, chain,
boneyard and turn, and splitting it would spread one state over modules that
each need all of it; the small values it uses live in ``tiles.py``, ``rules.py``
and ``actions.py``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .actions import DRAW, PASS, Action, Draw, IllegalAction, Pass, Pick, Play, action_from_dict
from .fairness import too_many_doubles
from .pickoff import PickOff
from .result import Link, RoundResult
from .rules import WIN_KNOBS, RuleSet
from .tiles import ALL_TILES, DOUBLES, Tile, highest_key, lowest_key

_END_SLOT: dict[str | None, int] = {None: 0, "A": 1, "B": 2, "C": 3, "D": 4}
_PLAYS: list[Play] = [Play(t, e) for t in ALL_TILES for e in (None, "A", "B")]


# _FITS[x * 7 + y][tile.index]: the plays of that tile when the ends show x (A) and y (B).
_FITS: list[list[tuple[Play, ...]]] = [
    [
        tuple(_PLAYS[t.index * 3 + slot] for slot, n in ((1, x), (2, y)) if t.has(n))
        for t in ALL_TILES
    ]
    for x in range(7)
    for y in range(7)
]
# _OTHER[tile.index][n]: the half opposite n, or -1 when the tile has no n.
_OTHER: list[list[int]] = [[t.other(n) if t.has(n) else -1 for n in range(7)] for t in ALL_TILES]


#: One history entry: (seat, action, the ends before it; None before the first tile).
#: The ends are (A, B), or (A, B, C, D) for a play on a spinner's side.
_Entry = tuple[int, Action, tuple[int, ...] | None]
#: The deal as dealt, kept cheaply until `Round.initial` is asked for: the shuffled set
#: the hands were sliced from (`deal`), or the given hands and boneyard (`from_hands`).
_Deal = list[Tile] | tuple[tuple[tuple[Tile, ...], ...], tuple[Tile, ...]]


def _shuffled(rng: Any) -> list[Tile]:
    """The 28 tiles shuffled by ``rng``: a uniform shuffle by random sort keys, as fair
    as rng.shuffle (53-bit keys essentially never tie) and about twice as fast, which
    the bots' rollouts feel."""
    draw = rng.random
    return sorted(ALL_TILES, key=lambda _tile: draw())


def _redealt(
    rules: RuleSet,
    tiles: list[Tile],
    redeals: list[tuple[int, int]],
    rng: Any,
    orders: Iterable[Sequence[Tile | str]] | None,
) -> list[Tile]:
    """The order a table that redeals for too many doubles plays from: ``tiles``, or
    the first next order (from ``orders``, else ``rng``) with no such hand; each
    deal made again is appended to ``redeals`` as (seat, doubles). Six doubles stand
    where they win the match (``doubles_prizes``)."""
    threshold = rules.redeal_doubles
    assert threshold is not None
    more = iter(orders) if orders is not None else None
    while (found := too_many_doubles(tiles, rules.seats, rules.hand_size, threshold)) is not None:
        redeals.append(found)
        if rules.doubles_prizes and found[1] >= 6:
            break
        if more is not None:
            tiles = _tile_list(next(more), "redeal order")
            if sorted(tiles) != list(ALL_TILES):
                raise ValueError("a redeal order must hold each of the 28 tiles once")
        elif rng is not None:
            tiles = _shuffled(rng)
        else:
            raise ValueError(
                f"seat {found[0] + 1} holds {found[1]} doubles: the deal is made again,"
                " which needs rng or redeal_orders"
            )
    return tiles


#: Plays on a spinner's sides (docs/rules.md, "The game of points"), one object each.
_SIDE_PLAYS: dict[tuple[int, str], Play] = {
    (t.index, e): Play(t, e) for t in ALL_TILES for e in ("C", "D")
}
#: A spinner table's spinner before any double: (number, sides still waiting, C, D).
_NO_SPINNER = (-1, 0, -1, -1)


def _play(tile: Tile, end: str | None) -> Play:
    if end == "C" or end == "D":
        return _SIDE_PLAYS[tile.index, end]
    return _PLAYS[tile.index * 3 + _END_SLOT[end]]


def _tile_list(tiles: Iterable[Any], what: str) -> list[Tile]:
    try:
        return [Tile.parse(t) for t in tiles]
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{what}: {exc}") from None


def hand_value(hand: Sequence[Tile], goat: bool) -> int:
    """Pips a hand counts for. Under goat scoring a lone 0-0 counts 25 and a lone 6-6 50."""
    if goat and len(hand) == 1:
        only = hand[0]
        if only is DOUBLES[0]:
            return 25
        if only is DOUBLES[6]:
            return 50
    return sum(t.pips for t in hand)


def _nearest_five(pips: int) -> int:
    """``pips`` rounded to the nearest multiple of 5 (12 -> 10, 13 -> 15): what the
    winner of a round of the game of points scores for the others' tiles."""
    return (pips + 2) // 5 * 5


def choose_opener(
    rules: RuleSet, hands: Sequence[Sequence[Tile]], previous: RoundResult | None
) -> tuple[int, Tile | None]:
    """Who opens this round, and the tile they must open with (None: any tile).

    ``previous`` is the last round of this match (None for a match's first round).
    """
    seats = rules.seats
    if previous is not None and rules.next_opening != "same":
        if rules.next_opening == "rotate" or previous.winner is None:
            if rules.next_opening == "rotate":
                return (previous.opener + 1) % seats, None
            return previous.opener, None
        if previous.reason == "domino" and previous.last_player is not None:
            return previous.last_player, None
        candidates = rules.seats_of(previous.winner)
        best = min(candidates, key=lambda s: (previous.pips[s], (s - previous.opener) % seats))
        return best, None

    if rules.first_opening == "double_six":  # the common case, without building `holder`
        for seat, hand in enumerate(hands):
            if DOUBLES[6] in hand:
                return seat, DOUBLES[6]
    holder = {t: seat for seat, hand in enumerate(hands) for t in hand}
    dealt = list(holder)
    if not dealt:
        raise ValueError("no tile was dealt")
    doubles = [d for d in DOUBLES if d in holder]
    rule = rules.first_opening
    if rule in ("double_six", "highest_double"):  # double_six here: nobody holds 6-6
        tile = doubles[-1] if doubles else max(dealt, key=highest_key)
        return holder[tile], tile
    if rule == "one_one":
        order = [DOUBLES[n] for n in (1, 2, 3, 4, 5, 6, 0)]
        for double in order:
            if double in holder:
                return holder[double], double
        tile = max(dealt, key=highest_key)
        return holder[tile], tile
    if rule == "lowest_double":
        low = [d for d in doubles if d.a != 0]
        tile = low[0] if low else min(dealt, key=lowest_key)
        return holder[tile], None
    tile = max(dealt, key=highest_key)  # highest_tile
    return holder[tile], None


class Round:
    """The mutable state of one round; `apply` is the only way to change it.

    Build one with `Round.deal` (random deal) or `Round.from_hands` (a chosen
    deal, for tests and replays); `to_dict`/`from_dict` round-trip it exactly.
    """

    __slots__ = (
        "rules", "opener", "turn", "_hands", "_boneyard", "_deal", "_ends",
        "_mandatory", "_passes", "_history", "_result",
        "_first_of_match", "_initial", "_tiebreak_order", "_pick", "is_over",
        "_nseats", "_lock", "_bonus", "_redeals", "_made", "_spin", "_scores",
    )  # fmt: skip

    rules: RuleSet
    opener: int
    turn: int | None
    #: True once the round has a result (a plain attribute: it is read in every loop).
    is_over: bool
    _hands: list[list[Tile]]
    _boneyard: list[Tile]  # in draw order
    _deal: _Deal
    _ends: tuple[int, int] | None  # (A, B); None before the first tile
    _mandatory: Tile | None
    _passes: int
    _history: list[_Entry]
    _result: RoundResult | None
    _first_of_match: bool
    _initial: dict[str, Any] | None
    _tiebreak_order: tuple[Tile, ...] | None
    _pick: PickOff | None
    _nseats: int  # rules.seats and rules.lock_closure, read in every play
    _lock: bool
    _bonus: int  # how_won: the points blocked rounds before this one carried to it
    _redeals: tuple[tuple[int, int], ...]  # (seat, doubles) of each deal made again
    _made: list[int] | None  # fives: the points made by plays, per side; else None
    # spinner tables: (the spinner's number or -1, its line sides still waiting for a
    # tile as bits A=1 B=2, the numbers at C and D or -1 while closed); else None
    _spin: tuple[int, int, int, int] | None
    # fives with a points goal: the match's scores when the round was dealt (a play
    # that takes a side to the target ends the round there); else None
    _scores: tuple[int, ...] | None

    # ------------------------------------------------------------------ building
    def __init__(self) -> None:  # use deal / from_hands / from_dict
        self._pick = None
        self._result = None
        self.is_over = False
        self._bonus = 0
        self._redeals = ()
        self._made = None
        self._spin = None
        self._scores = None

    @classmethod
    def deal(
        cls,
        rules: RuleSet,
        rng: Any = None,
        previous: RoundResult | None = None,
        *,
        order: Sequence[Tile | str] | None = None,
        tiebreak_order: Sequence[Tile | str] | None = None,
        redeal_orders: Iterable[Sequence[Tile | str]] | None = None,
        scores: Sequence[int] | None = None,
    ) -> Round:
        """Deal ``hand_size`` tiles to each seat in seat order, and pick the opener
        from ``rules`` and ``previous``.

        The tiles come shuffled by ``rng`` (a ``random.Random``), or in the given
        ``order`` (the 28 tiles once each: a verifiable deal's permutation,
        `games.engine.fairness`), whose first ``hand_size`` go to seat 0 and so on,
        the rest being the boneyard in draw order. A table with a tie-break
        pick-off also needs its secret order: ``tiebreak_order``, else shuffled
        by ``rng``.

        On a table that deals again for a hand of ``redeal_doubles`` doubles
        (docs/rules.md, "Doubles in the deal") each new deal comes from the next
        of ``redeal_orders`` (a verifiable deal's: `FairDeal.redeal_orders`), else
        from ``rng``; with neither, a deal that must be made again is a
        ``ValueError``. ``initial["redeals"]`` says which seat held how many.

        Under ``fives`` scoring with a points goal, ``scores`` are the match's
        scores before this round (`Match.new_round` gives them): a play whose
        points take a side to the target ends the round there (docs/rules.md,
        "The game of points"); ``initial["scores"]`` keeps them for replays.

        >>> from games.engine import PRESETS, ALL_TILES
        >>> rnd = Round.deal(PRESETS["duelo"], order=ALL_TILES[::-1])
        >>> rnd.hand(0)[:2], rnd.boneyard_count
        ((Tile(6, 6), Tile(5, 6)), 14)
        """
        if order is not None:
            tiles = _tile_list(order, "order")
            if sorted(tiles) != list(ALL_TILES):
                raise ValueError("order must hold each of the 28 tiles once")
        elif rng is None:
            raise TypeError("Round.deal needs rng or order")
        else:
            # A uniform shuffle by random sort keys: as fair as rng.shuffle (53-bit keys
            # essentially never tie) and about twice as fast, which the bots' rollouts feel.
            tiles = _shuffled(rng)
        redeals: list[tuple[int, int]] = []
        if rules.redeal_doubles is not None:
            tiles = _redealt(rules, tiles, redeals, rng, redeal_orders)
        size = rules.hand_size
        hands = [tiles[i * size : (i + 1) * size] for i in range(rules.seats)]
        rest = tiles[rules.seats * size :]
        pick_order = None
        if rules.blocked_tie == "tiebreak":
            if tiebreak_order is not None:
                pick_order = _tile_list(tiebreak_order, "tiebreak_order")
                if sorted(pick_order) != list(ALL_TILES):
                    raise ValueError("tiebreak_order must hold each of the 28 tiles once")
            elif rng is not None:
                pick_order = list(ALL_TILES)
                rng.shuffle(pick_order)
            else:
                raise TypeError("a tie-break table needs rng or tiebreak_order")
        six_six = tiles.index(DOUBLES[6])
        mandatory: Tile | None
        if (
            previous is None
            and rules.first_opening == "double_six"
            and six_six < len(tiles) - len(rest)
        ):
            opener, mandatory = six_six // size, DOUBLES[6]  # the common case, found directly
        else:
            opener, mandatory = choose_opener(rules, hands, previous)
        rnd = cls._start(
            rules, hands, rest if rules.draw else [], opener, mandatory, previous is None,
            tuple(pick_order) if pick_order else None, tiles,
        )  # fmt: skip
        if rules.scoring == "how_won":
            rnd._stake(previous, None, redeals)
        elif scores is not None:
            rnd._set_scores(scores)
        return rnd

    @classmethod
    def from_hands(
        cls,
        rules: RuleSet,
        hands: Sequence[Sequence[Tile | str]],
        boneyard: Sequence[Tile | str] = (),
        opener: int | None = None,
        first_of_match: bool = True,
        *,
        previous: RoundResult | None = None,
        mandatory_tile: Tile | str | None = None,
        tiebreak_order: Sequence[Tile | str] | None = None,
        bonus: int | None = None,
        redeals: Sequence[Sequence[int]] = (),
        scores: Sequence[int] | None = None,
    ) -> Round:
        """A round with the given hands; tiles in no hand and not in ``boneyard`` sleep.

        Under ``how_won`` scoring, ``bonus`` is what blocked rounds carried to this
        one (default: ``previous.carry``) and ``redeals`` the ``(seat, doubles)``
        of the deals made again before these hands. Under ``fives`` scoring,
        ``scores`` are the match's scores before this round (`Round.deal`).

        With ``opener=None`` the opener (and any mandatory tile) follows the rules
        and ``previous``; with an explicit ``opener`` the opening tile is free
        unless ``mandatory_tile`` is given.

        >>> from games.engine import PRESETS
        >>> rnd = Round.from_hands(PRESETS["duelo"], hands=[["1-6"], ["2-5"]])
        >>> rnd.turn, rnd.mandatory_tile
        (0, Tile(1, 6))
        """
        if len(hands) != rules.seats:
            raise ValueError(f"{rules.seats} hands are needed, got {len(hands)}")
        hand_lists = [_tile_list(h, f"hand {i}") for i, h in enumerate(hands)]
        bones = _tile_list(boneyard, "boneyard")
        if bones and not rules.draw:
            raise ValueError("only a draw game has a boneyard")
        seen = [t for h in hand_lists for t in h] + bones
        if len(set(seen)) != len(seen):
            raise ValueError("a tile was dealt twice")
        if previous is not None and first_of_match:
            first_of_match = False
        if opener is None:
            opener, mandatory = choose_opener(
                rules, hand_lists, None if first_of_match else previous
            )
        else:
            if not (type(opener) is int and 0 <= opener < rules.seats):
                raise ValueError(f"opener must be a seat from 0 to {rules.seats - 1}")
            mandatory = Tile.parse(mandatory_tile) if mandatory_tile is not None else None
        if mandatory is not None and mandatory not in hand_lists[opener]:
            raise ValueError(f"the opener does not hold the mandatory tile {mandatory}")
        order = _tile_list(tiebreak_order, "tiebreak_order") if tiebreak_order else None
        if order is not None and sorted(order) != list(ALL_TILES):
            raise ValueError("tiebreak_order must hold each of the 28 tiles once")

        rnd = cls._start(
            rules, hand_lists, bones, opener, mandatory, first_of_match,
            tuple(order) if order else None,
        )  # fmt: skip
        if rules.scoring == "how_won":
            rnd._stake(previous, bonus, [(seat, count) for seat, count in redeals])
        elif scores is not None:
            rnd._set_scores(scores)
        return rnd

    def _set_scores(self, scores: Sequence[int]) -> None:
        """Under ``fives`` scoring with a points goal, the match's scores before this
        round: the round ends when a play takes a side to the target (elsewhere
        the scores change nothing and are not kept)."""
        rules = self.rules
        if rules.scoring != "fives" or rules.goal != "points":
            return
        kept = tuple(scores)
        if len(kept) != rules.sides or not all(type(s) is int and s >= 0 for s in kept):
            raise ValueError(f"scores must be {rules.sides} points of 0 or more")
        self._scores = kept

    def _stake(
        self, previous: RoundResult | None, bonus: int | None, redeals: list[tuple[int, int]]
    ) -> None:
        """Set what this ``how_won`` round carries: the bonus of the blocked rounds
        before it and the deals made again; six doubles win the match at once."""
        self._bonus = bonus if bonus is not None else (previous.carry if previous else 0)
        self._redeals = tuple(redeals)
        if redeals and self.rules.doubles_prizes and redeals[-1][1] >= 6:
            self._finish(winner=self.rules.side_of(redeals[-1][0]), reason="doubles")

    @classmethod
    def _start(
        cls,
        rules: RuleSet,
        hands: list[list[Tile]],
        boneyard: list[Tile],
        opener: int,
        mandatory: Tile | None,
        first_of_match: bool,
        tiebreak_order: tuple[Tile, ...] | None,
        dealt: list[Tile] | None = None,
    ) -> Round:
        rnd = object.__new__(cls)  # (skips __init__: this runs once per deal in rollouts)
        rnd._pick = None
        rnd._result = None
        rnd.is_over = False
        rnd.rules = rules
        rnd._nseats = rules.seats
        rnd._lock = rules.lock_closure
        rnd.opener = opener
        rnd.turn = opener
        rnd._hands = hands
        rnd._boneyard = boneyard
        rnd._ends = None
        rnd._mandatory = mandatory
        rnd._history = []
        rnd._passes = 0
        rnd._first_of_match = first_of_match
        rnd._tiebreak_order = tiebreak_order
        # The deal as dealt, turned into JSON only when asked for (`initial`): either
        # the shuffled set the hands were sliced from, or copies of the given hands.
        rnd._deal = dealt if dealt is not None else (tuple(map(tuple, hands)), tuple(boneyard))
        rnd._initial = None
        rnd._bonus = 0
        rnd._redeals = ()
        rnd._made = [0] * rules.sides if rules.scoring == "fives" else None
        rnd._spin = _NO_SPINNER if rules.spinner else None
        rnd._scores = None
        return rnd

    @classmethod
    def replay(
        cls,
        rules: RuleSet,
        initial: dict[str, Any],
        history: Iterable[Any],
    ) -> Round:
        """Rebuild a round from its deal (``rnd.initial``) and actions (``rnd.history``).

        ``history`` items are ``(seat, action)`` pairs, where ``action`` may also be
        an action dict; every action is checked again, so a tampered log raises
        `IllegalAction`.
        """
        rnd = cls.from_hands(
            rules,
            hands=initial["hands"],
            boneyard=initial.get("boneyard") or (),
            opener=initial["opener"],
            first_of_match=initial.get("first_of_match", True),
            mandatory_tile=initial.get("mandatory_tile"),
            tiebreak_order=initial.get("tiebreak_order"),
            bonus=initial.get("bonus", 0),
            redeals=initial.get("redeals") or (),
            scores=initial.get("scores"),
        )
        for seat, action in history:
            if isinstance(action, dict):
                action = action_from_dict(action, spinner=rules.spinner)
            rnd.apply(seat, action)
        return rnd

    def clone(self) -> Round:
        """An independent copy, cheap enough for search (shares immutable parts)."""
        new = Round.__new__(Round)
        new.rules = self.rules
        new._nseats = self._nseats
        new._lock = self._lock
        new.opener = self.opener
        new.turn = self.turn
        new._hands = [h[:] for h in self._hands]
        new._boneyard = self._boneyard[:]
        new._deal = self._deal
        new._ends = self._ends
        new._mandatory = self._mandatory
        new._history = self._history[:]
        new._passes = self._passes
        new._result = self._result
        new.is_over = self.is_over
        new._first_of_match = self._first_of_match
        new._initial = self._initial
        new._tiebreak_order = self._tiebreak_order
        new._pick = self._pick  # frozen: shared
        new._bonus = self._bonus
        new._redeals = self._redeals
        made = self._made
        new._made = None if made is None else made[:]
        new._spin = self._spin
        new._scores = self._scores
        return new

    # ------------------------------------------------------------------ reading
    def hand(self, seat: int) -> tuple[Tile, ...]:
        """A seat's tiles (server side only: never send this to another seat)."""
        return tuple(self._hands[seat])

    @property
    def chain(self) -> tuple[Link, ...]:
        return tuple(Link(*link) for link in self._links())

    @property
    def ends(self) -> tuple[int, int] | None:
        return self._ends

    @property
    def made(self) -> tuple[int, ...] | None:
        """The game of points: what each side's plays made so far in the round
        (None under any other scoring)."""
        return None if self._made is None else tuple(self._made)

    @property
    def boneyard_count(self) -> int:
        return len(self._boneyard)

    @property
    def passes_in_row(self) -> int:
        return self._passes

    @property
    def last_player(self) -> int | None:
        """The last seat that placed a tile (None before the first tile)."""
        for seat, action, _ in reversed(self._history):
            if type(action) is Play:
                return seat
        return None

    def _links(self) -> list[tuple[Tile, int, str | None, int]]:
        """The chain, rebuilt from the plays in the history (keeping no separate
        list makes each play cheaper; the chain is read far less often)."""
        links: list[tuple[Tile, int, str | None, int]] = []
        for seat, action, ends in self._history:
            if type(action) is Play:
                tile = action.tile
                if ends is None:
                    links.append((tile, seat, None, tile.b))
                else:
                    touching = ends[_END_SLOT[action.end] - 1]
                    links.append((tile, seat, action.end, tile.other(touching)))
        return links

    @property
    def mandatory_tile(self) -> Tile | None:
        """The tile the opener must open with, while the chain is empty."""
        return self._mandatory if self._ends is None else None

    @property
    def first_of_match(self) -> bool:
        return self._first_of_match

    @property
    def history(self) -> tuple[tuple[int, Action], ...]:
        return tuple((seat, action) for seat, action, _ in self._history)

    @property
    def result(self) -> RoundResult | None:
        return self._result

    @property
    def pending_picks(self) -> frozenset[int]:
        """Seats that still have to `Pick` in a tie-break pick-off (empty otherwise)."""
        if self._pick is None or self._result is not None:
            return frozenset()
        return self._pick.pending

    @property
    def pick_off(self) -> PickOff | None:
        """The tie-break pick-off, once one has started (None otherwise); it stays
        readable after it decided the round. Server side: it holds the secret picks."""
        return self._pick

    @property
    def initial(self) -> dict[str, Any]:
        """The deal as dealt: hands, boneyard in draw order, opener, mandatory tile."""
        if self._initial is None:
            deal = self._deal
            hands: Sequence[Sequence[Tile]]
            boneyard: Sequence[Tile]
            if isinstance(deal, list):  # sliced from the shuffled set, as `deal` does
                size, seats = self.rules.hand_size, self.rules.seats
                hands = [deal[i * size : (i + 1) * size] for i in range(seats)]
                boneyard = deal[seats * size :] if self.rules.draw else []
            else:
                hands, boneyard = deal
            order = self._tiebreak_order
            self._initial = {
                "hands": [[str(t) for t in h] for h in hands],
                "boneyard": [str(t) for t in boneyard],
                "opener": self.opener,
                "mandatory_tile": str(self._mandatory) if self._mandatory else None,
                "first_of_match": self._first_of_match,
                "tiebreak_order": [str(t) for t in order] if order else None,
            }
            if self._bonus:
                self._initial["bonus"] = self._bonus
            if self._redeals:
                self._initial["redeals"] = [list(r) for r in self._redeals]
            if self._scores is not None:
                self._initial["scores"] = list(self._scores)
        return {
            k: (
                list(map(list, v)) if k in ("hands", "redeals") else list(v) if k == "scores" else v
            )
            for k, v in self._initial.items()
        }

    def side_of(self, seat: int) -> int:
        return self.rules.side_of(seat)

    # ------------------------------------------------------------------ legality
    def _can_play(self, seat: int) -> bool:
        ends = self._ends
        if ends is None:
            return True
        fits = _FITS[ends[0] * 7 + ends[1]]
        for t in self._hands[seat]:
            if fits[t.index]:
                return True
        spin = self._spin
        return spin is not None and bool(self._side_plays(self._hands[seat], spin))

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Every legal action of ``seat`` (default: the seat to act); [] when it may not act.

        A tile that fits both ends appears once per end (end A first); the first
        tile has ``end=None``; during a pick-off a picker gets one `Pick` per free
        position::

            >>> from games.engine import PRESETS
            >>> rnd = Round.from_hands(PRESETS["duelo"], hands=[["6-6", "1-1"], ["0-6", "1-2"]])
            >>> rnd.apply(0, Play(Tile(6, 6)))
            >>> rnd.legal_actions(), rnd.legal_actions(0)
            ([Play(tile=Tile(0, 6), end='A'), Play(tile=Tile(0, 6), end='B')], [])
        """
        # One path, ordered for the inner loop of bots and benchmarks: a seat to act
        # and a chain to play on come first. (`turn` is None once the round is over
        # and during a pick-off.)
        turn = self.turn
        if turn is None or (seat is not None and seat != turn):
            pick = self._pick
            if pick is None or self._result is not None or seat not in pick.pending:
                return []
            return [Pick(i) for i in pick.free]
        hand = self._hands[turn]
        ends = self._ends
        plays: list[Action] = []
        if ends is not None:
            fits = _FITS[ends[0] * 7 + ends[1]]
            for t in hand:
                plays += fits[t.index]
            spin = self._spin
            if spin is not None:
                plays += self._side_plays(hand, spin)
        elif self._mandatory is None:
            plays = [_PLAYS[t.index * 3] for t in hand]
        elif self._mandatory in hand:
            plays = [_PLAYS[self._mandatory.index * 3]]
        if plays:
            return plays
        if self._boneyard and self.rules.draw:
            return [DRAW]
        return [PASS]

    # ------------------------------------------------------------------ changing
    def apply(self, seat: int, action: Action) -> None:
        """Make ``seat`` take ``action``; raises `IllegalAction` and changes nothing if
        the rules refuse it.

            >>> from games.engine import PRESETS
            >>> rnd = Round.from_hands(PRESETS["duelo"], hands=[["6-6", "1-1"], ["0-6", "1-2"]])
            >>> rnd.apply(1, Play(Tile(0, 6)))
            Traceback (most recent call last):
            ...
            games.engine.actions.IllegalAction: it is seat 1's turn, not seat 2's
        """
        # One path, ordered for the inner loop of bots and benchmarks: the checks a
        # legal play with its end needs come first, and each refusal (or anything
        # unusual) is looked at only once one of those checks fails. Every check
        # comes before the first change. `turn` is None once the round is over and
        # during a pick-off, so `seat == self.turn` also says "in ordinary play".
        if seat != self.turn or type(seat) is not int:
            self._apply_off_turn(seat, action)
            return
        if type(action) is Play:
            tile = action.tile
            hand = self._hands[seat]
            if type(tile) is not Tile or tile not in hand:
                raise _refused_tile(action)
            ends = self._ends
            end = action.end
            if end == "A" and ends is not None:
                exposed = _OTHER[tile.index][ends[0]]
                if exposed < 0:
                    raise IllegalAction("does_not_fit", f"{tile} does not fit end A ({ends[0]})")
                new_ends = (exposed, ends[1])
            elif end == "B" and ends is not None:
                exposed = _OTHER[tile.index][ends[1]]
                if exposed < 0:
                    raise IllegalAction("does_not_fit", f"{tile} does not fit end B ({ends[1]})")
                new_ends = (ends[0], exposed)
            else:  # the first tile, a play without its end, a spinner's side, a malformed end
                action, new_ends = self._resolve_play(tile, end, ends)
            hand.remove(tile)
            self._ends = new_ends
            self._history.append((seat, action, ends))
            self._passes = 0
            if self._made is not None:  # the game of points (and the spinner, only there)
                self._after_fives_play(seat, action, ends)
                if self.is_over:  # the play took its side to the match's target
                    return
            if not hand or (self._lock and new_ends[0] == new_ends[1]):
                self._after_special_play(seat, hand)
            else:
                seat += 1
                self.turn = seat if seat < self._nseats else 0
        elif type(action) is Pass:
            if self._can_play(seat):
                raise IllegalAction("must_play", "you have a tile that fits: you must play it")
            if self._boneyard and self.rules.draw:
                raise IllegalAction("must_draw", "nothing fits: draw from the boneyard")
            self._history.append((seat, PASS, self._ends))
            self._passes += 1
            if self._passes >= self._nseats:
                self._finish_blocked()
            else:
                seat += 1
                self.turn = seat if seat < self._nseats else 0
        elif type(action) is Draw:
            if not self.rules.draw:
                raise IllegalAction("not_a_draw_game", "this table has no boneyard to draw from")
            if self._can_play(seat):
                raise IllegalAction("must_play", "you have a tile that fits: you must play it")
            if not self._boneyard:
                raise IllegalAction("boneyard_empty", "the boneyard is empty: pass instead")
            self._hands[seat].append(self._boneyard.pop(0))
            self._history.append((seat, DRAW, self._ends))
        elif type(action) is Pick:
            raise IllegalAction("bad_pick", "there is no tie-break pick-off under way")
        else:
            raise IllegalAction("malformed", f"{action!r} is not an action")

    def _apply_off_turn(self, seat: object, action: Action) -> None:
        """`apply` for a seat that is not the one to act: a pick-off pick, or a refusal."""
        if type(seat) is not int or not 0 <= seat < self._nseats:
            raise IllegalAction("malformed", f"there is no seat {seat!r} at this table")
        if self._result is not None:
            raise IllegalAction("round_over", "the round is over")
        if self._pick is not None:
            self._apply_pick(seat, action)
            return
        if type(action) is Pick:
            raise IllegalAction("bad_pick", "there is no tie-break pick-off under way")
        turn = self.turn
        assert turn is not None  # (None only once the round is over or in a pick-off)
        raise IllegalAction("not_your_turn", f"it is seat {turn + 1}'s turn, not seat {seat + 1}'s")

    def _resolve_play(
        self, tile: Tile, end: object, ends: tuple[int, int] | None
    ) -> tuple[Play, tuple[int, int]]:
        """The canonical play and the new ends for ``tile`` (in hand) played with ``end``
        where `apply` found no plain end to put it on: the first tile of the round, a
        play without its end (accepted where exactly one end fits), or a malformed end."""
        spin = self._spin
        side = end == "C" or end == "D"
        if end is not None and end != "A" and end != "B" and not (side and spin is not None):
            raise IllegalAction("malformed", f"the end is 'A' or 'B', got {end!r}")
        if ends is None:
            if end is not None:
                raise IllegalAction(
                    "malformed", "the first tile opens the chain: it takes no end (end=None)"
                )
            mandatory = self._mandatory
            if mandatory is not None and tile is not mandatory:
                raise IllegalAction(
                    "opening_tile_required", f"this round must be opened with {mandatory}"
                )
            return _PLAYS[tile.index * 3], (tile.a, tile.b)
        if spin is not None and spin[2] >= 0:
            return self._resolve_spinner_play(tile, None if end is None else str(end), ends, spin)
        if side:
            raise IllegalAction("does_not_fit", f"end {end} is not open: the spinner opens it")
        x, y = ends
        other = _OTHER[tile.index]
        if other[x] >= 0 and other[y] >= 0:
            raise IllegalAction("end_required", f"{tile} fits both ends: choose end A or end B")
        if other[x] >= 0:
            return _PLAYS[tile.index * 3 + 1], (other[x], y)
        if other[y] >= 0:
            return _PLAYS[tile.index * 3 + 2], (x, other[y])
        raise IllegalAction("does_not_fit", f"{tile} fits neither end ({x} and {y})")

    def _resolve_spinner_play(
        self, tile: Tile, end: str | None, ends: tuple[int, int], spin: tuple[int, int, int, int]
    ) -> tuple[Play, tuple[int, int]]:
        """`_resolve_play` once a spinner has opened ends C and D: ``end`` is one
        of the four, or None where exactly one of them fits."""
        other = _OTHER[tile.index]
        numbers = {"A": ends[0], "B": ends[1], "C": spin[2], "D": spin[3]}
        fitting = [e for e, n in numbers.items() if other[n] >= 0]
        if end is None:
            if len(fitting) > 1:
                raise IllegalAction(
                    "end_required", f"{tile} fits {len(fitting)} ends: choose one of them"
                )
            if not fitting:
                raise IllegalAction("does_not_fit", f"{tile} fits none of the four ends")
            end = fitting[0]
        if end not in fitting:
            raise IllegalAction("does_not_fit", f"{tile} does not fit end {end} ({numbers[end]})")
        exposed = other[numbers[end]]
        if end == "A":
            return _play(tile, "A"), (exposed, ends[1])
        if end == "B":
            return _play(tile, "B"), (ends[0], exposed)
        return _play(tile, end), ends

    @staticmethod
    def _side_plays(hand: Sequence[Tile], spin: tuple[int, int, int, int]) -> list[Play]:
        """The plays of ``hand`` on a spinner's sides C and D, once they are open."""
        c, d = spin[2], spin[3]
        if c < 0:
            return []
        plays = [_SIDE_PLAYS[t.index, "C"] for t in hand if t.has(c)]
        return plays + [_SIDE_PLAYS[t.index, "D"] for t in hand if t.has(d)]

    def _turn_spinner(
        self, action: Play, before: tuple[int, ...] | None, spin: tuple[int, int, int, int]
    ) -> None:
        """After a play on a spinner table: the first double becomes the spinner;
        once a tile lies on each of its line sides its ends C and D open (showing
        its number); a play on C or D changes that end's number."""
        number, waiting, c, d = spin
        tile, end = action.tile, action.end
        if end == "C":
            c = tile.other(c)
        elif end == "D":
            d = tile.other(d)
        elif number < 0:
            if tile.is_double:
                number, waiting = tile.a, 3 if before is None else (1 if end == "A" else 2)
        elif waiting:
            waiting &= ~(1 if end == "A" else 2)
            if not waiting:
                c = d = number
        self._spin = (number, waiting, c, d)

    def _after_special_play(self, seat: int, hand: list[Tile]) -> None:
        """After a play that emptied the hand or left both ends alike under
        ``lock_closure``: domino, a locked chain, or the next seat."""
        if not hand:
            self._finish(winner=self.rules.side_of(seat), reason="domino")
        elif self._locked():
            self._finish_blocked()
        else:
            seat += 1
            self.turn = seat if seat < self._nseats else 0

    def _locked(self) -> bool:
        """Both ends show n and all seven tiles holding n are on the table."""
        assert self._ends is not None
        n = self._ends[0]
        return sum(1 for link in self._links() if link[0].a == n or link[0].b == n) == 7

    # ------------------------------------------------------------------ the end
    def _side_totals(self, goat: bool) -> list[int]:
        if goat:
            values = [hand_value(hand, True) for hand in self._hands]
        else:
            values = [sum([t.pips for t in hand]) for hand in self._hands]
        if self.rules.partnership:
            return [values[0] + values[2], values[1] + values[3]]
        return values

    def _finish_blocked(self) -> None:
        rules = self.rules
        if rules.scoring == "how_won" and rules.closed_round == "carry":
            self._finish(winner=None, reason="blocked")  # nobody wins: the stake carries
            return
        totals = self._side_totals(rules.scoring == "goat")
        low = min(totals)
        tied = [side for side, total in enumerate(totals) if total == low]
        if len(tied) == 1:
            self._finish(winner=tied[0], reason="blocked")
            return
        tie = rules.blocked_tie
        if tie == "draw":
            self._finish(winner=None, reason="blocked")
        elif tie == "last_player_loses":
            last = self.last_player
            if last is None:
                last = self.opener
            loser = rules.side_of(last)
            after = [rules.side_of((last + k) % rules.seats) for k in range(1, rules.seats + 1)]
            winner = next(s for s in after if s in tied and s != loser)
            self._finish(winner=winner, reason="blocked")
        elif tie == "opener_wins":
            after = [rules.side_of((self.opener + k) % rules.seats) for k in range(rules.seats)]
            self._finish(winner=next(s for s in after if s in tied), reason="blocked")
        else:
            pickers = sorted(s for s in range(rules.seats) if rules.side_of(s) in tied)
            self._pick = PickOff.start(pickers)
            self.turn = None

    def _apply_pick(self, seat: int, action: Action) -> None:
        pick = self._pick
        assert pick is not None
        if type(action) is not Pick:
            raise IllegalAction(
                "not_your_turn", "the round is in a tie-break pick-off: only picks are taken"
            )
        pick = pick.choose(seat, action.index)
        self._history.append((seat, action, self._ends))
        if pick.pending:
            self._pick = pick
            return
        pick = self._pick = pick.reveal(self._tiebreak_order or ALL_TILES)
        best = pick.lowest
        sides = {self.rules.side_of(s) for s in best}
        if len(sides) == 1:
            self._finish(winner=sides.pop(), reason="blocked")
        elif len(pick.free) < len(best):
            self._finish(winner=None, reason="blocked")
        else:
            self._pick = pick.again(best)

    def _finish(self, winner: int | None, reason: str) -> None:
        rules = self.rules
        pips = [sum([t.pips for t in hand]) for hand in self._hands]
        plain = [pips[0] + pips[2], pips[1] + pips[3]] if rules.partnership else pips[:]
        goat = rules.scoring == "goat"
        counted = self._side_totals(goat=True) if goat else plain
        points = [0] * len(plain)
        scoring = rules.scoring
        how: str | None = None
        carry = carried = 0
        if scoring == "how_won":
            how, carry, carried = self._score_how_won(points, winner, reason)
        elif winner is not None:
            if reason == "blocked" and rules.blocked_points == "difference":
                points[winner] = sum(counted) - 2 * counted[winner]  # two sides only
            elif scoring == "opponents":
                points[winner] = sum(plain) - plain[winner]
            elif scoring == "all_hands":
                points[winner] = sum(plain)
            elif scoring == "series":
                points[winner] = 1
            elif scoring == "fives":
                if reason != "target":  # the match was won by a play: no count of hands
                    points[winner] = _nearest_five(sum(plain) - plain[winner])
            else:  # goat: penalties for every side but the winner's
                points = [0 if s == winner else c for s, c in enumerate(counted)]
        made = self._made
        if made is not None:
            points = [p + m for p, m in zip(points, made, strict=True)]
        pick = self._pick
        self._result = RoundResult(
            reason,
            winner,
            self.opener,
            tuple(points),
            tuple(pips),
            tuple(map(tuple, self._hands)),
            self.last_player,
            None if pick is None else tuple(map(tuple, pick.rounds_dicts())),
            tuple(counted),
            how,
            carry,
            reason == "doubles",
            tuple(made) if made is not None else (),
            carried,
        )
        self.turn = None
        self.is_over = True

    def _score_how_won(
        self, points: list[int], winner: int | None, reason: str
    ) -> tuple[str, int, int]:
        """Fill ``points`` as the partida scores (docs/rules.md, "How a round is
        won"); how the round was won, what it carries to the next round, and
        what of the winner's points the blocked rounds before carried to it."""
        rules = self.rules
        carry = carried = 0
        if reason == "doubles":
            how = "doubles"
        else:
            if reason == "domino":
                how = self._how_won()
                value = getattr(rules, WIN_KNOBS[how])
            else:
                how, value = "fechado", 1
            if winner is None:  # blocked under "carry", or a drawn block: it passes on
                carry = self._bonus + (rules.closed_round == "carry")
            else:
                times = 2 if self._redeals and rules.redeal_worth_double else 1
                points[winner] = (value + self._bonus) * times
                carried = self._bonus * times
        if rules.doubles_prizes:
            for seat, count in self._redeals:
                if count == 5:
                    points[rules.side_of(seat)] += 1
        return how, carry, carried

    def _how_won(self) -> str:
        """How the last play won the round: ``"simples"`` (the tile fitted one end),
        ``"carroca"`` (a double fitting one end), ``"la_e_lo"`` (not a double, it
        fitted either end), ``"cruzada"`` (a double, both ends showing its number).

            >>> from games.engine import PRESETS
            >>> rnd = Round.from_hands(PRESETS["partida_dois"], [["0-3", "3-5"], ["0-5", "6-6"]],
            ...                        opener=0)
            >>> rnd.apply(0, Play(Tile(0, 3))); rnd.apply(1, Play(Tile(0, 5), "A"))
            >>> rnd.ends
            (5, 3)
            >>> rnd.apply(0, Play(Tile(3, 5), "B")); rnd.result.how, rnd.result.points
            ('la_e_lo', (3, 0))
        """
        _, action, ends = self._history[-1]
        assert type(action) is Play, "a round is won by a play"
        tile = action.tile
        both = ends is not None and tile.has(ends[0]) and tile.has(ends[1])
        if tile.is_double:
            return "cruzada" if both else "carroca"
        return "la_e_lo" if both else "simples"

    def _after_fives_play(self, seat: int, action: Play, ends: tuple[int, int] | None) -> None:
        """After a play under ``fives`` scoring: the spinner's state (a play on its
        side C or D records the four ends before it), then a count that is a
        multiple of 5 scores for the player's side (docs/rules.md, "The game of
        points")."""
        spin = self._spin
        if spin is not None:
            before: tuple[int, ...] | None = ends
            if ends is not None and (action.end == "C" or action.end == "D"):
                before = (*ends, spin[2], spin[3])
                self._history[-1] = (seat, action, before)
            self._turn_spinner(action, before, spin)
        count = self.fives_count()
        if count % 5 == 0 and count:
            made = self._made
            assert made is not None
            side = self.rules.side_of(seat)
            made[side] += count
            scores = self._scores
            if scores is not None and scores[side] + made[side] >= (self.rules.target or 0):
                self._finish(winner=side, reason="target")

    def fives_count(self) -> int:
        """The count of the open ends: each end's number, twice where the tile at
        that end is a double (lying across it); a lone first tile counts its pips;
        a spinner's sides C and D once a tile lies on them. 0 before the first tile.

            >>> from games.engine import PRESETS
            >>> rnd = Round.from_hands(PRESETS["pontos"], [["5-5", "0-1"], ["3-5", "1-2"],
            ...                        ["0-2", "2-2"], ["4-6", "4-4"]], opener=0)
            >>> rnd.apply(0, Play(Tile(5, 5))); rnd.fives_count()
            10
            >>> rnd.apply(1, Play(Tile(3, 5), "B")); rnd.fives_count()  # 5-5 still at end A
            13
        """
        # The numbers are ``_ends`` (and the spinner's C and D); only the tile
        # lying at each end is looked for, from the newest play back (the bots'
        # playouts count after every play, so this is the game of points' inner
        # loop): A and B, and C and D until the spinner itself is passed (no tile
        # lies on its sides before it).
        ends = self._ends
        if ends is None:
            return 0
        spin = self._spin
        number = -1 if spin is None or spin[2] < 0 else spin[0]
        wanted = 2 if number < 0 else 4
        at: dict[str | None, bool] = {}
        first: Tile | None = None
        for _, action, before in reversed(self._history):
            if type(action) is not Play:
                continue
            tile = action.tile
            if before is None:
                first = tile
                break
            at.setdefault(action.end, tile.is_double)
            if tile.a == number and tile.b == number:
                wanted = 2  # the spinner: its sides hold nothing older
            if len(at) >= wanted and "A" in at and "B" in at:
                break
        if first is not None and not at:
            return first.pips  # a lone first tile
        lone = first is not None and first.is_double
        a = 2 * ends[0] if at.get("A", lone) else ends[0]
        b = 2 * ends[1] if at.get("B", lone) else ends[1]
        if number < 0:
            return a + b
        assert spin is not None
        c = (2 * spin[2] if at["C"] else spin[2]) if "C" in at else 0
        d = (2 * spin[3] if at["D"] else spin[3]) if "D" in at else 0
        return a + b + c + d

    def _play_counts(self) -> list[int]:
        """The count after each play of the history, in order (`fives_count`)."""
        counts: list[int] = []
        first: Tile | None = None
        numbers: dict[str | None, int] = {}
        outer: dict[str | None, Tile] = {}
        for _, action, before in self._history:
            if type(action) is not Play:
                continue
            tile, end = action.tile, action.end
            if before is None:
                first = tile
                numbers = {"A": tile.a, "B": tile.b}
                counts.append(tile.pips)
                continue
            numbers[end] = tile.other(before[_END_SLOT[end] - 1])
            outer[end] = tile
            total = 0
            for name, number in numbers.items():
                at = outer.get(name, first)  # A and B start at the first tile; C, D played
                assert at is not None
                total += 2 * number if at.is_double else number
            counts.append(total)
        return counts

    # ------------------------------------------------------------------ views
    def view(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may know, JSON-safe: its own hand and public facts only.

        It is `public_view` with `private_view(seat)` laid over it::

            >>> import random
            >>> from games.engine import PRESETS
            >>> rnd = Round.deal(PRESETS["duelo"], random.Random(1))
            >>> view = rnd.view(0)
            >>> len(view["hand"]) == view["tile_counts"][0] == 7
            True
        """
        view = self.public_view()
        mine = self.private_view(seat)
        if view["pick_off"] is not None:
            view["pick_off"]["mine"] = mine.pop("pick_mine")
        else:
            mine.pop("pick_mine")
        view.update(mine)
        return view

    def public_view(self) -> dict[str, Any]:
        """What a watcher may know: every public fact and no tile of any hand.

        An allow-list (fields are added here one by one), so a field added later
        to a seat's view never reaches watchers by accident::

            >>> import random
            >>> from games.engine import PRESETS
            >>> rnd = Round.deal(PRESETS["duelo"], random.Random(1))
            >>> watcher = rnd.public_view()
            >>> watcher["hand"], watcher["legal"], watcher["seat"]
            ([], [], None)
        """
        rules = self.rules
        pick = self._pick
        result = self._result
        pick_off = None if pick is None else pick.public_dict(over=result is not None)
        return {
            "rules": rules.to_dict(),
            "seat": None,
            "side": None,
            "turn": self.turn,
            "opener": self.opener,
            "hand": [],
            "chain": [_link_dict(link) for link in self._links()],
            "ends": self._ends_dict(),
            "tile_counts": [len(h) for h in self._hands],
            "boneyard_count": len(self._boneyard),
            "passes_in_row": self.passes_in_row,
            "last_player": self.last_player,
            "history": self._history_view(),
            "legal": [],
            "mandatory_tile": None,
            "pick_off": pick_off,
            "result": result.to_dict() if result else None,
            **self._scoring_view(),
        }

    def _history_view(self) -> list[dict[str, Any]]:
        """The view's history; under ``fives`` each play that scored says so
        (``scored``: the count it made, docs/rules.md, "The game of points")."""
        history = [_history_entry(s, a, e) for s, a, e in self._history]
        if self._made is not None:
            plays = [entry for entry in history if entry["type"] == "play"]
            for entry, count in zip(plays, self._play_counts(), strict=True):
                if count and count % 5 == 0:
                    entry["scored"] = count
        return history

    def _ends_dict(self) -> dict[str, int] | None:
        """The open ends by name: A and B, and a spinner's C and D once open."""
        ends = self._ends
        if ends is None:
            return None
        spin = self._spin
        if spin is not None and spin[2] >= 0:
            return {"A": ends[0], "B": ends[1], "C": spin[2], "D": spin[3]}
        return {"A": ends[0], "B": ends[1]}

    def _scoring_view(self) -> dict[str, Any]:
        """The public facts of the newer scorings, only on their tables (the views of
        every other table stay as they were): a ``how_won`` round's ``bonus`` and
        ``redeals``, a ``fives`` round's ``made`` (per side) and ``count``, and its
        ``scores`` when it was dealt with the match's (`deal`: the bots' rounds
        rebuilt from a view stop at the target as this one does)."""
        if self._made is not None:
            spin = {} if self._spin is None else {"spin": list(self._spin)}
            scores = {} if self._scores is None else {"scores": list(self._scores)}
            return {"made": list(self._made), "count": self.fives_count(), **spin, **scores}
        if self.rules.scoring == "how_won":
            return {"bonus": self._bonus, "redeals": [list(r) for r in self._redeals]}
        return {}

    def private_view(self, seat: int) -> dict[str, Any]:
        """The part of ``seat``'s view that only ``seat`` may see: its hand, its
        legal actions, the mandatory tile when it holds it, and its own pending
        tie-break pick (``pick_mine``)::

            >>> import random
            >>> from games.engine import PRESETS
            >>> rnd = Round.deal(PRESETS["duelo"], random.Random(1))
            >>> sorted(rnd.private_view(1))
            ['hand', 'legal', 'mandatory_tile', 'pick_mine', 'seat', 'side']
        """
        mandatory = self.mandatory_tile
        return {
            "seat": seat,
            "side": self.rules.side_of(seat),
            "hand": [str(t) for t in self._hands[seat]],
            "legal": [a.to_dict() for a in self.legal_actions(seat)],
            # Only its holder is told which tile is mandatory: the others must not
            # learn a tile of another hand (the opener's identity is public anyway).
            "mandatory_tile": str(mandatory) if mandatory and seat == self.opener else None,
            "pick_mine": self._pick.choice_of(seat) if self._pick is not None else None,
        }

    @classmethod
    def from_view(
        cls,
        view: dict[str, Any],
        hands: Sequence[Sequence[Tile | str]],
        boneyard: Sequence[Tile | str] = (),
    ) -> Round:
        """A round in the position ``view`` describes, with ``hands`` (and the boneyard
        order) filled in by the caller: how a bot explores guesses of hidden tiles.

        The viewer's own hand must be ``view["hand"]`` and every hand must have the
        public tile count; the result cannot be replayed (its deal is made up).
        """
        rules = RuleSet.from_dict(view["rules"])
        hand_lists = [_tile_list(h, f"hand {i}") for i, h in enumerate(hands)]
        bones = _tile_list(boneyard, "boneyard")
        if [len(h) for h in hand_lists] != list(view["tile_counts"]):
            raise ValueError("hands do not match the public tile counts")
        rnd = cls()
        rnd.rules = rules
        rnd._nseats = rules.seats
        rnd._lock = rules.lock_closure
        rnd.opener = view["opener"]
        rnd.turn = view["turn"]
        rnd._hands = hand_lists
        rnd._boneyard = bones
        chain = [_link_from_dict(d) for d in view["chain"]]
        placed = [t for h in hand_lists for t in h] + bones + [link[0] for link in chain]
        if len(set(placed)) != len(placed):
            raise ValueError("a tile appears twice among the hands, boneyard and chain")
        ends = view["ends"]
        rnd._ends = (ends["A"], ends["B"]) if ends else None
        mandatory = view.get("mandatory_tile")
        rnd._mandatory = Tile.parse(mandatory) if mandatory else None
        rnd._history = [_history_from_entry(e, rules.spinner) for e in view["history"]]
        rnd._passes = view["passes_in_row"]
        rnd._first_of_match = False
        rnd._initial = {}
        rnd._deal = ((), ())
        rnd._tiebreak_order = None
        rnd._bonus = view.get("bonus", 0)
        rnd._redeals = tuple((seat, count) for seat, count in view.get("redeals", ()))
        made = view.get("made")
        rnd._made = list(made) if made is not None else None
        spin = view.get("spin")
        rnd._spin = (spin[0], spin[1], spin[2], spin[3]) if spin is not None else None
        scores = view.get("scores")
        rnd._scores = tuple(scores) if scores is not None and made is not None else None
        return rnd

    def with_hands(self, hands: Sequence[Sequence[Tile]], boneyard: Sequence[Tile] = ()) -> Round:
        """A copy of this position with other hands and boneyard (same counts): how
        a bot tries many guesses of the hidden tiles after one `from_view`.

        Every hand and the boneyard keep their counts, and no tile appears twice
        or is on the chain (else ``ValueError``); the tiles left out are the ones
        sleeping, which may differ from this round's. Like `from_view`'s, the copy
        cannot be replayed.
        """
        hand_lists = [list(h) for h in hands]
        bones = list(boneyard)
        if [len(h) for h in hand_lists] != [len(h) for h in self._hands] or len(bones) != len(
            self._boneyard
        ):
            raise ValueError("hands and boneyard must keep this round's tile counts")
        placed = [t for h in hand_lists for t in h] + bones
        unique = set(placed)
        if len(unique) != len(placed) or any(
            type(a) is Play and a.tile in unique for _, a, _ in self._history
        ):
            raise ValueError("a tile appears twice among the hands, boneyard and chain")
        new = self.clone()
        new._hands = hand_lists
        new._boneyard = bones
        return new

    # ------------------------------------------------------------------ JSON
    def to_dict(self) -> dict[str, Any]:
        """The full state (server side: it holds every hand and the boneyard)."""
        pick = self._pick
        return {
            "rules": self.rules.to_dict(),
            "opener": self.opener,
            "turn": self.turn,
            "hands": [[str(t) for t in h] for h in self._hands],
            "boneyard": [str(t) for t in self._boneyard],
            "chain": [_link_dict(link) for link in self._links()],
            "ends": list(self._ends) if self._ends else None,
            "mandatory_tile": str(self._mandatory) if self._mandatory else None,
            "passes_in_row": self.passes_in_row,
            "last_player": self.last_player,
            "history": [[s, a.to_dict(), list(e) if e else None] for s, a, e in self._history],
            "first_of_match": self._first_of_match,
            "initial": self.initial,
            "pick": None if pick is None else pick.to_dict(),
            "result": self._result.to_dict() if self._result else None,
            **({"made": list(self._made)} if self._made is not None else {}),
            **({"spin": list(self._spin)} if self._spin is not None else {}),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Round:
        rnd = cls()
        rnd.rules = RuleSet.from_dict(data["rules"])
        rnd._nseats = rnd.rules.seats
        rnd._lock = rnd.rules.lock_closure
        rnd.opener = data["opener"]
        rnd.turn = data["turn"]
        rnd._hands = [_tile_list(h, "hand") for h in data["hands"]]
        rnd._boneyard = _tile_list(data["boneyard"], "boneyard")
        rnd._ends = tuple(data["ends"]) if data["ends"] else None
        mandatory = data["mandatory_tile"]
        rnd._mandatory = Tile.parse(mandatory) if mandatory else None
        rnd._history = [
            (s, _canonical(action_from_dict(a, spinner=rnd.rules.spinner)), tuple(e) if e else None)
            for s, a, e in data["history"]
        ]
        rnd._passes = data["passes_in_row"]
        rnd._first_of_match = data["first_of_match"]
        rnd._initial = data["initial"]
        rnd._deal = ((), ())
        order = rnd._initial.get("tiebreak_order")
        rnd._tiebreak_order = tuple(_tile_list(order, "tiebreak_order")) if order else None
        pick = data.get("pick")
        rnd._pick = None if pick is None else PickOff.from_dict(pick)
        result = data.get("result")
        rnd._result = RoundResult.from_dict(result) if result else None
        rnd.is_over = rnd._result is not None
        rnd._bonus = rnd._initial.get("bonus", 0)
        rnd._redeals = tuple((seat, count) for seat, count in rnd._initial.get("redeals") or ())
        made = data.get("made")
        rnd._made = list(made) if made is not None else None
        spin = data.get("spin")
        rnd._spin = (spin[0], spin[1], spin[2], spin[3]) if spin is not None else None
        scores = rnd._initial.get("scores")
        rnd._scores = tuple(scores) if scores is not None else None
        return rnd

    def __repr__(self) -> str:
        state = "over" if self._result else f"turn={self.turn}"
        return f"<Round opener={self.opener} {state} chain={len(self._links())} tiles>"


def _link_dict(link: tuple[Tile, int, str | None, int]) -> dict[str, Any]:
    tile, seat, end, exposed = link
    return {"tile": str(tile), "seat": seat, "end": end, "exposed": exposed}


def _link_from_dict(data: dict[str, Any]) -> tuple[Tile, int, str | None, int]:
    return (Tile.parse(data["tile"]), data["seat"], data["end"], data["exposed"])


def _refused_tile(action: Play) -> IllegalAction:
    """Why a play whose tile is not one of the hand's is refused: a malformed tile or
    end first, as for any play, then ``not_in_hand``."""
    tile, end = action.tile, action.end
    if type(tile) is not Tile:
        return IllegalAction("malformed", f"{tile!r} is not a tile")
    if end is not None and end != "A" and end != "B":
        return IllegalAction("malformed", f"the end is 'A' or 'B', got {end!r}")
    return IllegalAction("not_in_hand", f"{tile} is not in your hand")


def _canonical(action: Action) -> Action:
    if type(action) is Play:
        return _play(action.tile, action.end)
    return action


def _history_entry(seat: int, action: Action, ends: tuple[int, ...] | None) -> dict[str, Any]:
    entry: dict[str, Any] = {"seat": seat, "type": action.type}
    if type(action) is Play:
        entry["tile"] = str(action.tile)
        entry["end"] = action.end
    elif type(action) is Pick:
        entry["index"] = action.index
    entry["ends_before"] = dict(zip("ABCD", ends, strict=False)) if ends else None
    return entry


def _history_from_entry(entry: dict[str, Any], spinner: bool = False) -> _Entry:
    ends = entry.get("ends_before")
    action = action_from_dict({k: v for k, v in entry.items() if k != "seat"}, spinner=spinner)
    return (
        entry["seat"],
        _canonical(action),
        tuple(ends[k] for k in "ABCD" if k in ends) if ends else None,
    )
