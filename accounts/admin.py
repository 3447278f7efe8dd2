"""The accounts' rows in the admin: a person's addresses (with their history),
the outbox (what was sent, when, what failed), the sessions."""

from django.contrib import admin

from .models import EmailAddress, OutgoingMail, SessionRecord


@admin.register(EmailAddress)
class EmailAddressAdmin(admin.ModelAdmin):
    list_display = ("email", "user", "state", "created_at", "confirmed_at", "ended_at")
    list_filter = ("state",)
    search_fields = ("email", "user__username")
    raw_id_fields = ("user",)
    readonly_fields = ("created_at", "confirmed_at", "ended_at")


@admin.register(OutgoingMail)
class OutgoingMailAdmin(admin.ModelAdmin):
    list_display = ("kind", "to", "user", "created_at", "sent_at", "attempts", "gave_up_at")
    list_filter = ("kind",)
    search_fields = ("to", "user__username")
    exclude = ("body_text", "body_html")  # one-time links: not for the admin's eyes
    readonly_fields = (
        "kind",
        "user",
        "to",
        "language",
        "subject",
        "created_at",
        "next_try_at",
        "attempts",
        "last_error",
        "sent_at",
        "gave_up_at",
    )

    def has_add_permission(self, request):  # noqa: ANN001 - Django's signature
        return False


@admin.register(SessionRecord)
class SessionRecordAdmin(admin.ModelAdmin):
    list_display = ("user", "device", "address", "created_at", "last_seen")
    search_fields = ("user__username",)
    list_display_links = None  # a row's address would be its session's key: none
    exclude = ("session_key",)

    def has_add_permission(self, request):  # noqa: ANN001 - Django's signature
        return False

    def has_change_permission(self, request, obj=None):  # noqa: ANN001 - Django's signature
        return False
