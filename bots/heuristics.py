"""The easy and medium players: one decision from public facts, in microseconds.

`Table` is the public state the medium player weighs (who lacks which number,
what each seat has played, what is on the chain). It is built from a view for
a real decision, and kept up to date move by move inside the hard player's
simulations, where the medium player is the default policy of every seat.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

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


class Table:
    """Public facts for one seat's decision, cheap to update in a simulation."""

    __slots__ = (
        "seats", "partnership", "goat", "voids", "shown", "on_table", "table_pips",
        "table_tiles", "counts",
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
        )

    def copy(self) -> Table:
        return Table(
            self.seats, self.partnership, self.goat, self.voids[:],
            [row[:] for row in self.shown], self.on_table[:], self.table_pips,
            self.table_tiles, self.counts[:],
        )  # fmt: skip

    # -- keeping it current inside a simulation ------------------------
    def played(self, seat: int, tile: Tile) -> None:
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
            self.voids[seat] |= (1 << ends[0]) | (1 << ends[1])

    def drew(self, seat: int, ends: tuple[int, int] | None) -> None:
        # The new tile may show numbers the seat lacked before: only the current ends stay sure.
        self.voids[seat] = (1 << ends[0]) | (1 << ends[1]) if ends is not None else 0
        self.counts[seat] += 1


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

    One pass with every per-decision fact read once: this is the inner loop of
    the hard player's playouts (bench/RESULTS.md, "Issue 28").
    """
    size = len(hand)
    if size == 1:
        return [1000.0] * len(plays)  # domino
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
    scores = []
    for play in plays:
        tile = play.tile
        a, b = tile.a, tile.b
        if ends is None:
            x, y = a, b
        elif play.end == "A":
            x, y = (b if a == ends[0] else a), ends[1]
        else:
            x, y = ends[0], (b if a == ends[1] else a)
        double = a == b
        # What the hand keeps after this tile: numbers that can follow on the new ends.
        own_x = held[x] - (1 if a == x else 0) - (1 if b == x and not double else 0)
        own_y = (
            0 if x == y else held[y] - (1 if a == y else 0) - (1 if b == y and not double else 0)
        )
        score = a + b + (W_DOUBLE if double else 0.0)
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
        if x == y and table.on_table[x] + (1 if a == x or b == x else 0) == 7:
            score += _lock_score(tile, size, hand_pips, seat, table)
        scores.append(score)
    return scores


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
