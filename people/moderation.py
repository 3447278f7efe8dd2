"""Reports and moderation (docs/site.md, "Reports and moderation"): a player
reports another, with a reason and the match they played together; staff
work through the queue in the admin and act: a warning, a name reset (the
player picks a new name) or a suspension from rated play, for a time or for
good. Every action is a `people.models.Sanction`, logged with who took it
and why, which the player sees on their own profile. Services keyword-only
and atomic, refused with a `people.errors.PeopleError`.

A suspension is the rulebook's to enforce: the records ask the apps above
whether someone is kept from rated play (`records.signals.rated_restriction`,
answered by `on_rated_restriction`), and every rated entry point refuses them
as it refuses a cool-down.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from domino_site.removed import validate_not_held
from domino_site.validators import (
    CONFUSABLE_NAME,
    RESERVED_PREFIX,
    confusable_with,
    reserved_name,
    validate_not_reserved,
    validate_visible_text,
)
from games.models import Match
from games.world import now_or
from people import limits
from people.challenges import table_people
from people.errors import PeopleError
from people.models import Report, Sanction
from people.services import _lock
from records import rulebook
from records.models import RoundPlayer
from records.rulebook import ActiveCooldown
from rooms.models import Seat

FOR_GOOD = datetime(9999, 12, 31, tzinfo=UTC)  # a suspension's end, for good
RESET_TRIES = 20  # names tried, each in its own savepoint, before a reset gives up


def _shared_match(a: Any, b: Any, room: Any = None) -> Match | None:
    """The match the report is about: the room's latest (from the table), else
    the latest both played in (from the profile)."""
    if room is not None:
        return Match.objects.filter(room=room).order_by("-number").first()
    theirs = RoundPlayer.objects.filter(user=b).values("match_id")
    row = (
        RoundPlayer.objects.filter(user=a, match_id__in=theirs)
        .order_by("-match_id")
        .values_list("match_id", flat=True)
        .first()
    )
    return Match.objects.filter(pk=row).first() if row else None


def _shared_table(a: Any, b: Any) -> Any:
    """A room where both hold a person's seat now (a table not dealt yet), or None."""
    theirs = Seat.objects.filter(user=b, kind=Seat.Kind.HUMAN).values("room_id")
    seat = (
        Seat.objects.filter(user=a, kind=Seat.Kind.HUMAN, room_id__in=theirs)
        .select_related("room")
        .order_by("-room__created_at")
        .first()
    )
    return seat.room if seat is not None else None


@transaction.atomic
def report_make(
    *,
    reporter: Any,
    reported: Any,
    reason: Any,
    note: str = "",
    room: Any = None,
    now: datetime | None = None,
) -> Report:
    """``reporter`` reports ``reported`` (``reason``: a `Report.Reason`), the match
    they played together attached (``room``: a table where both are seated,
    whose latest match it is). A report still open from the same person about
    the same player is updated, not repeated. Refused: ``self``,
    ``bad_report``, ``not_met`` (the two never shared a match, and sit at no
    table together: a report is about someone one played with),
    ``rate_limited`` (too many reports for now, in all or about this player:
    `people.limits`)."""
    now = now_or(now)
    if reporter.pk == reported.pk:
        raise PeopleError("self", _("You cannot report yourself."))
    if reason not in Report.Reason.values:
        raise PeopleError("bad_report", _("Choose a reason for the report."))
    note = (note or "").strip()[:500]
    if room is not None and reported not in table_people(user=reporter, room=room):
        room = None  # only a table the two share
    match = _shared_match(reporter, reported, room)
    if room is None and match is None:
        room = _shared_table(reporter, reported)
        if room is None:
            raise PeopleError(
                "not_met",
                _("You can report only a player you played with (a match or a table you shared)."),
            )
        match = _shared_match(reporter, reported, room)
    _lock(reporter, reported)
    refusal = limits.report_refusal(reporter=reporter, reported=reported, now=now)
    if refusal is not None:
        raise refusal
    report = Report.objects.filter(
        reporter=reporter, reported=reported, status=Report.Status.OPEN
    ).first()
    if report is None:
        report = Report(reporter=reporter, reported=reported, created_at=now)
    report.reason, report.note = reason, note
    report.match = match or report.match
    limits.sent_now(report, now)
    report.save()
    return report


def _close(report: Report | None, by: Any, now: datetime, status: str) -> None:
    if report is not None and report.status == Report.Status.OPEN:
        report.status, report.handled_by, report.handled_at = status, by, now
        report.save(update_fields=["status", "handled_by", "handled_at"])


@transaction.atomic
def sanction_apply(
    *,
    user: Any,
    kind: str,
    reason: str,
    by: Any,
    report: Report | None = None,
    days: int | None = None,
    now: datetime | None = None,
) -> Sanction:
    """Staff (``by``) act on ``user``: a warning, a name reset (the account is
    renamed ``player-<id>`` at once, or the first free of `reset_names`, and
    the player picks a new name), or a
    suspension from rated play for ``days`` (None: for good). Logged, with the
    report it answers (then handled)."""
    now = now_or(now)
    if kind not in Sanction.Kind.values:
        raise PeopleError("bad_report", _("Unknown action."))
    sanction = Sanction(user=user, kind=kind, reason=reason, by=by, report=report, created_at=now)
    if kind == Sanction.Kind.SUSPENSION:
        sanction.until = now + timedelta(days=days) if days else None
    if kind == Sanction.Kind.NAME_RESET:
        account = get_user_model().objects.select_for_update().get(pk=user.pk)
        sanction.old_name = account.username
        _rename_to_a_reset_name(account)
    sanction.save()
    _close(report, by, now, Report.Status.HANDLED)
    return sanction


def reset_names(account: Any) -> Iterator[str]:
    """The names a reset may give ``account``, in order: ``player-<id>``, then
    ``player-<id>-2``, ``-3``... skipping each that another account holds in
    any case or looks like (`confusable_with`). Nobody may take such a name
    (`domino_site.validators.validate_not_reserved`), but an account may hold
    one from before that rule, or from an admin's hand."""
    names = get_user_model().objects.exclude(pk=account.pk).values_list("username", flat=True)
    near = [name for name in names if reserved_name(name)]  # only these can clash
    held = {name.casefold() for name in near}
    base = f"{RESERVED_PREFIX}{account.pk}"
    for n in itertools.count(1):
        name = base if n == 1 else f"{base}-{n}"
        if name.casefold() not in held and not confusable_with(name, near):
            yield name


def _rename_to_a_reset_name(account: Any) -> None:
    """Rename ``account`` to the first of `reset_names` the database takes (each
    try in a savepoint: an account created meanwhile under that name makes the
    next one tried, never a failed reset). ``reset_failed`` after `RESET_TRIES`."""
    for name in itertools.islice(reset_names(account), RESET_TRIES):
        try:
            with transaction.atomic():
                account.username = name
                account.save(update_fields=["username"])
            return
        except IntegrityError:
            continue
    raise PeopleError("reset_failed", _("The name could not be reset: try again."))


@transaction.atomic
def win_trading_reported(
    *,
    winner_id: int,
    loser_id: int,
    match_ids: list[int],
    now: datetime | None = None,
) -> Report | None:
    """The site's own entry in the queue (docs/rated-play.md, "Rated results
    between the same two people"): "possible win trading", ``winner_id`` the
    one who won, ``loser_id`` the one who lost, the rated matches linked. One
    per pair: an open entry of the two (either way round) gains the new
    matches; once staff handled or dismissed one, none again within
    `rulebook.WIN_TRADING_WINDOW` of it (they saw those matches)."""
    now = now_or(now)
    users = get_user_model().objects.select_for_update().filter(pk__in=[winner_id, loser_id])
    list(users.order_by("pk"))  # the two rows locked: two results at once make one entry
    pair = Q(reported_id=winner_id, against_id=loser_id) | Q(
        reported_id=loser_id, against_id=winner_id
    )
    theirs = Report.objects.filter(pair, reason=Report.Reason.WIN_TRADING)
    matches = list(Match.objects.filter(pk__in=match_ids).order_by("pk"))
    report = theirs.filter(status=Report.Status.OPEN).order_by("created_at").first()
    if report is not None:
        report.matches.add(*matches)
        return report
    if theirs.filter(handled_at__gt=now - rulebook.WIN_TRADING_WINDOW).exists():
        return None
    report = Report.objects.create(
        reporter=None,
        reported_id=winner_id,
        against_id=loser_id,
        reason=Report.Reason.WIN_TRADING,
        match=matches[-1] if matches else None,
        created_at=now,
    )
    report.matches.set(matches)
    return report


def on_win_trading(
    sender: Any,
    *,
    winner_id: int,
    loser_id: int,
    match_ids: list[int],
    now: datetime | None = None,
    **_: Any,
) -> None:
    """The records' news (`records.signals.win_trading`, after a rated
    result's commit): two people look like trading wins."""
    win_trading_reported(winner_id=winner_id, loser_id=loser_id, match_ids=match_ids, now=now)


@transaction.atomic
def report_dismiss(*, report: Report, by: Any, now: datetime | None = None) -> None:
    """Staff close a report without acting."""
    _close(report, by, now_or(now), Report.Status.DISMISSED)


@transaction.atomic
def sanction_lift(*, sanction: Sanction, by: Any, now: datetime | None = None) -> None:
    """Staff lift a suspension before its end (logged)."""
    if sanction.lifted_at is None:
        sanction.lifted_at, sanction.lifted_by = now_or(now), by
        sanction.save(update_fields=["lifted_at", "lifted_by"])


# -------------------------------------------------------------------- reads


def suspension_of(user_id: int, now: datetime | None = None) -> Sanction | None:
    """The suspension from rated play ``user_id`` serves now (the one ending last)."""
    now = now_or(now)
    rows = list(
        Sanction.objects.filter(
            user_id=user_id, kind=Sanction.Kind.SUSPENSION, lifted_at__isnull=True
        ).filter(Q(until__isnull=True) | Q(until__gt=now))
    )
    return max(rows, key=lambda s: s.until or FOR_GOOD, default=None)


def suspension_message(sanction: Sanction) -> str:
    if sanction.until is None:
        return _("You are suspended from rated play for good: %(reason)s") % {
            "reason": sanction.reason
        }
    when = formats.date_format(timezone.localtime(sanction.until), "SHORT_DATETIME_FORMAT")
    return _("You are suspended from rated play until %(until)s: %(reason)s") % {
        "until": when,
        "reason": sanction.reason,
    }


def on_rated_restriction(
    sender: Any, *, user_id: int, now: datetime | None = None, **_: Any
) -> ActiveCooldown | None:
    """The records' question (`records.signals.rated_restriction`): is this
    account kept from rated play? A suspension, as the rulebook's cool-down."""
    sanction = suspension_of(user_id, now)
    if sanction is None:
        return None
    until = sanction.until or FOR_GOOD
    return ActiveCooldown(until=until, reason="suspended", message=suspension_message(sanction))


def sanctions_of(user: Any) -> list[Sanction]:
    """What staff did about ``user``, the newest first (their own profile)."""
    return list(Sanction.objects.filter(user=user).order_by("-created_at", "-id"))


def name_to_pick(user: Any) -> bool:
    """``user``'s name was reset and they have not picked a new one yet: it is
    still a reset's name (`reset_names`), which nobody may pick."""
    return (
        reserved_name(user.username)
        and Sanction.objects.filter(user=user, kind=Sanction.Kind.NAME_RESET).exists()
    )


# -------------------------------------------------------------------- renaming


class RenameForm(forms.Form):
    username = forms.CharField(
        label=gettext_lazy("New name"),
        max_length=150,
        validators=[UnicodeUsernameValidator(), validate_visible_text, validate_not_reserved],
    )

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_username(self) -> str:
        name = self.cleaned_data["username"]
        others = get_user_model().objects.exclude(pk=self.user.pk)
        if others.filter(username__iexact=name).exists():
            raise forms.ValidationError(_("This name is taken."), code="taken")
        if confusable_with(name, list(others.values_list("username", flat=True))):
            raise forms.ValidationError(CONFUSABLE_NAME, code="confusable")
        validate_not_held(name)  # a removed account's, for 90 days
        return name


@transaction.atomic
def rename(*, user: Any, username: str) -> None:
    """After a name reset, the player picks a new name (``bad_name`` with the
    form's reason when it is refused; ``no_reset`` when no reset waits)."""
    if not name_to_pick(user):
        raise PeopleError("no_reset", _("Your name was not reset."))
    form = RenameForm({"username": username}, user=user)
    if not form.is_valid():
        raise PeopleError("bad_name", " ".join(str(e) for e in form.errors["username"]))
    account = get_user_model().objects.select_for_update().get(pk=user.pk)
    account.username = form.cleaned_data["username"]
    account.save(update_fields=["username"])


def current_name(user: Any) -> str:
    """``user``'s name as stored now (after a rename)."""
    return str(get_user_model().objects.values_list("username", flat=True).get(pk=user.pk))
