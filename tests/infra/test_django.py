"""domino_site.infra.django: the hot path's queries, compiled once, give what the ORM
gives (same rows, same Python values, related rows attached) and write what
``save()`` writes; read together or written together, they go to PostgreSQL in
one message and still run in order."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from domino_site.infra.django import (
    NextKeys,
    PreparedSelect,
    atomic_together,
    insert,
    save_fields,
    select_together,
    writes_together,
)
from games.models import Move, Round
from rooms import services
from rooms.models import Room, Seat
from tests.site.helpers import current, fresh, two_humans

pytestmark = pytest.mark.django_db

latest_round = PreparedSelect(
    lambda room_id: (
        Round.objects.select_related("match").filter(room_id=room_id).order_by("-id")[:1]
    )
)
seats_of = PreparedSelect(lambda room_id: Seat.objects.filter(room_id=room_id).order_by("index"))
lock_room = PreparedSelect(lambda pk: Room.objects.select_for_update().filter(pk=pk))


def _fields(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


def _started(make_user, clock) -> Room:
    room, ana, _ = two_humans(make_user, clock())
    services.match_start(room=room, actor=ana, now=clock())
    return fresh(room)


def test_a_prepared_select_returns_the_orms_rows_with_their_related_row(make_user, clock):
    room = _started(make_user, clock)
    rnd = latest_round.first(room.pk)
    orm = current(room)
    assert _fields(rnd) == _fields(orm)  # datetimes and JSON converted alike
    with CaptureQueriesContext(connection) as queries:
        assert _fields(rnd.match) == _fields(orm.match)
    assert len(queries) == 0, "the match came with the round"
    assert [_fields(s) for s in seats_of.all(room.pk)] == [
        _fields(s) for s in Seat.objects.filter(room=room).order_by("index")
    ]
    assert latest_round.first(-1) is None and seats_of.all(-1) == []


def test_the_compiled_statement_is_reused_with_each_new_value(make_user, clock):
    first = _started(make_user, clock)
    other = Room.objects.create(code="ZZZZZZ", name="other", preset="duelo")
    assert latest_round.first(other.pk) is None
    assert latest_round.first(first.pk).room_id == first.pk


def test_save_fields_writes_what_save_would(make_user, clock):
    room = _started(make_user, clock)
    rnd = latest_round.first(room.pk)
    rnd.layout = {"3": "left", "marker": [1, None]}
    rnd.version += 5
    rnd.due_at = clock.tick(30)
    save_fields(rnd, ["layout", "version", "due_at"])
    stored = current(room)
    assert stored.layout == {"3": "left", "marker": [1, None]}
    assert (stored.version, stored.due_at) == (rnd.version, rnd.due_at)


def test_insert_stores_the_row_and_sets_its_key(make_user, clock):
    room = _started(make_user, clock)
    rnd = current(room)
    move = Move(round=rnd, seq=99, seat=1, action={"type": "pass"}, by="person", created_at=clock())
    insert(move)
    assert move.pk is not None and not move._state.adding
    assert _fields(Move.objects.get(pk=move.pk)) == _fields(move)
    move.delete()  # (not a move of the game: the round's replay must still hold)


def test_a_query_of_more_than_one_parameter_is_refused():
    both = PreparedSelect(lambda pk: Room.objects.filter(pk=pk, version=pk))
    with pytest.raises(ValueError, match="exactly one parameter"):
        both.first(1)


def _one_message_on_postgresql(queries) -> None:
    if connection.vendor == "postgresql":
        assert len(queries) == 1, [q["sql"][:60] for q in queries]


def test_queries_read_together_return_what_each_returns_alone(make_user, clock):
    room = _started(make_user, clock)
    with CaptureQueriesContext(connection) as queries:
        rounds, seats, none = select_together(
            (latest_round, room.pk), (seats_of, room.pk), (latest_round, -1)
        )
    _one_message_on_postgresql(queries)
    assert [_fields(r) for r in rounds] == [_fields(latest_round.first(room.pk))]
    assert [_fields(s) for s in seats] == [_fields(s) for s in seats_of.all(room.pk)]
    assert none == []


def _drawn_key(room: Room) -> int | None:
    """A move's key drawn with the room's lock (PostgreSQL); None elsewhere."""
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        rooms, keys = select_together((lock_room, room.pk), (NextKeys(Move), 1))
    assert [r.pk for r in rooms] == [room.pk]
    _one_message_on_postgresql(queries)
    if connection.vendor != "postgresql":
        assert keys == []  # nothing drawn: an insert there is sent at once
        return None
    last = Move.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    assert len(keys) == 1 and keys[0] > last
    return keys[0]


def test_writes_held_together_are_sent_at_the_blocks_end_in_one_message(make_user, clock):
    room = _started(make_user, clock)
    rnd = current(room)
    key = _drawn_key(room)
    move = Move(
        pk=key, round=rnd, seq=99, seat=1, action={"type": "pass"}, by="person", created_at=clock()
    )
    with transaction.atomic(), CaptureQueriesContext(connection) as queries, writes_together():
        insert(move)
        assert move.pk is not None and not move._state.adding  # its key, when it is made
        rnd.version += 7
        save_fields(rnd, ["version"])
        if key is not None:
            assert move.pk == key and queries.captured_queries == []  # held
    if key is not None:
        assert len(queries) == 1, [q["sql"][:60] for q in queries]
    assert _fields(Move.objects.get(pk=move.pk)) == _fields(move)
    assert current(room).version == rnd.version
    move.delete()


def test_a_row_without_a_drawn_key_is_sent_at_once_with_what_was_held_before_it(make_user, clock):
    room = _started(make_user, clock)
    rnd = current(room)
    move = Move(round=rnd, seq=99, seat=1, action={"type": "pass"}, by="person", created_at=clock())
    with transaction.atomic(), writes_together():
        rnd.version += 5
        save_fields(rnd, ["version"])  # held
        with CaptureQueriesContext(connection) as queries:
            insert(move)
        assert move.pk is not None and not move._state.adding
        _one_message_on_postgresql(queries)  # the held update and the insert
        assert current(room).version == rnd.version
    assert _fields(Move.objects.get(pk=move.pk)) == _fields(move)
    move.delete()


def test_any_other_statement_first_sends_the_held_writes(make_user, clock):
    room = _started(make_user, clock)
    rnd = current(room)
    with writes_together():
        rnd.version += 3
        save_fields(rnd, ["version"])
        assert current(room).version == rnd.version  # the read saw the write before it
        with writes_together():  # nested: joins the outer block
            save_fields(Room(pk=room.pk, version=41), ["version"])
        assert Room.objects.get(pk=room.pk).version == 41


def test_a_block_left_by_an_exception_sends_nothing(make_user, clock):
    room = _started(make_user, clock)
    rnd = current(room)
    before = rnd.version
    with pytest.raises(RuntimeError), writes_together():
        rnd.version += 5
        save_fields(rnd, ["version"])
        raise RuntimeError("refused")
    assert current(room).version == before
    rnd.version = before + 1
    save_fields(rnd, ["version"])  # outside a block: sent at once
    assert current(room).version == before + 1


@pytest.mark.django_db(transaction=True)
def test_writes_are_held_only_inside_a_transaction():
    with pytest.raises(RuntimeError, match="needs a transaction"), writes_together():
        pass


def _other_connection_sees(room_pk: int) -> int:
    """The room's version as a second connection reads it: only what is committed."""
    other = connection.copy()
    try:
        with other.cursor() as cursor:
            cursor.execute("SELECT version FROM rooms_room WHERE id = %s", [room_pk])
            return cursor.fetchone()[0]
    finally:
        other.close()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_transaction_together_sends_its_reads_then_its_writes_one_message_each(make_user, clock):
    room = _started(make_user, clock)
    with CaptureQueriesContext(connection) as queries, atomic_together():
        (locked,), seats = select_together((lock_room, room.pk), (seats_of, room.pk))
        locked.version += 1
        save_fields(locked, ["version"])
        assert _other_connection_sees(room.pk) == room.version  # not yet committed
    sent = [q["sql"] for q in queries.captured_queries if q["sql"] not in ("BEGIN", "COMMIT")]
    assert len(sent) == 2, sent
    assert sent[0].startswith("SELECT ") and sent[1].startswith("UPDATE ")
    assert _other_connection_sees(room.pk) == room.version + 1
    assert len(seats) == 2


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_transaction_together_inside_another_commits_nothing_by_itself(make_user, clock):
    room = _started(make_user, clock)
    with pytest.raises(RuntimeError), transaction.atomic():
        with atomic_together():
            (locked,) = lock_room.all(room.pk)
            locked.version += 1
            save_fields(locked, ["version"])
        raise RuntimeError("the outer transaction is rolled back")
    assert _other_connection_sees(room.pk) == room.version


@pytest.mark.django_db(transaction=True)
def test_a_transaction_together_left_by_an_exception_writes_nothing(make_user, clock):
    room = _started(make_user, clock)
    with pytest.raises(RuntimeError), atomic_together():
        (locked,) = lock_room.all(room.pk)
        locked.version += 1
        save_fields(locked, ["version"])
        raise RuntimeError("refused")
    assert fresh(room).version == room.version
    with atomic_together():  # the connection is as good as before
        (locked,) = lock_room.all(room.pk)
    assert locked.version == room.version
