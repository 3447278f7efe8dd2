# One image for every production process (docker-compose.yml): web (Daphne),
# worker (Celery), beat (Celery beat). Configuration comes from the environment.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app

COPY requirements.txt .
RUN pip install --no-cache-dir -r requirements.txt

COPY . .
# Collected, compressed static files for WhiteNoise (DEBUG=0).
RUN DEBUG=0 SECRET_KEY=build-only python manage.py collectstatic --noinput

EXPOSE 8000
CMD ["daphne", "-b", "0.0.0.0", "-p", "8000", "--proxy-headers", "domino_site.asgi:application"]
