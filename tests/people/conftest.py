"""Fixtures of the people's tests: those of tests/site (a seeded world, the
rounds' replay check, a clock, ``make_user``) and tests/realtime's ``live``
(the sockets), with the sentences read in English."""

from __future__ import annotations

import pytest
from django.utils import translation

from tests.realtime.conftest import live  # noqa: F401  (the sockets' fixture)
from tests.site.conftest import (  # noqa: F401  (the services' fixtures)
    clock,
    make_user,
    rounds_replay_to_snapshot,
    seeded_world,
)


@pytest.fixture(autouse=True)
def in_english(settings):
    """The tests read the sentences in English (the source strings): the pages'
    default language and the services' (pt-BR once the catalogs have them)."""
    settings.LANGUAGE_CODE = "en"
    with translation.override("en"):
        yield
