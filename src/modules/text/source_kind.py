"""What kind of source a document is, from its address and title alone (no network).

Kinds, most authoritative first: ``official`` (governments, public bodies),
``academic`` (universities, journals, preprint servers, DOIs), ``reference``
(encyclopedias, dictionaries, documentation), ``news``, ``company``, ``unknown``,
``blog``, ``forum``. The kind is a hint for the reader and a tie-breaker for ranking
evidence, never a verdict on a page: a blog can be right and a ministry wrong.

Known hosts are checked before top-level domains, so ``jstage.jst.go.jp`` (journals on a
government domain) is academic and ``ncbi.nlm.nih.gov`` (PubMed) too.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

KINDS = ("official", "academic", "reference", "news", "company", "unknown", "blog", "forum")
AUTHORITY = {kind: rank for rank, kind in enumerate(KINDS)}  # lower ranks first in ties

# Hosts (and their sub-domains) whose kind is known. Checked in this order: the first
# match wins, so a forum on a news site's domain is a forum.
_HOSTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("forum", (
        "reddit.com", "stackexchange.com", "stackoverflow.com", "superuser.com", "serverfault.com",
        "askubuntu.com", "mathoverflow.net", "quora.com", "chiebukuro.yahoo.co.jp", "oshiete.goo.ne.jp",
        "okwave.jp", "5ch.net", "2ch.net", "2ch.sc", "news.ycombinator.com", "teratail.com",
        "discuss.python.org", "answers.microsoft.com", "komachi.yomiuri.co.jp", "bbs.kakaku.com",
    )),
    ("blog", (
        "medium.com", "substack.com", "blogspot.com", "wordpress.com", "hatenablog.com", "hatenablog.jp",
        "hateblo.jp", "hatenadiary.jp", "hatenadiary.org", "hatenadiary.com", "note.com", "note.mu", "ameblo.jp",
        "qiita.com", "zenn.dev", "dev.to", "tumblr.com", "livedoor.blog", "blog.livedoor.jp", "blog.fc2.com",
        "fc2.com", "hashnode.dev", "blog.jp", "seesaa.net", "exblog.jp", "blog.goo.ne.jp", "jugem.jp",
    )),
    ("academic", (
        "arxiv.org", "doi.org", "dx.doi.org", "biorxiv.org", "medrxiv.org", "ssrn.com", "jstor.org",
        "openreview.net", "aclanthology.org", "semanticscholar.org", "scholar.google.com", "researchgate.net",
        "ncbi.nlm.nih.gov", "pubmed.ncbi.nlm.nih.gov", "europepmc.org", "jstage.jst.go.jp", "cir.nii.ac.jp",
        "ci.nii.ac.jp", "link.springer.com", "springer.com", "sciencedirect.com", "nature.com", "science.org",
        "onlinelibrary.wiley.com", "ieeexplore.ieee.org", "dl.acm.org", "plos.org", "journals.plos.org",
        "pnas.org", "cell.com", "thelancet.com", "nejm.org", "bmj.com", "frontiersin.org", "mdpi.com",
        "tandfonline.com", "academic.oup.com", "cambridge.org", "papers.nips.cc", "proceedings.mlr.press",
    )),
    ("reference", (
        "wikipedia.org", "wikimedia.org", "wiktionary.org", "wikibooks.org", "britannica.com", "kotobank.jp",
        "weblio.jp", "dictionary.com", "merriam-webster.com", "oed.com", "dictionary.cambridge.org",
        "developer.mozilla.org", "docs.python.org", "readthedocs.io", "readthedocs.org", "w3.org", "ietf.org",
        "rfc-editor.org", "iso.org", "unicode.org", "japanknowledge.com", "worldatlas.com",
    )),
    ("news", (
        "nhk.or.jp", "asahi.com", "yomiuri.co.jp", "mainichi.jp", "nikkei.com", "sankei.com", "jiji.com",
        "kyodonews.jp", "kyodonews.net", "japantimes.co.jp", "tokyo-np.co.jp", "news.yahoo.co.jp",
        "news.livedoor.com", "itmedia.co.jp", "impress.co.jp", "toyokeizai.net", "bunshun.jp", "nikkansports.com",
        "bbc.co.uk", "bbc.com", "reuters.com", "apnews.com", "nytimes.com", "theguardian.com",
        "washingtonpost.com", "cnn.com", "bloomberg.com", "ft.com", "wsj.com", "economist.com", "npr.org",
        "aljazeera.com", "afp.com", "lemonde.fr", "spiegel.de", "abc.net.au", "cbc.ca", "nbcnews.com",
        "cbsnews.com", "foxnews.com", "usatoday.com", "latimes.com", "techcrunch.com", "theverge.com",
        "wired.com", "arstechnica.com", "news.google.com", "axios.com", "politico.com",
    )),
    ("official", (
        "europa.eu", "un.org", "who.int", "oecd.org", "worldbank.org", "imf.org", "unesco.org", "wto.org",
        "jma.go.jp", "data.go.jp",
    )),
)
_TLD_KINDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    # gov, gov.uk, go.jp, lg.jp (local governments), gouv.fr, gob.mx, gc.ca, govt.nz, mil, int.
    ("official", re.compile(r"(^|\.)(gov|mil|int|go\.jp|lg\.jp|gouv\.[a-z]{2}|gob\.[a-z]{2}|gc\.ca|govt\.nz"
                            r"|gov\.[a-z]{2}|go\.kr|gov\.cn|bund\.de)$")),
    ("academic", re.compile(r"(^|\.)(edu|edu\.[a-z]{2}|ac\.[a-z]{2}|ac\.jp|uni-[a-z-]+\.de)$")),
    # co.jp is only given to companies registered in Japan.
    ("company", re.compile(r"(^|\.)co\.jp$")),
)
_HOST_PREFIXES = (("news", ("news.",)), ("blog", ("blog.", "blogs.")), ("forum", ("forum.", "forums.", "community.", "discourse.", "bbs.")),
                  ("reference", ("docs.", "wiki.")))
_PATH_HINTS = (("forum", re.compile(r"^/(forums?|community|questions|bbs|discussions?)(/|$)")),
               ("blog", re.compile(r"^/(blogs?|diary|entry)(/|$)")),
               ("news", re.compile(r"^/(news|press|articles/\d{4})(/|$)")))
_TITLE_HINTS = (
    ("forum", re.compile(r"知恵袋|教えて!?goo|掲示板|質問箱|\bforums?\b|stack overflow|\bQ&A\b|Q＆A", re.IGNORECASE)),
    ("academic", re.compile(r"journal of|proceedings of|\bvol\.\s*\d|論文|紀要|学会誌|学位論文|\bthesis\b|arXiv", re.IGNORECASE)),
    ("official", re.compile(r"省|庁|内閣府|都庁|県庁|市役所|官公庁|ministry of|government of|\bdepartment of\b", re.IGNORECASE)),
    ("news", re.compile(r"ニュース|新聞|\bnews\b|通信社", re.IGNORECASE)),
    ("blog", re.compile(r"ブログ|\bblog\b|日記", re.IGNORECASE)),
    ("company", re.compile(r"株式会社|有限会社|公式サイト|公式ホームページ|\binc\.|\bcorporation\b|\bltd\.?\b|\bllc\b|official site",
                           re.IGNORECASE)),
)


def _host_matches(host: str, path: str, known: str) -> bool:
    domain, _, known_path = known.partition("/")
    return (host == domain or host.endswith("." + domain)) and (not known_path or path.startswith("/" + known_path))


def source_kind(url: str, title: str = "") -> str:
    """The kind of the source at ``url`` (one of ``KINDS``); ``unknown`` when nothing tells."""
    parts = urlsplit(url or "")
    host = (parts.hostname or "").lower().removeprefix("www.")
    path = (parts.path or "/").lower()
    if host:
        for kind, hosts in _HOSTS:
            if any(_host_matches(host, path, known) for known in hosts):
                return kind
        for kind, pattern in _TLD_KINDS[:2]:
            if pattern.search(host):
                return kind
        for kind, prefixes in _HOST_PREFIXES:
            if host.startswith(prefixes):
                return kind
        for kind, pattern in _PATH_HINTS:
            if pattern.search(path):
                return kind
    for kind, pattern in _TITLE_HINTS:
        if title and pattern.search(title):
            return kind
    if host and _TLD_KINDS[2][1].search(host):
        return "company"
    return "unknown"


def authority(kind: str | None) -> int:
    """Rank for ties: 0 is the most authoritative kind; unknown kinds rank with ``unknown``."""
    return AUTHORITY.get(kind or "unknown", AUTHORITY["unknown"])
