"""End to end with a fake model that behaves like a real one (issue 12).

The fake paraphrases and merges facts, cites in its own styles, leaks harmony control
text, is cut off by the length limit, writes a sentence in the other language, swaps a
term and changes a figure. What reaches report.md must still hold: no true sentence
flagged, every planted error flagged, every citation a listed source, no control text,
no cut-off sentence and no sentence in the wrong language.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import load_json_line, research_in_process
from fixtures.fake_ollama import REALISTIC

from research.modules.core.i18n import t
from research.modules.text.claims import CITATION_GROUP
from research.modules.text.language_check import check_sentences

pytestmark = pytest.mark.e2e

QUESTIONS = {"ja": "富士山（Mount Fuji）の標高と最後の噴火は？", "en": "Mount Fuji (富士山): how high is it and when did it last erupt?"}
BODY_END = {"ja": "\n## 検証", "en": "\n## Verification"}
NOTES = {"ja": "\n## 注記", "en": "\n## Notes"}
SOURCES = {"ja": "\n## 出典\n", "en": "\n## Sources\n"}


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_realistic_model_yields_a_report_that_flags_only_what_is_wrong(research_env, fake_ollama, lang):
    fake_ollama.behaviours = set(REALISTIC)
    research_env["RESEARCH_MAX_VERIFICATION_LOOPS"] = "0"
    result = research_in_process([QUESTIONS[lang], "--lang", lang, "--json"], research_env)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    session = Path(load_json_line(result.stdout)["session_dir"])
    report = (session / "report.md").read_text("utf-8")
    body = report.split(BODY_END[lang])[0]
    planted = fake_ollama.planted
    # Every behaviour really happened in this run.
    assert planted.get("swapped") and planted.get("changed_numbers") and planted.get("cut_off"), planted
    assert planted.get("wrong_language") and len(set(planted.get("styles", []))) >= 5, planted

    # No control text and no cut-off sentence.
    assert "<|" not in report and "assistantfinal" not in report and "analysisThe" not in report
    for cut in planted["cut_off"]:
        assert cut not in report

    # Every citation in the report is [S#] and names a listed source.
    listed = set(re.findall(r"^\d+\. \*\*\[(S\d+)\]\*\*", report.split(SOURCES[lang])[1], flags=re.MULTILINE))
    groups = [m.group(0) for m in CITATION_GROUP.finditer(body)]
    assert groups, body
    assert all(re.fullmatch(r"\[S\d+\]", g) for g in groups), groups
    assert {g[1:-1] for g in groups} <= listed

    # The planted errors are taken out of the answer (issue 29: never kept with a soft mark) and
    # listed below it with the passage that decided them; no true sentence carries a mark.
    answer = body.split(NOTES[lang])[0]
    lines = [line for line in answer.splitlines() if line.strip() and not line.startswith(("#", "- **"))]
    planted_marks = planted["swapped"] + planted["changed_numbers"]
    verification = json.loads((session / "verification.json").read_text("utf-8"))
    claims = verification["claims"]
    corrected = {fix["value"] for fix in verification["summary"].get("corrected") or []}
    for mark in planted_marks:
        assert not [line for line in lines if mark in line], mark
        fixed = next((value for value in corrected if value in mark), None)  # the swapped word of "天明噴火": 天明
        if fixed:
            # Corrected from its passage where the slot was clear: the notes name the correction.
            assert any(fixed in line and "→" in line for line in body.split(NOTES[lang])[1].splitlines()), mark
            continue
        removed = [c for c in claims if mark in c["text"] and c.get("removed")]
        assert removed and all(c["outcome"] == "unsupported" for c in removed), (mark, claims)
        listed = [line for line in report.split(BODY_END[lang])[1].splitlines() if mark in line]
        assert listed and all("«" in line and "»" in line for line in listed), listed  # with its passage
    marks = [t(key, lang) for key in ("verification.flag_unverified", "verification.flag_partly",
                                      "verification.flag_contradicted")]
    assert not [line for line in lines if any(mark in line for mark in marks)], lines

    # No sentence of the body in the wrong language (the planted one was rewritten).
    answer = body[body.index("\n## "):]  # the answer, without the header that repeats the question
    wrong = [s.text(answer) for s in check_sentences(answer, lang) if s.wrong_language]
    assert not wrong, wrong
    check = json.loads((session / "verification.json").read_text("utf-8"))["summary"]["language_check"]
    assert check["rewritten"] >= 1 and not check["not_rewritten"]
