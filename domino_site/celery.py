"""Celery application: ``celery -A domino_site worker`` / ``celery -A domino_site beat``.

Configured from Django settings whose names start with ``CELERY_``; tasks are
discovered in each installed app's ``tasks.py``.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "domino_site.settings")

app = Celery("domino_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
