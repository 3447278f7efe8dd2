"""Client -> server messages of the table socket (docs/protocol.md): parsing and limits.

No database and no Django settings: ``parse_message`` turns a decoded JSON value into a
``Command`` or raises ``BadMessage``; ``ConnectLimiter`` counts a person's table
sockets (the frames per second and a frame's size: `domino_site.realtime.frames`).
The consumer then authorises and calls a service.
"""

from __future__ import annotations

import re
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeGuard

from games.engine.fairness import valid_client_seed
from rooms.chat import CHAT_PHRASES

MAX_REF_CHARS = 64
LEVELS = ("easy", "medium", "hard")
BENDS = ("straight", "left", "right")
TILE_RE = re.compile(r"^[0-6]-[0-6]$")

# Engine moves: they carry `version` for the stale check.
MOVE_TYPES = frozenset({"play", "draw", "pass", "pick"})
# Types with no fields besides `type`, `ref`, `version`.
BARE_TYPES = frozenset(
    {"draw", "pass", "leave", "ready", "next_round", "pause", "resume", "ping", "refresh",
     "stand_in"}
)  # fmt: skip
ENVELOPE = frozenset({"type", "ref", "version"})


class BadMessage(Exception):
    """A frame that is not a valid client message; ``ref`` is echoed when known."""

    def __init__(self, message: str, ref: Any = None) -> None:
        super().__init__(message)
        self.message = message
        self.ref = ref


@dataclass(frozen=True)
class Command:
    type: str
    ref: str | int | None = None
    version: int | None = None
    fields: dict[str, Any] = field(default_factory=dict)


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _ref(msg: dict[str, Any]) -> str | int | None:
    ref = msg.get("ref")
    if ref is None or _is_int(ref) or (isinstance(ref, str) and len(ref) <= MAX_REF_CHARS):
        return ref
    raise BadMessage("ref must be a short string or an integer")


def _seat(msg: dict[str, Any], key: str = "seat") -> int:
    value = msg.get(key)
    if not _is_int(value) or not 0 <= value < 16:
        raise BadMessage(f"{key} must be a seat index")
    return value


def _level(msg: dict[str, Any]) -> str:
    if msg.get("level") not in LEVELS:
        raise BadMessage("level must be one of " + ", ".join(LEVELS))
    return msg["level"]


def _play(msg: dict[str, Any]) -> dict[str, Any]:
    tile, end = msg.get("tile"), msg.get("end")
    if not isinstance(tile, str) or not TILE_RE.match(tile):
        raise BadMessage('tile must look like "3-5"')
    if end not in (None, "A", "B", "C", "D"):  # C and D: a spinner's sides (the engine checks)
        raise BadMessage('end must be "A", "B", "C" or "D"')
    return {"tile": tile, "end": end}


def _pick(msg: dict[str, Any]) -> dict[str, Any]:
    index = msg.get("index")
    if not _is_int(index) or not 0 <= index < 28:
        raise BadMessage("index must be a boneyard position")
    return {"index": index}


def _settings(msg: dict[str, Any]) -> dict[str, Any]:
    fields: dict[str, Any] = {}
    if "move_seconds" in msg:
        seconds = msg["move_seconds"]
        if seconds is not None and (not _is_int(seconds) or not 0 < seconds <= 3600):
            raise BadMessage("move_seconds must be a number of seconds or null")
        fields["move_seconds"] = seconds
    options = msg.get("options")
    if options is None:  # knobs may also come at the top level
        options = {k: v for k, v in msg.items() if k not in ENVELOPE | {"move_seconds"}}
    if not isinstance(options, dict) or len(options) > 32:
        raise BadMessage("options must be an object of option knobs")
    for key, value in options.items():
        if not isinstance(key, str) or not (
            value is None or isinstance(value, str | int | float | bool)
        ):
            raise BadMessage("option knobs take plain values")
    if options:
        fields["options"] = options
    return fields


def _adjust(msg: dict[str, Any]) -> dict[str, Any]:
    at, bend = msg.get("at"), msg.get("bend")
    if not _is_int(at) or not 0 <= at < 28:
        raise BadMessage("at must be a chain index")
    if bend not in BENDS:
        raise BadMessage("bend must be one of " + ", ".join(BENDS))
    return {"at": at, "bend": bend}


def _start(msg: dict[str, Any]) -> dict[str, Any]:
    """``start`` / ``new_match``; ``alone: true`` restarts against the computer
    while the other seat of a two-seat table is free."""
    alone = msg.get("alone", False)
    if not isinstance(alone, bool):
        raise BadMessage("alone must be true or false")
    return {"alone": True} if alone else {}


def _annul(msg: dict[str, Any]) -> dict[str, Any]:
    """``annul``: vote to annul the match; ``on: false`` withdraws the vote."""
    on = msg.get("on", True)
    if not isinstance(on, bool):
        raise BadMessage("on must be true or false")
    return {} if on else {"on": False}


def _chat(msg: dict[str, Any]) -> dict[str, Any]:
    phrase = msg.get("phrase")
    if not isinstance(phrase, str) or phrase not in CHAT_PHRASES:
        raise BadMessage("phrase must be one of the quick-chat phrases")
    return {"phrase": phrase}


def _auto(msg: dict[str, Any]) -> dict[str, Any]:
    on = msg.get("on")
    if not isinstance(on, bool):
        raise BadMessage("on must be true or false")
    return {"on": on}


def _seed(msg: dict[str, Any]) -> dict[str, Any]:
    """``seed``: a client seed for the next verifiable deal (docs/rules.md)."""
    value = msg.get("value")
    if not valid_client_seed(value):
        raise BadMessage("value must be 1 to 64 printable ASCII characters, without ':'")
    return {"value": value}


_FIELDS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "play": _play,
    "pick": _pick,
    "sit": lambda m: {"seat": _seat(m)},
    "add_bot": lambda m: {"seat": _seat(m), "level": _level(m)},
    "remove_bot": lambda m: {"seat": _seat(m)},
    "stand_up": lambda m: {"seat": _seat(m)},
    "bot_level": lambda m: {"seat": _seat(m), "level": _level(m)},
    "settings": _settings,
    "adjust": _adjust,
    "start": _start,
    "new_match": _start,
    "chat": _chat,
    "auto": _auto,
    "seed": _seed,
    "annul": _annul,
    **{kind: lambda m: {} for kind in BARE_TYPES},
}

#: Every client message type this server understands.
TYPES = frozenset(_FIELDS)


def parse_message(msg: Any) -> Command:
    """Validate one decoded client frame; raise ``BadMessage`` (with the ref, when
    it could be read) for unknown types and missing or malformed fields."""
    if not isinstance(msg, dict):
        raise BadMessage("a message is a JSON object")
    ref = _ref(msg)
    try:
        kind = msg.get("type")
        if not isinstance(kind, str) or kind not in _FIELDS:
            raise BadMessage("unknown message type")
        version = msg.get("version")
        if version is not None and (not _is_int(version) or version < 0):
            raise BadMessage("version must be a non-negative integer")
        return Command(type=kind, ref=ref, version=version, fields=_FIELDS[kind](msg))
    except BadMessage as exc:
        exc.ref = ref
        raise


class ConnectLimiter:
    """Table sockets opened per person (account, guest or address) in a sliding
    window, for one server process: a page that reconnects in a loop, or a
    script, is refused beyond ``limit`` a ``window`` (a reconnect storm after a
    restart is one or two connects per person, far below it)."""

    def __init__(self, limit: int = 30, window: float = 60.0, clock=time.monotonic) -> None:
        self.limit = limit
        self.window = window
        self.clock = clock
        self._stamps: dict[str, deque[float]] = {}

    def allow(self, key: str) -> bool:
        """Record a connect of ``key``; False when over the limit."""
        now = self.clock()
        if len(self._stamps) > 10_000:  # forget idle keys now and then
            self._stamps = {
                k: s for k, s in self._stamps.items() if s and s[-1] > now - self.window
            }
        stamps = self._stamps.setdefault(key, deque())
        while stamps and stamps[0] <= now - self.window:
            stamps.popleft()
        if len(stamps) >= self.limit:
            return False
        stamps.append(now)
        return True

    def clear(self) -> None:
        self._stamps.clear()
