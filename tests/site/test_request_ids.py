"""A request's id (docs/scaling.md, "Logs"): a trusted proxy's ``X-Request-ID``
is kept, anyone else's is replaced by a new one, and the response answers the
id its log lines carry."""

from __future__ import annotations

import uuid

import pytest


def _is_uuid(value: str) -> bool:
    try:
        return str(uuid.UUID(value)) == value
    except ValueError:
        return False


@pytest.mark.django_db
def test_a_trusted_proxys_request_id_is_kept(client, settings):
    settings.TRUSTED_PROXIES = ["127.0.0.1"]  # the test client's REMOTE_ADDR
    response = client.get("/healthz", HTTP_X_REQUEST_ID="a1b2c3d4e5f60718293a4b5c6d7e8f90")
    assert response["X-Request-ID"] == "a1b2c3d4e5f60718293a4b5c6d7e8f90"


@pytest.mark.django_db
@pytest.mark.parametrize(
    "trusted, sent",
    [
        ([], "from-anyone-42"),  # not a trusted proxy: a client writes what it likes
        (["127.0.0.1"], "ana@example.com"),  # not a plain token
        (["127.0.0.1"], "x" * 65),  # too long
    ],
)
def test_any_other_request_id_is_replaced(client, settings, trusted, sent):
    settings.TRUSTED_PROXIES = trusted
    response = client.get("/healthz", HTTP_X_REQUEST_ID=sent)
    assert response["X-Request-ID"] != sent and _is_uuid(response["X-Request-ID"])


@pytest.mark.django_db
def test_each_request_gets_its_own_id(client):
    ids = {client.get("/healthz")["X-Request-ID"] for _ in range(3)}
    assert len(ids) == 3 and all(_is_uuid(i) for i in ids)
