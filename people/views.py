"""The people's HTTP side (docs/protocol.md, "Friends and blocks"): thin POST
views, one service each, for the logged-in person about another account
(``<username>``) or a challenge (``<challenge_id>``). Each redirects back (to ``next`` when it is this site's, else
to that person's profile) with the outcome, or the refusal, as a message; a
refusal has changed nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from domino_site.client_ip import request_ip_hash
from people import challenges, moderation, services
from people.errors import PeopleError
from rooms.models import Room


def _back(request: HttpRequest, person: Any) -> HttpResponseRedirect:
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        target = reverse("records:player", args=[person.username])
    return HttpResponseRedirect(target)


def _act(request: HttpRequest, username: str, call: Callable[[Any, Any], str]) -> HttpResponse:
    person = get_user_model().objects.filter(is_active=True, username=username).first()
    if person is None:
        raise Http404(_("There is no player with this name."))
    try:
        done = call(request.user, person)
    except PeopleError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, done)
    return _back(request, person)


def _send(me: Any, person: Any) -> str:
    if services.friend_request_send(sender=me, recipient=person) == "friends":
        return _("You and %(name)s are friends now.") % {"name": person.username}
    return _("Friend request sent to %(name)s.") % {"name": person.username}


def _accept(me: Any, person: Any) -> str:
    services.friend_request_accept(user=me, sender=person)
    return _("You and %(name)s are friends now.") % {"name": person.username}


def _decline(me: Any, person: Any) -> str:
    services.friend_request_decline(user=me, sender=person)
    return _("Friend request declined.")


def _withdraw(me: Any, person: Any) -> str:
    services.friend_request_withdraw(sender=me, recipient=person)
    return _("Friend request withdrawn.")


def _remove(me: Any, person: Any) -> str:
    services.friend_remove(user=me, friend=person)
    return _("%(name)s is no longer your friend.") % {"name": person.username}


def _block(me: Any, person: Any) -> str:
    services.block(blocker=me, blocked=person)
    return _("You blocked %(name)s.") % {"name": person.username}


def _unblock(me: Any, person: Any) -> str:
    services.unblock(blocker=me, blocked=person)
    return _("You unblocked %(name)s.") % {"name": person.username}


def _view(call: Callable[[Any, Any], str]) -> Callable[[HttpRequest, str], HttpResponse]:
    @require_POST
    @login_required
    def view(request: HttpRequest, username: str) -> HttpResponse:
        return _act(request, username, call)

    view.__doc__ = call.__name__
    return view


request_send = _view(_send)
request_accept = _view(_accept)
request_decline = _view(_decline)
request_withdraw = _view(_withdraw)
friend_remove = _view(_remove)
block = _view(_block)
unblock = _view(_unblock)


# ------------------------------------------------------------------ challenges


@require_POST
@login_required
def challenge_send(request: HttpRequest, username: str) -> HttpResponse:
    """The profile's challenge form: ``preset``, ``move_seconds`` ("" for no
    clock), ``rated`` (a checkbox)."""
    person = get_user_model().objects.filter(is_active=True, username=username).first()
    if person is None:
        raise Http404(_("There is no player with this name."))
    seconds = request.POST.get("move_seconds", "")
    invited = {
        field: get_user_model().objects.filter(is_active=True, username=request.POST[field]).first()
        for field in ("partner", "their_partner")
        if request.POST.get(field)
    }
    try:
        if any(v is None for v in invited.values()):
            raise PeopleError("not_friends", _("You can invite only your friends."))
        challenges.challenge_send(
            challenger=request.user,
            challenged=person,
            preset=request.POST.get("preset"),
            move_seconds=int(seconds) if seconds.isdigit() else None,
            competitive=bool(request.POST.get("rated")),
            ip_hash=request_ip_hash(request),
            partner=invited.get("partner"),
            their_partner=invited.get("their_partner"),
        )
    except PeopleError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request,
            _("Challenge sent to %(name)s: waiting for an answer.") % {"name": person.username},
        )
    return _back(request, person)


@require_POST
@login_required
def challenge_accept(request: HttpRequest, challenge_id: int) -> HttpResponse:
    """Accept: to the new table (everyone is sent there), or back while others
    invited have not accepted yet; a refusal goes back (where the panel links
    the table that holds the person, with "Leave the table and accept").
    ``leave``: the code of one's own table, left first (`challenge_accept`)."""
    try:
        room = challenges.challenge_accept(
            user=request.user,
            challenge_id=challenge_id,
            ip_hash=request_ip_hash(request),
            leave=request.POST.get("leave") or None,
        )
    except PeopleError as exc:
        messages.error(request, exc.message)
        return _back(request, request.user)
    if room is None:
        messages.success(request, _("Accepted: the table opens once everyone has."))
        return _back(request, request.user)
    return HttpResponseRedirect(reverse("rooms:table", args=[room.code]))


@require_POST
@login_required
def challenge_decline(request: HttpRequest, challenge_id: int) -> HttpResponse:
    return _answer(request, challenges.challenge_decline, challenge_id, _("Challenge declined."))


@require_POST
@login_required
def challenge_withdraw(request: HttpRequest, challenge_id: int) -> HttpResponse:
    return _answer(request, challenges.challenge_withdraw, challenge_id, _("Challenge withdrawn."))


def _answer(request: HttpRequest, call: Any, challenge_id: int, done: str) -> HttpResponse:
    try:
        call(user=request.user, challenge_id=challenge_id)
    except PeopleError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, done)
    return _back(request, request.user)


@require_POST
@login_required
def preferences(request: HttpRequest) -> HttpResponse:
    """Who may challenge the person: ``challenges`` (everyone, friends, nobody)."""
    try:
        challenges.preferences_set(user=request.user, challenges=request.POST.get("challenges", ""))
    except PeopleError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Saved."))
    return _back(request, request.user)


@require_POST
@login_required
def rematch(request: HttpRequest, code: str) -> HttpResponse:
    """The table page's "Rematch": a challenge to the other person of the table."""
    room = Room.objects.filter(code=code.upper()).first()
    if room is None:
        raise Http404(_("There is no room with this code."))
    try:
        challenge = challenges.rematch_offer(
            user=request.user, room=room, ip_hash=request_ip_hash(request)
        )
    except PeopleError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request,
            _("Rematch offered to %(name)s: waiting for an answer.")
            % {"name": challenge.challenged.username},
        )
    return _back(request, request.user)


# ---------------------------------------------------------------- moderation


@require_POST
@login_required
def report(request: HttpRequest, username: str) -> HttpResponse:
    """Report ``username``: ``reason``, ``note``, and ``room`` (the table's code,
    from the table page) whose latest match is attached."""
    person = get_user_model().objects.filter(is_active=True, username=username).first()
    if person is None:
        raise Http404(_("There is no player with this name."))
    code = request.POST.get("room", "")
    room = Room.objects.filter(code=code.upper()).first() if code else None  # shared: checked
    try:
        moderation.report_make(
            reporter=request.user,
            reported=person,
            reason=request.POST.get("reason"),
            note=request.POST.get("note", ""),
            room=room,
        )
    except PeopleError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Thank you: the report goes to the moderators."))
    return _back(request, person)


@require_POST
@login_required
def rename(request: HttpRequest) -> HttpResponse:
    """After a name reset: the new name the player picked (``username``)."""
    try:
        moderation.rename(user=request.user, username=request.POST.get("username", ""))
    except PeopleError as exc:
        messages.error(request, exc.message)
        return _back(request, request.user)
    messages.success(request, _("Your new name is saved."))
    name = moderation.current_name(request.user)
    return HttpResponseRedirect(reverse("records:player", args=[name]))


@require_POST
@login_required
def queue_partner(request: HttpRequest) -> HttpResponse:
    """Whom the person queues with for parceria: ``partner`` (a friend's name,
    or "" for alone)."""
    name = request.POST.get("partner", "")
    partner = (
        get_user_model().objects.filter(is_active=True, username=name).first() if name else None
    )
    if name and partner is None:
        raise Http404(_("There is no player with this name."))
    try:
        services.queue_partner_set(user=request.user, partner=partner)
    except PeopleError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Saved."))
    return _back(request, request.user)
