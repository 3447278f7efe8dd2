"""Who has two-step sign-in, for the staff who help someone who lost both
their phone and their recovery codes: never a secret nor a code. django-otp's
own pages (which can show a secret, a QR code and the recovery codes, and
add a device to anyone) are taken off the admin."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from django_otp.plugins.otp_static.models import StaticDevice
from django_otp.plugins.otp_totp.models import TOTPDevice

from . import services

for model in (TOTPDevice, StaticDevice):
    if admin.site.is_registered(model):
        admin.site.unregister(model)


@admin.register(TOTPDevice)
class AuthenticatorAdmin(admin.ModelAdmin):
    list_display = ["user", "confirmed", "created_at", "last_used_at"]
    list_filter = ["confirmed"]
    search_fields = ["user__username"]
    fields = ("user", "confirmed", "created_at", "last_used_at")
    readonly_fields = ("user", "confirmed", "created_at", "last_used_at")
    actions = ["turn_off"]

    def has_add_permission(self, request: Any) -> bool:
        return False

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    @admin.action(description=_("Turn two-step sign-in off for these accounts"))
    def turn_off(self, request: Any, queryset: Any) -> None:
        users = {device.user for device in queryset.select_related("user")}
        for user in users:
            services.two_factor_off(user=user)
        message = ngettext(
            "Two-step sign-in is off for %(n)s account.",
            "Two-step sign-in is off for %(n)s accounts.",
            len(users),
        )
        self.message_user(request, message % {"n": len(users)})
