"""A spinner's four ends on the felt (static/js/chain_layout.js, docs/rules.md,
"The game of points"): chains of real ``pontos`` rounds, laid out in node as
the table page does, at phone and desktop proportions. Arms C and D leave the
spinner's long sides; no two tiles overlap; every tile played on C or D lies
on the spinner's side of the line, and the end markers name the four ends."""

from __future__ import annotations

import json
import random

from games.engine import PRESETS, Round
from tests.node import module, needs_node, run


def _chains(count: int) -> list[dict]:
    """Chains of ``pontos`` rounds with tiles on both C and D, and their ends."""
    found = []
    for seed in range(400):
        rnd = Round.deal(PRESETS["pontos"], random.Random(seed))
        rng = random.Random(seed)
        while not rnd.is_over:
            legal = rnd.legal_actions()
            rnd.apply(rnd.turn, legal[rng.randrange(len(legal))])
        view = rnd.public_view()
        if {"C", "D"} <= {link["end"] for link in view["chain"]}:
            found.append({"chain": view["chain"], "ends": view["ends"]})
        if len(found) == count:
            break
    return found


@needs_node
def test_the_spinners_arms_leave_its_sides_and_no_tiles_overlap():
    rounds = _chains(40)
    assert len(rounds) == 40
    script = f"""
const m = await import({module("chain_layout.js")});
const rounds = {json.dumps(rounds)};
const out = [];
for (const aspect of [0.75, 1.6]) {{
  for (const r of rounds) {{
    const lay = m.layoutChain(r.chain, aspect, {{}}, 1, true);
    const spin = lay.tiles[m.spinnerIndex(r.chain)];
    const sides = lay.tiles.filter((t) => t.end === "C" || t.end === "D").map((t) => {{
      const row = spin.w < spin.h; // the spinner upright in a row: C above, D below
      const [c, s] = row ? [t.y + t.h / 2, spin.y + spin.h / 2] : [t.x + t.w / 2, spin.x + spin.w / 2];
      return (t.end === "C") === (c < s);
    }});
    let overlaps = 0;
    for (let i = 0; i < lay.tiles.length; i++) for (let j = 0; j < i; j++) {{
      const a = lay.tiles[i], b = lay.tiles[j];
      const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
      const h = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
      if (w > 0.05 && h > 0.05) overlaps++;
    }}
    const values = ["A", "B", "C", "D"].map((e) => lay.ends[e]?.value);
    out.push({{ overlaps, sides: sides.every(Boolean), values, ends: r.ends }});
  }}
}}
console.log(JSON.stringify(out));
"""
    for result in run(script):
        assert result["overlaps"] == 0
        assert result["sides"]
        assert result["values"] == [result["ends"][e] for e in "ABCD"]
