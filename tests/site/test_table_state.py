"""The table page's store (static/js/table/state.js), run in node: the state is
read anywhere and changed only through ``setState``, which tells its
subscribers which keys changed; an assignment throws, and the hints switch is
kept in localStorage."""

from __future__ import annotations

from tests.node import module, needs_node, run

STUBS = """
const stored = {};
globalThis.localStorage = { getItem: (k) => stored[k] ?? null, setItem: (k, v) => { stored[k] = v; } };
"""

pytestmark = needs_node


def test_set_state_tells_the_subscribers_and_an_assignment_throws():
    script = (
        STUBS
        + f"const m = await import({module('table', 'state.js')});\n"
        + """
        const heard = [];
        const stop = m.subscribe((keys) => heard.push(keys));
        m.setState({ selected: "3-5", sent: null });  // sent was null already
        m.setState({ selected: "3-5" });  // no change: nobody is told
        let thrown = null;
        try { m.state.selected = "6-6"; } catch (error) { thrown = error.constructor.name; }
        m.setState({ hints: false });
        stop();
        m.setState({ selected: null });
        process.stdout.write(JSON.stringify({ heard, thrown, selected: m.state.selected, hints: stored["domino.hints"] }));
        """
    )
    assert run(script) == {
        "heard": [["selected"], ["hints"]],
        "thrown": "TypeError",
        "selected": None,
        "hints": "off",
    }
