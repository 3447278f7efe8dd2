"""How many challenges and reports a person may send (docs/site.md,
"Challenges" and "Reports and moderation"; settings ``CHALLENGE_LIMIT`` and
``CHALLENGE_LIMIT_PER_PERSON`` per ``CHALLENGE_WINDOW``, ``REPORT_LIMIT`` and
``REPORT_LIMIT_PER_PERSON`` per ``REPORT_WINDOW``).

Every challenge is pushed to the challenged person's pages (40 challenges in
3.1 s made 80 frames on the target's ``ws/people/``), and every report is the
moderators' work. Both are counted from their own rows, as the rooms a person
opens are (`rooms.limits`), so every process sees the same count: the
challenges a person made (a replaced or withdrawn one still counts), and the
times a person's reports were sent (`Report.sent`: made, then each update of
one still open). The services ask under the lock of the two accounts'
rows (`people.services._lock`), so two requests at once are counted one after
the other. Past a limit the request is refused with ``rate_limited``, saying
how long to wait, and nothing is written or pushed.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Q
from django.utils.timesince import timeuntil
from django.utils.translation import gettext as _

from people.errors import PeopleError
from people.models import Challenge, Report


def _free_at(times: Iterable[datetime], limit: int, window: timedelta) -> datetime | None:
    """When the next one is allowed, ``limit`` of ``times`` (all within the
    window) having been sent: the ``limit``-th latest's end of window; None
    while fewer were sent."""
    latest = sorted(times, reverse=True)
    return latest[limit - 1] + window if len(latest) >= limit else None


def _wait(free_at: datetime, now: datetime) -> str:
    """How long until ``free_at``, in the person's language ("10 minutes",
    "23 hours, 5 minutes"), rounded up to the minute: at least a minute."""
    minutes = max(1, math.ceil((free_at - now).total_seconds() / 60))
    return timeuntil(now + timedelta(minutes=minutes), now)


def challenge_refusal(*, challenger: Any, challenged: Any, now: datetime) -> PeopleError | None:
    """``rate_limited`` when ``challenger`` sent ``CHALLENGE_LIMIT`` challenges
    within ``CHALLENGE_WINDOW`` before ``now``, or ``CHALLENGE_LIMIT_PER_PERSON``
    to ``challenged``; else None."""
    window = settings.CHALLENGE_WINDOW
    rows = list(
        Challenge.objects.filter(challenger=challenger, created_at__gt=now - window).values_list(
            "challenged_id", "created_at"
        )
    )
    to_them = _free_at(
        (at for who, at in rows if who == challenged.pk),
        settings.CHALLENGE_LIMIT_PER_PERSON,
        window,
    )
    if to_them is not None:
        return PeopleError(
            "rate_limited",
            _("You challenged %(name)s too often: wait %(time)s before challenging them again.")
            % {"name": challenged.username, "time": _wait(to_them, now)},
        )
    in_all = _free_at((at for _who, at in rows), settings.CHALLENGE_LIMIT, window)
    if in_all is not None:
        return PeopleError(
            "rate_limited",
            _("You sent too many challenges: wait %(time)s before sending another.")
            % {"time": _wait(in_all, now)},
        )
    return None


def _sent(report: tuple[int, list[str], datetime]) -> list[datetime]:
    _who, sent, created_at = report
    return [datetime.fromisoformat(at) for at in sent] if sent else [created_at]


def report_refusal(*, reporter: Any, reported: Any, now: datetime) -> PeopleError | None:
    """``rate_limited`` when ``reporter``'s reports were sent ``REPORT_LIMIT``
    times within ``REPORT_WINDOW`` before ``now``, or ``REPORT_LIMIT_PER_PERSON``
    times about ``reported``; else None."""
    window = settings.REPORT_WINDOW
    since = now - window
    rows = list(
        Report.objects.filter(reporter=reporter)
        .filter(Q(created_at__gt=since) | Q(status=Report.Status.OPEN) | Q(handled_at__gt=since))
        .values_list("reported_id", "sent", "created_at")
    )
    times = [(row[0], at) for row in rows for at in _sent(row) if at > since]
    about = _free_at(
        (at for who, at in times if who == reported.pk), settings.REPORT_LIMIT_PER_PERSON, window
    )
    in_all = _free_at((at for _who, at in times), settings.REPORT_LIMIT, window)
    free_at = max((t for t in (about, in_all) if t is not None), default=None)
    if free_at is None:
        return None
    if about is not None:
        message = _("You reported %(name)s too often: wait %(time)s before reporting them again.")
    else:
        message = _("You sent too many reports: wait %(time)s before sending another.")
    return PeopleError(
        "rate_limited", message % {"name": reported.username, "time": _wait(free_at, now)}
    )


def sent_now(report: Report, now: datetime) -> None:
    """Remember that ``report`` was sent at ``now`` (the latest
    ``REPORT_LIMIT_PER_PERSON`` times only). Saved by the caller."""
    earlier = [at.isoformat() for at in _sent((0, report.sent, report.created_at))]
    if report.pk is None:
        earlier = []
    keep = max(1, settings.REPORT_LIMIT_PER_PERSON)
    report.sent = [*earlier, now.isoformat()][-keep:]
