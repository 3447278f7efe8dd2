# Load the Celery app when Django starts so that @shared_task uses it.
# Guarded: importing the project must never fail because of Celery.
try:
    from .celery import app as celery_app
except ImportError:  # pragma: no cover - celery not installed
    celery_app = None

__all__ = ("celery_app",)
