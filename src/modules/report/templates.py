"""Localized words of the report templates (report.md and report.pdf), ja and en.

Kept apart from the i18n message catalog: these are headings and labels of a document,
not messages to the user, and both renderers share them through ``ReportDocument``.
"""

from __future__ import annotations

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
        # verification
        "verification_not_run": "Verification did not run for this report.",
        "claims": "Claims checked",
        "supported": "Supported",
        "partly_supported": "Partly supported",
        "unsupported": "Unsupported",
        "citation_invalid": "Invalid citation",
        # What the figure measures: the share of claims their cited sources support.
        "supported_ratio": "Claims supported by their sources",
        "loops": "Verification loops",
        "invalid_citations_removed": "Invalid citations removed",
        "unsupported_claims": "Claims without full support",
        "follow_up_queries": "Follow-up searches",
        "count": "Count",
        "item": "Item",
        # method
        "engines": "Search engines",
        "queries": "Queries",
        "sources_read": "Sources read",
        "sources_failed": "Sources that could not be read",
        "sandbox": "Parser sandbox",
        "none": "none",
        # sources
        "language": "language",
        "retrieved": "retrieved",
        "failed": "⚠ could not be read",
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
        "verification_not_run": "このレポートでは検証が実行されませんでした。",
        "claims": "検証した主張",
        "supported": "裏付けあり",
        "partly_supported": "一部裏付けあり",
        "unsupported": "裏付けなし",
        "citation_invalid": "無効な引用",
        "supported_ratio": "出典で裏付けられた主張",
        "loops": "検証ループ回数",
        "invalid_citations_removed": "削除した無効な引用",
        "unsupported_claims": "十分な裏付けのない主張",
        "follow_up_queries": "追加検索",
        "count": "件数",
        "item": "項目",
        "engines": "検索エンジン",
        "queries": "検索クエリ",
        "sources_read": "読み込んだソース",
        "sources_failed": "読み込めなかったソース",
        "sandbox": "パーサーのサンドボックス",
        "none": "なし",
        "language": "言語",
        "retrieved": "取得",
        "failed": "⚠ 読み込み失敗",
        "suspicious": "⚠ 不審なテキストを除去",
        "no_sources": "出典は見つかりませんでした。",
        "untitled": "（無題）",
        "page": "{number} ページ",
    },
}


def report_labels(lang: str) -> dict[str, str]:
    """The label set for ``lang``; an unknown language gets English."""
    return REPORT_LABELS.get(lang, REPORT_LABELS["en"])
