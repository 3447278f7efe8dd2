# One image for every production process of the Procfile (docker-compose.yml):
# release, web (Daphne), worker and analysis (Celery), beat (Celery beat). Configuration comes from the environment.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app

COPY requirements.txt .
RUN pip install --no-cache-dir -r requirements.txt

COPY . .
# Collected, compressed static files for WhiteNoise (DEBUG=0). The settings want
# a key even for this: a random one, used once and kept nowhere. The running
# containers get theirs from the environment (SECRET_KEY is required).
RUN SECRET_KEY="$(python -c 'import secrets; print(secrets.token_urlsafe(50))')" \
    python manage.py collectstatic --noinput

EXPOSE 8000
# The Procfile's `web` (tests/site/test_make_prod.py keeps them the same).
CMD ["python", "-m", "domino_site.serve", "--verbosity", "0", "-b", "0.0.0.0", "-p", "8000", "domino_site.asgi:application"]
