"""What each model call is for: declared by the caller, sent to Ollama with the request.

The role travels as an HTTP header (``ROLE_HEADER``), which Ollama's API neither reads nor
rejects, on every call alike (free text, structured, a checker's one word). Ollama's other
places were worse: an unknown ``options`` key is logged by the server as an invalid option on
each call, the official client drops unknown message fields, and a schema ``title`` exists only
for structured calls. What reads it is a stand-in for Ollama (tests/fixtures/fake_ollama.py),
which answers by the role and the schema asked for rather than by a prompt's wording, so a
reworded prompt still gets the answer its call is for; and a proxy or log may show it.
"""

from __future__ import annotations

from enum import StrEnum

ROLE_HEADER = "X-Research-Role"


class ModelRole(StrEnum):
    PLAN = "plan"  # the research plan or the search queries of a question
    DRAFT = "draft"  # the streamed answer from the evidence
    REVISE = "revise"  # sentences the judge did not support, redrafted from the evidence
    REWRITE = "rewrite"  # one sentence rewritten to keep the style rules
    TRANSLATE = "translate"  # sentences in the wrong language, put into the answer's
    JUDGE = "judge"  # claims judged against their passages by the drafting model
    COMPARE = "compare"  # two sources' values: a real disagreement or not
    FOLLOW_UP = "follow_up"  # search queries for claims the sources did not settle
    CHECK = "check"  # a grounded checker: one claim against one document
    CHOOSE = "choose"  # the drafting model choosing which of a claim and its negation a passage supports
    GUARD = "guard"  # the guard model: one passage's jailbreak risk
