"""The run's own interfaces are used as declared (issue 25, "reaches around its own interfaces").

Read from the source with ``ast`` where the rule is about code (nothing is imported); the
typed objects are checked by building them, so a misspelt field fails here, not mid-run.
"""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path
from typing import Any

import pytest

from research.modules.core.settings import Settings
from research.orchestrator.runner import ProgressStreamFailed, ResearchRequest, RunContext, run_research
from research.state.session_folder import HistoryManager

SRC = Path(__file__).resolve().parent.parent / "src"
# The layers that drive the clients and the graph: they use what those objects make public.
DRIVERS = ("cli", "orchestrator", "servers/research")
# The standard library's own exception to its naming rule (a child's exit after fork).
ALLOWED_PRIVATE = {"os._exit"}


def _private_reaches(path: Path) -> list[str]:
    """``obj._name`` where ``obj`` is not the code's own ``self``/``cls``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"), filename=str(path))):
        if not isinstance(node, ast.Attribute) or not node.attr.startswith("_") or node.attr.startswith("__"):
            continue
        if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
            continue
        text = ast.unparse(node)
        if text not in ALLOWED_PRIVATE:
            found.append(f"{path.relative_to(SRC)}:{node.lineno}: {text}")
    return found


def test_the_cli_orchestrator_and_research_server_use_no_private_attribute_of_another_object() -> None:
    # doctor once listed the web-search server's tools through client._connection although
    # WebSearchClient.list_tools is public: a change inside the client broke doctor unseen.
    sources = sorted(p for folder in DRIVERS for p in (SRC / folder).rglob("*.py") if "__pycache__" not in p.parts)
    assert sources
    assert [hit for path in sources for hit in _private_reaches(path)] == []


# --- the run's context, and one place for the language and the plan review ------------------------
def test_a_request_takes_no_language_or_plan_review_beside_the_settings() -> None:
    # Both once lived in the request and in Settings: a caller could set one and forget the other
    # (the REPL's /lang reached local runs but not RESEARCH_SERVER's). The settings are the one place.
    for name, value in (("language", "ja"), ("review_plan", True)):
        with pytest.raises(TypeError):
            ResearchRequest(question="How high is Mount Fuji?", **{name: value})


def _context(settings: Settings, **changes: Any) -> RunContext:
    """A run's context for what these tests read; the clients are not used here."""
    base = {field.name: None for field in dataclasses.fields(RunContext)}
    return RunContext(**{**base, "request": ResearchRequest(question="q"), "settings": settings, **changes})


def test_the_run_context_is_fixed_and_a_misspelt_field_fails(tmp_path: Path) -> None:
    settings = Settings(sessions_dir=tmp_path)
    run = _context(settings, lang="ja")
    with pytest.raises(dataclasses.FrozenInstanceError):
        run.lang = "en"  # type: ignore[misc]
    with pytest.raises(TypeError):
        RunContext(**{field.name: None for field in dataclasses.fields(RunContext)}, langauge="ja")


@pytest.mark.parametrize(("asked", "reviewer", "reviewed"), [(True, True, True), (True, False, False),
                                                             (False, True, False), (False, False, False)])
def test_a_plan_is_reviewed_when_asked_for_and_someone_can_answer(tmp_path: Path, asked: bool, reviewer: bool,
                                                                   reviewed: bool) -> None:
    # --review-plan / RESEARCH_REVIEW_PLAN / "/plan on" ask for it; a terminal (or the REPL) answers.
    # Piped input, the MCP server and `research serve` workers have no one to answer: no review.
    request = ResearchRequest(question="q", reviewer=(lambda payload: None) if reviewer else None)
    assert _context(Settings(sessions_dir=tmp_path, review_plan=asked), request=request).review_plan is reviewed


async def test_a_run_is_answered_in_the_language_of_its_settings(tmp_path: Path, fake_ollama) -> None:
    settings = Settings(ollama_host=fake_ollama.url, sessions_dir=tmp_path / "sessions", language="ja")
    seen: list[Any] = []

    def closed_stream(event: Any) -> None:  # the first event (the servers starting) ends the run here
        seen.append(event)
        raise BrokenPipeError(32, "Broken pipe")

    with pytest.raises(ProgressStreamFailed) as stopped:
        await run_research(ResearchRequest(question="What is the height of Mount Fuji?"), settings, closed_stream)
    session_id = stopped.value.params["session_id"]
    meta = HistoryManager(settings.sessions_dir).read_json(session_id, "meta.json", {})
    # An English question, answered in Japanese because the settings say so (RESEARCH_LANGUAGE, --lang, /lang).
    assert meta["language"] == "ja" and meta["status"] == "interrupted" and len(seen) == 1


def test_the_repls_lang_command_sets_the_language_every_run_reads(tmp_path: Path, capsys) -> None:
    # /lang once changed a REPL attribute of its own: local runs followed it, but a question sent
    # to RESEARCH_SERVER (remote_run reads the settings) still went in the configured language.
    from research.cli.repl import Repl
    from research.cli.repl_commands import dispatch_command

    repl = Repl(Settings(sessions_dir=tmp_path, language="auto"))
    assert dispatch_command(repl, "/lang ja")
    assert repl.settings.language == "ja" and repl.lang == "ja"
    assert dispatch_command(repl, "/lang auto")
    assert repl.settings.language == "auto" and repl.lang == "ja"  # messages stay until a question says otherwise
    assert "言語を ja にしました" in capsys.readouterr().out


# --- one reading of a finished session's outcome --------------------------------------------------
from research.state.run_record import RunOutcome  # noqa: E402


class RecordingLease:
    """The run queue's side of a worker, kept in memory: what the worker reported."""

    def __init__(self) -> None:
        self.finished: list[tuple[int, str, dict[str, Any] | None]] = []

    async def finish(self, run_id: int, status: str, result: RunOutcome | None = None,
                     error: str | None = None) -> None:
        # As the queue stores it (research_runs.result).
        self.finished.append((run_id, status, result.stored() if result is not None else None))


async def test_a_worker_reports_a_run_finished_before_it_could_say_so_as_the_cli_would(tmp_path: Path) -> None:
    # The report was written with no source read, then the worker died before recording the
    # exit code. The next worker once answered exit 0 (its own copy of the runner's reading);
    # `research` says 4, no evidence, for the same folder.
    from research.team.queue import ClaimedRun, QueuedRequest
    from research.team.worker import Worker

    settings = Settings(sessions_dir=tmp_path, database_url="postgresql://localhost/research")
    history = HistoryManager(tmp_path)
    session = history.create(question="What is the height of Mount Fuji?", language="en", model="gpt-oss:20b")
    history.update_meta(session.session_id, status="done", sources=0, sources_failed=2)
    worker = Worker(settings, name="test")
    worker.lease = RecordingLease()  # type: ignore[assignment]
    await worker.run_one(ClaimedRun(7, "t1", QueuedRequest("What is the height of Mount Fuji?", "en"),
                                    session.session_id, 2))
    [(run_id, status, result)] = worker.lease.finished
    assert (run_id, status) == (7, "done") and result is not None
    assert result["exit_code"] == 4 and result["sources_failed"] == 2 and result["resumed"] is True
    assert result["report_pdf"] == str(session.path / "report.pdf") and result["language"] == "en"


# --- the team queue's contracts ------------------------------------------------------------------
QUEUE_MODULES = ("team/queue.py", "team/front.py", "team/worker.py")


def test_no_queue_module_spells_a_run_status_out() -> None:
    # A run's status decides who may claim it and when a client stops waiting: RunStatus members
    # only, so a misspelt status is an AttributeError rather than a run nobody ever picks up.
    import re

    from research.team.database import RunStatus

    spelled = re.compile(r"""["'](%s)["']""" % "|".join(status.value for status in RunStatus))
    member = re.compile(r"""^\s+[A-Z]+ = ["']""")  # the enum's own definitions
    found = [f"{name}:{number}: {line.strip()}" for name in QUEUE_MODULES
             for number, line in enumerate((SRC / name).read_text("utf-8").splitlines(), 1)
             if spelled.search(line) and not member.match(line) and "DEFAULT 'queued'" not in line]
    assert found == []


def test_a_queued_request_reads_rows_written_before_a_key_existed_and_round_trips() -> None:
    from research.team.queue import QueuedRequest

    assert QueuedRequest.from_json({"question": "富士山の高さは？"}) == QueuedRequest("富士山の高さは？", "auto", {}, None)
    request = QueuedRequest("When did it last erupt?", "en", {"depth": "quick"}, parent="20250101_120000_abcdef")
    assert QueuedRequest.from_json(request.to_json()) == request
    with pytest.raises(TypeError):
        QueuedRequest("q", langauge="ja")  # type: ignore[call-arg]
