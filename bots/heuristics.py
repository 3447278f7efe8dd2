"""The easy and medium players: one decision from public facts, in microseconds.

`Table` is the public state the medium player weighs (who lacks which number,
what each seat has played, what is on the chain). It is built from a view for
a real decision, and kept up to date move by move inside the hard player's
simulations, where the medium player is the default policy of every seat.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from games.engine import Action, Play, Tile

from .knowledge import Knowledge

#: Weights of the medium player's score (points of "goodness" per feature).
W_DOUBLE = 4.0  # a double fits only one number: get rid of it while it still fits
W_FOLLOW = 2.5  # per tile kept that can follow on a new end (up to two per end)
W_STUCK = 5.0  # nothing left fits either new end
W_NEXT_VOID = 6.0  # a new end the next opponent has shown it lacks
W_NEXT_PASS = 6.0  # ... and both ends: the next opponent must pass
W_PREV_VOID = 6.0  # a new end the other opponent lacks
W_OWN_NUMBER = 12.0  # a new end only this hand can follow: the rest of its number is out
W_OWN_ALMOST = 5.0  # ... or one other tile of its number is still out
W_PARTNER_SHOWN = 1.5  # a new end of a number the partner has been playing
W_GOAT_DOUBLE = 12.0  # under goat scoring a lone 6-6 or 0-0 costs 50 or 25
W_LOCK = 40.0  # closing the game: worth this much when ahead, minus when behind
W_FIVES = 2.0  # the game of points: per point this play scores (ends adding to a multiple of 5)
W_GIVE = 3.0  # ... minus per point the next opponent may score at once on the new ends
W_FINISH = 8.0  # the partida: per point the tile kept would win by over a batida simples
W_PIPS_PARTIDA = 0.5  # ... where pips score nothing, the weight of the pips shed


class Table:
    """Public facts for one seat's decision, cheap to update in a simulation."""

    __slots__ = (
        "seats", "partnership", "goat", "voids", "shown", "on_table", "table_pips",
        "table_tiles", "counts", "fives", "finish", "end_doubles", "placed", "spin",
        "sides",
    )  # fmt: skip

    def __init__(
        self,
        seats: int,
        partnership: bool,
        goat: bool,
        voids: list[int],
        shown: list[list[int]],
        on_table: list[int],
        table_pips: int,
        table_tiles: int,
        counts: list[int],
        fives: bool = False,
        finish: tuple[int, int, int, int] | None = None,
        end_doubles: int = 0,
        placed: int = 0,
        spin: tuple[int, int, int, int] | None = None,
        sides: tuple[int, int] = (0, 0),
    ) -> None:
        self.seats = seats
        self.partnership = partnership
        self.goat = goat
        self.voids = voids
        self.shown = shown
        self.on_table = on_table
        self.table_pips = table_pips
        self.table_tiles = table_tiles
        self.counts = counts
        #: the game of points: plays score when the ends add up to a multiple of 5
        self.fives = fives
        #: the partida: what a batida simples, carroça, lá-e-lô and cruzada are worth
        self.finish = finish
        #: bit 1: the tile at end A is a double (it counts twice under fives), bit 2: at end B
        self.end_doubles = end_doubles
        #: the tiles on the table, bit ``tile.index`` each
        self.placed = placed
        #: a spinner table: (the spinner's number or -1, its line sides still waiting
        #: as bits A=1 B=2, the numbers at ends C and D or -1 while closed), as the
        #: engine keeps it; None at a table without a spinner
        self.spin = spin
        #: what ends C and D add to the count (0 until a tile lies there)
        self.sides = sides

    @classmethod
    def from_knowledge(cls, know: Knowledge) -> Table:
        rules = know.rules
        return cls(
            seats=rules.seats,
            partnership=rules.partnership,
            goat=rules.scoring == "goat",
            voids=know.voids(),
            shown=[row[:] for row in know.shown],
            on_table=know.on_table(),
            table_pips=sum(t.pips for t in know.chain_tiles),
            table_tiles=len(know.chain_tiles),
            counts=list(know.counts),
            fives=rules.scoring == "fives",
            finish=(
                (
                    rules.simples_points,
                    rules.carroca_points,
                    rules.la_e_lo_points,
                    rules.cruzada_points,
                )
                if rules.scoring == "how_won"
                else None
            ),  # fmt: skip
            end_doubles=_end_doubles(know.history),
            placed=sum(1 << t.index for t in know.chain_tiles),
            **(_spinner(know.history) if rules.spinner else {}),
        )

    def copy(self) -> Table:
        return Table(
            self.seats, self.partnership, self.goat, self.voids[:],
            [row[:] for row in self.shown], self.on_table[:], self.table_pips,
            self.table_tiles, self.counts[:], self.fives, self.finish, self.end_doubles,
            self.placed, self.spin, self.sides,
        )  # fmt: skip

    # -- keeping it current inside a simulation ------------------------
    def played(self, seat: int, tile: Tile, end: str | None = None) -> None:
        """``seat`` laid ``tile`` on ``end`` (None: the first tile, at both ends)."""
        if self.spin is not None:
            self.spin, self.sides = _spun(self.spin, self.sides, tile, end)
            if end == "C" or end == "D":
                self._placed_tile(seat, tile)
                return
        bit = 3 if end is None else 1 if end == "A" else 2
        self.end_doubles = (self.end_doubles | bit) if tile.is_double else (self.end_doubles & ~bit)
        self._placed_tile(seat, tile)

    def _placed_tile(self, seat: int, tile: Tile) -> None:
        self.placed |= 1 << tile.index
        self.shown[seat][tile.a] += 1
        self.on_table[tile.a] += 1
        if not tile.is_double:
            self.shown[seat][tile.b] += 1
            self.on_table[tile.b] += 1
        self.table_pips += tile.pips
        self.table_tiles += 1
        self.counts[seat] -= 1

    def passed(self, seat: int, ends: tuple[int, int] | None) -> None:
        if ends is not None:
            self.voids[seat] |= self._ends_mask(ends)

    def drew(self, seat: int, ends: tuple[int, int] | None) -> None:
        # The new tile may show numbers the seat lacked before: only the current ends stay sure.
        self.voids[seat] = self._ends_mask(ends) if ends is not None else 0
        self.counts[seat] += 1

    def _ends_mask(self, ends: tuple[int, int]) -> int:
        """The open ends' numbers: A and B, and a spinner's C and D once open."""
        mask = (1 << ends[0]) | (1 << ends[1])
        spin = self.spin
        if spin is not None and spin[2] >= 0:
            mask |= (1 << spin[2]) | (1 << spin[3])
        return mask


def _spun(
    spin: tuple[int, int, int, int], sides: tuple[int, int], tile: Tile, end: str | None
) -> tuple[tuple[int, int, int, int], tuple[int, int]]:
    """A spinner table's state after ``tile`` on ``end`` (the engine's
    ``Round._turn_spinner``), and what ends C and D then add to the count."""
    number, waiting, c, d = spin
    if end == "C":
        c = tile.other(c)
        sides = (2 * c if tile.is_double else c, sides[1])
    elif end == "D":
        d = tile.other(d)
        sides = (sides[0], 2 * d if tile.is_double else d)
    elif number < 0:
        if tile.is_double:
            number, waiting = tile.a, 3 if end is None else (1 if end == "A" else 2)
    elif waiting:
        waiting &= ~(1 if end == "A" else 2)
        if not waiting:
            c = d = number
    return (number, waiting, c, d), sides


def _spinner(history: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """`Table.spin` and `Table.sides` from a view's history."""
    spin, sides = _NO_SPINNER, (0, 0)
    for entry in history:
        if entry["type"] == "play":
            end = entry["end"] if entry.get("ends_before") is not None else None
            spin, sides = _spun(spin, sides, Tile.parse(entry["tile"]), end)
    return {"spin": spin, "sides": sides}


_NO_SPINNER = (-1, 0, -1, -1)


def _end_doubles(history: Sequence[dict[str, Any]]) -> int:
    """`Table.end_doubles` from a view's history: which ends a double lies at."""
    bits = 0
    for entry in history:
        if entry["type"] == "play" and entry["end"] not in ("C", "D"):  # (a spinner's sides)
            bit = 3 if entry.get("ends_before") is None else 1 if entry["end"] == "A" else 2
            double = Tile.parse(entry["tile"]).is_double
            bits = (bits | bit) if double else (bits & ~bit)
    return bits


def easy_choice(legal: Sequence[Action]) -> Action:
    """The heaviest fitting tile (the first such play listed); draw or pass when forced."""
    best: Action = legal[0]
    best_pips = -1
    for action in legal:
        if type(action) is Play and action.tile.pips > best_pips:
            best, best_pips = action, action.tile.pips
    return best


def medium_choice(
    legal: Sequence[Action],
    hand: Sequence[Tile],
    ends: tuple[int, int] | None,
    seat: int,
    table: Table,
) -> Action:
    """The legal action with the best medium score (the first listed among equals)."""
    if len(legal) == 1 or type(legal[0]) is not Play:
        return legal[0]
    # The engine lists every play, or else one draw or one pass: all plays from here.
    plays = cast("Sequence[Play]", legal)
    best = 0
    scores = medium_scores(plays, hand, ends, seat, table)
    for i in range(1, len(scores)):
        if scores[i] > scores[best]:
            best = i
    return plays[best]


def medium_scores(
    plays: Sequence[Play],
    hand: Sequence[Tile],
    ends: tuple[int, int] | None,
    seat: int,
    table: Table,
) -> list[float]:
    """How good each play looks to the medium player (higher is better).

    A tile's pips (and ``W_DOUBLE`` for a double); ``W_FOLLOW`` per tile kept
    that can follow on each new end (up to two), minus ``W_STUCK`` when none
    can; the neighbours' known voids and the partner's shown numbers on the
    new ends; ``W_OWN_NUMBER`` for each new end this hand can follow and
    nobody else can (the other tiles of its number are on the table or in
    this hand), ``W_OWN_ALMOST`` when one other tile of it is still out; a
    lone 6-6 or 0-0 under goat scoring; closing the game when this side
    likely holds fewer pips (`_lock_score`). The playing tile of a one-tile
    hand wins the round: 1000.

    The preset's scoring: in the game of points ``W_FIVES`` per point the
    play makes, minus ``W_GIVE`` per point the next opponent may make at once
    (`_fives_score`); in the partida de 6 the pips count ``W_PIPS_PARTIDA``
    (a round scores by how it is won) and, with two tiles in hand,
    ``W_FINISH`` per point the tile kept would win by over a batida simples
    against the new ends (a lá-e-lô, a cruzada; `_finish_points`).

    One pass with every per-decision fact read once: this is the inner loop of
    the hard player's playouts (bench/RESULTS.md, "Issue 28").
    """
    size = len(hand)
    if size == 1:  # domino (and under fives what the last play scores)
        if table.fives:
            return [1000.0 + W_FIVES * _fives_made(play, ends, table)[0] for play in plays]
        return [1000.0] * len(plays)
    held = [0] * 7
    hand_pips = 0
    for t in hand:
        held[t.a] += 1
        if t.a != t.b:
            held[t.b] += 1
        hand_pips += t.a + t.b
    held_total = sum(held)
    seats, voids, partnership = table.seats, table.voids, table.partnership
    next_void = voids[(seat + 1) % seats]
    prev_void = voids[(seat + 3) % 4] if partnership else voids[(seat + 2) % 3] if seats == 3 else 0
    partner_shown = table.shown[(seat + 2) % 4] if partnership else _NOTHING_SHOWN
    control = (W_OWN_NUMBER, W_OWN_ALMOST)  # by how many tiles of the number others may hold
    fives = _fives_context(hand, seat, table) if table.fives else None
    pips_weight = 1.0 if table.finish is None else W_PIPS_PARTIDA
    scores = []
    for play in plays:
        tile = play.tile
        a, b = tile.a, tile.b
        end = play.end
        if ends is None:
            x, y = a, b
        elif end == "A":
            x, y = (b if a == ends[0] else a), ends[1]
        elif end == "B":
            x, y = ends[0], (b if a == ends[1] else a)
        else:  # a spinner's side C or D: the one new end is what the hand must follow
            spin = table.spin
            assert spin is not None
            x = y = tile.other(spin[2] if end == "C" else spin[3])
        double = a == b
        # What the hand keeps after this tile: numbers that can follow on the new ends.
        own_x = held[x] - (1 if a == x else 0) - (1 if b == x and not double else 0)
        own_y = (
            0 if x == y else held[y] - (1 if a == y else 0) - (1 if b == y and not double else 0)
        )
        score = (a + b) * pips_weight + (W_DOUBLE if double else 0.0)
        follow = W_FOLLOW * (min(own_x, 2) + min(own_y, 2))
        if own_x == 0 and own_y == 0 and held_total > (1 if double else 2):
            follow -= W_STUCK
        score += follow
        mask = (1 << x) | (1 << y)
        near = 0.0
        hit = next_void & mask
        if hit:
            near += W_NEXT_VOID * hit.bit_count()
            if hit == mask:
                near += W_NEXT_PASS
        near += W_PREV_VOID * (prev_void & mask).bit_count()
        if partnership:
            if partner_shown[x]:
                near += W_PARTNER_SHOWN
            if y != x and partner_shown[y]:
                near += W_PARTNER_SHOWN
        if own_x and (out := 7 - table.on_table[x] - (a == x or b == x) - own_x) < 2:
            near += control[out]
        if own_y and (out := 7 - table.on_table[y] - (a == y or b == y) - own_y) < 2:
            near += control[out]  # (own_y is 0 when y is x)
        score += near
        if table.goat and double and (a == 6 or a == 0):
            score += W_GOAT_DOUBLE
        if x == y and table.spin is None and table.on_table[x] + (a == x or b == x) == 7:
            score += _lock_score(tile, size, hand_pips, seat, table)
        if fives is not None:
            score += _fives_score(play, ends, x, y, table, fives)
        elif table.finish is not None and size == 2:
            kept = hand[1] if hand[0] == tile else hand[0]
            score += W_FINISH * (_finish_points(kept, x, y, table.finish) - table.finish[0])
        scores.append(score)
    return scores


def _finish_points(tile: Tile, x: int, y: int, values: tuple[int, int, int, int]) -> int:
    """The partida: what ``tile`` as the last one would win against ends ``x`` and
    ``y`` (a batida simples, carroça, lá-e-lô or cruzada), or a simples when it fits
    neither end yet (another play may still open one for it)."""
    on_x, on_y = tile.has(x), tile.has(y)
    if tile.is_double:
        return values[3] if on_x and on_y else values[1] if on_x or on_y else values[0]
    return values[2] if on_x and on_y else values[0]


def _fives_made(play: Play, ends: tuple[int, int] | None, table: Table) -> tuple[int, int, int]:
    """The game of points: what ``play`` scores, and the count each new end then
    adds (A's, B's): an end's number, twice when a double lies at it; a lone
    first tile counts its pips; a spinner's sides C and D add theirs once a tile
    lies on them (`Table.sides`)."""
    tile = play.tile
    if ends is None:
        return (tile.pips if tile.pips % 5 == 0 else 0), tile.a, tile.b
    side_c, side_d = table.sides
    end = play.end
    if end == "A":
        x = tile.b if tile.a == ends[0] else tile.a
        cx = 2 * x if tile.is_double else x
        cy = 2 * ends[1] if table.end_doubles & 2 else ends[1]
    elif end == "B":
        y = tile.b if tile.a == ends[1] else tile.a
        cx = 2 * ends[0] if table.end_doubles & 1 else ends[0]
        cy = 2 * y if tile.is_double else y
    else:
        spin = table.spin
        assert spin is not None
        n = tile.other(spin[2] if end == "C" else spin[3])
        new = 2 * n if tile.is_double else n
        side_c, side_d = (new, side_d) if end == "C" else (side_c, new)
        cx = 2 * ends[0] if table.end_doubles & 1 else ends[0]
        cy = 2 * ends[1] if table.end_doubles & 2 else ends[1]
    count = cx + cy + side_c + side_d
    return (count if count % 5 == 0 else 0), cx, cy


_Context = tuple[int, int, float, tuple[tuple[tuple[int, int], ...], ...] | None]


def _fives_context(hand: Sequence[Tile], seat: int, table: Table) -> _Context:
    """What `_fives_score` reads once a decision: the tiles seen (on the table or
    in this hand), the numbers the next seat lacks, the chance it holds a given
    unseen tile; at a spinner table also, per number, the unseen tiles the next
    seat may hold with it (index, what each adds to the count lying outward)."""
    seen = table.placed
    for t in hand:
        seen |= 1 << t.index
    nxt = (seat + 1) % table.seats
    unknown = 28 - table.table_tiles - len(hand)
    chance = min(1.0, table.counts[nxt] / unknown) if unknown > 0 else 0.0
    void = table.voids[nxt]
    if table.spin is None:
        return seen, void, chance, None
    avail = tuple(
        ()
        if void >> number & 1
        else tuple(
            (tile.index, 2 * out if out == number else out)
            for tile, out in _WITH[number]
            if not seen >> tile.index & 1
        )
        for number in range(7)
    )
    return seen, void, chance, avail


def _fives_score(
    play: Play,
    ends: tuple[int, int] | None,
    x: int,
    y: int,
    table: Table,
    context: _Context,
) -> float:
    """``W_FIVES`` per point the play scores, minus ``W_GIVE`` per point the next
    opponent is expected to score at once on the new ends: each tile it may hold
    (unseen, and of a number it has not shown it lacks) that makes a multiple of
    5, by the chance it holds that tile."""
    made, cx, cy = _fives_made(play, ends, table)
    seen, void, chance, avail = context
    if not chance:
        return W_FIVES * made
    tile = play.tile
    if ends is None and tile.is_double:
        cx = cy = tile.pips  # a lone first double: a tile on either end leaves it counting twice
    seen |= 1 << tile.index
    if avail is not None and ends is not None:
        given = _given_spinner(play, ends, table, cx, cy, avail)
        return W_FIVES * made - W_GIVE * chance * given
    given = 0
    for number, other in ((x, cy), (y, cx)):
        if not void >> number & 1:
            for tile, out in _WITH[number]:
                if not seen >> tile.index & 1:
                    count = (2 * out if out == number else out) + other
                    if count % 5 == 0 and count:
                        given += count
        if x == y:
            break
    return W_FIVES * made - W_GIVE * chance * given


def _given_spinner(
    play: Play,
    ends: tuple[int, int],
    table: Table,
    cx: int,
    cy: int,
    avail: tuple[tuple[tuple[int, int], ...], ...],
) -> int:
    """`_fives_score`'s points given at a spinner table: every open end after
    ``play`` (A, B, and C and D once open), each unseen tile the next seat may
    hold counted once, at the end where it scores most."""
    tile, end = play.tile, play.end
    spin = table.spin
    assert spin is not None
    spin, sides = _spun(spin, table.sides, tile, end)
    if end == "A":
        numbers = [tile.other(ends[0]), ends[1]]
    elif end == "B":
        numbers = [ends[0], tile.other(ends[1])]
    else:
        numbers = [ends[0], ends[1]]
    open_ends = [(numbers[0], cx), (numbers[1], cy)]
    if spin[2] >= 0:
        open_ends += [(spin[2], sides[0]), (spin[3], sides[1])]
    total = cx + cy + sides[0] + sides[1]
    best: dict[int, int] = {}
    for number, contribution in open_ends:
        rest = total - contribution
        for index, new in avail[number]:
            count = new + rest
            if count % 5 == 0 and count > best.get(index, 0):
                best[index] = count
    return sum(best.values())


#: Per number, the tiles showing it and the other number each leaves outward.
_WITH = tuple(tuple((Tile(n, k), k) for k in range(7)) for n in range(7))


_NOTHING_SHOWN = (0,) * 7


def _lock_score(tile: Tile, hand_size: int, hand_pips: int, seat: int, table: Table) -> float:
    """The play closes the game: worth it only if this side likely has fewer pips."""
    unknown_tiles = 28 - table.table_tiles - hand_size
    unknown_pips = 168 - table.table_pips - hand_pips
    per_tile = unknown_pips / unknown_tiles if unknown_tiles > 0 else 0.0
    mine: float = hand_pips - tile.pips
    if table.partnership:
        mine += table.counts[(seat + 2) % 4] * per_tile
        theirs = (table.counts[(seat + 1) % 4] + table.counts[(seat + 3) % 4]) * per_tile
    else:
        others = [table.counts[s] for s in range(table.seats) if s != seat]
        theirs = min(others) * per_tile if others else 0.0
    return W_LOCK if mine < theirs else -W_LOCK
