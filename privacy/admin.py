"""The data requests staff carry out for someone who writes in (docs/site.md,
"Your data (LGPD)"): entered here, carried out by an action that calls the
same services as the site's pages (`privacy.services`), which record who did
it and when. A copy is handed to the staff member as the JSON file to send on."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.http import HttpResponse
from django.utils.translation import gettext_lazy as _

from games.errors import ServiceError

from . import services
from .models import DataRequest, HeldName
from .views import export_response


@admin.register(DataRequest)
class DataRequestAdmin(admin.ModelAdmin):
    list_display = ("user", "kind", "source", "requested_at", "done_by", "done_at")
    list_filter = ("kind", "source")
    search_fields = ("user__username", "note")
    autocomplete_fields = ("user",)
    readonly_fields = ("source", "done_by", "done_at")
    actions = ["carry_out"]

    def get_readonly_fields(self, request: Any, obj: Any = None) -> Any:
        if obj is not None:  # what was asked stays as asked
            return ("user", "kind", "source", "requested_at", "done_by", "done_at")
        return self.readonly_fields

    def has_delete_permission(self, request: Any, obj: Any = None) -> bool:
        return False  # the record of who did what; the sweeper deletes it in time

    @admin.action(description=_("Carry out the selected requests"))
    def carry_out(self, request: Any, queryset: Any) -> HttpResponse | None:
        """Deletions are carried out; a copy (one request selected) is the JSON
        file downloaded now."""
        exports = [r for r in queryset if r.kind == DataRequest.Kind.EXPORT and not r.done_at]
        if exports and len(queryset) > 1:
            self.message_user(
                request, _("Carry out a copy on its own: its file is downloaded."), messages.ERROR
            )
            return None
        for data_request in queryset:
            try:
                services.data_request_carry_out(request=data_request, by=request.user)
            except ServiceError as exc:
                self.message_user(request, f"{data_request}: {exc.message}", messages.ERROR)
                continue
            if data_request.kind == DataRequest.Kind.EXPORT:
                return export_response(data_request.user)
        self.message_user(request, _("Carried out."), messages.SUCCESS)
        return None


@admin.register(HeldName)
class HeldNameAdmin(admin.ModelAdmin):
    list_display = ("name", "until")
    search_fields = ("name",)
