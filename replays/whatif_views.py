"""The replay's what-if (docs/protocol.md, "The round's what-if"): ``POST
/api/rooms/<code>/rounds/<n>/whatif/[?match=m]`` with ``{"seq": k, "action":
{...}}`` answers what another legal action at move ``k`` would have been worth
from its mover's view. Thin: the answers are `analysis.whatif_answers`'.

An async view: a position the analysis did not score is computed in the
child process below play (`analysis.whatif_child`) while this server's event
loop goes on serving sockets; the database is read in a thread."""

from __future__ import annotations

import asyncio
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from asgiref.sync import sync_to_async
from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from analysis import whatif_answers as answers
from analysis import whatif_child
from analysis.whatif import WhatIfError
from domino_site.jsonbody import BadJSON, request_json
from replays.analysis_requests import person_of
from replays.views import person_of_request, round_for_api

#: How long a request waits for the child's values (seconds).
COMPUTE_TIMEOUT = 20.0

#: Each refusal's HTTP status.
STATUS = {
    "bad_request": 400,
    "illegal_action": 400,
    "seq_out_of_range": 400,
    "no_decision": 400,
    "whatif_limit": 429,
    "whatif_busy": 503,
}


def _messages() -> dict[str, str]:
    return {
        "bad_request": _('Send JSON: {"seq": a move number, "action": an action}.'),
        "illegal_action": _("That action was not legal at this move."),
        "seq_out_of_range": _("This round has no move with that number."),
        "no_decision": _("That move was a blind pick: there was nothing to choose."),
        "whatif_limit": _("Too many what-ifs in a minute: wait a little and try again."),
        "whatif_busy": _("The what-if is taking too long: try again later."),
    }


def _refused(code: str) -> JsonResponse:
    return JsonResponse({"error": code, "message": _messages()[code]}, status=STATUS[code])


def fact_text(fact: dict[str, Any]) -> str:
    """A fact of `analysis.whatif.facts` in words."""
    code, n = fact["code"], fact.get("number")
    if code == "pips":
        pips = fact["pips"]
        return ngettext("gets rid of %(n)s pip", "gets rid of %(n)s pips", pips) % {"n": pips}
    texts = {
        "draw": _("draws from the boneyard: nothing fitted"),
        "pass": _("passes: nothing fitted and there was nothing to draw"),
        "goes_out": _("plays the last tile: the round ends"),
        "locks": _("puts down the last %(n)s with %(n)s at both ends: the game is locked"),
        "opponent_void": _("leaves a %(n)s at an end, which the opponent does not have"),
        "partner_void": _("leaves a %(n)s at an end, which the partner does not have"),
        "holds_all": _("keeps every %(n)s still out: only the mover can play on it"),
        "covers_partner_void": _("covers the %(n)s the partner does not have"),
        "double": _("plays the double %(n)s off"),
    }
    return texts[code] % {"n": n}


def _question(request: HttpRequest, code: str, number: int) -> Any:
    """The checked question, or the JSON refusal (in a thread: it reads rows)."""
    rnd = round_for_api(request, code, number)
    if isinstance(rnd, JsonResponse):
        return rnd
    user, token = person_of_request(request)
    inputs = answers.whatif_inputs(rnd=rnd)
    try:
        data = request_json(request)
    except BadJSON:
        return _refused("bad_request")
    try:
        seq, action = answers.parse_request(data, inputs.rules)
        question = answers.whatif_question(inputs=inputs, seq=seq, action=action)
    except WhatIfError as exc:
        return _refused(exc.code)
    return question, person_of(user, token) or f"ip:{request.META.get('REMOTE_ADDR', '')}"


def _respond(
    question: answers.Question, values: list[float], best: int, source: str
) -> JsonResponse:
    answer = answers.whatif_answer(question, values, best, source)
    answer["notes"] = [fact_text(f) for f in answer["facts"]]
    return JsonResponse(answer)


@require_POST
async def api_round_whatif(request: HttpRequest, code: str, number: int) -> JsonResponse:
    """What another legal action at a move would have been worth; 404 for
    whoever may not see the round (as its replay), 403 while it is played."""
    checked = await sync_to_async(_question)(request, code, number)
    if isinstance(checked, JsonResponse):
        return checked
    question, person = checked
    known = await sync_to_async(answers.known_values)(question)
    if known is not None:
        return await sync_to_async(_respond)(question, *known)
    if not await sync_to_async(answers.whatif_allow)(person=person):
        return _refused("whatif_limit")
    inputs = question.inputs
    future = whatif_child.submit(
        inputs.rules.to_dict(), inputs.deal, inputs.moves, question.seq, inputs.seed, inputs.work
    )
    try:
        values, best, _cpu_ms = await asyncio.wait_for(asyncio.wrap_future(future), COMPUTE_TIMEOUT)
    except TimeoutError:
        return _refused("whatif_busy")
    except BrokenProcessPool:  # the child died (killed, out of memory): a new one next time
        whatif_child.forget()
        return _refused("whatif_busy")
    await sync_to_async(answers.remember_values)(question, values, best)
    return await sync_to_async(_respond)(question, values, best, "computed")
