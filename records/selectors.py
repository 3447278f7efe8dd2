"""Reads of people's records: the profile, the rating history chart, the
ranking, and the rated marker of a table. Who may see a room's rounds is the
rooms' to decide (`rooms.selectors.may_see_rounds`); the profile is told.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.conf import settings
from django.core.paginator import Page, Paginator
from django.db.models import Q

from domino_site.removed import is_tombstone, shown_name
from games.models import Match, Round
from records import rating
from records.models import ALL_PRESETS, Cooldown, MatchLineup, Rating, RatingChange, Signup
from records.rulebook import (  # noqa: F401 - read here by the pages too
    ActiveCooldown,
    cooldown_for,
    cooldown_message,
    lineup_of,
    lineup_rated,
    match_rated,
    pair_limit_reached,
    table_rated,
)

RECENT_MATCHES = 10
RANKING_PAGE_SIZE = 25


def is_user(user: Any) -> bool:
    return user is not None and getattr(user, "is_authenticated", False)


def is_admin(user: Any) -> bool:
    """Staff who may inspect rounds in the admin (superusers included)."""
    return is_user(user) and user.is_staff and user.has_perm("games.view_round")


# ------------------------------------------------------------------ rated tables


def table_marker(
    *,
    seats: Sequence[Any],
    match: Match | None,
    side_of: Callable[[int], int],
    now: datetime,
    competitive: bool = True,
) -> bool:
    """The "competitive" marker of a table: its seated people make a rated table
    (empty seats aside: a match starts only when they are taken; two of them
    past the pair limit do not, `rulebook.lineup_rated`), and a match in
    progress is rated and still played by the people it started with."""
    rated, _why = lineup_rated(
        seats, side_of=side_of, now=now, allow_empty=True, competitive=competitive
    )
    if not rated:
        return False
    if match is None or match.over:
        return True
    lineup = MatchLineup.objects.filter(match=match).values_list("rated", "users").first()
    return lineup is not None and lineup[0] and lineup[1] == lineup_of(seats)


def unrated_reason(
    *,
    seats: Sequence[Any],
    match: Match | None,
    side_of: Callable[[int], int],
    now: datetime,
    competitive: bool,
    rated: bool,
) -> str | None:
    """Why a competitive table whose people would otherwise make a rated table
    is not rated, when the table says so before its match starts and while it
    is played: ``pair_limit`` (`rulebook.lineup_rated`), else None. Asks the
    database only for such a table (every seat an account, each at its own
    address) that is not rated."""
    if rated or not competitive or not table_rated(seats, allow_empty=True)[0]:
        return None
    if match is not None and not match.over:
        reason = MatchLineup.objects.filter(match=match).values_list("reason", flat=True).first()
        return reason if reason == MatchLineup.Reason.PAIR_LIMIT else None
    users = lineup_of(seats)
    if pair_limit_reached(users=users, side_of=side_of, now=now):
        return MatchLineup.Reason.PAIR_LIMIT
    return None


def match_note(match: Match) -> str | None:
    """Why a finished match that started rated counted for nobody, when the table
    should say so (a person who never made a move themselves), else None."""
    if not match.over:
        return None
    reason = MatchLineup.objects.filter(match=match).values_list("reason", flat=True).first()
    return reason if reason == MatchLineup.Reason.NO_MOVE else None


# ------------------------------------------------------------------ rating


@dataclass(frozen=True)
class ShownRating:
    value: int
    uncertainty: int
    matches: int
    wins: int
    xp: int


def shown_rating(user: Any, preset: str = ALL_PRESETS) -> ShownRating:
    row = Rating.objects.filter(user=user, preset=preset).first()
    if row is None:
        prior = rating.Skill()
        return ShownRating(prior.shown, prior.uncertainty, 0, 0, 0)
    skill = rating.Skill(row.mu, row.sigma)
    return ShownRating(skill.shown, skill.uncertainty, row.matches, row.wins, row.xp)


def match_rating_changes(match: Match) -> list[dict[str, Any]]:
    """What a finished rated match did to each player's rating (the result panel)."""
    rows = RatingChange.objects.filter(match=match, preset=ALL_PRESETS).order_by("seat")
    return [
        {
            "seat": row.seat,
            "before": rating.shown(row.mu_before, row.sigma_before),
            "after": rating.shown(row.mu_after, row.sigma_after),
            "xp": row.xp,
        }
        for row in rows
    ]


CHART_WIDTH, CHART_HEIGHT = 560, 220
CHART_PAD = {"left": 58, "right": 14, "top": 16, "bottom": 30}


def rating_chart(user: Any) -> dict[str, Any] | None:
    """The profile's rating history as an inline SVG's geometry (no chart library):
    one point per rated match (the number shown after it, from the prior's before
    the first), a band of one uncertainty either side, and a few grid lines."""
    rows = list(
        RatingChange.objects.filter(user=user, preset=ALL_PRESETS)
        .select_related("match")
        .order_by("id")  # the order they were applied in (the rating row lock serialises them)
    )
    if not rows:
        return None
    first = rows[0]
    values: list[tuple[int, float, RatingChange | None]] = [
        (rating.shown(first.mu_before, first.sigma_before), first.sigma_before, None)
    ]
    values += [(rating.shown(r.mu_after, r.sigma_after), r.sigma_after, r) for r in rows]
    spreads = [round(sigma * rating.SCALE) for _, sigma, _ in values]
    low = min(v - s for (v, _, _), s in zip(values, spreads, strict=True))
    high = max(v + s for (v, _, _), s in zip(values, spreads, strict=True))
    step = _nice_step((high - low) / 4 or 100)
    low, high = (low // step) * step, -(-high // step) * step
    if high == low:
        high = low + step
    pad = CHART_PAD
    width = CHART_WIDTH - pad["left"] - pad["right"]
    height = CHART_HEIGHT - pad["top"] - pad["bottom"]
    count = len(values)

    def x(i: int) -> float:
        return round(pad["left"] + (width * i / (count - 1) if count > 1 else width / 2), 1)

    def y(v: float) -> float:
        return round(pad["top"] + height * (high - v) / (high - low), 1)

    points = [
        {
            "x": x(i),
            "y": y(v),
            "value": v,
            "uncertainty": s,
            "won": row.won if row else None,
            "date": row.created_at if row else None,
        }
        for i, ((v, _, row), s) in enumerate(zip(values, spreads, strict=True))
    ]
    upper = [
        f"{x(i)},{y(v + s)}" for i, ((v, _, _), s) in enumerate(zip(values, spreads, strict=True))
    ]
    lower = [
        f"{x(i)},{y(v - s)}" for i, ((v, _, _), s) in enumerate(zip(values, spreads, strict=True))
    ]
    return {
        "width": CHART_WIDTH,
        "height": CHART_HEIGHT,
        "line": " ".join(f"{p['x']},{p['y']}" for p in points),
        "band": " ".join(upper + lower[::-1]),
        "points": points,
        "grid": [{"y": y(v), "label": v} for v in range(int(low), int(high) + 1, int(step))],
        "left": pad["left"],
        "right": CHART_WIDTH - pad["right"],
        "bottom": CHART_HEIGHT - pad["bottom"],
        "first": values[0][0],
        "last": values[-1][0],
        "matches": len(rows),
    }


def _nice_step(raw: float) -> int:
    for step in (10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if raw <= step:
            return step
    return 1000 * (int(raw) // 1000 + 1)


# ------------------------------------------------------------------ profile


def _side(rules: dict[str, Any], index: int) -> int:
    return index % 2 if rules.get("partnership") else index


#: The ways of winning a round of the partida that the profile counts
#: (docs/rules.md, "How a round is won"), in the order it shows them.
MADE_KINDS = ("carroca", "la_e_lo", "cruzada")


def made_by(result: dict[str, Any], index: int) -> str | None:
    """The way of winning ``result`` (a round's stored result) that the seat
    ``index`` made with its own last tile: a carroça, a lá-e-lô or a cruzada
    (in parceria, only the partner who played the last tile made it), else None.

    >>> made_by({"reason": "domino", "how": "cruzada", "last_player": 2}, 2)
    'cruzada'
    >>> made_by({"reason": "domino", "how": "cruzada", "last_player": 2}, 0)  # the partner
    >>> made_by({"reason": "domino", "how": "simples", "last_player": 0}, 0)
    >>> made_by({"reason": "domino", "last_player": 0}, 0)  # scored by pips: no "how"
    """
    how = result.get("how")
    if how in MADE_KINDS and result.get("last_player") == index:
        return str(how)
    return None


@dataclass
class PresetStats:
    """One preset's line of the profile: its rating (None before a rated match
    of that preset), matches won and lost, rounds, dominoes and, at a partida
    table (scored by how the round is won), the carroças, lá-e-lôs and
    cruzadas made (None elsewhere)."""

    preset: str
    matches: int = 0
    won: int = 0
    rounds: int = 0
    dominoes: int = 0
    rating: ShownRating | None = None
    made: dict[str, int] | None = None

    @property
    def lost(self) -> int:
        return self.matches - self.won


@dataclass
class MatchLine:
    match: Match
    side: int
    rounds: list[Round] = field(default_factory=list)
    visible: bool = True  # the viewer may see the room's code, name and replays
    rating: dict[str, Any] | None = None

    @property
    def outcome(self) -> str:
        if self.match.annulled:
            return "annulled"
        if not self.match.over:
            return "playing"
        return "won" if self.match.winner == self.side else "lost"

    @property
    def scores(self) -> list[int]:
        return list(self.match.state.get("scores", []))

    @property
    def private(self) -> bool:
        return self.match.room.is_private


def shown_matches(
    lines: Sequence[MatchLine], *, may_see_rounds: Callable[[Any], bool]
) -> list[MatchLine]:
    """The recent matches a viewer is shown, newest first, at most
    `RECENT_MATCHES` of ``lines`` (newest first): a public room's to anyone (its
    code, name and replays where ``may_see_rounds(room)``, else its name and
    round count), a private room's only to those who may see that room (who sat
    at it, and admins: the rooms' rule, asked through ``may_see_rounds``),
    finished or in play; to anyone else it is not there at all, neither its
    score nor its time (docs/site.md, "Accounts, records, ranking")."""
    seen: dict[int, bool] = {}
    shown: list[MatchLine] = []
    for line in lines:
        room = line.match.room
        if room.pk not in seen:
            seen[room.pk] = may_see_rounds(room)
        line.visible = seen[room.pk]
        if line.private and not line.visible:
            continue
        shown.append(line)
        if len(shown) == RECENT_MATCHES:
            break
    return shown


def player_stats(person: Any, *, may_see_rounds: Callable[[Any], bool]) -> dict:
    """The profile of ``person``: matches played, won and lost, rounds, dominoes,
    average points a round, favourite preset, rating and its history, experience,
    and the recent matches. A private room's matches count in these figures only
    for a viewer who may see that room (``may_see_rounds``), as they are listed:
    a total that moved would tell a stranger that one was played. The rating
    and experience are the person's own, public by nature (docs/site.md). A recent match shows its code, name and replay links
    only where ``may_see_rounds(room)`` (the viewer's right, decided by rooms),
    and a private room's match only there (`shown_matches`).

    ``by_preset``: the same statistics and the preset's own rating for each
    preset played (`PresetStats`); ``made``: the carroças, lá-e-lôs and cruzadas
    this person's own last tile made (`made_by`) over the presets scored by how
    the round is won, None for one who never played such a round. They are read
    from the stored round results (``Round.result``: ``how``, ``last_player``),
    as the rounds and dominoes are, so every round already played counts."""
    rounds = (
        Round.objects.filter(people__user=person, finished_at__isnull=False)
        .select_related("match", "match__room")
        .order_by("match_id", "number")
    )
    lines: dict[int, MatchLine] = {}
    totals = {"rounds": 0, "dominoes": 0, "points": 0}
    per_preset: dict[str, PresetStats] = {}
    seen: dict[int, bool] = {}  # a private room's: may this viewer see it?
    for rnd in rounds:
        index = next((p["index"] for p in rnd.players or () if p.get("user") == person.pk), None)
        if index is None or not rnd.result:
            continue
        room = rnd.match.room
        if room.is_private:
            if room.pk not in seen:
                seen[room.pk] = may_see_rounds(room)
            if not seen[room.pk]:
                continue  # not in a count either: a total that moves would tell it
        rules = rnd.state.get("rules", {})
        side = _side(rules, index)
        result = rnd.result
        if not rnd.match.annulled:  # an annulled match counts in no statistic
            key = rnd.match.room.preset
            preset = per_preset.setdefault(key, PresetStats(key))
            if rules.get("scoring") == "how_won" and preset.made is None:
                preset.made = dict.fromkeys(MADE_KINDS, 0)
            totals["rounds"] += 1
            preset.rounds += 1
            if result.get("reason") == "domino" and result.get("last_player") == index:
                totals["dominoes"] += 1
                preset.dominoes += 1
            points = result.get("points") or []
            if side < len(points) and rules.get("scoring") != "goat":
                totals["points"] += points[side]
            made = made_by(result, index)
            if made is not None and preset.made is not None:
                preset.made[made] += 1
        line = lines.setdefault(rnd.match_id, MatchLine(match=rnd.match, side=side))
        line.side = side
        line.rounds.append(rnd)
    finished = [line for line in lines.values() if line.outcome in ("won", "lost")]
    won = sum(1 for line in finished if line.outcome == "won")
    for line in finished:  # (never annulled: its rounds made the row)
        preset = per_preset[line.match.room.preset]
        preset.matches += 1
        preset.won += int(line.outcome == "won")
    for row in Rating.objects.filter(user=person, preset__in=list(per_preset)).exclude(
        preset=ALL_PRESETS
    ):
        if row.matches:
            skill = rating.Skill(row.mu, row.sigma)
            per_preset[row.preset].rating = ShownRating(
                skill.shown, skill.uncertainty, row.matches, row.wins, row.xp
            )
    partida = [p.made for p in per_preset.values() if p.made is not None]
    presets = Counter(line.match.room.preset for line in lines.values())
    recent = shown_matches(
        sorted(lines.values(), key=lambda line: line.match.created_at, reverse=True),
        may_see_rounds=may_see_rounds,
    )
    changes = {
        row.match_id: row
        for row in RatingChange.objects.filter(
            user=person, preset=ALL_PRESETS, match_id__in=[line.match.pk for line in recent]
        )
    }
    for line in recent:
        change = changes.get(line.match.pk)
        if change is not None:
            line.rating = {
                "before": rating.shown(change.mu_before, change.sigma_before),
                "after": rating.shown(change.mu_after, change.sigma_after),
                "xp": change.xp,
            }
    return {
        "matches": len(finished),
        "won": won,
        "lost": len(finished) - won,
        "rounds": totals["rounds"],
        "dominoes": totals["dominoes"],
        "average_points": round(totals["points"] / totals["rounds"], 1) if totals["rounds"] else 0,
        "favourite_preset": presets.most_common(1)[0][0] if presets else None,
        "rating": shown_rating(person),
        "chart": rating_chart(person),
        "recent": recent,
        "xp": shown_rating(person).xp,
        # Over every preset scored by how the round is won (None: never played one).
        "made": {k: sum(m[k] for m in partida) for k in MADE_KINDS} if partida else None,
        # Most played first (matches, then rounds), then by key.
        "by_preset": sorted(per_preset.values(), key=lambda p: (-p.matches, -p.rounds, p.preset)),
    }


# ------------------------------------------------------------------ ranking


def ranking_min_matches() -> int:
    return int(getattr(settings, "RANKING_MIN_MATCHES", 5))


def ranking(*, by: str = "rating", preset: str = ALL_PRESETS, page: Any = 1) -> Page:
    """A page of the ranking: by rating (accounts with at least the minimum of
    rated matches, best conservative rating first) or by experience points, over
    every preset or one. Each row: position, username, rating, uncertainty,
    matches, wins, xp."""
    rows = Rating.objects.filter(preset=preset).select_related("user")
    if by == "xp":
        rows = rows.filter(xp__gt=0).order_by("-xp", "-ordinal", "user__username")
    else:
        rows = rows.filter(matches__gte=ranking_min_matches()).order_by(
            "-ordinal", "-xp", "user__username"
        )
    paginator = Paginator(rows, RANKING_PAGE_SIZE)
    current = paginator.get_page(page)
    start = current.start_index()
    rows_shown: Any = [
        _ranking_row(row, position) for position, row in enumerate(current.object_list, start)
    ]
    current.object_list = rows_shown  # the page shows rows, not models
    return current


def _ranking_row(row: Rating, position: int) -> dict[str, Any]:
    skill = rating.Skill(row.mu, row.sigma)
    return {
        "position": position,
        "username": row.user.username,
        "name": shown_name(row.user.username),  # a removed account: "Removed player"
        "removed": is_tombstone(row.user.username),
        "user_id": row.user_id,
        "rating": skill.shown,
        "uncertainty": skill.uncertainty,
        "matches": row.matches,
        "wins": row.wins,
        "xp": row.xp,
    }


def ranking_position(*, user: Any, by: str = "rating", preset: str = ALL_PRESETS) -> int | None:
    """Where ``user`` stands in that ranking (None: not in it)."""
    if not is_user(user):
        return None
    mine = Rating.objects.filter(user=user, preset=preset).first()
    if mine is None:
        return None
    rows = Rating.objects.filter(preset=preset)
    if by == "xp":
        if mine.xp == 0:
            return None
        ahead = rows.filter(
            Q(xp__gt=mine.xp)
            | Q(xp=mine.xp, ordinal__gt=mine.ordinal)
            | Q(xp=mine.xp, ordinal=mine.ordinal, user__username__lt=user.username)
        )
    else:
        if mine.matches < ranking_min_matches():
            return None
        rows = rows.filter(matches__gte=ranking_min_matches())
        ahead = rows.filter(
            Q(ordinal__gt=mine.ordinal)
            | Q(ordinal=mine.ordinal, xp__gt=mine.xp)
            | Q(ordinal=mine.ordinal, xp=mine.xp, user__username__lt=user.username)
        )
    return ahead.count() + 1


def signups_from(ip_hash: str, *, since: Any) -> int:
    """Accounts signed up from the address ``ip_hash`` since ``since``."""
    return Signup.objects.filter(ip_hash=ip_hash, created_at__gte=since).count() if ip_hash else 0


# ------------------------------------------------------------------ cool-down


def cooldown_notice(user: Any) -> dict[str, str] | None:
    """The viewer's running cool-down as the pages show it (why, until when), or
    None: the table page's notice and the quick match's (quick/views.py)."""
    cooldown = cooldown_for(user=user)
    if cooldown is None:
        return None
    return {
        "message": cooldown.message,
        "until": cooldown.until.isoformat(),
        "reason": cooldown.reason,
    }


def abandonments(*, match: Match) -> list[tuple[int, str]]:
    """``(seat, name)`` for each person of ``match``'s lineup who abandoned it,
    in seat order: the name their seat showed then ("" where none was kept)."""
    names = dict(Cooldown.objects.filter(match=match).values_list("user_id", "name"))
    if not names:
        return []
    lineup = MatchLineup.objects.filter(match=match).values_list("users", flat=True).first() or []
    return [(index, shown_name(names[user])) for index, user in enumerate(lineup) if user in names]
