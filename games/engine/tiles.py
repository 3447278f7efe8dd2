"""Tiles of the double-six set.

>>> Tile(5, 2)
Tile(2, 5)
>>> str(Tile.parse("5-2")), Tile(2, 5).pips, Tile(3, 3).is_double
('2-5', 7, True)
>>> len(ALL_TILES)
28
"""

from __future__ import annotations

from typing import Any

_INTERNED: dict[tuple[int, int], Tile] = {}
_WRITTEN: dict[str, Tile] = {}  # "a-b" and "b-a" of every tile: parsing is a lookup


class Tile(int):
    """One domino `a-b` with ``a <= b``; immutable, hashable, ordered.

    Construction normalises the halves, and each tile exists once (interned).
    A Tile is, underneath, the int of its position in `ALL_TILES` (0-0 is 0,
    6-6 is 27): equality, hashing and ordering are then done in C, which is what
    the engine's inner loops (``tile in hand``, ``hand.remove(tile)``, sorting)
    spend their time on. Compare tiles with tiles: ``Tile(0, 1) == 1`` is true
    only because of that representation, and nothing relies on it. Printing and
    formatting always give the ``"a-b"`` notation.
    """

    a: int
    b: int
    pips: int
    is_double: bool
    index: int
    text: str

    def __new__(cls, a: int, b: int) -> Tile:
        if type(a) is not int or type(b) is not int or not (0 <= a <= 6 and 0 <= b <= 6):
            raise ValueError(f"a tile's halves are whole numbers from 0 to 6, got {a!r} and {b!r}")
        key = (a, b) if a <= b else (b, a)
        tile = _INTERNED.get(key)
        if tile is not None:
            return tile
        lo, hi = key
        # Position in ALL_TILES: the tiles before (lo, lo) number 7 + 6 + ... for rows < lo.
        index = lo * 7 - lo * (lo - 1) // 2 + (hi - lo)
        tile = int.__new__(cls, index)
        fields: dict[str, object] = {"a": lo, "b": hi, "pips": lo + hi, "is_double": lo == hi}
        fields["index"] = index
        fields["text"] = f"{lo}-{hi}"
        for name, value in fields.items():
            object.__setattr__(tile, name, value)
        _INTERNED[key] = tile
        _WRITTEN[f"{lo}-{hi}"] = _WRITTEN[f"{hi}-{lo}"] = tile
        return tile

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Tile is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Tile is immutable")

    def __reduce__(self) -> tuple[type[Tile], tuple[int, int]]:
        return (Tile, (self.a, self.b))

    def __copy__(self) -> Tile:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Tile:
        return self

    @classmethod
    def parse(cls, text: object) -> Tile:
        """Read ``"a-b"`` in either order: ``Tile.parse("5-2") == Tile(2, 5)``.

        A `Tile` is returned as it is; anything else that is not such a string (it
        may come straight from a client's JSON) raises ``ValueError``.
        """
        if isinstance(text, Tile):
            return text
        if type(text) is str:  # the common case, as the engine itself writes tiles
            tile = _WRITTEN.get(text)
            if tile is not None:
                return tile
        if not isinstance(text, str):
            raise ValueError(f"a tile is written 'a-b', got {text!r}")
        parts = text.strip().split("-")
        if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
            raise ValueError(f"a tile is written 'a-b' with numbers 0 to 6, got {text!r}")
        return cls(int(parts[0]), int(parts[1]))

    def has(self, n: int) -> bool:
        """Whether one half shows ``n``."""
        return n == self.a or n == self.b

    def other(self, n: int) -> int:
        """The half opposite ``n``: ``Tile(2, 5).other(5) == 2``; raises if ``n`` is absent."""
        if n == self.a:
            return self.b
        if n == self.b:
            return self.a
        raise ValueError(f"{self} has no half showing {n}")

    def __str__(self) -> str:
        return self.text

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __repr__(self) -> str:
        return f"Tile({self.a}, {self.b})"

    def __bool__(self) -> bool:
        return True  # 0-0 is a tile, not a false value


ALL_TILES: tuple[Tile, ...] = tuple(Tile(a, b) for a in range(7) for b in range(a, 7))
assert [t.index for t in ALL_TILES] == list(range(28))

DOUBLES: tuple[Tile, ...] = tuple(Tile(n, n) for n in range(7))


def highest_key(tile: Tile) -> tuple[int, int]:
    """Order for "the highest tile": pips, then the larger half (1-6 > 2-5 > 3-4)."""
    return (tile.pips, tile.b)


def lowest_key(tile: Tile) -> tuple[int, int]:
    """Order for "the lowest tile": pips, then the smaller half (0-3 < 1-2)."""
    return (tile.pips, tile.a)
