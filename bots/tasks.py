"""Celery task for bot turns: the same idempotent service as any due action.

Kept apart from ``games.round_due`` so that a deployment can route bot turns
(the hard bot thinks for a while) to their own queue and workers:
``CELERY_TASK_ROUTES={"bots.bot_turn": {"queue": "bots"}}``.
"""

from celery import shared_task


@shared_task(name="bots.bot_turn", acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def bot_turn(*, round_id: int, version: int) -> bool:
    from games.services import round_due_fire

    return round_due_fire(round_id=round_id, version=version)
