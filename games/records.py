"""Selectors for people's records: the profile page and the ranking.

Computed from finished rounds and matches: `Round.players` says who sat where
when each round was dealt (user id, guest flag, bot level), `Round.result` how
it ended and `Match.winner` who won. No table of its own, so nothing can drift
from the games themselves; at a larger scale this would be cached.

Experience points (site.md, "Ranking"; the portal seed 004): for every finished,
not annulled match without a guest at the table, the winning side earns 10 per
player at the table, split between the side's seats, and every losing seat
earns 5. Humans only (a bot's share goes to nobody).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model

from games.engine import RuleSet
from games.models import Match, Round

WIN_POINTS_PER_PLAYER = 10
LOSS_POINTS = 5
RECENT_MATCHES = 10


def _side(rules: dict[str, Any], index: int) -> int:
    return index % 2 if rules.get("partnership") else index


def _seat_of(players: list[dict[str, Any]], user_id: int) -> int | None:
    for player in players or ():
        if player.get("kind") == "human" and player.get("user") == user_id:
            return player.get("index")
    return None


@dataclass
class MatchLine:
    match: Match
    side: int
    rounds: list[Round] = field(default_factory=list)

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
    def my_score(self) -> int | None:
        scores = self.scores
        return scores[self.side] if self.side < len(scores) else None


def player_stats(user: Any) -> dict[str, Any]:
    """Matches played/won/lost, rounds, dominoes, average points a round and the
    recent matches (with their finished rounds, for replay links)."""
    rounds = (
        Round.objects.filter(finished_at__isnull=False)
        .select_related("match", "room")
        .order_by("match_id", "number")
    )
    lines: dict[int, MatchLine] = {}
    totals = {"rounds": 0, "dominoes": 0, "points": 0}
    for rnd in rounds.iterator():
        index = _seat_of(rnd.players, user.pk)
        if index is None or not rnd.result:
            continue
        rules = rnd.state.get("rules", {})
        side = _side(rules, index)
        result = rnd.result
        totals["rounds"] += 1
        if result.get("reason") == "domino" and result.get("last_player") == index:
            totals["dominoes"] += 1
        points = result.get("points") or []
        if side < len(points) and rules.get("scoring") != "goat":
            totals["points"] += points[side]
        line = lines.setdefault(rnd.match_id, MatchLine(match=rnd.match, side=side))
        line.side = side  # the side of their latest round in this match
        line.rounds.append(rnd)
    finished = [line for line in lines.values() if line.outcome in ("won", "lost")]
    won = sum(1 for line in finished if line.outcome == "won")
    recent = sorted(lines.values(), key=lambda line: line.match.created_at, reverse=True)
    return {
        "matches": len(finished),
        "won": won,
        "lost": len(finished) - won,
        "rounds": totals["rounds"],
        "dominoes": totals["dominoes"],
        "average_points": round(totals["points"] / totals["rounds"], 1) if totals["rounds"] else 0,
        "recent": recent[:RECENT_MATCHES],
        "xp": experience().get(user.pk, 0),
    }


def _final_players() -> dict[int, tuple[Match, list[dict[str, Any]]]]:
    """Each finished, not annulled match with the players of its last round."""
    last: dict[int, tuple[Match, list[dict[str, Any]]]] = {}
    rounds = (
        Round.objects.filter(match__over=True, match__annulled=False)
        .select_related("match")
        .order_by("match_id", "number")
    )
    for rnd in rounds.iterator():
        last[rnd.match_id] = (rnd.match, rnd.players or [])
    return last


def _match_points(match: Match, players: list[dict[str, Any]]) -> dict[int, int]:
    """Experience per user id for one finished match (empty when a guest played)."""
    if any(p.get("guest") for p in players) or match.winner is None:
        return {}
    rules = RuleSet.from_dict(match.state.get("rules", {}))
    winners = [p for p in players if rules.side_of(p["index"]) == match.winner]
    share = WIN_POINTS_PER_PLAYER * len(players) // max(len(winners), 1)
    points = {}
    for player in players:
        if player.get("kind") != "human" or not player.get("user"):
            continue
        points[player["user"]] = share if player in winners else LOSS_POINTS
    return points


def experience() -> dict[int, int]:
    """Experience points per user id."""
    xp: dict[int, int] = defaultdict(int)
    for match, players in _final_players().values():
        for user_id, points in _match_points(match, players).items():
            xp[user_id] += points
    return dict(xp)


def ranking(limit: int = 100) -> list[dict[str, Any]]:
    """Rows for /ranking/: username, experience, matches and wins, best first."""
    xp: dict[int, int] = defaultdict(int)
    played: dict[int, int] = defaultdict(int)
    wins: dict[int, int] = defaultdict(int)
    for match, players in _final_players().values():
        points = _match_points(match, players)
        rules = match.state.get("rules", {})
        for player in players:
            user_id = player.get("user")
            if player.get("kind") != "human" or not user_id or user_id not in points:
                continue
            xp[user_id] += points[user_id]
            played[user_id] += 1
            if _side(rules, player["index"]) == match.winner:
                wins[user_id] += 1
    names = dict(get_user_model().objects.filter(pk__in=xp).values_list("pk", "username"))
    rows = [
        {"username": names.get(uid, "?"), "xp": points, "matches": played[uid], "wins": wins[uid]}
        for uid, points in xp.items()
        if uid in names
    ]
    rows.sort(key=lambda r: (-r["xp"], -r["wins"], r["username"]))
    for position, row in enumerate(rows[:limit], start=1):
        row["position"] = position
    return rows[:limit]
