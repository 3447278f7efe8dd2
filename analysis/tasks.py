"""The Celery task of a round's analysis (``analysis.round_analyse``): a thin
wrapper around the idempotent service, so a duplicate or a retry is harmless."""

from celery import shared_task
from django.conf import settings

from analysis.services import round_analyse as analyse

TASK_OPTIONS = {"acks_late": True, "reject_on_worker_lost": True, "ignore_result": True}


@shared_task(name="analysis.round_analyse", **TASK_OPTIONS)
def round_analyse(*, round_id: int) -> bool:
    """Analyse the finished round ``round_id`` (nothing if it is done already)."""
    work = getattr(settings, "DOMINO_ANALYSIS_WORK", None)
    return analyse(round_id=round_id, work=work) is not None
