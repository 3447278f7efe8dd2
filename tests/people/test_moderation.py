"""Reports and moderation (docs/site.md, "Reports and moderation"): a report
made from a profile or a table reaches the admin's queue with its match; the
admin's actions (a warning, a name reset, a suspension from rated play) are
logged with who took them, the player sees why, and a suspended player is
refused at the rated table as the rulebook refuses a cool-down."""

from __future__ import annotations

import pytest
from django.test import Client

from people import moderation
from people.errors import PeopleError
from people.models import Report, Sanction
from records import rulebook
from rooms import services as rooms
from rooms.errors import ServiceError
from rooms.models import Seat
from tests.people.conftest import played_together as _played
from tests.staff import sign_in_verified

pytestmark = pytest.mark.django_db


def _client(user) -> Client:
    client = Client(REMOTE_ADDR="203.0.113.7")
    if user.is_staff:  # the admin asks staff for their second factor (tests/staff.py)
        sign_in_verified(client, user)
    else:
        client.force_login(user)
    return client


def _admin_action(staff, action: str, report: Report):
    return _client(staff).post(
        "/admin/people/report/",
        {"action": action, "_selected_action": [report.pk]},
        follow=True,
    )


def test_a_report_reaches_the_queue_and_a_suspension_is_refused_at_the_rated_table(
    make_user, django_user_model, clock
):
    staff = django_user_model.objects.create_superuser("staff", password="x")
    ana, bruno, caio = make_user("ana"), make_user("bruno"), make_user("caio")
    room = _played(ana, bruno, clock())
    profile = _client(ana).get("/players/bruno/").content.decode()
    assert 'data-form="report"' in profile
    answer = _client(ana).post(
        "/friends/bruno/report/", {"reason": "stalling", "note": "never plays"}, follow=True
    )
    assert "Thank you: the report goes to the moderators." in [
        str(m) for m in answer.context["messages"]
    ]
    report = Report.objects.get()
    assert (report.reporter, report.reported, report.reason) == (ana, bruno, "stalling")
    assert report.match.room_id == room.pk  # the match they played together
    queue = _client(staff).get("/admin/people/report/").content.decode()
    assert "bruno" in queue and "never plays" not in queue  # the note on its page
    assert _client(staff).get(f"/admin/people/report/{report.pk}/change/").status_code == 200
    _admin_action(staff, "suspend_week", report)
    sanction = Sanction.objects.get()
    assert (sanction.user, sanction.kind, sanction.by) == (bruno, "suspension", staff)
    assert sanction.until is not None and sanction.reason == "Stalling"
    report.refresh_from_db()
    assert (report.status, report.handled_by) == ("handled", staff)
    # refused at a rated table, as a cool-down is: every rated entry point
    table = rooms.room_create(user=caio, name="Valendo", preset="duelo", ip_hash="c")
    with pytest.raises(ServiceError) as refused:
        rooms.seat_take(room=table, index=1, user=bruno, ip_hash="b")
    assert refused.value.code == "cooldown"
    assert "suspended from rated play" in refused.value.message
    assert not rulebook.may_be_paired(bruno, clock())
    friendly = rooms.room_create(
        user=caio, name="Amistosa", preset="duelo", competitive=False, ip_hash="c"
    )
    rooms.seat_take(room=friendly, index=1, user=bruno, ip_hash="b")  # a friendly table is open
    # the player sees why, on their own profile; nobody else does
    own = _client(bruno).get("/players/bruno/").content.decode()
    assert 'data-sanction="suspension"' in own and "Stalling" in own
    for other in (Client(), _client(caio), _client(ana)):
        assert "data-sanction" not in other.get("/players/bruno/").content.decode()
    # lifted: rated play again, still in the log
    _client(staff).post(
        "/admin/people/sanction/", {"action": "lift", "_selected_action": [sanction.pk]}
    )
    assert rulebook.cooldown_for(user=bruno) is None
    assert Sanction.objects.get().lifted_by == staff


def test_a_suspension_for_good_and_a_warning(make_user, django_user_model, clock):
    staff = django_user_model.objects.create_superuser("staff", password="x")
    ana, bruno = make_user("ana"), make_user("bruno")
    _played(ana, bruno, clock())
    first = moderation.report_make(reporter=ana, reported=bruno, reason="collusion")
    _admin_action(staff, "warn", first)
    assert Sanction.objects.get().kind == "warning"
    assert rulebook.cooldown_for(user=bruno) is None  # a warning keeps nobody out
    second = moderation.report_make(reporter=ana, reported=bruno, reason="other")
    assert second.pk != first.pk  # the first was handled
    _admin_action(staff, "suspend_for_good", second)
    cooldown = rulebook.cooldown_for(user=bruno)
    assert cooldown is not None and cooldown.until.year == 9999
    assert "for good" in cooldown.message
    assert moderation.report_make(reporter=ana, reported=bruno, reason="other").pk != second.pk


def test_a_name_reset_makes_the_player_pick_a_new_name(make_user, django_user_model, clock):
    staff = django_user_model.objects.create_superuser("staff", password="x")
    ana, rude = make_user("ana"), make_user("rude")
    _played(ana, rude, clock())
    report = moderation.report_make(reporter=ana, reported=rude, reason="name")
    _admin_action(staff, "reset_name", report)
    rude.refresh_from_db()
    assert rude.username == f"player-{rude.pk}"
    assert Sanction.objects.get().old_name == "rude"
    own = _client(rude).get(f"/players/{rude.username}/").content.decode()
    assert 'data-form="rename"' in own
    answer = _client(rude).post("/moderation/name/", {"username": "ANA"}, follow=True)
    assert "This name is taken." in [str(m) for m in answer.context["messages"]]
    answer = _client(rude).post("/moderation/name/", {"username": "gentil"})
    assert answer["Location"] == "/players/gentil/"
    rude.refresh_from_db()
    assert rude.username == "gentil"
    refused = _client(ana).post("/moderation/name/", {"username": "outra"}, follow=True)
    assert "Your name was not reset." in [str(m) for m in refused.context["messages"]]


def test_a_report_from_the_table_attaches_its_match(make_user, clock):
    ana, bruno = make_user("ana"), make_user("bruno")
    room = _played(ana, bruno, clock())
    page = _client(bruno).get(f"/r/{room.code}/").content.decode()
    assert 'data-action="report"' in page and f'name="room" value="{room.code}"' in page
    _client(bruno).post("/friends/ana/report/", {"reason": "name", "room": room.code})
    report = Report.objects.get()
    assert report.match.room_id == room.pk and report.reported == ana
    with pytest.raises(PeopleError):  # a reason of the list
        moderation.report_make(reporter=ana, reported=bruno, reason="rude")


def test_the_host_reads_who_is_suspended(make_user, django_user_model):
    staff = django_user_model.objects.create_superuser("staff", password="x")
    ana, bruno = make_user("ana"), make_user("bruno")
    room = rooms.room_create(user=ana, name="Valendo", preset="duelo", ip_hash="a")
    rooms.seat_take(room=room, index=1, user=bruno, ip_hash="b")
    moderation.sanction_apply(user=bruno, kind="suspension", reason="Stalling", by=staff, days=3)
    with pytest.raises(ServiceError) as refused:
        rooms.match_start(room=room, actor=Seat.objects.get(room=room, index=0))
    assert refused.value.code == "cooldown"
    assert refused.value.message == "bruno is suspended from rated play."
