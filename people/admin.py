"""Admin for the people's rows (docs/site.md, "Friends, blocking and who is
online", "Reports and moderation"): friend requests, friendships, blocks and
challenges, searchable by name, and the open pages (presence), read-only.
Staff may delete such a row (a friendship or a block set in error); nothing
is added here: requests and blocks are the players' own. The reports' queue
and its actions (warn, reset a name, suspend from rated play for a week or
for good, dismiss), each logged as a `Sanction` with who took it; the log
itself, whose suspensions may be lifted and whose rows are never deleted.
The site's own entries ("possible win trading", no reporter) link their
rated matches."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import Case, When
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from domino_site.admin_base import ReadOnlyMixin
from people import moderation
from people.errors import PeopleError
from people.models import Block, Challenge, FriendRequest, Friendship, Presence, Report, Sanction


@admin.register(FriendRequest)
class FriendRequestAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("sender", "recipient", "created_at")
    search_fields = ("sender__username", "recipient__username")
    date_hierarchy = "created_at"


@admin.register(Friendship)
class FriendshipAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("low", "high", "since")
    search_fields = ("low__username", "high__username")
    date_hierarchy = "since"


@admin.register(Block)
class BlockAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("blocker", "blocked", "created_at")
    search_fields = ("blocker__username", "blocked__username")
    date_hierarchy = "created_at"


@admin.register(Challenge)
class ChallengeAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("challenger", "challenged", "preset", "competitive", "status", "created_at")
    list_filter = ("status", "preset")
    search_fields = ("challenger__username", "challenged__username")


@admin.register(Presence)
class PresenceAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("user", "room_code", "opened_at")
    search_fields = ("user__username", "room_code")


# ---------------------------------------------------------------- moderation


def _act(modeladmin, request, queryset, kind: str, days: int | None = None) -> None:
    """Each open report's sanction; one refused (`people.errors.PeopleError`)
    changes nothing and is told, the others go on."""
    done = 0
    for report in queryset.filter(status=Report.Status.OPEN).select_related("reported"):
        try:
            moderation.sanction_apply(
                user=report.reported,
                kind=kind,
                reason=str(report.get_reason_display()),
                by=request.user,
                report=report,
                days=days,
            )
        except PeopleError as refused:
            modeladmin.message_user(request, refused.message, messages.ERROR)
            continue
        done += 1
    modeladmin.message_user(
        request,
        ngettext("%(n)d report handled.", "%(n)d reports handled.", done) % {"n": done},
        messages.SUCCESS,
    )


@admin.action(description=_("Warn the reported players"), permissions=["change"])
def warn(modeladmin, request, queryset):
    _act(modeladmin, request, queryset, Sanction.Kind.WARNING)


@admin.action(description=_("Reset the reported players' names"), permissions=["change"])
def reset_name(modeladmin, request, queryset):
    _act(modeladmin, request, queryset, Sanction.Kind.NAME_RESET)


@admin.action(description=_("Suspend from rated play for 7 days"), permissions=["change"])
def suspend_week(modeladmin, request, queryset):
    _act(modeladmin, request, queryset, Sanction.Kind.SUSPENSION, days=7)


@admin.action(description=_("Suspend from rated play for good"), permissions=["change"])
def suspend_for_good(modeladmin, request, queryset):
    _act(modeladmin, request, queryset, Sanction.Kind.SUSPENSION)


@admin.action(description=_("Dismiss the selected reports"), permissions=["change"])
def dismiss(modeladmin, request, queryset):
    for report in queryset.filter(status=Report.Status.OPEN):
        moderation.report_dismiss(report=report, by=request.user)


@admin.register(Report)
class ReportAdmin(ReadOnlyMixin, admin.ModelAdmin):
    """The queue: open reports first, the oldest first; each action is logged
    as a sanction with who took it."""

    list_display = (
        "created_at",
        "reporter",
        "reported",
        "against",
        "reason",
        "match",
        "status",
        "handled_by",
    )
    list_filter = ("status", "reason", "created_at")
    search_fields = ("reporter__username", "reported__username", "note")
    actions = [warn, reset_name, suspend_week, suspend_for_good, dismiss]
    exclude = ("matches",)

    def get_readonly_fields(self, request, obj=None):
        return [*super().get_readonly_fields(request, obj), "match_links"]

    @admin.display(description=_("matches"))
    def match_links(self, report: Report) -> str:
        """The rated matches an automatic entry is about, each a link to the
        match's page in the admin (its rounds, its moves)."""
        links = [
            format_html(
                '<a href="{}">#{} ({})</a>',
                reverse("admin:games_match_change", args=[match.pk]),
                match.pk,
                match.room.code,
            )
            for match in report.matches.select_related("room").order_by("pk")
        ]
        return format_html_join(", ", "{}", ((link,) for link in links)) or "-"

    def get_queryset(self, request):
        open_first = Case(When(status=Report.Status.OPEN, then=0), default=1)
        return super().get_queryset(request).order_by(open_first, "created_at")


@admin.action(description=_("Lift the selected suspensions"), permissions=["change"])
def lift(modeladmin, request, queryset):
    for sanction in queryset.filter(kind=Sanction.Kind.SUSPENSION, lifted_at__isnull=True):
        moderation.sanction_lift(sanction=sanction, by=request.user)


@admin.register(Sanction)
class SanctionAdmin(ReadOnlyMixin, admin.ModelAdmin):
    """The log of every action: who took it, on whom, why, until when."""

    list_display = ("created_at", "user", "kind", "reason", "until", "by", "lifted_at")
    list_filter = ("kind", "created_at")
    search_fields = ("user__username", "old_name", "reason")
    actions = [lift]

    def has_delete_permission(self, request, obj=None) -> bool:
        return False  # the log stays
