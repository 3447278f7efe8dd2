"""A seeded random walk through the services: people sit, leave, connect and drop,
bots come and go, the host pauses, rounds are played, time passes and the
sweeper runs. After every step the room must still make sense."""

from __future__ import annotations

import random

import pytest

from games import services as games
from games.models import Round
from rooms import services
from rooms import services as room_services
from rooms.errors import ServiceError
from rooms.models import Room, Seat
from tests.site.helpers import current, fresh

pytestmark = pytest.mark.django_db

STEPS = 400


def check_invariants(room: Room) -> None:
    room = fresh(room)
    seats = list(Seat.objects.filter(room=room).order_by("index"))
    people = [(s.user_id, s.guest_token) for s in seats if s.is_human]
    assert len(people) == len(set(people)), "one seat per person"
    if room.host_seat is not None:
        host = seats[room.host_seat]
        assert host.active_human and not host.leaving, "the host plays their seat"
    assert sum(s.is_bot for s in seats) <= len(seats) - 1 or not any(s.is_human for s in seats)
    rnd = current(room)
    if rnd is None:
        return
    assert not Round.objects.filter(room=room, due_at__isnull=False).exclude(pk=rnd.pk).exists()
    if room.paused or room.is_closed:
        assert rnd.due_at is None, "nothing is due while paused or closed"
    if room.status == "playing":
        assert rnd.finished_at is None and all(not s.is_empty for s in seats)
        expected = room_services.compute_due(room, rnd, seats)
        assert (rnd.due_at, rnd.due_kind) == expected, "the stored due time is up to date"
    else:
        assert rnd.finished_at is not None or room.status == "closed"
    for s in seats:
        if s.substitute:
            assert s.is_human and s.bot_level and s.leaving
        if s.is_reserved:
            assert s.bot_plays and room.status == "playing"


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_random_walk_keeps_the_room_consistent(make_user, clock, seed):
    rng = random.Random(seed)
    users = [make_user(f"u{seed}_{i}") for i in range(5)]
    room = services.room_create(
        user=users[0], name="walk", preset=rng.choice(["parceria", "com_monte", "arena"]),
        move_seconds=rng.choice([None, 10]), visibility="private", now=clock(),
    )  # fmt: skip
    codes: dict[str, int] = {}

    def seat_of(user):
        return Seat.objects.filter(room=room, user=user, kind="human").first()

    def host():
        r = fresh(room)
        return Seat.objects.get(room=r, index=r.host_seat) if r.host_seat is not None else None

    def step() -> None:
        r = fresh(room)
        n = r.seat_count
        user = rng.choice(users)
        mine = seat_of(user)
        choice = rng.choices(range(12), weights=[8, 2, 8, 3, 6, 5, 6, 2, 6, 6, 1, 40])[0]
        if choice == 0:
            services.seat_take(
                room=r, index=rng.randrange(n), user=user, channel_name=f"c{rng.random()}",
                now=clock(),
            )  # fmt: skip
        elif choice == 1 and mine:
            services.seat_leave(room=r, index=mine.index, actor=mine, now=clock())
        elif choice == 2 and host():
            services.bot_add(
                room=r, actor=host(), index=rng.randrange(n), level="easy", now=clock()
            )
        elif choice == 3 and host():
            services.bot_remove(room=r, actor=host(), index=rng.randrange(n), now=clock())
        elif choice == 4 and host():
            services.match_start(room=r, actor=host(), now=clock())
        elif choice == 5 and host():
            services.round_next(room=r, actor=host(), now=clock())
        elif choice == 6 and mine:
            services.player_ready(room=r, actor=mine, now=clock())
        elif choice == 7 and host():
            (services.room_pause if not r.paused else services.room_resume)(
                room=r, actor=host(), now=clock()
            )
        elif choice == 8 and mine:
            if mine.connected:
                services.seat_disconnected(
                    room=r, index=mine.index, channel_name=mine.channel_name, now=clock()
                )
            else:
                services.seat_connected(
                    room=r, index=mine.index, channel_name=f"c{rng.random()}", now=clock()
                )
        elif choice == 9:
            clock.tick(rng.choice([1, 1, 5, 5, 31, 61, 125]))
            services.rooms_sweep(now=clock())
        elif choice == 10 and mine:
            services.annul_vote(room=r, actor=mine, now=clock())
        else:  # play: whoever must act
            rnd = current(r)
            if rnd is None or rnd.finished_at is not None:
                return
            acting = games.acting_seats(rnd.engine())
            seats = list(Seat.objects.filter(room=r).order_by("index"))
            humans = [i for i in acting if seats[i].active_human]
            if humans and rng.random() < 0.8:
                i = humans[0]
                action = rng.choice(rnd.engine().legal_actions(i)).to_dict()
                room_services.action_apply(
                    room=r, seat_index=i, action=action, version=r.version, now=clock()
                )
            elif rnd.due_at is not None:
                clock.now = max(clock.now, rnd.due_at)
                room_services.round_due_fire(round_id=rnd.pk, version=rnd.version, now=clock())

    steps = 0
    for steps in range(1, STEPS + 1):  # noqa: B007 - reported below
        try:
            step()
        except ServiceError as exc:
            codes[exc.code] = codes.get(exc.code, 0) + 1
        check_invariants(room)
        if fresh(room).is_closed:
            break
    rounds = Round.objects.filter(room=room)
    print(
        f"\nseed {seed}: {steps} steps, {rounds.count()} rounds,"
        f" {sum(r.moves.count() for r in rounds)} moves, refusals {codes}, {fresh(room).status}"
    )
    assert rounds.exists()
