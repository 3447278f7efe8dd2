"""What the site uses of channels-redis beyond its documented settings.

channels-redis documents its settings (``hosts``, ``capacity``, ...) and the
channel layer API; the site also needs to know which server process a socket
belongs to (`domino_site.liveness`: a process that died never closes its
sockets), and to beat on the layer's own Redis. It uses:

* the layout of a socket's channel name, ``specific.<client_prefix>!<random>``:
  channels-redis routes a process' sockets through one inbox named by the part
  before the ``!`` (`process_of`);
* ``RedisChannelLayer.client_prefix``, that part for this process
  (`process_prefix`), and ``RedisChannelLayer.connection(0)``, the layer's
  client of its first host (`layer_client`): undocumented attributes;
* ``channels_redis.utils.decode_hosts``, how the ``hosts`` setting becomes
  connection arguments (`first_host`): an undocumented module.

tests/infra/test_channels_redis.py fails when any of these changes.
"""

from __future__ import annotations

from typing import Any

from domino_site.infra.versions import require

VERSION = require("channels-redis", ("4.3",), module=__name__)


def process_of(channel_name: str) -> str | None:
    """The process part (the layer's ``client_prefix``) of a socket's channel
    name ``specific.<client_prefix>!<random>``, or None for another name.

        >>> process_of("specific.3f2a…!b81c…")
        '3f2a…'
    """
    head, bang, _ = (channel_name or "").partition("!")
    if not bang:
        return None
    return head.rpartition(".")[2] or None


def process_prefix(layer: Any) -> str | None:
    """This process' part of its sockets' channel names, or None when the layer
    is not channels-redis' `RedisChannelLayer` (or a subclass)."""
    prefix = getattr(layer, "client_prefix", None)
    return prefix if isinstance(prefix, str) and prefix else None


def layer_client(layer: Any) -> Any:
    """The layer's own asyncio Redis client of its first host."""
    return layer.connection(0)


def first_host(config: dict[str, Any]) -> dict[str, Any]:
    """The connection arguments of the first of a layer ``CONFIG``'s ``hosts``."""
    from channels_redis.utils import decode_hosts

    return dict(decode_hosts(config.get("hosts"))[0])
