"""The address behind a connection and the keyed hash a seat keeps of it
(domino_site.client_ip): X-Forwarded-For is believed only from TRUSTED_PROXIES,
and only its rightmost entries (what our own proxies appended)."""

from __future__ import annotations

import pytest
from django.test import RequestFactory

from domino_site.client_ip import client_ip, ip_hash, resolve, scope_client_ip

pytestmark = pytest.mark.django_db


@pytest.fixture
def proxies(settings):
    settings.TRUSTED_PROXIES = ["10.0.0.5", "10.1.0.0/16"]
    return settings


def test_without_trusted_proxies_the_connection_is_the_client(settings):
    settings.TRUSTED_PROXIES = []
    assert resolve("198.51.100.9", ["1.2.3.4"]) == "198.51.100.9"


def test_a_trusted_proxy_forwards_the_client(proxies):
    assert resolve("10.0.0.5", ["198.51.100.9"]) == "198.51.100.9"
    # Through two of our proxies: skip them from the right.
    assert resolve("10.0.0.5", ["198.51.100.9, 10.1.2.3"]) == "198.51.100.9"


def test_a_forged_leftmost_entry_is_not_believed(proxies):
    # The client sent "X-Forwarded-For: 203.0.113.66"; nginx appended its peer.
    assert resolve("10.0.0.5", ["203.0.113.66, 198.51.100.9"]) == "198.51.100.9"


def test_a_client_talking_straight_to_the_server_cannot_forge_it(proxies):
    assert resolve("198.51.100.9", ["203.0.113.66"]) == "198.51.100.9"


def test_garbage_stops_the_walk(proxies):
    assert resolve("10.0.0.5", ["not-an-address"]) == "10.0.0.5"
    assert resolve("10.0.0.5", []) == "10.0.0.5"
    assert resolve(None, ["1.2.3.4"]) is None


def test_http_requests_and_socket_scopes_resolve_alike(proxies):
    request = RequestFactory().get(
        "/", REMOTE_ADDR="10.0.0.5", HTTP_X_FORWARDED_FOR="203.0.113.66, 198.51.100.9"
    )
    scope = {
        "client": ["10.0.0.5", 51000],
        "headers": [(b"x-forwarded-for", b"203.0.113.66, 198.51.100.9")],
    }
    assert client_ip(request) == scope_client_ip(scope) == "198.51.100.9"
    assert scope_client_ip({"client": None, "headers": []}) is None


def test_the_hash_is_keyed_and_never_the_address(settings):
    one = ip_hash("198.51.100.9")
    assert len(one) == 64 and "198" not in one
    assert ip_hash("198.51.100.9") == one != ip_hash("198.51.100.10")
    assert ip_hash("::ffff:198.51.100.9") == one  # IPv4 mapped into IPv6
    assert ip_hash("2001:db8:1:2::1") == ip_hash("2001:db8:1:2:ffff::1")  # one /64
    assert ip_hash("2001:db8:1:3::1") != ip_hash("2001:db8:1:2::1")
    assert ip_hash(None) == ip_hash("nonsense") == ""
    settings.SECRET_KEY = "another-key-" + "x" * 50
    assert ip_hash("198.51.100.9") != one
