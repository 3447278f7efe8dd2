"""What one seat may deduce from its view: the public facts a bot reasons with.

Everything here is computed from ``Round.view(seat)`` alone (docs/rules.md, rule 12):
the seat's own tiles, the chain, the tile counts, the boneyard count and the
history of plays, passes and draws. Sets of numbers are 7-bit masks (bit ``n``
for number ``n``), which keeps the inner loops of the search cheap.

How passes and draws become constraints ("groups"):

* Each other seat's hand is a list of groups ``[count, forbidden]``: ``count``
  unknown tiles none of which shows a number in the mask ``forbidden``.
* A pass (or a draw) against ends x and y means no tile then in hand shows x or
  y: every group of that seat gains x and y.
* A draw adds a new group of one tile with no constraint yet (a later draw at
  the same ends adds x and y to it, since it did not fit either); the play that
  follows a draw is that drawn tile, so it leaves the newest group.
* Any other play leaves whichever group could hold the tile; when several
  could, they are merged with the numbers they all lack, which stays true
  whatever the real origin was (information is lost, never invented).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.engine import ALL_TILES, DOUBLES, RuleSet, Tile

ALL_NUMBERS = 0b1111111


def tile_mask(tile: Tile) -> int:
    """The numbers on ``tile`` as a mask."""
    return (1 << tile.a) | (1 << tile.b)


@dataclass
class Knowledge:
    """The public facts of a view plus the viewer's own hand, in handy form."""

    rules: RuleSet
    seat: int
    hand: list[Tile]
    ends: tuple[int, int] | None
    counts: list[int]
    boneyard_count: int
    chain_tiles: list[Tile]
    #: per seat, ``[count, forbidden]`` groups (empty for the viewer itself)
    groups: list[list[list[int]]]
    #: per seat, how many tile halves of each number it has played (its "signals")
    shown: list[list[int]]
    #: tiles that cannot be in any hand (an opening rule proved it)
    not_in_hands: frozenset[Tile] = field(default_factory=frozenset)
    #: the view's history of plays, passes and draws, oldest first
    history: list[dict[str, Any]] = field(default_factory=list)

    @property
    def seats(self) -> int:
        return self.rules.seats

    @property
    def partner(self) -> int | None:
        """The partner's seat at a four-seat partnership table, else None."""
        return (self.seat + 2) % 4 if self.rules.partnership else None

    def voids(self) -> list[int]:
        """Per seat, the numbers it surely holds none of (every group lacks them)."""
        result = []
        for seat, groups in enumerate(self.groups):
            if seat == self.seat or not groups:
                result.append(0)
                continue
            mask = ALL_NUMBERS
            for _, forbidden in groups:
                mask &= forbidden
            result.append(mask)
        return result

    def unseen(self) -> list[Tile]:
        """Tiles in nobody's sight: other hands, the boneyard, sleeping tiles (sorted)."""
        seen = set(self.hand) | set(self.chain_tiles)
        return [t for t in ALL_TILES if t not in seen]

    def on_table(self) -> list[int]:
        """How many tiles showing each number are on the chain."""
        counts = [0] * 7
        for tile in self.chain_tiles:
            counts[tile.a] += 1
            if not tile.is_double:
                counts[tile.b] += 1
        return counts


def ends_mask(ends: dict[str, int] | None) -> int:
    """The numbers of a view's named ends as a mask: A and B, and a spinner's C
    and D once open (a pass or a draw there lacks all of them)."""
    mask = 0
    for number in (ends or {}).values():
        mask |= 1 << number
    return mask


def read_view(view: dict[str, Any]) -> Knowledge:
    """Turn a ``Round.view(seat)`` dict into `Knowledge` (public facts only)."""
    rules = RuleSet.from_dict(view["rules"])
    seat = view["seat"]
    ends = view["ends"]
    know = Knowledge(
        rules=rules,
        seat=seat,
        hand=[Tile.parse(t) for t in view["hand"]],
        ends=(ends["A"], ends["B"]) if ends else None,
        counts=list(view["tile_counts"]),
        boneyard_count=view["boneyard_count"],
        chain_tiles=[Tile.parse(link["tile"]) for link in view["chain"]],
        groups=[[] for _ in range(rules.seats)],
        shown=[[0] * 7 for _ in range(rules.seats)],
        history=list(view["history"]),
    )
    dealt = _dealt_counts(know.counts, view["history"])
    for s in range(rules.seats):
        if s != seat and dealt[s] > 0:
            know.groups[s].append([dealt[s], 0])
    _replay_history(know, view["history"])
    _fix_counts(know)
    know.not_in_hands = _opening_exclusions(rules, view)
    return know


def _dealt_counts(counts: list[int], history: list[dict[str, Any]]) -> list[int]:
    """Tiles each seat was dealt: what it holds, plus what it played, minus what it drew."""
    dealt = list(counts)
    for entry in history:
        if entry["type"] == "play":
            dealt[entry["seat"]] += 1
        elif entry["type"] == "draw":
            dealt[entry["seat"]] -= 1
    return dealt


def _replay_history(know: Knowledge, history: list[dict[str, Any]]) -> None:
    last_kind: dict[int, str] = {}
    for entry in history:
        seat, kind = entry["seat"], entry["type"]
        before = entry.get("ends_before")
        mask = ends_mask(before)
        if kind == "play":
            tile = Tile.parse(entry["tile"])
            know.shown[seat][tile.a] += 1
            if not tile.is_double:
                know.shown[seat][tile.b] += 1
            if seat != know.seat:
                _remove_played(know.groups[seat], tile, after_draw=last_kind.get(seat) == "draw")
        elif kind in ("pass", "draw") and seat != know.seat:
            for group in know.groups[seat]:
                group[1] |= mask
            if kind == "draw":
                know.groups[seat].append([1, 0])
        last_kind[seat] = kind


def _remove_played(groups: list[list[int]], tile: Tile, *, after_draw: bool) -> None:
    """Take ``tile`` out of the group it came from (see the module docstring)."""
    if after_draw and groups and groups[-1][0] == 1:
        groups.pop()
        return
    mask = tile_mask(tile)
    able = [g for g in groups if not g[1] & mask and g[0] > 0]
    if not able:  # inconsistent history (cannot happen with a real round): forget constraints
        able = list(groups)
        for g in able:
            g[1] = 0
    if len(able) == 1:
        able[0][0] -= 1
    else:
        merged = [sum(g[0] for g in able) - 1, ALL_NUMBERS]
        for g in able:
            merged[1] &= g[1]
            groups.remove(g)
        groups.append(merged)
    groups[:] = [g for g in groups if g[0] > 0]


def _fix_counts(know: Knowledge) -> None:
    """Make the groups add up to the public tile counts.

    They do for any view of a real round; should they not (a view built by hand
    in a test), fall back to one unconstrained group rather than guess.
    """
    for seat, groups in enumerate(know.groups):
        if seat == know.seat:
            continue
        if sum(g[0] for g in groups) != know.counts[seat]:
            know.groups[seat] = [[know.counts[seat], 0]] if know.counts[seat] else []


def _opening_exclusions(rules: RuleSet, view: dict[str, Any]) -> frozenset[Tile]:
    """Doubles no hand can hold, proven by a mandatory opening tile.

    Only when every round opens by ``first_opening`` (``next_opening == "same"``),
    so the first tile is known to follow the rule: the highest double dealt
    proves no hand holds a higher one; under ``one_one`` the double played proves
    no hand holds the ones tried before it.
    """
    chain = view["chain"]
    if not chain or rules.next_opening != "same":
        return frozenset()
    first = Tile.parse(chain[0]["tile"])
    rule = rules.first_opening
    if not first.is_double:
        if rule not in ("double_six", "highest_double", "one_one"):
            return frozenset()
        # No double was dealt, and the first tile was the highest one dealt.
        higher = [t for t in ALL_TILES if (t.pips, t.b) > (first.pips, first.b)]
        return frozenset(DOUBLES) | frozenset(higher)
    if rule in ("double_six", "highest_double"):
        return frozenset(d for d in DOUBLES if d.a > first.a)
    if rule == "one_one":
        order = [DOUBLES[n] for n in (1, 2, 3, 4, 5, 6, 0)]
        return frozenset(order[: order.index(first)])
    return frozenset()
