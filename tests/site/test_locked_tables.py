"""Tables a host can lock (docs/site.md, "Locked tables"): at creation a
password to sit, which the invite link does not ask, and "sem espectadores".
The lobby shows a lock (with words for screen readers) and no "Assistir" at a
table that takes no watchers; the password is kept hashed and never shown. A
wrong password is a clear refusal, limited per person and per address like a
login (``TABLE_PASSWORD_FAILURES_PER_*``): past the limit even the right one is
refused until the window has passed. Every way to take a seat asks the one
rulebook (`rooms.services.apart`): the join page here, the table socket's
``sit`` (tests/realtime/test_locked_tables.py)."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import translation

from domino_site.client_ip import ip_hash
from rooms import selectors
from rooms import services as rooms
from rooms.errors import ServiceError
from rooms.models import PasswordMiss, Room, Seat
from rooms.services.apart import TABLE_PASSWORD_HASHER

ANA_IP, BRUNO_IP, CAIO_IP, DORA_IP = "203.0.113.10", "198.51.100.20", "192.0.2.30", "192.0.2.40"
SECRET = "mesa-da-ana-42"


@pytest.fixture(autouse=True)
def in_english(settings):
    """The sentences are read in English (the source strings)."""
    settings.LANGUAGE_CODE = "en"
    with translation.override("en"):
        yield


def _client(user, address: str) -> Client:
    client = Client(REMOTE_ADDR=address)
    client.force_login(user)
    return client


def _people_at(room: Room) -> list[str]:
    seats = Seat.objects.filter(room=room, user__isnull=False).select_related("user")
    return sorted(seat.user.username for seat in seats)


def _locked_table(host, *, password: str = SECRET, no_watchers: bool = False, **kw) -> Room:
    room = rooms.room_create(
        user=host,
        name="Mesa trancada",
        preset="duelo",
        password=password,
        no_watchers=no_watchers,
        ip_hash=ip_hash(ANA_IP),
        **kw,
    )
    # listed in the lobby only while someone is connected at it
    rooms.seat_connected(room=room, index=0, channel_name="ana-socket")
    return Room.objects.get(pk=room.pk)


@pytest.mark.django_db
def test_the_host_locks_a_table_at_its_creation_and_the_password_is_kept_hashed(make_user):
    ana = make_user("ana")
    answer = _client(ana, ANA_IP).post(
        "/rooms/",
        {"preset": "duelo", "name": "Fechada", "password": SECRET, "no_watchers": "on"},
    )
    assert answer.status_code == 302
    room = Room.objects.get(name="Fechada")
    assert room.locked and room.no_watchers
    assert SECRET not in room.password_hash
    assert TABLE_PASSWORD_HASHER.verify(SECRET, room.password_hash)
    assert not TABLE_PASSWORD_HASHER.verify(SECRET + "x", room.password_hash)
    # JSON says the same; false is false
    answer = _client(ana, ANA_IP).post(
        "/rooms/",
        json.dumps({"preset": "duelo", "name": "Aberta", "password": "", "no_watchers": False}),
        content_type="application/json",
    )
    assert answer.status_code == 302
    open_room = Room.objects.get(name="Aberta")
    assert not open_room.locked and not open_room.no_watchers
    # a password longer than 128 characters is refused beside its field
    answer = _client(ana, ANA_IP).post(
        "/rooms/",
        json.dumps({"preset": "duelo", "name": "Longa", "password": "x" * 129}),
        content_type="application/json",
    )
    assert answer.status_code == 400 and "password" in answer.json()["errors"]


@pytest.mark.django_db
def test_the_lobby_shows_a_lock_and_no_watch_link_and_never_the_password(make_user):
    ana, bruno = make_user("ana"), make_user("bruno")
    locked = _locked_table(ana, no_watchers=True)
    rows = {row["code"]: row for row in _client(bruno, BRUNO_IP).get("/api/rooms/").json()}
    assert rows[locked.code]["locked"] is True and rows[locked.code]["no_watchers"] is True
    page = _client(bruno, BRUNO_IP).get("/").content.decode()
    row = page[page.index(f'data-room="{locked.code}"') :]
    row = row[: row.index("</li>")]
    assert "data-locked" in row and "Locked: a password to sit." in row  # the words, not only 🔒
    assert 'data-action="watch"' not in row and 'data-action="sit"' in row
    for text in (page, json.dumps(rows)):
        assert SECRET not in text and locked.password_hash not in text


@pytest.mark.django_db
def test_sitting_from_the_join_page_asks_the_password(make_user):
    ana, bruno = make_user("ana"), make_user("bruno")
    room = _locked_table(ana)
    bruno_web = _client(bruno, BRUNO_IP)
    # the lobby's "Sentar" leads to the page that asks it
    answer = bruno_web.get(f"/r/{room.code}/?sit=1")
    assert answer.status_code == 302 and answer["Location"] == f"/r/{room.code}/sentar/"
    page = bruno_web.get(f"/r/{room.code}/sentar/")
    assert page.status_code == 200 and 'name="password"' in page.content.decode()
    refused = bruno_web.post(f"/r/{room.code}/sentar/", {"password": "wrong"})
    assert refused.status_code == 403
    assert "Wrong password for this table." in refused.content.decode()
    assert _people_at(room) == ["ana"]
    answer = bruno_web.post(f"/r/{room.code}/sentar/", {"password": SECRET})
    assert answer.status_code == 302 and answer["Location"] == f"/r/{room.code}/"
    assert _people_at(room) == ["ana", "bruno"]


@pytest.mark.django_db
def test_the_invite_link_seats_without_the_password(make_user):
    ana, bruno = make_user("ana"), make_user("bruno")
    room = _locked_table(ana, visibility=Room.Visibility.PRIVATE)
    answer = _client(bruno, BRUNO_IP).post(room.invite_path)
    assert answer.status_code == 302 and answer["Location"] == f"/r/{room.code}/"
    assert _people_at(room) == ["ana", "bruno"]
    assert not PasswordMiss.objects.exists()
    # a stranger's join page of a private table is the table page's answer: none
    stranger = make_user("caio")
    answer = _client(stranger, CAIO_IP).get(f"/r/{room.code}/sentar/", follow=True)
    assert answer.status_code == 404
    answer = _client(stranger, CAIO_IP).post(f"/r/{room.code}/sentar/", {"password": SECRET})
    assert _people_at(room) == ["ana", "bruno"]


@pytest.mark.django_db
def test_wrong_passwords_are_limited_per_person_like_a_login(make_user, settings, clock):
    settings.TABLE_PASSWORD_FAILURES_PER_PERSON = 3
    ana, bruno, caio = make_user("ana"), make_user("bruno"), make_user("caio")
    room = _locked_table(ana)
    for _attempt in range(3):
        with pytest.raises(ServiceError) as refused:
            rooms.seat_take(
                room=room,
                index=1,
                user=bruno,
                password="guess",
                ip_hash=ip_hash(BRUNO_IP),
                now=clock.now,
            )
        assert refused.value.code == "wrong_password"
    # past the limit the right password does not help either, and says how long
    with pytest.raises(ServiceError) as refused:
        rooms.seat_take(
            room=room,
            index=1,
            user=bruno,
            password=SECRET,
            ip_hash=ip_hash(BRUNO_IP),
            now=clock.now,
        )
    assert refused.value.code == "rate_limited"
    assert refused.value.message == "Too many wrong table passwords: try again in 15 minutes."
    assert _people_at(room) == ["ana"]
    # someone else, from another address, is not held back
    assert (
        rooms.seat_take(
            room=room, index=1, user=caio, password=SECRET, ip_hash=ip_hash(CAIO_IP), now=clock.now
        ).user
        == caio
    )
    rooms.seat_leave(room=room, index=1, actor=Seat.objects.get(room=room, index=1), now=clock.now)
    # once the window has passed, bruno may try again
    later = clock.tick(timedelta(minutes=15).total_seconds() + 1)
    rooms.seat_take(
        room=room, index=1, user=bruno, password=SECRET, ip_hash=ip_hash(BRUNO_IP), now=later
    )
    assert _people_at(room) == ["ana", "bruno"]


@pytest.mark.django_db
def test_wrong_passwords_are_limited_per_address_whatever_the_accounts(make_user, settings):
    """A second account from the same address does not get a new count: the
    address has its own limit, over every account."""
    settings.TABLE_PASSWORD_FAILURES_PER_PERSON = 5
    settings.TABLE_PASSWORD_FAILURES_PER_ADDRESS = 4
    ana = make_user("ana")
    room = _locked_table(ana)
    guessers = [make_user(f"guesser{i}") for i in range(3)]
    for guesser, tries in zip(guessers[:2], (2, 2), strict=True):
        web = _client(guesser, DORA_IP)
        for _try in range(tries):
            answer = web.post(f"/r/{room.code}/sentar/", {"password": "guess"})
            assert answer.status_code == 403
    answer = _client(guessers[2], DORA_IP).post(f"/r/{room.code}/sentar/", {"password": SECRET})
    assert answer.status_code == 429
    assert "Too many wrong table passwords" in answer.content.decode()
    # from another address that third account sits
    answer = _client(guessers[2], CAIO_IP).post(f"/r/{room.code}/sentar/", {"password": SECRET})
    assert answer.status_code == 302
    assert PasswordMiss.objects.count() == 4
    assert not PasswordMiss.objects.filter(ip_hash=ip_hash(CAIO_IP)).exists()


@pytest.mark.django_db
def test_a_table_without_watchers_sends_a_watcher_to_its_join_page(make_user):
    ana, bruno, caio = make_user("ana"), make_user("bruno"), make_user("caio")
    room = _locked_table(ana, password="", no_watchers=True)
    answer = _client(bruno, BRUNO_IP).get(f"/r/{room.code}/")
    assert answer.status_code == 302 and answer["Location"] == f"/r/{room.code}/sentar/"
    page = _client(bruno, BRUNO_IP).get(answer["Location"]).content.decode()
    assert "This table does not accept watchers: only its players see it." in page
    assert 'data-action="watch"' not in page and 'name="password"' not in page
    # sitting needs no password here; then the table is theirs to see
    assert _client(bruno, BRUNO_IP).post(f"/r/{room.code}/sentar/").status_code == 302
    assert _client(bruno, BRUNO_IP).get(f"/r/{room.code}/").status_code == 200
    assert _client(ana, ANA_IP).get(f"/r/{room.code}/").status_code == 200  # the host
    # a full table that takes no watchers: nothing for caio here
    page = _client(caio, CAIO_IP).get(f"/r/{room.code}/sentar/")
    assert page.status_code == 403 and "Every seat at this table is taken." in page.content.decode()
    # nor its finished rounds: only the people who sat there see them
    assert not selectors.may_see_rounds(room=room, user=caio)
    assert selectors.may_see_rounds(room=room, user=bruno)
