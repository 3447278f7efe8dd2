"""Every worked example of docs/rules.md, one test each."""

import random

import pytest

from games.engine import (
    ALL_TILES,
    PRESETS,
    IllegalAction,
    Match,
    Pass,
    Play,
    Round,
    RoundResult,
    Tile,
)


def T(text: str) -> Tile:
    return Tile.parse(text)


def test_parceria_domino_scores_the_opponents_hands_only():
    # seat 2 plays its last tile; seats 1 and 3 hold 2-5 and 6-6, 0-0; seat 0 holds 4-4.
    rnd = Round.from_hands(
        PRESETS["parceria"],
        hands=[["4-4"], ["2-5"], ["3-3"], ["6-6", "0-0"]],
        opener=2,
    )
    rnd.apply(2, Play(T("3-3")))
    result = rnd.result
    assert result.reason == "domino"
    assert result.winner == 0
    assert result.points == (7 + 12 + 0, 0)  # seat 0's 4-4 changes nothing


def test_parceria_blocked_tie_the_last_player_side_loses():
    # side 0 holds 10 pips in all, side 1 holds 10; the last tile was placed by seat 3.
    rnd = Round.from_hands(
        PRESETS["parceria"],
        hands=[["5-5"], ["2-2"], ["0-0"], ["6-6", "3-3"]],
        opener=3,
        first_of_match=False,
    )
    rnd.apply(3, Play(T("6-6")))
    for seat in (0, 1, 2, 3):
        rnd.apply(seat, Pass())
    result = rnd.result
    assert result.reason == "blocked"
    assert result.last_player == 3
    assert result.winner == 0
    assert result.points == (10, 0)


def _play_out(rnd: Round, rng: random.Random) -> RoundResult:
    while not rnd.is_over:
        rnd.apply(rnd.turn, rng.choice(rnd.legal_actions()))
    return rnd.result


def test_parceria_first_round_opens_with_six_six_then_rotates():
    rng = random.Random(11)
    match = Match(PRESETS["parceria"])
    first = match.new_round(rng)
    holder = next(s for s in range(4) if T("6-6") in first.hand(s))
    assert first.turn == holder and first.mandatory_tile == T("6-6")
    assert first.legal_actions() == [Play(T("6-6"))]
    other = next(t for t in first.hand(holder) if t != T("6-6"))
    before = first.to_dict()
    with pytest.raises(IllegalAction) as err:
        first.apply(holder, Play(other))
    assert err.value.code == "opening_tile_required"
    assert first.to_dict() == before

    match.finish_round(_play_out(first, rng))
    second = match.new_round(rng)
    assert second.opener == (holder + 1) % 4
    assert second.mandatory_tile is None
    assert sorted(a.tile for a in second.legal_actions()) == sorted(second.hand(second.opener))


def test_parceria_reaching_the_target_ends_the_match_and_new_match_resets():
    match = Match(PRESETS["parceria"])
    match.scores = (48, 30)
    won = RoundResult("domino", 0, 0, (13, 0), (0, 0, 0, 0), ((), (), (), ()), 0)
    match.finish_round(won)
    assert match.scores == (61, 30)
    assert match.is_over and match.winner == 0
    with pytest.raises(ValueError):
        match.new_round(random.Random(1))

    fresh = Match(PRESETS["parceria"])
    assert fresh.scores == (0, 0)
    rnd = fresh.new_round(random.Random(5))
    assert rnd.mandatory_tile == T("6-6")


def test_duelo_without_doubles_the_highest_tile_opens_and_is_mandatory():
    rnd = Round.from_hands(
        PRESETS["duelo"],
        hands=[["1-6", "0-2", "0-5"], ["2-5", "0-3", "1-4"]],
    )
    assert rnd.opener == 0 and rnd.turn == 0
    assert rnd.mandatory_tile == T("1-6")
    with pytest.raises(IllegalAction) as err:
        rnd.apply(0, Play(T("0-5")))
    assert err.value.code == "opening_tile_required"
    rnd.apply(0, Play(T("1-6")))
    assert rnd.ends == (1, 6)


@pytest.mark.parametrize(
    ("hand_1", "winner", "points"),
    [
        (["5-5", "2-2"], 0, (5, 0)),  # 9 against 14: the 9 side scores the difference
        (["3-3", "1-2"], None, (0, 0)),  # 9 against 9: a draw, nobody scores
    ],
)
def test_duelo_blocked_round_scores_the_difference(hand_1, winner, points):
    rnd = Round.from_hands(PRESETS["duelo"], hands=[["6-6", "4-5"], hand_1])
    assert rnd.turn == 0 and rnd.mandatory_tile == T("6-6")
    rnd.apply(0, Play(T("6-6")))
    rnd.apply(1, Pass())
    rnd.apply(0, Pass())
    assert rnd.result.reason == "blocked"
    assert rnd.result.winner == winner
    assert rnd.result.points == points


ARENA_PLAYS = [
    (0, "4-4", None), (1, "2-4", "A"), (0, "3-4", "B"), (1, "1-2", "A"), (0, "3-5", "B"),
    (1, "1-4", "A"), (0, "4-5", "B"), (1, "0-4", "B"), (0, "0-6", "B"), (1, "4-6", "B"),
]  # fmt: skip


def _arena_round(extra_for_seat_1: list[str]) -> Round:
    hand_0 = [t for s, t, _ in ARENA_PLAYS if s == 0] + ["6-6"]
    hand_1 = [t for s, t, _ in ARENA_PLAYS if s == 1] + extra_for_seat_1
    return Round.from_hands(
        PRESETS["arena"], hands=[hand_0, hand_1], boneyard=["0-0", "1-1"], opener=0
    )


def test_arena_locked_ends_block_at_once_while_the_boneyard_has_tiles():
    rnd = _arena_round(["5-5"])
    for seat, tile, end in ARENA_PLAYS:
        assert not rnd.is_over
        rnd.apply(seat, Play(T(tile), end))
    assert rnd.ends == (4, 4)
    assert rnd.boneyard_count == 2
    assert rnd.result.reason == "blocked"
    assert rnd.result.winner == 1  # 5-5 (10) against 6-6 (12)
    assert rnd.result.points == (0, 1)


def test_arena_locking_play_with_the_last_tile_is_a_domino():
    rnd = _arena_round([])
    for seat, tile, end in ARENA_PLAYS:
        rnd.apply(seat, Play(T(tile), end))
    assert rnd.result.reason == "domino"
    assert rnd.result.winner == 1


def test_com_monte_lowest_double_but_zero_zero_opens_with_any_tile():
    rnd = Round.from_hands(
        PRESETS["com_monte"],
        hands=[["0-0", "3-3", "2-5"], ["1-1", "4-6", "0-5"]],
        boneyard=["2-3"],
    )
    assert rnd.opener == 1 and rnd.mandatory_tile is None
    assert {a.tile for a in rnd.legal_actions()} == {T("1-1"), T("4-6"), T("0-5")}
    rnd.apply(1, Play(T("4-6")))
    assert rnd.ends == (4, 6)


def test_passing_with_a_fitting_tile_is_refused_and_changes_nothing():
    rnd = Round.from_hands(
        PRESETS["parceria"],
        hands=[["6-6", "0-1"], ["6-2", "3-3"], ["4-4", "5-5"], ["1-1", "2-2"]],
    )
    rnd.apply(0, Play(T("6-6")))
    before = rnd.to_dict()
    with pytest.raises(IllegalAction) as err:
        rnd.apply(1, Pass())
    assert err.value.code == "must_play"
    assert rnd.to_dict() == before


# -- the partida de 6 and the game of points (docs/rules.md, "How a round is won",
# "Doubles in the deal", "The game of points")


def test_partida_la_e_lo_scores_three():
    rnd = Round.from_hands(
        PRESETS["partida"], hands=[["2-3", "6-6"], ["2-5", "0-0"], ["3-5"], ["1-1"]], opener=0
    )
    rnd.apply(0, Play(T("2-3")))
    rnd.apply(1, Play(T("2-5"), "A"))
    assert rnd.ends == (5, 3)
    rnd.apply(2, Play(T("3-5"), "B"))
    assert (rnd.result.how, rnd.result.winner, rnd.result.points) == ("la_e_lo", 0, (3, 0))


def test_partida_cruzada_scores_four():
    rnd = Round.from_hands(
        PRESETS["partida"],
        hands=[["1-4", "0-0"], ["1-6", "0-1"], ["4-6", "0-2"], ["4-4"]],
        opener=0,
    )
    rnd.apply(0, Play(T("1-4")))
    rnd.apply(1, Play(T("1-6"), "A"))
    rnd.apply(2, Play(T("4-6"), "A"))
    assert rnd.ends == (4, 4)
    rnd.apply(3, Play(T("4-4"), "A"))
    assert (rnd.result.how, rnd.result.winner, rnd.result.points) == ("cruzada", 1, (0, 4))


def _blocked_partida_round(previous):
    rnd = Round.from_hands(
        PRESETS["partida"],
        hands=[["6-6", "0-0"], ["1-1"], ["2-2"], ["3-3"]],
        opener=0,
        previous=previous,
    )
    rnd.apply(0, Play(T("6-6")))
    for seat in (1, 2, 3, 0):
        rnd.apply(seat, Pass())
    return rnd.result


def test_partida_two_blocked_rounds_in_a_row_add_up():
    first = _blocked_partida_round(None)
    assert (first.reason, first.how, first.winner, first.points, first.carry) == (
        "blocked", "fechado", None, (0, 0), 1,
    )  # fmt: skip
    second = _blocked_partida_round(first)
    assert (second.points, second.carry) == ((0, 0), 2)
    third = Round.from_hands(
        PRESETS["partida"],
        hands=[["1-5", "3-3"], ["5-5"], ["2-2"], ["4-4"]],
        opener=0,
        previous=second,
    )
    assert third.initial["bonus"] == 2
    third.apply(0, Play(T("1-5")))
    third.apply(1, Play(T("5-5"), "B"))
    result = third.result
    assert (result.how, result.points, result.carry) == ("carroca", (0, 2 + 2), 0)
    assert result.carried == 2 and result.to_dict()["carried"] == 2  # the 2 apart from the win's
    assert "carried" not in first.to_dict()
    replayed = Round.replay(third.rules, third.initial, third.history)
    assert replayed.result == result


def test_partida_a_hand_of_four_doubles_is_dealt_again():
    doubles = [T("0-0"), T("1-1"), T("2-2"), T("3-3")]
    first = doubles + [t for t in ALL_TILES if t not in doubles]
    second = list(reversed(ALL_TILES))  # seat 0: 6-6, 5-6, 4-6, ...: one double
    rnd = Round.deal(PRESETS["partida"], order=first, redeal_orders=[second])
    assert rnd.initial["redeals"] == [[0, 4]]
    assert rnd.hand(0) == tuple(second[:7])
    # Worth double where the table says so: a lá-e-lô then scores 6.
    rules = PRESETS["partida"].replace(redeal_worth_double=True)
    rnd = Round.from_hands(
        rules, hands=[["2-3", "6-6"], ["2-5", "0-0"], ["3-5"], ["1-1"]], opener=0, redeals=[[0, 4]]
    )
    for seat, play in ((0, Play(T("2-3"))), (1, Play(T("2-5"), "A")), (2, Play(T("3-5"), "A"))):
        rnd.apply(seat, play)
    assert rnd.result.points == (6, 0)


def test_pontos_scores_the_fives_as_they_are_made_and_the_others_pips_at_the_end():
    rnd = Round.from_hands(
        PRESETS["pontos"],
        hands=[["5-5", "1-5"], ["0-5", "6-6"], ["0-3", "4-4"], ["3-5", "2-4"]],
        opener=0,
    )
    made = []
    for seat, play in (
        (0, Play(T("5-5"))),
        (1, Play(T("0-5"), "B")),
        (2, Play(T("0-3"), "B")),
        (3, Play(T("3-5"), "B")),
        (0, Play(T("1-5"), "A")),
    ):
        rnd.apply(seat, play)
        made.append(rnd.fives_count())
    assert made == [10, 10, 13, 15, 6]
    result = rnd.result
    assert result.made == (10, 25)
    assert result.points == (10 + 20, 25)  # 6-6 and 2-4: 18 pips, rounded to 20


def test_pontos_with_a_spinner_opens_four_ends_and_counts_them():
    rules = PRESETS["pontos"].replace(spinner=True)
    rnd = Round.from_hands(
        rules,
        hands=[["5-5", "5-6", "1-2"], ["0-5", "0-4"], ["4-5", "2-2"], ["1-5", "3-3"]],
        opener=0,
    )
    counts = []
    for seat, play in (
        (0, Play(T("5-5"))),  # the spinner: 10
        (1, Play(T("0-5"), "A")),  # 0 + 5-5 at end B: 10
        (2, Play(T("4-5"), "B")),  # 0 + 4: both line sides taken, C and D open
        (3, Play(T("1-5"), "C")),  # 0 + 4 + 1: 5
        (0, Play(T("5-6"), "D")),  # 0 + 4 + 1 + 6: 11
        (1, Play(T("0-4"), "A")),  # 4 + 4 + 1 + 6: 15, and seat 1's last tile
    ):
        if play.end == "C":
            assert rnd.public_view()["ends"] == {"A": 0, "B": 4, "C": 5, "D": 5}
        rnd.apply(seat, play)
        counts.append(rnd.fives_count())
    assert counts == [10, 10, 4, 5, 11, 15]
    result = rnd.result
    assert result.made == (10, 10 + 5 + 15)
    assert result.points == (10, 30 + 5)  # 1-2 and 2-2: 7 pips, rounded to 5


def pontos_match_at(scores: tuple[int, int], hands: list[list[str]]) -> tuple[Match, Round]:
    """A pontos match at ``scores`` whose next round is dealt ``hands`` (seat 0
    opens: it went out last), through `Match.new_round` as the site deals."""
    rules = PRESETS["pontos"]
    match = Match(rules)
    empty = ((),) * rules.seats
    match.finish_round(RoundResult("domino", 0, 0, scores, (0,) * rules.seats, empty, 0))
    dealt = [T(t) for hand in hands for t in hand]
    order = dealt + [t for t in ALL_TILES if t not in dealt]
    return match, match.new_round(order=order)


def test_pontos_at_140_all_the_first_side_to_reach_150_wins_the_match_at_that_play():
    # docs/rules.md, "The game of points": sides at 140/140; seat 0 opens 5-5 and
    # scores 10. The round and the match end there: side 0 wins 150-140. (Played
    # on, seat 1 would go out with 0-5 for 10 and a bonus rounded to 0: 150-150.)
    hands = [
        ["5-5", "0-0", "1-1", "2-2", "3-3"],
        ["0-5", "1-6", "2-6", "3-6", "4-6"],
        ["0-1", "1-2", "1-3", "1-4", "2-3"],
        ["2-4", "3-4", "4-4", "0-6", "6-6"],
    ]
    match, rnd = pontos_match_at((140, 140), hands)
    assert rnd.turn == 0 and rnd.initial["scores"] == [140, 140]
    # A bot's round rebuilt from the public view stops at the same play.
    view = rnd.view(1)
    assert view["scores"] == [140, 140]
    guess = Round.from_view(view, [rnd.hand(s) for s in range(4)], rnd.to_dict()["boneyard"])
    guess.apply(0, Play(T("5-5")))
    assert guess.result.reason == "target" and guess.result.winner == 0
    rnd.apply(0, Play(T("5-5")))
    result = rnd.result
    assert rnd.is_over and result.reason == "target" and result.winner == 0
    assert result.points == result.made == (10, 0)  # no count of the hands
    assert rnd.legal_actions(1) == []
    match.finish_round(result)
    assert match.is_over and match.winner == 0 and match.scores == (150, 140)
    replayed = Round.replay(rnd.rules, rnd.initial, rnd.history)
    assert replayed.to_dict() == rnd.to_dict() == Round.from_dict(rnd.to_dict()).to_dict()


def test_pontos_both_sides_would_pass_the_target_the_one_that_reached_it_first_wins():
    # Side 0 at 130, side 1 at 140: seat 0 opens 5-5 (10: side 0 at 140); seat 1
    # plays 0-5 on A (0 + the spinner's 10: side 1 at 150, first there). The round
    # stops: seat 2's 0-3 for 15 and the end-of-round count never come.
    hands = [
        ["5-5", "1-1", "2-2", "3-3", "4-4"],
        ["0-5", "1-6", "2-6", "3-6", "4-6"],
        ["0-3", "1-2", "1-3", "1-4", "2-3"],
        ["2-4", "3-4", "0-0", "0-6", "6-6"],
    ]
    match, rnd = pontos_match_at((130, 140), hands)
    rnd.apply(0, Play(T("5-5")))
    assert not rnd.is_over
    rnd.apply(1, Play(T("0-5"), "A"))
    assert rnd.result.reason == "target" and rnd.result.points == (10, 10)
    match.finish_round(rnd.result)
    assert match.is_over and match.winner == 1 and match.scores == (140, 150)


def test_pontos_a_domino_short_of_the_target_still_counts_the_hands_and_can_win():
    # Side 0 at 145: seat 2 opens 3-4 (7), seat 3 passes, seat 0 goes out with
    # 4-6 on B (3 + 6 = 9: nothing); the others' pips (0-6 and 0-5, 11) round to
    # 10: side 0 reaches 155 at the round's count and wins.
    rules = PRESETS["pontos"]
    rnd = Round.from_hands(
        rules, hands=[["4-6"], ["0-6"], ["3-4", "1-1"], ["0-5"]], opener=2, scores=(145, 100)
    )
    rnd.apply(2, Play(T("3-4")))
    rnd.apply(3, Pass())
    rnd.apply(0, Play(T("4-6"), "B"))
    assert rnd.result.reason == "domino" and rnd.result.points == (10, 0)
    match = Match.from_dict({**Match(rules).to_dict(), "scores": [145, 100]})
    match.finish_round(rnd.result)
    assert match.is_over and match.winner == 0 and match.scores == (155, 100)
