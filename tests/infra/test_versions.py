"""domino_site.infra.versions: an infrastructure module refuses a library
version it was not written for, naming both."""

from __future__ import annotations

import importlib
import importlib.metadata
import sys

import pytest

from domino_site.infra.versions import UnsupportedVersion, require

MODULES = {
    "domino_site.infra.channels_redis": "channels-redis",
    "domino_site.infra.daphne": "daphne",
}


def test_a_supported_version_is_returned():
    installed = importlib.metadata.version("channels-redis")
    major_minor = ".".join(installed.split(".")[:2])
    assert require("channels-redis", (major_minor,), module="m") == installed


def test_an_unsupported_version_is_refused_naming_both():
    installed = importlib.metadata.version("channels-redis")
    with pytest.raises(UnsupportedVersion) as refused:
        require("channels-redis", ("9.9",), module="domino_site.infra.x")
    assert "9.9" in str(refused.value) and installed in str(refused.value)
    assert "domino_site.infra.x" in str(refused.value)


def test_a_longer_number_with_the_same_digits_is_not_a_match():
    installed = importlib.metadata.version("channels-redis")
    with pytest.raises(UnsupportedVersion):
        require("channels-redis", (installed + "1",), module="m")


@pytest.mark.parametrize("module, distribution", MODULES.items())
def test_each_infrastructure_module_fails_to_import_on_another_version(
    monkeypatch, module, distribution
):
    real = importlib.metadata.version

    def other(name: str) -> str:
        return "0.0.1" if name == distribution else real(name)

    monkeypatch.setattr(importlib.metadata, "version", other)
    monkeypatch.setattr("domino_site.infra.versions.version", other)
    saved = sys.modules.pop(module, None)
    try:
        with pytest.raises(UnsupportedVersion, match=r"0\.0\.1"):
            importlib.import_module(module)
    finally:
        sys.modules.pop(module, None)
        if saved is not None:
            sys.modules[module] = saved
