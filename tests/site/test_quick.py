import pytest

from rooms import services
from tests.site.helpers import current, fresh, play_round, room_with_bots, seat

pytestmark = pytest.mark.django_db


def test_a_round_plays_to_the_end(make_user, clock):
    room = room_with_bots(make_user(), clock())
    services.match_start(room=room, actor=seat(room, 0), now=clock())
    rnd = play_round(room, clock())
    assert rnd.result is not None
    assert fresh(room).status == "between_rounds"
    assert current(room).match.scores
