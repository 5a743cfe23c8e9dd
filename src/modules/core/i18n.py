"""Every user-facing message in both languages. ``t(key, lang, **params)``.

General messages are here, grouped by area; larger areas keep theirs in
``core/messages/<area>.py``. A translator reads this file and that folder.

A key without a message is a bug. A user is shown the key itself (and the log names it),
never a traceback; under the tests (``RESEARCH_STRICT_MESSAGES=1``, set by tests/conftest.py
before this module is imported) it raises ``MissingMessage`` in the test that reached it.
"""

from __future__ import annotations

import importlib
import logging
import os
import pkgutil
import string

logger = logging.getLogger(__name__)

# Read once, at import: the in-process CLI tests replace the environment for each command.
STRICT = os.environ.get("RESEARCH_STRICT_MESSAGES") == "1"


class MissingMessage(LookupError):
    """``t()`` was given a key that has no message (raised in strict mode only)."""


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
    # argparse's mistakes (cli/arguments.usage_message), in the user's language
    "usage.unrecognized": {"en": "unrecognized arguments: {args} (see research --help)",
                           "ja": "不明な引数です: {args}（research --help を参照してください）"},
    "usage.required": {"en": "missing: {args} (see research --help)", "ja": "次の引数が必要です: {args}（research --help を参照してください）"},
    "usage.expected_value": {"en": "{flag} needs a value (see research --help)",
                             "ja": "{flag} には値が必要です（research --help を参照してください）"},
    "usage.invalid_choice": {"en": "{flag}: {value} is not one of {choices}",
                             "ja": "{flag}: {value} は使えません。{choices} のいずれかを指定してください"},
    "usage.no_value": {"en": "{flag} takes no value (given {value})", "ja": "{flag} は値を取りません（{value} が指定されました）"},
    "usage.ambiguous": {"en": "{flag} could be any of {choices}; write it out", "ja": "{flag} は {choices} のどれか分かりません。省略せずに書いてください"},
    "usage.argument_error": {"en": "{message} (see research --help)", "ja": "引数が正しくありません: {message}（research --help を参照してください）"},
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
    # --- progress (each step's own label and heading: core/messages/steps.py) ----
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
        "en": "{count} {count:result|results} from {queries} {queries:query|queries}",
        "ja": "{queries} 件のクエリで {count} 件の結果",
    },
    "progress.documents_read": {
        "en": "{ok} {ok:source|sources} read, {failed} could not be read",
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
    "sessions.col_verified": {"en": "Supported claims", "ja": "裏付けありの主張"},
    "sessions.supported_cell": {"en": "{percent}% ({supported} of {claims} supported)",
                                "ja": "{percent}%（主張{claims}件中 裏付けあり{supported}件）"},
    "sessions.no_report": {
        "en": "Session {session_id} has no report yet (resume it with --resume {session_id}).",
        "ja": "セッション {session_id} にはまだレポートがありません（--resume {session_id} で再開できます）。",
    },
    "sessions.removed": {"en": "Removed session {session_id}.", "ja": "セッション {session_id} を削除しました。"},
    # --- REPL (src/cli/repl.py, src/cli/repl_commands.py) ---------------------------
    "repl.banner_title": {
        "en": "research — a local, bilingual research assistant",
        "ja": "research — ローカルで動く日英リサーチアシスタント",
    },
    "repl.banner": {
        "en": "Model: {model} · Language: {language} · Sessions: {sessions_dir}",
        "ja": "モデル: {model} · 言語: {language} · セッション: {sessions_dir}",
    },
    "repl.banner_hint": {
        "en": "Ask a question in Japanese or English, or type /help. Ctrl-D or /quit to leave.",
        "ja": "日本語か英語で質問してください。/help でコマンド一覧、Ctrl-D か /quit で終了します。",
    },
    "repl.toolbar": {
        "en": " lang: {language} │ model: {model} │ session: {session} ",
        "ja": " 言語: {language} │ モデル: {model} │ セッション: {session} ",
    },
    "repl.toolbar_new": {"en": "(new)", "ja": "（新規）"},
    "repl.lang_auto": {"en": "auto", "ja": "自動"},
    "repl.help_title": {"en": "Commands", "ja": "コマンド"},
    "repl.help_footer": {
        "en": "exit, quit, clear and help typed alone are these commands. Anything else is a question. "
        "A follow-up continues the conversation (its topic and its sources); /new starts a new one.",
        "ja": "exit・quit・clear・help だけを入力するとそのコマンドになります。それ以外の入力は質問です。"
        "続けて質問すると会話（話題と出典）を引き継ぎます。新しい話題は /new から。",
    },
    "repl.help.help": {"en": "this list", "ja": "この一覧を表示"},
    "repl.help.lang": {"en": "answer and message language", "ja": "回答とメッセージの言語"},
    "repl.help.model": {"en": "switch to an installed Ollama model", "ja": "インストール済みの Ollama モデルに切り替え"},
    "repl.help.models": {"en": "list installed models", "ja": "インストール済みモデルの一覧"},
    "repl.help.new": {"en": "forget the conversation; start fresh", "ja": "会話をリセットして新しく始める"},
    "repl.help.sessions": {"en": "past sessions", "ja": "過去のセッション一覧"},
    "repl.help.open": {"en": "open report.pdf (default: this session)", "ja": "report.pdf を開く（省略時は現在のセッション）"},
    "repl.help.show": {"en": "show the report here (default: this session)", "ja": "レポートをここに表示（省略時は現在のセッション）"},
    "repl.help.resume": {"en": "resume an interrupted session", "ja": "中断したセッションを再開"},
    "repl.help.attach": {"en": "follow a run on the team's server again (RESEARCH_SERVER), to its answer",
                         "ja": "チームのサーバー（RESEARCH_SERVER）の実行の続きを答えまで表示"},
    "repl.help.cancel": {"en": "cancel a run on the team's server (RESEARCH_SERVER); a running one keeps its session",
                         "ja": "チームのサーバー（RESEARCH_SERVER）の実行を取り消す（実行中ならセッションは残ります）"},
    "repl.help.sources": {"en": "sources of this session", "ja": "現在のセッションの出典"},
    "repl.help.verbose": {"en": "more or less detail during a run", "ja": "実行中の詳細表示の切り替え"},
    "repl.help.quit": {"en": "leave (also Ctrl-D)", "ja": "終了（Ctrl-D でも可）"},
    "repl.unknown_command": {
        "en": "Unknown command {command}. Did you mean {suggestion}?",
        "ja": "不明なコマンド {command} です。{suggestion} のことですか？",
    },
    "repl.unknown_command_no_hint": {
        "en": "Unknown command {command}. Type /help for the list.",
        "ja": "不明なコマンド {command} です。/help で一覧を表示します。",
    },
    "repl.usage": {"en": "Usage: {usage}", "ja": "使い方: {usage}"},
    "repl.lang_set": {"en": "Language: {language}", "ja": "言語を {language} にしました"},
    "repl.lang_set_auto": {
        "en": "Language: auto (each question is answered in its own language)",
        "ja": "言語: 自動（質問と同じ言語で回答します）",
    },
    "repl.model_set": {"en": "Model: {model}", "ja": "モデルを {model} にしました"},
    "repl.model_missing": {
        "en": "Model {model} is not installed (installed: {installed}). Run `ollama pull {model}`.",
        "ja": "モデル {model} はインストールされていません（インストール済み: {installed}）。`ollama pull {model}` を実行してください。",
    },
    "repl.models_title": {"en": "Installed models", "ja": "インストール済みモデル"},
    "repl.models_none": {
        "en": "No models are installed — run `ollama pull {model}`.",
        "ja": "モデルがインストールされていません — `ollama pull {model}` を実行してください。",
    },
    "repl.col_model": {"en": "Model", "ja": "モデル"},
    "repl.col_size": {"en": "Size", "ja": "サイズ"},
    "repl.current": {"en": "current", "ja": "使用中"},
    "repl.new_conversation": {
        "en": "New conversation: the next question starts from scratch.",
        "ja": "新しい会話を始めます。次の質問は最初から調べます。",
    },
    "repl.no_session": {
        "en": "No session yet: ask a question first, or give a session id (see /sessions).",
        "ja": "まだセッションがありません。先に質問するか、セッションIDを指定してください（/sessions）。",
    },
    "repl.sessions_empty": {"en": "No sessions yet in {sessions_dir}.", "ja": "{sessions_dir} にセッションはまだありません。"},
    "repl.sources_title": {"en": "Sources of session {session_id}", "ja": "セッション {session_id} の出典"},
    "repl.sources_empty": {"en": "Session {session_id} has no sources.", "ja": "セッション {session_id} には出典がありません。"},
    "repl.source_ok": {"en": "read", "ja": "読込済"},
    "repl.source_failed": {"en": "failed: {error}", "ja": "失敗: {error}"},
    "repl.source_left_out": {"en": "left out: {error}", "ja": "除外: {error}"},
    "repl.verbose_on": {"en": "Verbose progress: on", "ja": "詳細表示: オン"},
    "repl.verbose_off": {"en": "Verbose progress: off", "ja": "詳細表示: オフ"},
    "repl.cancelled": {
        "en": "Cancelled. Session {session_id} keeps what it had; /resume {session_id} continues it.",
        "ja": "中止しました。セッション {session_id} はここまでの内容を保持しています。/resume {session_id} で再開できます。",
    },
    "repl.cancelled_early": {"en": "Cancelled.", "ja": "中止しました。"},
    "repl.report_md": {"en": "Report (Markdown): {path}", "ja": "レポート（Markdown）: {path}"},
    "repl.report_pdf": {"en": "Report (PDF): {path}", "ja": "レポート（PDF）: {path}"},
    "repl.follow_up_hint": {
        "en": "Ask a follow-up to continue this conversation, or /new to start over.",
        "ja": "続けて質問すると会話を引き継ぎます。/new で新しい会話を始めます。",
    },
    "repl.history_unavailable": {
        "en": "Input history is not saved this time: {reason}",
        "ja": "今回は入力履歴を保存できません: {reason}",
    },
    "repl.failed": {
        "en": "The run failed: {reason}{log}",
        "ja": "実行に失敗しました: {reason}{log}",
    },
    "repl.failed_log": {"en": " (details in {path})", "ja": "（詳細は {path}）"},
    "repl.goodbye": {"en": "Bye.", "ja": "終了します。"},
    # --- report PDF and viewer (modules/report/fonts.py, modules/report/pdf.py, cli/viewer.py) ---
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
    # --- verification (src/nodes/verification.py) ------------------------------
    # --- one name per verdict (state/models.py VerdictState), on every surface -------
    "verdict.supported": {"en": "supported", "ja": "裏付けあり"},
    "verdict.partly_supported": {"en": "partly supported", "ja": "一部のみ裏付け"},
    "verdict.not_supported": {"en": "not supported", "ja": "裏付けなし"},
    "verdict.contradicted": {"en": "contradicted", "ja": "矛盾"},
    "verdict.not_checked": {"en": "not checked", "ja": "未確認"},
    # The counts beside each other, and the supported share computed from them (supported_percent).
    "verdict.counts": {
        "en": "{claims} {claims:claim|claims}: {supported} supported, {partly_supported} partly supported, "
              "{not_supported} not supported, {contradicted} contradicted, {not_checked} not checked "
              "({percent}% supported)",
        "ja": "主張{claims}件: 裏付けあり{supported}件、一部のみ裏付け{partly_supported}件、裏付けなし{not_supported}件、"
              "矛盾{contradicted}件、未確認{not_checked}件（裏付けあり {percent}%）",
    },
    # The same names as marks in the answer's text, read as part of the sentence. The key
    # names are older than the words: flag_unverified marks a claim not supported.
    "verification.flag_unverified": {"en": "(not supported)", "ja": "（裏付けなし）"},
    "verification.flag_partly": {"en": "(partly supported)", "ja": "（一部のみ裏付け）"},
    "verification.flag_contradicted": {"en": "(contradicted)", "ja": "（矛盾）"},
    "verification.rewrite_failed": {
        "en": "Could not rewrite section '{title}' into the requested language: {reason}",
        "ja": "節「{title}」を指定の言語に書き直せませんでした: {reason}",
    },
    "verification.rewrite_rejected": {
        "en": "The rewrite of section '{title}' was not usable (wrong language or lost citations); the original is kept.",
        "ja": "節「{title}」の書き直しは使えませんでした（言語が違うか出典ラベルが欠落）。元の文章を残します。",
    },
    "verification.judge_failed": {
        "en": "The model could not judge the borderline claims ({reason}); their lexical verdicts stand.",
        "ja": "境界的な主張をモデルで判定できませんでした（{reason}）。語彙照合の判定を採用します。",
    },
    "verification.follow_up_failed": {
        "en": "Could not plan follow-up searches with the model ({reason}); claim text is used instead.",
        "ja": "追加検索のクエリをモデルで作成できませんでした（{reason}）。主張の文をそのまま使います。",
    },
    "verification.save_failed": {
        "en": "Could not save verification.json: {reason}",
        "ja": "verification.json を保存できませんでした: {reason}",
    },
    # --- parser sandbox and doctor (modules/clients/sandbox.py, modules/clients/parser_client.py, cli/doctor.py) ---
    "sandbox.unavailable": {
        "en": "The sandbox '{name}' (RESEARCH_SANDBOX) cannot run on this machine; use auto, or install it.",
        "ja": "サンドボックス '{name}'（RESEARCH_SANDBOX）はこのマシンでは使えません。auto を指定するかインストールしてください。",
    },
    "sandbox.image_missing": {
        "en": "RESEARCH_SANDBOX={engine} needs an image: set RESEARCH_SANDBOX_IMAGE (see docs/sandbox.md).",
        "ja": "RESEARCH_SANDBOX={engine} にはイメージが必要です。RESEARCH_SANDBOX_IMAGE を設定してください（docs/sandbox.md 参照）。",
    },
    "sandbox.unshare_note": {
        "en": "Note: documents are parsed under `unshare` (no network, but the files of your account are "
        "visible to the parser). Install bubblewrap (apt-get install bubblewrap) for the full sandbox.",
        "ja": "注意: 文書は unshare の下で解析されます（ネットワークなし、ただしアカウントのファイルはパーサーから見えます）。"
        "完全なサンドボックスには bubblewrap をインストールしてください（apt-get install bubblewrap）。",
    },
    "sandbox.none_warning": {
        "en": "WARNING: no sandbox is available: documents are parsed in a plain process WITH network access "
        "(only resource limits apply). Install bubblewrap (apt-get install bubblewrap) or configure docker/podman.",
        "ja": "警告: サンドボックスが利用できません。文書はネットワークに接続できる通常のプロセスで解析されます"
        "（リソース制限のみ）。bubblewrap をインストールするか（apt-get install bubblewrap）、docker/podman を設定してください。",
    },
    "parser.unavailable": {
        "en": "The document parser could not start: {reason}",
        "ja": "文書パーサーを起動できませんでした: {reason}",
    },
    "doctor.title": {"en": "research doctor", "ja": "research 診断"},
    "doctor.column.check": {"en": "Check", "ja": "項目"},
    "doctor.column.status": {"en": "Status", "ja": "状態"},
    "doctor.column.detail": {"en": "Details", "ja": "詳細"},
    "doctor.status.ok": {"en": "ok", "ja": "OK"},
    "doctor.status.warn": {"en": "warning", "ja": "注意"},
    "doctor.status.fail": {"en": "FAILED", "ja": "失敗"},
    "doctor.check.ollama": {"en": "Ollama reachable", "ja": "Ollama への接続"},
    "doctor.check.model": {"en": "Model installed", "ja": "モデルのインストール"},
    "doctor.check.sandbox": {"en": "Parser sandbox", "ja": "パーサーのサンドボックス"},
    "doctor.check.isolation": {"en": "Parser network isolation", "ja": "パーサーのネットワーク隔離"},
    "doctor.check.web_search": {"en": "Web-search server", "ja": "ウェブ検索サーバー"},
    "doctor.check.font": {"en": "Japanese PDF font", "ja": "PDF 用の日本語フォント"},
    "doctor.check.sessions": {"en": "Sessions folder writable", "ja": "セッションフォルダへの書き込み"},
    "doctor.ollama_ok": {"en": "version {version} at {host}", "ja": "{host} でバージョン {version}"},
    "doctor.model_ok": {"en": "{model} is installed", "ja": "{model} はインストール済みです"},
    "doctor.model_unknown": {
        "en": "cannot check {model}: Ollama is not reachable",
        "ja": "Ollama に接続できないため {model} を確認できません",
    },
    "doctor.sandbox_ok": {
        "en": "{name}: parser server started in {seconds} s",
        "ja": "{name}: パーサーサーバーが {seconds} 秒で起動しました",
    },
    "doctor.sandbox_failed": {"en": "{name}: {reason}", "ja": "{name}: {reason}"},
    "doctor.isolation_ok": {
        "en": "verified: own network namespace ({namespace}); a connection to the host's 127.0.0.1 failed",
        "ja": "確認済み: 独自のネットワーク名前空間（{namespace}）、ホストの 127.0.0.1 への接続は失敗しました",
    },
    "doctor.isolation_failed": {
        "en": "NOT verified: namespace {namespace} (host {host_namespace}), connection to the host succeeded: {connected}",
        "ja": "未確認: 名前空間 {namespace}（ホスト {host_namespace}）、ホストへの接続成功: {connected}",
    },
    "doctor.isolation_none": {
        "en": "no sandbox: the parser can reach the network",
        "ja": "サンドボックスなし: パーサーはネットワークに接続できます",
    },
    "doctor.isolation_unknown": {"en": "not checked (the parser did not start)", "ja": "未確認（パーサーが起動しませんでした）"},
    "doctor.web_search_ok": {"en": "started and answered MCP initialize", "ja": "起動し、MCP の initialize に応答しました"},
    "doctor.web_search_missing": {
        "en": "not available in this installation",
        "ja": "このインストールでは利用できません",
    },
    "doctor.web_search_failed": {"en": "did not start: {reason}", "ja": "起動しませんでした: {reason}"},
    "doctor.font_ok": {"en": "{path}", "ja": "{path}"},
    "doctor.font_missing": {
        "en": "no Japanese font found: set RESEARCH_PDF_FONT or install matplotlib-fontja",
        "ja": "日本語フォントが見つかりません。RESEARCH_PDF_FONT を設定するか matplotlib-fontja をインストールしてください",
    },
    "doctor.font_unchecked": {"en": "font lookup is not available: {reason}", "ja": "フォント検索を利用できません: {reason}"},
    "doctor.sessions_ok": {"en": "{path}", "ja": "{path}"},
    "doctor.summary_ok": {"en": "All essential checks passed.", "ja": "必須の項目はすべて問題ありません。"},
    "doctor.summary_failed": {
        "en": "{count} essential check(s) failed.",
        "ja": "{count} 件の必須項目に問題があります。",
    },
    "error.unexpected": {
        "en": "Unexpected error: {reason} (details in {log})",
        "ja": "予期しないエラー: {reason}（詳細は {log}）",
    },
    # --- web search over MCP (modules/clients/web_search_client.py, servers/web/server.py) ---
    "websearch.server_failed": {
        "en": "The web-search server could not start ({command}): {reason}",
        "ja": "ウェブ検索サーバーを起動できません（{command}）: {reason}",
    },
    "websearch.server_crashed": {
        "en": "The web-search server ({command}) stopped again after a restart; giving up.",
        "ja": "ウェブ検索サーバー（{command}）が再起動後にも停止したため、中断します。",
    },
    "websearch.bad_mcp_config": {
        "en": "Cannot use the MCP config file {path}: {reason}",
        "ja": "MCP 設定ファイル {path} を使用できません: {reason}",
    },
    # --- research depth, plan review, budgets, fallback model ------------------------
    "plan.title": {"en": "Research plan for: {question}", "ja": "調査計画: {question}"},
    "plan.help": {
        "en": "Enter: accept · e N TEXT: edit sub-question N · d N: drop N · a TEXT: add one",
        "ja": "Enter: 承認 · e 番号 文: サブ質問を編集 · d 番号: 削除 · a 文: 追加",
    },
    "plan.prompt": {"en": "plan> ", "ja": "計画> "},
    "plan.bad_command": {
        "en": "Not understood: {line} (Enter accepts the plan)",
        "ja": "理解できません: {line}（Enter で計画を承認します）",
    },
    "plan.bad_number": {"en": "No sub-question {number}.", "ja": "サブ質問 {number} はありません。"},
    "plan.accepted": {"en": "Plan accepted: {count} sub-questions.", "ja": "計画を承認しました（サブ質問 {count} 件）。"},
    "plan.review_skipped": {
        "en": "Plan review skipped: stdin is not a terminal, so the plan is used as planned.",
        "ja": "標準入力が端末ではないため、計画の確認を省略し、そのまま使います。",
    },
    "plan.review_skipped_resume": {
        "en": "The session was waiting for a plan review; without a terminal the plan is accepted as planned.",
        "ja": "このセッションは計画の確認待ちでした。端末がないため、計画をそのまま承認します。",
    },
    "budget.progress_seconds": {"en": "Time budget spent: going to the report", "ja": "時間の上限に達しました。レポートを作成します"},
    "budget.progress_tokens": {"en": "LLM token budget spent: going to the report", "ja": "LLM トークンの上限に達しました。レポートを作成します"},
    "budget.progress_sources": {"en": "Source budget reached: no further searching", "ja": "出典数の上限に達しました。これ以上は検索しません"},
    "budget.report_seconds": {
        "en": "Stopped early: the time budget (RESEARCH_MAX_SECONDS = {limit} s) ran out; this report uses what was gathered until then.",
        "ja": "時間の上限（RESEARCH_MAX_SECONDS = {limit} 秒）に達したため途中で終了しました。それまでに集めた情報でレポートを作成しています。",
    },
    "budget.report_tokens": {
        "en": "Stopped early: the LLM token budget (RESEARCH_MAX_LLM_TOKENS = {limit}) ran out; this report uses what was gathered until then.",
        "ja": "LLM トークンの上限（RESEARCH_MAX_LLM_TOKENS = {limit}）に達したため途中で終了しました。それまでに集めた情報でレポートを作成しています。",
    },
    "budget.report_sources": {
        "en": "Searching stopped at the source budget (RESEARCH_MAX_SOURCES = {limit} sources).",
        "ja": "出典数の上限（RESEARCH_MAX_SOURCES = {limit} 件）で検索を打ち切りました。",
    },
    "model.fallback_used": {
        "en": "The model {model} failed three times in a row; {fallback} (RESEARCH_FALLBACK_MODEL) took over.",
        "ja": "モデル {model} が3回続けて失敗したため、{fallback}（RESEARCH_FALLBACK_MODEL）に切り替えました。",
    },
    "repl.help.depth": {"en": "research depth: quick, standard or deep", "ja": "調査の深さ: quick、standard、deep"},
    "repl.help.plan": {"en": "review the plan before searching (on/off)", "ja": "検索前に調査計画を確認する（on/off）"},
    "repl.depth_set": {"en": "Depth: {depth}", "ja": "調査の深さを {depth} にしました"},
    "repl.plan_on": {"en": "Plan review on: each question stops after planning for you to review.",
                     "ja": "計画の確認をオンにしました。質問ごとに計画を確認してから検索します。"},
    "repl.plan_off": {"en": "Plan review off.", "ja": "計画の確認をオフにしました。"},
    # --- reliability: faults mid-run, degraded reports ------------------------------
    "ollama.stream_lost": {
        "en": "Ollama stopped answering in the middle of a reply ({host}); the partial answer was discarded",
        "ja": "Ollama が回答の途中で応答しなくなりました（{host}）。途中までの回答は破棄しました",
    },
    "session.resume_hint": {
        "en": "{message} — the session is saved; continue it with `research --resume {session_id}`",
        "ja": "{message} — セッションは保存済みです。`research --resume {session_id}` で再開できます",
    },
    "session.write_failed": {
        "en": "Cannot write the session files in {path}: {reason}",
        "ja": "{path} にセッションファイルを書き込めません: {reason}",
    },
    "context.overflow_retry": {
        "en": "The prompt filled the model's context ({tokens} of {num_ctx} tokens); retrying with half the evidence",
        "ja": "プロンプトがモデルのコンテキストを使い切りました（{num_ctx} 中 {tokens} トークン）。根拠を半分にして再試行します",
    },
    "context.overflow_shrunk": {
        "en": "The model's context overflowed; the evidence was shrunk {times} time(s) to fit (RESEARCH_NUM_CTX={num_ctx})",
        "ja": "モデルのコンテキストがあふれたため、根拠を {times} 回縮小して収めました（RESEARCH_NUM_CTX={num_ctx}）",
    },
    "context.overflow_kept": {
        "en": "The model's context still overflowed after shrinking the evidence twice; the answer may rest on "
        "truncated evidence — raise RESEARCH_NUM_CTX (now {num_ctx})",
        "ja": "根拠を2回縮小してもコンテキストがあふれました。回答は切り詰められた根拠に基づく可能性があります — "
        "RESEARCH_NUM_CTX（現在 {num_ctx}）を増やしてください",
    },
    "degraded.fallback": {
        "en": "Degraded: the model's replies for step '{node}' were unusable {count} time(s); a built-in fallback was used",
        "ja": "品質低下: 手順「{node}」でモデルの応答が {count} 回使えなかったため、組み込みの代替処理を使いました",
    },
}


def _merge_area_catalogues() -> None:
    from research.modules.core import messages

    for info in pkgutil.iter_modules(messages.__path__):
        area = importlib.import_module(f"{messages.__name__}.{info.name}")
        for key, entry in area.MESSAGES.items():
            if key in MESSAGES:
                raise RuntimeError(f"message key {key!r} is defined twice (core/messages/{info.name}.py)")
            if set(entry) != {"en", "ja"}:
                raise RuntimeError(f"message key {key!r} needs exactly an 'en' and a 'ja' text")
            MESSAGES[key] = entry


_merge_area_catalogues()


def t(key: str, lang: str, **params: object) -> str:
    """The message ``key`` in ``lang`` (falls back to English), formatted with ``params``."""
    entry = MESSAGES.get(key)
    if entry is None:
        if STRICT:
            raise MissingMessage(key)
        logger.warning("no message for the key %r", key)
        return key
    template = entry.get(lang) or entry["en"]
    try:
        return _FORMATTER.format(template, **params)
    except (KeyError, IndexError, ValueError):
        return template


def reason_label(code: str, lang: str) -> str:
    """A verdict's reason in words (``number_mismatch`` → "a number differs from the
    source"); a code without a message yet is shown as it is."""
    key = "verify.reason." + code
    return t(key, lang) if key in MESSAGES else code


class _PluralFormatter(string.Formatter):
    """``{count:result|results}`` is the word for that count ("1 result", "2 results");
    every other field is formatted as ``str.format`` would."""

    def format_field(self, value: object, format_spec: str) -> str:
        if "|" in format_spec and isinstance(value, (int, float)):
            one, many = format_spec.split("|", 1)
            return one if value == 1 else many
        return super().format_field(value, format_spec)


_FORMATTER = _PluralFormatter()
