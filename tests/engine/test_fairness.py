"""Verifiable deals (docs/rules.md, "Verifiable deals"): the documented vectors give
the documented deals, and the engine deals from the permutation in every preset."""

from __future__ import annotations

import hashlib

import pytest

from games.engine import ALL_TILES, PRESETS, Round, Tile
from games.engine.fairness import (
    FairDeal,
    FairnessError,
    Stream,
    check_round,
    commitment,
    material,
    shuffle,
    split,
    valid_client_seed,
)

# docs/rules.md, "Verifiable deals": seed, commitment, material, seats, hands, boneyard.
VECTORS = [
    (
        "00" * 32,
        "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925",
        ("ABCD2345", 1, 1, []),
        "ABCD2345:1:1:",
        [
            "0-0 0-6 4-4 0-4 0-2 2-3 2-4",
            "4-5 3-3 1-4 3-6 0-5 1-1 0-1",
            "1-6 2-6 1-3 0-3 4-6 1-5 1-2",
            "2-2 6-6 3-5 5-5 3-4 2-5 5-6",
        ],
        "",
    ),
    (
        "9f" * 32,
        "5c5cfbd0d57154c7d850850aca75ec190560e99bd34032f1e69c2f75883595da",
        ("ABCD2345", 1, 2, ["c0ffee", "Ana's seed"]),
        "ABCD2345:1:2:c0ffee:Ana's seed",
        ["0-5 0-3 3-5 0-1 6-6 2-4 0-6", "0-4 2-3 1-6 4-6 2-2 2-5 0-0"],
        "5-5 2-6 4-4 3-6 0-2 3-3 1-1 5-6 1-4 1-2 1-3 4-5 3-4 1-5",
    ),
    (
        "801d8b5450e12d2a81b26bd0bdab479dbac079fa9717d4ba0e2df9bc8d07bb1d",
        "a90d09118cc842f60ffa58c009096e583fcfae9e755e5bd009c8f53e598bb1a3",
        ("ZZ9XK7QP", 3, 5, ["0123456789abcdef0123456789abcdef"]),
        "ZZ9XK7QP:3:5:0123456789abcdef0123456789abcdef",
        [
            "3-5 1-1 3-6 4-4 2-3 0-0 0-4",
            "2-5 0-5 1-6 4-5 2-6 2-4 5-6",
            "3-4 0-6 2-2 1-3 1-4 4-6 1-5",
        ],
        "3-3 6-6 0-1 0-3 5-5 0-2 1-2",
    ),
]


def _tiles(text: str) -> tuple[Tile, ...]:
    return tuple(Tile.parse(t) for t in text.split())


@pytest.mark.parametrize("seed, committed, parts, text, hands, boneyard", VECTORS)
def test_the_vectors_give_the_documented_deals(seed, committed, parts, text, hands, boneyard):
    assert commitment(seed) == committed
    assert material(*parts) == text
    dealt, rest = split(shuffle(seed, text), seats=len(hands), hand_size=7)
    assert dealt == tuple(_tiles(h) for h in hands)
    assert rest == _tiles(boneyard)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_engine_deals_the_permutation_in_every_preset(preset):
    seed, _, parts, text, _, _ = VECTORS[1]
    rules = PRESETS[preset]
    deal = FairDeal.compute(seed, material(*parts))
    rnd = Round.deal(
        rules,
        order=deal.order,
        tiebreak_order=deal.tiebreak_order,
        redeal_orders=deal.redeal_orders(),
    )
    order = deal.order_for(rules)  # the deal's order, unless a hand held too many doubles
    size = rules.hand_size
    for s in range(rules.seats):
        assert rnd.hand(s) == tuple(order[s * size : (s + 1) * size])
    boneyard = rnd.initial["boneyard"]
    assert boneyard == ([str(t) for t in order[rules.seats * size :]] if rules.draw else [])


def test_the_stream_is_sha256_blocks_and_uniform_rejects_the_biased_tail():
    seed, text = "9f" * 32, "X:1:1:"
    key = bytes.fromhex(seed) + text.encode()
    blocks = b"".join(hashlib.sha256(key + k.to_bytes(8, "big")).digest() for k in range(3))
    assert Stream(seed, text).read(96) == blocks
    # n = 3: 2**32 mod 3 = 1, so only x = 2**32 - 1 is refused; with n = 2**31 + 1
    # about half the draws are, and every result is still below n.
    stream = Stream(seed, text)
    draws = [stream.uniform(2**31 + 1) for _ in range(50)]
    assert all(0 <= d <= 2**31 for d in draws)
    words = [int.from_bytes(blocks[i : i + 4], "big") for i in range(0, 96, 4)]
    assert Stream(seed, text).uniform(7) == next(w for w in words if w < 2**32 - 2**32 % 7) % 7


def test_the_tiebreak_order_is_the_second_shuffle_and_leaves_the_deal_alone():
    seed, text = "9f" * 32, "X:1:1:"
    deal = FairDeal.compute(seed, text)
    assert deal.order == shuffle(seed, text)
    assert sorted(deal.tiebreak_order) == list(ALL_TILES)
    assert deal.tiebreak_order != deal.order


@pytest.mark.parametrize("value", ["", "a:b", "é", "x" * 65, "tab\there", "line\n", 7, None])
def test_client_seeds_are_printable_ascii_without_colons(value):
    assert not valid_client_seed(value)
    with pytest.raises(FairnessError):
        material("ABCD2345", 1, 1, [value])


@pytest.mark.parametrize("value", ["a", " ", "~" * 64, "Ana's seed", "0123456789abcdef" * 2])
def test_client_seeds_taken(value):
    assert valid_client_seed(value)


@pytest.mark.parametrize("seed", ["00" * 31, "AB" * 32, "zz" * 32, None])
def test_a_server_seed_is_64_lowercase_hex_digits(seed):
    with pytest.raises(FairnessError):
        commitment(seed)


def test_deal_needs_a_permutation_of_the_28_tiles():
    with pytest.raises(ValueError):
        Round.deal(PRESETS["duelo"], order=ALL_TILES[:27] + ALL_TILES[:1])
    with pytest.raises(TypeError):
        Round.deal(PRESETS["duelo"])


def _vector_round(index: int) -> dict:
    seed, committed, parts, text, hands, boneyard = VECTORS[index]
    code, match, number, seeds = parts
    return {
        "room": code,
        "match": match,
        "number": number,
        "rules": {"seats": len(hands), "hand_size": 7, "draw": bool(boneyard)},
        "deal": {"hands": [h.split() for h in hands]},
        "moves": [{"type": "draw", "tile": t} for t in boneyard.split()[:2]],
        "fair": {
            "version": "domino-fair-v1",
            "commitment": committed,
            "client_seeds": seeds,
            "server_seed": seed,
            "material": text,
        },
    }


@pytest.mark.parametrize("index", range(len(VECTORS)))
def test_the_checker_takes_the_vectors_and_names_each_difference(index):
    data = _vector_round(index)
    assert check_round(data) == []
    data["deal"]["hands"][0][0], data["deal"]["hands"][-1][0] = (
        data["deal"]["hands"][-1][0],
        data["deal"]["hands"][0][0],
    )
    problems = check_round(data)
    assert any(p.startswith("seat 0 ") for p in problems)


def test_the_checker_sees_a_wrong_draw_and_a_wrong_commitment():
    data = _vector_round(1)
    data["moves"][1]["tile"] = "6-6"
    data["fair"]["commitment"] = "0" * 64
    problems = check_round(data)
    assert any("draw 2 took 6-6" in p for p in problems)
    assert any("commitment" in p for p in problems)
