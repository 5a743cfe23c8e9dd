"""The bench's question sets, read from their original file formats, and their pages.

A set file comes from the user (``--data``): it is read as data, never trusted. Whatever is
wrong with it (not JSON, not the set's shape, an item without its gold answer) is one
``UsageError`` naming the file and the first fault, before anything runs.

- **pubmedqa**: PubMedQA PQA-L (``ori_pqal.json``'s format): an object of PMID -> item with
  ``QUESTION``, ``CONTEXTS`` (the abstract's passages, with their ``LABELS``) and
  ``final_decision`` (yes / no / maybe). One page per item: its contexts under their labels
  and its MeSH terms, as the paper's PubMed page shows them. The page's title is the PMID,
  not the question: PubMedQA's questions are the papers' titles, and a title that repeats
  the question would make retrieval trivial. The conclusion (``LONG_ANSWER``) is not on the
  page either: PubMedQA's reasoning-required setting, which the set is graded in.
- **jsquad**: JSQuAD (SQuAD v1 format): ``data`` -> articles -> ``paragraphs`` -> ``context``
  and ``qas`` (``question``, ``answers[].text``). One page per paragraph; JSQuAD's context
  starts with the article's title and `` [SEP] ``, which becomes the page's heading.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from dataclasses import dataclass, field
from pathlib import Path

from research.modules.core.errors import UsageError
from research.modules.core.language import Language

SETS = ("pubmedqa", "jsquad")
SET_LANGUAGE: dict[str, Language] = {"pubmedqa": "en", "jsquad": "ja"}
DECISIONS = ("yes", "no", "maybe")
# A set file larger than this is not one of these sets (JSQuAD's validation split is 3 MB).
MAX_SET_BYTES = 256 * 1024 * 1024
_SAFE_ID = re.compile(r"[^A-Za-z0-9_.-]+")


@dataclass(frozen=True)
class Page:
    page_id: str  # also the corpus file's name (without .md)
    title: str
    text: str

    def markdown(self) -> str:
        return f"# {self.title}\n\n{self.text}\n"


@dataclass(frozen=True)
class BenchItem:
    item_id: str
    question: str
    gold: tuple[str, ...]  # pubmedqa: (final_decision,); jsquad: the answer spans
    page_id: str  # the page that answers it
    gold_text: str = ""  # pubmedqa: LONG_ANSWER (shown beside a wrong answer)


@dataclass
class BenchSet:
    name: str
    language: Language
    items: list[BenchItem] = field(default_factory=list)
    pages: list[Page] = field(default_factory=list)
    digest: str = ""  # sha256 of the file: a bench over another file is another bench


def load_set(name: str, path: Path) -> BenchSet:
    """The set NAME from the file PATH (usage errors: unknown set, no file, malformed file)."""
    if name not in SETS:
        raise UsageError("bench.unknown_set", name=name[:60], sets=", ".join(SETS))
    data, digest = _read_json(path)
    bench = _pubmedqa(data, path) if name == "pubmedqa" else _jsquad(data, path)
    bench.digest = digest
    if not bench.items:
        raise UsageError("bench.malformed", path=str(path), reason="no questions")
    return bench


def _read_json(path: Path) -> tuple[object, str]:
    try:
        if not path.is_file():
            raise UsageError("bench.no_file", path=str(path))
        if path.stat().st_size > MAX_SET_BYTES:
            raise UsageError("bench.malformed", path=str(path), reason=f"larger than {MAX_SET_BYTES // 2**20} MiB")
        raw = path.read_bytes()
    except OSError as exc:
        raise UsageError("bench.no_file", path=str(path)) from exc
    try:
        return json.loads(raw.decode("utf-8-sig")), hashlib.sha256(raw).hexdigest()
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise UsageError("bench.malformed", path=str(path), reason=f"not JSON ({str(exc)[:80]})") from None


def _fault(path: Path, reason: str) -> UsageError:
    return UsageError("bench.malformed", path=str(path), reason=reason[:200])


def _pubmedqa(data: object, path: Path) -> BenchSet:
    if not isinstance(data, dict) or not data:
        raise _fault(path, "expected PubMedQA's object of PMID -> item")
    bench = BenchSet("pubmedqa", SET_LANGUAGE["pubmedqa"])
    for pmid, item in data.items():
        where = f"item {str(pmid)[:20]}"
        if not isinstance(item, dict):
            raise _fault(path, f"{where}: not an object")
        question, contexts = item.get("QUESTION"), item.get("CONTEXTS")
        decision = item.get("final_decision")
        if not isinstance(question, str) or not question.strip():
            raise _fault(path, f"{where}: no QUESTION")
        if not isinstance(contexts, list) or not contexts or not all(isinstance(c, str) for c in contexts):
            raise _fault(path, f"{where}: CONTEXTS is not a list of texts")
        if decision not in DECISIONS:
            raise _fault(path, f"{where}: final_decision is not yes, no or maybe")
        given_labels, given_meshes, given_answer = item.get("LABELS"), item.get("MESHES"), item.get("LONG_ANSWER")
        labels: list[object] = given_labels if isinstance(given_labels, list) else []
        parts = []
        for n, context in enumerate(contexts):
            label = labels[n] if n < len(labels) else ""
            label = label if isinstance(label, str) else ""
            parts.append(f"## {label.strip().title()}\n\n{context.strip()}" if label.strip() else context.strip())
        meshes: list[object] = given_meshes if isinstance(given_meshes, list) else []
        terms = [term.strip() for term in meshes if isinstance(term, str) and term.strip()]
        if terms:  # as the paper's PubMed page lists them
            parts.append("## MeSH terms\n\n" + "; ".join(terms))
        page_id = "pubmedqa-" + _SAFE_ID.sub("_", str(pmid))[:40]
        bench.pages.append(Page(page_id, f"PubMed {str(pmid)[:40]}", "\n\n".join(parts)))
        long_answer = given_answer if isinstance(given_answer, str) else ""
        bench.items.append(BenchItem(str(pmid), question.strip(), (decision,), page_id, long_answer))
    return bench


def _jsquad(data: object, path: Path) -> BenchSet:
    articles = data.get("data") if isinstance(data, dict) else None
    if not isinstance(articles, list) or not articles:
        raise _fault(path, "expected SQuAD's {\"data\": [articles]}")
    bench = BenchSet("jsquad", SET_LANGUAGE["jsquad"])
    for a, article in enumerate(articles):
        paragraphs = article.get("paragraphs") if isinstance(article, dict) else None
        if not isinstance(paragraphs, list):
            raise _fault(path, f"article {a}: no paragraphs")
        article_title = article.get("title") if isinstance(article.get("title"), str) else ""
        for p, paragraph in enumerate(paragraphs):
            where = f"article {a}, paragraph {p}"
            context = paragraph.get("context") if isinstance(paragraph, dict) else None
            qas = paragraph.get("qas") if isinstance(paragraph, dict) else None
            if not isinstance(context, str) or not context.strip() or not isinstance(qas, list):
                raise _fault(path, f"{where}: no context or qas")
            title, _sep, text = context.partition(" [SEP] ")
            if not _sep:
                title, text = article_title, context
            page_id = f"jsquad-{a:03d}-{p:03d}"
            bench.pages.append(Page(page_id, title.strip() or article_title or page_id, text.strip()))
            for qa in qas:
                question = qa.get("question") if isinstance(qa, dict) else None
                answers = qa.get("answers") if isinstance(qa, dict) else None
                if not isinstance(question, str) or not question.strip() or not isinstance(answers, list):
                    raise _fault(path, f"{where}: a question without its text or answers")
                if qa.get("is_impossible"):
                    continue  # no span answers it: nothing to grade
                spans = tuple(dict.fromkeys(ans["text"].strip() for ans in answers
                                            if isinstance(ans, dict) and isinstance(ans.get("text"), str)
                                            and ans["text"].strip()))
                if not spans:
                    raise _fault(path, f"{where}: question {str(qa.get('id'))[:30]} has no answer text")
                item_id = str(qa.get("id") or f"{page_id}-q{len(bench.items)}")
                bench.items.append(BenchItem(item_id, question.strip(), spans, page_id))
    return bench


def sample(items: list[BenchItem], n: int | None, seed: int) -> list[BenchItem]:
    """N items drawn with SEED (the same N and seed draw the same questions), in file order."""
    if n is None or n >= len(items):
        return list(items)
    chosen = set(random.Random(seed).sample(range(len(items)), n))
    return [item for index, item in enumerate(items) if index in chosen]


def write_corpus(pages: list[Page], folder: Path) -> Path:
    """Every page of the set as a Markdown file in FOLDER (kept for a resume). A plain write, not
    the durable one: the files are made again from the set file whenever one differs."""
    folder.mkdir(parents=True, exist_ok=True)
    for page in pages:
        target = folder / f"{page.page_id}.md"
        text = page.markdown()
        if not target.is_file() or target.read_text("utf-8") != text:
            target.write_text(text, "utf-8")
    return folder
