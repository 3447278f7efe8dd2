"""The round analysis' queue, as people meet it (docs/protocol.md, "The round's
analysis: asking for it"): where a round's analysis stands, and a player's
request for it. Thin: the queue's rules are `analysis.queue`'s."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from analysis import selectors as analysis
from analysis.queue import analysis_ask
from replays.analysis_requests import person_of, played
from replays.views import person_of_request, round_for_api
from rooms.errors import ServiceError

#: HTTP status of each refusal of a request.
REFUSALS = {"not_a_player": 403, "analysis_limit": 429, "analysis_full": 503}


@require_http_methods(["GET", "POST"])
def api_round_analysis(request: HttpRequest, code: str, number: int) -> JsonResponse:
    """``GET /api/rooms/<code>/rounds/<n>/analysis/[?match=m]``: where the
    round's analysis stands; ``POST``: a player of the round asks for it.
    Whoever may not see the round's replay gets 404, as the replay answers."""
    rnd = round_for_api(request, code, number)
    if isinstance(rnd, JsonResponse):
        return rnd
    if request.method == "POST":
        user, token = person_of_request(request)
        if not played(rnd, user, token):
            return _refused("not_a_player", _("Only a player of the round may ask for it."))
        try:
            analysis_ask(round_id=rnd.pk, person=person_of(user, token) or "")
        except ServiceError as exc:
            return _refused(exc.code, str(exc.message))
    return JsonResponse(analysis.analysis_status(round_id=rnd.pk))


def _refused(code: str, message: str) -> JsonResponse:
    return JsonResponse({"error": code, "message": message}, status=REFUSALS.get(code, 400))
