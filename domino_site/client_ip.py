"""The address a person connects from, and the keyed hash the site keeps of it.

The same-address rule of rated tables (docs/site.md, "Accounts, records, ranking") needs to know
whether two seated accounts connect from one address, never the address itself:
a seat keeps `ip_hash(address)` only, an HMAC-SHA256 keyed with ``SECRET_KEY``
(an address is a small space: a plain hash could be reversed by trying them all).
IPv6 addresses count by their /64 network (one household or phone line gets a
whole /64, and a device may change addresses inside it at will); an IPv4 address
mapped into IPv6 counts as that IPv4 address.

Where the address comes from: the connection's peer (``REMOTE_ADDR`` for a page,
the socket scope's ``client`` for a WebSocket). Behind a reverse proxy that peer
is the proxy, so when, and only when, the peer is one of ``TRUSTED_PROXIES``
(addresses or networks) the client is read from ``X-Forwarded-For``: the rightmost
entry that is not itself a trusted proxy (every proxy appends the address it saw;
entries to the left of ours are whatever the client sent, and may be forged).

Daphne's ``--proxy-headers`` is therefore NOT used: it replaces the peer with the
*leftmost* ``X-Forwarded-For`` entry, from any peer, which a client sets at will
(nginx's ``$proxy_add_x_forwarded_for`` appends to what the client sent), and
the real peer is then lost, so a trusted proxy could not be told from anyone.
The same resolution serves the login throttle (``AXES_CLIENT_IP_CALLABLE``).
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from django.conf import settings

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def _parse(value: Any) -> Address | None:
    if not isinstance(value, str):
        return None
    text = value.strip()
    if text.startswith("[") and "]" in text:  # "[::1]:443"
        text = text[1 : text.index("]")]
    elif text.count(":") == 1:  # "1.2.3.4:5678"
        text = text.split(":", 1)[0]
    try:
        address = ipaddress.ip_address(text.split("%", 1)[0])
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def parse_address(value: Any) -> Address | None:
    """An address as a header or a scope gives it ("1.2.3.4", "1.2.3.4:5678",
    "[::1]:443", an IPv4-mapped IPv6 address as its IPv4 one), or None."""
    return _parse(value)


@lru_cache(maxsize=8)
def _networks(entries: tuple[str, ...]) -> tuple[Network, ...]:
    networks = []
    for entry in entries:
        try:
            networks.append(ipaddress.ip_network(entry.strip(), strict=False))
        except ValueError:
            continue
    return tuple(networks)


def trusted_proxies() -> tuple[Network, ...]:
    return _networks(tuple(getattr(settings, "TRUSTED_PROXIES", ()) or ()))


def _trusted(address: Address, proxies: tuple[Network, ...]) -> bool:
    return any(address.version == net.version and address in net for net in proxies)


def from_trusted_proxy(peer: Any) -> bool:
    """Whether the connection's ``peer`` is one of ``TRUSTED_PROXIES`` (whose
    headers, ``X-Forwarded-For`` or ``X-Request-ID``, are believed)."""
    address = _parse(peer)
    return address is not None and _trusted(address, trusted_proxies())


def resolve(peer: Any, forwarded_for: Iterable[str] = ()) -> str | None:
    """The client's address from the connection's ``peer`` and the values of its
    ``X-Forwarded-For`` headers (read only when the peer is a trusted proxy)."""
    address = _parse(peer)
    if address is None:
        return None
    proxies = trusted_proxies()
    if not _trusted(address, proxies):
        return str(address)
    hops = [part for value in forwarded_for for part in value.split(",") if part.strip()]
    for hop in reversed(hops):
        seen = _parse(hop)
        if seen is None:  # garbage: nothing to its left can be believed either
            break
        address = seen
        if not _trusted(seen, proxies):
            break
    return str(address)


def client_ip(request: Any) -> str | None:
    """The address of the person behind an HTTP ``request`` (also django-axes')."""
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR")
    return resolve(request.META.get("REMOTE_ADDR"), [forwarded] if forwarded else [])


def scope_client_ip(scope: dict[str, Any]) -> str | None:
    """The address of the person behind an ASGI (WebSocket) ``scope``."""
    client = scope.get("client") or (None,)
    forwarded = [
        value.decode("latin-1")
        for name, value in scope.get("headers") or ()
        if name.lower() == b"x-forwarded-for"
    ]
    return resolve(client[0], forwarded)


def ip_hash(address: str | None) -> str:
    """The keyed hash a seat keeps of ``address`` ("" when it is unknown)."""
    parsed = _parse(address)
    if parsed is None:
        return ""
    if isinstance(parsed, ipaddress.IPv6Address):
        key = str(ipaddress.IPv6Network(f"{parsed}/64", strict=False).network_address) + "/64"
    else:
        key = str(parsed)
    digest = hmac.new(settings.SECRET_KEY.encode(), f"domino.ip:{key}".encode(), hashlib.sha256)
    return digest.hexdigest()


def request_ip_hash(request: Any) -> str:
    return ip_hash(client_ip(request))


def scope_ip_hash(scope: dict[str, Any]) -> str:
    return ip_hash(scope_client_ip(scope))
