from research.state.agent_state import AgentState, plan_queries_flat
from research.state.models import ClaimVerdict, Document, Language, ParsedDocument, ProblemKind, RunError, SearchHit

__all__ = ["AgentState", "plan_queries_flat", "ClaimVerdict", "Document", "Language", "ParsedDocument", "ProblemKind",
           "RunError", "SearchHit"]
