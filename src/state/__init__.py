from research.state.agent_state import AgentState
from research.state.models import ClaimVerdict, Document, Language, ParsedDocument, RunError, SearchHit

__all__ = ["AgentState", "ClaimVerdict", "Document", "Language", "ParsedDocument", "RunError", "SearchHit"]
