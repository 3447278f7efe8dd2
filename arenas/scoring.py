"""An arena match's points and the standings' order (docs/site.md, "Arenas").

A win is 2 points, a loss 0; after two wins in a row each further win counts
double (4) until a loss; a draw is 1 point (2 on a streak) and ends the
streak; in parceria each winner gets the points of their own streak. Ties are
broken by performance, then by fewer matches.
"""

from __future__ import annotations

from collections.abc import Iterable

from arenas.models import ArenaMatch, ArenaPlayer
from arenas.pairing import draw_points, performance_of, win_points


def score_match(
    am: ArenaMatch, winner: int | None, players: dict[int, ArenaPlayer]
) -> tuple[list[int], dict[str, int]]:
    """Apply the result (``winner``: the winning side, None a draw) to the
    match's players (saved by the caller); returns the winners and the points
    each earned. Sides: seat index modulo 2 (the duelo's two seats, the
    parceria's partnerships)."""
    winners: list[int] = []
    points: dict[str, int] = {}
    for index, user in enumerate(am.users):
        player = players.get(user)
        if player is None:
            continue
        side = index % 2
        opponents = [r for i, r in enumerate(am.ratings) if i % 2 != side] or [0]
        result = 0.5 if winner is None else float(side == winner)
        if result == 1:
            earned = win_points(player.streak)
            player.streak += 1
            player.wins += 1
            winners.append(user)
        elif result == 0.5:
            earned = draw_points(player.streak)
            player.streak = 0
        else:
            earned = 0
            player.streak = 0
        player.score += earned
        player.matches += 1
        player.perf_sum += performance_of(sum(opponents) / len(opponents), result)
        points[str(user)] = earned
    return winners, points


def standing_key(player: ArenaPlayer) -> tuple:
    """Higher score, then higher performance, then fewer matches."""
    return (-player.score, -player.performance, player.matches, player.joined_at, player.user_id)


def rank_players(players: Iterable[ArenaPlayer]) -> list[ArenaPlayer]:
    return sorted(players, key=standing_key)
