"""Issue 29, end to end: the answer a person reads is the checked answer.

Whole runs (`research … --json`, in-process, real MCP servers) against the fake model with every
careless habit switched on (fake_ollama.CARELESS: paraphrase, citation styles, harmony leaks, the
length cut, wrong-language sentences, swapped terms and roles, a changed value where both values
occur in the passage, page titles and template headings as sentences, an off-topic sentence from
another page read, a leaked repair prompt, uncited general knowledge, repeats, a redraft that
drops a figure) and the local web with its extra topic pages. What is checked is what a reader
sees: the Summary and Findings of report.md, which stdout repeats.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from fixtures.fake_ollama import CARELESS, FakeOllama
from fixtures.web_fixture import TOPIC_PAGES, WebFixture

from conftest import load_json_line, research_environment, research_in_process

pytestmark = pytest.mark.e2e

BODY_END = {"en": ("\n## Notes", "\n## Verification"), "ja": ("\n## 注記", "\n## 検証")}
QUESTIONS = {
    "fuji_en": ("Mount Fuji (富士山): how high is it and when did it last erupt?", "en", ("3,776", "1707")),
    "energy_ja": ("日本の再生可能エネルギーの内訳は？", "ja", ("21.7",)),
    "ollama_en": ("Which port does Ollama listen on locally?", "en", ("11434",)),
    "fuji_ja": ("富士山の標高は？", "ja", ("3,776",)),
    # Only English pages answer it: the answer is Japanese, checked as its English (issue 44).
    "yokohama_ja": ("Port of Yokohamaはいつ外国貿易に開かれましたか？", "ja", ("1859",)),
    # The other way round: only a Japanese page answers an English question.
    "bitcoin_en": ("When did ビットコイン (Bitcoin) begin operating?", "en", ("2009",)),
}


@pytest.fixture(scope="module")
def topic_web():
    web = WebFixture(slow_delay=0.5)
    web.articles.extend(TOPIC_PAGES)
    with web:
        yield web


def _plain(text: str) -> str:
    text = re.sub(r"\[S\d+\]|[（(](?:not checked|未確認)[)）]", "", text)
    return " ".join(text.replace("**", "").split()).rstrip(" .。")


def _answer(report: str, lang: str) -> str:
    """The Summary and Findings: the report up to its notes or its verification."""
    ends = [report.find(end) for end in BODY_END[lang] if end in report]
    body = report[:min(ends)] if ends else report
    return body[body.index("\n## "):]  # without the header that repeats the question


def _run(key: str, tmp_path: Path, web: WebFixture, *, judge_accuracy: float = 1.0, loops: int | None = None,
         also: frozenset[str] = frozenset()):
    question, lang, _ = QUESTIONS[key]
    with FakeOllama() as fake:
        fake.behaviours = set(CARELESS) | also
        fake.judge_accuracy = judge_accuracy
        env = research_environment(tmp_path, fake, web)
        if loops is not None:
            env["RESEARCH_MAX_VERIFICATION_LOOPS"] = str(loops)
        result = research_in_process([question, "--lang", lang, "--json"], env)
        planted = {k: list(v) for k, v in fake.planted.items()}
    assert result.returncode == 0, result.stderr
    out = load_json_line(result.stdout)
    report = Path(out["report_md"]).read_text("utf-8")
    return out, report, _answer(report, lang), planted, result.stderr


@pytest.mark.parametrize("key", list(QUESTIONS))
def test_a_careless_model_s_answer_holds_only_checked_claims(key, tmp_path, topic_web):
    out, report, body, planted, stderr = _run(key, tmp_path, topic_web)
    lang, key_facts = QUESTIONS[key][1], QUESTIONS[key][2]
    flat = _plain(body)
    # Nothing the check rejected: changed values, swapped terms, uncited general knowledge.
    for name in ("changed_sentences", "swapped_sentences", "both_values", "uncited", "swap_roles"):
        for sentence in planted.get(name, []):
            assert _plain(sentence) not in flat, (name, sentence)
    # Nothing that is not a claim: page titles, template slots, the repair prompt, repeats.
    sentences = [_plain(s.lstrip("- ")) for s in re.split(r"(?<=[.。])\s+|\n+", body)
                 if _plain(s) and not s.lstrip().startswith("#")]
    for sentence in planted.get("title_sentence", []):
        assert _plain(sentence) not in sentences, sentence
    assert not re.search(r"<[^<>\n]{1,24}>", body), body
    assert "not valid JSON" not in body and not re.search(r"\[(S\d+)\]\s*\[\1\]", body)
    said = [s for s in sentences if len(s) > 12]
    assert len(said) == len(set(said)), "a sentence is said twice"
    # Nothing about another topic.
    for sentence in planted.get("off_topic", []):
        assert _plain(sentence) not in flat, sentence
    # No soft marks: one "not checked" mark at most, inside a sentence, and never a ⚠.
    assert "⚠" not in body and "unverified" not in body and "未検証" not in body
    # What the question asks and the sources give is there.
    for fact in key_facts:
        assert fact in body or fact.replace(",", "") in body, (fact, body)
    # Every label one name, every percentage its counts.
    verdicts = out["verification"]["verdicts"]
    claims = out["verification"]["claims"]
    assert sum(verdicts.values()) == claims
    assert out["verification"]["supported_percent"] == round(100 * verdicts["supported"] / claims)
    assert f"{out['verification']['supported_percent']}%" in report


def test_a_rejected_sentence_is_listed_with_its_passage_and_the_notes_say_what_was_left_out(tmp_path, topic_web):
    # No follow-up round: the first draft's errors must be handled in the final answer itself.
    out, report, body, planted, stderr = _run("fuji_en", tmp_path, topic_web, loops=0)
    after = report.split("\n## Verification")[1]
    removed = [c for c in json.loads((Path(out["session_dir"]) / "verification.json").read_text("utf-8"))["claims"]
               if c.get("removed") and c.get("removed_reason") in ("contradicted", "not_supported")]
    assert removed
    for claim in removed:
        line = next(line for line in after.splitlines() if claim["text"][:40] in line)
        assert "«" in line and "»" in line, line  # with the passage that decided it
    assert "Left out of the answer:" in report


@pytest.mark.parametrize(("key", "kept", "said_as", "page", "checked_note"), [
    ("yokohama_ja", "横浜港は1859年に外国貿易に開かれた", "Yokohama",
     "The Port of Yokohama opened to foreign trade in 1859.", "「{}」として確認"),
    ("bitcoin_en", "Bitcoin is a crypto-asset that began operating in 2009", "ビットコイン",
     "ビットコインは2009年に運用が始まった暗号資産である。", "(checked as «{}»)"),
])
def test_an_answer_on_pages_in_the_other_language_keeps_what_they_say_and_loses_what_they_deny(
        key, kept, said_as, page, checked_note, tmp_path, topic_web):
    # Issue 44: a question that only pages in the other language answer (a Japanese question on
    # English pages, and the other way round). The careless model writes the pages' sentences in the
    # asked language (citing them at the paragraph's end, or not at all), plus one with a changed year;
    # each claim is checked as the model's own translation of it into the page's language.
    out, report, body, planted, stderr = _run(key, tmp_path, topic_web, loops=0)
    (changed,) = planted["changed_sentences"]
    year = re.search(r"\d{4}", kept).group()
    assert year not in changed
    assert re.search(re.escape(kept) + r" ?\[S1\][。.]", body) and "未確認" not in body and "not checked" not in body, body
    assert _plain(changed) not in _plain(body)
    claims = json.loads((Path(out["session_dir"]) / "verification.json").read_text("utf-8"))["claims"]
    said = next(c for c in claims if _plain(c["text"]) == kept and not c.get("removed"))
    assert said["state"] == "supported" and year in said["checked_as"] and said_as in said["checked_as"]
    false = next(c for c in claims if _plain(c["text"]) == _plain(changed))
    assert false["state"] == "contradicted" and false["removed"]
    # The reader sees what was compared with the page: the translation, beside the page's words.
    line = next(line for line in report.splitlines() if _plain(changed) in line)
    assert checked_note.format(false["checked_as"]) in line and f"«{page}»" in line, line


def test_a_translation_that_changes_a_figure_is_checked_with_the_claims_own_figure(tmp_path, topic_web):
    # The model "corrects" what it translates: its English of the sentence with the changed year gives the
    # page's year back. Read as that, the false sentence would be supported; a figure is copied, not
    # translated, so the claim's own year is put back and the page contradicts it.
    out, report, body, planted, stderr = _run("yokohama_ja", tmp_path, topic_web, loops=0,
                                              also=frozenset({"unfaithful_translation"}))
    (changed,) = planted["changed_sentences"]
    assert _plain(changed) not in _plain(body)
    claims = json.loads((Path(out["session_dir"]) / "verification.json").read_text("utf-8"))["claims"]
    false = next(c for c in claims if _plain(c["text"]) == _plain(changed))
    year = re.search(r"\d{4}", changed).group()
    assert false["state"] == "contradicted" and year in false["checked_as"] and "1859" not in false["checked_as"]
    assert "横浜港は1859年に外国貿易に開かれた[S1]。" in body
