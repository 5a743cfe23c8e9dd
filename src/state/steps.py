"""The graph's steps, each declared once: its name, its node function, what it writes into
the state, the body of its progress.md section, whether it is part of every run (or asked
for by a state key) and of a follow-up round, and whether a spent budget ends the run after it.

Everything that lists the steps reads this table: the graph (``orchestrator/graph.py``
imports each node function and wires the steps in this order), progress.md's sections
(``progress_log``), the research MCP server's progress fractions, and the message
catalogue's test (every step has its label and heading in ja and en). A step's label is
``progress.<name>`` (the running line: "Searching the web") and its progress.md heading
``progress_md.<name>`` (``core/messages/steps.py``), so a consumer that holds only a node
name, as a progress event does, finds both.

No LangGraph here: this module is imported before the graph, while the first step runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from research.modules.core.language import Language
from research.state.step_accounts import (
    Account,
    disagreements_account,
    draft_account,
    plan_account,
    report_account,
    search_account,
    sources_account,
    verdicts_account,
)

if TYPE_CHECKING:  # the step table is read before any setting is (the CLI's labels)
    from research.modules.core.settings import Settings

StepName = Literal["input", "plan_review", "search", "processing", "compare", "llm", "verification", "report"]

# What the node wrapper (``orchestrator/steps.bind``) adds to every step's update but the report's.
WRAPPER_WRITES = ("usage", "elapsed_seconds", "budget_exhausted")


def no_account(before: object, update: object, lang: Language) -> list[str]:
    """A section with its heading only (and the problems and budget every section says)."""
    return []


@dataclass(frozen=True)
class Step:
    name: StepName
    node: str  # "module:function", imported by the graph (not here: this table loads no node)
    writes: tuple[str, ...]  # the state keys its node returns (AgentState declares each)
    account: Account = no_account  # the body of its section in progress.md
    # A step not in every run is taken, after the step before it, when this state key is true
    # (plan review pauses for the user, so only when asked for).
    asked_by: str | None = None
    in_follow_up_round: bool = False  # run again when the verifier sends the run back to search
    # Once a budget is spent, the run goes from this step to the report instead of the next.
    # Not after drafting: an unchecked draft must never reach the report as fact.
    report_when_spent: bool = True

    @property
    def in_plain_run(self) -> bool:
        return self.asked_by is None

    @property
    def label_key(self) -> str:
        """The line shown while it runs and when it finished (terminal, MCP progress)."""
        return f"progress.{self.name}"

    @property
    def heading_key(self) -> str:
        """Its section's heading in progress.md; may use ``{round}``, the search round."""
        return f"progress_md.{self.name}"


STEPS: tuple[Step, ...] = (
    Step("input", "research.nodes.input:understand_question", writes=("plan", "depth", "search_rounds"),
         account=plan_account),
    # Straight on to the search: the person has just approved the plan it is to search for.
    Step("plan_review", "research.nodes.plan_review:review_plan", writes=("plan", "plan_reviewed"),
         account=plan_account, asked_by="review_plan", report_when_spent=False),
    # budget_exhausted: the search itself stops at the source budget
    Step("search", "research.nodes.search:search_web",
         writes=("search_results", "search_rounds", "engines_used", "errors", "budget_exhausted"),
         account=search_account, in_follow_up_round=True),
    Step("processing", "research.nodes.processing:process_documents", writes=("documents", "errors"),
         account=sources_account, in_follow_up_round=True),
    Step("compare", "research.nodes.compare:compare_sources", writes=("disagreements",),
         account=disagreements_account, in_follow_up_round=True),
    Step("llm", "research.nodes.llm:draft_answer",
         writes=("draft", "model_used", "style_rewrites", "redraft_targets", "errors"),
         account=draft_account, in_follow_up_round=True, report_when_spent=False),
    # Sends the run on itself (its Command names search or report). draft: the text a
    # follow-up round revises, returned only when the verifier sends the run back.
    Step("verification", "research.nodes.verification:verify_claims",
         writes=("verification", "follow_up_queries", "supported_shares", "redraft_targets", "draft", "errors"),
         account=verdicts_account, in_follow_up_round=True),
    Step("report", "research.nodes.report:write_report", writes=("report_md", "report_pdf"), account=report_account),
)

STEP_BY_NAME: dict[str, Step] = {step.name: step for step in STEPS}
REPORT: StepName = STEPS[-1].name  # where every run ends, and where a spent budget sends it
# The steps of a run without plan review or follow-up rounds, in order; and what one round repeats.
PLAIN_RUN: tuple[StepName, ...] = tuple(step.name for step in STEPS if step.in_plain_run)
FOLLOW_UP_ROUND: tuple[StepName, ...] = tuple(step.name for step in STEPS if step.in_follow_up_round)


def step_label(name: str, lang: Language, variant: str = "") -> str:
    """The line a person reads for a step ("Searching the web"), in ``lang``; a ``variant``
    (``step_variant``) has its own ("Searching your documents": ``progress.search_local``)."""
    from research.modules.core.i18n import t

    key = STEP_BY_NAME[name].label_key
    # A variant from elsewhere (the run queue's stored events) that no step has is no label.
    return t(f"{key}_{variant}" if (name, variant) in STEP_VARIANTS else key, lang)


# The steps whose label differs with the run (step_variant), each with its own message.
STEP_VARIANTS = {("search", "local")}


def step_variant(name: str, settings: Settings) -> str:
    """How this run's step is told apart where its label would mislead: "local" for a search
    of the user's own documents alone (the local engine never falls back to the web)."""
    return "local" if name == "search" and settings.search_engine == "local" else ""
