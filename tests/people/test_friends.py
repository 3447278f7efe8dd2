"""Friends (docs/site.md, "Friends, blocking and who is online"): a request
sent from a profile, accepted or declined, withdrawn, a friend removed; the
lists on one's own profile and in the lobby, for their owner only; the POSTs
need the CSRF token; the admin lists the rows."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from people import selectors, services
from people.errors import PeopleError
from people.models import Block, FriendRequest, Friendship
from tests.staff import sign_in_verified

pytestmark = pytest.mark.django_db


def _client(user) -> Client:
    client = Client()
    if user.is_staff:  # the admin asks staff for their second factor (tests/staff.py)
        sign_in_verified(client, user)
    else:
        client.force_login(user)
    return client


def _post(client: Client, action: str, name: str, **data):
    return client.post(f"/friends/{name}/{action}/", data, follow=True)


def _messages(response) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []


def test_a_request_sent_from_a_profile_is_accepted_and_both_are_friends(make_user):
    ana, bruno = make_user("ana"), make_user("bruno")
    as_ana, as_bruno = _client(ana), _client(bruno)
    profile = as_ana.get("/players/bruno/").content.decode()
    assert 'action="/friends/bruno/request/"' in profile
    assert 'data-action="friend-request"' in profile
    answer = _post(as_ana, "request", "bruno")
    assert answer.redirect_chain[-1][0] == "/players/bruno/"
    assert FriendRequest.objects.filter(sender=ana, recipient=bruno).exists()
    assert 'data-relation="asked"' in answer.content.decode()
    # bruno sees it on his own profile and in the lobby, with the buttons
    for page in ("/players/bruno/", "/"):
        html = as_bruno.get(page).content.decode()
        assert 'data-request-from="ana"' in html
        assert 'action="/friends/ana/accept/"' in html
    # ana sees her request waiting on her own profile
    assert 'data-request-to="bruno"' in as_ana.get("/players/ana/").content.decode()
    answer = _post(as_bruno, "accept", "ana", next="/")
    assert answer.redirect_chain[-1][0] == "/"
    assert selectors.are_friends(ana, bruno)
    assert not FriendRequest.objects.exists()
    assert 'data-friend="bruno"' in as_ana.get("/").content.decode()
    assert 'data-friend="ana"' in as_bruno.get("/players/bruno/").content.decode()
    # on each other's profile: friends, with a way to end it
    html = as_ana.get("/players/bruno/").content.decode()
    assert 'data-relation="friends"' in html and 'action="/friends/bruno/remove/"' in html


def test_declining_withdrawing_and_removing(make_user):
    ana, bruno = make_user("ana"), make_user("bruno")
    as_ana, as_bruno = _client(ana), _client(bruno)
    _post(as_ana, "request", "bruno")
    _post(as_bruno, "decline", "ana")
    assert not FriendRequest.objects.exists() and not Friendship.objects.exists()
    _post(as_ana, "request", "bruno")
    _post(as_ana, "withdraw", "bruno")
    assert not FriendRequest.objects.exists()
    _post(as_ana, "request", "bruno")
    _post(as_bruno, "accept", "ana")
    answer = _post(as_bruno, "remove", "ana")
    assert not Friendship.objects.exists()
    assert any("ana" in m for m in _messages(answer))
    # nothing left to answer: a clear refusal, nothing changes
    answer = _post(as_bruno, "accept", "ana")
    assert "There is no friend request from this player." in _messages(answer)
    assert not Friendship.objects.exists()


def test_two_requests_crossing_make_friends(make_user):
    ana, bruno = make_user("ana"), make_user("bruno")
    assert services.friend_request_send(sender=ana, recipient=bruno) == "sent"
    assert services.friend_request_send(sender=ana, recipient=bruno) == "sent"  # again: nothing new
    assert FriendRequest.objects.count() == 1
    assert services.friend_request_send(sender=bruno, recipient=ana) == "friends"
    assert selectors.friend_ids(ana) == [bruno.pk] and selectors.friend_ids(bruno) == [ana.pk]
    with pytest.raises(PeopleError) as refused:
        services.friend_request_send(sender=ana, recipient=bruno)
    assert refused.value.code == "already_friends"
    with pytest.raises(PeopleError) as refused:
        services.friend_request_send(sender=ana, recipient=ana)
    assert refused.value.code == "self"


def test_the_lists_are_their_owner_s_only(make_user):
    ana, bruno, caio = make_user("ana"), make_user("bruno"), make_user("caio")
    services.friend_request_send(sender=ana, recipient=bruno)
    services.friend_request_accept(user=bruno, sender=ana)
    services.friend_request_send(sender=caio, recipient=ana)
    services.block(blocker=ana, blocked=make_user("dora"))
    own = _client(ana).get("/players/ana/").content.decode()
    assert 'data-friend="bruno"' in own and 'data-request-from="caio"' in own
    assert 'data-blocked-person="dora"' in own
    for viewer in (Client(), _client(caio), _client(bruno)):
        html = viewer.get("/players/ana/").content.decode()
        for secret in ("data-friends", "data-request-from", "data-blocked", "dora"):
            assert secret not in html, (viewer, secret)
    lobby = Client().get("/").content.decode()
    assert "data-people-panel" not in lobby and "data-people" not in lobby


def test_the_posts_need_a_login_and_the_csrf_token(make_user):
    ana, bruno = make_user("ana"), make_user("bruno")
    answer = Client().post("/friends/bruno/request/")
    assert answer.status_code == 302 and "/accounts/login/" in answer["Location"]
    assert Client().get("/friends/bruno/request/").status_code == 405
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(ana)
    assert strict.post("/friends/bruno/request/").status_code == 403
    page = strict.get("/players/bruno/").content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    answer = strict.post("/friends/bruno/request/", {"csrfmiddlewaretoken": token})
    assert answer.status_code == 302
    assert FriendRequest.objects.filter(sender=ana, recipient=bruno).exists()
    assert _client(ana).post("/friends/nobody/request/").status_code == 404


def test_next_must_be_this_site_s(make_user):
    make_user("bruno")
    answer = _client(make_user("ana")).post(
        "/friends/bruno/request/", {"next": "https://evil.example/"}
    )
    assert answer["Location"] == "/players/bruno/"


def test_the_admin_lists_requests_friendships_and_blocks(make_user, django_user_model):
    staff = django_user_model.objects.create_superuser("staff", password="x")
    ana, bruno, caio = make_user("ana"), make_user("bruno"), make_user("caio")
    services.friend_request_send(sender=ana, recipient=bruno)
    services.friend_request_send(sender=caio, recipient=ana)
    services.friend_request_accept(user=ana, sender=caio)
    services.block(blocker=bruno, blocked=caio)
    admin = _client(staff)
    for path, name in (
        ("/admin/people/friendrequest/", "bruno"),
        ("/admin/people/friendship/", "caio"),
        ("/admin/people/block/", "caio"),
        ("/admin/people/presence/", ""),
    ):
        answer = admin.get(path)
        assert answer.status_code == 200, path
        assert name in answer.content.decode()
    assert admin.get("/admin/people/block/add/").status_code == 403
    assert Block.objects.count() == 1


def test_a_request_from_a_seat_at_a_table(make_user):
    """The table page lists the other people seated there, to its seated people
    only, with "Add as a friend" (docs/site.md, "Friends, blocking and who is
    online")."""
    from rooms import services as rooms

    ana, bruno, caio = make_user("ana"), make_user("bruno"), make_user("caio")
    room = rooms.room_create(user=ana, name="Mesa", preset="duelo")
    rooms.seat_take(room=room, index=1, user=bruno)
    page = _client(ana).get(f"/r/{room.code}/").content.decode()
    assert 'data-table-person="bruno"' in page
    assert 'action="/friends/bruno/request/"' in page
    watching = _client(caio).get(f"/r/{room.code}/").content.decode()
    assert "data-table-people" not in watching
    _post(_client(ana), "request", "bruno", next=f"/r/{room.code}/")
    assert FriendRequest.objects.filter(sender=ana, recipient=bruno).exists()
    page = _client(bruno).get(f"/r/{room.code}/").content.decode()
    assert 'action="/friends/ana/accept/"' in page
