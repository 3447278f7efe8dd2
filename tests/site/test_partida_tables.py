"""The partida de 6 and the game of points played at the table through the
services, end to end (docs/rules.md, "How a round is won", "Doubles in the
deal", "The game of points"): every round says how it was won (or what its
plays made), its JSON verifies, and a deal made again for four doubles verifies
too."""

from __future__ import annotations

import json

import pytest
from django.utils import translation

from games.engine import PRESETS
from games.engine.fairness import FairDeal, check_round, material, too_many_doubles
from games.fairness import verify
from games.rules_pages import sections
from games.selectors import replay_export
from rooms import services
from rooms.selectors import room_state
from tests.site.helpers import current, fresh, play_round, room_with_bots, seat

pytestmark = pytest.mark.django_db


def play_match(room, clock, rounds: int = 40) -> list:
    """Start a match and play it to its end, the host confirming every next round."""
    services.match_start(room=room, actor=seat(room, 0), now=clock())
    played = []
    for _ in range(rounds):
        rnd = play_round(room, clock())
        played.append(rnd)
        if rnd.match.over:
            return played
        services.player_ready(room=fresh(room), actor=seat(room, 0), now=clock())
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("preset", ["partida", "partida_dois", "pontos"])
def test_a_match_is_played_to_its_end_and_every_round_verifies(make_user, clock, preset):
    room = room_with_bots(make_user("ana"), clock(), preset=preset)
    played = play_match(room, clock)
    rules = PRESETS[preset]
    for rnd in played:
        result = rnd.engine().result
        if rules.scoring == "how_won":
            assert result.how in ("simples", "carroca", "la_e_lo", "cruzada", "fechado")
        else:
            assert len(result.made) == rules.sides and all(m % 5 == 0 for m in result.made)
        assert check_round(replay_export(rnd)) == []
    match = played[-1].match
    assert match.over and max(match.scores) >= rules.target


def test_a_deal_made_again_for_four_doubles_verifies(make_user, clock, tmp_path):
    room = room_with_bots(make_user("ana"), clock(), preset="partida")
    text = material(room.code, 1, 1, [])
    seed = next(
        s
        for s in (f"{i:064x}" for i in range(1, 500))
        if too_many_doubles(FairDeal.compute(s, text).order, 4, 7, 4)
    )
    room.next_server_seed = seed
    room.save(update_fields=["next_server_seed"])
    services.match_start(room=fresh(room), actor=seat(room, 0), now=clock())
    rnd = current(room)
    fair = FairDeal.compute(seed, text)
    assert rnd.deal["redeals"][0][1] >= 4
    assert rnd.deal["hands"][0] != [str(t) for t in fair.order[:7]]
    assert rnd.deal["hands"][0] == [str(t) for t in fair.order_for(PRESETS["partida"])[:7]]
    state = room_state(room=fresh(room), viewer=seat(room, 0))
    assert state["round"]["redeals"] == rnd.deal["redeals"]
    rnd = play_round(room, clock())
    assert check_round(replay_export(rnd)) == []
    saved = tmp_path / "round.json"  # the script anyone runs: python -m games.fairness verify
    saved.write_text(json.dumps(replay_export(rnd), default=str))
    assert verify(str(saved))[0] == 0


def test_the_rules_pages_follow_the_partida_and_points_knobs():
    def text(rules) -> str:
        with translation.override("en"):
            return " ".join(str(line) for s in sections(rules) for line in s["lines"])

    partida = PRESETS["partida"]
    assert "Cruzada" in text(partida) and "4 points" in text(partida)
    assert "6 points" in text(partida.replace(cruzada_points=6))
    assert "worth 1 point more" in text(partida)
    assert "worth 1 point to that side" in text(partida.replace(closed_round="lower_hand"))
    assert "dealt again" in text(partida) and "dealt again" not in text(PRESETS["parceria"])
    assert "worth double" in text(partida.replace(redeal_worth_double=True))
    assert "six doubles win" in text(partida.replace(doubles_prizes=True))
    pontos = PRESETS["pontos"]
    assert "multiple of 5" in text(pontos) and "spinner" in text(pontos)
    assert "spinner" not in text(pontos.replace(spinner=False))
    assert "no bonuses" not in text(pontos) and "no bonuses" in text(PRESETS["parceria"])


def test_the_snapshot_carries_the_points_made_and_the_bonus_only_at_those_tables(make_user, clock):
    for preset, key in (("pontos", "made"), ("partida", "bonus")):
        room = room_with_bots(make_user(f"host_{preset}"), clock(), preset=preset)
        services.match_start(room=room, actor=seat(room, 0), now=clock())
        state = room_state(room=fresh(room), viewer=seat(room, 0))
        assert key in state["round"]
    room = room_with_bots(make_user("host_parceria"), clock())
    services.match_start(room=room, actor=seat(room, 0), now=clock())
    state = room_state(room=fresh(room), viewer=seat(room, 0))
    assert not {"made", "bonus"} & set(state["round"])


@pytest.mark.parametrize(
    ("preset", "options", "code"),
    [("pontos", {"seats": 2}, None), ("duelo", {}, "malformed")],
)
def test_a_play_on_end_c_is_taken_at_a_spinner_table_only(make_user, clock, preset, options, code):
    """The socket passes ends C and D on (rooms/messages.py); the engine takes
    them once a spinner's sides are open and refuses them elsewhere."""
    from games.errors import ServiceError
    from tests.site.helpers import set_deal

    ana, bia = make_user("ana"), make_user("bia")
    room = services.room_create(user=ana, name="Mesa", preset=preset, options=options, now=clock())
    services.seat_take(room=room, index=1, user=bia, now=clock())
    services.match_start(room=fresh(room), actor=seat(room, 0), now=clock())
    set_deal(fresh(room), hands=[["5-5", "0-5", "3-5"], ["4-5", "2-4", "1-1"]], boneyard=["6-6"])
    for index, tile, end in ((0, "5-5", None), (1, "4-5", "B"), (0, "0-5", "A"), (1, "2-4", "B")):
        action = {"type": "play", "tile": tile, "end": end}
        services.action_apply(room=fresh(room), seat_index=index, action=action, version=None)
    c_play = {"type": "play", "tile": "3-5", "end": "C"}
    if code is None:
        services.action_apply(room=fresh(room), seat_index=0, action=c_play, version=None)
        state = room_state(room=fresh(room), viewer=seat(room, 0))["round"]
        assert state["ends"] == {"A": 0, "B": 2, "C": 3, "D": 5}
        chain = state["chain"]
        assert chain[-1] == {"tile": "3-5", "seat": 0, "end": "C", "exposed": 3}
    else:
        with pytest.raises(ServiceError) as refused:
            services.action_apply(room=fresh(room), seat_index=0, action=c_play, version=None)
        assert refused.value.code == code
