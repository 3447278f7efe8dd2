"""The chips' refusals (docs/protocol.md, ``error``): ``no_chips`` (the balance
does not cover the table's stake, with ``stake`` and ``balance``) and
``same_address`` (two accounts of one address at one staked table)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.errors import ServiceError


def no_chips(*, stake: int, balance: int) -> ServiceError:
    """The person's balance does not cover ``stake``."""
    message = ngettext(
        "This table stakes %(stake)d chip and you have %(balance)d.",
        "This table stakes %(stake)d chips and you have %(balance)d.",
        stake,
    ) % {"stake": stake, "balance": balance}
    return ServiceError("no_chips", message, extra={"stake": stake, "balance": balance})


def same_address() -> ServiceError:
    """Two accounts of one address may not stake against each other."""
    return ServiceError(
        "same_address",
        _("Someone at this table connects from your address: a staked table is not for you both."),
    )
