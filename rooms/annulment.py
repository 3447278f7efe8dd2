"""Who votes on a friendly annulment and which votes stand (docs/rated-play.md,
"Annulment"): read by the snapshot and by `rooms.services.flow.annul_vote`, so
the page counts exactly what the server counts.

A vote belongs to a person (an account, or a keyed digest of a guest's seat
token), never to a seat index: a new occupant does not inherit it. It lasts
until the end of the round it was cast in, and its person may withdraw it.
Every person bound to a seat votes, present or away; bots and a stand-in for
someone away do not.
"""

from __future__ import annotations

from collections.abc import Sequence

from domino_site.guests import guest_key
from games.models import Round
from rooms.models import Seat


def annul_voters(seats: Sequence[Seat]) -> list[Seat]:
    """Who votes on an annulment: every person bound to a seat, present or away
    (a bot standing in for someone away does not vote for them); not bots, not
    a person who left the seat (a bot plays it until the result)."""
    return [s for s in seats if s.is_human and not (s.substitute and s.substitute_reason == "left")]


def annul_person(seat: Seat) -> str:
    """The person a vote belongs to: the account, or a keyed digest of the guest
    token (a vote survives no change of the seat's occupant)."""
    return f"u{seat.user_id}" if seat.user_id else f"g{guest_key(seat.guest_token) or ''}"


def annul_period(rnd: Round) -> str:
    """The stretch a vote lasts for: the round it was cast in (cast between rounds,
    until the next deal)."""
    return f"{rnd.pk}:{'after' if rnd.finished_at is not None else 'play'}"


def standing_votes(rnd: Round) -> list[dict[str, str]]:
    """The match's annulment votes that have not expired (older entries, and
    those of another round, are dropped)."""
    period = annul_period(rnd)
    return [
        v
        for v in rnd.match.annul_votes or []
        if isinstance(v, dict) and v.get("period") == period and v.get("person")
    ]
