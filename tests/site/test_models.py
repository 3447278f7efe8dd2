"""Models and migrations."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.db import IntegrityError, transaction

from games.models import Move
from rooms import services
from rooms.models import CODE_ALPHABET, new_room_code
from tests.site.helpers import current, human_move, two_humans

pytestmark = pytest.mark.django_db


def test_migrations_match_the_models():
    """Every installed app's: rooms, games, records, arenas, analysis (and Django's own)."""
    out = StringIO()
    call_command("makemigrations", "--check", "--dry-run", stdout=out)
    assert "No changes detected" in out.getvalue(), out.getvalue()


def test_room_codes_are_short_and_unambiguous():
    codes = {new_room_code() for _ in range(200)}
    assert len(codes) == 200
    assert all(len(c) == 8 and set(c) <= set(CODE_ALPHABET) for c in codes)
    assert not set(CODE_ALPHABET) & set("0O1I")


def test_a_sequence_number_is_unique_per_round(make_user, clock):
    room, ana, _ = two_humans(make_user, clock())
    services.match_start(room=room, actor=ana, now=clock())
    move = human_move(room, current(room).engine().turn, clock())
    with pytest.raises(IntegrityError), transaction.atomic():
        Move.objects.create(round=move.round, seq=1, seat=0, action={"type": "pass"})
