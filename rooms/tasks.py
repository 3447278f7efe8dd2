"""Celery task of the rooms app: the periodic sweeper (run by Celery beat).

Room expiry, disconnect grace, walkovers and every due action whose wake-up
was lost: ``rooms.services.rooms_sweep`` does it all, idempotently.
"""

from celery import shared_task


@shared_task(name="rooms.sweep", acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def sweep() -> None:
    from rooms.services import rooms_sweep

    rooms_sweep()
