"""Issue 21: the cheap checks see who did what, hedges and numbers in the passage that
supports the claim, and never drop a sentence that says something.

Japanese pairs marked JNLI/JSICK/JaNLI are copied from ``../shared/ja-nli/dev.jsonl``
(CC BY-SA 4.0: JGLUE's JNLI, JSICK, JaNLI; attribution in that folder's README); the
rest are written for these tests.
"""

import pytest

from research.modules.text.claims import split_claims
from research.modules.text.evidence import EvidenceIndex, assess_claim
from research.modules.text.numbers import extract_numbers


def _assess(claim: str, source: str):
    index = EvidenceIndex([{"label": "S1", "status": "ok", "markdown": source}])
    (parsed,) = split_claims(claim)
    return assess_claim(parsed, index)


def _outcome(claim: str, source: str) -> str:
    return _assess(claim, source).outcome


# --- defects named in the issue -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "figure"),
    [("発見は（2020年）の報告による。", "2020年"), ("Catalogue number (3287).", "3287"),
     ("沸点は高い（3287 °Cの報告もあり）。", "3287 °c")],
)
def test_digits_in_brackets_are_data_not_citations(text, figure):
    assert figure in [m.text for m in extract_numbers(text)]


def test_a_bracketed_year_in_the_source_supports_the_claim():
    source = "この遺跡は（2020年）の調査で見つかった。"
    assert _outcome("この遺跡は2020年の調査で見つかった[S1]。", source) != "unsupported"


def test_a_sentence_after_hai_is_a_claim_and_is_checked():
    claims = split_claims("はい、日本で蝗害が発生したことはありません[S1]。")
    assert [c.plain for c in claims] == ["はい、日本で蝗害が発生したことはありません。"]
    source = "日本でも江戸時代に蝗害が発生し、各地で大きな被害が出たと記録されている。"
    assert _outcome("はい、日本で蝗害が発生したことはありません[S1]。", source) != "supported"


@pytest.mark.parametrize("draft", ["はい、承知しました。", "Sure! Here is the summary:", "Sure, I can help with that.",
                                   "(Passage 1)", "(Passage 2, Step 3)"])
def test_assent_and_pointers_alone_are_not_claims(draft):
    assert split_claims(draft) == []


def test_yes_before_a_statement_keeps_the_statement():
    assert [c.plain for c in split_claims("Yes, it erupted in 1707 [S1].")] == ["Yes, it erupted in 1707."]
