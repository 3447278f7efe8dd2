"""The chips' admin: the ledger per person, read only; the one thing staff may
add is a correction entry (with their name and a note), through
`chips.services.correction_add`. Nothing is ever changed or deleted here."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from chips import services
from chips.models import Balance, Entry, Pot
from domino_site.admin_base import ReadOnlyMixin


class CorrectionForm(forms.ModelForm):
    """A correction: whose chips, how many (negative takes away), and why."""

    user = forms.ModelChoiceField(queryset=get_user_model().objects.all(), label=_("person"))
    amount = forms.IntegerField(label=_("amount"))
    note = forms.CharField(label=_("note"), max_length=200)

    class Meta:
        model = Entry
        fields = ("user", "amount", "note")


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ("created_at", "user", "amount", "reason", "match", "room_code", "staff")
    list_filter = ("reason", "created_at")
    search_fields = ("user__username", "room_code", "key")
    list_select_related = ("user", "staff")
    form = CorrectionForm

    def get_readonly_fields(self, request: Any, obj: Any = None) -> list[str]:
        if obj is None:  # adding: a correction's three fields
            return []
        return [f.name for f in Entry._meta.fields]

    def get_fields(self, request: Any, obj: Any = None) -> Any:
        if obj is None:
            return ["user", "amount", "note"]
        return [f.name for f in Entry._meta.fields]

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return obj is None and super().has_change_permission(request, obj)

    def has_delete_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def save_model(self, request: Any, obj: Entry, form: Any, change: bool) -> None:
        if change:  # (never offered: read-only)
            return
        entry = services.correction_add(
            user=form.cleaned_data["user"],
            amount=form.cleaned_data["amount"],
            staff=request.user,
            note=form.cleaned_data["note"],
        )
        obj.pk = entry.pk


@admin.register(Balance)
class BalanceAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("user", "amount", "allowance_on")
    search_fields = ("user__username",)
    list_select_related = ("user",)

    def has_delete_permission(self, request: Any, obj: Any = None) -> bool:
        return False


@admin.register(Pot)
class PotAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("match", "stake", "stakers", "settled_at")
    list_filter = ("settled_at",)

    def has_delete_permission(self, request: Any, obj: Any = None) -> bool:
        return False
