"""Celery tasks of the games app: thin wrappers around idempotent services.

A task carries ``(round_id, version)`` and does nothing if the round moved on,
so duplicates, retries and late deliveries are harmless (hence ``acks_late``:
a task lost with its worker is delivered again).
"""

from celery import shared_task


@shared_task(name="games.round_due", acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def round_due(*, round_id: int, version: int) -> bool:
    """The round's due action: the clock's timeout move, a disconnected player's
    auto move, a walkover (and a bot's turn when it was not routed to bots)."""
    from games.services import round_due_fire

    return round_due_fire(round_id=round_id, version=version)
