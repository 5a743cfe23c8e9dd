"""A finished run's answer as the user reads it, and ``--json``'s object: the same for a local
run (cli/run_output.py) and a team's (team/front.py answers the API with it).

``report_answer`` is report.md's body from the summary through the sources list, so
`research "…" > answer.md` resolves every [S#] it cites; ``json_view`` is the ``RunJson``
object `research "…" --json` prints.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from research.modules.report.markdown import unescape_markdown
from research.modules.report.templates import report_labels
from research.modules.text.claims import citation_labels
from research.modules.text.sanitize import strip_controls
from research.state.run_record import JsonObject, RunJson, RunOutcome, sources_of
from research.state.session_folder import HistoryManager, read_ledger


def report_answer(result: RunOutcome) -> str:
    """The answer as report.md says it: its sections from the summary through the sources
    list (findings, disagreements, notes, the verification table), without the header and
    the method. So `research "…" > answer.md` resolves every [S#] it cites, in report.md's
    words. Without a report (a run that ended before it), the checked answer."""
    try:
        text = Path(result.report_md).read_text("utf-8") if result.report_md else ""
    except OSError:
        text = ""
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith("## ")]
    if not starts:
        return strip_controls(result.answer or "").strip()
    method = f"## {report_labels(result.language)['method']}"
    end = max((i for i in starts if lines[i] == method), default=len(lines))
    return "\n".join(lines[starts[0]:end]).strip()


def sources_section(result: RunOutcome) -> str:
    """The report's sources list (with "Also read"): what a streamed answer's [S#] point at."""
    answer = report_answer(result)
    heading = f"## {report_labels(result.language)['sources']}"
    lines = answer.splitlines()
    if heading not in lines:
        return ""
    return "\n".join(lines[lines.index(heading):]).strip()


def json_view(result: RunOutcome) -> RunJson:
    """``--json`` (and ``-o x.json``): the run's summary, the answer as report.md says it,
    and every source read with its label and URL (``cited``: the answer cites it;
    ``suspicious``: text addressed to a model was screened out of it)."""
    answer = report_answer(result)
    cited = set(citation_labels(answer))  # the one citation grammar (a title's escaped "\[S1\]" cites nothing)
    read = result.source_list
    if not read and result.session_dir:  # a result kept before it carried its sources
        session = HistoryManager(Path(result.session_dir).parent).resolve(result.session_id)
        read = sources_of(read_ledger(session.path))
    sources = [source.cited_view(source.label in cited) for source in read if source.read]
    # Plain text, not Markdown to render: "`research doctor`", not "\`research doctor\`" (issue 48).
    return RunJson.model_validate({**result.to_json(), "answer": unescape_markdown(answer), "source_list": sources})


def json_result(result: RunOutcome) -> JsonObject:
    """``--json``'s object as printed (``json_view``): the verification summary with the keys
    it was read with, a problem's ``queries`` only where it has them."""
    shown = json_view(result)
    return shown.model_dump(mode="json") | {"problems": [problem.as_json() for problem in shown.problems]}
