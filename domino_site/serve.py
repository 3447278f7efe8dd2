"""The web process: Daphne with a graceful stop (the Procfile's ``web`` line).

    python -m domino_site.serve -b 0.0.0.0 -p 8000 domino_site.asgi:application

Takes every ``daphne`` option. On SIGTERM it stops listening, closes each socket
with 4013 ("server restarting, reconnect now": the page comes back at once, to
whatever process the proxy gives it) once the message in hand is handled, and
exits when they are gone or after ``DRAIN_SECONDS`` (default 10); a second
SIGTERM stops it at once. See domino_site/infra/daphne.py and docs/scaling.md,
"Deploying".
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> None:
    from domino_site.infra.daphne import DrainingCommandLine

    DrainingCommandLine().run(sys.argv[1:] if argv is None else argv)


if __name__ == "__main__":
    main()
