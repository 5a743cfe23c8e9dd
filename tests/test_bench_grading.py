"""`research bench` grading, statistics and set files, without a run.

The gold answers are quoted from the sets in ../shared/bench (see its README):
- PubMedQA PQA-L (github.com/pubmedqa/pubmedqa, data/ori_pqal.json, MIT): each item's
  QUESTION, its LONG_ANSWER (the abstract's conclusion) and its final_decision;
- JSQuAD v1.3 validation (github.com/yahoojapan/JGLUE, CC BY-SA 4.0): the article 梅雨,
  its questions and answer spans.
"""

from __future__ import annotations

import json

import pytest

from research.modules.core.errors import UsageError
from research.orchestrator.bench.grading import grade_jsquad, grade_pubmedqa, read_verdict
from research.orchestrator.bench.results import DONE, FAILED, ItemResult, read_results, summarise
from research.orchestrator.bench.sets import load_set, sample
from research.orchestrator.bench.stats import percentile, wilson

# PubMedQA PQA-L: (PMID, final_decision, LONG_ANSWER), quoted whole.
PUBMEDQA_CONCLUSIONS = [
    ("23831910", "yes", "DBE appears to be equally safe and effective when performed in the community setting as "
                        "compared to a tertiary referral center with a comparable yield, efficacy, and complication rate."),
    ("15703931", "no", "In comparison with its accuracy in non-DM patients, the accuracy of PET in cervical cancer "
                       "patients with mild to moderate DM was not significantly reduced."),
    ("26485091", "no", "The results show no evidence that AAPs used as second-line treatment for depression results "
                       "in overall cost savings or lower inpatient and ED visits compared to other treatment strategies."),
    ("17076590", "maybe", "Education by pharmacists, combined with access to counter samples, may or may not have an "
                          "effect on medical provider prescribing, depending on the category of medication targeted "
                          "for cost control."),
]


@pytest.mark.parametrize(("pmid", "decision", "conclusion"), PUBMEDQA_CONCLUSIONS, ids=[c[0] for c in PUBMEDQA_CONCLUSIONS])
def test_a_pubmedqa_conclusion_is_read_as_its_gold_decision(pmid, decision, conclusion):
    # As a model would put it under its Summary, with citations.
    answer = f"## Summary\n\n{conclusion} [S1]\n\n## Details\n\n- Something else entirely [S2]."
    grade = grade_pubmedqa(answer, decision)
    assert (grade.predicted, grade.correct) == (decision, True)
    assert read_verdict(answer)[1] == "wording"


def test_an_explicit_verdict_wins_over_the_wording():
    # 15703931 (gold "no"): the question asks whether diabetes influences FDG-PET's efficacy.
    answer = ("## Summary\n\nNo. " + PUBMEDQA_CONCLUSIONS[1][2] + " [S1]")
    assert read_verdict(answer) == ("no", "explicit")
    assert read_verdict("**Yes** — DBE was as safe in the community [S1].") == ("yes", "explicit")
    assert read_verdict("The answer is maybe: it depends on the medication [S1].") == ("maybe", "explicit")
    assert read_verdict("## 結論\n\nはい、地域の病院でも安全に行えます[S1]。") == ("yes", "explicit")
    # Two verdicts that disagree are none.
    assert read_verdict("Yes, it helps [S1]. No, it does not [S2].") == (None, "none")


def test_conservative_reading_gives_no_verdict_rather_than_a_guess():
    # 17113061 (gold "no"): "insufficient" is neither a hedge the reader knows nor a negation.
    unsure = "Genetic variants identified in the present study may be insufficient to promote early carotid atherosclerosis."
    assert read_verdict(unsure) == (None, "none")
    # The first sentences disagree: a negation, then a finding stated plainly.
    assert read_verdict("Screening did not reduce mortality [S1]. It improved detection rates [S2].") == (None, "none")
    # A sentence about the study's limitations is no verdict (the real 1.5B model's Summary, run
    # 20261128_143634 on PubMedQA 20674150, gold "yes", was read "no" from its "lack of").
    assert read_verdict("## Summary\nThe 2009 TNM version of kidney cancer staging was validated in a large "
                        "multi-institutional cohort of patients treated for renal cell carcinoma [S2] [S1]. The study "
                        "found that pT2b and pT3a tumors had similar CSS, as did pT3c and pT4 tumors [S2]. However, "
                        "the study had limitations, including retrospective design, lack of central pathologic "
                        "review, and the small number of patients included in some substages [S2].") == (None, "none")
    # The question repeated states nothing: local-deep-researcher's summary for PubMedQA 20674150
    # (gold "yes") began with it, and "improvements" in it was read as "yes".
    assert read_verdict("## Summary\nValidation of the 2009 TNM version in a large multi-institutional cohort of "
                        "patients treated for renal cell carcinoma: are further improvements needed? \n\nThe study "
                        "aimed to validate the recently released edition of the TNM staging system.") == (None, "none")
    # A study's aim states nothing it found: local-deep-researcher's summary for PubMedQA 18269157
    # (gold "yes") opened so, and "difference" was read as "yes".
    assert read_verdict("## Summary\nTo determine whether there is a difference in biomechanical and wound healing "
                        "characteristics between advanced surface ablation and sub-Bowman's keratomileusis, a "
                        "retrospective review of prospectively collected data was completed.") == (None, "none")
    assert read_verdict("The aim of this study was to assess whether statins reduce mortality.") == (None, "none")
    # The program's own messages about the sources are no "no".
    for message in ("## Summary\n\nNo evidence was found for this question: the search returned no source that "
                    "could be read, so no answer is given.",
                    "## Summary\n\nThe sources read do not answer the question directly; no checked sentence could "
                    "be given here.",
                    "## 結論\n\nこの質問に対する根拠は見つかりませんでした。読み込める出典が検索で得られなかったため、回答は記載していません。"):
        assert grade_pubmedqa(message, "no").correct is False



def test_where_the_program_quotes_the_sources_the_quote_is_read_not_its_words_around_it():
    # PubMedQA 11149643 (gold "yes"), the real 1.5B model at 311242c: the Summary was the
    # program's line "No sentence of the draft could be checked …; of the question they say: «The
    # aim of this study was to analyse …»", and its opening "No" was read as an explicit "no".
    from research.modules.core.i18n import t

    aim = "The aim of this study was to analyse the results of infragenual arterial revascularisation."
    for lang in ("en", "ja"):
        line = t("answer.sources_say_of_it", lang, evidence=aim, label="S1")
        assert read_verdict("## Summary\n" + line + "\n\n## Details\nIt worked [S1].") == (None, "none")
    # The answer as that run kept it in results.jsonl, in the line's earlier wording.
    kept = ("## Summary\nNo sentence of the draft could be checked against the sources read; of the question they "
            "say: «" + aim + "» [S1]\n")
    assert read_verdict(kept) == (None, "none")
    # The contradicted headline: the sources' words are what is read.
    denied = t("answer.sources_say_otherwise", "en", label="S1", claim="Closed reduction is satisfying",
               evidence="Closed reduction did not give satisfying results in most patients.")
    assert read_verdict("## Summary\n" + denied) == ("no", "wording")
    # A verdict word is explicit only standing alone ("No.", "Yes,", as in the test above);
    # "No significant …" and "Yes it is …" are read from their wording.
    assert read_verdict("No significant difference in FDG uptake was found [S1].") == ("no", "wording")
    assert read_verdict("Yes it is effective [S1].") == ("yes", "wording")

# JSQuAD v1.3 validation, article 梅雨: (question, gold spans as the set lists them).
JSQUAD_GOLD = [
    ("梅雨がみられるのはどの期間？", ("5月から7月にかけて", "5月から7月")),
    ("梅雨明けの別名を何というか。", ("出梅（しゅつばい）", "出梅")),
    ("梅雨とは何季の一種か?", ("雨季",)),
]


def test_jsquad_span_is_found_after_width_and_space_normalisation():
    # Full-width digits and a space the model put in: still the gold span.
    grade = grade_jsquad("## 結論\n\n梅雨は **５月 から ７月** に見られます[S1]。", JSQUAD_GOLD[0][1])
    assert grade.correct and grade.predicted == "5月から7月"
    # Half-width brackets for the gold's full-width ones (NFKC makes them the same).
    assert grade_jsquad("梅雨明けは出梅(しゅつばい)とも言う[S2]。", JSQUAD_GOLD[1][1]).predicted == "出梅（しゅつばい）"
    # A citation between the characters of a span does not hide it.
    assert grade_jsquad("梅雨は雨[S1]季の一種である。", JSQUAD_GOLD[2][1]).correct


def test_jsquad_answer_without_the_span_is_wrong_and_its_length_kept():
    grade = grade_jsquad("梅雨は東アジアの広範囲でみられる気象現象です[S1]。", JSQUAD_GOLD[2][1])
    assert (grade.correct, grade.predicted) == (False, None)
    assert grade.answer_chars == len("梅雨は東アジアの広範囲でみられる気象現象です 。")


def test_jsquad_span_that_ends_in_a_figure_is_not_found_inside_a_longer_figure():
    # JSQuAD v1.3 valid a14985p66q2 (`research bench jsquad --sample 5 --seed 78`): 「政党所属の地方議員の総数は
    # 何位？」, gold 「第3」, was graded correct for the real 1.5B model's 「…と位置づけられている（第38条）」.
    gold = ["第3", "3党の位置"]
    assert not grade_jsquad("支部は党の基礎組織と位置づけられている（第38条）[S8]。", gold).correct
    assert grade_jsquad("地方議員の総数は第3位である[S1]。", gold).correct
    assert not grade_jsquad("1993年に設立された[S1]。", ["993年"]).correct
    assert grade_jsquad("全長は6 mを超える[S1]。", ["6 m"]).correct


def test_jsquad_span_only_in_a_heading_the_model_wrote_is_not_an_answer():
    # JSQuAD v1.3 valid a1698820p34q0 (`research bench jsquad --sample 5 --seed 79`, the real 1.5B model): graded
    # correct for its heading 「## 中国」, over a sentence on Japan's direct investment in the Netherlands. A
    # heading is the model's, never checked: the gold must be in what the answer says.
    answer = ("## 結論\nオランダは2005年の貿易額は、日本からオランダへの輸出が1兆5,076億円[S4]。\n\n## 中国\n"
              "2004年の直接投資は、日本からオランダが7,764億円[S4]。\n")
    assert not grade_jsquad(answer, ["中国"]).correct
    assert grade_jsquad(answer.replace("日本からオランダへの輸出", "中国からの輸入"), ["中国"]).correct


def test_wilson_interval_and_percentiles():
    low, high = wilson(8, 10)
    assert (round(low, 3), round(high, 3)) == (0.490, 0.943)  # the textbook 95 % Wilson interval of 8/10
    assert wilson(0, 2)[0] == 0.0 and round(wilson(0, 2)[1], 3) == 0.658
    # Every count of 1..40 questions: the interval holds the accuracy (30/30 once had high < 1.0).
    for total in range(1, 41):
        for correct in range(total + 1):
            low, high = wilson(correct, total)
            assert 0.0 <= low <= correct / total <= high <= 1.0, (correct, total)
    assert percentile([1, 2, 3, 4, 10], 50) == 3 and percentile([1, 2, 3, 4, 10], 90) == pytest.approx(7.6)
    assert percentile([], 50) is None


def test_summary_counts_a_failed_run_as_wrong(tmp_path):
    results = [ItemResult("a", "q1", ["yes"], DONE, correct=True, draft_correct=False, seconds=10,
                          verification_changed=True),
               ItemResult("b", "q2", ["no"], DONE, correct=False, draft_correct=False, seconds=20),
               ItemResult("c", "q3", ["no"], FAILED, error="boom")]
    summary = summarise("pubmedqa", "m", 3, results)
    assert (summary.correct, summary.graded, summary.completed) == (1, 3, 2)
    assert summary.accuracy == pytest.approx(1 / 3)
    assert (summary.changed_helped, summary.changed_hurt, summary.seconds_median) == (1, 0, 15)
    assert [w["item_id"] for w in summary.wrong] == ["b", "c"]
    # A line cut by a kill is not read back: its question runs again.
    path = tmp_path / "results.jsonl"
    path.write_text(results[0].to_line() + "\n" + results[1].to_line()[:30], "utf-8")
    assert [r.item_id for r in read_results(path)] == ["a"]


def test_set_files_are_read_in_their_original_formats(tmp_path):
    pubmedqa = tmp_path / "ori_pqal.json"
    pubmedqa.write_text(json.dumps({"23831910": {
        "QUESTION": "Double balloon enteroscopy: is it efficacious and safe in a community setting?",
        "CONTEXTS": ["From March 2007 to January 2011, 88 DBE procedures were performed on 66 patients."],
        "LABELS": ["METHODS"], "MESHES": ["Double-Balloon Enteroscopy"], "final_decision": "yes",
        "LONG_ANSWER": PUBMEDQA_CONCLUSIONS[0][2]}}), "utf-8")
    bench = load_set("pubmedqa", pubmedqa)
    (item,), (page,) = bench.items, bench.pages
    assert item.gold == ("yes",) and item.page_id == page.page_id
    # The page holds the abstract's passages and MeSH terms, not the question or the conclusion.
    assert "88 DBE procedures" in page.text and "Double-Balloon Enteroscopy" in page.text
    assert item.question not in page.markdown() and "equally safe" not in page.markdown()

    jsquad = tmp_path / "valid-v1.3.json"
    jsquad.write_text(json.dumps({"data": [{"title": "梅雨", "paragraphs": [{
        "context": "梅雨 [SEP] 梅雨（つゆ、ばいう）は、…5月から7月にかけて来る曇りや雨の多い期間のこと。雨季の一種である。",
        "qas": [{"question": q, "id": f"a10336p0q{n}", "answers": [{"text": s, "answer_start": 0} for s in spans],
                 "is_impossible": False} for n, (q, spans) in enumerate(JSQUAD_GOLD)]}]}]}, ensure_ascii=False), "utf-8")
    bench = load_set("jsquad", jsquad)
    assert [i.gold for i in bench.items] == [spans for _q, spans in JSQUAD_GOLD]
    assert bench.pages[0].title == "梅雨" and bench.pages[0].text.startswith("梅雨（つゆ、ばいう）")
    # The same N and seed draw the same questions, in file order.
    assert sample(bench.items, 2, 7) == sample(bench.items, 2, 7)
    assert len(sample(bench.items, 2, 7)) == 2 and sample(bench.items, None, 0) == bench.items


@pytest.mark.parametrize(("name", "content", "key"), [
    ("nosuch", "{}", "bench.unknown_set"),
    ("pubmedqa", "not json", "bench.malformed"),
    ("pubmedqa", '{"1": {"QUESTION": "q?", "CONTEXTS": ["c"], "final_decision": "perhaps"}}', "bench.malformed"),
    ("jsquad", '{"data": [{"paragraphs": [{"context": "c", "qas": [{"question": "q", "answers": []}]}]}]}',
     "bench.malformed"),
    ("jsquad", '{"version": "v2"}', "bench.malformed"),
])
def test_a_bad_set_file_is_a_usage_error(tmp_path, name, content, key):
    path = tmp_path / "set.json"
    path.write_text(content, "utf-8")
    with pytest.raises(UsageError) as raised:
        load_set(name, path)
    assert raised.value.key == key
    with pytest.raises(UsageError) as missing:
        load_set("pubmedqa", tmp_path / "absent.json")
    assert missing.value.key == "bench.no_file"


def test_tokens_are_unknown_when_a_call_left_no_counts(tmp_path):
    """Real 1.5B run, JSQuAD a111367p16q4: the plan ran past its time and a draft was cut for
    repeating; meta.json had model time for them and no token counts, and the bench said 0."""
    import json

    from research.orchestrator.bench.runner import _tokens

    meta = tmp_path / "meta.json"
    meta.write_text(json.dumps({"usage": {"input": {"model_ms": 120103}, "llm": {"calls": 2, "model_ms": 514529},
                                          "repetition_cut": {"calls": 1}}}), "utf-8")
    assert _tokens(tmp_path) is None
    meta.write_text(json.dumps({"usage": {"input": {"calls": 1, "prompt_tokens": 97, "completion_tokens": 75,
                                                    "model_ms": 206382},
                                          "llm": {"calls": 1, "prompt_tokens": 2887, "completion_tokens": 403,
                                                  "model_ms": 774930}}}), "utf-8")
    assert _tokens(tmp_path) == 97 + 75 + 2887 + 403
