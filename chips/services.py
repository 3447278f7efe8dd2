"""Writes of the play chips (docs/site.md, "Fichas"): every one an `Entry` of
the append-only ledger and, for a person, the same change of their `Balance`
in the same transaction, under the balance row's lock (`select_for_update`),
so two tables settling at once never lose an update and a balance never goes
below zero (a CHECK backs it). Each entry has an idempotency key: a grant, a
stake or a settlement run twice (a retried task, a repeated after-commit)
writes once.

The stakes are held and settled through the records' rulebook
(`records.services.match_started`, `records.services.stakes_settled`): these
functions know chips, not matches' rules.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from chips import rules
from chips.errors import no_chips
from chips.models import Balance, Entry, Pot
from games.world import now_or


def _locked_balances(user_ids: Iterable[int]) -> dict[int, Balance]:
    """The balance rows of these accounts, created at zero when new, locked in
    primary-key order (two settlements at once never deadlock)."""
    ids = sorted({u for u in user_ids if u})
    if not ids:
        return {}
    Balance.objects.bulk_create([Balance(user_id=u) for u in ids], ignore_conflicts=True)
    rows = Balance.objects.select_for_update().filter(user_id__in=ids).order_by("pk")
    return {row.user_id: row for row in rows}


def _post(
    *,
    balance: Balance | None,
    amount: int,
    reason: str,
    key: str,
    now: datetime,
    match: Any = None,
    room_code: str = "",
    staff: Any = None,
    note: str = "",
) -> Entry | None:
    """One entry, and the locked ``balance`` moved by ``amount`` (None: the
    bank's entry). Nothing if the key was written already (None)."""
    if Entry.objects.filter(key=key).exists():
        return None
    if balance is not None and balance.amount + amount < 0:
        raise no_chips(stake=-amount, balance=balance.amount)
    entry = Entry.objects.create(
        user_id=balance.user_id if balance is not None else None,
        amount=amount,
        reason=reason,
        key=key,
        match=match,
        room_code=room_code,
        staff=staff,
        note=note[:200],
        created_at=now,
    )
    if balance is not None:
        balance.amount += amount
        balance.save(update_fields=["amount"])
    return entry


# ---------------------------------------------------------------------- getting chips


@transaction.atomic
def welcome_grant(*, user: Any, now: datetime | None = None) -> Entry | None:
    """A new account's chips (``CHIPS_WELCOME``), once."""
    user_id = getattr(user, "pk", user)
    balance = _locked_balances([user_id])[user_id]
    return _post(
        balance=balance,
        amount=rules.welcome_amount(),
        reason=Entry.Reason.WELCOME,
        key=f"welcome:{user_id}",
        now=now_or(now),
    )


@transaction.atomic
def allowance_grant(*, user: Any, now: datetime | None = None) -> Entry | None:
    """The daily allowance: a balance below ``CHIPS_DAILY_FLOOR`` is topped up
    to it, once a day (the site's time zone). Chips held in a running match's
    pot do not count: the floor is what one can sit down with."""
    now = now_or(now)
    user_id = getattr(user, "pk", user)
    balance = _locked_balances([user_id])[user_id]
    today = timezone.localdate(now)
    floor = rules.daily_floor()
    if balance.allowance_on == today or balance.amount >= floor:
        return None
    entry = _post(
        balance=balance,
        amount=floor - balance.amount,
        reason=Entry.Reason.DAILY,
        key=f"daily:{user_id}:{today.isoformat()}",
        now=now,
    )
    balance.allowance_on = today
    balance.save(update_fields=["allowance_on"])
    return entry


def allowance_on_login(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    """Django's ``user_logged_in``: the day's allowance, if it is due."""
    allowance_grant(user=user)


@transaction.atomic
def correction_add(
    *, user: Any, amount: int, staff: Any, note: str, now: datetime | None = None
) -> Entry:
    """A staff member's correction (the admin): the only entry a person may add
    by hand, with their name and a note; never below zero."""
    user_id = getattr(user, "pk", user)
    balance = _locked_balances([user_id])[user_id]
    entry = _post(
        balance=balance,
        amount=int(amount),
        reason=Entry.Reason.CORRECTION,
        key=f"correction:{uuid.uuid4().hex}",
        now=now_or(now),
        staff=staff,
        note=note,
    )
    assert entry is not None  # (a fresh key)
    return entry


# ---------------------------------------------------------------------- stakes


def check_covers(*, user_id: int | None, stake: int) -> None:
    """Refuse ``no_chips`` unless the account's balance covers ``stake`` (a
    guest has none)."""
    if not stake:
        return
    have = 0
    if user_id:
        have = int(
            Balance.objects.filter(user_id=user_id).values_list("amount", flat=True).first() or 0
        )
    if have < stake:
        raise no_chips(stake=stake, balance=have)


@transaction.atomic
def stakes_hold(
    *,
    match: Any,
    stake: int,
    stakers: Sequence[int | None],
    room_code: str = "",
    now: datetime | None = None,
) -> Pot | None:
    """The match starts: each account in ``stakers`` (by seat; None is a bot,
    whose stake the bank pays) pays ``stake`` into the match's pot. Refuses
    ``no_chips`` (nothing held) when one of them cannot cover it. Once per
    match."""
    if not stake:
        return None
    now = now_or(now)
    pot, created = Pot.objects.get_or_create(
        match=match, defaults={"stake": stake, "stakers": list(stakers)}
    )
    if not created:
        return pot
    balances = _locked_balances([u for u in stakers if u])
    for index, user_id in enumerate(stakers):
        _post(
            balance=balances[user_id] if user_id else None,
            amount=-stake,
            reason=Entry.Reason.STAKE,
            key=f"stake:{match.pk}:{index}",
            now=now,
            match=match,
            room_code=room_code,
            note="" if user_id else f"bot seat {index}",
        )
    return pot


OUTCOME_WON, OUTCOME_DRAW, OUTCOME_ANNULLED, OUTCOME_CLOSED = "won", "draw", "annulled", "closed"


@transaction.atomic
def pot_settle(
    *,
    match: Any,
    outcome: str,
    winner_side: int | None = None,
    side_of: Callable[[int], int] | None = None,
    penalised: Iterable[int] = (),
    room_code: str = "",
    now: datetime | None = None,
) -> Pot | None:
    """Settle a staked match's pot, once (a second call writes nothing):

    * ``won``: the seats of ``winner_side`` share the pot less the bank's share
      (`rules.split_pot`); a bot's part, and that of a seat in ``penalised``,
      goes back to the bank; the others' stakes stay in the pot (lost);
    * ``draw`` and ``closed`` (the table closed before the match's end): every
      stake goes back (a bot's to the bank);
    * ``annulled``: every stake goes back except those of the seats in
      ``penalised`` (abandoned the match: their stake is the bank's).
    """
    now = now_or(now)
    pot = Pot.objects.select_for_update().filter(match=match).first()
    if pot is None or pot.settled_at is not None:
        return pot
    stakers = list(pot.stakers)
    balances = _locked_balances([u for u in stakers if u])
    penalised = set(penalised)
    back: dict[int, int] = {}
    bank_share = 0
    if outcome == OUTCOME_WON and winner_side is not None and side_of is not None:
        winners = [i for i in range(len(stakers)) if side_of(i) == winner_side]
        each, bank_share = rules.split_pot(
            total=pot.total, winners=len(winners), share=rules.bank_share()
        )
        back = {i: each for i in winners}
        reason = Entry.Reason.POT_WON
        # A winning seat whose staker abandoned the match: its part is the bank's.
        stakers = [None if i in penalised else u for i, u in enumerate(stakers)]
    else:
        back = {i: pot.stake for i in range(len(stakers)) if i not in penalised}
        reason = Entry.Reason.RETURNED
    for index, user_id in enumerate(stakers):
        if index in back and back[index]:
            _post(
                balance=balances[user_id] if user_id else None,
                amount=back[index],
                reason=reason,
                key=f"settle:{match.pk}:{index}",
                now=now,
                match=match,
                room_code=room_code,
                note="" if user_id else f"bot seat {index}",
            )
        elif index not in back and outcome != OUTCOME_WON:  # an abandoner's stake
            _post(
                balance=None,
                amount=pot.stake,
                reason=Entry.Reason.FORFEIT,
                key=f"settle:{match.pk}:{index}",
                now=now,
                match=match,
                room_code=room_code,
                note=f"seat {index}",
            )
    if bank_share:
        _post(
            balance=None,
            amount=bank_share,
            reason=Entry.Reason.BANK_SHARE,
            key=f"settle:{match.pk}:bank",
            now=now,
            match=match,
            room_code=room_code,
        )
    pot.result = {
        "outcome": outcome,
        "bank_share": bank_share,
        "net": [
            {"seat": i, "user": u, "net": (back.get(i, 0) if u else 0) - pot.stake}
            for i, u in enumerate(pot.stakers)
        ],
    }
    pot.settled_at = now
    pot.save(update_fields=["result", "settled_at"])
    return pot


@transaction.atomic
def account_chips_erase(*, user: Any) -> None:
    """An account's deletion (privacy): its balance and every entry of its ledger
    go. A stake it still has in a pot not yet settled stays there, its seat's
    part the bank's as a bot's would be (the account cannot be paid any more)."""
    user_id = getattr(user, "pk", user)
    for pot in Pot.objects.select_for_update().filter(settled_at__isnull=True):
        if user_id in pot.stakers:
            pot.stakers = [None if u == user_id else u for u in pot.stakers]
            pot.save(update_fields=["stakers"])
    Entry.objects.filter(user_id=user_id).delete()
    Balance.objects.filter(user_id=user_id).delete()
