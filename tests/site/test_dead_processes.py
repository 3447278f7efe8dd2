"""The sweeper releases the seats of a server process that died (Redis channel
layer, several Daphnes): its heartbeat key expired in Redis, so its sockets are
treated as closed, through ``seat_disconnected``. Seats of live processes stay,
whatever the service clock says; so does a seat bound less than a TTL ago."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from channels.layers import channel_layers

from domino_site.realtime import liveness
from games import services as games
from rooms import services
from rooms.services import sweep
from tests.site.helpers import current, fresh, human_move, room_with_bots, seat, two_humans
from tests.waiting import async_wait_for

pytestmark = pytest.mark.django_db

TTL = 5  # Redis must have been up that long (see liveness.dead_processes)


@pytest.fixture
def redis_layer(settings, redis_up_for_a_while):
    """The Redis layer of REDIS_URL, up for a while; makes live and dead processes."""
    assert liveness.enabled(), "REDIS_URL is set, so the channel layer is Redis"
    settings.DOMINO_ALIVE_TTL_SECONDS = TTL
    client = redis_up_for_a_while
    made: list[str] = []

    class Processes:
        def live(self) -> str:
            prefix = uuid.uuid4().hex
            client.set(liveness.KEY.format(prefix), "1", px=60_000)  # just beaten
            made.append(prefix)
            return prefix

        def dead(self) -> str:
            return uuid.uuid4().hex  # never beat (or its key expired)

        def die(self, prefix: str) -> None:
            client.delete(liveness.KEY.format(prefix))

    yield Processes()
    for prefix in made:
        client.delete(liveness.KEY.format(prefix))


def bind(room, index, prefix, now) -> str:
    channel = f"specific.{prefix}!{uuid.uuid4().hex}"
    services.seat_connected(room=room, index=index, channel_name=channel, now=now)
    return channel


def turn_of(room) -> list[int]:
    return games.acting_seats(current(room).engine())


@pytest.mark.redis
def test_the_seat_of_a_dead_process_is_disconnected_and_the_auto_move_follows(
    make_user, clock, redis_layer, monkeypatch
):
    room, *_ = two_humans(make_user, clock())  # duelo: no move clock
    services.match_start(room=room, actor=seat(room, 0), now=clock())
    live, dead = redis_layer.live(), redis_layer.dead()
    bind(room, 0, live, clock())
    gone = bind(room, 1, dead, clock())
    while turn_of(room) != [1]:  # seat 1 (of the dead process) is to move
        human_move(room, turn_of(room)[0], clock())
    assert current(room).due_kind is None  # connected: nobody moves for them
    calls = []
    real = services.seat_disconnected

    def spy(**kw):
        calls.append((kw["index"], kw["channel_name"]))
        return real(**kw)

    monkeypatch.setattr(sweep, "seat_disconnected", spy)  # as the sweeper calls it
    now = clock.tick(TTL + 1)
    assert services.rooms_sweep(now=now)["dead_sockets"] == 1
    assert calls == [(1, gone)]
    assert seat(room, 0).connected
    s1 = seat(room, 1)
    assert not s1.connected and s1.channel_name == "" and s1.disconnected_at == now
    rnd = current(room)
    assert rnd.due_kind == "auto" and now < rnd.due_at <= now + timedelta(seconds=30)
    assert services.rooms_sweep(now=clock.tick(1))["dead_sockets"] == 0  # idempotent


@pytest.mark.redis
def test_the_last_human_of_a_dead_process_pauses_the_room(make_user, clock, redis_layer):
    room = room_with_bots(make_user("ana"), clock(), preset="duelo")
    services.match_start(room=room, actor=seat(room, 0), now=clock())
    process = redis_layer.live()
    bind(room, 0, process, clock())
    assert services.rooms_sweep(now=clock.tick(TTL + 1))["dead_sockets"] == 0
    redis_layer.die(process)
    assert services.rooms_sweep(now=clock.tick(5))["dead_sockets"] == 1
    room = fresh(room)
    assert room.paused and room.paused_by == "empty" and current(room).due_at is None


@pytest.mark.redis
def test_a_live_process_keeps_its_seats_whatever_the_service_clock_says(
    make_user, clock, redis_layer
):
    room, *_ = two_humans(make_user, clock())
    services.match_start(room=room, actor=seat(room, 0), now=clock())
    bind(room, 0, redis_layer.live(), clock())
    bind(room, 1, redis_layer.live(), clock())
    assert services.rooms_sweep(now=clock.tick(24 * 3600))["dead_sockets"] == 0
    assert seat(room, 0).connected and seat(room, 1).connected


@pytest.mark.redis
def test_a_seat_bound_less_than_a_ttl_ago_is_left_alone(make_user, clock, redis_layer):
    room, *_ = two_humans(make_user, clock())
    services.match_start(room=room, actor=seat(room, 0), now=clock())
    bind(room, 0, redis_layer.live(), clock())
    bind(room, 1, redis_layer.dead(), clock())  # its process has not beaten yet
    assert services.rooms_sweep(now=clock.tick(TTL - 1))["dead_sockets"] == 0
    assert seat(room, 1).connected
    assert services.rooms_sweep(now=clock.tick(2))["dead_sockets"] == 1
    assert not seat(room, 1).connected


@pytest.mark.redis
def test_redis_that_lost_its_keys_judges_nobody_for_a_ttl(make_user, clock, redis_layer):
    # A Redis restarted without persistence (or flushed) has no key of any live
    # process until each beats again: that must not read as "everyone died".
    room, *_ = two_humans(make_user, clock())
    services.match_start(room=room, actor=seat(room, 0), now=clock())
    bind(room, 0, redis_layer.live(), clock())
    bind(room, 1, redis_layer.dead(), clock())
    liveness.heartbeat_client().delete(liveness.EPOCH_KEY)
    assert services.rooms_sweep(now=clock.tick(TTL + 1))["dead_sockets"] == 0
    assert liveness.heartbeat_client().get(liveness.EPOCH_KEY) is not None  # from now on
    assert seat(room, 1).connected


@pytest.mark.redis
def test_redis_restarted_less_than_a_ttl_ago_judges_nobody(make_user, clock, redis_layer, settings):
    # Restarted with persistence: the keys come back, but the live processes'
    # heartbeats from the snapshot have expired until each beats again.
    uptime = int(liveness.heartbeat_client().info("server")["uptime_in_seconds"])
    settings.DOMINO_ALIVE_TTL_SECONDS = uptime + 3600  # "up for less than a TTL"
    room, *_ = two_humans(make_user, clock())
    services.match_start(room=room, actor=seat(room, 0), now=clock())
    bind(room, 1, redis_layer.dead(), clock())
    assert services.rooms_sweep(now=clock.tick(uptime + 7200))["dead_sockets"] == 0
    assert seat(room, 1).connected


@pytest.mark.redis
def test_redis_not_answering_disconnects_nobody_and_the_sweep_goes_on(
    make_user, clock, redis_layer, settings
):
    room, *_ = two_humans(make_user, clock())
    services.match_start(room=room, actor=seat(room, 0), now=clock())
    bind(room, 1, redis_layer.dead(), clock())
    layer = settings.CHANNEL_LAYERS["default"]
    settings.CHANNEL_LAYERS = {
        "default": {**layer, "CONFIG": {"hosts": [{"address": "redis://127.0.0.1:1/0"}]}}
    }
    counts = services.rooms_sweep(now=clock.tick(TTL + 1))
    assert counts["dead_sockets"] == 0
    assert seat(room, 1).connected


def test_the_in_memory_layer_has_no_other_process_to_watch(make_user, clock, settings):
    # One process: it repairs its own seats at start-up (timers.ticker).
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    room, *_ = two_humans(make_user, clock())
    services.match_start(room=room, actor=seat(room, 0), now=clock())
    bind(room, 1, uuid.uuid4().hex, clock())
    assert services.rooms_sweep(now=clock.tick(3600))["dead_sockets"] == 0
    assert seat(room, 1).connected


def test_process_of_a_channel_name():
    assert liveness.process_of("specific.0123abcd!ef45") == "0123abcd"
    assert liveness.process_of("specific.inmemory!xyz") == "inmemory"
    assert liveness.process_of("chan-1") is None
    assert liveness.process_of("") is None


@pytest.mark.redis
async def test_the_heartbeat_keeps_this_process_key_with_the_ttl(settings):
    import redis

    settings.DOMINO_ALIVE_TTL_SECONDS = 30
    settings.DOMINO_ALIVE_BEAT_SECONDS = 0.05
    channel_layers.backends.clear()  # a layer of this test's loop
    heartbeat = liveness.Heartbeat()
    client = redis.Redis.from_url(liveness.heartbeat_host()["address"])
    try:
        heartbeat.ensure_started()
        await heartbeat.ready()
        prefix = channel_layers["default"].client_prefix
        key = liveness.KEY.format(prefix)
        assert heartbeat.beats >= 1 and 0 < client.pttl(key) <= 30_000
        beats = heartbeat.beats
        await async_wait_for(  # every beat_seconds
            lambda: heartbeat.beats > beats + 1, timeout=5, message="two more heartbeats"
        )
    finally:
        await heartbeat.stop()
        client.delete(liveness.KEY.format(channel_layers["default"].client_prefix))
        client.close()
        await channel_layers["default"].close_pools()
        channel_layers.backends.clear()
