"""Load: many real WebSocket clients against servers this script starts itself.

Each table is a public ``duelo`` room (two seats, no move clock) with two
logged-in players and two logged-in watchers, four sockets of the ``websockets``
package. The seat whose snapshot has legal actions sends one of them (with the
snapshot's ``version``); between matches the host sends ``new_match``. A move's
latency runs from sending it until each of the table's four sockets holds a
``room`` snapshot newer than the version the move was sent on. Like the browser
(static/js/table.js), a socket that gets ``stale`` sends ``refresh``; so do the
sockets of a move still unseen after 30 s (counted as lost, with which sockets
missed it: a server that drops messages shows here).

Configurations (each in its own child process, one after the other):

* ``embedded``: ``make run``'s set-up: a SQLite file (fresh, in a temporary
  folder), the in-memory channel layer, the in-process scheduler, one Daphne.
* ``production``: PostgreSQL (database ``domino_bench``, dropped and migrated
  afresh), the Redis channel layer (db 14, flushed), a Celery worker, two Daphne
  processes with every table's sockets spread over both (two on each).

Both run with ``DEBUG=0`` and ``BOT_DELAY_SECONDS=0``. Runs, all in the same
servers, tables being opened incrementally and kept open:

* paced: 25, 100 and 250 tables, one move a table every 2 s (offered: tables/2
  moves a second). A table whose last move has not yet reached its four sockets
  moves as soon as it has (so sustained < offered means the server fell behind);
* saturation: closed loop (a table moves again as soon as its four sockets saw
  its last move) on ``--sat-tables`` tables, spread over all Daphne processes;
  in production also on as many tables all on one Daphne process;
* the floor, in turns with each: a bare relay consumer mounted only by the
  bench (``bench/_relay_asgi.py``: same process, same channel layer) that
  sends each frame it gets to a group of four sockets; "tables" of four
  sockets spread like the tables', the same pacing, frames padded to the
  tables' median snapshot size. In a paced run the relay and the tables take
  turns (``--slices``, 3: relay, tables, relay, tables, relay, tables; each
  figure is over all its slices), so that the machine drifting during a run
  weighs on both sides. Our p50 and p99 are printed as ratios to the relay's.

Before each run the bench waits (up to 30 s) for the Daphne processes to go
idle and, with Redis, for their layer inboxes to empty.

Figures: p50/p95/p99 latency (moves only; the between-match commands count for
pacing and throughput), moves/s sustained (every command that changed a table,
completed within the measured window), server-side database queries per move
(every SQL statement of the Daphne processes in the window, divided by those
commands) and the round trips they took (``domino_site.infra.django`` sends a
move's reads as one message and its writes as another; BEGIN and COMMIT are
not counted), resident
memory per open table (VmRSS growth of the Daphne processes while the tables
were opened and started, divided by the tables), and the CPU used by the
servers, by this client and by the whole machine (other people's work
included); with Redis, the largest per-process inbox of the layer seen during
a run (channels-redis' ``capacity`` applies to it: past it messages are dropped).
The CPU ms/move column is the servers' CPU time (Daphne processes, from
``/proc``) in the window divided by the commands completed: what a move costs
the deployment, read from outside (the product has no documented hook to time
one move, and the bench does not replace its functions).
Beside the client's latencies, the server's own: its ``domino_move_seconds``
histogram (from a move's frame to the frame of its change sent back on the
mover's socket), read from a Daphne's ``/metrics`` at the window's two ends
(every server process of the run writes to one metrics folder, docs/scaling.md
"Metrics"), as p50/p99 of its buckets' growth. ``--layout one`` puts a table's
four sockets on one Daphne (the tables alternating) instead of two on each;
``--client defaults`` opens the sockets with the ``websockets`` package's own
settings (a 16-message queue, a ping every 20 s) instead of the bench's.
Nothing is asserted: this prints numbers and ratios measured side by side in
one run. One client process is enough: it uses a few % of a core at 250 tables.

    python bench/load.py                      # both configurations, ~10 min
    python bench/load.py --quick              # 25 tables, short runs (smoke test)
    python bench/load.py --config embedded --tables 25,100 --seconds 30
    python bench/load.py --json /tmp/load.json
    python bench/load.py --config production --tables 150 --layout one --client defaults

Without PostgreSQL or Redis the production configuration is skipped (and says
why). PostgreSQL and Redis addresses: ``--pg``, ``--redis``; the production
configuration's database (dropped and created afresh): ``--database``.

``bench/soak.py`` reuses these parts for an hour on one set of servers (its
docstring): the same tables and processes, read every minute from outside
(`bench.loadbench.sampling`).
"""
