"""Issue 12: the draft's evidence is ranked against the question, fits num_ctx, and the
overflow retry sends a strictly smaller prompt each time (lowest-ranked passages out first)."""

from __future__ import annotations

import re

from fixtures.typed_state import run_step
from fixtures.fake_ollama import FakeOllama
from fixtures.memory_history import MemoryHistory

from research.modules.core.settings import Settings
from research.modules.llm.model_manager import ModelManager
from research.modules.text.passages import evidence_block, rank_passages
from research.workflow.dependencies import WorkflowDependencies
from research.nodes.llm import draft_answer

SOURCES = [
    {"label": "S1", "url": "https://a.example/tortoise", "canonical_url": "https://a.example/tortoise", "title": "Tortoises", "status": "ok",
     "markdown": "A tortoise moves at about 0.3 km per hour.\n\nTortoises live for a long time."},
    {"label": "S2", "url": "https://b.example/fuji", "canonical_url": "https://b.example/fuji", "title": "Mount Fuji", "status": "ok",
     "markdown": "Mount Fuji is 3,776 m high.\n\nThe last eruption of Mount Fuji began in 1707.\n\n"
                 + "\n\n".join(f"Visitor note {n}: the fifth station of Mount Fuji has shops." for n in range(30))},
    {"label": "S3", "url": "https://c.example/fuji-ja", "canonical_url": "https://c.example/fuji-ja", "title": "富士山", "status": "ok",
     "markdown": "富士山の標高は3,776メートルです。\n\n富士山の最後の噴火は1707年です。"},
]


def test_passages_are_ranked_against_the_question_with_the_same_analyser():
    ranked = rank_passages(SOURCES, ["How high is Mount Fuji?", "富士山の最後の噴火は？"])
    labels = {p.label for p in ranked}
    assert "S1" not in labels  # nothing about the question: never in the prompt
    # Each (sub-)question's best passage comes first; lemmas: 噴火 matches 噴火は.
    assert {p.text for p in ranked[:2]} == {"Mount Fuji is 3,776 m high.", "富士山の最後の噴火は1707年です。"}
    small, large = evidence_block(SOURCES, ranked, 40), evidence_block(SOURCES, ranked, 400)
    assert len(small) < len(large) and small.count("\n- ") < large.count("\n- ")
    assert "Tortoise" not in large


class _Progress:
    def __init__(self) -> None:
        self.events: list[object] = []

    def __call__(self, event: object) -> None:
        self.events.append(event)


async def test_each_overflow_retry_sends_a_strictly_smaller_prompt_dropping_the_lowest_ranked_first(tmp_path):
    with FakeOllama() as fake:
        fake.chars_per_token = 0.05  # every prompt fills the context: three attempts
        settings = Settings(ollama_host=fake.url, num_ctx=4096, sessions_dir=tmp_path)
        model = ModelManager(settings)
        await model.ensure_ready()
        history = MemoryHistory()
        deps = WorkflowDependencies(settings=settings, model=model, web_search=None, parser=None, history=history,
                                    progress=_Progress())
        state = {"language": "en", "question": "How high is Mount Fuji?", "session_id": "s", "documents": SOURCES}
        result = await run_step(draft_answer, state, deps)
        prompts = [r["messages"][-1]["content"] for r in fake.chat_requests() if r.get("stream")]
    assert len(prompts) == 3 and len(set(prompts)) == 3
    assert len(prompts[0]) > len(prompts[1]) > len(prompts[2])
    passages = [set(re.findall(r"^- (.*)$", p, flags=re.MULTILINE)) for p in prompts]
    assert passages[2] < passages[1] < passages[0]  # fewer passages each time, the same ranking
    assert "Mount Fuji is 3,776 m high." in passages[2]  # the best passage stays to the end
    assert all("tortoise" not in p.lower() for p in prompts)
    assert [e for e, _ in history.events].count("context_overflow") == 3
    assert result["errors"] and result["errors"][0]["kind"] == "context"


def _report(language: str):
    from datetime import datetime, timezone

    from research.modules.report.content import ReportInput, build_report

    ledger = [{"label": f"S{n}", "url": f"https://s{n}.example", "title": f"Source {n}", "status": "ok"} for n in (1, 2, 3)]
    ledger.append({"label": "S4", "url": "https://s4.example", "title": "Broken", "status": "failed", "error": "404"})
    return build_report(ReportInput(
        question="q", language=language, model="m", generated_at=datetime(2026, 1, 1, tzinfo=timezone.utc), session_id="s",
        body_markdown="## Summary\n\nFuji is 3,776 m high [S3]. It erupted in 1707 [S1][S3].\n", sources=ledger,
        verification={"summary": {"claims": 2, "supported": 2, "supported_ratio": 1.0}, "claims": []}))


def test_the_report_lists_the_cited_sources_and_the_others_under_also_read():
    from research.modules.report.markdown import render_markdown

    doc = _report("en")
    assert [s.label for s in doc.sources] == ["S1", "S3"] and [s.number for s in doc.sources] == [1, 2]
    assert [s.label for s in doc.also_read] == ["S2", "S4"]
    markdown = render_markdown(doc)
    sources, also = markdown.split("## Sources")[1].split("### Also read")
    assert "[S1]" in sources and "[S3]" in sources and "[S2]" not in sources
    assert "[S2]" in also and "[S4]" in also and "could not be read" in also
    assert "| Share supported | 100% |" in markdown
    ja = render_markdown(_report("ja"))
    assert "### 参考にしたその他の資料" in ja and "| 裏付けありの割合 | 100% |" in ja


def test_the_pdf_has_the_also_read_section(tmp_path):
    from pdfminer.high_level import extract_text

    from research.modules.report.pdf import render_pdf

    path = tmp_path / "report.pdf"
    render_pdf(_report("en"), path)
    text = extract_text(str(path))
    sources, also = text.split("Also read")
    assert "Source 3" in sources.split("Sources")[-1] and "Source 2" in also


def test_the_draft_reads_its_best_passages_and_short_sources_whole_not_everything_that_shares_a_word():
    # Issue 45: over PubMedQA's corpus the question's own abstract scored 0.5-1.0 and ten other
    # abstracts 0.12-0.38 (a shared "motor" or "dementia"); the real 1.5B model summarised all
    # eleven. The abstract's findings shared no word with the question and were never shown.
    from research.modules.text.passages import focused

    own = {"label": "S1", "language": "en", "status": "ok", "markdown":
           "Dementia and aphasia in motor neuron disease were studied.\n\n"
           "Three of 18 patients were demented and had impaired language function.\n\n"
           "Major cognitive deficits were found in five of the 18 patients (28%)."}
    others = [{"label": f"S{n}", "language": "en", "status": "ok", "markdown":
               f"Family caregivers of dementia patients {n} are at risk of anxiety."} for n in (2, 3, 4, 5)]
    japanese = {"label": "S6", "language": "ja", "status": "ok", "markdown": "運動ニューロン疾患 (motor neuron disease) と認知症の関連。"}
    sources = [own, *others, japanese]
    question = "Dementia and aphasia in motor neuron disease: an underrecognised association?"
    ranked = rank_passages(sources, [question])
    kept = focused(ranked, sources)
    texts = [p.text for p in kept]
    assert "Major cognitive deficits were found in five of the 18 patients (28%)." in texts  # the short source whole
    assert sum("caregivers" in t for t in texts) < sum("caregivers" in p.text for p in ranked)
    assert any(p.label == "S6" for p in kept)  # the best of the other language stays
    block = evidence_block(sources, kept, 2000)
    assert block.index("[S1]") < block.index("Major cognitive deficits")


def test_a_key_fact_inside_a_paragraph_shown_is_not_said_twice():
    source = {"label": "S1", "language": "en", "status": "ok", "title": "Fuji", "url": "https://a.example/fuji",
              "key_facts": ["Mount Fuji is 3,776 m high."],
              "markdown": "Mount Fuji is 3,776 m high. It last erupted in 1707."}
    ranked = rank_passages([source], ["How high is Mount Fuji?"])
    assert [p.text for p in ranked] == ["Mount Fuji is 3,776 m high.", "Mount Fuji is 3,776 m high. It last erupted in 1707."]
    block = evidence_block([source], ranked, 500)
    assert block.count("Mount Fuji is 3,776 m high.") == 1 and "It last erupted in 1707." in block
