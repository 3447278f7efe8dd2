"""The round analysis through the services and the pages (docs/site.md, "Round
analysis"): written only after the round ended, after the commit, shown with the
replay's visibility, averaged on the profile."""

from __future__ import annotations

import pytest

from analysis import scoring
from analysis.models import AnalysisJob, RoundAnalysis, SeatAccuracy
from analysis.queue import analysis_enqueue_missing
from analysis.services import ANALYSIS_GRACE, round_analyse
from games.engine import PASS
from rooms import services
from tests.analysis.planted import BLUNDER, DECISION_SEQ, HANDS, SCRIPT
from tests.site.helpers import current, fresh, seat, set_deal
from tests.staff import sign_in_verified
from timers import scheduling

pytestmark = pytest.mark.django_db

WORST = scoring.THRESHOLDS[-1][0]


def _table(make_user, clock, visibility="public"):
    ana, bruno = make_user("ana"), make_user("bruno")
    room = services.room_create(
        user=ana, name="Mesa", preset="sem_monte", visibility=visibility, now=clock()
    )
    if visibility == "private":
        services.seat_take_by_invite(token=room.invite_token, user=bruno, now=clock())
    else:
        services.seat_take(room=room, index=1, user=bruno, now=clock())
    services.match_start(room=fresh(room), actor=seat(room, 0), now=clock())
    set_deal(fresh(room), HANDS, opener=0)
    return fresh(room), ana, bruno


def _move(room, index, action, clock):
    room = fresh(room)
    services.action_apply(
        room=room, seat_index=index, action=action, version=room.version, now=clock()
    )


def _play_to_the_blunder(room, clock):
    """Every move of the planted round but the last (seat 1's pass is automatic)."""
    for index, tile, end in SCRIPT:
        _move(room, index, {"type": "play", "tile": tile, "end": end}, clock)
    rnd = current(room)
    if rnd.engine().turn == 1:  # the pass, unless the server made it already
        _move(room, 1, {"type": "pass"}, clock)
    assert current(room).engine().turn == 0


def _blunder_and_finish(room, clock):
    """The blunder; then both seats can only pass until the game is blocked."""
    _move(room, 0, BLUNDER.to_dict(), clock)
    for _ in range(4):
        rnd = current(room)
        if rnd.finished_at is not None:
            return rnd
        turn = rnd.engine().turn
        assert rnd.engine().legal_actions(turn) == [PASS]
        _move(room, turn, PASS.to_dict(), clock)
    raise AssertionError("the round did not end")


def test_a_round_is_analysed_after_its_end_only(make_user, clock, client):
    room, ana, _ = _table(make_user, clock)
    _play_to_the_blunder(room, clock)
    rnd = current(room)
    assert round_analyse(round_id=rnd.pk) is None  # not over: nothing is written
    assert not RoundAnalysis.objects.exists()
    client.force_login(ana)
    api = f"/api/rooms/{room.code}/rounds/1/"
    assert client.get(api).status_code == 403
    _blunder_and_finish(room, clock)
    assert not RoundAnalysis.objects.exists()  # no wake-up ran: the ticker is not running
    analysis = round_analyse(round_id=rnd.pk, work=2000)
    assert analysis is not None and round_analyse(round_id=rnd.pk) == analysis  # idempotent
    blunder = next(d for d in analysis.decisions if d["seq"] == DECISION_SEQ)
    assert blunder["label"] == WORST and blunder["seat"] == 0
    assert blunder["options"][blunder["chosen"]]["tile"] == str(BLUNDER.tile)
    forced_pass = DECISION_SEQ - 1
    assert forced_pass not in {d["seq"] for d in analysis.decisions}
    rows = {row.seat: row for row in SeatAccuracy.objects.filter(analysis=analysis)}
    assert set(rows) == {0, 1} and rows[0].user == ana and rows[0].preset == "sem_monte"
    assert rows[0].accuracy < 100
    body = client.get(api).json()
    assert body["analysis"]["decisions"] == analysis.decisions
    players = {p["seat"]: p for p in body["analysis"]["players"]}
    assert players[0]["accuracy"] == round(rows[0].accuracy, 1)
    assert players[0]["match_accuracy"] == players[0]["accuracy"]  # one round analysed so far


def test_bots_and_automatic_moves_are_not_scored(make_user, clock):
    room, _, _ = _table(make_user, clock)
    _play_to_the_blunder(room, clock)
    _blunder_and_finish(room, clock)
    rnd = current(room)
    rnd.players = [{**p, "kind": "bot"} if p["index"] == 1 else p for p in rnd.players]
    rnd.save(update_fields=["players"])
    analysis = round_analyse(round_id=rnd.pk, work=300)
    assert {d["seat"] for d in analysis.decisions} == {0}
    assert list(analysis.seats.values_list("seat", flat=True)) == [0]


def test_the_private_rooms_analysis_is_for_its_seats_only(make_user, clock, client):
    room, ana, bruno = _table(make_user, clock, visibility="private")
    _play_to_the_blunder(room, clock)
    _blunder_and_finish(room, clock)
    round_analyse(round_id=current(room).pk, work=300)
    api = f"/api/rooms/{room.code}/rounds/1/"
    page = f"/r/{room.code}/rounds/1/"
    client.force_login(make_user("stranger"))
    assert client.get(api).status_code == 404
    stranger_page = client.get(page)
    assert stranger_page.status_code == 404 and b"replay-analysis" not in stranger_page.content
    profile = client.get(f"/players/{ana.username}/").content.decode()
    assert 'data-accuracy-preset="sem_monte"' not in profile  # a private room's, not for strangers
    client.force_login(bruno)
    assert client.get(api).json()["analysis"]["decisions"]
    seen = client.get(page).content.decode()
    assert 'id="replay-analysis"' in seen and "replay_analysis.js" in seen
    assert (
        'data-accuracy-preset="sem_monte"'
        in client.get(f"/players/{ana.username}/").content.decode()
    )


def test_the_replay_page_has_no_analysis_until_it_is_written(make_user, clock, client):
    room, ana, _ = _table(make_user, clock)
    _play_to_the_blunder(room, clock)
    _blunder_and_finish(room, clock)
    client.force_login(ana)
    page = f"/r/{room.code}/rounds/1/"
    waiting = client.get(page).content
    assert b'id="replay-analysis"' not in waiting and b'id="replay-analysis-queue"' in waiting
    assert client.get(f"/api/rooms/{room.code}/rounds/1/").json()["analysis"] is None
    round_analyse(round_id=current(room).pk, work=300)
    done = client.get(page).content
    assert b'id="replay-analysis"' in done and b'id="replay-analysis-queue"' not in done


def test_the_profile_averages_accuracy_per_preset(make_user, clock, client):
    room, ana, _ = _table(make_user, clock)
    _play_to_the_blunder(room, clock)
    _blunder_and_finish(room, clock)
    analysis = round_analyse(round_id=current(room).pk, work=300)
    row = analysis.seats.get(seat=0)
    client.force_login(make_user("someone"))
    html = client.get(f"/players/{ana.username}/").content.decode()
    assert 'data-accuracy-preset="sem_monte"' in html
    assert f'data-accuracy-value="{round(row.accuracy, 1)}"' in html


def test_the_end_of_a_round_queues_its_analysis_after_the_commit(
    make_user, clock, settings, monkeypatch, django_capture_on_commit_callbacks
):
    settings.DOMINO_SCHEDULER = "celery"
    woken = []
    monkeypatch.setattr(scheduling.analysis_next, "apply_async", lambda **_: woken.append(1))
    room, _, _ = _table(make_user, clock)
    with django_capture_on_commit_callbacks(execute=True):
        _play_to_the_blunder(room, clock)
    with django_capture_on_commit_callbacks(execute=True):
        _move(room, 0, BLUNDER.to_dict(), clock)
        _move(room, 1, PASS.to_dict(), clock)
    assert woken == [] and not AnalysisJob.objects.exists()  # the round goes on
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        _move(room, 0, PASS.to_dict(), clock)
    assert current(room).finished_at is not None
    assert woken == [] and not AnalysisJob.objects.exists()  # not before the commit
    with django_capture_on_commit_callbacks(execute=True):
        for callback in callbacks:
            callback()
    job = AnalysisJob.objects.get()
    assert job.round_id == current(room).pk and job.state == AnalysisJob.State.QUEUED
    assert job.priority in (AnalysisJob.Priority.RATED, AnalysisJob.Priority.IDLE)
    assert woken == [1]  # the worker is woken, after the job's own commit


def test_the_admin_shows_analyses_read_only(make_user, clock, client, django_user_model):
    room, _, _ = _table(make_user, clock)
    _play_to_the_blunder(room, clock)
    _blunder_and_finish(room, clock)
    analysis = round_analyse(round_id=current(room).pk, work=300)
    sign_in_verified(
        client, django_user_model.objects.create_superuser("boss", "b@example.com", "x")
    )
    assert client.get("/admin/analysis/roundanalysis/").status_code == 200
    page = client.get(f"/admin/analysis/roundanalysis/{analysis.pk}/change/")
    assert page.status_code == 200 and b'name="decisions"' not in page.content  # read-only
    assert client.get("/admin/analysis/roundanalysis/add/").status_code == 403


def test_the_sweepers_queue_rounds_whose_end_was_not_queued(make_user, clock):
    room, _, _ = _table(make_user, clock)
    _play_to_the_blunder(room, clock)
    _blunder_and_finish(room, clock)  # (the end's after-commit never runs here)
    rnd = current(room)
    assert analysis_enqueue_missing(before=clock()) == []  # just ended: its own may come
    later = clock.tick(ANALYSIS_GRACE.total_seconds() + 1)
    assert analysis_enqueue_missing(before=later - ANALYSIS_GRACE) == [rnd.pk]
    assert AnalysisJob.objects.get(round=rnd).state == AnalysisJob.State.QUEUED
    assert analysis_enqueue_missing(before=later - ANALYSIS_GRACE) == []  # queued once
