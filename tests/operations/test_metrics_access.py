"""``/metrics`` answers this host and the token's bearer only (docs/scaling.md,
"Metrics"): a stranger, a stranger passed on by a proxy (trusted or not), a
wrong token get 403 and not one metric."""

import pytest
from django.test import Client

from tests.operations.scraping import parse

pytestmark = pytest.mark.django_db

STRANGER = "203.0.113.7"
TOKEN = "s3cr3t-metrics-token-for-the-test"


def _get(remote: str, **headers: str):
    return Client(REMOTE_ADDR=remote).get("/metrics", **headers)


def _refused(response) -> None:
    assert response.status_code == 403
    assert b"domino_" not in response.content
    assert b"# HELP" not in response.content


def test_this_host_gets_the_metrics_in_prometheus_text_format():
    for address in ("127.0.0.1", "::1", "127.0.0.2"):
        response = _get(address)
        assert response.status_code == 200, address
        assert response["Content-Type"].startswith("text/plain; version=")
        samples = parse(response.content.decode())
        names = {name for name, _labels in samples}
        assert "domino_tables_playing" in names
        assert "domino_move_seconds_count" in names


def test_another_address_without_the_token_is_refused(settings):
    settings.METRICS_TOKEN = TOKEN
    _refused(_get(STRANGER))
    _refused(_get(STRANGER, HTTP_AUTHORIZATION="Bearer wrong-token"))
    _refused(_get(STRANGER, HTTP_AUTHORIZATION=f"Basic {TOKEN}"))
    # A stranger naming this host in its own X-Forwarded-For is still a stranger.
    _refused(_get(STRANGER, HTTP_X_FORWARDED_FOR="127.0.0.1"))


def test_no_token_set_means_no_token_opens_it(settings):
    settings.METRICS_TOKEN = ""
    _refused(_get(STRANGER, HTTP_AUTHORIZATION="Bearer "))
    _refused(_get(STRANGER, HTTP_AUTHORIZATION="Bearer"))


def test_the_token_opens_it_from_anywhere(settings):
    settings.METRICS_TOKEN = TOKEN
    response = _get(STRANGER, HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
    assert response.status_code == 200
    assert b"domino_tables_playing" in response.content


def test_a_stranger_through_a_proxy_on_this_host_is_not_this_host(settings):
    settings.METRICS_TOKEN = TOKEN
    # A trusted proxy on loopback: the client is the forwarded address.
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    _refused(_get("127.0.0.1", HTTP_X_FORWARDED_FOR=STRANGER))
    _refused(_get("127.0.0.1", HTTP_X_FORWARDED_FOR=f"127.0.0.1, {STRANGER}"))
    # The same proxy not configured as trusted: the forwarded client still counts.
    settings.TRUSTED_PROXIES = []
    _refused(_get("127.0.0.1", HTTP_X_FORWARDED_FOR=STRANGER))
    _refused(_get("127.0.0.1", HTTP_X_REAL_IP=STRANGER))
    _refused(_get("127.0.0.1", HTTP_FORWARDED=f"for={STRANGER};proto=https"))
    # ... and its bearer of the token gets in.
    response = _get(
        "127.0.0.1", HTTP_X_FORWARDED_FOR=STRANGER, HTTP_AUTHORIZATION=f"Bearer {TOKEN}"
    )
    assert response.status_code == 200
    # A local client through the local proxy is this host.
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    assert _get("127.0.0.1", HTTP_X_FORWARDED_FOR="127.0.0.1").status_code == 200


@pytest.mark.postgres
def test_the_database_pool_in_use_is_sampled(client):
    from django.db import connection

    from domino_site import heartbeats

    with connection.cursor() as cursor:  # a connection lent by the process's pool
        cursor.execute("SELECT 1")
        heartbeats.sample_pools()  # (its thread does this every few seconds)
    samples = parse(client.get("/metrics").content.decode())
    assert samples[("domino_db_pool_connections", (("state", "max"),))] >= 1
    assert samples[("domino_db_pool_connections", (("state", "in_use"),))] >= 1
