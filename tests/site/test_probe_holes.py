"""Holes an attacker's probe found over HTTP (docs/rated-play.md, "Holes"):
deeply nested JSON, unlimited room creation, misleading names."""

from __future__ import annotations

import pytest

from rooms.models import Room

pytestmark = pytest.mark.django_db

NESTED = "[" * 5000 + "]" * 5000


@pytest.mark.parametrize("debug", [True, False])
def test_a_deeply_nested_json_body_is_a_bad_message(client, make_user, settings, debug):
    settings.DEBUG = debug
    client.raise_request_exception = False
    client.force_login(make_user("ana"))
    response = client.post("/rooms/", NESTED, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"] == "bad_message"
    assert not Room.objects.exists()
