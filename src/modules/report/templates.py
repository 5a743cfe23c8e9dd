"""Localized words of the report templates (report.md and report.pdf), ja and en.

Kept apart from the i18n message catalog: these are headings and labels of a document,
not messages to the user, and both renderers share them through ``ReportDocument``.
"""

from __future__ import annotations

from research.modules.core.i18n import t
from research.state.models import VerdictState

REPORT_LABELS: dict[str, dict[str, str]] = {
    "en": {
        "title": "Research report",
        "question": "Question",
        "date": "Date",
        "model": "Model",
        "session": "Session",
        "parent_session": "Follow-up of session",
        "summary": "Summary",
        "findings": "Findings",
        "verification": "Verification",
        "method": "Method",
        "sources": "Sources",
        "also_read": "Also read",
        "notes": "Notes",
        "disagreements": "Where the sources disagree",
        "versus": "vs",
        "kind": "type",
        "kind_official": "official",
        "kind_academic": "academic",
        "kind_reference": "reference",
        "kind_news": "news",
        "kind_company": "company",
        "kind_unknown": "unknown",
        "kind_blog": "blog",
        "kind_forum": "forum",
        # verification
        "verification_not_run": "Verification did not run for this report.",
        # The verdicts' own names (supported, not checked, …) come from i18n's verdict.*: see below.
        "claims": "Claims",
        # What the figure measures: supported claims out of all claims (the counts above it).
        "supported_ratio": "Share supported",
        "loops": "Verification loops",
        "invalid_citations_removed": "Invalid citations removed",
        "unsupported_claims": "Claims without full support",
        "contested": "{supported} by its source, but another source gives a different value",
        # Why a claim left the answer (content.py's _REMOVED_LABELS), each under its state's name.
        "removed": "{contradicted} (taken out of the answer: the cited source says otherwise)",
        "removed_not_supported": "{not_supported} (taken out of the answer)",
        "removed_partly": "{partly_supported} (taken out of the answer)",
        "removed_uncited": "{partly_supported} (taken out of the answer: it cites no source)",
        # The same, for a claim no judge decided: named as the answer and the table name it.
        "removed_partly_unchecked": "{not_checked} (taken out of the answer)",
        "removed_uncited_unchecked": "{not_checked} (taken out of the answer: it cites no source)",
        "removed_unchecked": "{not_checked} (taken out of the answer: its passage does not give its figure, or what "
                             "it speaks of)",
        "removed_question_restated": "{not_checked} (taken out of the answer: it only says the yes/no question back "
                                     "as its answer)",
        "removed_said_both_ways": "{not_checked} (taken out of the answer: the draft also said its opposite)",
        "removed_language": "Taken out of the answer: not in the report's language, and no rewrite was usable",
        # A claim checked as its translation into its sources' language (their words are another language's).
        "checked_as": "checked as «{text}»",
        "follow_up_queries": "Follow-up searches",
        "evidence": "What the sources say for each supported claim",
        "count": "Count",
        "item": "Item",
        # method
        "engines": "Search engines",
        "queries": "Queries",
        "sources_read": "Sources read",
        "sources_failed": "Sources that could not be read",
        "sources_left_out": "Sources left out (--since)",
        "sandbox": "Parser sandbox",
        "none": "none",
        # sources
        "language": "language",
        "retrieved": "retrieved",
        "failed": "⚠ could not be read",
        "left_out": "⊘ left out",
        "suspicious": "⚠ suspicious text removed",
        "no_sources": "No sources were found.",
        "untitled": "(untitled)",
        "page": "Page {number}",
    },
    "ja": {
        "title": "調査レポート",
        "question": "質問",
        "date": "日付",
        "model": "モデル",
        "session": "セッション",
        "parent_session": "元のセッション",
        "summary": "結論",
        "findings": "調査結果",
        "verification": "検証",
        "method": "方法",
        "sources": "出典",
        "also_read": "参考にしたその他の資料",
        "notes": "注記",
        "disagreements": "資料間で食い違う点",
        "versus": "対",
        "kind": "種別",
        "kind_official": "公的機関",
        "kind_academic": "学術",
        "kind_reference": "事典・資料",
        "kind_news": "報道",
        "kind_company": "企業",
        "kind_unknown": "不明",
        "kind_blog": "ブログ",
        "kind_forum": "掲示板・Q&A",
        "verification_not_run": "このレポートでは検証が実行されませんでした。",
        "claims": "主張",
        "supported_ratio": "裏付けありの割合",
        "loops": "検証ループ回数",
        "invalid_citations_removed": "削除した無効な引用",
        "unsupported_claims": "十分な裏付けのない主張",
        "contested": "{supported}（ただし別の出典は異なる値を示す）",
        "removed": "{contradicted}（本文から削除。引用した出典は異なる内容を述べている）",
        "removed_not_supported": "{not_supported}（本文から削除）",
        "removed_partly": "{partly_supported}（本文から削除）",
        "removed_uncited": "{partly_supported}（本文から削除。出典の引用がない）",
        "removed_partly_unchecked": "{not_checked}（本文から削除）",
        "removed_uncited_unchecked": "{not_checked}（本文から削除。出典の引用がない）",
        "removed_unchecked": "{not_checked}（本文から削除。引用箇所にこの文の数値、または対象が書かれていない）",
        "removed_question_restated": "{not_checked}（本文から削除。質問をそのまま答えとして言い直しただけ）",
        "removed_said_both_ways": "{not_checked}（本文から削除。下書きがその反対も述べていた）",
        "removed_language": "本文から削除（レポートの言語ではなく、使える書き直しがなかった）",
        "checked_as": "「{text}」として確認",
        "follow_up_queries": "追加検索",
        "evidence": "裏付けとなった記述",
        "count": "件数",
        "item": "項目",
        "engines": "検索エンジン",
        "queries": "検索クエリ",
        "sources_read": "読み込んだソース",
        "sources_failed": "読み込めなかったソース",
        "sources_left_out": "除外したソース（--since）",
        "sandbox": "パーサーのサンドボックス",
        "none": "なし",
        "language": "言語",
        "retrieved": "取得",
        "failed": "⚠ 読み込み失敗",
        "left_out": "⊘ 除外",
        "suspicious": "⚠ 不審なテキストを除去",
        "no_sources": "出典は見つかりませんでした。",
        "untitled": "（無題）",
        "page": "{number} ページ",
    },
}


def _with_verdict_names(labels: dict[str, str], lang: str) -> dict[str, str]:
    """The five verdict states under their own keys (``supported``, ``partly_supported``,
    ``not_supported``, ``contradicted``, ``not_checked``), in the words every other surface
    uses (i18n's ``verdict.*``); the verifier's older labels (``unsupported``,
    ``citation_invalid``) read as "not supported"."""
    names = {state.value: t("verdict." + state, lang) for state in VerdictState}
    labels = {**labels, **names, "unsupported": names["not_supported"], "citation_invalid": names["not_supported"]}
    return {key: value.format(**names) if key in _NAMED else value for key, value in labels.items()}


_NAMED = ("contested", "removed", "removed_not_supported", "removed_partly", "removed_uncited",
          "removed_partly_unchecked", "removed_uncited_unchecked", "removed_unchecked", "removed_question_restated",
          "removed_said_both_ways")


REPORT_LABELS.update({lang: _with_verdict_names(labels, lang) for lang, labels in REPORT_LABELS.items()})


def report_labels(lang: str) -> dict[str, str]:
    """The label set for ``lang``; an unknown language gets English."""
    return REPORT_LABELS.get(lang, REPORT_LABELS["en"])
