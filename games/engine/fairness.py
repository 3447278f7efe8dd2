"""Verifiable deals, version ``domino-fair-v1`` (docs/rules.md, "Verifiable deals").

A deal is a documented function of a server seed (32 bytes, committed to by its
SHA-256 before anyone contributes) and of a *material* text naming the room, the
match, the round and the seated people's own client seeds. Nothing here draws
chance: the site brings the seed (`games.world`), this module only computes.

>>> seed = "00" * 32
>>> commitment(seed)
'66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925'
>>> text = material("abcd2345", 1, 1, [])
>>> text
'ABCD2345:1:1:'
>>> hands, rest = split(shuffle(seed, text), seats=4, hand_size=7)
>>> " ".join(map(str, hands[0]))
'0-0 0-6 4-4 0-4 0-2 2-3 2-4'
>>> rest
()
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from .rules import RuleSet
from .tiles import ALL_TILES, Tile

VERSION = "domino-fair-v1"
SEED_BYTES = 32
MAX_CLIENT_SEED = 64
_HEX_SEED = re.compile(r"[0-9a-f]{64}")
_CLIENT_SEED = re.compile(r"[ -9;-~]{1,64}")  # printable ASCII (space to ~) but ':'


class FairnessError(ValueError):
    """A seed or a material that the algorithm does not take."""


def valid_client_seed(value: object) -> bool:
    """Whether ``value`` is a client seed: 1 to 64 printable ASCII characters, no ``:``.

    >>> valid_client_seed("Ana's seed"), valid_client_seed("a:b"), valid_client_seed("")
    (True, False, False)
    """
    return isinstance(value, str) and _CLIENT_SEED.fullmatch(value) is not None


def seed_bytes(server_seed: str) -> bytes:
    """The 32 bytes a server seed's 64 lowercase hex digits write."""
    if not isinstance(server_seed, str) or not _HEX_SEED.fullmatch(server_seed):
        raise FairnessError("a server seed is 64 lowercase hex digits")
    return bytes.fromhex(server_seed)


def commitment(server_seed: str) -> str:
    """The lowercase hex SHA-256 of the seed's 32 bytes (published before the deal)."""
    return hashlib.sha256(seed_bytes(server_seed)).hexdigest()


def material(room_code: str, match_number: int, round_number: int, seeds: Sequence[str]) -> str:
    """``"<ROOM CODE>:<match>:<round>:" + ":".join(seeds)``; numbers count from 1.

    >>> material("zz9xk7qp", 3, 5, ["c0ffee", "Ana's seed"])
    "ZZ9XK7QP:3:5:c0ffee:Ana's seed"
    """
    bad = [s for s in seeds if not valid_client_seed(s)]
    if bad:
        raise FairnessError(f"not a client seed: {bad[0]!r}")
    return f"{room_code.upper()}:{match_number}:{round_number}:" + ":".join(seeds)


class Stream:
    """The byte stream of a seed and a material: block k is SHA-256(seed ‖ material
    ‖ k as 8 bytes big-endian), the blocks one after the other.

    >>> Stream("00" * 32, "ABCD2345:1:1:").uniform(28) in range(28)
    True
    """

    def __init__(self, server_seed: str, material: str) -> None:
        self._key = seed_bytes(server_seed) + material.encode("utf-8")
        self._block = 0
        self._buffer = b""

    def read(self, count: int) -> bytes:
        """The stream's next ``count`` bytes."""
        while len(self._buffer) < count:
            data = self._key + self._block.to_bytes(8, "big")
            self._buffer += hashlib.sha256(data).digest()
            self._block += 1
        out, self._buffer = self._buffer[:count], self._buffer[count:]
        return out

    def uniform(self, n: int) -> int:
        """A whole number in ``range(n)``, unbiased: 4 bytes big-endian, read
        again while they fall in the last, incomplete, run of ``n``."""
        if n < 1 or n > 1 << 32:
            raise FairnessError("uniform(n) takes 1 <= n <= 2**32")
        limit = (1 << 32) - (1 << 32) % n
        while True:
            x = int.from_bytes(self.read(4), "big")
            if x < limit:
                return x % n

    def shuffled(self) -> tuple[Tile, ...]:
        """The 28 tiles in canonical order, shuffled: for i from 27 down to 1,
        swap tile i with tile ``uniform(i + 1)``."""
        tiles = list(ALL_TILES)
        for i in range(len(tiles) - 1, 0, -1):
            j = self.uniform(i + 1)
            tiles[i], tiles[j] = tiles[j], tiles[i]
        return tuple(tiles)


def shuffle(server_seed: str, material: str) -> tuple[Tile, ...]:
    """The deal's order of the 28 tiles (the first shuffle of the stream)."""
    return Stream(server_seed, material).shuffled()


def split(
    order: Sequence[Tile], seats: int, hand_size: int
) -> tuple[tuple[tuple[Tile, ...], ...], tuple[Tile, ...]]:
    """Seat s gets tiles s·H … s·H + H − 1 of ``order``; the rest, in that order,
    is the boneyard (drawn from its start) or the sleeping tiles."""
    hands = tuple(tuple(order[s * hand_size : (s + 1) * hand_size]) for s in range(seats))
    return hands, tuple(order[seats * hand_size :])


def too_many_doubles(
    order: Sequence[Tile], seats: int, hand_size: int, threshold: int
) -> tuple[int, int] | None:
    """The first seat whose hand (as `split` deals ``order``) holds at least
    ``threshold`` doubles, and how many it holds; None when no hand does.

    >>> from games.engine import DOUBLES, ALL_TILES
    >>> order = list(DOUBLES[:4]) + [t for t in ALL_TILES if t not in DOUBLES[:4]]
    >>> too_many_doubles(order, 4, 7, 4), too_many_doubles(order, 4, 7, 5)
    ((0, 4), None)
    """
    for seat in range(seats):
        doubles = sum(1 for t in order[seat * hand_size : (seat + 1) * hand_size] if t.is_double)
        if doubles >= threshold:
            return seat, doubles
    return None


@dataclass(frozen=True)
class FairDeal:
    """What a seed and a material decide: the tile order of the deal, and the
    secret order of a blocked round's tie-break pick-off (the stream's second
    shuffle, read after the first: it never changes the deal).

    >>> deal = FairDeal.compute("00" * 32, "ABCD2345:1:1:")
    >>> str(deal.order[0]), len(deal.tiebreak_order), deal.commitment[:8]
    ('0-0', 28, '66687aad')
    """

    server_seed: str
    material: str
    order: tuple[Tile, ...]
    tiebreak_order: tuple[Tile, ...]

    @classmethod
    def compute(cls, server_seed: str, material: str) -> FairDeal:
        stream = Stream(server_seed, material)
        order = stream.shuffled()
        return cls(server_seed, material, order, stream.shuffled())

    @property
    def commitment(self) -> str:
        return commitment(self.server_seed)

    def redeal_orders(self) -> Iterator[tuple[Tile, ...]]:
        """The orders of the deals made again when a hand holds too many doubles
        (docs/rules.md, "Doubles in the deal"): the stream read on after the
        tie-break's shuffle, one shuffle a redeal, computed as they are asked for.

        >>> deal = FairDeal.compute("00" * 32, "ABCD2345:1:1:")
        >>> first = next(deal.redeal_orders())
        >>> len(first), first in (deal.order, deal.tiebreak_order)
        (28, False)
        """
        stream = Stream(self.server_seed, self.material)
        stream.shuffled()
        stream.shuffled()
        while True:
            yield stream.shuffled()

    def order_for(self, rules: RuleSet) -> Sequence[Tile]:
        """The order a round of ``rules`` is played from: `order`, or on a table
        that deals again for too many doubles, the first redeal order that needs
        no redeal (`Round.deal` with `redeal_orders` deals the same)."""
        return _order_played(self, rules.to_dict(), rules.seats, rules.hand_size)

    def hands(self, rules: RuleSet) -> tuple[tuple[Tile, ...], ...]:
        return split(self.order, rules.seats, rules.hand_size)[0]

    def rest(self, rules: RuleSet) -> tuple[Tile, ...]:
        return split(self.order, rules.seats, rules.hand_size)[1]


# ---------------------------------------------------------------------- checking a round


def _shape(rules: dict[str, Any], dealt: Sequence[Sequence[str]]) -> tuple[int, int, bool]:
    """Seats, hand size and whether undealt tiles are drawn: from the round's
    rules (`RuleSet.to_dict`), else from the hands as dealt."""
    seats = rules.get("seats") or len(dealt)
    size = rules.get("hand_size") or len(dealt[0])
    if not (type(seats) is int and type(size) is int and 0 < seats * size <= len(ALL_TILES)):
        raise ValueError("the seats and hand size do not fit the 28 tiles")
    return seats, size, bool(rules.get("draw", True))


def _order_played(deal: FairDeal, rules: dict[str, Any], seats: int, size: int) -> Sequence[Tile]:
    """The order the round was played from: the deal's, or on a table that deals
    again for a hand of too many doubles, the first of the redeal orders that
    gives no such hand (a hand of six doubles stands where they win the match)."""
    threshold = rules.get("redeal_doubles")
    if threshold is None:
        return deal.order
    if type(threshold) is not int or not 4 <= threshold <= 7:
        raise ValueError(f"redeal_doubles is 4 to 7, got {threshold!r}")
    order: Sequence[Tile] = deal.order
    orders = deal.redeal_orders()
    while (found := too_many_doubles(order, seats, size, threshold)) is not None:
        if rules.get("doubles_prizes") and found[1] >= 6:
            break
        order = next(orders)
    return order


def check_round(data: dict[str, Any]) -> list[str]:
    """What is wrong with a finished round's JSON (``GET /api/rooms/<code>/rounds/<n>/``)
    as a verifiable deal; an empty list when the commitment, the material, the
    hands as dealt and every drawn tile are exactly what the seeds give."""
    fair = data.get("fair") if isinstance(data, dict) else None
    if not isinstance(fair, dict):
        return ["the round carries no 'fair' object"]
    if fair.get("version") != VERSION:
        return [f"unknown version {fair.get('version')!r} (this checks {VERSION})"]
    seed, seeds = fair.get("server_seed"), fair.get("client_seeds")
    if seed is None:
        return ["the server seed is not revealed yet (the round has not ended)"]
    if not isinstance(seeds, list):
        return ["client_seeds is not a list"]
    dealt = (data.get("deal") or {}).get("hands") or []
    try:
        committed = commitment(seed)
        text = material(data["room"], data["match"], data["number"], seeds)
        seats, size, draw = _shape(data.get("rules") or {}, dealt)
    except (FairnessError, KeyError, TypeError, ValueError, IndexError) as exc:
        return [f"unreadable: {exc}"]
    problems = []
    if committed != fair.get("commitment"):
        problems.append(f"SHA-256 of the server seed is {committed}, not the commitment")
    if text != fair.get("material"):
        problems.append(f"the material should be {text!r}, not {fair.get('material')!r}")
    deal = FairDeal.compute(seed, text)
    try:
        order = _order_played(deal, data.get("rules") or {}, seats, size)
    except ValueError as exc:
        return [*problems, f"unreadable: {exc}"]
    hands, rest = split(order, seats, size)
    for index, hand in enumerate(hands):
        got = dealt[index] if index < len(dealt) else None
        if got != [str(t) for t in hand]:
            problems.append(f"seat {index} was dealt {got}, the seeds give {list(map(str, hand))}")
    drawn = [m.get("tile") for m in data.get("moves") or () if m.get("type") == "draw"]
    for k, tile in enumerate(drawn):
        expected = str(rest[k]) if draw and k < len(rest) else None
        if tile != expected:
            problems.append(f"draw {k + 1} took {tile}, the seeds give {expected}")
    return problems
