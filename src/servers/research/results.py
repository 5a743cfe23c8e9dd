"""What the research server's tools return: typed results read from a session folder,
and the plain text an MCP host shows when it reads text only."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from research.modules.core.i18n import t
from research.modules.core.language import Language
from research.modules.text.sanitize import one_line, safe_markdown
from research.state.models import states_json, summary_states, summary_with_states, supported_percent
from research.state.progress_log import PROGRESS_FILE, verdict_counts
from research.state.run_record import JsonObject, RunOutcome, RunVerification, Source, sources_of
from research.state.session_folder import HistoryManager, SessionInfo, read_ledger, read_session_bytes


class ResearchOutput(BaseModel):
    model_config = ConfigDict(extra="forbid")  # what a host is sent is exactly what the schema says

    session_id: str
    session_dir: str
    language: str
    answer: str = Field(description="the verified answer (Markdown with [S#] citations)")
    verification: RunVerification = Field(
        default_factory=RunVerification,
        description="claim counts; 'verdicts': how many claims are supported, partly_supported, not_supported, "
                    "contradicted, not_checked, and 'supported_percent': supported / all claims, in whole percent")
    sources: list[Source] = Field(default_factory=list)
    report_md: str = ""
    report_pdf: str = ""
    progress_md: str = ""
    no_evidence: bool = False


class SessionSummary(BaseModel):
    model_config = ConfigDict(extra="forbid")  # what a host is sent is exactly what the schema says

    session_id: str
    question: str = ""
    language: str = ""
    status: str = ""
    created_at: str = ""
    session_dir: str = ""
    report_md: str | None = None
    running_here: bool = False  # a run of this server process is working on it now


class SessionList(BaseModel):
    model_config = ConfigDict(extra="forbid")  # what a host is sent is exactly what the schema says

    sessions: list[SessionSummary]
    running: list[dict[str, str]] = Field(default_factory=list)


class CancelOutput(BaseModel):
    """What the team service's cancel tool (and ``POST /api/runs/N/cancel``) says of a run."""

    run_id: int
    cancelled: bool = Field(description="false: the run had already ended")
    status: str = Field(description="the run's status now: cancelled, or how it had ended (done, failed)")
    session_id: str = Field(default="", description="the session a running run had started, kept to be "
                                                    "resumed; empty for a run that had not started")

    def text(self, lang: Language) -> str:
        if not self.cancelled:
            return t("remote.cancel_too_late", lang, run_id=self.run_id, status=self.status)
        if self.session_id:
            return t("remote.cancelled_running", lang, run_id=self.run_id, session_id=self.session_id)
        return t("remote.cancelled_waiting", lang, run_id=self.run_id)


class SessionReport(BaseModel):
    model_config = ConfigDict(extra="forbid")  # what a host is sent is exactly what the schema says

    session_id: str
    status: str
    kind: str  # "report" | "progress": progress.md stands in while there is no report
    path: str
    markdown: str


def research_output(history: HistoryManager, result: RunOutcome) -> ResearchOutput:
    session = history.resolve(result.session_id)
    verification = history.read_json(session.session_id, "verification.json", {}) or {}
    answer = verification.get("annotated_draft") or _read(session, "llm_draft.md")
    progress = session.path / PROGRESS_FILE
    return ResearchOutput(
        session_id=result.session_id,
        session_dir=result.session_dir,
        language=result.language,
        answer=safe_markdown(answer.strip()),
        verification=with_verdicts(result.verification_json(), verification),
        sources=ledger(session),
        report_md=result.report_md,
        report_pdf=result.report_pdf,
        progress_md=str(progress) if progress.exists() else "",
        no_evidence=result.exit_code != 0,
    )


def with_verdicts(summary: JsonObject, verification: JsonObject) -> RunVerification:
    """The summary with the five counts (``verdicts``) and the share shown from them, taken
    from verification.json's claims where it has them."""
    if not summary:
        return RunVerification()
    if verification.get("summary"):
        return RunVerification.model_validate(summary_with_states(verification))
    counts = summary_states(summary)
    return RunVerification.model_validate(
        {**summary, "verdicts": states_json(counts), "supported_percent": supported_percent(counts)})


def ledger(session: SessionInfo) -> list[Source]:
    return sources_of(read_ledger(session.path))


def render_research(output: ResearchOutput) -> str:
    lang: Language = "ja" if output.language == "ja" else "en"
    summary = output.verification.as_json()
    lines = [output.answer or t("progress.no_evidence", lang), ""]
    if summary:
        lines += [verdict_counts(summary_states(summary), lang), ""]
    lines.append("## " + t("progress_md.processing", lang))
    for source in output.sources:
        if source.status == "ok":
            lines.append(f"- [{source.label}] {source.title or source.url} — {source.url}")
        else:
            key = "progress_md.source_left_out" if source.status == "left_out" else "progress_md.source_failed"
            lines.append(f"- ✗ {source.url} — " + t(key, lang, reason=source.error or ""))
    lines.append("")
    paths = [p for p in (output.report_md, output.report_pdf) if p]
    lines.append(t("progress_md.report_files", lang, paths=", ".join(paths)))
    lines.append(t("mcp_research.session_line", lang, session_id=output.session_id))
    return "\n".join(lines) + "\n"


def session_list(history: HistoryManager, running: list[dict[str, str]], limit: int) -> SessionList:
    here = {r["session_id"] for r in running if r["session_id"]}
    rows = []
    for meta in history.list_sessions()[:limit]:
        report = f"{meta['session_dir']}/report.md"
        rows.append(SessionSummary(
            session_id=meta.get("session_id", ""),
            question=meta.get("question", ""),
            language=meta.get("language", ""),
            status=meta.get("status", ""),
            created_at=meta.get("created_at", ""),
            session_dir=meta["session_dir"],
            report_md=report if _exists(report) else None,
            running_here=meta.get("session_id") in here,
        ))
    return SessionList(sessions=rows, running=running)


def render_session_list(listing: SessionList, history: HistoryManager, lang: Language) -> str:
    if not listing.sessions:
        return t("mcp_research.no_sessions", lang, path=str(history.root)) + "\n"
    lines = []
    for row in listing.sessions:
        mark = f" ({t('mcp_research.running_mark', lang)})" if row.running_here else ""
        lines.append(f"{row.session_id}  {row.status}{mark}  {row.created_at[:16].replace('T', ' ')}  "
                     f"{one_line(row.question, 200)}")
    return "\n".join(lines) + "\n"


def session_report(history: HistoryManager, ref: str) -> SessionReport | None:
    """The session's report.md, else its progress.md; None when it has neither yet."""
    session = history.resolve(ref)
    status = (history.read_json(session.session_id, "meta.json", {}) or {}).get("status", "")
    for kind, name in (("report", "report.md"), ("progress", PROGRESS_FILE)):
        text = _read(session, name)
        if text:
            # A shared folder's report.md need not be one we wrote: made inert like ours.
            return SessionReport(session_id=session.session_id, status=str(status), kind=kind,
                                 path=str(session.path / name), markdown=safe_markdown(text))
    return None


def _read(session: SessionInfo, name: str) -> str:
    """A session file as text; "" when absent or not a file of ours (a link, a FIFO,
    ``/dev/zero``, over the cap): ``read_session_bytes`` reads nothing through those."""
    try:
        return read_session_bytes(session.path / name).decode("utf-8", errors="replace")
    except OSError:
        return ""


def _exists(path: str) -> bool:
    from pathlib import Path

    return Path(path).is_file()
