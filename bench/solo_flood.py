"""Solo-room flood: 40 cookie-less "play alone" requests from one address.

Repeats the probe of docs/rated-play.md ("Addresses"): a client that drops its
cookies asks for 40 solo tables with hard bots from one address. The script
starts the embedded server itself (a fresh SQLite file, the in-memory layer,
the in-process scheduler, one Daphne with the production settings, as
bench/load.py's ``embedded`` configuration, with the default bot delay), then
prints:

* how many of the 40 requests were served (302) and refused (429);
* ``/healthz`` latency (median of 30 requests) idle, and after the tables
  were opened;
* the server's CPU then (% of one core).

A solo table deals its first round on its person's seed, which only its guest's
socket can send (docs/rules.md, "Verifiable deals"): a client that drops its
cookies opens tables whose bots never move.

Run: ``.venv/bin/python bench/solo_flood.py``.
"""

from __future__ import annotations

import http.cookiejar
import re
import statistics
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.loadbench.common import process_cpu  # noqa: E402
from bench.loadbench.servers import Daphne, embedded_config, prepare_storage  # noqa: E402

ATTEMPTS = 40
SAMPLES = 30


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):  # noqa: ANN002, ANN003 - urllib's signature
        return None


def healthz_ms(base: str) -> float:
    """The median latency of ``SAMPLES`` sequential ``/healthz`` requests."""
    times = []
    for _ in range(SAMPLES):
        start = time.perf_counter()
        with urllib.request.urlopen(base + "/healthz", timeout=10) as response:
            response.read()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def solo_request(base: str) -> int:
    """One "play alone" (hard bots) from a fresh client: it fetches the lobby for
    its CSRF cookie and token, then posts with that cookie only (no guest or
    session cookie is ever sent back). The status code."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(NoRedirect, urllib.request.HTTPCookieProcessor(jar))
    with opener.open(base + "/", timeout=30) as response:
        page = response.read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    fields = {"preset": "parceria", "play_alone": "1", "bot_level": "hard"}
    fields["csrfmiddlewaretoken"] = token.group(1) if token else ""
    request = urllib.request.Request(
        base + "/rooms/",
        data=urllib.parse.urlencode(fields).encode(),
        headers={"Referer": base + "/"},
    )
    try:
        with opener.open(request, timeout=30) as response:
            return response.status
    except urllib.error.HTTPError as exc:
        return exc.code


def main() -> None:
    cfg = embedded_config(None)  # type: ignore[arg-type]
    env = cfg.server_env()
    env.pop("BOT_DELAY_SECONDS", None)  # people's pace: the settings' default
    env["CSRF_TRUSTED_ORIGINS"] = ""
    prepare_storage(cfg)
    daphne = Daphne(env, cfg.tmp, asgi="domino_site.asgi:application")
    daphne.start()
    base = daphne.url("")
    try:
        daphne.wait_healthy()
        idle = healthz_ms(base)
        answers = [solo_request(base) for _ in range(ATTEMPTS)]
        served, refused = answers.count(302), answers.count(429)
        cpu_before, wall_before = process_cpu(daphne.pid), time.monotonic()
        busy = healthz_ms(base)
        time.sleep(3)
        busy = max(busy, healthz_ms(base))
        cpu = (process_cpu(daphne.pid) - cpu_before) / (time.monotonic() - wall_before) * 100
        print(f"solo requests from one address, no cookies: {ATTEMPTS}")
        print(
            f"  served (302): {served}   refused (429): {refused}   other: {ATTEMPTS - served - refused}"
        )
        print(f"/healthz median, idle: {idle:.1f} ms")
        print(
            f"/healthz median, tables opened (worst of two runs): {busy:.1f} ms ({busy / idle - 1:+.0%})"
        )
        print(f"server CPU meanwhile (the /healthz requests included): {cpu:.0f}% of one core")
    finally:
        daphne.stop()


if __name__ == "__main__":
    main()
