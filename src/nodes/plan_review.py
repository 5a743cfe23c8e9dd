"""plan_review node: stop after planning so the user can accept or change the sub-questions.

It pauses the graph with LangGraph's ``interrupt``; the pause is saved in the session's
checkpoint, so the review can be answered by this process or, after a restart, by
``research --resume ID``. The run continues with ``Command(resume=<reviewed plan>)``.
"""

from __future__ import annotations

from typing import Any, cast

from langgraph.types import interrupt

from research.state import AgentState
from research.state.models import Language, PlannedSubQuestion, PlanReviewRequest, SubQuestionPlan
from research.workflow.dependencies import WorkflowDependencies
from research.nodes.input import sub_question_queries

MAX_SUB_QUESTIONS = 10


async def review_plan(state: AgentState, deps: WorkflowDependencies) -> AgentState:
    """Show the plan (interrupt) and take the user's version of it."""
    plan = state.get("plan", [])
    # The pause shows the plan as JSON: whoever answers it (the terminal, an MCP host, LangGraph
    # Server's client) reads plain data.
    request: PlanReviewRequest = {"kind": "plan_review", "question": state["question"],
                                  "language": state["language"],
                                  "plan": [cast(PlannedSubQuestion, sub.model_dump(mode="json")) for sub in plan]}
    answer = interrupt(request)
    reviewed = apply_review(answer, plan, state["question"], state["language"])
    if reviewed != plan:
        deps.history.append_event(state["session_id"], "plan_reviewed",
                                  sub_questions=[sub.question for sub in reviewed])
        _rewrite_input_plan(deps, state["session_id"], reviewed)
    return {"plan": reviewed, "plan_reviewed": True}


def apply_review(answer: Any, plan: list[SubQuestionPlan], question: str, lang: Language) -> list[SubQuestionPlan]:
    """The reviewed plan from the user's answer: a list of sub-questions (text or dicts).

    An unchanged sub-question keeps its planned queries; an edited or added one is
    searched by its new wording. No answer keeps the plan; dropping everything leaves the
    question itself, since a run needs something to search.
    """
    if not isinstance(answer, list):
        return plan
    planned = {sub.question: sub for sub in plan}
    reviewed: list[SubQuestionPlan] = []
    for item in answer[:MAX_SUB_QUESTIONS]:
        text = item.get("question") if isinstance(item, dict) else item
        text = " ".join(str(text or "").split())[:300]
        if not text or any(sub.question == text for sub in reviewed):
            continue
        queries = planned[text].queries if text in planned else sub_question_queries(text, lang)
        reviewed.append(SubQuestionPlan(question=text, queries=queries))
    return reviewed or [SubQuestionPlan(question=question, queries=sub_question_queries(question, lang))]


def _rewrite_input_plan(deps: WorkflowDependencies, session_id: str, plan: list[SubQuestionPlan]) -> None:
    """input.md shows the plan the run follows: the reviewed one, not the draft plan."""
    path = deps.history.path(session_id) / "input.md"
    try:
        head = path.read_text("utf-8").split("\n## Plan", 1)[0].rstrip("\n")
    except OSError:
        head = ""
    lines = [head, "", "## Plan (reviewed)"] if head else ["## Plan (reviewed)"]
    for number, sub in enumerate(plan, 1):
        lines.append(f"{number}. {sub.question}")
        lines += [f"    - `{q.text}` ({q.language})" for q in sub.queries]
    deps.history.write_text(session_id, "input.md", "\n".join(lines) + "\n")
