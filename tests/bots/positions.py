"""Positions the bots' tests share."""

from games.engine import PASS, PRESETS, Play, Round, Tile


def only_five_five_left() -> Round:
    """A ``sem_monte`` duel where seat 1 has passed against 0/1, 3/1, 3/2, 4/2 and
    4/6 with one tile left: it can only be 5-5. Seat 0, to play, holds 4-5 and 0-6."""
    rnd = Round.from_hands(
        PRESETS["sem_monte"],
        hands=[["0-1", "0-3", "1-2", "3-4", "2-6", "4-5", "0-6"], ["5-5"]],
        opener=0,
    )
    for tile, end in [("0-1", None), ("0-3", "A"), ("1-2", "B"), ("3-4", "A"), ("2-6", "B")]:
        rnd.apply(0, Play(Tile.parse(tile), end))
        rnd.apply(1, PASS)
    return rnd


def fives_double_at_end_a() -> Round:
    """A ``pontos`` round without the spinner (two ends): 5-5 opened (10 for seat 0), then 3-5, 3-4 and 4-5 on end B
    (15 for seat 3). Both ends show 5, end A's tile being the double. Seat 0, to
    play, holds 0-5, 1-2, 2-6 and 1-6: 0-5 on end A leaves 0 + 5 (5 points), on end
    B the double's 10 + 0 (10 points)."""
    rnd = Round.from_hands(
        PRESETS["pontos"].replace(spinner=False),
        hands=[
            ["5-5", "0-5", "1-2", "2-6", "1-6"],
            ["3-5", "0-1", "1-1", "1-3", "0-2"],
            ["3-4", "0-3", "2-3", "2-2", "1-4"],
            ["4-5", "0-4", "2-4", "4-4", "0-6"],
        ],
        boneyard=["0-0", "3-3", "3-6", "4-6", "5-6", "6-6", "1-5", "2-5"],
        opener=0,
        first_of_match=False,
    )
    for seat, tile, end in [(0, "5-5", None), (1, "3-5", "B"), (2, "3-4", "B"), (3, "4-5", "B")]:
        rnd.apply(seat, Play(Tile.parse(tile), end))
    return rnd


def partida_la_e_lo_to_set_up() -> Round:
    """A ``partida`` round of three tiles a hand: seat 0 opened 3-4, seat 1 passed,
    seat 2 laid 4-5 (ends 3 and 5), seat 3 passed. Seat 0 holds 3-5 and 5-6, and
    nobody else holds a 3, 5 or 6. 3-5 on end A leaves 5 and 5: 5-6 then wins by a
    lá-e-lô (3 points); 5-6 on end B leaves 3 and 6: 3-5 wins by a batida simples
    (1 point)."""
    rules = PRESETS["partida"].replace(hand_size=3, redeal_doubles=None)
    rnd = Round.from_hands(
        rules,
        hands=[["3-4", "3-5", "5-6"], ["0-1", "1-2", "0-2"], ["4-5", "0-0", "1-1"],
               ["0-4", "2-4", "1-4"]],
        opener=0,
        first_of_match=False,
    )  # fmt: skip
    rnd.apply(0, Play(Tile.parse("3-4"), None))
    rnd.apply(1, PASS)
    rnd.apply(2, Play(Tile.parse("4-5"), "B"))
    rnd.apply(3, PASS)
    return rnd
