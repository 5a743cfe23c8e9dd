"""Messages of the research MCP server (``mcp_research.*``) and of progress.md (``progress_md.*``)."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    # --- progress.md: the readable account a killed run leaves behind -----------
    "progress_md.title": {"en": "Research progress: {question}", "ja": "調査の経過: {question}"},
    "progress_md.intro": {
        "en": "Session {session_id}. Each step is added here when it finishes; the report comes last.",
        "ja": "セッション {session_id}。各ステップは終わるたびにここへ追記され、最後にレポートが作られます。",
    },
    "progress_md.queries": {"en": "Queries: {queries}", "ja": "検索語: {queries}"},
    "progress_md.results": {
        "en": "{total} results in all, {new} new this round.",
        "ja": "結果は合計{total}件、このラウンドで新たに{new}件。",
    },
    "progress_md.no_new_sources": {"en": "No new source was read in this step.", "ja": "このステップで新たに読んだ出典はありません。"},
    "progress_md.source_failed": {"en": "could not be read: {reason}", "ja": "読めませんでした: {reason}"},
    "progress_md.source_left_out": {"en": "left out: {reason}", "ja": "除外: {reason}"},
    "progress_md.follow_ups": {"en": "Searching again for: {queries}", "ja": "追加で検索します: {queries}"},
    "progress_md.report_files": {"en": "Written: {paths}", "ja": "作成したファイル: {paths}"},
    "progress_md.problem": {"en": "Problem", "ja": "問題"},
    "progress_md.budget": {"en": "Budget spent: {budget}", "ja": "上限に達しました: {budget}"},
    # --- the research MCP server: short tool errors ------------------------------
    "mcp_research.busy": {
        "en": "A research run is already going (session {session_id}, {running} of {limit} allowed). "
              "Wait for it to finish or cancel it, then ask again.",
        "ja": "調査を実行中です（セッション {session_id}、同時実行の上限 {limit} 件中 {running} 件）。"
              "終わるのを待つかキャンセルしてから、もう一度依頼してください。",
    },
    "mcp_research.cancelled": {
        "en": "Research cancelled. Session {session_id} is kept; resume it with `research --resume {session_id}`.",
        "ja": "調査をキャンセルしました。セッション {session_id} は保存されています。"
              "`research --resume {session_id}` で再開できます。",
    },
    "mcp_research.failed": {"en": "Research failed: {reason}", "ja": "調査に失敗しました: {reason}"},
    "mcp_research.resume_hint": {
        "en": "{message} Session {session_id} is kept; resume it with `research --resume {session_id}`.",
        "ja": "{message} セッション {session_id} は保存されています。`research --resume {session_id}` で再開できます。",
    },
    "mcp_research.no_report": {
        "en": "Session {session_id} has no report yet (status: {status}).",
        "ja": "セッション {session_id} にはまだレポートがありません（状態: {status}）。",
    },
    "mcp_research.no_sessions": {"en": "No sessions yet in {path}.", "ja": "{path} にはまだセッションがありません。"},
    "mcp_research.running_mark": {"en": "running now", "ja": "実行中"},
    "mcp_research.session_line": {"en": "session: {session_id}", "ja": "セッション: {session_id}"},
    "mcp_research.no_sources": {
        "en": "Give at least one source (text or an http(s) URL).",
        "ja": "出典を1つ以上指定してください（テキストまたは http(s) の URL）。",
    },
    "mcp_research.source_unreadable": {
        "en": "Source {label} ({url}) could not be read: {reason}",
        "ja": "出典 {label}（{url}）を読めませんでした: {reason}",
    },
    "mcp_research.duplicate_label": {
        "en": "Two sources are labelled {label}: give each source a label of its own.",
        "ja": "{label} というラベルの出典が2つあります。出典ごとに別のラベルを付けてください。",
    },
    "mcp_research.no_readable_source": {
        "en": "None of the sources could be read, so nothing can be verified.",
        "ja": "読める出典がないため、検証できません。",
    },
}
