"""The analysis queue (docs/site.md, "Round analysis: what is analysed and
when"; docs/protocol.md, "The round's analysis: asking for it"): people's
requests first, then rated rounds, then the rest; a bound that drops the oldest
background jobs; a limit per person; a replay that says where it stands."""

from __future__ import annotations

from datetime import timedelta

import pytest

from analysis import queue
from analysis.models import AnalysisJob, RoundAnalysis
from analysis.selectors import analysis_status
from analysis.services import analysis_drain, analysis_run_next
from games.models import Move, Round
from tests.site.helpers import current
from tests.site.test_analysis import _blunder_and_finish, _play_to_the_blunder, _table
from tests.staff import sign_in_verified

pytestmark = pytest.mark.django_db

P, S = AnalysisJob.Priority, AnalysisJob.State


@pytest.fixture
def finished(make_user, clock):
    """A finished round of two people (ana and bruno), not yet queued."""
    room, ana, bruno = _table(make_user, clock)
    _play_to_the_blunder(room, clock)
    _blunder_and_finish(room, clock)
    return current(room), ana, bruno


def _job(rnd, priority, state=S.QUEUED, minutes=0, person=""):
    """A job for a copy of ``rnd`` (its own Round row), queued ``minutes`` ago."""
    copy = Round.objects.get(pk=rnd.pk)
    copy.pk, copy.number = None, Round.objects.filter(match=rnd.match).count() + 1
    copy.save()
    moves = list(Move.objects.filter(round=rnd))
    for move in moves:
        move.pk, move.round = None, copy
    Move.objects.bulk_create(moves)
    when = rnd.finished_at - timedelta(minutes=minutes)
    return AnalysisJob.objects.create(
        round=copy, priority=priority, state=state, queued_at=when, person=person
    )


def test_people_come_first_then_rated_rounds_then_the_rest_oldest_first(finished):
    rnd, _, _ = finished
    idle_old = _job(rnd, P.IDLE, minutes=9)
    rated = _job(rnd, P.RATED, minutes=1)
    opened = _job(rnd, P.OPENED, minutes=2)
    asked_new, asked_old = _job(rnd, P.ASKED, minutes=1), _job(rnd, P.ASKED, minutes=5)
    order = [asked_old, asked_new, opened, rated, idle_old]
    for place, job in enumerate(order, start=1):
        status = analysis_status(round_id=job.round_id)
        assert (status["state"], status["position"]) == ("queued", place)
        assert status["asked"] == (job.priority == P.ASKED)
    taken = [queue.analysis_claim_next().pk for _ in order]
    assert taken == [job.pk for job in order]
    assert queue.analysis_claim_next() is None
    assert analysis_status(round_id=asked_old.round_id)["state"] == "running"


def test_a_rounds_end_queues_it_once_rated_or_when_idle(finished):
    rnd, _, _ = finished
    done = queue.analysis_enqueue_finished(round_id=rnd.pk)
    assert done is not None and done.state == S.QUEUED
    assert queue.analysis_enqueue_finished(round_id=rnd.pk) is None  # once
    assert AnalysisJob.objects.get(round=rnd).priority in (P.RATED, P.IDLE)


def test_the_bound_drops_the_oldest_background_jobs_never_a_persons(finished, settings):
    settings.ANALYSIS_QUEUE_BOUND = 3
    rnd, _, _ = finished
    asked = _job(rnd, P.ASKED, minutes=30)
    rated_old, rated_new = _job(rnd, P.RATED, minutes=20), _job(rnd, P.RATED, minutes=1)
    idle_old, idle_new = _job(rnd, P.IDLE, minutes=25), _job(rnd, P.IDLE, minutes=2)
    assert queue.analysis_trim() == 2  # five queued, bound three
    states = {j.pk: j.state for j in AnalysisJob.objects.all()}
    assert states[idle_old.pk] == states[idle_new.pk] == S.DROPPED  # the idle ones go first
    assert states[asked.pk] == states[rated_old.pk] == states[rated_new.pk] == S.QUEUED
    assert queue.analysis_trim() == 0


def test_a_job_whose_worker_was_lost_is_queued_again(finished, clock):
    rnd, _, _ = finished
    job = _job(rnd, P.RATED)
    queue.analysis_claim_next(now=clock())
    queue.analysis_trim(now=clock.tick(60))
    assert AnalysisJob.objects.get(pk=job.pk).state == S.RUNNING  # still thinking
    queue.analysis_trim(now=clock.tick(queue.STUCK_AFTER.total_seconds()))
    assert AnalysisJob.objects.get(pk=job.pk).state == S.QUEUED


def test_the_worker_drains_the_queue_best_first_and_drops_what_cannot_be_analysed(finished):
    rnd, _, _ = finished
    queue.analysis_enqueue_finished(round_id=rnd.pk)
    broken = _job(rnd, P.ASKED)
    Round.objects.filter(pk=broken.round_id).update(result=None)  # a walkover stopped it
    assert analysis_run_next(work=150) is None  # the asked one first: nothing to analyse
    assert AnalysisJob.objects.get(pk=broken.pk).state == S.DROPPED
    assert analysis_drain(work=150) == 1
    assert RoundAnalysis.objects.filter(round=rnd).exists()
    assert AnalysisJob.objects.get(round=rnd).state == S.DONE
    assert analysis_status(round_id=rnd.pk)["state"] == "done"


def _api(rnd):
    return f"/api/rooms/{rnd.room.code}/rounds/{rnd.number}/analysis/?match={rnd.match.number}"


def test_opening_the_replay_puts_the_round_ahead_of_the_background(finished, client, make_user):
    rnd, ana, _ = finished
    queue.analysis_enqueue_finished(round_id=rnd.pk)
    _job(rnd, P.RATED, minutes=10)  # an older rated round
    client.force_login(make_user("watcher"))
    assert client.get(_api(rnd)).json() == {"state": "queued", "position": 2, "asked": False}
    page = client.get(f"/r/{rnd.room.code}/rounds/{rnd.number}/")
    assert page.status_code == 200 and b'id="replay-analysis-queue"' in page.content
    assert b"&quot;may_ask&quot;: false" in page.content or b'"may_ask": false' in page.content
    job = AnalysisJob.objects.get(round=rnd)
    assert job.priority == P.OPENED and job.person.startswith("user:")
    assert client.get(_api(rnd)).json() == {"state": "queued", "position": 1, "asked": False}


def test_a_player_asks_for_a_dropped_round_and_it_comes_first(finished, client):
    rnd, ana, _ = finished
    AnalysisJob.objects.create(round=rnd, priority=P.IDLE, state=S.DROPPED)
    _job(rnd, P.OPENED)
    client.force_login(ana)
    assert client.get(_api(rnd)).json() == {"state": "dropped", "position": None, "asked": False}
    asked = client.post(_api(rnd))
    assert asked.status_code == 200
    assert asked.json() == {"state": "queued", "position": 1, "asked": True}
    assert AnalysisJob.objects.get(round=rnd).priority == P.ASKED


def test_only_a_player_of_the_round_may_ask_and_a_refusal_changes_nothing(
    finished, client, make_user
):
    rnd, _, _ = finished
    queue.analysis_enqueue_finished(round_id=rnd.pk)
    before = AnalysisJob.objects.get(round=rnd)
    client.force_login(make_user("stranger"))
    refused = client.post(_api(rnd))
    assert refused.status_code == 403 and refused.json()["error"] == "not_a_player"
    after = AnalysisJob.objects.get(round=rnd)
    assert (after.priority, after.state, after.person) == (before.priority, before.state, "")


def test_each_person_holds_a_few_requests_at_a_time(finished, client, settings):
    settings.ANALYSIS_PERSON_LIMIT = 2
    rnd, ana, _ = finished
    person = f"user:{ana.pk}"
    _job(rnd, P.ASKED, person=person), _job(rnd, P.OPENED, person=person)
    queue.analysis_enqueue_finished(round_id=rnd.pk)
    client.force_login(ana)
    refused = client.post(_api(rnd))
    assert refused.status_code == 429 and refused.json()["error"] == "analysis_limit"
    assert refused.json()["message"]
    # Opening the replay past the limit is never refused: it changes nothing.
    assert client.get(f"/r/{rnd.room.code}/rounds/{rnd.number}/").status_code == 200
    assert AnalysisJob.objects.get(round=rnd).priority in (P.RATED, P.IDLE)
    AnalysisJob.objects.filter(person=person).update(state=S.DONE)  # they were analysed
    assert client.post(_api(rnd)).status_code == 200


def test_a_full_queue_of_peoples_requests_refuses_more(finished, settings):
    settings.ANALYSIS_QUEUE_BOUND = 1
    rnd, ana, _ = finished
    _job(rnd, P.ASKED, person="user:someone-else")
    with pytest.raises(queue.ServiceError) as refused:
        queue.analysis_ask(round_id=rnd.pk, person=f"user:{ana.pk}")
    assert refused.value.code == "analysis_full"
    assert not AnalysisJob.objects.filter(round=rnd).exists()


def test_who_may_not_see_the_replay_learns_nothing_of_its_queue(finished, client):
    rnd, _, _ = finished
    assert client.get(_api(rnd)).status_code == 404  # public rounds: for accounts
    assert client.post(_api(rnd)).status_code in (403, 404)
    assert not AnalysisJob.objects.filter(round=rnd).exists()


def test_a_round_queued_past_the_bound_drops_the_oldest_background_job(finished, settings):
    settings.ANALYSIS_QUEUE_BOUND = 2
    rnd, _, _ = finished
    oldest, newer = _job(rnd, P.IDLE, minutes=9), _job(rnd, P.RATED, minutes=5)
    queue.analysis_enqueue_finished(round_id=rnd.pk)  # the third: one must go at once
    assert AnalysisJob.objects.filter(state=S.QUEUED).count() == 2
    assert AnalysisJob.objects.get(pk=oldest.pk).state == S.DROPPED
    assert AnalysisJob.objects.get(pk=newer.pk).state == S.QUEUED


def test_the_admin_shows_the_queue_read_only(finished, client, django_user_model):
    rnd, _, _ = finished
    queue.analysis_enqueue_finished(round_id=rnd.pk)
    job = AnalysisJob.objects.get(round=rnd)
    sign_in_verified(
        client, django_user_model.objects.create_superuser("boss", "b@example.com", "x")
    )
    listing = client.get("/admin/analysis/analysisjob/")
    assert listing.status_code == 200 and str(rnd) in listing.content.decode()
    page = client.get(f"/admin/analysis/analysisjob/{job.pk}/change/")
    assert page.status_code == 200 and b'name="state"' not in page.content  # read-only
    assert client.get("/admin/analysis/analysisjob/add/").status_code == 403
