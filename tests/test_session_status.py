"""Issue 25: a session's status is one enum; no code spells a status out to write or compare it."""

from __future__ import annotations

import re
from pathlib import Path

from research.state.session_folder import FINISHED_STATUSES, RESUMABLE_STATUSES
from research.state.status import SessionStatus

SRC = Path(__file__).resolve().parent.parent / "src"
# The team's modules that read and write run rows (research_runs.status: queued, running, done …).
TEAM_RUN_ROWS = ("queue.py", "database.py", "front.py", "worker.py", "tokens.py")
SPELLED = re.compile(r"""(status\s*(==|!=|=)\s*|status["']\)\s*in\s*\()["'](%s)["']"""
                     % "|".join(s.value for s in SessionStatus))


def test_every_status_is_resumable_finished_or_neither_and_says_which():
    assert set(RESUMABLE_STATUSES).isdisjoint(FINISHED_STATUSES)
    assert set(SessionStatus) - set(RESUMABLE_STATUSES) - set(FINISHED_STATUSES) == {
        SessionStatus.RUNNING, SessionStatus.DAMAGED}
    assert SessionStatus.DONE == "done"  # meta.json keeps the plain string


def test_no_module_spells_a_session_status_out():
    spelled = [f"{path.relative_to(SRC)}:{number}: {line.strip()}"
               for path in SRC.rglob("*.py") if "messages" not in path.parts
               for number, line in enumerate(path.read_text("utf-8").splitlines(), 1)
               # A document's status ("ok"/"failed") and the team queue's run rows are other things.
               if SPELLED.search(line) and "doc" not in line
               and not (path.parent.name == "team" and path.name in TEAM_RUN_ROWS)]
    assert not spelled, spelled
