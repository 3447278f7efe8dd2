"""WSGI entry point (HTTP only: no WebSockets). Prefer asgi.py with daphne."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "domino_site.settings")

application = get_wsgi_application()
