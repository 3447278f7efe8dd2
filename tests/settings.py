"""Settings of the test suite (pyproject.toml: DJANGO_SETTINGS_MODULE).

The tests run in the development environment: ``DEBUG=1`` in the environment
when the settings are read, so the development key, plain HTTP (no HTTPS
redirect, no secure-only cookies) and WhiteNoise serving from the finders, as
with ``make run``. pytest-django then turns ``settings.DEBUG`` off while tests
run. Servers the tests start (tests/scale, tests/browser) inherit this
environment. The production configuration is tested with its own environment
in a subprocess (tests/site/test_production_settings.py).
"""

import os

os.environ["DEBUG"] = "1"

from domino_site.settings import *  # noqa: E402, F403

# A fast hasher: the suite creates hundreds of accounts, and PBKDF2's 1,000,000
# rounds cost a third of a second each (Django's advice for test settings).
# Servers the tests start keep the real hashers: they take session cookies,
# whose check does not hash the password.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# Round analyses (analysis.scoring) with little work: every round the suite
# finishes is analysed; the analysis' own tests set the work they need.
DOMINO_ANALYSIS_WORK = 150
