"""What domino_site.infra.channels_redis relies on in channels-redis: each
test fails when that behaviour changes (no Redis server needed)."""

from __future__ import annotations

import pytest
import redis.asyncio
from channels_redis.core import RedisChannelLayer

from domino_site.infra import channels_redis

HOST = {"address": "redis://127.0.0.1:6379/15", "socket_timeout": 15}


async def test_a_sockets_channel_name_carries_its_process_prefix():
    layer = RedisChannelLayer(hosts=[HOST])
    name = await layer.new_channel()
    prefix = channels_redis.process_prefix(layer)
    assert prefix and name.startswith(f"specific.{prefix}!")
    assert channels_redis.process_of(name) == prefix


async def test_two_layers_two_processes():
    one, two = RedisChannelLayer(hosts=[HOST]), RedisChannelLayer(hosts=[HOST])
    assert channels_redis.process_of(await one.new_channel()) != channels_redis.process_of(
        await two.new_channel()
    )


@pytest.mark.parametrize("name", ["", "lobby", "room.ABC", "specific.abc"])
def test_other_names_belong_to_no_process(name):
    assert channels_redis.process_of(name) is None


def test_a_layer_without_a_prefix_has_no_process():
    assert channels_redis.process_prefix(object()) is None


async def test_the_layers_client_is_an_asyncio_redis_client_of_its_first_host():
    layer = RedisChannelLayer(hosts=[HOST])
    client = channels_redis.layer_client(layer)
    assert isinstance(client, redis.asyncio.Redis)
    kwargs = client.connection_pool.connection_kwargs
    assert kwargs["db"] == 15 and kwargs["socket_timeout"] == 15
    await client.aclose()


def test_the_hosts_setting_becomes_connection_arguments():
    assert channels_redis.first_host({"hosts": [HOST]}) == HOST
    assert channels_redis.first_host({"hosts": ["redis://h:1/2"]}) == {"address": "redis://h:1/2"}
