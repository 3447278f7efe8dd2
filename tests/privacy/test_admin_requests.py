"""A person's data request carried out by staff (docs/site.md, "Your data
(LGPD)", "Written in"): staff enter the request in the admin (a copy or a
deletion) for someone who writes in, and carry it out with the admin's
action, which calls the same services as the site's pages and records who did
it and when. A request done already is refused and changes nothing."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from privacy.models import DataRequest
from tests.privacy.conftest import LEAVER
from tests.staff import sign_in_verified

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(django_user_model) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    sign_in_verified(
        client, django_user_model.objects.create_superuser("chefe", "c@example.com", "x")
    )
    return client


def _enter(staff: Client, user, kind: str) -> DataRequest:
    response = staff.post(
        "/admin/privacy/datarequest/add/",
        {
            "user": user.pk,
            "kind": kind,
            "note": "Escreveu para o suporte em 1/12",
            "requested_at_0": "2026-12-01",
            "requested_at_1": "10:00:00",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    return DataRequest.objects.get(user=user, kind=kind)


def _carry_out(staff: Client, request: DataRequest):
    return staff.post(
        "/admin/privacy/datarequest/",
        {"action": "carry_out", "_selected_action": [request.pk]},
    )


def test_staff_carry_out_a_written_in_deletion_and_it_is_recorded(played, staff):
    leaver = played["leaver"]
    request = _enter(staff, leaver, "deletion")
    assert request.source == "staff" and request.done_at is None
    response = _carry_out(staff, request)
    assert response.status_code == 302
    request.refresh_from_db()
    leaver.refresh_from_db()
    assert request.done_by.username == "chefe" and request.done_at is not None
    assert leaver.username.startswith("Jogador removido") and not leaver.is_active
    listing = staff.get("/admin/privacy/datarequest/").content.decode()
    assert "chefe" in listing and LEAVER not in listing

    again = _carry_out(staff, request)  # done already: refused, nothing changes
    assert again.status_code == 302
    done_at = request.done_at
    request.refresh_from_db()
    assert request.done_at == done_at
    assert "This request was carried out already." in staff.get(again["Location"]).content.decode()


def test_staff_carry_out_a_written_in_copy_and_get_its_file(played, staff):
    request = _enter(staff, played["leaver"], "export")
    response = _carry_out(staff, request)
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment")
    assert json.loads(response.content)["account"]["username"] == LEAVER
    request.refresh_from_db()
    assert request.done_by.username == "chefe" and request.done_at is not None
