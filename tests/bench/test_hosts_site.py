"""How the drills read the processes' logs (bench/hosts/site.py): a traceback
chain is one entry, so that a lost connection logged under another
exception's name (beat's ``SchedulingError`` around a Redis timeout) is still
recognised as one (bench/hosts/drill.py, ``CONNECTION_ERRORS``)."""

from __future__ import annotations

from bench.hosts.drill import CONNECTION_ERRORS
from bench.hosts.site import _chains

BEAT_DURING_A_CUT = """\
[2026-12-05 01:10:00] beat: Sending due task rooms-sweep (rooms.sweep)
Traceback (most recent call last):
  File "<kombu connection>", line 1, in _acquire
IndexError: pop from empty list

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "<redis connection>", line 2, in connect
redis.exceptions.TimeoutError: Timeout connecting to server

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "<celery beat>", line 3, in apply_entry
celery.beat.SchedulingError: Couldn't apply scheduled task rooms-sweep: Timeout connecting to server
[2026-12-05 01:10:05] beat: Sending due task rooms-sweep (rooms.sweep)
Traceback (most recent call last):
  File "<the sweep task>", line 4, in sweep
ValueError: not a connection
"""


def test_a_chained_traceback_is_one_entry_from_its_first_cause_to_its_last():
    chains = _chains(BEAT_DURING_A_CUT.splitlines())
    assert chains == [
        "IndexError: pop from empty list -> redis.exceptions.TimeoutError: Timeout connecting"
        " to server -> celery.beat.SchedulingError: Couldn't apply scheduled task rooms-sweep:"
        " Timeout connecting to server",
        "ValueError: not a connection",
    ]
    lost = [c for c in chains if any(k in c for k in CONNECTION_ERRORS)]
    assert lost == chains[:1]
