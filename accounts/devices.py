"""What the Conta page shows of a session: the device, from its User-Agent
(a browser and a system, no version), and the client address masked (an IPv4
address's last part, an IPv6 address past its first three groups): enough to
tell one's phone from a stranger's, not an address to keep."""

from __future__ import annotations

import ipaddress

BROWSERS = (
    ("Edg/", "Edge"),
    ("OPR/", "Opera"),
    ("Opera", "Opera"),
    ("SamsungBrowser", "Samsung Internet"),
    ("Firefox/", "Firefox"),
    ("FxiOS", "Firefox"),
    ("CriOS", "Chrome"),
    ("Chrome/", "Chrome"),
    ("Chromium/", "Chromium"),
    ("Safari/", "Safari"),
)
SYSTEMS = (
    ("Android", "Android"),
    ("iPhone", "iOS"),
    ("iPad", "iPadOS"),
    ("Windows", "Windows"),
    ("CrOS", "ChromeOS"),
    ("Mac OS X", "macOS"),
    ("Macintosh", "macOS"),
    ("Linux", "Linux"),
)


def device_of(user_agent: str) -> str:
    """``"Firefox · Android"``; "" when nothing is recognised.

    >>> device_of("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36")
    'Chrome · Linux'
    >>> device_of("x" * 5000)
    ''
    """
    text = (user_agent or "")[:512]
    browser = next((name for mark, name in BROWSERS if mark in text), "")
    system = next((name for mark, name in SYSTEMS if mark in text), "")
    return " · ".join(part for part in (browser, system) if part)


def masked(address: str | None) -> str:
    """The client address with its end hidden.

    >>> masked("203.0.113.57")
    '203.0.113.*'
    >>> masked("2001:db8:85a3::8a2e:370:7334")
    '2001:db8:85a3:*'
    >>> masked(None)
    ''
    """
    try:
        parsed = ipaddress.ip_address(address or "")
    except ValueError:
        return ""
    if isinstance(parsed, ipaddress.IPv4Address):
        return ".".join(str(parsed).split(".")[:3]) + ".*"
    groups = parsed.exploded.split(":")[:3]
    return ":".join(group.lstrip("0") or "0" for group in groups) + ":*"
