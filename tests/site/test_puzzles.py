"""Puzzles (docs/site.md, "Puzzles"): cut from analysed public rounds, checked
by a deeper search before they are published, tried and rated once, showing
only what the mover could see and nothing of where they came from; a
player's own blunder as a puzzle from the replay."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from analysis.models import RoundAnalysis
from analysis.services import round_analyse
from games.engine import PRESETS, Round
from puzzles import cutting, selectors, services, themes
from puzzles.models import DailyPuzzle, Puzzle, PuzzleCut, PuzzlePlayer, PuzzleTry
from puzzles.page_strings import PUZZLE
from replays.page_strings import TRAIN
from tests.analysis.planted import BEST, BLUNDER, DECISION_SEQ, HANDS, SCRIPT
from tests.analysis.planted import position as planted_position
from tests.site.test_analysis import _blunder_and_finish, _play_to_the_blunder, _table

pytestmark = pytest.mark.django_db

#: The planted round's decisions with one clear best at work 300 are moves 3,
#: 7 and 9 (a lead of 6 points or more); one is cut a round, the clearest (9,
#: 11.9 points); the planted blunder's has two best moves.
CLEAR_SEQS = [3, 7, 9]
CUT_SEQS = [9]
STATIC_JS = Path(__file__).resolve().parents[2] / "static" / "js"


def _analysed(make_user, clock, visibility="public", work=300):
    room, ana, bruno = _table(make_user, clock, visibility=visibility)
    _play_to_the_blunder(room, clock)
    rnd = _blunder_and_finish(room, clock)
    analysis = round_analyse(round_id=rnd.pk, work=work)
    return room, rnd, analysis, ana, bruno


def _clear_best(analysis, best_value=10.0):
    """The planted decision's stored options made to say one move (the 5-5
    on B) is clearly the best, as an analysis of a sharper position would."""
    decisions = []
    for d in analysis.decisions:
        if d["seq"] == DECISION_SEQ:
            options = []
            for o in d["options"]:
                is_best = o["tile"] == str(BEST.tile) and o["end"] == BEST.end
                options.append({**o, "value": best_value if is_best else -8.0})
            best = next(i for i, o in enumerate(options) if o["value"] == best_value)
            d = {**d, "options": options, "best": best}
        decisions.append(d)
    RoundAnalysis.objects.filter(pk=analysis.pk).update(decisions=decisions)


def _keep(*args, **kwargs):
    """A deeper check that agrees (the real one runs in its own tests)."""
    return cutting.Verdict(True, "", [{**kwargs["solution"], "value": 10.0}], 18.0, 5)


def _published(make_user, clock):
    """The planted round's public puzzles, every one kept; the planted decision's."""
    room, rnd, analysis, ana, bruno = _analysed(make_user, clock)
    _clear_best(analysis)
    assert services.puzzles_cut() == 1  # the planted decision, now the clearest
    while services.puzzle_check_next(checker=_keep) is not None:
        pass
    puzzle = Puzzle.objects.get(seq=DECISION_SEQ)
    assert puzzle.state == Puzzle.State.PUBLISHED
    return room, puzzle, ana, bruno


# ------------------------------------------------------------------ pure parts


def test_the_gap_threshold_is_scaled_per_preset():
    decision = {
        "options": [{"type": "pass", "value": 1.0}, {"type": "draw", "value": 1.0 + 6.0}],
        "best": 1,
    }
    assert cutting.gap_of(decision) == 6.0
    assert cutting.is_candidate(decision, PRESETS["parceria"])  # 6 points: enough
    assert not cutting.is_candidate(decision, PRESETS["pontos"])  # 18 of the game of points
    assert cutting.is_candidate({**decision, "options": [
        {"type": "pass", "value": 0.0}, {"type": "draw", "value": 0.72}]}, PRESETS["partida"])  # fmt: skip
    near = {"options": [{"type": "pass", "value": 1.0}, {"type": "draw", "value": 6.9}]}
    assert not cutting.is_candidate(near, PRESETS["parceria"])


def test_themes_from_the_planted_position():
    rnd, _moves = planted_position()
    view = rnd.view(0)
    best = BEST.to_dict()
    others = [BLUNDER.to_dict(), {"type": "play", "tile": "6-5", "end": "A"}]
    found = themes.themes_of(view, best, others)
    # Seat 1 passed on 6 and 5: after 5-5 on B the ends show 6 and 5, it must pass.
    assert "blocking" in found
    assert "endgame" in found  # seat 0 holds two tiles: the last few
    # The 6-5 fits end A (6) and end B (5): choosing its end is the puzzle.
    assert themes.is_right_end(view, themes.action_from_dict(BLUNDER.to_dict()),
                               [themes.action_from_dict(others[1])])  # fmt: skip
    assert not themes.is_right_end(view, themes.action_from_dict(best), [])
    assert not themes.is_endgame({**view, "hand": ["0-0", "1-1", "2-2", "3-3"]})


def test_following_the_partner():
    rnd = Round.deal(PRESETS["parceria"], __import__("random").Random(5))
    while rnd.turn != 2 or len(rnd.history) < 3:
        rnd.apply(rnd.turn, rnd.legal_actions()[0])
    view = rnd.view(2)  # seat 0 is the partner, and has played
    signals = themes.partner_signals(view)
    assert signals
    assert signals <= {n for e in view["history"] if e["seat"] == 0 and e["type"] == "play"
                       for n in map(int, e["tile"].split("-"))}  # fmt: skip


def test_the_deeper_check_drops_a_puzzle_with_two_best_moves():
    """At the planted decision 5-5 on B and 6-5 on A both win: however clear
    the analysis said it was, the deeper search finds no single best."""
    rnd, moves = planted_position()
    deal = Round.from_hands(PRESETS["sem_monte"], hands=HANDS, opener=0).initial
    verdict = cutting.deep_check(
        PRESETS["sem_monte"].to_dict(), deal, moves, seq=DECISION_SEQ, seat=0,
        solution=BEST.to_dict(), work=200,
    )  # fmt: skip
    assert not verdict.kept and verdict.reason in ("gap_closed", "best_changed")
    assert verdict.gap < cutting.PUZZLE_GAP
    assert len(verdict.options) == 3 and verdict.cpu_ms >= 0
    assert len(SCRIPT) + 2 == DECISION_SEQ


def test_the_paced_check_is_the_same_check():
    from puzzles.pacing import paced_deep_check

    _rnd, moves = planted_position()
    deal = Round.from_hands(PRESETS["sem_monte"], hands=HANDS, opener=0).initial
    args = (PRESETS["sem_monte"].to_dict(), deal, moves)
    kwargs = {"seq": DECISION_SEQ, "seat": 0, "solution": BEST.to_dict(), "work": 100}
    paced, plain = paced_deep_check(*args, share=1.0, **kwargs), cutting.deep_check(*args, **kwargs)
    assert (paced.kept, paced.reason, paced.options) == (plain.kept, plain.reason, plain.options)


# ------------------------------------------------------------------ cutting, checking


def test_only_clear_decisions_of_public_rounds_are_cut(make_user, clock):
    _room, _rnd, analysis, _ana, _bruno = _analysed(make_user, clock)
    clear = [d["seq"] for d in analysis.decisions if cutting.gap_of(d) >= cutting.PUZZLE_GAP]
    assert clear == CLEAR_SEQS  # not the planted one: two moves win there
    assert services.puzzles_cut() == len(CUT_SEQS)
    assert sorted(Puzzle.objects.values_list("seq", flat=True)) == CUT_SEQS  # the clearest
    for puzzle in Puzzle.objects.all():
        decision = next(d for d in analysis.decisions if d["seq"] == puzzle.seq)
        assert puzzle.gap == cutting.gap_of(decision) >= cutting.PUZZLE_GAP
        assert puzzle.solution == cutting.action_of(decision["options"][decision["best"]])
    assert PuzzleCut.objects.filter(analysis=analysis).exists()
    assert services.puzzles_cut() == 0 and PuzzleCut.objects.count() == 1  # once each
    _room2, _rnd2, private, _a, _b = _analysed_other(make_user, clock, "private")
    assert services.puzzles_cut() == 0 and not PuzzleCut.objects.filter(analysis=private).exists()


def _analysed_other(make_user, clock, visibility, names=("carla", "davi", "Outra")):
    from rooms import services as rooms_services
    from tests.site.helpers import current, fresh, seat, set_deal

    carla, davi = make_user(names[0]), make_user(names[1])
    room = rooms_services.room_create(
        user=carla, name=names[2], preset="sem_monte", visibility=visibility, now=clock()
    )
    if visibility == "private":
        rooms_services.seat_take_by_invite(token=room.invite_token, user=davi, now=clock())
    else:
        rooms_services.seat_take(room=room, index=1, user=davi, now=clock())
    rooms_services.match_start(room=fresh(room), actor=seat(room, 0), now=clock())
    set_deal(fresh(room), HANDS, opener=0)
    _play_to_the_blunder(room, clock)
    _blunder_and_finish(room, clock)
    rnd = current(room)
    return room, rnd, round_analyse(round_id=rnd.pk, work=300), carla, davi


def test_a_candidate_is_published_or_dropped_by_the_deeper_check(make_user, clock):
    _room, rnd, analysis, _ana, _bruno = _analysed(make_user, clock)
    _clear_best(analysis)
    assert services.puzzles_waiting()
    assert services.puzzles_cut() == 1
    puzzle = Puzzle.objects.get(seq=DECISION_SEQ)
    assert puzzle.state == Puzzle.State.CANDIDATE and puzzle.seat == 0
    assert puzzle.solution == BEST.to_dict() and puzzle.gap == 18.0
    assert "blocking" in puzzle.themes and "endgame" in puzzle.themes
    # The view is the mover's: seat 0's hand, seat 1's as a count only.
    assert puzzle.view["seat"] == 0 and sorted(puzzle.view["hand"]) == ["5-5", "5-6"]
    assert puzzle.view["tile_counts"][1] == 1 and "hands" not in puzzle.view
    # The real deeper check, ten times the work: every candidate published or dropped.
    while services.puzzle_check_next() is not None:
        pass
    assert not Puzzle.objects.filter(state=Puzzle.State.CANDIDATE).exists()
    assert not services.puzzles_waiting()
    puzzle.refresh_from_db()
    # Two moves win at the planted decision: however clear the analysis said it was, dropped.
    assert puzzle.state == Puzzle.State.DROPPED
    assert puzzle.drop_reason in ("gap_closed", "best_changed") and puzzle.checked_at
    for kept in Puzzle.objects.filter(state=Puzzle.State.PUBLISHED):
        assert kept.gap >= cutting.PUZZLE_GAP and kept.options[0]["value"] - kept.options[1][
            "value"
        ] == pytest.approx(kept.gap, abs=0.02)
        assert cutting.action_of(kept.options[0]) == kept.solution
    published = set(
        Puzzle.objects.filter(state=Puzzle.State.PUBLISHED).values_list("pk", flat=True)
    )
    assert (selectors.next_puzzle(user=None) is None) == (not published)


def test_the_drain_stops_when_an_analysis_waits(make_user, clock):
    _room, _rnd, analysis, _ana, _bruno = _analysed(make_user, clock)
    _clear_best(analysis)
    assert services.puzzles_drain(checker=_keep, more_urgent=lambda: True) == 0
    assert Puzzle.objects.filter(state=Puzzle.State.CANDIDATE).count() == 1  # cut, not checked
    assert services.puzzles_drain(checker=_keep) == 1
    assert Puzzle.objects.filter(state=Puzzle.State.PUBLISHED).count() == 1


def test_the_backlog_of_candidates_is_bounded(make_user, clock, monkeypatch):
    _room, _rnd, analysis, _ana, _bruno = _analysed(make_user, clock)
    monkeypatch.setattr(services, "CANDIDATE_BOUND", 0)
    assert services.puzzles_cut() == 0 and not PuzzleCut.objects.exists()
    monkeypatch.setattr(services, "CANDIDATE_BOUND", 1)
    assert services.puzzles_cut() == 1 and PuzzleCut.objects.filter(analysis=analysis).exists()


# ------------------------------------------------------------------ tries and ratings


def test_a_wrong_then_a_right_try_moves_the_ratings(make_user, clock, settings):
    settings.ESTABLISHED_ACCOUNT_DAYS = settings.ESTABLISHED_ACCOUNT_MATCHES = 0  # everyone is
    _room, puzzle, _ana, _bruno = _published(make_user, clock)
    eva = make_user("eva")
    wrong = services.puzzle_try(
        puzzle_id=puzzle.pk, user=eva, answer=BLUNDER.to_dict(), ip_hash="eva's"
    )
    assert not wrong.correct and wrong.rated and wrong.rating_after < wrong.rating_before == 1500
    assert wrong.solution == BEST.to_dict() and wrong.streak == 0
    puzzle.refresh_from_db()
    assert puzzle.tries == 1 and puzzle.solved == 0 and wrong.puzzle_rating > 1500
    # The same answer again (a repeated POST), then the right one: checked, never counted.
    again = services.puzzle_try(puzzle_id=puzzle.pk, user=eva, answer=BLUNDER.to_dict())
    right = services.puzzle_try(puzzle_id=puzzle.pk, user=eva, answer=BEST.to_dict())
    assert not again.rated and right.correct and not right.rated
    assert right.rating_after == wrong.rating_after and PuzzleTry.objects.count() == 1
    player = PuzzlePlayer.objects.get(user=eva)
    assert player.tries == 1 and player.streak == 0
    # Another player solves it: their rating rises, the puzzle's falls.
    flor = make_user("flor")
    solved = services.puzzle_try(
        puzzle_id=puzzle.pk, user=flor, answer=BEST.to_dict(), ip_hash="flor's"
    )
    assert solved.correct and solved.rated and solved.rating_after > 1500 and solved.streak == 1
    assert solved.puzzle_rating < wrong.puzzle_rating
    assert selectors.tries_of(user=flor)[0]["correct"] is True


def test_a_mirror_image_of_the_solution_is_correct(make_user, clock):
    _room, puzzle, _ana, _bruno = _published(make_user, clock)
    # 5-5 fits end B only here: without an end it is the same move.
    result = services.puzzle_try(
        puzzle_id=puzzle.pk, user=make_user("gil"), answer={"type": "play", "tile": "5-5"}
    )
    assert result.correct


@pytest.mark.parametrize(
    "answer, code",
    [
        (None, "bad_action"),
        ("5-5", "bad_action"),
        ({"type": "play", "tile": "9-9"}, "bad_action"),
        ({"type": "jump"}, "bad_action"),
        ({"type": "play", "tile": "6-6", "end": "A"}, "illegal_action"),  # on the chain
        ({"type": "pass"}, "illegal_action"),  # it has a tile that fits
    ],
)
def test_bad_answers_change_nothing(make_user, clock, client, answer, code):
    _room, puzzle, _ana, _bruno = _published(make_user, clock)
    hana = make_user("hana")
    with pytest.raises(services.PuzzleError) as refused:
        services.puzzle_try(puzzle_id=puzzle.pk, user=hana, answer=answer)
    assert refused.value.code == code
    client.force_login(hana)
    reply = client.post(
        f"/problemas/{puzzle.pk}/resposta/",
        data=json.dumps({"action": answer}),
        content_type="application/json",
    )
    assert reply.status_code == 400 and reply.json()["error"] == code
    garbage = client.post(
        f"/problemas/{puzzle.pk}/resposta/", data=b"{{{", content_type="application/json"
    )
    assert garbage.status_code == 400 and garbage.json()["error"] == "bad_action"
    assert not PuzzleTry.objects.exists()
    assert PuzzlePlayer.objects.filter(user=hana, tries=0, streak=0).count() <= 1
    puzzle.refresh_from_db()
    assert puzzle.tries == 0 and puzzle.mu == Puzzle._meta.get_field("mu").default


def test_a_guest_gets_an_answer_and_no_rating(make_user, clock, client):
    _room, puzzle, _ana, _bruno = _published(make_user, clock)
    page = client.get("/problemas/").content.decode()
    assert f'"id": {puzzle.pk}' in page and 'href="/accounts/login/?next=/problemas/"' in page
    reply = client.post(
        f"/problemas/{puzzle.pk}/resposta/",
        data=json.dumps({"action": BEST.to_dict()}),
        content_type="application/json",
    )
    body = reply.json()
    assert reply.status_code == 200 and body["correct"] and not body["rated"]
    assert body["rating_after"] is None and body["unrated"] == "guest"
    # Recorded by the guest cookie (docs/site.md, "Puzzles"), rating nobody.
    (recorded,) = PuzzleTry.objects.all()
    assert recorded.user is None and recorded.guest_key and not recorded.rated


def test_the_daily_puzzle_is_the_same_all_day(make_user, clock):
    _room, puzzle, _ana, _bruno = _published(make_user, clock)
    _room2, _rnd2, second, _c, _d = _analysed_other(make_user, clock, "public")
    _clear_best(second)  # a second round, a second puzzle
    assert services.puzzles_cut() == 1
    assert services.puzzle_check_next(checker=_keep).state == Puzzle.State.PUBLISHED
    day = clock().date()
    first = Puzzle.objects.order_by("id").first()
    assert services.puzzle_of_the_day(day=day) == first
    assert services.puzzle_of_the_day(day=day) == first and DailyPuzzle.objects.count() == 1
    tomorrow = services.puzzle_of_the_day(day=day.replace(day=day.day + 1))
    assert tomorrow not in (None, first) and DailyPuzzle.objects.count() == 2


# ------------------------------------------------------------------ privacy


def test_no_puzzle_names_its_players_or_room(make_user, clock, client):
    room, _rnd, analysis, ana, bruno = _analysed_other(
        make_user, clock, "public", names=("zulmira_src", "xavier_src", "Sala Secreta Zeta")
    )
    _clear_best(analysis)
    assert services.puzzles_cut() == 1
    puzzle = services.puzzle_check_next(checker=_keep)
    viewer = make_user("ivo")
    client.force_login(viewer)
    pages = [
        client.get("/problemas/").content.decode(),
        client.get(f"/problemas/{puzzle.pk}/").content.decode(),
        client.get("/problemas/diario/").content.decode(),
        json.dumps(
            client.post(
                f"/problemas/{puzzle.pk}/resposta/",
                data=json.dumps({"action": puzzle.solution}),
                content_type="application/json",
            ).json()
        ),
        client.get(f"/players/{viewer.username}/").content.decode(),
    ]
    assert 'id="puzzle-boot"' in pages[1] and "data-profile-puzzles" in pages[4]
    for text in pages:
        for secret in (ana.username, bruno.username, room.name, room.code, f"/r/{room.code}"):
            assert secret not in text
    boot = json.loads(re.search(r'id="puzzle-boot"[^>]*>(.*?)</script>', pages[1], re.S).group(1))
    # Only the mover's own view: their hand, the others' counts, no hidden tile.
    view = boot["puzzle"]["view"]
    assert set(boot["puzzle"]) == {"id", "view", "rating", "themes", "preset", "training"}
    assert view == puzzle.view
    assert not {"hands", "boneyard", "initial", "deal"} & set(view)
    assert view["seat"] == puzzle.seat and len(view["hand"]) == view["tile_counts"][puzzle.seat]
    other = 1 - puzzle.seat
    assert view["tile_counts"][other] > 0 and view["legal"]
    assert "solution" not in json.dumps(boot)


def test_the_scripts_strings_are_listed():
    call = re.compile(r'\bt\(\s*"((?:[^"\\]|\\.)*)"')
    for script, listed in (("puzzles.js", PUZZLE), ("replay_train.js", TRAIN)):
        found = set(call.findall((STATIC_JS / script).read_text()))
        assert found and found <= set(listed), sorted(found - set(listed))


# ------------------------------------------------------------------ training (part 3)


def test_the_replay_offers_the_blunderer_their_position(make_user, clock, client):
    room, rnd, analysis, ana, bruno = _analysed(make_user, clock)
    blunder = next(d for d in analysis.decisions if d["seq"] == DECISION_SEQ)
    assert blunder["label"] == "capivarada" and blunder["seat"] == 0
    page = f"/r/{room.code}/rounds/1/"
    client.force_login(bruno)  # not his blunder: no offer
    assert 'id="replay-train"' not in client.get(page).content.decode()
    train = f"/problemas/treinar/{rnd.pk}/{DECISION_SEQ}/"
    assert client.post(train).status_code == 403 and not Puzzle.objects.exists()
    client.force_login(ana)
    seen = client.get(page).content.decode()
    boot = json.loads(re.search(r'id="replay-train"[^>]*>(.*?)</script>', seen, re.S).group(1))
    assert boot["steps"] == {str(DECISION_SEQ): train}
    opened = client.post(train)
    puzzle = Puzzle.objects.get()
    assert opened.status_code == 302 and opened["Location"] == f"/problemas/{puzzle.pk}/"
    assert puzzle.state == Puzzle.State.TRAINING and puzzle.owner == ana
    assert client.post(train)["Location"] == opened["Location"]  # made once
    assert puzzle.view["seat"] == 0 and client.get(opened["Location"]).status_code == 200
    # Both winning moves are right; nothing is rated.
    result = services.puzzle_try(
        puzzle_id=puzzle.pk, user=ana, answer={"type": "play", "tile": "6-5", "end": "A"}
    )
    assert result.correct and not result.rated and result.unrated == "training"
    assert not PuzzleTry.objects.get().rated  # recorded, rating nothing
    assert not services.puzzle_try(puzzle_id=puzzle.pk, user=ana, answer=BLUNDER.to_dict()).correct
    # Nobody else may open it, and it is never a public puzzle.
    client.force_login(bruno)
    assert client.get(opened["Location"]).status_code == 404
    with pytest.raises(services.PuzzleError):
        services.puzzle_try(puzzle_id=puzzle.pk, user=bruno, answer=BEST.to_dict())
    assert selectors.next_puzzle(user=bruno) is None
    # A move that is no blunder is not offered.
    other = (
        next(d for d in analysis.decisions if d["label"] != "capivarada" and d["seat"] == 0)
        if any(d["label"] != "capivarada" and d["seat"] == 0 for d in analysis.decisions)
        else None
    )
    if other is not None:
        client.force_login(ana)
        assert client.post(f"/problemas/treinar/{rnd.pk}/{other['seq']}/").status_code == 400


# ------------------------------------------------------------------ the analysis worker runs them


def test_the_sweeper_wakes_the_puzzles_only_when_no_analysis_waits(make_user, clock, monkeypatch):
    from analysis.models import AnalysisJob
    from analysis.tasks import analysis_next
    from puzzles.tasks import puzzles_next
    from timers import offload, tasks
    from timers import ticker as ticker_module

    woken, submitted = [], []
    monkeypatch.setattr(analysis_next, "apply_async", lambda *a, **k: woken.append("analysis"))
    monkeypatch.setattr(puzzles_next, "apply_async", lambda *a, **k: woken.append("puzzles"))
    monkeypatch.setattr(ticker_module.ticker, "submit", lambda key, f: submitted.append((key, f)))
    _room, rnd, _analysis, _ana, _bruno = _analysed(make_user, clock)
    AnalysisJob.objects.update_or_create(  # an analysis waits
        round=rnd,
        defaults={"state": AnalysisJob.State.QUEUED, "priority": AnalysisJob.Priority.IDLE},
    )
    tasks.sweep()
    ticker_module._sweep(clock())
    assert woken == ["analysis"] and submitted == [("analysis", offload.drain_analyses)]
    AnalysisJob.objects.update(state=AnalysisJob.State.DONE)  # none waits: the puzzles' turn
    woken.clear(), submitted.clear()
    tasks.sweep()
    ticker_module._sweep(clock())
    assert woken == ["puzzles"] and submitted == [("analysis", offload.drain_puzzles)]
    services.puzzles_drain(checker=_keep)
    woken.clear(), submitted.clear()
    tasks.sweep()
    ticker_module._sweep(clock())
    assert woken == [] and submitted == []  # nothing left to do
