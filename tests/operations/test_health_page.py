"""The admin's "Saúde do site" (operations.views.health): linked from the admin's
index, open to staff with a second factor only, and it shows what the site is
doing: tables playing, people at tables, clocks late, the last sweep."""

from datetime import timedelta

import pytest
from django.utils import timezone

from domino_site.heartbeats import sweep_done
from games.models import Round
from rooms import services
from rooms.models import Room, Seat
from tests.staff import sign_in_verified

pytestmark = pytest.mark.django_db

PAGE = "/admin/saude/"


def _reading(html: str, name: str) -> str:
    marker = f'data-reading="{name}">'
    start = html.index(marker) + len(marker)
    return html[start : html.index("<", start)].strip()


def _playing_table_with_a_late_clock(user) -> Room:
    room = services.room_create(user=user, name="Mesa", preset="parceria", move_seconds=60)
    host = Seat.objects.get(room=room, index=0)
    for index in (1, 2, 3):
        services.bot_add(room=room, actor=host, index=index, level="easy")
    services.match_start(room=room, actor=host)
    Seat.objects.filter(room=room, index=0).update(connected=True, channel_name="specific.x!y")
    rnd = Round.objects.filter(room=room).order_by("-id").first()
    Round.objects.filter(pk=rnd.pk).update(
        due_at=timezone.now() - timedelta(seconds=42), due_kind=Round.DueKind.CLOCK
    )
    return room


def test_staff_with_a_second_factor_read_the_site_health(client, admin_user, django_user_model):
    _playing_table_with_a_late_clock(django_user_model.objects.create_user("ana", password="x"))
    sweep_done()
    sign_in_verified(client, admin_user)
    index = client.get("/admin/").content.decode()
    assert f'href="{PAGE}"' in index
    assert "Saúde do site" in index
    response = client.get(PAGE)
    assert response.status_code == 200
    html = response.content.decode()
    assert "<h1>Saúde do site</h1>" in html
    assert '<meta http-equiv="refresh"' in html
    assert _reading(html, "tables-playing") == "1"
    assert _reading(html, "seats-connected") == "1"
    assert _reading(html, "clocks-late") == "1"
    late = float(_reading(html, "clocks-late-max").split()[0].replace(",", "."))
    assert late >= 42
    assert _reading(html, "last-sweep").startswith("há ")
    assert "Mesas jogando" in html and "Relógios atrasados" in html


def test_nobody_else_reads_it(client, django_user_model, admin_user):
    anonymous = client.get(PAGE)
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/admin/login/")
    ana = django_user_model.objects.create_user("ana", password="x")
    client.force_login(ana)  # not staff
    answer = client.get(PAGE)
    assert answer.status_code == 302 and answer["Location"].startswith("/admin/login/")
    client.force_login(admin_user)  # staff, without the second factor (DEBUG is off)
    answer = client.get(PAGE)
    assert answer.status_code == 302 and answer["Location"].startswith("/admin/login/")
    assert b"Mesas jogando" not in answer.content
