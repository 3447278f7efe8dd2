"""The bots play to the preset's scoring (issue 41): the game of points' plays
score during the round, the partida de 6 values a round by how it was won."""

import random

import pytest

from bots.equity import MatchEquity
from bots.heuristics import W_FINISH, W_GIVE, Table, medium_scores
from bots.knowledge import read_view
from bots.policies import choose_action
from bots.search import distinct_actions, match_equity, utility
from games.engine import PRESETS, Play, Round, RoundResult, Tile
from tests.bots.positions import fives_double_at_end_a, partida_la_e_lo_to_set_up

T = Tile.parse


def test_medium_takes_the_ten_at_a_fives_table():
    """Both ends show 5, end A's tile is 5-5: 0-5 on end A makes 0 + 5, on end B
    the double's 10 + 0. The old medium saw two mirror images and took end A."""
    view = fives_double_at_end_a().view(0)
    assert choose_action(view, "medium", random.Random(1)) == Play(T("0-5"), "B")


@pytest.mark.parametrize("seed", range(3))
def test_hard_takes_the_ten_too(seed):
    """The hard bot searched one of the two ends as a mirror image of the other;
    under fives they count differently, so both are candidates."""
    view = fives_double_at_end_a().view(0)
    assert choose_action(view, "hard", random.Random(seed), budget_ms=20) == Play(T("0-5"), "B")


def test_at_a_fives_table_the_two_ends_of_one_number_are_not_mirror_images():
    legal = [Play(T("0-5"), "A"), Play(T("0-5"), "B")]
    assert distinct_actions(legal, (5, 5), PRESETS["pontos"]) == legal
    assert distinct_actions(legal, (5, 5), PRESETS["parceria"]) == legal[:1]


def test_medium_avoids_leaving_the_next_opponent_a_score():
    """2-3 on end A of 2 and 6 leaves 3 and 6 (9): the next seat would score with
    3-4 (10), 2-6 (5) or 6-6 (15). Once it has shown it holds no 3 and no 6 the
    same play looks better by what it no longer gives away."""
    know = read_view(fives_double_at_end_a().view(0))
    table = Table.from_knowledge(know)
    table.placed = table.end_doubles = 0
    table.table_tiles, table.counts = 2, [5, 5, 5, 5]
    hand, play = [T("2-3"), T("1-1")], Play(T("2-3"), "A")

    def gain_from_the_voids(fives):
        table.fives = fives
        table.voids = [0] * 4
        open_ = medium_scores([play], hand, (2, 6), 0, table)[0]
        table.voids = [0, (1 << 3) | (1 << 6), 0, 0]
        return medium_scores([play], hand, (2, 6), 0, table)[0] - open_

    # 10 + 5 + 15 no longer given, each tile held by the next seat 5 times in 24 unseen.
    assert gain_from_the_voids(True) - gain_from_the_voids(False) == pytest.approx(
        W_GIVE * 30 * 5 / 24
    )


def test_medium_keeps_the_last_tile_that_wins_by_a_la_e_lo(monkeypatch):
    """3-5 on end A leaves 5 and 5 and keeps 5-6 for a lá-e-lô (3 points); 5-6 on
    end B (the heavier) leaves 3 and 6 and keeps 3-5 for a batida simples (1)."""
    from bots import heuristics

    rnd = partida_la_e_lo_to_set_up()
    view = rnd.view(0)
    assert choose_action(view, "medium", random.Random(1)) == Play(T("3-5"), "A")
    know = read_view(view)
    table = Table.from_knowledge(know)
    plays = [Play(T("3-5"), "A"), Play(T("5-6"), "B")]
    kept_la_e_lo, kept_simples = medium_scores(plays, know.hand, know.ends, 0, table)
    monkeypatch.setattr(heuristics, "W_FINISH", 0.0)  # blind to how the round is won
    plain_la_e_lo, plain_simples = medium_scores(plays, know.hand, know.ends, 0, table)
    assert plain_simples > plain_la_e_lo
    assert kept_la_e_lo - plain_la_e_lo == W_FINISH * (3 - 1)
    assert kept_simples == plain_simples
    # The rest of the round as dealt: nobody else holds a 3, 5 or 6.
    rnd.apply(0, Play(T("3-5"), "A"))
    while not rnd.is_over:
        rnd.apply(rnd.turn, rnd.legal_actions()[0])
    assert (rnd.result.how, rnd.result.points) == ("la_e_lo", (3, 0))


@pytest.mark.parametrize("seed", range(3))
def test_hard_values_the_la_e_lo_at_three_simples(seed):
    view = partida_la_e_lo_to_set_up().view(0)
    assert choose_action(view, "hard", random.Random(seed), budget_ms=20) == Play(T("3-5"), "A")


def result(points, winner):
    return RoundResult(
        reason="domino", winner=winner, opener=0, points=tuple(points), pips=(0, 0, 0, 0),
        hands=((), (), (), ()), last_player=0,
    )  # fmt: skip


def test_the_partidas_equity_counts_a_la_e_lo_above_a_simples():
    rules = PRESETS["partida"]
    equity = match_equity(rules)
    assert equity is not None and equity.target == 6
    la_e_lo = utility(result((3, 0), 0), 0, rules, (2, 2), equity)
    simples = utility(result((1, 0), 0), 0, rules, (2, 2), equity)
    assert la_e_lo > simples + 1  # more than a sixth of the match's chance apart
    # 5 + 1 wins the match as 5 + 3 does: past the target only the tie-break points differ.
    assert utility(result((1, 0), 0), 0, rules, (5, 0), equity) == pytest.approx(6 + 0.01)


def test_the_game_of_points_equity_counts_the_losers_points():
    """Both sides score in a round of the game of points: its model is of pairs."""
    equity = match_equity(PRESETS["pontos"])
    assert equity is not None and equity.target == 150
    assert equity.win(0, 0) == pytest.approx(0.5)
    # A round lost 20 to 45 from 130-130 is not a round that scored nothing for us.
    model = MatchEquity(150, rounds={(45, 20): 1.0}, unit=5)
    assert model.win(130, 130) == pytest.approx(0.5)
    assert model.win(130, 0) > 0.75  # 20 points for the loser too: 130 + 20 reaches 150
    winner_only = MatchEquity(150, {45: 1.0})
    assert model.win(130, 0) > winner_only.win(130, 0)


def test_medium_counts_a_spinners_four_ends_as_the_engine_scores_them():
    """At a spinner table (``pontos``) medium's count of each play (`_fives_made`)
    is what the engine scores, ends C and D included, and the `Table` it keeps
    play by play equals the one read afresh from a view."""
    from bots.heuristics import _fives_made, medium_choice
    from games.engine import Pass

    rules = PRESETS["pontos"]
    assert rules.spinner
    plays = on_sides = 0
    for seed in range(40):
        rnd = Round.deal(rules, random.Random(seed))
        table = Table.from_knowledge(read_view(rnd.view(0)))
        while not rnd.is_over:
            turn = rnd.turn
            fresh = Table.from_knowledge(read_view(rnd.view(turn)))
            assert (fresh.spin, fresh.sides, fresh.end_doubles) == (
                table.spin,
                table.sides,
                table.end_doubles,
            )
            legal = rnd.legal_actions()
            side = rules.side_of(turn)
            for action in legal:
                if type(action) is Play:
                    after = rnd.clone()
                    after.apply(turn, action)
                    made = after.result.made if after.result else after.public_view()["made"]
                    expected = made[side] - rnd.public_view()["made"][side]
                    assert _fives_made(action, rnd.ends, table)[0] == expected, action
                    plays += 1
                    on_sides += action.end in ("C", "D")
            action = medium_choice(legal, rnd.hand(turn), rnd.ends, turn, table)
            if type(action) is Play:
                table.played(turn, action.tile, action.end)
            elif type(action) is Pass:
                table.passed(turn, rnd.ends)
            else:
                table.drew(turn, rnd.ends)
            rnd.apply(turn, action)
    assert on_sides > 100 and plays > 1000


def _pontos_views(count: int) -> list[dict]:
    """Views of ``pontos`` decisions with more than one play, medium at every seat."""
    views = []
    for seed in range(20):
        rnd = Round.deal(PRESETS["pontos"], random.Random(seed))
        while not rnd.is_over and len(views) < count:
            view = rnd.view(rnd.turn)
            if len(view["legal"]) > 2:
                views.append(view)
            rnd.apply(rnd.turn, choose_action(view, "medium", random.Random(seed)))
    return views


def test_in_the_game_of_points_hard_keeps_mediums_play_unless_clearly_better(monkeypatch):
    """`FIVES_MARGIN`: with a margin nothing can clear, hard plays medium's first
    choice; with none, it plays its best average, which differs somewhere."""
    from bots import search

    views = _pontos_views(12)

    def hard(view):
        return choose_action(view, "hard", random.Random(3), budget_ms=20, clock=lambda: 0.0)

    monkeypatch.setattr(search, "FIVES_MARGIN", 1e9)
    assert all(hard(v) == choose_action(v, "medium", random.Random(0)) for v in views)
    monkeypatch.setattr(search, "FIVES_MARGIN", -1e9)
    assert any(hard(v) != choose_action(v, "medium", random.Random(0)) for v in views)


def test_clearly_better_is_a_paired_difference_over_its_standard_error(monkeypatch):
    from bots import search
    from bots.search import _clearly_better

    monkeypatch.setattr(search, "FIVES_MARGIN", 1.0)
    # Candidate 1 beats 0 by 1 a deal on each of 4 deals: no spread, clearly better.
    assert _clearly_better([0.0, 4.0], [0.0, 4.0, 4.0], 1)
    # By +3 and -1 twice each: mean 1, sample sd 2.31, standard error 1.15.
    assert not _clearly_better([0.0, 4.0], [0.0, 20.0, 4.0], 1)
    assert not _clearly_better([0.0, 4.0], [0.0, 4.0, 1.0], 1)  # one deal proves nothing
