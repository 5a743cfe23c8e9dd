"""A statement against its denial or another status, decided by the quick checks (issue 44, item 1).

The passage is the one a user's own document gave when Qwen2.5-Coder-1.5B answered "Is the GIL
gone in Python 3.14?" with "the free-threaded build is now the default build", every sentence
"supported" by the same model judging (issue 44); the Japanese passages are written for this test."""

from __future__ import annotations

import json

import pytest

from research.modules.text.claims import split_claims
from research.modules.text.evidence import EvidenceIndex, assess_claim
from research.modules.text.polarity import clause_conflict, conjoined_statements

GIL = ("Python 3.13 introduced an experimental free-threaded build of CPython. In Python 3.14 the free-threaded "
       "build became officially supported, though it is still not the default build. The GIL remains enabled "
       "by default.")
GIL_JA = "Python 3.14ではフリースレッド版が正式にサポートされたが、まだ既定のビルドではない。GILは既定で有効なままである。"


def _assess(claim: str, passage: str, language: str = "en"):
    index = EvidenceIndex([{"label": "S1", "markdown": passage, "status": "ok", "language": language,
                            "title": "", "url": ""}])
    (parsed,) = split_claims(claim)
    return assess_claim(parsed, index)


@pytest.mark.parametrize("claim", [
    "The free-threaded build is now the default build in Python 3.14 [S1].",
    "In Python 3.14 the free-threaded build is the default build [S1].",
    "The GIL is not enabled by default [S1].",
])
def test_a_claim_the_passage_denies_is_unsupported_with_the_passage_shown(claim):
    assessment = _assess(claim, GIL)
    assert (assessment.outcome, assessment.reason) == ("unsupported", "negation")
    # The reader sees the passage's own words that decide it.
    assert "not the default build" in assessment.evidence or "remains enabled by default" in assessment.evidence


def test_its_negation_is_not_held_against_it():
    # The claim that says what the passage says is never decided against by this check.
    assessment = _assess("The free-threaded build is not the default build in Python 3.14 [S1].", GIL)
    assert assessment.outcome == "supported"
    assert _assess("In Python 3.14 the free-threaded build is officially supported [S1].", GIL).outcome != "unsupported"


def test_another_status_of_one_exclusive_set_is_unsupported():
    assessment = _assess("Python 3.13 introduced a stable free-threaded build of CPython [S1].", GIL)
    assert (assessment.outcome, assessment.reason, assessment.missing) == ("unsupported", "status", ["stable/experimental"])
    # A status is compared only with what the passage says of the same version: nothing of 3.12.
    assert clause_conflict("Python 3.12 shipped a stable free-threaded build.", GIL, "en") is None
    assert clause_conflict("Python 3.13 introduced an experimental free-threaded build.", GIL, "en") is None
    # 3.14's build is officially supported: "experimental" there is another status.
    assert clause_conflict("Python 3.14 has an experimental free-threaded build.", GIL, "en").kind == "status"


# The page of the GIL question as the real-model runs read it (docs/benchmarks.md, issue 44).
GIL_PAGE = ("PEP 703 proposed making the global interpreter lock (GIL) optional in CPython.\n\n"
            "The free-threaded build became officially supported in Python 3.14, though it is still not the default "
            "build. The standard build of Python 3.14 still has the GIL enabled by default.\n\n"
            "In the free-threaded build the GIL is disabled, so threads can run Python code in parallel on several "
            "cores.")


def test_a_status_shared_with_the_sentence_does_not_hide_another_it_excludes():
    # "by default" is in both; disabled and enabled still exclude each other. Was supported at
    # score 1.0, its words taken from two sentences (found at fb185cd).
    assessment = _assess("The standard build of Python 3.14 has the GIL disabled by default [S1].", GIL_PAGE)
    assert (assessment.outcome, assessment.reason) == ("unsupported", "status")
    assert _assess("The standard build of Python 3.14 has the GIL enabled by default [S1].", GIL_PAGE).outcome \
        == "supported"


def test_a_claim_naming_the_sentences_subject_one_name_more_closely_is_read_against_it():
    # The real 1.5B model's GIL answer at fb185cd: "The free-threaded CPython build … is the default
    # build" was left undecided: "CPython" is a name the denying sentence lacks.
    assessment = _assess("The free-threaded CPython build of Python 3.14 is the default build [S1].", GIL_PAGE)
    assert (assessment.outcome, assessment.reason) == ("unsupported", "negation")
    # Joined to a true statement, the denial is found among all the page's sentences, not only
    # the three that say most of the whole claim (those were all about the GIL).
    page = ("# Free-threaded CPython\n\nPEP 703 proposed making the global interpreter lock (GIL) optional in "
            "CPython. The Python Steering Council accepted PEP 703 in 2023. Python 3.13, released in October 2024, "
            "ships an experimental free-threaded build.\n\nThe free-threaded build became officially supported in "
            "Python 3.14, though it is still not the default build. The standard build of Python 3.14 still has the "
            "GIL enabled by default.\n\nIn the free-threaded build the GIL is disabled, so threads can run Python "
            "code in parallel on several cores. Single-threaded code runs somewhat slower in the free-threaded build.")
    joined = _assess("The free-threaded CPython build introduced in Python 3.14 is the default build, and it disables "
                     "the GIL, allowing threads to run Python code in parallel on several cores [S1].", page)
    assert (joined.outcome, joined.reason) == ("unsupported", "negation"), (joined.outcome, joined.reason)
    # Another build is still another subject: the standard build's GIL is not the free-threaded one's.
    assert clause_conflict("The free-threaded build of Python 3.14 does not have the GIL enabled.", GIL_PAGE, "en") \
        is None


def test_a_consequence_the_source_draws_from_the_opposite_premise_is_not_supported():
    # The real 1.5B model's GIL answer at e633b52: two of the page's sentences merged, the
    # consequence of the GIL disabled given to the standard build, where it is enabled. Was
    # supported at score 1.0.
    merged = _assess("The standard build of Python 3.14 still has the GIL enabled by default, so threads can run "
                     "Python code in parallel on several cores [S1].", GIL_PAGE)
    assert (merged.outcome, merged.reason) == ("unsupported", "status")
    assert "the GIL is disabled, so threads can run" in merged.evidence
    # The same consequence from the source's own premise, in other words, stands.
    assert _assess("In the free-threaded build the GIL is disabled, allowing threads to run Python code in parallel "
                   "on several cores [S1].", GIL_PAGE).outcome == "supported"


FULL_GIL_PAGE = ("PEP 703 proposed making the global interpreter lock (GIL) optional in CPython. Python 3.13, "
                 "released in October 2024, ships an experimental free-threaded build.\n\n" + GIL_PAGE)


def test_a_status_is_read_with_its_own_phrase_not_a_denial_elsewhere_in_the_claim():
    # The real 1.5B model's GIL answer at d4cf93f, kept in the Summary marked "not checked": the
    # page's 3.13 sentence given 3.14, its "experimental" against 3.14's "officially supported". The
    # "not" of ", which is not the default build" denies "default" only; it had hidden the other.
    claim = ("The free-threaded CPython build introduced in Python 3.14 ships an experimental free-threaded build, "
             "which is not the default build [S1].")
    assessment = _assess(claim, FULL_GIL_PAGE)
    assert (assessment.outcome, assessment.reason, assessment.missing) == ("unsupported", "status", ["experimental/stable"])
    assert "officially supported in Python 3.14" in assessment.evidence
    # Said of 3.13, as the page says it, the same sentence is not held against.
    assert clause_conflict(claim.replace("3.14", "3.13").replace(" [S1]", ""), FULL_GIL_PAGE, "en") is None
    # And a status the claim's own phrase denies is still not compared: "is not experimental" is
    # no claim of "experimental".
    assert clause_conflict("The free-threaded build of Python 3.14 is not experimental, and it is not the default "
                           "build.", FULL_GIL_PAGE, "en") is None


def test_japanese_denial_and_status():
    denied = _assess("Python 3.14ではフリースレッド版が既定のビルドになった[S1]。", GIL_JA, "ja")
    assert denied.outcome == "unsupported" and "既定のビルドではない" in denied.evidence
    assert _assess("Python 3.14ではフリースレッド版は既定のビルドではない[S1]。", GIL_JA, "ja").outcome != "unsupported"
    # 「なくなった」 (it is gone) is the status the headline gave: removed, where the page
    # says the GIL stays enabled. A verb's own negative (「少なくなった」, fewer) is no status.
    gone = _assess("GILはなくなった[S1]。", GIL_JA, "ja")
    assert (gone.outcome, gone.reason) == ("unsupported", "status") and "GILは既定で有効なままである" in gone.evidence
    assert _assess("GILの制約が少なくなった[S1]。", GIL_JA, "ja").reason != "status"


# JSQuAD v1.3 valid, page 日本共産党 (`research bench jsquad --sample 5 --seed 146`, the real 1.5B model): the draft's
# sentence in the page's words was held back as a denial, for 「ないし」 ("or") in the page's sentence.
BRANCHES_JA = ("職場にもとづいてつくられる支部は「職場支部」、地域で結集する支部は「居住支部」ないし「地域支部」、大学など学園の"
               "学生で組織されるものは「学園支部」などと呼ばれる。")


def test_a_japanese_or_between_two_nouns_is_no_denial():
    assert _assess("大学など学園の学生で組織される支部は「学園支部」と呼ばれる[S1]。", BRANCHES_JA, "ja").outcome == "supported"
    assert _assess("地域で結集する支部は「居住支部」と呼ばれる[S1]。", "地域で結集する支部は「居住支部」ないし「地域支部」と呼ばれる。",
                   "ja").outcome == "supported"
    denied = _assess("大学など学園の学生で組織される支部は「学園支部」と呼ばれない[S1]。", BRANCHES_JA, "ja")
    assert denied.outcome == "unsupported"
    # A verb's own 〜ないし (not … and) still denies.
    assert _assess("この装置は雨の日にも動く[S1]。", "この装置は雨の日には動かないし、風の日にも動かない。", "ja").outcome != "supported"


@pytest.mark.parametrize("claim, passage", [
    # "not only" affirms; another subject's denial says nothing of this one.
    ("SQLite is the default engine.", "SQLite is not only the default engine but also the smallest one."),
    ("PostgreSQL is the default backend.", "PostgreSQL is the default backend, while MySQL is not the default."),
    # A "no" that quantifies something else in the sentence (RAGTruth train, QA: a clean answer).
    ("Duhri Rupa was executed on Tuesday.", "Duhri Rupa was executed on Tuesday, with officials receiving no prior warning."),
    # A denial in another clause about another thing (RAGTruth train, QA: a clean answer's passage).
    ("Assets in the account grow tax-free.",
     "Roth IRA contributions are taxed but the assets in the account grow tax-free and qualified distributions are not taxed."),
    # A status the passage gives in one phrase, a denial in another (RAGTruth train, Data2txt: a clean
    # answer, once read as "recommended" denied).
    ("The fusilli tartufati, in particular, has been recommended by servers and has received rave reviews.",
     "The fusilli tartufati was recommended by our server and did not disappoint."),
])
def test_what_only_looks_like_a_denial_is_left_alone(claim, passage):
    assert clause_conflict(claim, passage, "en") is None


@pytest.mark.parametrize("claim, passage", [
    # RAGTruth train (a Summary of a CNN item on South Africa's Freedom Day, a clean answer).
    ("Google also changed its doodle to honor the day [S1].",
     "Freedom Day didn't go unnoticed by Google, who've changed the doodle to honor the day."),
    ("The gauge may register 110 to 140 degrees F while it is unplugged from the sender [S1].",
     "While the gauge is unplugged from the sender, it is not uncommon for it to register 110 to 140 degrees F."),
])
def test_a_denied_denial_affirms(claim, passage):
    assert _assess(claim, passage).outcome == "supported"


@pytest.mark.parametrize("claim, passage", [
    ("The design is unique to this model [S1].", "The design is not unique to this model."),
    ("The server understood the request [S1].", "The server did not understand the request."),
])
def test_a_denial_of_a_word_that_only_starts_with_un_still_denies(claim, passage):
    assert _assess(claim, passage).outcome != "supported"


def test_research_verify_without_a_judge_tells_the_statement_from_its_negation(run_cli, tmp_path):
    # The repro: the statement was "uncertain" and its negation "supported" — one step
    # apart, left to whoever judges. Now the checks decide both.
    source = tmp_path / "gil.txt"
    source.write_text(GIL, "utf-8")
    answer = tmp_path / "answer.md"
    answer.write_text("The free-threaded build is now the default build in Python 3.14 [S1].\n\n"
                      "The free-threaded build is not the default build in Python 3.14 [S1].\n", "utf-8")
    home = tmp_path / "home"
    home.mkdir()
    env = {"HOME": str(home), "RESEARCH_SESSIONS_DIR": str(tmp_path / "sessions"), "NO_COLOR": "1",
           "LANG": "en_US.UTF-8", "PATH": "/usr/bin:/bin"}
    result = run_cli(["verify", str(answer), "--source", str(source), "--no-judge", "--json"], env)
    claims = json.loads(result.stdout)["claims"]
    assert [(c["verdict"], c["state"]) for c in claims] == [("unsupported", "contradicted"), ("supported", "supported")]


def test_the_quote_shown_for_a_source_comes_from_that_source_only():
    # issue 48, item 3: under "What the sources say" a quote labelled [S1] (python_gil.md) read
    # «…fell to about 5 to 10 percent. The Hoei erup…», its second sentence from fuji_en.txt.
    index = EvidenceIndex([
        {"label": "S1", "markdown": "In the free-threaded build the overhead fell to about 5 to 10 percent.",
         "status": "ok", "language": "en", "title": "", "url": ""},
        {"label": "S2", "markdown": "The Hoei eruption of Mount Fuji began in 1707.", "status": "ok", "language": "en",
         "title": "", "url": ""},
    ])
    (claim,) = split_claims("The overhead fell to about 5 to 10 percent, and the Hoei eruption of Mount Fuji began in 1707.")
    assessment = assess_claim(claim, index)
    own = {"S1": "overhead fell", "S2": "Hoei eruption"}
    other = next(words for label, words in own.items() if label != assessment.evidence_label)
    assert own[assessment.evidence_label] in assessment.evidence and other not in assessment.evidence


# The real model's answer to "Is the GIL gone in Python 3.14?" against a document written for this
# test (Qwen2.5-Coder-1.5B, 2026-11-28, the run read in docs/benchmarks.md).
GIL_DOC = ("The global interpreter lock (GIL) lets only one thread run Python bytecode at a time. "
           "Python 3.13 introduced an experimental free-threaded build in which the GIL is disabled. "
           "In Python 3.14 the free-threaded build became officially supported, though it is still not the default build. "
           "The standard build of Python 3.14 still has the GIL enabled by default.")


@pytest.mark.parametrize("claim, kind", [
    ("Yes, the GIL is gone in Python 3.14.", "status"),  # the headline it wrote: gone, against enabled by default
    ("The GIL is removed in Python 3.14.", "status"),
    # The real 1.5B model's English for 「はい、Python 3.14ではGILはなくなりました」: the acronym spelled
    # out beside it is the passage's "GIL", not another subject.
    ("Yes, Python 3.14 has removed the Global Interpreter Lock (GIL).", "status"),
    ("Python 3.14 removed the GIL (global interpreter lock).", "status"),
    # What the passage says of the other build is no denial of this one: the real model wrote
    # this sentence, true word for word, and it was called contradicted before the guard.
    ("The standard build of Python 3.14 still has the GIL enabled by default, but the free-threaded build became "
     "officially supported in Python 3.14, though it is still not the default build.", None),
    ("In the free-threaded build the GIL is disabled.", None),
    # Its rerun (this session): a clause about the free-threaded build, held against the sentence
    # about the standard build, was "the opposite". Another subject: not decided here.
    ("The free-threaded build, introduced in Python 3.14, is not the default build and does not have the GIL "
     "enabled by default.", None),
])
def test_the_real_models_gil_answer(claim, kind):
    conflict = clause_conflict(claim, GIL_DOC, "en")
    assert (conflict.kind if conflict else None) == kind


@pytest.mark.parametrize(("claim", "outcome"), [
    # The real 1.5B model's PEP 703 answer (bench_answers.py --ollama, 2026-11-30) said the proposal
    # suggests removing the GIL; the page says it makes the GIL optional, which keeps it.
    ("PEP 703 proposes removing the GIL [S1].", "unsupported"),
    ("PEP 703 proposes making the GIL optional [S1].", "supported"),
])
def test_removing_and_making_optional_exclude_each_other(claim, outcome):
    passage = "PEP 703 proposes making the global interpreter lock (GIL) optional in CPython."
    found = _assess(claim, passage)
    assert found.outcome == outcome, found.reason


@pytest.mark.parametrize("claim", [
    # The real 1.5B model's Japanese GIL answer (2026-11-30), 「Python 3.14でGILは使用されません。」 as the
    # model translated it: kept "(not checked)" under the page's label, since "use" is not on the page.
    "Python 3.14 does not use the Global Interpreter Lock (GIL) [S1].",
    "Python 3.14 does not use the GIL [S1].",
])
def test_a_denied_use_is_read_against_the_page_s_has(claim):
    found = _assess(claim, FULL_GIL_PAGE)
    assert (found.outcome, found.reason) == ("uncertain", "negation")


def test_an_affirmed_use_is_not_made_supported_by_leaving_the_verb_out():
    found = _assess("Python 3.14 uses the GIL by default [S1].", FULL_GIL_PAGE)
    assert (found.outcome, found.reason) == ("uncertain", "partial_overlap")


# Opposites word for word (issue 44, item 1: increase/decrease, before/after, 増加/減少). The
# passages are written for this test, in the shape of RAGTruth's news summaries.
REPORT = ("Sales increased by 12 percent in 2023 compared with 2022. The company opened its first store before "
          "the merger. The new policy raised wages for part-time staff.")
REPORT_JA = "2023年の売上は前年比12%増加した。新しい制度で非正規社員の賃金が上昇した。"


@pytest.mark.parametrize("claim, language, passage, opposite", [
    ("Sales decreased by 12 percent in 2023 compared with 2022 [S1].", "en", REPORT, "decreased/increased"),
    ("The company opened its first store after the merger [S1].", "en", REPORT, "after/before"),
    ("The new policy lowered wages for part-time staff [S1].", "en", REPORT, "lowered/raised"),
    ("2023年の売上は前年比12%減少した[S1]。", "ja", REPORT_JA, None),  # decided by structure's Japanese reading
])
def test_a_word_replaced_by_its_opposite_is_contradicted_with_the_passage_shown(claim, language, passage, opposite):
    assessment = _assess(claim, passage, language)
    assert (assessment.outcome, assessment.reason) == ("unsupported", "contrast")
    if opposite:
        assert assessment.missing == [opposite]
        # The one sentence of the passage that says it the other way round is shown.
        sentences = [s if s.endswith(".") else s + "." for s in passage.split(". ")]
        assert assessment.evidence in sentences and opposite.split("/")[1] in assessment.evidence


@pytest.mark.parametrize("claim, language, passage", [
    ("Sales increased by 12 percent in 2023 compared with 2022 [S1].", "en", REPORT),
    ("The company opened its first store before the merger [S1].", "en", REPORT),
    ("2023年の売上は前年比12%増加した[S1]。", "ja", REPORT_JA),
])
def test_the_same_sentence_with_everything_equal_is_supported(claim, language, passage):
    assert _assess(claim, passage, language).outcome == "supported"


def test_an_opposite_in_another_clause_is_not_held_against_the_claim():
    # "rose in May, fell in June": the claim about May is not the June clause's opposite.
    passage = "Prices rose in May, and prices fell in June."
    assert _assess("Prices rose in May [S1].", passage).outcome != "unsupported"


def test_a_not_in_another_phrase_of_the_passage_does_not_hold_an_english_claim_back():
    # The shape of a CNN sentence in RAGTruth train (a clean summary sentence left "negation"):
    # the "never" belongs to the relative clause, not to what the claim says.
    passage = ("After the transfer of the funds, the kidnappers, who never called themselves a militia, "
               "began demanding a ransom for the engineer.")
    assert _assess("After the transfer of the funds, the kidnappers began demanding a ransom for the engineer [S1].",
                   passage).outcome == "supported"
    # The claim's own phrase denied: still held back (or decided against), never supported.
    assert _assess("After the transfer of the funds, the kidnappers did not demand a ransom for the engineer [S1].",
                   passage).outcome != "supported"


def test_a_second_predicate_joined_by_and_is_a_statement_of_the_same_subject():
    # The real 1.5B model's GIL answer this session, kept "(not checked)" in the Summary: "… is the
    # default build and does not have the GIL enabled by default". Its first statement, its subject
    # read past the relative clause, is what the page denies.
    claim = ("The free-threaded CPython build, which was introduced in Python 3.14, is the default build and does "
             "not have the GIL enabled by default.")
    assert conjoined_statements(claim) == [
        "The free-threaded CPython build, which was introduced in Python 3.14, is the default build",
        "The free-threaded CPython build does not have the GIL enabled by default."]
    conflict = clause_conflict(claim, FULL_GIL_PAGE, "en")
    assert conflict is not None and conflict.kind == "negation" and "still not the default build" in conflict.quote
    # A list's last item is no statement; a verb the subject cannot be read before leaves it whole.
    assert conjoined_statements("Cats and dogs are pets.") == [] and conjoined_statements("Ollama runs locally and is free.") == []


def test_a_claim_joining_statements_is_read_as_each_of_them_for_a_status():
    # Issue 44, item 7: Qwen2.5-Coder-1.5B's GIL answer, against the page of that question.
    from research.modules.text.polarity import conjoined_statements

    page = ("The free-threaded build became officially supported in Python 3.14, though it is still not the "
            "default build. The standard build of Python 3.14 still has the GIL enabled by default.")
    claim = ("The free-threaded build of Python 3.14 is the default build, and it has the GIL disabled, allowing "
             "threads to run Python code in parallel on several cores.")
    assert conjoined_statements(claim) == [
        "The free-threaded build of Python 3.14 is the default build",
        "The free-threaded build of Python 3.14 has the GIL disabled, allowing threads to run Python code in "
        "parallel on several cores."]
    conflict = clause_conflict(claim, page, "en")
    assert conflict is not None and conflict.kind == "negation" and "still not the default build" in conflict.quote
    # Its second statement, said of the free-threaded build, is not the standard build's "enabled".
    assert clause_conflict("The free-threaded build has the GIL disabled, and it is officially supported.", page,
                           "en") is None
    # A list's last item is no statement; a pronoun with no subject to give it is not guessed.
    assert conjoined_statements("Python 3.14 ships the free-threaded build, the JIT, and the new REPL.") == []
    assert conjoined_statements("Officially supported since 3.14, and it is not the default.") == []
    # A plain "not" is not read this way (RAGTruth train: 4 of 5 such readings were wrong).
    assert clause_conflict("These contributions are not counted towards income, and all gains are tax-deferred.",
                           "Contributions are counted towards income in some plans. All gains are tax-deferred.",
                           "en") is None


def test_a_japanese_claim_joining_statements_is_read_as_each_of_them_for_a_status():
    from research.modules.text.polarity import conjoined_statements

    page = "フリースレッド版ビルドはPython 3.14で正式にサポートされたが、まだ既定のビルドではない。"
    claim = "フリースレッド版ビルドはPython 3.14で既定のビルドになり、GILが無効になっている。"
    assert conjoined_statements(claim, "ja") == ["フリースレッド版ビルドはPython 3.14で既定のビルドになり",
                                                 "フリースレッド版ビルドはGILが無効になっている。"]
    conflict = clause_conflict(claim, page, "ja")
    assert conflict is not None and conflict.quote == page
    # A second statement with a topic of its own keeps it; one with no topic to give is not guessed.
    assert conjoined_statements("富士山は活火山で、最後の噴火は1707年です。", "ja") == [
        "富士山は活火山で", "最後の噴火は1707年です。"]
    assert conjoined_statements("正式にサポートされ、既定のビルドになった。", "ja") == []


# JSQuAD v1.3 valid, 国際連合平和維持活動 (a113522p14): the page's own sentence, its denial in its second clause.
PRESS_JA = ("# 国際連合平和維持活動\n\n国連広報の原則的な方針としては報道機関が本来の役割を果たして活動・関心ある事項を観察することに、"
            "可能な限り便宜供与を行うこととしている。ただし報道機関が危険地帯への侵入には警告は行うが、それ以上の措置は行わない。"
            "また緩衝地帯における撮影は紛争当事者の作戦・兵力・装備・陣地の秘匿の観点から厳格に禁止する。")


def test_a_denial_in_the_clause_that_says_less_of_the_claim_is_matched_with_the_pages():
    # The real 1.5B model copied it word for word; it was "the source says the opposite" (negation),
    # kept in the answer marked (未確認): the clause with most of its words is the first, its denial
    # is in the second.
    kept = _assess("ただし報道機関が危険地帯への侵入には警告は行うが、それ以上の措置は行わない[S1]。", PRESS_JA, "ja")
    assert kept.outcome == "supported", kept.reason
    for turned in ("ただし報道機関が危険地帯への侵入には警告は行うが、それ以上の措置も行う[S1]。",
                   "ただし報道機関が危険地帯への侵入には警告を行わない[S1]。"):
        assert _assess(turned, PRESS_JA, "ja").outcome != "supported", turned


def test_a_status_word_in_a_claim_that_ends_in_a_which_clause_is_read_in_its_main_clause():
    # The real 1.5B model's GIL answer (research "Is the GIL gone in Python 3.14?" --docs, this
    # session): the trailing clause about the build hid "experimental" from the alignment, and the
    # sentence was supported by the quick checks against a page that says 3.14 made it official.
    page = ("PEP 703 proposed making the global interpreter lock (GIL) optional in CPython. The Python Steering "
            "Council accepted PEP 703 in 2023. Python 3.13, released in October 2024, ships an experimental "
            "free-threaded build.\n\nThe free-threaded build became officially supported in Python 3.14, though it "
            "is still not the default build. The standard build of Python 3.14 still has the GIL enabled by "
            "default.\n\nIn the free-threaded build the GIL is disabled, so threads can run Python code in "
            "parallel on several cores.")
    wrong = _assess("Python 3.14 ships an experimental free-threaded build, which disables the GIL by default [S1].",
                    page)
    assert (wrong.outcome, wrong.reason) == ("unsupported", "status")
    assert _assess("Python 3.13 ships an experimental free-threaded build, which disables the GIL [S1].",
                   page).outcome == "supported"


def test_a_word_only_the_heading_holds_does_not_keep_a_status_conflict_from_being_seen():
    # The real 1.5B model's GIL answer at ce4bd01: "CPython" is the page's heading's ("# Free-threaded
    # CPython"), not its sentences', and kept the claim from lining up with «…became officially
    # supported in Python 3.14»; the choice judge then called it supported.
    page = ("# Free-threaded CPython\n\nPython 3.13, released in October 2024, ships an experimental free-threaded "
            "build.\n\nThe free-threaded build became officially supported in Python 3.14, though it is still not "
            "the default build.")
    wrong = _assess("The free-threaded CPython build introduced in Python 3.14 ships an experimental free-threaded "
                    "build, which disables the GIL by default [S1].", page)
    assert (wrong.outcome, wrong.reason) == ("unsupported", "status")
    assert _assess("The free-threaded CPython build became officially supported in Python 3.14 [S1].",
                   page).outcome == "supported"


def test_a_heading_word_that_tells_the_claim_s_thing_from_the_passage_s_stays():
    # The real 1.5B model on the GIL question (`--docs` the GIL page, 2026-11-30): its true "The standard build
    # of Python 3.14 still has the GIL enabled by default, but it is disabled in the free-threaded build, …"
    # was contradicted: "free-threaded" is also the heading's word, and taken out of the claim it left "the
    # GIL is disabled in the build" against «The standard build … still has the GIL enabled by default».
    page = ("# Free-threaded CPython\n\nIn Python 3.14 the free-threaded build became officially supported, though it "
            "is still not the default build. The standard build of Python 3.14 still has the GIL enabled by "
            "default.\n\nIn the free-threaded build the GIL is disabled, so threads can run Python code in parallel "
            "on several cores.")
    true = ("The standard build of Python 3.14 still has the GIL enabled by default, but it is disabled in the "
            "free-threaded build, allowing threads to run Python code in parallel on several cores [S1].")
    assert _assess(true, page).outcome == "supported"
    for false in ("The standard build of Python 3.14 has the GIL disabled by default [S1].",
                  "The GIL is enabled in the free-threaded build [S1].",
                  "The free-threaded build of Python 3.14 is the default build [S1]."):
        assert _assess(false, page).outcome == "unsupported", false


# PubMedQA 26449554's results (the bench's page, in ../shared/bench): a relation looked for and not found.
CPAP_RESULTS = ("Fifty-four obese individuals had a median 95th centile autoCPAP pressure of 11.8 cmH2O. We found no "
                "significant correlation between autoCPAP pressure and neck circumference, waist circumference or BMI. "
                "There was a moderate correlation between autoCPAP pressure and OSA severity (AHI r = 0.34, p = 0.02).")


@pytest.mark.parametrize("claim", [
    "BMI influences autoCPAP pressure [S1].",
    "AutoCPAP pressure is correlated with waist circumference [S1].",
    "There is a significant correlation between autoCPAP pressure and BMI [S1].",
])
def test_a_relation_the_study_found_none_of_is_contradicted(claim):
    # The real 1.5B model (`research bench pubmedqa --sample 4 --seed 69`) wrote that obesity influences the
    # response, kept "not checked": the study found no correlation with any of its measures of obesity.
    assessment = _assess(claim, CPAP_RESULTS)
    assert (assessment.outcome, assessment.reason) == ("unsupported", "negation")
    assert "no significant correlation between autoCPAP pressure and" in assessment.evidence


@pytest.mark.parametrize("claim", [
    "There was a moderate correlation between autoCPAP pressure and OSA severity [S1].",  # found
    "Neck circumference is not associated with autoCPAP pressure [S1].",  # says the same
])
def test_a_relation_found_or_denied_alike_is_not_contradicted(claim):
    assert _assess(claim, CPAP_RESULTS).outcome != "unsupported"


def test_a_relation_found_in_part_of_the_study_is_not_contradicted_by_its_absence_in_another():
    page = ("No significant association between coffee intake and blood pressure was found in men. A significant "
            "association between coffee intake and blood pressure was found in women.")
    assert _assess("Coffee intake is associated with blood pressure [S1].", page).outcome != "unsupported"
