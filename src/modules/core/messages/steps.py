"""The graph's steps in words (``state/steps.py`` lists the steps): per step, ``progress.<step>``
is the line shown while it runs and when it finished, ``progress_md.<step>`` its section's
heading in progress.md (which may use ``{round}``, the search round)."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    "progress.input": {"en": "Understanding the question", "ja": "質問を解析中"},
    "progress_md.input": {"en": "Plan", "ja": "調査計画"},
    "progress.plan_review": {"en": "Reviewing the plan", "ja": "調査計画を確認中"},
    "progress_md.plan_review": {"en": "Plan after review", "ja": "確認後の調査計画"},
    "progress.search": {"en": "Searching the web", "ja": "ウェブを検索中"},
    "progress.search_local": {"en": "Searching your documents", "ja": "資料を検索中"},
    "progress_md.search": {"en": "Search, round {round}", "ja": "検索（{round}回目）"},
    "progress.processing": {"en": "Reading sources", "ja": "ソースを読み込み中"},
    "progress_md.processing": {"en": "Sources read", "ja": "読んだ出典"},
    "progress.compare": {"en": "Comparing the sources", "ja": "出典を比較中"},
    "progress_md.compare": {"en": "Where the sources disagree", "ja": "出典間の食い違い"},
    "progress_md.no_disagreements": {"en": "The sources read give no differing values.",
                                     "ja": "読み込んだ出典の間に、値の食い違いはありませんでした。"},
    "progress.llm": {"en": "Writing the answer", "ja": "回答を作成中"},
    "progress_md.llm": {"en": "Draft", "ja": "下書き"},
    "progress.verification": {"en": "Checking every claim", "ja": "主張を検証中"},
    "progress_md.verification": {"en": "Verification", "ja": "検証"},
    "progress.report": {"en": "Writing the report", "ja": "レポートを作成中"},
    "progress_md.report": {"en": "Report", "ja": "レポート"},
}
