"""Every user-facing message in both languages. ``t(key, lang, **params)``.

Modules keep their messages here, grouped by area, so a translator has one file to read.
"""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    # --- usage and settings -------------------------------------------------
    "usage.empty_question": {
        "en": "The question is empty. Ask something, e.g. research \"What is LangGraph?\"",
        "ja": "質問が空です。例: research \"LangGraphとは？\"",
    },
    "usage.question_too_long": {
        "en": "The question is too long ({length} characters; at most {limit}).",
        "ja": "質問が長すぎます（{length}文字、上限は{limit}文字）。",
    },
    "usage.bad_lang": {
        "en": "Unknown language '{value}': use ja, en or auto.",
        "ja": "不明な言語 '{value}' です。ja、en、auto のいずれかを指定してください。",
    },
    "usage.bad_setting": {
        "en": "Invalid setting {name}: {reason}",
        "ja": "設定 {name} が不正です: {reason}",
    },
    "usage.bad_config_file": {
        "en": "Cannot read the config file {path}: {reason}",
        "ja": "設定ファイル {path} を読めません: {reason}",
    },
    "usage.unknown_session": {
        "en": "No session with id '{session_id}' in {sessions_dir}.",
        "ja": "セッション '{session_id}' は {sessions_dir} にありません。",
    },
    "usage.bad_session_id": {
        "en": "'{session_id}' is not a valid session id.",
        "ja": "'{session_id}' は有効なセッションIDではありません。",
    },
    "usage.session_finished": {
        "en": "Session {session_id} is already finished: {report}",
        "ja": "セッション {session_id} は完了済みです: {report}",
    },
    # --- Ollama ---------------------------------------------------------------
    "ollama.unreachable": {
        "en": "Ollama is not reachable at {host} — start it with `ollama serve`",
        "ja": "Ollama に接続できません（{host}）— `ollama serve` で起動してください",
    },
    "ollama.model_missing": {
        "en": "Model {model} is not installed — run `ollama pull {model}`",
        "ja": "モデル {model} がインストールされていません — `ollama pull {model}` を実行してください",
    },
    "ollama.failed": {
        "en": "Ollama returned an error: {reason}",
        "ja": "Ollama がエラーを返しました: {reason}",
    },
    # --- sessions and files -----------------------------------------------------
    "session.not_writable": {
        "en": "Cannot write to the sessions folder {path}: {reason}",
        "ja": "セッションフォルダ {path} に書き込めません: {reason}",
    },
    # --- progress ---------------------------------------------------------------
    "progress.input": {"en": "Understanding the question", "ja": "質問を解析中"},
    "progress.search": {"en": "Searching the web", "ja": "ウェブを検索中"},
    "progress.processing": {"en": "Reading sources", "ja": "ソースを読み込み中"},
    "progress.llm": {"en": "Writing the answer", "ja": "回答を作成中"},
    "progress.verification": {"en": "Checking every claim", "ja": "主張を検証中"},
    "progress.report": {"en": "Writing the report", "ja": "レポートを作成中"},
    "progress.done": {"en": "done", "ja": "完了"},
    "progress.report_written": {"en": "Report: {path}", "ja": "レポート: {path}"},
    "progress.session": {"en": "Session {session_id}", "ja": "セッション {session_id}"},
    "progress.resuming": {
        "en": "Resuming session {session_id} after step '{node}'",
        "ja": "セッション {session_id} を「{node}」の後から再開します",
    },
    "progress.no_evidence": {
        "en": "No evidence was found for this question; the report says so.",
        "ja": "この質問に対する根拠が見つかりませんでした。レポートにその旨を記載しました。",
    },
    "progress.sources_found": {
        "en": "{count} results from {queries} queries",
        "ja": "{queries} 件のクエリで {count} 件の結果",
    },
    "progress.documents_read": {
        "en": "{ok} sources read, {failed} could not be read",
        "ja": "{ok} 件のソースを読み込み、{failed} 件は読み込めませんでした",
    },
    "progress.verified": {
        "en": "{supported}/{total} claims supported",
        "ja": "{total} 件中 {supported} 件の主張が裏付けられました",
    },
    "progress.follow_up": {
        "en": "Searching again for unsupported claims (round {round})",
        "ja": "裏付けのない主張を再検索中（{round} 回目）",
    },
    # --- sessions subcommand ------------------------------------------------------
    "sessions.title": {"en": "Sessions", "ja": "セッション"},
    "sessions.col_id": {"en": "ID", "ja": "ID"},
    "sessions.col_date": {"en": "Date", "ja": "日時"},
    "sessions.col_question": {"en": "Question", "ja": "質問"},
    "sessions.col_status": {"en": "Status", "ja": "状態"},
    "sessions.col_sources": {"en": "Sources", "ja": "出典数"},
    "sessions.col_verified": {"en": "Verified", "ja": "検証率"},
    "sessions.no_report": {
        "en": "Session {session_id} has no report yet (resume it with --resume {session_id}).",
        "ja": "セッション {session_id} にはまだレポートがありません（--resume {session_id} で再開できます）。",
    },
    "sessions.removed": {"en": "Removed session {session_id}.", "ja": "セッション {session_id} を削除しました。"},
    # --- report PDF and viewer (modules/fonts.py, modules/pdf.py, modules/viewer.py) ---
    "pdf.font_missing": {
        "en": "RESEARCH_PDF_FONT points to {path}, which does not exist.",
        "ja": "RESEARCH_PDF_FONT が指す {path} は存在しません。",
    },
    "pdf.font_unusable": {
        "en": "Cannot use the font {path} for the PDF: {reason}. Choose a TrueType (.ttf/.ttc) font.",
        "ja": "フォント {path} は PDF に使えません: {reason}。TrueType（.ttf/.ttc）フォントを指定してください。",
    },
    "pdf.font_cff": {
        "en": "The font {path} has CFF (PostScript) outlines, which PDF embedding needs as TrueType, and converting it failed: {reason}. Choose a .ttf/.ttc font.",
        "ja": "フォント {path} は CFF（PostScript）アウトラインで、TrueType への変換に失敗しました: {reason}。.ttf/.ttc フォントを指定してください。",
    },
    "pdf.no_font": {
        "en": "No Japanese font found for the PDF; reinstall research-assistant (it ships IPAexGothic) or set RESEARCH_PDF_FONT to a .ttf/.ttc file.",
        "ja": "PDF 用の日本語フォントが見つかりません。research-assistant を再インストールするか（IPAexゴシックを同梱）、RESEARCH_PDF_FONT に .ttf/.ttc ファイルを指定してください。",
    },
    "pdf.write_failed": {
        "en": "Cannot write the PDF {path}: {reason}",
        "ja": "PDF {path} を書き込めません: {reason}",
    },
    "viewer.unavailable": {
        "en": "No PDF viewer found; the report is at {path}",
        "ja": "PDF ビューアが見つかりません。レポートの場所: {path}",
    },
    "error.unexpected": {
        "en": "Unexpected error: {reason} (details in {log})",
        "ja": "予期しないエラー: {reason}（詳細は {log}）",
    },
}


def t(key: str, lang: str, **params: object) -> str:
    """The message ``key`` in ``lang`` (falls back to English), formatted with ``params``."""
    entry = MESSAGES.get(key)
    if entry is None:
        return key
    template = entry.get(lang) or entry["en"]
    try:
        return template.format(**params)
    except (KeyError, IndexError):
        return template
