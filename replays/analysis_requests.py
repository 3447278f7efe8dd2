"""Who may ask for a round's analysis, and under which name the queue counts
them (`analysis.queue`): shared by the replay page and its JSON endpoint."""

from __future__ import annotations

from typing import Any

from analysis.queue import analysis_ask
from domino_site.guests import guest_key
from records.models import RoundPlayer


def person_of(user: Any, token: str | None) -> str | None:
    """The queue's name for a person (their limit is counted by it)."""
    if user is not None:
        return f"user:{user.pk}"
    return f"guest:{guest_key(token)}" if token else None


def played(rnd: Any, user: Any, token: str | None) -> bool:
    """Whether this person held a seat of ``rnd`` when it was dealt."""
    people = RoundPlayer.objects.filter(round=rnd)
    if user is not None:
        return people.filter(user_id=user.pk).exists()
    return bool(token) and people.filter(guest_key=guest_key(token)).exists()


def replay_opened(rnd: Any, user: Any, token: str | None) -> None:
    """Opening a finished round's replay raises its analysis to ``OPENED``
    (within the person's limit: past it, nothing changes)."""
    person = person_of(user, token)
    if person is not None and rnd.result is not None:
        analysis_ask(round_id=rnd.pk, person=person, opened=True)
