"""The reconnect rules of the pages' one WebSocket client (static/js/socket_client.js;
docs/protocol.md, "Close codes"), run in node with a fake WebSocket and fake
timers: a jittered backoff that grows to its cap and starts again on an open,
no reconnect after a final code (4001, 4003, 4004), 4012 coming back after
a jittered wait, never at once, and 4013 (a deploy) at once; and a first frame
of another build reloading the page when nothing is in hand (static/js/build.js);
and the table socket sending its unanswered move again after a reconnect when
nothing happened at its place (static/js/table/socket.js)."""

from __future__ import annotations

import pytest

from tests.node import module, needs_node, run

# A browser's globals, as little as the client uses: sockets it opened (`sockets`),
# timers it set (`timers`: run one with `fire`), and Math.random from `randoms`.
FAKES = """
globalThis.location = { protocol: "https:", host: "example.test" };
const sockets = [];
class FakeSocket {
  static OPEN = 1;
  constructor(url) { this.url = url; this.readyState = 0; this.sent = []; this.on = {}; sockets.push(this); }
  addEventListener(name, fn) { this.on[name] = fn; }
  send(text) { this.sent.push(text); }
  close() { this.readyState = 3; }
  opened() { this.readyState = 1; this.on.open?.({}); }
  closed(code) { this.readyState = 3; this.on.close?.({ code }); }
  frame(data) { this.on.message?.({ data }); }
}
globalThis.WebSocket = FakeSocket;
const timers = [];
globalThis.setTimeout = (fn, ms) => { timers.push({ fn, ms }); return timers.length; };
globalThis.clearTimeout = (id) => { if (id) timers[id - 1].fn = null; };
globalThis.setInterval = () => 0;
const fire = () => { const timer = timers.at(-1); timer.fn?.(); timer.fn = null; };
let randoms = [];
Math.random = () => (randoms.length ? randoms.shift() : 0.5);
const states = [];
const last = () => sockets.at(-1);
"""

pytestmark = needs_node


def _run(body: str) -> dict:
    """Runs `body` with the fakes and the module as `m`; it sets `out`."""
    script = (
        FAKES
        + f"const m = await import({module('socket_client.js')});\n"
        + "let out = {};\n"
        + body
        + "\nprocess.stdout.write(JSON.stringify(out));\n"
    )
    return run(script)


def test_the_backoff_doubles_with_jitter_up_to_its_cap_and_an_open_starts_it_again():
    out = _run(
        """
        const client = m.openSocket("/ws/lobby/", { onState: (name, d) => states.push([name, d]) });
        const delays = [];
        // The largest wait of each step, then the smallest of the last.
        for (const r of [1, 1, 1, 1, 1, 1, 0]) {
          randoms = [r];
          last().closed(1006);
          delays.push(timers.at(-1).ms);
          fire();
        }
        last().opened();
        randoms = [0];
        last().closed(1006);
        out = { delays, after_open: timers.at(-1).ms, sockets: sockets.length, url: sockets[0].url,
                base: m.BACKOFF_BASE_MS, cap: m.BACKOFF_CAP_MS, state: states.at(-1) };
        """
    )
    assert out["url"] == "wss://example.test/ws/lobby/"
    assert (out["base"], out["cap"]) == (1000, 10000)
    # Step n waits within [step/2, step], step = min(1000 * 2^n, 10000).
    assert out["delays"] == [1000, 2000, 4000, 8000, 10000, 10000, 5000]
    assert out["sockets"] == 8  # one more for each wait
    assert out["after_open"] == 500
    assert out["state"] == ["retrying", {"code": 1006, "delay": 500}]


def test_the_wait_is_spread_at_random_within_its_step():
    out = _run(
        """
        const delays = [];
        for (const r of [0.1, 0.3, 0.7, 0.9]) {
          randoms = [r];
          delays.push(m.backoffDelay(0));
        }
        out = { delays, third: m.backoffDelay(2) };
        """
    )
    assert out["delays"] == [550, 650, 850, 950]
    assert out["third"] == 3000  # 4 s step, 0.5 from the fake random


@pytest.mark.parametrize("code", [4001, 4003, 4004])
def test_no_reconnect_after_a_final_close_code(code):
    out = _run(
        f"""
        let closes = 0;
        m.openSocket("/ws/rooms/ABC/", {{ onState: (name, d) => states.push([name, d]), onClose: () => (closes += 1) }});
        last().opened();
        last().closed({code});
        out = {{ timers: timers.length, sockets: sockets.length, state: states.at(-1), closes }};
        """
    )
    assert out == {
        "timers": 0,
        "sockets": 1,
        "state": ["closed", {"code": code, "final": True}],
        "closes": 1,
    }


@pytest.mark.parametrize("code", [4012, 4008, 1006, 1011])
def test_any_other_code_comes_back_after_a_jittered_wait(code):
    out = _run(
        f"""
        m.openSocket("/ws/arenas/7/", {{ onState: (name, d) => states.push([name, d]) }});
        last().opened();
        randoms = [0.25];
        last().closed({code});
        const waiting = {{ sockets: sockets.length, delay: timers.at(-1).ms, state: states.at(-1) }};
        fire();
        last().opened();
        out = {{ waiting, sockets: sockets.length, url: last().url, state: states.at(-1) }};
        """
    )
    # Never at once: every page closed by a failing layer (4012) comes back
    # spread over the first step, 0.5-1 s.
    assert out["waiting"] == {
        "sockets": 1,
        "delay": 625,
        "state": ["retrying", {"code": code, "delay": 625}],
    }
    assert out["sockets"] == 2
    assert out["url"] == "wss://example.test/ws/arenas/7/"
    assert out["state"] == ["open", {}]


def test_4012_after_failed_attempts_keeps_growing_until_an_open():
    out = _run(
        """
        m.openSocket("/ws/rooms/ABC/");
        for (const code of [4012, 1006, 4012]) { randoms = [1]; last().closed(code); fire(); }
        randoms = [1];
        last().closed(4012);
        out = { delays: timers.map((t) => t.ms) };
        """
    )
    assert out["delays"] == [1000, 2000, 4000, 8000]


def test_stop_and_keep_leave_the_socket_closed_until_connect():
    out = _run(
        """
        let wanted = true;
        const client = m.openSocket("/ws/quick/", { lazy: true, keep: () => wanted });
        const lazy = sockets.length;
        client.connect();
        client.connect(); // already opening: one socket
        last().opened();
        const sent = [client.send({ type: "join" }), last().sent[0]];
        wanted = false;
        last().closed(1006);
        const kept = { sockets: sockets.length, timers: timers.length, open: client.isOpen(), send: client.send({ type: "leave" }) };
        wanted = true;
        client.connect();
        last().opened();
        client.stop();
        out = { lazy, sent, kept, sockets: sockets.length, timers: timers.length, closed: last().readyState };
        """
    )
    assert out["lazy"] == 0
    assert out["sent"] == [True, '{"type":"join"}']
    assert out["kept"] == {"sockets": 1, "timers": 0, "open": False, "send": False}
    assert (out["sockets"], out["timers"], out["closed"]) == (2, 0, 3)


def test_a_malformed_frame_is_dropped_and_json_frames_are_handed_on():
    out = _run(
        """
        const got = [];
        m.openSocket("/ws/lobby/", { onMessage: (msg) => got.push(msg) });
        last().opened();
        last().frame("not json");
        last().frame('{"type": "rooms"}');
        out = { got };
        """
    )
    assert out["got"] == [{"type": "rooms"}]


def test_4013_comes_back_at_once_and_a_failed_attempt_then_backs_off():
    out = _run(
        """
        m.openSocket("/ws/rooms/ABC/", { onState: (name, d) => states.push([name, d]) });
        last().opened();
        last().closed(4013);
        const restarting = { delay: timers.at(-1).ms, state: states.at(-1) };
        fire();
        randoms = [1];
        last().closed(1006); // the proxy gave a process that was not there yet
        out = { restarting, sockets: sockets.length, after: timers.at(-1).ms, code: m.RESTARTING_CODE };
        """
    )
    # A deploy (docs/protocol.md, "Close codes"): at once, no backoff.
    assert out["restarting"] == {"delay": 0, "state": ["retrying", {"code": 4013, "delay": 0}]}
    assert out["code"] == 4013
    assert out["sockets"] == 2
    assert out["after"] == 1000  # the usual first step after that


# A page of build "A": its meta tag, a sessionStorage, and a reload that is recorded.
PAGE_OF_BUILD_A = """
const meta = { content: "A" };
const busyEls = [];
let reloads = 0;
const storage = {};
globalThis.sessionStorage = { getItem: (k) => storage[k] ?? null, setItem: (k, v) => { storage[k] = String(v); } };
globalThis.location.reload = () => { reloads += 1; };
globalThis.document = {
  activeElement: null,
  querySelector: (sel) => (sel.includes("domino-build") ? meta : sel.includes("dragging") ? busyEls[0] ?? null : null),
  querySelectorAll: () => [],
};
"""


def test_a_first_frame_of_another_build_reloads_the_page_once_it_is_not_busy():
    out = _run(
        PAGE_OF_BUILD_A
        + f"const b = await import({module('build.js')});\n"
        + """
        let moveInHand = true;
        b.whileBusy(() => moveInHand);
        m.openSocket("/ws/rooms/ABC/");
        last().opened();
        last().frame('{"build": "A", "type": "room"}');
        const same = reloads;
        last().closed(4013);
        fire();
        last().opened();
        last().frame('{"build": "B", "type": "room"}');
        last().frame('{"build": "C", "type": "room"}'); // not a first frame
        const whileMove = { reloads, waits: timers.at(-1).ms };
        moveInHand = false;
        busyEls.push({}); // something is being dragged
        fire();
        const whileDrag = reloads;
        busyEls.length = 0;
        fire();
        out = { same, whileMove, whileDrag, reloads, guard: JSON.parse(storage["domino-reloaded-for"]).build };
        """
    )
    assert out["same"] == 0
    assert out["whileMove"] == {"reloads": 0, "waits": 500}
    assert out["whileDrag"] == 0
    assert out["reloads"] == 1
    assert out["guard"] == "B"


def test_a_page_reloaded_for_a_build_does_not_reload_for_it_again_at_once():
    out = _run(
        PAGE_OF_BUILD_A
        + """
        storage["domino-reloaded-for"] = JSON.stringify({ build: "B", at: Date.now() - 1000 });
        m.openSocket("/ws/lobby/");
        last().opened();
        last().frame('{"build": "B", "type": "rooms"}');
        out = { reloads };
        """
    )
    assert out["reloads"] == 0


# The table's socket (static/js/table/socket.js) over the same fakes: its
# snapshot as table.js keeps it, and what it sent on each socket.
TABLE = """
globalThis.localStorage = { getItem() { return null; }, setItem() {} };
const st = await import(%s);
const table = await import(%s);
st.page.boot = { code: "ABC" };
const room = (version, seq, extra = {}) => JSON.stringify({ type: "room", version,
  match: { number: 1 }, round: { number: 2, legal: [{ type: "play", tile: "1-2", end: "A" }] },
  log: seq ? [{ seq, seat: 1, type: "pass" }] : [], ...extra });
table.start({ onMessage: (msg) => { if (msg.type === "room") st.setState({ snap: msg }); } });
const sent = (socket) => socket.sent.map((text) => JSON.parse(text));
"""


def _table(body: str) -> dict:
    script = (
        FAKES
        + f"const m = await import({module('socket_client.js')});\n"
        + TABLE % (module("table", "state.js"), module("table", "socket.js"))
        + "let out = {};\n"
        + body
        + "\nprocess.stdout.write(JSON.stringify(out));\n"
    )
    return run(script)


def test_an_unanswered_move_is_sent_again_after_a_reconnect_when_nothing_happened_there():
    out = _table(
        """
        last().opened();
        last().frame(room(5, 3));
        table.send("play", { tile: "1-2", end: "A" });
        const first = sent(last());
        last().closed(4013);
        fire();
        last().opened();
        last().frame(room(7, 3)); // the new socket's snapshot: nothing happened at seq 4
        out = { first, again: sent(last()), waiting: table.moveUnanswered() };
        """
    )
    assert [(f["type"], f["tile"], f["version"]) for f in out["first"]] == [("play", "1-2", 5)]
    (again,) = out["again"]
    assert (again["type"], again["tile"], again["end"], again["version"]) == ("play", "1-2", "A", 7)
    assert again["ref"] != out["first"][0]["ref"]
    assert out["waiting"] is True  # until its answer comes


def test_a_move_applied_before_the_close_or_answered_is_not_sent_again():
    out = _table(
        """
        last().opened();
        last().frame(room(5, 3));
        table.send("play", { tile: "1-2", end: "A" });
        last().closed(4013);
        fire();
        last().opened();
        last().frame(room(8, 4)); // seq 4 is there: applied (or the clock's move)
        const applied = { sent: sent(last()), waiting: table.moveUnanswered() };
        table.send("play", { tile: "1-2", end: "A" });
        last().frame(JSON.stringify({ type: "error", code: "not_your_turn", ref: sent(last())[0].ref }));
        const refused = table.moveUnanswered();
        last().closed(4013);
        fire();
        last().opened();
        last().frame(room(9, 4));
        out = { applied, refused, after_refusal: sent(last()) };
        """
    )
    assert out["applied"] == {"sent": [], "waiting": False}
    assert out["refused"] is False
    assert out["after_refusal"] == []
