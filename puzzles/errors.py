"""The puzzles' refusals: a code for pages and tests and a message for people.
A service that raises one has changed nothing."""

from __future__ import annotations


class PuzzleError(Exception):
    """``code``: ``bad_action`` (not an action), ``illegal_action`` (not legal
    in the puzzle's position), ``not_found``, ``not_yours`` (a training
    position of another player, or a move that was not yours),
    ``not_a_blunder`` (only a blunder is offered for training),
    ``login_required``."""

    STATUS = {"not_found": 404, "not_yours": 403, "login_required": 403}

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    @property
    def status(self) -> int:
        return self.STATUS.get(self.code, 400)
