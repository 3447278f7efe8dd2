"""Text that is not valid Unicode on the table socket: a lone surrogate in the
room settings (the knobs and their values) or in the client's ref is refused
with an error, and the room is unchanged."""

import pytest
from asgiref.sync import sync_to_async

from rooms import services
from rooms.models import Room
from tests.realtime.conftest import Player, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

SURROGATE = "\ud800"


def _room(pk):
    room = Room.objects.get(pk=pk)
    return room.version, room.options, room.rules, room.move_seconds


@pytest.mark.parametrize(
    "settings_message",
    [
        {"scoring": SURROGATE},
        {"options": {SURROGATE: 1}},
        {"options": {"target": SURROGATE}},
        {"move_seconds": SURROGATE},
    ],
)
async def test_a_surrogate_in_the_settings_is_refused(live, django_user_model, settings_message):
    ana = await sync_to_async(django_user_model.objects.create_user)("ana", password="x")
    room = await sync_to_async(services.room_create)(user=ana, name="Mesa", preset="com_monte")
    host = await Player.table(room.code, await sync_to_async(session_cookie)(ana))
    before = await sync_to_async(_room)(room.pk)
    await host.send({"type": "settings", "ref": SURROGATE, **settings_message})
    error = await host.error()
    assert error["code"] == "bad_message"
    assert error["ref"] == SURROGATE  # echoed (JSON escapes it)
    assert await host.nothing()
    assert await sync_to_async(_room)(room.pk) == before
    # the socket still works
    await host.send({"type": "settings", "move_seconds": 45})
    await host.until(lambda s: s["room"]["move_seconds"] == 45)
    await host.close()
