from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PeopleConfig(AppConfig):
    """Play with your people (docs/site.md, "Friends, blocking and who is
    online"): friend requests and friendships, blocks, and who of one's friends
    is online (the ``ws/people/`` socket).

    A layer of its own between the apps that pair and list (arenas, quick,
    replays, lobby: they ask `people.selectors` who is kept apart, the lobby
    shows the friends) and the rooms (a presence at a table reads the room).
    The profile is the records' page and the table the rooms': the parts here
    answer `records.signals.profile_parts` and `rooms.signals.page_parts` (the
    rematch offer), a table socket's `rooms.signals.chat_hidden` (a blocked
    account's phrases) and the seat-taking's `rooms.signals.kept_apart` (who
    blocks whom at a table), connected below (`people.pages`).
    """

    default_auto_field = "django.db.models.BigAutoField"
    name = "people"
    verbose_name = _("Friends and blocks")

    def ready(self) -> None:
        # (app loading: models are ready only now)
        from people.moderation import on_rated_restriction, on_win_trading
        from people.pages import (
            on_chat_hidden,
            on_kept_apart,
            on_page_parts,
            on_profile_parts,
        )
        from records.signals import (  # (app loading, as above)
            profile_parts,
            rated_restriction,
            win_trading,
        )
        from rooms.signals import (  # (app loading, as above)
            chat_hidden,
            kept_apart,
            page_parts,
        )

        profile_parts.connect(on_profile_parts, dispatch_uid="people.profile_parts")
        page_parts.connect(on_page_parts, dispatch_uid="people.page_parts")
        chat_hidden.connect(on_chat_hidden, dispatch_uid="people.chat_hidden")
        kept_apart.connect(on_kept_apart, dispatch_uid="people.kept_apart")
        rated_restriction.connect(on_rated_restriction, dispatch_uid="people.rated_restriction")
        win_trading.connect(on_win_trading, dispatch_uid="people.win_trading")
