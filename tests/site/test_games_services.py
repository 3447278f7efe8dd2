"""games.services: action_apply (the one way a move reaches the database), the
due-time logic and round_due_fire (bots, the clock, auto moves, picks)."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

import timers.scheduling
from games.engine import PASS, action_from_dict
from games.models import Move, Round
from rooms import events, services
from rooms import services as room_services
from rooms.errors import ServiceError
from rooms.services import play
from tests.site.helpers import (
    current,
    fire_due,
    fresh,
    human_move,
    play_round,
    room_with_bots,
    seat,
    set_deal,
    two_humans,
)

pytestmark = pytest.mark.django_db


def started_duel(make_user, clock, **kw):
    room, ana, bruno = two_humans(make_user, clock(), **kw)
    services.match_start(room=room, actor=ana, now=clock())
    return fresh(room), ana, bruno


def test_a_move_is_stored_with_its_sequence_and_the_snapshot_advances(make_user, clock):
    room, *_ = started_duel(make_user, clock)
    rnd = current(room)
    turn = rnd.engine().turn
    move = human_move(room, turn, clock.tick(3))
    after = current(room)
    assert (move.seq, move.seat, move.by) == (1, turn, "person")
    assert move.action == after.engine().history[0][1].to_dict()
    assert after.version == rnd.version + 1
    assert after.turn_started_at == clock.now
    assert fresh(room).version == room.version + 1
    assert after.replay_matches_snapshot()


def test_a_play_without_end_is_stored_with_the_end_the_engine_chose(make_user, clock):
    room, *_ = started_duel(make_user, clock)
    set_deal(room, hands=[["2-6", "1-1"], ["6-5", "0-0"]], boneyard=["3-3"], opener=0)
    human_move(room, 0, clock())  # 2-6 opens: ends 2 and 6
    room_services.action_apply(
        room=room, seat_index=1, action={"type": "play", "tile": "5-6"}, version=fresh(room).version
    )
    assert Move.objects.get(seq=2).action == {"type": "play", "tile": "5-6", "end": "B"}


@pytest.mark.parametrize(
    "case,code",
    [
        ("stale", "stale"),
        ("not_your_turn", "not_your_turn"),
        ("illegal", "not_in_hand"),
        ("malformed", "malformed"),
        ("not_seated", "not_seated"),
    ],
)
def test_refusals_are_typed_and_leave_the_database_untouched(make_user, clock, case, code):
    room, *_ = started_duel(make_user, clock)
    rnd = current(room)
    turn = rnd.engine().turn
    other = 1 - turn
    good = rnd.engine().legal_actions(turn)[0].to_dict()
    in_other_hand = str(rnd.engine().hand(other)[0])
    calls = {
        "stale": dict(seat_index=turn, action=good, version=room.version - 1),
        "not_your_turn": dict(seat_index=other, action={"type": "pass"}, version=room.version),
        "illegal": dict(
            seat_index=turn, action={"type": "play", "tile": in_other_hand}, version=room.version
        ),
        "malformed": dict(seat_index=turn, action={"type": "dance"}, version=room.version),
        "not_seated": dict(seat_index=7, action=good, version=room.version),
    }
    with pytest.raises(ServiceError) as info:
        room_services.action_apply(room=room, **calls[case])
    assert info.value.code == code
    assert not Move.objects.exists()
    assert fresh(room).version == room.version
    same = current(room)
    assert (same.version, same.state) == (rnd.version, rnd.state)


def test_a_person_cannot_move_for_a_bot(make_user, clock):
    room = room_with_bots(make_user("ana"), clock(), preset="duelo")
    services.match_start(room=room, actor=seat(room, 0), now=clock())
    rnd = current(room)
    if rnd.engine().turn == 0:
        human_move(room, 0, clock())
        rnd = current(room)
    action = rnd.engine().legal_actions(1)[0].to_dict()
    with pytest.raises(ServiceError) as info:
        room_services.action_apply(
            room=room, seat_index=1, action=action, version=fresh(room).version
        )
    assert info.value.code == "not_seated"


# ---------------------------------------------------------------------- due times


def test_bot_turn_is_due_after_the_bot_delay(make_user, clock, settings):
    settings.BOT_DELAY_SECONDS = 2
    room = room_with_bots(make_user("ana"), clock(), preset="duelo")
    services.match_start(room=room, actor=seat(room, 0), now=clock())
    if current(room).engine().turn == 0:
        human_move(room, 0, clock.tick(1))
    rnd = current(room)
    assert rnd.due_kind == "bot" and rnd.due_at == clock.now + timedelta(seconds=2)
    assert not fire_due(room, clock.tick(1))  # not yet
    assert fire_due(room, clock.tick(1))
    move = Move.objects.get(round=rnd, seat=1)
    assert move.by == "bot" and move.created_at == clock.now


def test_clock_runs_out_and_the_server_moves_logged_as_timeout(make_user, clock):
    room, *_ = started_duel(make_user, clock, move_seconds=15)
    rnd = current(room)
    assert rnd.due_kind == "clock" and rnd.due_at == clock.now + timedelta(seconds=15)
    turn = rnd.engine().turn
    assert fire_due(room, clock.tick(15))
    move = Move.objects.get(round=rnd)
    assert (move.seat, move.by) == (turn, "timeout")
    after = current(room)
    assert after.due_kind == "clock" and after.due_at == clock.now + timedelta(seconds=15)


def test_human_turn_without_clock_has_no_due_time_while_connected(make_user, clock):
    room, ana, bruno = started_duel(make_user, clock)
    for s in (ana, bruno):
        services.seat_connected(room=room, index=s.index, channel_name=f"c{s.index}", now=clock())
    assert current(room).due_at is None


def test_disconnected_human_without_clock_is_moved_for_after_30s(make_user, clock):
    room, ana, bruno = started_duel(make_user, clock)
    for s in (ana, bruno):
        services.seat_connected(room=room, index=s.index, channel_name=f"c{s.index}", now=clock())
    turn = current(room).engine().turn
    services.seat_disconnected(room=room, index=turn, channel_name=f"c{turn}", now=clock.tick(5))
    rnd = current(room)
    assert rnd.due_kind == "auto" and rnd.due_at == clock.now + timedelta(seconds=30)
    assert not fire_due(room, clock.tick(29))
    assert fire_due(room, clock.tick(1))
    assert Move.objects.get(round=rnd).by == "timeout"


def test_round_due_fire_is_idempotent(make_user, clock):
    room, *_ = started_duel(make_user, clock, move_seconds=10)
    rnd = current(room)
    now = clock.tick(10)
    assert room_services.round_due_fire(round_id=rnd.pk, version=rnd.version, now=now)
    # The same wake-up again, a late one and one for a missing round do nothing.
    assert not room_services.round_due_fire(round_id=rnd.pk, version=rnd.version, now=now)
    assert not room_services.round_due_fire(round_id=rnd.pk, version=rnd.version + 1, now=now)
    assert not room_services.round_due_fire(round_id=10**9, version=1, now=now)
    assert Move.objects.count() == 1


def test_substitute_moves_are_logged_as_substitute(make_user, clock):
    room, ana, bruno = started_duel(make_user, clock)
    services.seat_leave(room=room, index=1, actor=bruno, now=clock())
    play_round(room, clock())
    assert set(Move.objects.filter(seat=1).values_list("by", flat=True)) == {"substitute"}


def test_the_bot_is_given_only_its_view(make_user, clock, monkeypatch):
    seen = []

    def spy(view, level, rng, **kw):
        seen.append((view, level))
        return action_from_dict(view["legal"][0])

    monkeypatch.setattr(play, "choose_action", spy)
    room = room_with_bots(make_user("ana"), clock(), preset="duelo", level="hard")
    services.match_start(room=room, actor=seat(room, 0), now=clock())
    play_round(room, clock())
    assert seen and all(level == "hard" for _, level in seen)
    rnd = current(room)
    for view, _ in seen:
        assert view["seat"] == 1
        assert "hands" not in view and "boneyard" not in view
        assert len(view["hand"]) == view["tile_counts"][1]
    assert rnd.result is not None


def test_an_illegal_bot_answer_falls_back_to_a_legal_move(make_user, clock, monkeypatch):
    monkeypatch.setattr(play, "choose_action", lambda *a, **k: PASS)
    room = room_with_bots(make_user("ana"), clock(), preset="duelo")
    services.match_start(room=room, actor=seat(room, 0), now=clock())
    rnd = play_round(room, clock())
    assert rnd.result is not None


def test_tie_break_picks_on_timeout_are_random(make_user, clock):
    room, *_ = started_duel(make_user, clock, preset="arena", move_seconds=10)
    # 6-6 opens, both pass: blocked with 3 pips each -> a pick-off.
    set_deal(room, hands=[["6-6", "1-2"], ["0-3"]], opener=0)
    human_move(room, 0, clock())
    human_move(room, 1, clock())
    human_move(room, 0, clock())
    rnd = current(room)
    assert rnd.engine().pending_picks == {0, 1}
    assert rnd.due_kind == "clock"
    assert fire_due(room, clock.tick(10))
    assert fire_due(room, clock())
    picks = Move.objects.filter(round=rnd, action__type="pick")
    assert picks.count() >= 2 and set(picks.values_list("by", flat=True)) == {"timeout"}


# ---------------------------------------------------------------------- cost

LONG_DUEL = {
    "hands": [
        ["0-6", "5-5", "3-6", "0-5", "2-4", "1-3", "0-0"],
        ["1-2", "4-6", "0-2", "1-5", "6-6", "2-2", "3-3"],
    ],
    "boneyard": [
        "0-1",
        "4-5",
        "0-3",
        "0-4",
        "2-5",
        "2-3",
        "3-5",
        "3-4",
        "4-4",
        "1-6",
        "1-1",
        "5-6",
        "2-6",
        "1-4",
    ],
    "opener": 1,
    "mandatory_tile": "6-6",
}


def test_queries_per_move_are_constant(make_user, clock):
    """The same number of queries at move 1 and at move 25 of a round."""
    room, *_ = started_duel(make_user, clock)
    set_deal(room, **LONG_DUEL)  # 41 moves when each seat plays its first legal action
    counts = {}
    for number in range(1, 26):
        rnd = current(room)
        assert rnd.finished_at is None, f"the round ended after {number - 1} moves"
        turn = rnd.engine().turn
        action = rnd.engine().legal_actions(turn)[0].to_dict()
        version = fresh(room).version
        room_arg = fresh(room)
        with CaptureQueriesContext(connection) as ctx:
            room_services.action_apply(
                room=room_arg, seat_index=turn, action=action, version=version
            )
        counts[number] = len(ctx.captured_queries)
    print(f"\nqueries per action_apply: move 1 = {counts[1]}, move 25 = {counts[25]}")
    assert counts[1] == counts[25]
    assert Move.objects.filter(round=current(room)).count() == 25


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_move_is_two_messages_on_postgresql(make_user, clock):
    """Between psycopg's BEGIN and Django's COMMIT: the room's lock, its round,
    its seats and the move's key in one message; the move (under that key: it
    had its id when it was made), the round and the room written in another."""
    room, *_ = started_duel(make_user, clock)
    rnd = current(room)
    turn = rnd.engine().turn
    action = rnd.engine().legal_actions(turn)[0].to_dict()
    version = fresh(room).version
    with CaptureQueriesContext(connection) as ctx:
        move = room_services.action_apply(
            room=room.pk, seat_index=turn, action=action, version=version
        )
    # (Django's debug log also lists the BEGIN and COMMIT it asked psycopg for.)
    sent = [q["sql"] for q in ctx.captured_queries if q["sql"] not in ("BEGIN", "COMMIT")]
    assert len(sent) == 2, [q[:90] for q in sent]
    assert sent[0].startswith("SELECT ")
    assert sent[0].count("SELECT ") == 4 and sent[0].count("FOR UPDATE") == 2
    assert sent[0].endswith("FROM generate_series(1, 1)") and "nextval(" in sent[0]
    assert sent[1].startswith("INSERT INTO") and sent[1].count("UPDATE ") == 2
    assert f"VALUES ({move.pk}, " in sent[1]  # the key drawn with the lock
    assert Move.objects.get(pk=move.pk).seq == 1
    assert current(room).version == rnd.version + 1


def test_every_round_replays_to_its_snapshot_after_a_whole_match(make_user, clock):
    room = room_with_bots(make_user("ana"), clock(), preset="com_monte", level="easy")
    host = seat(room, 0)
    services.match_start(room=room, actor=host, now=clock())
    for _ in range(30):
        play_round(room, clock())
        if current(room).match.over:
            break
        services.player_ready(room=room, actor=host, now=clock())
    match = current(room).match
    assert match.over and match.winner is not None
    assert max(match.scores) >= 100
    for rnd in Round.objects.filter(room=room):
        assert rnd.replay_matches_snapshot()


def test_a_timeout_plays_the_medium_bots_choice(make_user, clock, monkeypatch):
    levels = []

    def spy(view, level, rng, **kw):
        levels.append((view["seat"], level))
        return action_from_dict(view["legal"][-1])

    monkeypatch.setattr(play, "choose_action", spy)
    room, *_ = started_duel(make_user, clock, move_seconds=10)
    turn = current(room).engine().turn
    assert fire_due(room, clock.tick(10))
    assert levels == [(turn, "medium")]


def test_without_a_bot_policy_the_first_legal_action_is_played(make_user, clock, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "bots.policies", None)  # import fails
    room = room_with_bots(make_user("ana"), clock(), preset="duelo")
    services.match_start(room=room, actor=seat(room, 0), now=clock())
    rnd = play_round(room, clock())
    assert rnd.result is not None


def test_a_move_is_broadcast_and_its_next_due_scheduled_after_commit(
    make_user, clock, monkeypatch, django_capture_on_commit_callbacks
):
    sent, scheduled = [], []

    class Layer:
        async def group_send(self, group, message):
            sent.append((group, message))

    monkeypatch.setattr(events, "get_channel_layer", lambda: Layer())
    monkeypatch.setattr(timers.scheduling, "schedule_due", lambda **kw: scheduled.append(kw))
    room, *_ = started_duel(make_user, clock, move_seconds=20)
    with django_capture_on_commit_callbacks(execute=True):
        human_move(room, current(room).engine().turn, clock())
    rnd = current(room)
    [(group, message)] = sent  # nobody is connected: the public state only
    assert group == f"room.{room.code}"
    assert message["type"] == "room.state" and message["version"] == fresh(room).version
    frame = json.loads(message["frame"])
    assert frame["version"] == fresh(room).version and frame["you"]["seat"] is None
    assert frame["round"]["hand"] == [] and frame["round"]["legal"] == []
    assert scheduled == [
        {"round_id": rnd.pk, "version": rnd.version, "due_at": rnd.due_at, "kind": "clock"}
    ]


# ---------------------------------------------------------------------- decide outside the lock


def test_the_bot_decides_with_no_lock_held(make_user, clock, monkeypatch):
    from django.db import transaction

    inside = []
    real = play._server_action

    def deciding(rnd, seat, kind):
        inside.append(len(transaction.get_connection().atomic_blocks))
        return real(rnd, seat, kind)

    monkeypatch.setattr(play, "_server_action", deciding)
    room = room_with_bots(make_user("ana"), clock(), preset="duelo", level="hard")
    services.match_start(room=room, actor=seat(room, 0), now=clock())
    test_depth = len(transaction.get_connection().atomic_blocks)  # the test's own transaction
    play_round(room, clock())
    assert inside and set(inside) == {test_depth}, "no search runs inside a service transaction"


def test_a_timeout_that_loses_the_race_to_the_persons_move_changes_nothing(
    make_user, clock, monkeypatch
):
    room, *_ = started_duel(make_user, clock, move_seconds=20)
    rnd = current(room)
    turn = rnd.engine().turn
    late = clock.tick(20)
    real = play._server_action

    def racing(rnd_, seat_, kind):
        decided = real(rnd_, seat_, kind)
        human_move(room, turn, late)  # the person's move lands while the timeout decides
        return decided

    monkeypatch.setattr(play, "_server_action", racing)
    assert not room_services.round_due_fire(round_id=rnd.pk, version=rnd.version, now=late)
    assert list(Move.objects.filter(round=rnd).values_list("seat", "by")) == [(turn, "person")]
    after = current(room)
    assert after.engine().turn == 1 - turn, "the other seat keeps its turn"
    assert after.due_kind == "clock" and after.due_at == late + timedelta(seconds=20)


def test_a_bot_that_loses_the_race_to_a_duplicate_wake_up_moves_once(make_user, clock, monkeypatch):
    room = room_with_bots(make_user("ana"), clock(), preset="duelo", level="medium")
    services.match_start(room=room, actor=seat(room, 0), now=clock())
    rnd = current(room)
    while rnd.engine().turn != 1:  # let the person open if it is theirs
        human_move(room, 0, clock())
        rnd = current(room)
    version = rnd.version
    real = play._server_action
    raced = []

    def racing(rnd_, seat_, kind):
        decided = real(rnd_, seat_, kind)
        if not raced:  # the same wake-up delivered twice: the copy wins the race
            raced.append("racing")
            raced[0] = room_services.round_due_fire(round_id=rnd.pk, version=version, now=clock())
        return decided

    monkeypatch.setattr(play, "_server_action", racing)
    assert not room_services.round_due_fire(round_id=rnd.pk, version=version, now=clock())
    assert raced == [True]
    bot_moves = Move.objects.filter(round=rnd, seat=1, by="bot")
    assert bot_moves.count() == 1, "the bot's turn is played exactly once"
    assert current(room).engine().turn in (0, None)


def test_a_move_naming_a_seat_is_played_only_by_the_person_who_holds_it(make_user, clock):
    """A socket sends its move with the seat it last saw as its own; the seat's
    row decides under the lock (someone else's seat, or a guest token that is not
    the seat's, is refused and nothing changes)."""
    room, ana, bruno = started_duel(make_user, clock)
    rnd = current(room)
    turn = rnd.engine().turn
    holder, other = (ana, bruno) if turn == 0 else (bruno, ana)
    action = rnd.engine().legal_actions(turn)[0].to_dict()
    for player in [(other.user, None), (None, "a-guest-token"), (None, None)]:
        with pytest.raises(ServiceError) as refused:
            room_services.action_apply(
                room=room.pk, seat_index=turn, action=action, version=room.version, player=player
            )
        assert refused.value.code == "not_seated"
    assert fresh(room).version == room.version and current(room).version == rnd.version
    room_services.action_apply(
        room=room.pk,
        seat_index=turn,
        action=action,
        version=room.version,
        player=(holder.user, None),
    )
    assert current(room).version == rnd.version + 1
