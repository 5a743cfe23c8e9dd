from .agent_state import AgentState
from .models import ClaimVerdict, Document, Language, ParsedDocument, RunError, SearchHit

__all__ = ["AgentState", "ClaimVerdict", "Document", "Language", "ParsedDocument", "RunError", "SearchHit"]
