"""Eight threads send the same move to the same round at once (PostgreSQL's row
locks are what makes this safe; SQLite serialises whole transactions instead)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from games.models import Move
from rooms import services
from rooms import services as room_services
from rooms.errors import ServiceError
from tests.site.helpers import current, fresh, two_humans

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

THREADS = 8


def test_the_same_move_from_eight_threads_is_stored_once(make_user, clock):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: row locks (select_for_update) are a no-op on SQLite")
    room, ana, _ = two_humans(make_user, clock())
    services.match_start(room=room, actor=ana, now=clock())
    rnd = current(room)
    turn = rnd.engine().turn
    action = rnd.engine().legal_actions(turn)[0].to_dict()
    version = fresh(room).version
    barrier = threading.Barrier(THREADS)
    outcomes: list[str] = []
    lock = threading.Lock()

    def send() -> None:
        try:
            barrier.wait(timeout=10)
            room_services.action_apply(room=room, seat_index=turn, action=action, version=version)
            result = "ok"
        except ServiceError as exc:
            result = exc.code
        except Exception as exc:  # noqa: BLE001 - reported below
            result = f"crash: {exc!r}"
        finally:
            connection.close()
        with lock:
            outcomes.append(result)

    threads = [threading.Thread(target=send) for _ in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert len(outcomes) == THREADS, outcomes
    assert outcomes.count("ok") == 1, outcomes
    assert set(outcomes) - {"ok"} <= {"stale", "not_your_turn"}, outcomes
    assert Move.objects.filter(round=rnd).count() == 1
    after = current(room)
    assert after.version == rnd.version + 1
    assert fresh(room).version == version + 1
