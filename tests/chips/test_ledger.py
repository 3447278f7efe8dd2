"""The ledger (docs/site.md, "Fichas"): every change of a person's chips is an
entry; the balance is their sum, never below zero; a sign-up's welcome grant,
the daily allowance up to the floor, a staff member's correction; a guest has
no chips; a removed account's chips go with it and its copy of its data lists
them."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.db import IntegrityError, transaction
from django.test import Client

from chips import selectors, services
from chips.models import Balance, Entry
from games.errors import ServiceError
from tests.staff import sign_in_verified

pytestmark = pytest.mark.django_db

User = get_user_model()


def _sign_up(name: str) -> Client:
    client = Client(REMOTE_ADDR="203.0.113.9")
    data = {"username": name, "password1": "dominó-secreto-42", "password2": "dominó-secreto-42"}
    assert client.post("/accounts/signup/", data).status_code == 302
    return client


def test_a_new_account_starts_with_the_welcome_grant(settings):
    settings.CHIPS_WELCOME = 750
    _sign_up("ana")
    ana = User.objects.get(username="ana")
    assert selectors.balance_of(ana) == 750 == selectors.ledger_sum(ana)
    assert [e.reason for e in selectors.last_entries(ana)] == [Entry.Reason.WELCOME]


def test_the_welcome_grant_is_written_once(make_user):
    ana = make_user("ana")
    services.welcome_grant(user=ana)
    services.welcome_grant(user=ana)
    assert Entry.objects.filter(user=ana).count() == 1


def test_a_guest_has_no_chips():
    assert selectors.balance_of(AnonymousUser()) is None


def test_the_balance_never_goes_below_zero(make_user):
    ana = make_user("ana")
    services.welcome_grant(user=ana)
    with pytest.raises(IntegrityError), transaction.atomic():
        Balance.objects.filter(user=ana).update(amount=-1)


def test_the_daily_allowance_tops_a_low_balance_up_to_the_floor_once_a_day(
    make_user, clock, settings
):
    settings.CHIPS_DAILY_FLOOR = 200
    ana = make_user("ana")
    services.correction_add(user=ana, amount=30, staff=None, note="start", now=clock())
    entry = services.allowance_grant(user=ana, now=clock())
    assert entry is not None and entry.amount == 170
    assert selectors.balance_of(ana) == 200 == selectors.ledger_sum(ana)
    services.correction_add(user=ana, amount=-150, staff=None, note="spent", now=clock())
    assert services.allowance_grant(user=ana, now=clock()) is None  # the same day
    assert services.allowance_grant(user=ana, now=clock() + timedelta(days=1)).amount == 150
    assert selectors.balance_of(ana) == 200 == selectors.ledger_sum(ana)


def test_the_daily_allowance_leaves_a_balance_at_the_floor_or_above(make_user, settings):
    settings.CHIPS_DAILY_FLOOR = 200
    ana = make_user("ana")
    services.welcome_grant(user=ana)
    assert services.allowance_grant(user=ana) is None


def test_signing_in_brings_the_daily_allowance(make_user, settings):
    settings.CHIPS_DAILY_FLOOR = 200
    ana = make_user("ana")
    response = Client().post("/accounts/login/", {"username": "ana", "password": "x"})
    assert response.status_code == 302
    assert selectors.balance_of(ana) == 200
    assert Entry.objects.get(user=ana).reason == Entry.Reason.DAILY


def test_a_correction_cannot_take_more_than_the_balance(make_user):
    ana = make_user("ana")
    with pytest.raises(ServiceError) as refused:
        services.correction_add(user=ana, amount=-1, staff=None, note="too much")
    assert refused.value.code == "no_chips"
    assert not Entry.objects.filter(user=ana).exists()


def test_staff_add_a_correction_in_the_admin_and_change_nothing_else(make_user):
    staff = User.objects.create_superuser("chefe", password="x")
    ana = make_user("ana")
    services.welcome_grant(user=ana)
    client = Client()
    sign_in_verified(client, staff)
    added = client.post(
        "/admin/chips/entry/add/", {"user": ana.pk, "amount": "-25", "note": "refund abuse"}
    )
    assert added.status_code == 302, added.content[:2000]
    correction = Entry.objects.get(user=ana, reason=Entry.Reason.CORRECTION)
    assert (correction.amount, correction.staff, correction.note) == (-25, staff, "refund abuse")
    assert selectors.balance_of(ana) == selectors.ledger_sum(ana)
    welcome = Entry.objects.get(user=ana, reason=Entry.Reason.WELCOME)
    client.post(f"/admin/chips/entry/{welcome.pk}/change/", {"amount": "99999"})
    assert Entry.objects.get(pk=welcome.pk).amount == welcome.amount
    assert (
        client.post(f"/admin/chips/entry/{welcome.pk}/delete/", {"post": "yes"}).status_code == 403
    )
    assert Entry.objects.filter(pk=welcome.pk).exists()
    listing = client.get(f"/admin/chips/entry/?q={ana.username}")
    assert listing.status_code == 200


def test_the_copy_of_ones_data_lists_the_ledger(make_user):
    ana = make_user("ana")
    services.welcome_grant(user=ana)
    client = Client()
    client.force_login(ana)
    response = client.get("/accounts/export/")
    data = json.loads(response.content)
    assert data["chips"]["balance"] == selectors.balance_of(ana)
    assert [row["reason"] for row in data["chips"]["ledger"]] == ["welcome"]


def test_a_removed_account_s_chips_go_with_it(make_user):
    ana = make_user("ana")
    services.welcome_grant(user=ana)
    client = Client()
    client.force_login(ana)
    response = client.post("/accounts/delete/", {"password": "x", "confirm": "on"})
    assert response.status_code in (200, 302)
    assert not Entry.objects.filter(user=ana).exists()
    assert not Balance.objects.filter(user=ana).exists()
