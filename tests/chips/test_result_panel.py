"""The result panel of a staked match says what each person won or lost and
the bank's share (docs/site.md, "Fichas"; docs/protocol.md, ``pot``), through
the plurals; a bot's seat, the bank's, is left out. The page script's words
are run in node with the table page's own strings."""

from __future__ import annotations

import json

from django.utils import translation

from rooms.page_strings import TABLE, translated
from tests.node import BROWSER, module, needs_node, run

pytestmark = needs_node


def _words(pot: dict) -> dict:
    with translation.override("en"):
        strings = translated(TABLE)
    names = json.dumps({0: "ana", 1: "bruno", 2: "carla", 3: "Bot"})
    script = (
        BROWSER
        + f"const state = await import({module('table', 'state.js')});\n"
        + f"const util = await import({module('util.js')});\n"
        + f"const m = await import({module('table', 'panels.js')});\n"
        + f"state.page.t = util.makeT({json.dumps(strings)});\n"
        + f"const names = {names};\n"
        + f"process.stdout.write(JSON.stringify(m.potWords({json.dumps(pot)}, (i) => names[i])));\n"
    )
    return run(script)


def test_the_panel_says_who_won_and_lost_how_many_chips_and_the_bank_s_share():
    pot = {
        "stake": 100,
        "total": 400,
        "settled": True,
        "outcome": "won",
        "bank_share": 160,
        "net": [
            {"seat": 0, "net": 20, "bank": False},
            {"seat": 1, "net": -100, "bank": False},
            {"seat": 2, "net": 20, "bank": False},
            {"seat": 3, "net": -100, "bank": True},
        ],
    }
    words = _words(pot)
    assert [w["text"] for w in words["seats"]] == [
        "ana: won 20 chips",
        "bruno: lost 100 chips",
        "carla: won 20 chips",
    ]
    assert words["bank"] == "The bank's share: 160 chips"


def test_a_returned_stake_and_one_chip_read_as_such():
    pot = {
        "settled": True,
        "outcome": "won",
        "bank_share": 1,
        "net": [{"seat": 0, "net": 1, "bank": False}, {"seat": 1, "net": 0, "bank": False}],
    }
    words = _words(pot)
    assert [w["text"] for w in words["seats"]] == ["ana: won 1 chip", "bruno: stake returned"]
    assert words["bank"] == "The bank's share: 1 chip"


def _stake_text(stake: int, pot: dict | None) -> str:
    script = (
        BROWSER
        + f"const m = await import({module('table', 'panels.js')});\n"
        + f"process.stdout.write(JSON.stringify(m.stakeText({stake}, {json.dumps(pot)})));\n"
    )
    return run(script)


def test_the_scoreboard_says_each_seat_s_stake_and_the_pot():
    assert _stake_text(0, None) == ""  # a free table
    assert _stake_text(100, None) == "Stake: 100 chips a seat"
    held = {"stake": 100, "total": 400, "settled": False}
    assert _stake_text(100, held) == "Stake: 100 chips a seat · Pot: 400 chips"
    assert _stake_text(1, {"stake": 1, "total": 2, "settled": True}) == "Stake: 1 chip a seat"


def _seat_stakes(seats: list[dict], stake: int, pot: dict | None) -> list:
    with translation.override("en"):
        strings = translated(TABLE)
    script = (
        BROWSER
        + f"const state = await import({module('table', 'state.js')});\n"
        + f"const util = await import({module('util.js')});\n"
        + f"const m = await import({module('table', 'panels.js')});\n"
        + f"state.page.t = util.makeT({json.dumps(strings)});\n"
        + f"const seats = {json.dumps(seats)};\n"
        + f"process.stdout.write(JSON.stringify(seats.map((s) => m.seatStake(s, {stake}, {json.dumps(pot)}))));\n"
    )
    return run(script)


NOTICE = "Play chips only: they cannot be bought, sold, cashed out or transferred."


def test_each_seat_shows_its_stake_next_to_its_name_a_bot_s_paid_by_the_bank():
    seats = [
        {"index": 0, "kind": "human"},
        {"index": 1, "kind": "bot"},
        {"index": 2, "kind": "empty"},
    ]
    assert _seat_stakes(seats, 0, None) == [None, None, None]  # a free table
    before = _seat_stakes(seats, 50, None)  # no match holds the stakes yet
    assert before[0] == {
        "n": 50,
        "bank": False,
        "text": "50",
        "title": f"Stake: 50 chips. {NOTICE}",
    }
    assert before[1]["title"] == f"Stake: 50 chips, paid by the bank. {NOTICE}"
    assert before[2] is None  # an empty seat stakes nothing
    held = {
        "stake": 1,
        "total": 2,
        "settled": False,
        "seats": [{"seat": 0, "stake": 1, "bank": False}, {"seat": 1, "stake": 1, "bank": True}],
    }
    during = _seat_stakes(seats, 50, held)  # the pot's stake: the one the match holds
    assert [(s["text"], s["bank"]) for s in during[:2]] == [("1", False), ("1", True)]
    assert during[0]["title"] == f"Stake: 1 chip. {NOTICE}"


def test_the_seat_badges_words_are_in_the_pt_br_catalog(client):
    catalog = client.get("/jsi18n/", HTTP_ACCEPT_LANGUAGE="pt-br").content.decode()
    assert "Aposta: %(n)s fichas, paga pela banca" in catalog
    assert "Aposta: %(n)s ficha" in catalog
