"""Matches, rounds and every confirmed move (docs/architecture.md, "Principles").

A `Round` row holds the engine state as a JSON snapshot; its `Move` rows are the
audit log the snapshot can always be rebuilt from (`Round.replay_engine`).
Only `games.services` and `rooms.services` write these rows.
"""

from __future__ import annotations

from typing import Any

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import engine
from games.engine import Match as EngineMatch
from games.engine import Round as EngineRound
from games.engine import RoundResult


class Match(models.Model):
    room = models.ForeignKey("rooms.Room", on_delete=models.CASCADE, related_name="matches")
    number = models.PositiveIntegerField(_("number"))
    # `engine.Match.to_dict()`: rules, scores, results, over, winner, ended_by.
    state = models.JSONField(_("state"), default=dict)
    over = models.BooleanField(_("over"), default=False)
    winner = models.SmallIntegerField(_("winning side"), null=True, blank=True)
    ended_by = models.CharField(_("ended by"), max_length=16, blank=True, default="")
    annulled = models.BooleanField(_("annulled"), default=False)
    annul_votes = models.JSONField(_("annulment votes"), default=list, blank=True)
    created_at = models.DateTimeField(_("created at"), default=timezone.now, db_index=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        ordering = ("-created_at",)
        constraints = [
            models.UniqueConstraint(fields=("room", "number"), name="match_unique_number"),
        ]

    def __str__(self) -> str:
        return f"{self.room_id} match {self.number}"

    def engine(self) -> EngineMatch:
        return engine.Match.from_dict(self.state)

    @property
    def scores(self) -> list[int]:
        return list(self.state.get("scores", []))

    def store(self, match: EngineMatch) -> None:
        """Copy an engine match into the row's fields (the caller saves)."""
        self.state = match.to_dict()
        self.over = match.is_over
        self.winner = match.winner
        self.ended_by = match.ended_by or ""

    def finish_round(self, result: RoundResult, now: Any = None) -> None:
        """Add a finished round's points through `engine.Match.finish_round`."""
        match = self.engine()
        match.finish_round(result)
        self.store(match)
        if self.over:
            self.finished_at = now or timezone.now()


class Round(models.Model):
    class DueKind(models.TextChoices):
        BOT = "bot", _("Bot move")
        CLOCK = "clock", _("Move clock")
        AUTO = "auto", _("Automatic move (disconnected)")
        WALKOVER = "walkover", _("Walkover")
        PASS = "pass", _("Automatic pass")
        READY = "ready", _("Ready deadline")
        RESUME = "resume", _("A pause lapses")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rounds")
    # Denormalised from match.room: the service locks "the room's current round".
    room = models.ForeignKey("rooms.Room", on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField(_("number"))
    deal = models.JSONField(_("deal"), default=dict)  # engine `Round.initial`
    state = models.JSONField(_("state"), default=dict)  # engine `Round.to_dict()`
    # Who sat where when the round was dealt (kind, user id, name, bot level).
    players = models.JSONField(_("players"), default=list, blank=True)
    version = models.PositiveIntegerField(_("version"), default=0)
    turn_started_at = models.DateTimeField(_("turn started at"), default=timezone.now)
    due_at = models.DateTimeField(_("due at"), null=True, blank=True, db_index=True)
    due_kind = models.CharField(
        _("due kind"), max_length=8, choices=DueKind.choices, null=True, blank=True
    )
    # Layout hints of the seat to act (`adjust`: chain index -> bend); not a move.
    layout = models.JSONField(_("layout"), default=dict, blank=True)
    # Who adjusted the layout and when, for the log ("ajustou a fila"): a list of
    # {"after": move seq, "seat", "at", "bend"}; not moves either.
    adjustments = models.JSONField(_("layout adjustments"), default=list, blank=True)
    # `Move.by` of each move in order (a copy kept with the snapshot, so the log
    # is built without reading the moves; rounds stored before it have none).
    movers = models.JSONField(_("made by"), default=list, blank=True)
    remaining_ms = models.PositiveIntegerField(_("remaining (ms, paused)"), null=True, blank=True)
    # The verifiable deal (docs/rules.md, "Verifiable deals"): the server seed is
    # told to nobody before the round has ended (`fair_view`); the rest is public.
    # Rounds dealt before it have no version and no seeds.
    fair_version = models.CharField(_("deal version"), max_length=16, blank=True, default="")
    server_seed = models.CharField(_("server seed"), max_length=64, blank=True, default="")
    commitment = models.CharField(_("commitment"), max_length=64, blank=True, default="")
    client_seeds = models.JSONField(_("client seeds"), default=list, blank=True)
    material = models.TextField(_("material"), blank=True, default="")
    result = models.JSONField(_("result"), null=True, blank=True)
    started_at = models.DateTimeField(_("started at"), default=timezone.now, db_index=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ("-started_at",)
        constraints = [
            models.UniqueConstraint(fields=("match", "number"), name="round_unique_number"),
        ]

    def __str__(self) -> str:
        return f"{self.room_id} match {self.match_id} round {self.number}"

    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    def has_ended(self) -> bool:
        """Over, with a result or stopped without one (walkover, annulment)."""
        return self.finished_at is not None

    def fair_view(self) -> dict[str, Any] | None:
        """The protocol's ``round.fair``: the server seed and the material only once
        the round has ended (None for a round dealt before verifiable deals)."""
        if not self.fair_version:
            return None
        ended = self.has_ended
        return {
            "version": self.fair_version,
            "commitment": self.commitment,
            "client_seeds": list(self.client_seeds),
            "server_seed": self.server_seed if ended else None,
            "material": self.material if ended else None,
        }

    def engine(self) -> EngineRound:
        """The engine state rebuilt from the snapshot (cached on the instance)."""
        cached = getattr(self, "_engine_cache", None)
        if cached is None or cached[0] is not self.state:
            cached = (self.state, engine.Round.from_dict(self.state))
            self._engine_cache = cached
        return cached[1]

    def store(self, rnd: EngineRound) -> None:
        """Copy an engine round into the snapshot fields (the caller saves)."""
        self.state = rnd.to_dict()
        self._engine_cache = (self.state, rnd)
        self.result = rnd.result.to_dict() if rnd.result else None

    def view(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may know (`engine.Round.view`)."""
        return self.engine().view(seat)

    def replay_engine(self) -> EngineRound:
        """The round rebuilt from its deal and its stored moves (checks every move again)."""
        rules = engine.RuleSet.from_dict(self.state["rules"])
        moves = self.moves.order_by("seq").values_list("seat", "action")
        return engine.Round.replay(rules, self.deal, list(moves))

    #: What a move changes on the row (`games.services.apply_action`), for a save
    #: that writes only these.
    MOVE_FIELDS = ("state", "result", "movers", "version", "turn_started_at", "finished_at")

    def replay_matches_snapshot(self) -> bool:
        return self.replay_engine().to_dict() == self.state


class Move(models.Model):
    class By(models.TextChoices):
        PERSON = "person", _("Person")
        BOT = "bot", _("Bot")
        TIMEOUT = "timeout", _("Timeout")
        SUBSTITUTE = "substitute", _("Substitute")
        AUTO = "auto", _("Automatic (nothing but pass, or automatic mode)")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="moves")
    seq = models.PositiveIntegerField(_("sequence"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    action = models.JSONField(_("action"))
    by = models.CharField(_("by"), max_length=12, choices=By.choices, default=By.PERSON)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        verbose_name = _("move")
        verbose_name_plural = _("moves")
        ordering = ("round_id", "seq")
        constraints = [
            models.UniqueConstraint(fields=("round", "seq"), name="move_unique_seq"),
        ]

    def __str__(self) -> str:
        return f"#{self.seq} seat {self.seat} {self.action.get('type')} ({self.by})"
