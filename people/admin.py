"""Admin for the people's rows (docs/site.md, "Friends, blocking and who is
online"): friend requests, friendships and blocks, searchable by name, and the
open pages (presence), read-only. Staff may delete a row (a friendship or a
block set in error); nothing is added here: requests and blocks are the
players' own."""

from __future__ import annotations

from django.contrib import admin

from domino_site.admin_base import ReadOnlyMixin
from people.models import Block, FriendRequest, Friendship, Presence


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


@admin.register(Presence)
class PresenceAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("user", "room_code", "opened_at")
    search_fields = ("user__username", "room_code")
