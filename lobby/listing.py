"""The lobby's views of the public list: a filter and a page (docs/protocol.md).

A `View` is what one viewer looks at: the filter (preset, clock, a free seat,
rated) and the page (a cursor and a size). The same `View` filters the rows in
SQL (`lobby.selectors.lobby_entries`) and in memory (`View.matches`), so the
two always agree.

Pages are keyset pages, newest room first: the key of a row is its room's id,
and a page holds the first ``size`` matching rows whose key is below the
cursor (no cursor: from the newest). A change on an earlier page never shifts a
later one, and a new room can only appear on the first.

`Page` is one lobby socket's state. It holds the page's rows and a few more
past its end, all it knows exactly (every matching row whose key lies between
the cursor and its horizon). A change of the public list comes to every lobby
socket as the changed rows alone (`rooms.events.lobby_notice`); each `Page` keeps the ones
that fall in its range, works out what its viewer must hear (`Diff`), and needs
the database again only when removals used up the rows past its end.

>>> view = View.parse({"preset": "duelo", "free": True})
>>> view.matches({"preset": "duelo", "humans": 1, "seats": 2, "rated": False,
...               "move_seconds": None})
True
>>> View.parse({"page_size": 0})
Traceback (most recent call last):
    ...
lobby.listing.BadView: page_size
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from games.engine import PRESETS
from rooms.models import MOVE_SECONDS_CHOICES
from rooms.selectors import Entry

PAGE_SIZE = 50
MAX_PAGE_SIZE = 100
#: Rows a socket keeps past its page's end, so that a removal is filled from
#: memory; only when they are used up does it read its page again.
SPARE = 10
#: ``move_seconds`` of a filter for the tables without a clock.
NO_CLOCK = 0

VIEW_FIELDS = ("preset", "move_seconds", "free", "rated", "cursor", "page_size")


class BadView(ValueError):
    """A filter or page that cannot be: names the first bad field."""


@dataclass(frozen=True)
class View:
    """A filter and a page of the public list.

    ``move_seconds`` is the clock (`NO_CLOCK` for none), ``free`` only rooms with
    a seat a person can take (free, or a bot's), ``rated`` only rated tables;
    ``cursor`` the key the page starts below (None: the first page).
    """

    preset: str | None = None
    move_seconds: int | None = None
    free: bool = False
    rated: bool = False
    cursor: int | None = None
    page_size: int = PAGE_SIZE

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> View:
        """The view of a socket's ``view`` message (JSON values), or `BadView`.

        >>> View.parse({"move_seconds": 0, "cursor": "123"}).cursor
        123
        """
        for name in data:
            if name not in VIEW_FIELDS:
                raise BadView(name)
        preset = data.get("preset")
        if preset is not None and preset not in PRESETS:
            raise BadView("preset")
        clock = data.get("move_seconds")
        if clock is not None and (
            type(clock) is not int or clock not in (NO_CLOCK, *MOVE_SECONDS_CHOICES)
        ):
            raise BadView("move_seconds")
        for flag in ("free", "rated"):
            if type(data.get(flag, False)) is not bool:
                raise BadView(flag)
        size = data.get("page_size", PAGE_SIZE)
        if type(size) is not int or not 1 <= size <= MAX_PAGE_SIZE:
            raise BadView("page_size")
        return cls(
            preset=preset,
            move_seconds=clock,
            free=data.get("free", False),
            rated=data.get("rated", False),
            cursor=parse_cursor(data.get("cursor")),
            page_size=size,
        )

    @classmethod
    def from_query(cls, query: Mapping[str, str]) -> View:
        """The view of `/api/rooms/`'s (or the lobby page's) query string: flags
        are ``1``/``0``, numbers digits, empty values absent.

        >>> View.from_query({"free": "1", "move_seconds": "30", "preset": ""})
        View(preset=None, move_seconds=30, free=True, rated=False, cursor=None, page_size=50)
        """
        data: dict[str, Any] = {}
        for name in VIEW_FIELDS:
            value = query.get(name)
            if value in (None, ""):
                continue
            if name in ("free", "rated"):
                if value not in ("0", "1"):
                    raise BadView(name)
                data[name] = value == "1"
            elif name in ("move_seconds", "page_size"):
                if not value.isdigit() or len(value) > 4:
                    raise BadView(name)
                data[name] = int(value)
            else:
                data[name] = value
        return cls.parse(data)

    def matches(self, row: Mapping[str, Any]) -> bool:
        """Whether a public row passes the filter (the page aside)."""
        if self.preset is not None and row["preset"] != self.preset:
            return False
        if self.move_seconds is not None and (row["move_seconds"] or NO_CLOCK) != self.move_seconds:
            return False
        if self.free and not row["humans"] < row["seats"]:
            return False
        return not (self.rated and not row["rated"])

    def as_json(self) -> dict[str, Any]:
        """The view as the socket's messages and the page's links say it."""
        return {
            "preset": self.preset,
            "move_seconds": self.move_seconds,
            "free": self.free,
            "rated": self.rated,
            "cursor": None if self.cursor is None else str(self.cursor),
            "page_size": self.page_size,
        }

    def share_key(self) -> tuple:
        """What two sockets with the same view share (their page's re-reads)."""
        return (self.preset, self.move_seconds, self.free, self.rated, self.cursor)


def parse_cursor(value: Any) -> int | None:
    """A cursor is the key of the previous page's last row, as digits."""
    if value is None:
        return None
    if not isinstance(value, str) or not value.isdigit() or len(value) > 18:
        raise BadView("cursor")
    return int(value)


@dataclass
class Diff:
    """What a viewer hears of a change: rows that came onto the page, rows of the
    page that changed, codes that left it; ``added_at`` the place of each added
    row on the page (keys never change, so the rows that stay keep their order:
    dropping ``removed`` and inserting ``added`` at these places, in turn,
    gives the page); ``more`` whether a next page exists."""

    added: list[dict[str, Any]] = field(default_factory=list)
    changed: list[dict[str, Any]] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    added_at: list[int] = field(default_factory=list)
    more: bool = False
    more_changed: bool = False

    def __bool__(self) -> bool:
        return bool(self.added or self.changed or self.removed or self.more_changed)


class Page:
    """One lobby socket's page: what it shows and the spare rows after it.

    ``entries`` are sorted by key, highest first, and hold every matching row
    whose key is below the cursor and at or above ``horizon`` (all of them when
    ``complete``: nothing matching lies further)."""

    def __init__(self, view: View, entries: Iterable[Entry], complete: bool) -> None:
        self.view = view
        self.shown: dict[str, dict[str, Any]] = {}
        self.more = False
        self.dirty = True  # the rows may differ from the ones shown
        self._load(entries, complete)

    def _load(self, entries: Iterable[Entry], complete: bool) -> None:
        self.entries: list[Entry] = sorted(entries, key=lambda e: -e[0])
        self.complete = complete
        self.horizon = self.entries[-1][0] if self.entries else 0
        self.versions: dict[str, int] = {e[2]["code"]: e[1] for e in self.entries}
        self.dirty = True
        self._trim()

    @property
    def want(self) -> int:
        """Rows read from the database for this page: the page and its spare."""
        return self.view.page_size + SPARE

    def rows(self) -> list[dict[str, Any]]:
        """The page's rows, in order (and remembered as shown)."""
        size = self.view.page_size
        page = [row for _key, _version, row in self.entries[:size]]
        self.shown = {row["code"]: row for row in page}
        self.more = self._more()
        self.dirty = False
        return page

    def next_cursor(self) -> str | None:
        """The cursor of the next page, or None on the last."""
        if not self._more():
            return None
        return str(self.entries[self.view.page_size - 1][0])

    def apply(self, entries: Iterable[Entry], gone: Iterable[tuple[str, int]]) -> bool:
        """Take in the changed rows (and the codes that left the public list);
        False when the page can no longer be told from memory (too few rows
        known past a removal): the caller reads it again (`refill`)."""
        cursor = self.view.cursor
        for code, version in gone:
            if self.versions.get(code, -1) < version:
                self._drop(code)
        for key, version, row in entries:
            code = row["code"]
            if cursor is not None and key >= cursor:
                continue  # an earlier page's
            if not self.complete and key < self.horizon:
                continue  # past what this page knows: it cannot reach the page
            if self.versions.get(code, -1) >= version:
                continue  # an older news of a row already known
            self._drop(code)
            if self.view.matches(row):
                at = bisect.bisect_left(self.entries, -key, key=lambda e: -e[0])
                self.entries.insert(at, (key, version, row))
                self.versions[code] = version
                self.dirty = True
        self._trim()
        return self.complete or len(self.entries) > self.view.page_size

    def refill(self, entries: Iterable[Entry], complete: bool) -> None:
        """The page as the database has it now (after `apply` said False)."""
        self._load(entries, complete)

    def diff(self) -> Diff:
        """What changed on the page since it was last shown (`rows`)."""
        if not self.dirty:  # nothing of this page came in the news
            return Diff(more=self.more)
        before, more = self.shown, self.more
        page = self.rows()
        diff = Diff(more=self.more, more_changed=more != self.more)
        for at, row in enumerate(page):
            old = before.get(row["code"])
            if old is None:
                diff.added.append(row)
                diff.added_at.append(at)
            elif old != row:
                diff.changed.append(row)
        diff.removed = [code for code in before if code not in self.shown]
        return diff

    def _drop(self, code: str) -> None:
        if self.versions.pop(code, None) is None:
            return  # not among the known rows
        for i, (_key, _version, row) in enumerate(self.entries):
            if row["code"] == code:
                del self.entries[i]
                self.dirty = True
                break

    def _trim(self) -> None:
        """Keep the page and its spare only: the rest is past the horizon."""
        if len(self.entries) > self.want:
            for _key, _version, row in self.entries[self.want :]:
                self.versions.pop(row["code"], None)
            del self.entries[self.want :]
            self.complete = False
        if self.entries and not self.complete:
            self.horizon = self.entries[-1][0]

    def _more(self) -> bool:
        return len(self.entries) > self.view.page_size or (
            not self.complete and len(self.entries) == self.view.page_size
        )


def rooms_message(page: Page, ref: Any = None) -> dict[str, Any]:
    """The socket's ``rooms``: the page whole, its view and its paging."""
    message: dict[str, Any] = {"type": "rooms", "rooms": page.rows(), "view": page.view.as_json()}
    message.update(more=page.more, next=page.next_cursor())
    if ref is not None:
        message["ref"] = ref
    return message


def changes_message(page: Page, diff: Diff) -> dict[str, Any]:
    """The socket's ``rooms_changed``: what `Page.diff` found, and the paging."""
    message: dict[str, Any] = {
        "type": "rooms_changed",
        "added": diff.added,
        "changed": diff.changed,
        "removed": diff.removed,
    }
    if diff.added:
        message["added_at"] = diff.added_at
    message.update(more=diff.more, next=page.next_cursor())
    return message
