"""rooms.services.ahead: a table read ahead of its next move stands in for the
locked reads only when the database proves it exact; otherwise the move runs
the usual way, and either way it is applied exactly once."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Move
from rooms import services
from rooms.errors import ServiceError
from rooms.models import Room, Seat
from rooms.services import ahead
from tests.site.helpers import current, fresh, two_humans

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_copies_left():
    ahead.forget_copies()
    yield
    ahead.forget_copies()


def started_duel(make_user, clock):
    room, ana, _bruno = two_humans(make_user, clock())
    services.match_start(room=room, actor=ana, now=clock())
    return fresh(room)


def first_move(room: Room) -> tuple[int, dict]:
    eng = current(room).engine()
    return eng.turn, eng.legal_actions(eng.turn)[0].to_dict()


def test_a_move_takes_the_copy_read_ahead_at_its_version_and_is_stored_once(make_user, clock):
    room = started_duel(make_user, clock)
    turn, action = first_move(room)
    assert services.table_read_ahead(room_id=room.pk) == room.version
    move = services.action_apply(
        room=room.pk, seat_index=turn, action=action, version=room.version, now=clock.tick(2)
    )
    assert ahead.take_copy(room.pk, room.version) is None, "a copy is used once"
    after = current(room)
    assert list(Move.objects.filter(round=after).values_list("seq", "seat")) == [(1, turn)]
    assert move.pk is not None and after.version == 2 and after.movers == ["person"]
    assert fresh(room).version == room.version + 1
    assert after.replay_matches_snapshot()


def test_a_copy_read_at_another_version_is_not_taken(make_user, clock):
    room = started_duel(make_user, clock)
    turn, action = first_move(room)
    services.table_read_ahead(room_id=room.pk)
    with pytest.raises(ServiceError) as refused:
        services.action_apply(
            room=room.pk, seat_index=turn, action=action, version=room.version - 1
        )
    assert refused.value.code == "stale"
    assert not Move.objects.exists()


def test_a_row_changed_behind_the_copy_without_a_new_version_wins(make_user, clock):
    """Nothing that wrote the rows since the copy was read goes unseen, even a
    write that did not bump the room's version: here a pause set straight in
    the database refuses the move the copy would have allowed."""
    room = started_duel(make_user, clock)
    turn, action = first_move(room)
    services.table_read_ahead(room_id=room.pk)
    Room.objects.filter(pk=room.pk).update(paused=True)
    with pytest.raises(ServiceError) as refused:
        services.action_apply(room=room.pk, seat_index=turn, action=action, version=room.version)
    assert refused.value.code == "paused"
    assert not Move.objects.exists() and fresh(room).version == room.version


def test_a_seat_changed_behind_the_copy_is_seen(make_user, clock):
    """The seat the copy says is the mover's was given to a bot straight in the
    database: the person's move is refused as the rows say, not as the copy."""
    room = started_duel(make_user, clock)
    turn, action = first_move(room)
    services.table_read_ahead(room_id=room.pk)
    Seat.objects.filter(room=room, index=turn).update(kind=Seat.Kind.BOT, user=None)
    with pytest.raises(ServiceError) as refused:
        services.action_apply(room=room.pk, seat_index=turn, action=action, version=room.version)
    assert refused.value.code == "not_seated"
    assert not Move.objects.exists()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_move_from_a_copy_is_one_round_trip_on_postgresql(make_user, clock, psycopg_own_commands):
    """BEGIN, the guard that locks the room and the round and proves the copy,
    the move's three writes and COMMIT: one message, and psycopg sends nothing
    of its own."""
    room = started_duel(make_user, clock)
    turn, action = first_move(room)
    services.table_read_ahead(room_id=room.pk)
    psycopg_own_commands.clear()
    with CaptureQueriesContext(connection) as ctx:
        services.action_apply(room=room.pk, seat_index=turn, action=action, version=room.version)
    sent = [q["sql"] for q in ctx.captured_queries if q["sql"] not in ("BEGIN", "COMMIT")]
    assert len(sent) == 1, [q[:90] for q in sent]
    assert sent[0].startswith("BEGIN; SELECT CAST(") and sent[0].count("FOR UPDATE") == 2
    assert sent[0].count("INSERT INTO") == 1 and sent[0].count('UPDATE "') == 2
    assert sent[0].endswith("; COMMIT")
    assert psycopg_own_commands == []
    assert Move.objects.filter(round=current(room)).count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_failed_guard_rolls_back_and_the_move_runs_on_the_locked_rows(make_user, clock):
    """A seat row rewritten since the copy (its name only: the room's version is
    the same) fails the guard; the move is then applied from the rows read
    under the lock, once, and tells the new name."""
    room = started_duel(make_user, clock)
    turn, action = first_move(room)
    services.table_read_ahead(room_id=room.pk)
    Seat.objects.filter(room=room, index=1 - turn).update(display_name="Zé")
    with CaptureQueriesContext(connection) as ctx:
        services.action_apply(room=room.pk, seat_index=turn, action=action, version=room.version)
    sent = [q["sql"] for q in ctx.captured_queries if q["sql"] not in ("BEGIN", "COMMIT")]
    assert sent[0].startswith("BEGIN; SELECT CAST(")  # the guard, refused
    assert any(q.startswith("BEGIN; SELECT ") and "CAST(" not in q for q in sent[1:])
    assert Move.objects.filter(round=current(room)).count() == 1
    assert fresh(room).version == room.version + 1
    assert current(room).replay_matches_snapshot()
