"""The graph's steps, each declared once: its name, what it writes into the state, the body
of its progress.md section, and whether it is part of every run and of a follow-up round.

Everything that lists the steps reads this table: the graph (``orchestrator/graph.py``
binds each name to its node function, in this order), progress.md's sections
(``progress_log``), the research MCP server's progress fractions, and the message
catalogue's test (every step has its label and heading in ja and en). A step's label is
``progress.<name>`` (the running line: "Searching the web") and its progress.md heading
``progress_md.<name>`` (``core/messages/steps.py``), so a consumer that holds only a node
name, as a progress event does, finds both.

No LangGraph here: this module is imported before the graph, while the first step runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from research.state.step_accounts import (
    Account,
    draft_account,
    plan_account,
    report_account,
    search_account,
    sources_account,
    verdicts_account,
)

StepName = Literal["input", "plan_review", "search", "processing", "llm", "verification", "report"]

# What the node wrapper (``orchestrator/steps.bind``) adds to every step's update but the report's.
WRAPPER_WRITES = ("usage", "elapsed_seconds", "budget_exhausted")


@dataclass(frozen=True)
class Step:
    name: StepName
    writes: tuple[str, ...]  # the state keys its node returns (AgentState declares each)
    account: Account  # the body of its section in progress.md
    in_plain_run: bool = True  # False: only when asked for (plan review pauses for the user)
    in_follow_up_round: bool = False  # run again when the verifier sends the run back to search

    @property
    def label_key(self) -> str:
        """The line shown while it runs and when it finished (terminal, MCP progress)."""
        return f"progress.{self.name}"

    @property
    def heading_key(self) -> str:
        """Its section's heading in progress.md; may use ``{round}``, the search round."""
        return f"progress_md.{self.name}"


STEPS: tuple[Step, ...] = (
    Step("input", writes=("plan", "depth", "search_rounds"), account=plan_account),
    Step("plan_review", writes=("plan", "plan_reviewed"), account=plan_account, in_plain_run=False),
    # budget_exhausted: the search itself stops at the source budget
    Step("search", writes=("search_results", "search_rounds", "engines_used", "errors", "budget_exhausted"),
         account=search_account, in_follow_up_round=True),
    Step("processing", writes=("documents", "errors"), account=sources_account, in_follow_up_round=True),
    Step("llm", writes=("draft", "model_used", "style_rewrites", "disagreements", "redraft_targets", "errors"),
         account=draft_account, in_follow_up_round=True),
    # draft: the text a follow-up round revises, returned only when the verifier sends the run back
    Step("verification", writes=("verification", "follow_up_queries", "supported_shares", "redraft_targets", "draft",
                                 "errors"), account=verdicts_account, in_follow_up_round=True),
    Step("report", writes=("report_md", "report_pdf"), account=report_account),
)

STEP_BY_NAME: dict[str, Step] = {step.name: step for step in STEPS}
# The steps of a run without plan review or follow-up rounds, in order; and what one round repeats.
PLAIN_RUN: tuple[StepName, ...] = tuple(step.name for step in STEPS if step.in_plain_run)
FOLLOW_UP_ROUND: tuple[StepName, ...] = tuple(step.name for step in STEPS if step.in_follow_up_round)


def step_label(name: str, lang: str) -> str:
    """The line a person reads for a step ("Searching the web"), in ``lang``."""
    from research.modules.core.i18n import t

    return t(STEP_BY_NAME[name].label_key, lang)
