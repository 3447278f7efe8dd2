"""The version check every infrastructure module runs at import."""

from __future__ import annotations

from importlib.metadata import version


class UnsupportedVersion(ImportError):
    """An infrastructure module was written for other versions of its library."""


def require(distribution: str, supported: tuple[str, ...], *, module: str) -> str:
    """The installed version of ``distribution``; `UnsupportedVersion` unless it
    starts with one of ``supported`` (``"4.3"`` accepts 4.3.0, 4.3.1, ...).

        >>> require("channels-redis", ("4.3",), module="domino_site.infra.channels_redis")
        '4.3.0'
    """
    installed = version(distribution)
    if not any(installed == s or installed.startswith(f"{s}.") for s in supported):
        raise UnsupportedVersion(
            f"{module} was written for {distribution} {' or '.join(supported)}, and"
            f" {installed} is installed: check what it relies on (its docstring and"
            " tests/infra/) against the new version, then add it to the supported ones"
        )
    return installed
