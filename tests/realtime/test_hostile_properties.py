"""Hostile input as properties: Hypothesis writes client messages and
sends them through the real consumer (``domino_site.asgi.application``).

Every client type (``rooms.messages.TYPES``) and unknown ones, with good, wrong,
missing and extra fields, huge and negative numbers, other rooms' codes, other
seats, bad tiles and stale or foreign versions, plus raw frames (not JSON, not
an object, binary, over 4 KiB, nested too deep, a lone surrogate); from seated
players, the host, a watcher and a guest (cookie) at two tables: a public duelo
(ana, host, and bruno seated; carla watching) and a private one (dora, host, and
a guest through the invite link). For each message:

* it is answered: ``pong`` (ping), a ``chat`` (a seated player's phrase), an
  ``error`` with one of docs/protocol.md's codes (echoing the ref), or a new ``room``
  snapshot (the change it made);
* the room's version and its move count are unchanged unless it was answered
  with a snapshot, and then the change is a legal one (a person's move only by
  the seat that was to act, on the version it named; a socket with no seat
  changes nothing but by sitting down);
* nothing is logged at ERROR (no traceback) and the socket stays open.

Floods have their own property: at most 20 frames a second are served, the
next 20 get ``rate_limited``, and the 41st closes the socket with 4008 (and
nothing else ever closes it). Refused connections (a forged guest cookie,
another room's code, an anonymous socket, a copied cookie) are plain tests.

Each property builds its two tables once (the rooms then live through all the
examples: legal messages move them on, and that is part of what is tested);
``HOSTILE_EXAMPLES`` (default 100) sets the examples per property. Counts of what
was tried and answered are printed (``-s``).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import random
import secrets
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import channels.layers
import pytest
from asgiref.sync import sync_to_async
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domino_site.asgi import application
from games.models import Move, Round
from rooms import messages as protocol
from rooms import services
from rooms.chat import CHAT_PHRASES
from rooms.consumers import connects
from rooms.errors import CODES
from rooms.models import Room, Seat
from tests.realtime.conftest import ORIGIN, Player, guest_cookie, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

EXAMPLES = int(os.environ.get("HOSTILE_EXAMPLES") or 100)
PROPERTY = settings(
    max_examples=EXAMPLES,
    deadline=None,
    # One pair of tables per property, on purpose: the rooms live through every
    # example (see the module docstring); nothing else is function-scoped.
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    derandomize=False,
    print_blob=True,
)
ANSWER_TIMEOUT = 5.0

TILES = [f"{a}-{b}" for a in range(7) for b in range(a, 7)]
BAD_TILES = ["7-7", "6-7", "-1-2", "3-5 ", "35", "3:5", "", "9-9", "0-0-0", "A-B", "3−5"]
HUGE = [2**31, 2**53 + 1, 2**63, 2**64 + 7, 10**30, -(10**30), -1, -(2**63), 16, 28, 99]
UNKNOWN_TYPES = ["dance", "PLAY", "Play", "", " play", "play\u0000", "__proto__", "constructor"]
EXTRA_KEYS = ["code", "room", "user", "user_id", "seat_index", "guest", "by", "hand", "__proto__"]
FIELDS_OF = {
    "play": ("tile", "end"),
    "pick": ("index",),
    "sit": ("seat",),
    "add_bot": ("seat", "level"),
    "remove_bot": ("seat",),
    "bot_level": ("seat", "level"),
    "settings": ("move_seconds", "options", "target"),
    "adjust": ("at", "bend"),
    "chat": ("phrase",),
    "seed": ("value",),
    "start": ("alone",),
    "new_match": ("alone",),
}
PHRASES = sorted(CHAT_PHRASES)
RAW_FRAMES = [
    " ",
    "not json",
    "[]",
    "[1, 2]",
    "null",
    "17",
    '"play"',
    "1e999",
    "NaN",
    '{"type": "ping"',
    "{" * 50,
    "[" * 3000,  # under 4 KiB, nested too deep for the parser
    '{"type": "ping", "ref": "' + "x" * 5000 + '"}',  # over 4 KiB
    '{"type": "play", "tile": "\\ud800", "ref": "\\udfff"}',  # lone surrogates, escaped
    '{"type": "ping", "type": "play"}',
    '{"type": "play", "tile": "1-2", "tile": 5}',
]

# ---------------------------------------------------------------- strategies

junk = st.one_of(
    st.none(),
    st.booleans(),
    st.sampled_from(HUGE),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.sampled_from(["\ud800", "A", "B", "C", "easy", "genius", "left", "0", "-1"]),
    st.sampled_from(TILES + BAD_TILES),
    st.lists(st.integers(-3, 30), max_size=3),
    st.dictionaries(st.text(max_size=4), st.integers(), max_size=2),
    st.just("OTHER_ROOM_CODE"),  # replaced by the other table's code when sent
)

GOOD = {
    "tile": st.sampled_from(TILES),
    "end": st.sampled_from(["A", "B"]),
    "index": st.integers(0, 27),
    "seat": st.integers(0, 3),
    "level": st.sampled_from(["easy", "medium", "hard"]),
    "at": st.integers(0, 27),
    "bend": st.sampled_from(["straight", "left", "right"]),
    "move_seconds": st.sampled_from([None, 10, 15, 20, 30, 45, 60]),
    "options": st.dictionaries(
        st.sampled_from(["target", "hand_size", "seats", "scoring", "draw", "nonsense"]),
        st.one_of(st.integers(-5, 400), st.sampled_from(["goat", "opponents", "x"])),
        max_size=2,
    ),
    "target": st.sampled_from([50, 100, 200, 0, -5, 10**9]),
    "phrase": st.sampled_from(PHRASES),
    "alone": st.booleans(),
    "value": st.text(st.characters(min_codepoint=32, max_codepoint=126), min_size=1, max_size=64),
}


@dataclass
class Hostile:
    """One message to send: a JSON body (or a raw frame), plus how to fill in
    what depends on the room at sending time (the version, the legal action)."""

    label: str  # the hostile class (CLASSES)
    body: dict[str, Any] | None = None
    raw: str | bytes | None = None
    version: str = "none"  # none, current, stale, future, old, huge, junk: see `_resolve`
    junk_version: Any = None
    legal: bool = False  # the body is the sender's first legal action


CLASSES = (
    "well-formed (any type, any sender)",
    "legal action",
    "unknown or missing type",
    "wrong field",
    "missing field",
    "extra field",
    "huge or negative number",
    "other room's code",
    "other seat",
    "bad tile",
    "stale version",
    "raw frame",
    "binary frame",
)
NUMERIC = ("seat", "index", "at", "move_seconds", "target")


@st.composite
def hostile_messages(draw) -> Hostile:
    """One hostile class per message; everything else about it is well formed,
    so that each class reaches as deep into the server as it can."""
    # Well-formed messages and legal actions reach the services and move the
    # tables on (into other phases: results, new matches, pauses, leaving).
    label = draw(st.sampled_from(CLASSES + CLASSES[:2] * 2))
    if label == "raw frame":
        return Hostile(label, raw=draw(st.sampled_from(RAW_FRAMES)))
    if label == "binary frame":
        return Hostile(label, raw=draw(st.binary(min_size=1, max_size=64)))
    ref = draw(st.one_of(st.none(), st.text(max_size=10), st.integers(-(2**40), 2**40)))
    if label == "wrong field" and draw(st.integers(0, 4)) == 0:  # the ref itself
        ref = draw(st.sampled_from(["x" * 65, "\ud800", 1.5, True, ["r"], {"r": 1}, 2**70]))
    version = draw(st.sampled_from(["none", "current"]))
    junk_version = draw(junk)
    if label in ("legal action", "stale version"):
        if label == "stale version":
            version = draw(st.sampled_from(["stale", "future", "old", "junk"]))
        body = {} if ref is None else {"ref": ref}
        return Hostile(label, body=body, version=version, junk_version=junk_version, legal=True)
    kind = draw(st.sampled_from(sorted(protocol.TYPES)))
    if label == "bad tile":
        kind = "play"
    if label == "other seat":
        kind = draw(st.sampled_from(["sit", "add_bot", "remove_bot", "bot_level"]))
    if label == "huge or negative number":
        kind = draw(st.sampled_from(["sit", "add_bot", "remove_bot", "pick", "adjust", "settings"]))
    body: dict[str, Any] = {"type": kind}
    for name in FIELDS_OF.get(kind, ()):
        body[name] = draw(GOOD[name])
    names = list(FIELDS_OF.get(kind, ()))
    if label == "unknown or missing type":
        choice = draw(st.sampled_from(["unknown", "junk", "missing"]))
        if choice == "missing":
            del body["type"]
        else:
            body["type"] = draw(st.sampled_from(UNKNOWN_TYPES) if choice == "unknown" else junk)
    elif label == "wrong field" and names:
        body[draw(st.sampled_from(names))] = draw(junk)
    elif label == "missing field" and names:
        del body[draw(st.sampled_from(names))]
    elif label == "extra field":
        extras = draw(
            st.dictionaries(
                st.sampled_from(EXTRA_KEYS + sorted(GOOD)),
                st.one_of(junk, *GOOD.values()),
                min_size=1,
                max_size=3,
            )
        )
        for key, value in extras.items():
            body.setdefault(key, value)
    elif label == "huge or negative number":
        present = [n for n in names if n in NUMERIC] or ["version"]
        name = draw(st.sampled_from(present))
        value = draw(st.one_of(st.sampled_from(HUGE), st.integers(max_value=-1)))
        if name == "version":
            version, junk_version = "junk", value
        else:
            body[name] = value
    elif label == "other room's code":
        for key in draw(st.lists(st.sampled_from(["code", "room"]), min_size=1, unique=True)):
            body[key] = "OTHER_ROOM_CODE"
    elif label == "bad tile":
        body["tile"] = draw(st.sampled_from(BAD_TILES + TILES + ["OTHER_ROOM_CODE"]))
        body["end"] = draw(st.sampled_from(["A", "B", None, None, "C", "a", 0]))
        version = draw(st.sampled_from(["none", "current"]))
    if ref is not None:
        body["ref"] = ref
    return Hostile(label, body=body, version=version, junk_version=junk_version)


# ---------------------------------------------------------------- the tables


SERVER_DUE = ("bot", "pass")  # due kinds the server acts on without a person
RENEW_EVERY = 40  # examples on the same two tables before fresh ones are dealt
NAMES = ("ana", "bruno", "carla", "dora")


@dataclass
class Tables:
    """The two tables and one socket per sender; renewed every RENEW_EVERY
    examples (alternating set-ups), so that both early and late phases are hit."""

    user_model: Any
    public: Room | None = None
    private: Room | None = None
    senders: dict[str, Player] = field(default_factory=dict)
    rooms_of: dict[str, Room] = field(default_factory=dict)
    cookies: dict[str, str] = field(default_factory=dict)
    examples: int = 0
    deals: int = 0
    tried: Counter = field(default_factory=Counter)
    answers: Counter = field(default_factory=Counter)

    def other_code(self, name: str) -> str:
        room = self.rooms_of[name]
        return (self.private if room.pk == self.public.pk else self.public).code

    async def renew_if_due(self) -> None:
        if self.public is not None and self.examples % RENEW_EVERY:
            return
        for player in self.senders.values():
            await _close_quietly(player)
        connects.clear()
        self.public, self.private, self.cookies = await sync_to_async(_build)(
            self.user_model, self.deals
        )
        self.deals += 1
        self.rooms_of = {
            "ana": self.public,
            "bruno": self.public,
            "carla": self.public,
            "dora": self.private,
            "guest": self.private,
        }
        for name, room in self.rooms_of.items():
            self.senders[name] = await Player.table(room.code, self.cookies[name])


def _build(user_model, deal: int) -> tuple[Room, Room, dict[str, str]]:
    """Public: ana (host) and bruno seated, carla watching; a duelo, or every
    other time a parceria with two easy bots. Private: dora (host) and a guest
    who came by the invite link; a duelo, or every other time a com_monte with
    no clock either (a clock would change the room by itself between examples).
    Both started."""
    users = {}
    for name in NAMES:
        users[name] = user_model.objects.filter(
            username=name
        ).first() or user_model.objects.create_user(name, password="x")
    pairs = deal % 2 == 1
    public = services.room_create(
        user=users["ana"], name="Pública", preset="parceria" if pairs else "duelo"
    )
    host = Seat.objects.get(room=public, index=0)
    services.seat_take(room=public, index=2 if pairs else 1, user=users["bruno"])
    if pairs:
        for index in (1, 3):
            services.bot_add(room=public, actor=host, index=index, level="easy")
    services.match_start(room=public, actor=host)
    private = services.room_create(
        user=users["dora"],
        name="Privada",
        preset="com_monte" if pairs else "duelo",
        visibility="private",
    )
    token = secrets.token_urlsafe(16)
    services.seat_take_by_invite(token=private.invite_token, guest_token=token, name="Convidado")
    services.match_start(room=private, actor=Seat.objects.get(room=private, index=0))
    cookies = {name: session_cookie(user) for name, user in users.items()}
    cookies["guest"] = guest_cookie(token)
    return public, private, cookies


def _room_facts(room_pk: int) -> tuple[int, int, int, str, Any]:
    """(version, person moves, all moves, status, due_at) of the room; due_at
    only for what the server does by itself (a bot's move, an automatic pass)."""
    room = Room.objects.get(pk=room_pk)
    moves = Move.objects.filter(round__room_id=room_pk)
    rnd = Round.objects.filter(room_id=room_pk).order_by("-id").first()
    due = None
    if rnd is not None and not room.paused and not room.is_closed and rnd.due_kind in SERVER_DUE:
        due = rnd.due_at
    return room.version, moves.filter(by="person").count(), moves.count(), room.status, due


def _person_moves_since(room_pk: int, count: int) -> list[tuple[int, dict]]:
    moves = Move.objects.filter(round__room_id=room_pk, by="person").order_by("id")
    return list(moves.values_list("seat", "action"))[count:]


def _seat_rows(room_pk: int) -> list[tuple]:
    return list(
        Seat.objects.filter(room_id=room_pk).values_list(
            "index", "kind", "connected", "channel_name"
        )
    )


def _replays_match() -> list[int]:
    return [rnd.pk for rnd in Round.objects.all() if not rnd.replay_matches_snapshot()]


facts = sync_to_async(_room_facts)


async def _settle(tables: Tables) -> None:
    """Let what a legal message set going (bots, a bot standing in, an automatic
    pass) run out, in real time, until both rooms wait for a person (no clock
    runs at these tables, so nothing else happens by itself); then every socket
    has read up to its room's version."""
    loop = asyncio.get_running_loop()
    end = loop.time() + 20
    for room in (tables.public, tables.private):
        while True:
            version, *_, due = await facts(room.pk)
            if due is None:
                break
            assert loop.time() < end, f"room {room.code} never settles (due {due})"
            await asyncio.sleep(0.05)
    for name, player in tables.senders.items():
        version, *_ = await facts(tables.rooms_of[name].pk)
        try:
            await _read_until(
                player, lambda m, v=version: m["type"] == "room" and m["version"] >= v, True
            )
        except TimeoutError:
            seen = player.state["version"] if player.state else None
            rows = await sync_to_async(_seat_rows)(tables.rooms_of[name].pk)
            frames = [(f["type"], f.get("version"), f.get("code")) for f in player.frames[-8:]]
            raise AssertionError(
                f"{name}'s socket is at version {seen}, the room at {version}; seats {rows};"
                f" last frames {frames}"
            ) from None


class Closed(Exception):
    def __init__(self, code: Any) -> None:
        super().__init__(f"the socket was closed with {code}")
        self.code = code


async def _frame(player: Player, timeout: float) -> dict[str, Any]:
    """The next frame the server sent. Unlike ``receive_output``, a timeout leaves
    the application running (so one unanswered message fails one example)."""
    comm = player.comm
    if comm.output_queue.empty() and comm.future.done():
        comm.future.result()  # the consumer's exception, if it died of one
        raise Closed("none: the application ended")
    out = await asyncio.wait_for(comm.output_queue.get(), timeout)
    if out["type"] == "websocket.close":
        raise Closed(out.get("code"))
    msg = json.loads(out["text"])
    player.frames.append(msg)
    if msg["type"] == "room":
        player.state = msg
    return msg


async def _read_until(
    player: Player, done, state_first: bool = False, timeout: float = ANSWER_TIMEOUT
) -> dict[str, Any]:
    """Frames up to the first one ``done`` accepts (with ``state_first``, the last
    snapshot already read counts too)."""
    if state_first and player.state is not None and done(player.state):
        await _drain(player)
        return player.state
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        msg = await _frame(player, max(0.01, end - loop.time()))
        if done(msg):
            return msg


async def _drain(player: Player) -> None:
    while not player.comm.output_queue.empty():
        await _frame(player, 1)


def _answer_to(seat: int | None):
    """What answers a message: an error, a pong, a new snapshot, or the sender's
    own chat phrase (other seats' phrases may arrive meanwhile)."""

    def done(msg: dict[str, Any]) -> bool:
        if msg["type"] == "chat":
            return seat is not None and msg["seat"] == seat
        return msg["type"] in ("error", "pong", "room")

    return done


def _resolve(h: Hostile, player: Player, tables: Tables, name: str, version: int):
    """The frame to send (text or bytes), with the room-dependent parts filled in."""
    if h.raw is not None:
        return h.raw
    body = dict(h.body or {})
    state = player.state or {}
    if h.legal:
        legal = ((state.get("round") or {}).get("legal")) or []
        action = {k: v for k, v in legal[0].items() if v is not None} if legal else {}
        body = {**(action or {"type": "draw"}), **body}
    other = tables.other_code(name)
    for key, value in list(body.items()):
        if value == "OTHER_ROOM_CODE":
            body[key] = other
    versions = {"current": version, "stale": version - 1, "future": version + 1, "old": 1}
    if h.version in versions:
        body["version"] = versions[h.version]
    elif h.version == "junk":
        body["version"] = h.junk_version
    return json.dumps(body)


def _strict_json(frame: str | bytes) -> Any:
    """``frame`` read as RFC 8259 JSON, the way docs/protocol.md reads a frame:
    Python's ``NaN`` and ``Infinity`` are not JSON, so a frame holding one has
    no readable ``ref``."""

    def not_json(name: str) -> Any:
        raise ValueError(f"{name} is not JSON")

    return json.loads(frame, parse_constant=not_json)


def _expected_ref(h: Hostile, frame: str | bytes) -> Any:
    """The ref an error must echo: the client's, when it could be read."""
    try:
        body = _strict_json(frame)
    except (TypeError, ValueError, RecursionError):
        return None
    if (
        not isinstance(body, dict)
        or len(frame.encode() if isinstance(frame, str) else frame) > 4096
    ):
        return None
    ref = body.get("ref")
    ok = ref is None or (isinstance(ref, int) and not isinstance(ref, bool))
    return ref if ok or (isinstance(ref, str) and len(ref) <= protocol.MAX_REF_CHARS) else None


def _body(frame: str | bytes) -> dict[str, Any]:
    try:
        body = _strict_json(frame)
    except (TypeError, ValueError, RecursionError):
        return {}
    return body if isinstance(body, dict) else {}


def _error_records(caplog) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.levelno >= logging.ERROR]


async def _one_message(tables: Tables, name: str, h: Hostile, caplog) -> None:
    await tables.renew_if_due()
    tables.examples += 1
    player = tables.senders[name]
    room = tables.rooms_of[name]
    await _settle(tables)
    version, persons, moves, status, _due = await facts(room.pk)
    seat = (player.state or {}).get("you", {}).get("seat")
    round_ = (player.state or {}).get("round") or {}
    acting = bool(round_.get("legal")) and not round_.get("result")
    frame = _resolve(h, player, tables, name, version)
    tables.tried[h.label] += 1
    await _drain(player)
    if isinstance(frame, bytes):
        await player.comm.send_to(bytes_data=frame)
    else:
        await player.comm.send_to(text_data=frame)
    what = f"{name} (seat {seat}) sent {frame!r:.300}"
    try:
        answer = await _read_until(player, _answer_to(seat))
    except Closed as closed:
        raise AssertionError(f"{what}: the socket closed ({closed.code})") from None
    except TimeoutError:
        raise AssertionError(f"{what}: no answer in {ANSWER_TIMEOUT} s") from None
    after_version, after_persons, after_moves, *_ = await facts(room.pk)
    kind = answer["type"]
    tables.answers[(h.label, kind if kind != "error" else f"error {answer['code']}")] += 1
    assert not _error_records(caplog), f"{what}: logged {_error_records(caplog)[0].getMessage()}"
    if kind == "error":
        assert answer["code"] in CODES, f"{what}: unknown error code {answer}"
        assert answer["ref"] == _expected_ref(h, frame), f"{what}: ref not echoed: {answer}"
        assert (after_version, after_persons, after_moves) == (version, persons, moves), (
            f"{what}: refused with {answer['code']} but the room changed"
        )
        return
    if kind in ("pong", "chat"):
        assert (after_version, after_moves) == (version, moves), f"{what}: {kind} changed the room"
        return
    # A new snapshot: what the message changed (or a refresh, which changes nothing).
    body = _body(frame)
    if body.get("type") == "refresh":
        assert (after_version, after_moves) == (version, moves), f"{what}: refresh changed the room"
        return
    assert answer["version"] > version or body.get("type") == "refresh", f"{what}: {answer}"
    new = await sync_to_async(_person_moves_since)(room.pk, persons)
    if body.get("type") in protocol.MOVE_TYPES:
        assert seat is not None and acting, f"{what}: a move from a seat not to act: {new}"
        assert body.get("version") in (None, version), f"{what}: a move on another version"
        assert [s for s, _a in new[:1]] == [seat], f"{what}: moves {new}"
    else:
        assert not new, f"{what}: a person's move from a {body.get('type')}: {new}"
    if seat is None:
        assert body.get("type") == "sit", f"{what}: a socket with no seat changed the room"


@pytest.fixture
async def tables(live, django_user_model, monkeypatch):
    # Hypothesis seeds the global `random` the same way for every example, and
    # the in-memory layer names channels with it: sockets opened in two examples
    # would share a channel name (the Redis layer uses uuid4). Not a server bug.
    monkeypatch.setattr(channels.layers, "random", random.Random())
    built = Tables(django_user_model)
    yield built
    print(f"\nhostile messages tried ({sum(built.tried.values())}, {built.deals} deals):")
    for label, count in sorted(built.tried.items()):
        print(f"  {label}: {count}")
    print("answers:")
    for (label, kind), count in sorted(built.answers.items()):
        print(f"  {label} -> {kind}: {count}")
    assert await sync_to_async(_replays_match)() == []


SENDERS = st.sampled_from(["ana", "bruno", "carla", "dora", "guest"])


@PROPERTY
@given(sender=SENDERS, message=hostile_messages())
async def test_every_hostile_message_is_answered_and_changes_nothing_unless_legal(
    tables, caplog, sender, message
):
    caplog.set_level(logging.ERROR)
    for player in tables.senders.values():
        player.pace = 0  # _one_message sends one frame, answered, at a time
    await _one_message(tables, sender, message, caplog)
    await asyncio.sleep(0.06)  # stay under 20 frames a second per socket


# ---------------------------------------------------------------- floods

# Frames that need no database (so a burst of them fits in a second).
FLOOD_KINDS = st.lists(
    st.sampled_from(['{"type": "ping"}', "not json", '{"type": "dance"}', "[]", "x" * 5000]),
    min_size=1,
    max_size=5,
)


@settings(
    max_examples=max(10, EXAMPLES // 3),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(sender=SENDERS, n=st.integers(1, 80), kinds=FLOOD_KINDS)
async def test_a_flood_is_served_then_refused_then_closed_and_only_a_flood_closes(
    tables, caplog, sender, n, kinds
):
    """A burst of n frames (none needing the database): the first 20 are served,
    the next 20 get ``rate_limited``, the 41st closes the socket with 4008."""
    caplog.set_level(logging.ERROR)
    await tables.renew_if_due()
    tables.examples += 1
    connects.clear()
    room = tables.rooms_of[sender]
    cookie = tables.cookies[sender]
    await _settle(tables)
    before = await facts(room.pk)
    flooder = await Player.table(room.code, cookie)
    try:
        served, limited, closed = await _flood(flooder, [kinds[i % len(kinds)] for i in range(n)])
        tables.tried[f"flood of {'<=20' if n <= 20 else '21-40' if n <= 40 else '>40'}"] += 1
        assert served == min(n, 20), (n, served, limited, closed)
        assert limited == min(max(n - 20, 0), 20), (n, served, limited, closed)
        assert closed == (4008 if n > 40 else None), (n, closed)
        if closed is None:
            await asyncio.sleep(0.05)
            await _drain(flooder)  # raises Closed if the server closed it meanwhile
    finally:
        await _close_quietly(flooder)  # (after a 4008, Daphne tells the consumer too)
        # The person's table socket was replaced by the flooder (same seat) or
        # not (a watcher): either way it is opened again for the next example.
        tables.senders[sender] = await _reopen(tables, sender, cookie)
    after = await facts(room.pk)
    assert after[1:3] == before[1:3], "a flood moved nobody"
    assert not _error_records(caplog), _error_records(caplog)[0].getMessage()


async def _flood(flooder: Player, frames: list[str]) -> tuple[int, int, Any]:
    """Send every frame at once; count the answers: served, rate_limited, close code."""
    for frame in frames:
        await flooder.comm.send_to(text_data=frame)
    served = limited = 0
    for _ in frames:
        try:
            msg = await _read_until(flooder, lambda m: m["type"] in ("pong", "error"))
        except Closed as exc:
            return served, limited, exc.code
        if msg["type"] == "error" and msg["code"] == "rate_limited":
            limited += 1
        else:
            served += 1
    return served, limited, None


async def _reopen(tables: Tables, name: str, cookie: str) -> Player:
    await _close_quietly(tables.senders[name])
    return await Player.table(tables.rooms_of[name].code, cookie)


async def _close_quietly(player: Player) -> None:
    """Close a test socket the server may already have closed (replaced, flood)."""
    try:
        await asyncio.wait_for(player.close(), 2)
    except Exception:  # noqa: BLE001 - closed by the server already
        pass
    if player in Player.open:
        Player.open.remove(player)


# ---------------------------------------------------------------- refused connections


async def _close_code(path: str, cookie: str | bytes | None = None) -> Any:
    """Open a socket; the close code the server answers with (None: it stays open)."""
    from channels.testing import WebsocketCommunicator

    headers = [(b"origin", ORIGIN), (b"host", b"localhost")]
    if cookie is not None:
        headers.append((b"cookie", cookie if isinstance(cookie, bytes) else cookie.encode()))
    comm = WebsocketCommunicator(application, path, headers=headers)
    connected, code = await comm.connect(timeout=5)
    if not connected:
        return ("rejected", code)
    out = await comm.receive_output(timeout=5)
    if out["type"] == "websocket.close":
        return out.get("code")
    await comm.disconnect()
    return None


async def test_forged_copied_and_foreign_credentials(tables, caplog):
    """A guest cookie forged (bad signature, another salt, garbage), a socket on
    another room's code or on no room at all: refused with the protocol's close
    codes and no traceback. A copied guest cookie is the same browser as far as
    the server can know: it takes the seat over (the first tab gets ``replaced``)."""
    caplog.set_level(logging.ERROR)
    await tables.renew_if_due()
    public, private = tables.public.code, tables.private.code
    good = tables.cookies["guest"]
    name, value = good.split("=", 1)
    forged = [
        f"{name}={value[:-3]}abc",  # signature changed
        f"{name}={value.split(':')[0]}",  # no signature
        f"{name}=" + "A" * 40 + ":1xY0Br:" + "B" * 43,
        f"{name}={secrets.token_urlsafe(16)}",
        b"domino_guest=\xff\xfe; sessionid=\xff",
        "sessionid=" + "x" * 40,
        "sessionid=../../etc/passwd; domino_guest=" + "%00" * 5,
    ]
    refused = Counter()
    for cookie in forged:
        # A stranger on a private room: the answer of an unknown code (4004).
        assert await _close_code(f"/ws/rooms/{private}/", cookie) == 4004, cookie
        assert await _close_code(f"/ws/rooms/{public}/", cookie) == 4003, cookie
        refused["forged cookie -> 4004 / 4003"] += 2
    # Seated elsewhere: ana (public table) on the private table, the guest on the public one.
    assert await _close_code(f"/ws/rooms/{private}/", tables.cookies["ana"]) == 4004
    assert await _close_code(f"/ws/rooms/{public}/", good) == 4003
    assert await _close_code(f"/ws/rooms/{private.lower()}/", tables.cookies["carla"]) == 4004
    refused["other room's seat -> 4004 / 4003"] += 3
    for path in ("/ws/rooms/ZZZZ2222/", "/ws/rooms/abc/", "/ws/rooms/A/B/", "/ws/rooms/%00/",
                 "/ws/rooms/" + "A" * 200 + "/", "/ws/", "/ws/nothing/", "/"):  # fmt: skip
        assert await _close_code(path, tables.cookies["ana"]) == 4004, path
        refused["no such room or path -> 4004"] += 1
    # The copied cookie: the same seat, the first tab replaced.
    original = tables.senders["guest"]
    copy = await Player.table(private, good)
    assert copy.state["you"]["seat"] == 1
    replaced = await _read_until(original, lambda m: m["type"] == "replaced")
    assert replaced == {"type": "replaced"}
    with pytest.raises(Closed) as closed:
        await _frame(original, 5)
    assert closed.value.code == 4001
    tables.senders["guest"] = copy
    refused["copied cookie -> takes the seat, 4001 to the first"] += 1
    assert not _error_records(caplog), _error_records(caplog)[0].getMessage()
    tables.tried.update(refused)
