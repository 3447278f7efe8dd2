"""Reads of the play chips (docs/site.md, "Fichas")."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Sum

from chips.models import Balance, Entry, Pot


def balance_of(user: Any) -> int | None:
    """A person's chips (0 before their first entry); None for a guest."""
    if hasattr(user, "is_authenticated"):
        if not user.is_authenticated:
            return None
        user_id = user.pk
    else:
        user_id = user
    if not user_id:
        return None
    row = Balance.objects.filter(user_id=user_id).values_list("amount", flat=True).first()
    return int(row or 0)


def balances_of(user_ids: Iterable[int]) -> dict[int, int]:
    """The balances of these accounts (0 for one without a row)."""
    ids = [u for u in user_ids if u]
    found = dict(Balance.objects.filter(user_id__in=ids).values_list("user_id", "amount"))
    return {u: int(found.get(u, 0)) for u in ids}


def ledger_sum(user: Any) -> int:
    """The truth the balance caches: the sum of the person's entries."""
    user_id = getattr(user, "pk", user)
    total = Entry.objects.filter(user_id=user_id).aggregate(total=Sum("amount"))["total"]
    return int(total or 0)


def last_entries(user: Any, *, limit: int = 10) -> list[Entry]:
    """The person's latest entries, the newest first (the profile, the header)."""
    user_id = getattr(user, "pk", user)
    return list(Entry.objects.filter(user_id=user_id).select_related("match")[:limit])


def ledger_export(user: Any) -> list[dict[str, Any]]:
    """Every entry of the person, for their copy of their data (privacy)."""
    user_id = getattr(user, "pk", user)
    rows = Entry.objects.filter(user_id=user_id).order_by("created_at", "pk")
    return [
        {
            "at": row.created_at.isoformat(),
            "amount": row.amount,
            "reason": row.reason,
            "match": row.match_id,
            "room": row.room_code,
            "note": row.note,
        }
        for row in rows
    ]


def pot_of(match: Any) -> Pot | None:
    """The match's pot, if it was staked."""
    match_id = getattr(match, "pk", match)
    return Pot.objects.filter(match_id=match_id).first()


def pot_view(match: Any) -> dict[str, Any] | None:
    """The pot as the table and the result panel show it: the stake, the
    total, each seat's stake, and after the settlement each seat's net and the
    bank's share (docs/protocol.md, ``pot``)."""
    pot = pot_of(match)
    if pot is None:
        return None
    view: dict[str, Any] = {
        "stake": pot.stake,
        "total": pot.total,
        # Each seat's stake: ``bank`` where the bank paid it (a bot's seat).
        "seats": [
            {"seat": i, "stake": pot.stake, "bank": u is None} for i, u in enumerate(pot.stakers)
        ],
        "settled": pot.settled_at is not None,
    }
    if pot.settled_at is not None:
        view["outcome"] = pot.result.get("outcome", "")
        # What each seat won (positive) or lost (negative), its stake counted.
        view["net"] = [
            {"seat": row["seat"], "net": row["net"], "bank": row["user"] is None}
            for row in pot.result.get("net", [])
        ]
        view["bank_share"] = pot.result.get("bank_share", 0)
    return view


def match_entries(match: Any) -> list[Entry]:
    """Every entry of a match, the bank's too (the sum is zero once settled)."""
    match_id = getattr(match, "pk", match)
    return list(Entry.objects.filter(match_id=match_id).order_by("pk"))


def staked_wins(
    *, pairs: Iterable[frozenset[int]], since: Any
) -> dict[frozenset[int], list[tuple[int, int]]]:
    """For each pair of accounts, the staked matches since ``since`` that one
    of the two won against the other (a pot won by one of them, not by both),
    as ``(match id, winner)``, the oldest first: the chips passed between them,
    which the records' win-trading check reads."""
    pairs = list(pairs)
    ids = {u for pair in pairs for u in pair}
    found: dict[frozenset[int], list[tuple[int, int]]] = {pair: [] for pair in pairs}
    if not ids:
        return found
    rows = (
        Entry.objects.filter(
            user_id__in=ids,
            created_at__gte=since,
            reason__in=(Entry.Reason.STAKE, Entry.Reason.POT_WON),
            match__isnull=False,
        )
        .order_by("pk")
        .values_list("match_id", "user_id", "reason")
    )
    by_match: dict[int, dict[int, set[str]]] = {}
    for match_id, user_id, reason in rows:
        by_match.setdefault(match_id, {}).setdefault(user_id, set()).add(reason)
    for match_id, people in by_match.items():
        for pair in pairs:
            a, b = sorted(pair)
            if a not in people or b not in people:
                continue
            won = [u for u in (a, b) if Entry.Reason.POT_WON in people[u]]
            if len(won) == 1 and all(Entry.Reason.STAKE in people[u] for u in (a, b)):
                found[pair].append((match_id, won[0]))
    return found
