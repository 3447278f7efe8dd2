"""rooms.services: the room lifecycle of docs/site.md (seats, bots, host, rounds, pause,
settings, annulment, arena walkover)."""

from __future__ import annotations

import pytest

from games.models import Match, Move, Round
from rooms import selectors as room_selectors
from rooms import services
from rooms.errors import ServiceError
from rooms.models import Room, Seat
from rooms.services import action_apply
from tests.site.helpers import (
    current,
    fire_due,
    fresh,
    human_move,
    play_round,
    room_with_bots,
    seat,
    two_humans,
)

pytestmark = pytest.mark.django_db


def refused(code: str, func, reason: str | None = None, **kwargs) -> ServiceError:
    with pytest.raises(ServiceError) as info:
        func(**kwargs)
    assert info.value.code == code, info.value
    if reason is not None:
        assert info.value.reason == reason
    return info.value


def bad_message(reason: str, func, **kwargs) -> ServiceError:
    """``func(**kwargs)`` is refused as a ``bad_message`` for ``reason``."""
    return refused("bad_message", func, reason=reason, **kwargs)


# ---------------------------------------------------------------------- creating


def test_creator_takes_seat_zero_and_hosts(make_user, clock):
    ana = make_user("ana")
    room = services.room_create(
        user=ana, name="Mesa da Ana", preset="parceria", options={"target": 100}, now=clock()
    )
    assert len(room.code) == 8 and not set(room.code) & set("0O1I")
    assert len(room.invite_token) >= 32
    assert room.ruleset.target == 100 and room.rules["seats"] == 4
    assert room.host_seat == 0 and room.status == "waiting"
    seats = list(room.seats.order_by("index"))
    assert [s.kind for s in seats] == ["human", "empty", "empty", "empty"]
    assert seats[0].user == ana and seats[0].display_name == "ana"


def test_room_codes_and_invites_are_unique(make_user, clock):
    user = make_user()
    rooms = [
        services.room_create(user=user, name="x", preset="duelo", now=clock()) for _ in range(20)
    ]
    assert len({r.code for r in rooms}) == 20
    assert len({r.invite_token for r in rooms}) == 20


def test_invalid_options_are_refused_with_the_knob(make_user, clock):
    error = bad_message(
        "invalid_rules",
        services.room_create,
        user=make_user(),
        name="x",
        preset="parceria",
        options={"target": 500},
        now=clock(),
    )
    assert error.field == "target"
    bad_message(
        "bad_clock",
        services.room_create,
        user=make_user(),
        name="x",
        preset="parceria",
        move_seconds=7,
    )
    assert not Room.objects.exists()


def test_public_rooms_need_an_account_private_ones_take_guests(clock):
    bad_message(
        "login_required",
        services.room_create,
        user=None,
        guest_token="g1",
        name="x",
        preset="duelo",
        visibility="public",
    )
    room = services.room_create(
        user=None, guest_token="g1", name="x", preset="duelo", visibility="private", now=clock()
    )
    assert seat(room, 0).guest_token == "g1"


# ---------------------------------------------------------------------- seats


def test_sitting_on_an_empty_seat_takes_it_and_a_taken_seat_is_refused(make_user, clock):
    room, _, bruno = two_humans(make_user, clock())
    assert bruno.user.username == "bruno" and bruno.kind == "human"
    refused("seat_taken", services.seat_take, room=room, index=1, user=make_user("carla"))
    guest_refused = refused("bad_message", services.seat_take, room=room, index=1, guest_token="g")
    assert guest_refused.reason == "login_required"


def test_the_invite_gives_the_second_seat_then_the_same_seat_then_room_full(make_user, clock):
    room = services.room_create(
        user=make_user("ana"), name="x", preset="duelo", visibility="private", now=clock()
    )
    first = services.seat_take_by_invite(token=room.invite_token, guest_token="guest-1")
    assert first.index == 1 and first.guest_token == "guest-1"
    again = services.seat_take_by_invite(token=room.invite_token, guest_token="guest-1")
    assert again.pk == first.pk
    refused("room_full", services.seat_take_by_invite, token=room.invite_token, guest_token="g2")
    bad_message("not_found", services.seat_take_by_invite, token="nope", guest_token="g")


def test_moving_to_another_seat_between_rounds_frees_the_old_one(make_user, clock):
    ana = make_user("ana")
    room = services.room_create(user=ana, name="x", preset="parceria", now=clock())
    services.seat_take(room=room, index=2, user=ana, now=clock())
    assert seat(room, 0).kind == "empty" and seat(room, 2).user == ana
    assert fresh(room).host_seat == 2


def test_bots_are_added_removed_and_relevelled_by_the_host_only(make_user, clock):
    room, ana, bruno = two_humans(make_user, clock(), preset="parceria")
    refused("not_host", services.bot_add, room=room, actor=bruno, index=2, level="easy")
    bad_message("bad_level", services.bot_add, room=room, actor=ana, index=2, level="genius")
    refused("seat_taken", services.bot_add, room=room, actor=ana, index=1, level="easy")
    bot = services.bot_add(room=room, actor=ana, index=2, level="easy")
    assert bot.kind == "bot" and bot.bot_level == "easy"
    services.bot_set_level(room=room, actor=ana, index=2, level="hard")
    assert seat(room, 2).bot_level == "hard"
    bad_message("not_a_bot", services.bot_remove, room=room, actor=ana, index=1)
    services.bot_remove(room=room, actor=ana, index=2)
    assert seat(room, 2).kind == "empty"


def test_a_room_keeps_one_seat_for_a_human(make_user, clock):
    room = room_with_bots(make_user(), clock(), preset="parceria")
    host = seat(room, 0)
    assert Seat.objects.filter(room=room, kind="bot").count() == 3
    # Force the invariant's edge: free the host's seat and try a fourth bot.
    Seat.objects.filter(room=room, index=1).update(kind="empty", bot_level=None)
    services.bot_add(room=room, actor=host, index=1, level="easy")
    assert Seat.objects.filter(room=room, kind="bot").count() == 3
    refused("seat_taken", services.bot_add, room=room, actor=host, index=0, level="easy")


def test_start_needs_the_host_and_every_seat_filled(make_user, clock):
    room, ana, bruno = two_humans(make_user, clock(), preset="parceria")
    refused("not_host", services.match_start, room=room, actor=bruno)
    bad_message("seats_empty", services.match_start, room=room, actor=ana)
    services.bot_add(room=room, actor=ana, index=2, level="easy")
    services.bot_add(room=room, actor=ana, index=3, level="easy")
    rnd = services.match_start(room=room, actor=ana, now=clock())
    assert fresh(room).status == "playing" and rnd.number == 1
    assert rnd.engine().mandatory_tile is not None  # parceria opens with 6-6
    bad_message("wrong_phase", services.match_start, room=room, actor=ana)


def test_sitting_on_a_bots_seat_during_a_round_reserves_it_until_the_result(make_user, clock):
    ana, carla = make_user("ana"), make_user("carla")
    room = room_with_bots(ana, clock(), preset="duelo")
    services.match_start(room=room, actor=seat(room, 0), now=clock())
    reserved = services.seat_take(room=room, index=1, user=carla, now=clock())
    assert reserved.kind == "bot" and reserved.reserved_user == carla
    refused("seat_taken", services.seat_take, room=room, index=1, user=make_user("dora"))
    rnd = play_round(room, clock())
    assert rnd.result is not None
    after = seat(room, 1)
    assert after.kind == "human" and after.user == carla and after.bot_level is None
    assert not after.is_reserved
    # The bot played its moves until the result.
    assert Move.objects.filter(round=rnd, seat=1, by="bot").exists()


def test_sitting_on_a_bots_seat_between_rounds_takes_it_at_once(make_user, clock):
    room = room_with_bots(make_user("ana"), clock(), preset="parceria")
    services.match_start(room=room, actor=seat(room, 0), now=clock())
    play_round(room, clock())
    carla = make_user("carla")
    taken = services.seat_take(room=room, index=3, user=carla, now=clock())
    assert taken.kind == "human" and taken.user == carla


def test_host_remove_bot_during_a_round_frees_the_seat_at_the_result(make_user, clock):
    room = room_with_bots(make_user("ana"), clock(), preset="parceria")
    host = seat(room, 0)
    services.match_start(room=room, actor=host, now=clock())
    services.bot_remove(room=room, actor=host, index=2)
    assert seat(room, 2).kind == "bot" and seat(room, 2).leaving
    play_round(room, clock())
    assert seat(room, 2).kind == "empty"
    assert seat(room, 1).kind == "bot"


def test_leaving_during_a_round_leaves_a_bot_with_the_same_tiles_until_the_result(make_user, clock):
    room, ana, bruno = two_humans(make_user, clock(), preset="parceria")
    services.bot_add(room=room, actor=ana, index=2, level="easy")
    services.bot_add(room=room, actor=ana, index=3, level="easy")
    services.match_start(room=room, actor=ana, now=clock())
    hand_before = current(room).engine().hand(1)
    services.seat_leave(room=room, index=1, actor=bruno, now=clock())
    stand_in = seat(room, 1)
    assert stand_in.kind == "human" and stand_in.substitute and stand_in.leaving
    assert stand_in.bot_level == "medium"
    assert current(room).engine().hand(1) == hand_before
    refused("not_seated", services.player_ready, room=room, actor=stand_in)
    rnd = play_round(room, clock())
    assert Move.objects.filter(round=rnd, seat=1, by="substitute").exists()
    assert not Move.objects.filter(round=rnd, seat=1, by="person").exists()
    assert seat(room, 1).kind == "empty"


def test_leaving_between_rounds_empties_the_seat_at_once(make_user, clock):
    room, ana, bruno = two_humans(make_user, clock(), preset="parceria")
    services.seat_leave(room=room, index=1, actor=bruno, now=clock())
    assert seat(room, 1).kind == "empty"


def away_for_two_minutes(room, index, clock) -> None:
    """Seat ``index`` drops while the others stay connected; two minutes later the
    sweeper lets a bot stand in (substitute_reason "away")."""
    for other in range(room.seat_count):
        services.seat_connected(room=room, index=other, channel_name=f"c{other}", now=clock())
    services.seat_disconnected(room=room, index=index, channel_name=f"c{index}", now=clock())
    assert services.rooms_sweep(now=clock.tick(121))["takeovers"] == 1


def test_who_left_during_a_round_cannot_sit_again_before_the_result(make_user, clock):
    """docs/site.md: a human who leaves during a round leaves a bot in the seat until
    the result; then the seat is empty."""
    room, ana, bruno = two_humans(make_user, clock(), preset="duelo")
    services.match_start(room=room, actor=ana, now=clock())
    services.seat_leave(room=room, index=1, actor=bruno, now=clock())
    version = fresh(room).version
    refused("seat_taken", services.seat_take, reason="left", room=room, index=1, user=bruno.user)
    stand_in = seat(room, 1)
    assert stand_in.substitute and stand_in.leaving and stand_in.substitute_reason == "left"
    assert not stand_in.is_reserved and fresh(room).version == version
    play_round(room, clock())
    assert seat(room, 1).kind == "empty"
    # Between rounds the seat is free again, for them as for anyone.
    back = services.seat_take(room=room, index=1, user=bruno.user, now=clock())
    assert back.active_human and back.user == bruno.user


def test_coming_back_after_being_away_takes_the_seat_back_by_sitting(make_user, clock):
    room, ana, bruno = two_humans(make_user, clock(), preset="duelo")
    services.match_start(room=room, actor=ana, now=clock())
    away_for_two_minutes(room, 1, clock)
    assert seat(room, 1).substitute_reason == "away"
    back = services.seat_take(room=room, index=1, user=bruno.user, now=clock())
    assert back.active_human and not back.leaving and back.bot_level is None


def test_leaving_while_a_bot_stands_in_for_being_away_is_leaving_for_good(make_user, clock):
    room, ana, bruno = two_humans(make_user, clock(), preset="duelo")
    services.match_start(room=room, actor=ana, now=clock())
    away_for_two_minutes(room, 1, clock)
    version = fresh(room).version
    services.seat_leave(room=room, index=1, actor=seat(room, 1), now=clock())
    assert seat(room, 1).substitute_reason == "left" and fresh(room).version == version + 1
    refused("seat_taken", services.seat_take, reason="left", room=room, index=1, user=bruno.user)
    refused("not_seated", services.seat_connected, room=room, index=1, channel_name="c1b")


@pytest.mark.parametrize("how", ["reconnecting", "sitting"])
def test_a_returning_player_keeps_the_seat_someone_reserved_while_they_were_away(
    make_user, clock, how
):
    """docs/site.md: coming back before the round's result gives them the seat (and
    the same hand); a reservation made on the stand-in bot lapses."""
    room, ana, bruno = two_humans(make_user, clock(), preset="duelo")
    services.match_start(room=room, actor=ana, now=clock())
    hand = current(room).engine().hand(1)
    away_for_two_minutes(room, 1, clock)  # two minutes away: a bot stands in
    assert seat(room, 1).substitute_reason == "away"
    carla = make_user("carla")
    reserved = services.seat_take(room=room, index=1, user=carla, now=clock())
    assert reserved.reserved_user == carla
    if how == "reconnecting":
        services.seat_connected(room=room, index=1, channel_name="c1b", now=clock.tick(5))
    else:
        services.seat_take(room=room, index=1, user=bruno.user, now=clock.tick(5))
    back = seat(room, 1)
    assert back.active_human and back.user == bruno.user and not back.leaving
    assert not back.is_reserved
    assert current(room).engine().hand(1) == hand or Move.objects.filter(seat=1).exists()
    play_round(room, clock())
    after = seat(room, 1)
    assert after.kind == "human" and after.user == bruno.user, after
    assert not after.is_reserved


def test_host_transfers_to_the_longest_seated_human(make_user, clock):
    ana = make_user("ana")
    room = services.room_create(user=ana, name="x", preset="parceria", now=clock())
    services.seat_take(room=room, index=3, user=make_user("dora"), now=clock.tick(10))
    services.seat_take(room=room, index=1, user=make_user("bruno"), now=clock.tick(10))
    services.seat_leave(room=room, index=0, actor=seat(room, 0), now=clock.tick(10))
    assert fresh(room).host_seat == 3  # dora sat before bruno


def test_host_transfer_during_a_round(make_user, clock):
    room, ana, bruno = two_humans(make_user, clock(), preset="duelo")
    services.match_start(room=room, actor=ana, now=clock())
    services.seat_leave(room=room, index=0, actor=ana, now=clock())
    assert fresh(room).host_seat == 1


def test_scores_stay_with_the_sides_when_people_change_between_rounds(make_user, clock):
    room, ana, bruno = two_humans(make_user, clock(), preset="parceria")
    services.bot_add(room=room, actor=ana, index=2, level="easy")
    services.bot_add(room=room, actor=ana, index=3, level="easy")
    services.match_start(room=room, actor=ana, now=clock())
    rnd = play_round(room, clock())
    scores = current(room).match.scores
    assert sum(scores) > 0 or rnd.result["winner"] is None
    services.seat_leave(room=room, index=1, actor=bruno, now=clock())
    services.seat_take(room=room, index=1, user=make_user("carla"), now=clock())
    services.round_next(room=room, actor=seat(room, 0), now=clock())
    new = current(room)
    assert new.number == 2 and new.match_id == rnd.match_id
    assert new.match.scores == scores
    assert new.players[1]["name"] == "carla"


# ---------------------------------------------------------------------- rounds


def test_next_round_is_the_hosts_button_in_parceria(make_user, clock):
    room, ana, bruno = two_humans(make_user, clock(), preset="parceria")
    services.bot_add(room=room, actor=ana, index=2, level="easy")
    services.bot_add(room=room, actor=ana, index=3, level="easy")
    first = services.match_start(room=room, actor=ana, now=clock())
    bad_message("wrong_phase", services.round_next, room=room, actor=ana)
    play_round(room, clock())
    refused("not_host", services.round_next, room=room, actor=bruno)
    bad_message("wrong_phase", services.player_ready, room=room, actor=bruno)
    second = services.round_next(room=room, actor=ana, now=clock())
    assert second.number == 2
    assert second.engine().opener == (first.engine().opener + 1) % 4  # rotate
    assert second.engine().mandatory_tile is None


def test_next_round_waits_for_every_human_to_be_ready(make_user, clock):
    room, ana, bruno = two_humans(make_user, clock(), preset="com_monte")
    services.match_start(room=room, actor=ana, now=clock())
    play_round(room, clock())
    bad_message("wrong_phase", services.round_next, room=room, actor=ana)
    services.player_ready(room=room, actor=ana, now=clock())
    assert fresh(room).status == "between_rounds" and seat(room, 0).ready
    services.player_ready(room=room, actor=bruno, now=clock())
    assert fresh(room).status == "playing" and current(room).number == 2
    assert not seat(room, 0).ready and not seat(room, 1).ready


def test_new_match_resets_scores_and_opens_as_a_first_round(make_user, clock):
    room = room_with_bots(make_user("ana"), clock(), preset="duelo")
    host = seat(room, 0)
    services.match_start(room=room, actor=host, now=clock())
    play_round(room, clock())
    match = current(room).match
    assert match.over  # duelo: one round
    rnd = services.match_new(room=room, actor=host, now=clock())
    assert rnd.match.number == 2 and rnd.number == 1
    assert rnd.match.scores == [0, 0]
    assert rnd.engine().first_of_match
    assert Match.objects.filter(room=room).count() == 2


def test_a_move_or_start_in_the_wrong_phase_changes_nothing(make_user, clock):
    room, ana, _ = two_humans(make_user, clock())
    version = fresh(room).version
    refused("round_over", human_move_refused, room=room)
    refused("bad_message", services.round_next, room=room, actor=ana)
    assert fresh(room).version == version


def human_move_refused(room):
    action_apply(room=room, seat_index=0, action={"type": "pass"}, version=None)


# ---------------------------------------------------------------------- pause


def test_pause_keeps_the_remaining_time_and_resume_continues_from_it(make_user, clock):
    room, ana, bruno = two_humans(make_user, clock(), move_seconds=30)
    services.match_start(room=room, actor=ana, now=clock())
    rnd = current(room)
    assert rnd.due_kind == "clock" and rnd.due_at == clock.now + _s(30)
    services.room_pause(room=room, actor=ana, now=clock.tick(10))
    paused = current(room)
    assert fresh(room).paused and paused.due_at is None and paused.remaining_ms == 20_000
    # Nothing fires and nobody moves while paused.
    assert not fire_due(room, clock.tick(100))
    refused("paused", human_move_refused_at, room=room, index=rnd.engine().turn)
    services.room_resume(room=room, actor=ana, now=clock.tick(5))
    resumed = current(room)
    assert resumed.due_at == clock.now + _s(20) and resumed.remaining_ms is None
    assert not fresh(room).paused


def test_pause_freezes_the_bots(make_user, clock, settings):
    settings.BOT_DELAY_SECONDS = 2
    room = room_with_bots(make_user("ana"), clock(), preset="duelo")
    host = seat(room, 0)
    services.match_start(room=room, actor=host, now=clock())
    if current(room).engine().turn == 0:
        human_move(room, 0, clock())
    assert current(room).due_kind == "bot"
    services.room_pause(room=room, actor=host, now=clock.tick(1))
    assert current(room).remaining_ms == 1000
    refused("not_seated", services.room_resume, room=room, actor=Seat(pk=-1, index=1))
    services.room_resume(room=room, actor=host, now=clock.tick(60))
    assert current(room).due_at == clock.now + _s(1)


def test_pausing_a_paused_room_or_resuming_a_running_one_is_refused(make_user, clock):
    """Every socket message is answered (hostile input): a pause or a
    resume that would change nothing is refused, with the room unchanged."""
    room, ana, bruno = two_humans(make_user, clock(), move_seconds=30)
    services.match_start(room=room, actor=ana, now=clock())
    version = fresh(room).version
    bad_message("not_paused", services.room_resume, room=room, actor=ana)
    assert fresh(room).version == version
    services.room_pause(room=room, actor=ana, now=clock.tick(10))
    version = fresh(room).version
    refused("paused", services.room_pause, room=room, actor=ana, now=clock.tick(1))
    assert fresh(room).version == version and current(room).remaining_ms == 20_000


def human_move_refused_at(room, index):
    rnd = current(room)
    action = rnd.engine().legal_actions(index)[0].to_dict()
    action_apply(room=room, seat_index=index, action=action, version=fresh(room).version)


def _s(seconds: float):
    from datetime import timedelta

    return timedelta(seconds=seconds)


# ---------------------------------------------------------------------- settings


def test_settings_between_rounds_only(make_user, clock):
    room, ana, bruno = two_humans(make_user, clock(), preset="com_monte")
    refused("not_host", services.room_settings, room=room, actor=bruno, move_seconds=30)
    services.room_settings(room=room, actor=ana, move_seconds=30, options={"target": 150})
    room = fresh(room)
    assert room.move_seconds == 30 and room.ruleset.target == 150
    services.match_start(room=room, actor=ana, now=clock())
    bad_message("wrong_phase", services.room_settings, room=room, actor=ana, move_seconds=10)
    play_round(room, clock())
    services.room_settings(room=room, actor=ana, move_seconds=None)
    assert fresh(room).move_seconds is None
    bad_message(
        "match_in_progress", services.room_settings, room=room, actor=ana, options={"target": 200}
    )


def test_settings_can_change_the_seat_count_between_matches(make_user, clock):
    ana = make_user("ana")
    room = services.room_create(user=ana, name="x", preset="com_monte", now=clock())
    host = seat(room, 0)
    services.room_settings(room=room, actor=host, options={"seats": 3})
    assert Seat.objects.filter(room=room).count() == 3
    assert fresh(room).ruleset.hand_size == 5
    services.seat_take(room=room, index=2, user=make_user(), now=clock())
    bad_message(
        "seats_occupied", services.room_settings, room=room, actor=host, options={"seats": 2}
    )
    error = refused(
        "bad_message", services.room_settings, room=room, actor=host, options={"seats": 9}
    )
    assert error.reason == "invalid_rules" and error.field == "seats"


# ---------------------------------------------------------------------- annulment


def test_annulment_needs_every_human_and_bots_do_not_vote(make_user, clock):
    room, ana, bruno = two_humans(make_user, clock(), preset="parceria")
    services.bot_add(room=room, actor=ana, index=2, level="easy")
    services.bot_add(room=room, actor=ana, index=3, level="easy")
    services.match_start(room=room, actor=ana, now=clock())
    assert services.annul_vote(room=room, actor=ana, now=clock()) is False
    assert room_selectors.room_state(room=fresh(room), viewer=None)["match"]["annul_votes"] == [0]
    assert not current(room).match.over
    assert services.annul_vote(room=room, actor=bruno, now=clock()) is True
    rnd = current(room)
    assert rnd.match.annulled and rnd.match.over and rnd.match.winner is None
    assert rnd.finished_at is not None and rnd.due_at is None
    assert fresh(room).status == "between_rounds"
    bad_message("wrong_phase", services.annul_vote, room=room, actor=ana)
    services.match_new(room=room, actor=ana, now=clock())  # the table goes on


# ---------------------------------------------------------------------- arena


def test_arena_human_who_does_not_confirm_in_60s_loses_by_walkover(make_user, clock):
    room = room_with_bots(make_user("ana"), clock(), preset="arena")
    services.match_start(room=room, actor=seat(room, 0), now=clock())
    rnd = play_round(room, clock())
    if current(room).match.over:  # pragma: no cover - best of five never ends in one round
        pytest.fail("arena ended after one round")
    rnd = current(room)
    assert rnd.due_kind == "walkover" and rnd.due_at == clock.now + _s(60)
    assert not fire_due(room, clock.tick(59))
    assert fire_due(room, clock.tick(1))
    match = current(room).match
    assert match.over and match.ended_by == "walkover" and match.winner == 1


def test_arena_confirming_in_time_deals_the_next_round(make_user, clock):
    room = room_with_bots(make_user("ana"), clock(), preset="arena")
    services.match_start(room=room, actor=seat(room, 0), now=clock())
    play_round(room, clock())
    services.player_ready(room=room, actor=seat(room, 0), now=clock.tick(30))
    assert current(room).number == 2 and current(room).due_kind != "walkover"
    assert not current(room).match.over


def test_arena_abandoning_loses_the_series(make_user, clock):
    room, ana, bruno = two_humans(make_user, clock(), preset="arena")
    services.match_start(room=room, actor=ana, now=clock())
    services.seat_leave(room=room, index=1, actor=bruno, now=clock())
    rnd = current(room)
    assert rnd.match.over and rnd.match.winner == 0 and rnd.match.ended_by == "walkover"
    assert fresh(room).status == "between_rounds"
    assert seat(room, 1).kind == "empty"


def test_close_room(make_user, clock):
    room = room_with_bots(make_user("ana"), clock(), preset="duelo")
    services.match_start(room=room, actor=seat(room, 0), now=clock())
    services.room_close(room=room, reason="admin", now=clock())
    room = fresh(room)
    assert room.status == "closed" and room.close_reason == "admin" and room.closed_at
    assert current(room).due_at is None
    refused("room_closed", services.seat_take, room=room, index=1, user=make_user())
    assert Round.objects.filter(room=room).exists()  # history kept


def test_sitting_from_an_open_socket_connects_the_seat(make_user, clock):
    ana = make_user("ana")
    room = services.room_create(user=ana, name="x", preset="duelo", now=clock())
    taken = services.seat_take(
        room=room, index=1, user=make_user("bruno"), channel_name="sock-9", now=clock()
    )
    assert taken.connected and taken.channel_name == "sock-9"
    assert fresh(room).no_humans_since is None


def test_layout_adjust_is_for_the_seat_to_act(make_user, clock):
    room, ana, bruno = two_humans(make_user, clock())
    services.match_start(room=room, actor=ana, now=clock())
    turn = current(room).engine().turn
    human_move(room, turn, clock())
    actor, other = (bruno, ana) if turn == 0 else (ana, bruno)
    refused("not_your_turn", services.layout_adjust, room=room, actor=other, at=0, bend="left")
    bad_message("bad_layout", services.layout_adjust, room=room, actor=actor, at=5, bend="left")
    # Never at the first tile (the variants site; more in tests/site/test_layout_adjust.py).
    bad_message("bad_layout", services.layout_adjust, room=room, actor=actor, at=0, bend="left")
    services.layout_adjust(room=room, actor=actor, at=0, bend="straight")
    assert current(room).layout == {}
    assert Move.objects.count() == 1  # not a move


def test_changing_a_bots_level_mid_round_keeps_its_hand_and_the_chain(make_user, clock):
    room = room_with_bots(make_user("ana"), clock(), preset="parceria", level="easy")
    host = seat(room, 0)
    services.match_start(room=room, actor=host, now=clock())
    for _ in range(3):
        rnd = current(room)
        if rnd.due_kind == "bot":
            fire_due(room, clock())
        else:
            human_move(room, 0, clock())
    before = current(room).engine()
    services.bot_set_level(room=room, actor=host, index=2, level="hard", now=clock())
    after = current(room).engine()
    assert after.hand(2) == before.hand(2) and after.chain == before.chain
    assert seat(room, 2).bot_level == "hard"


def test_at_two_seats_the_creator_may_restart_alone_against_the_computer(make_user, clock):
    room, ana, bruno = two_humans(make_user, clock(), preset="com_monte")
    services.match_start(room=room, actor=ana, now=clock())
    play_round(room, clock())
    first = current(room).match
    assert not first.over
    bad_message("not_alone", services.match_start, room=room, actor=ana, alone=True)
    services.seat_leave(room=room, index=1, actor=bruno, now=clock())
    rnd = services.match_start(room=room, actor=ana, alone=True, now=clock())
    assert seat(room, 1).kind == "bot" and seat(room, 1).bot_level == "medium"
    assert rnd.match.number == 2 and rnd.match.scores == [0, 0]
    first.refresh_from_db()
    assert first.over and first.ended_by == "restart" and first.winner is None
    assert first.annulled  # an unfinished match counts for nobody
