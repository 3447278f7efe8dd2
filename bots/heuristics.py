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
W_PREV_VOID = 2.0  # a new end the other opponent lacks
W_PARTNER_VOID = 5.0  # a new end the partner lacks
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
    held = [0] * 7
    for t in hand:
        held[t.a] += 1
        if not t.is_double:
            held[t.b] += 1
    hand_pips = sum(t.pips for t in hand)
    # The engine lists every play, or else one draw or one pass: all plays from here.
    plays = cast("Sequence[Play]", legal)
    best = plays[0]
    best_score = -1e9
    for action in plays:
        score = medium_score(action, held, len(hand), hand_pips, ends, seat, table)
        if score > best_score:
            best, best_score = action, score
    return best


def medium_score(
    play: Play,
    held: list[int],
    hand_size: int,
    hand_pips: int,
    ends: tuple[int, int] | None,
    seat: int,
    table: Table,
) -> float:
    """How good ``play`` looks to the medium player (higher is better)."""
    tile = play.tile
    if hand_size == 1:
        return 1000.0  # domino
    new_x, new_y = _new_ends(tile, play.end, ends)
    a, b = tile.a, tile.b
    held[a] -= 1
    if b != a:
        held[b] -= 1
    try:
        score = tile.pips + (W_DOUBLE if tile.is_double else 0.0)
        score += _follow_score(held, new_x, new_y)
        score += _neighbour_score(new_x, new_y, seat, table)
        if table.goat and tile.is_double and (a == 6 or a == 0):
            score += W_GOAT_DOUBLE
        if new_x == new_y and table.on_table[new_x] + (1 if tile.has(new_x) else 0) == 7:
            score += _lock_score(tile, hand_size, hand_pips, seat, table)
        return score
    finally:
        held[a] += 1
        if b != a:
            held[b] += 1


def _new_ends(tile: Tile, end: str | None, ends: tuple[int, int] | None) -> tuple[int, int]:
    if ends is None:
        return tile.a, tile.b
    x, y = ends
    if end == "A":
        return (tile.b if tile.a == x else tile.a), y
    return x, (tile.b if tile.a == y else tile.a)


def _follow_score(held: list[int], new_x: int, new_y: int) -> float:
    """Keeping both ends reachable and numbers held many of."""
    own_x, own_y = held[new_x], held[new_y]
    if new_x == new_y:
        own_y = 0
    score = W_FOLLOW * (min(own_x, 2) + min(own_y, 2))
    if own_x == 0 and own_y == 0 and sum(held) > 0:
        score -= W_STUCK
    return score


def _neighbour_score(new_x: int, new_y: int, seat: int, table: Table) -> float:
    """Ends the next opponent lacks are good; ends the partner lacks are bad."""
    seats = table.seats
    new_mask = (1 << new_x) | (1 << new_y)
    nxt = (seat + 1) % seats
    score = 0.0
    voids = table.voids
    hit = voids[nxt] & new_mask
    if hit:
        score += W_NEXT_VOID * _bits(hit)
        if hit == new_mask:
            score += W_NEXT_PASS
    if table.partnership:
        partner = (seat + 2) % 4
        score += W_PREV_VOID * _bits(voids[(seat + 3) % 4] & new_mask)
        score -= W_PARTNER_VOID * _bits(voids[partner] & new_mask)
        shown = table.shown[partner]
        if shown[new_x]:
            score += W_PARTNER_SHOWN
        if new_y != new_x and shown[new_y]:
            score += W_PARTNER_SHOWN
    elif seats == 3:
        score += W_PREV_VOID * _bits(voids[(seat + 2) % 3] & new_mask)
    return score


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


def _bits(mask: int) -> int:
    return mask.bit_count()
