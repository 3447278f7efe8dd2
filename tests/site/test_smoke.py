"""Smoke tests: the skeleton serves its pages and its health check."""

import pytest

pytestmark = pytest.mark.django_db


def test_lobby_renders_in_portuguese_by_default(client):
    response = client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "<title>" in html
    assert "Dominó" in html
    assert 'lang="pt-br"' in html
    assert "/static/css/site.css" in html


def test_lobby_speaks_english_when_asked(client):
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'lang="en"' in html
    assert "Dominoes" in html


def test_login_page_renders(client):
    response = client.get("/accounts/login/")
    assert response.status_code == 200
    assert 'name="username"' in response.content.decode()


def test_static_css_is_served(client):
    response = client.get("/static/css/site.css")
    assert response.status_code == 200


def test_healthz_checks_database_and_channel_layer(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"status": "ok", "database": "ok", "channel_layer": "ok"}


def test_healthz_reports_a_broken_channel_layer(client, monkeypatch):
    monkeypatch.setattr("domino_site.views.get_channel_layer", lambda: None)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"status": "failed", "database": "ok", "channel_layer": "failed"}


def test_healthz_reports_a_broken_database_without_saying_where_it_is(client, monkeypatch, caplog):
    def broken():
        raise OSError('connection to server at "10.1.2.3", port 5432 failed')

    monkeypatch.setattr("domino_site.views._check_database", broken)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"status": "failed", "database": "failed", "channel_layer": "ok"}
    assert b"10.1.2.3" not in response.content and b"5432" not in response.content
    assert "10.1.2.3" in caplog.text  # the reason is in the server's log
