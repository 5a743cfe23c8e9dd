"""Messages for issue 17: untrusted session folders, signals, closed streams, early
setting checks. Keys are prefixed ``security.`` so no other area can collide."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    "security.checkpoint_untrusted": {
        "en": "Refusing to resume: the session's checkpoint names '{name}', which this program never writes "
        "(the folder may have been edited). Nothing was run; the report files can still be read.",
        "ja": "再開を拒否しました: セッションのチェックポイントに、このプログラムが書き込まない型 '{name}' があります"
        "（フォルダーが編集された可能性があります）。何も実行していません。レポートは引き続き読めます。",
    },
    "security.checkpoint_foreign": {
        "en": "Refusing to resume: the checkpoint belongs to session '{found}', not to this folder's session.",
        "ja": "再開を拒否しました: チェックポイントはこのフォルダーのセッションではなく '{found}' のものです。",
    },
    "security.session_locked": {
        "en": "Session {session_id} is in use by another research process; wait for it to finish or stop it first.",
        "ja": "セッション {session_id} は別の research プロセスが使用中です。終了を待つか、先に停止してください。",
    },
    "security.interrupted": {
        "en": "Stopped by {signal}. Session {session_id} keeps what it had; "
        "continue it with `research --resume {session_id}`",
        "ja": "{signal} で停止しました。セッション {session_id} はここまでの内容を保持しています。"
        "`research --resume {session_id}` で再開できます",
    },
    "security.interrupted_early": {
        "en": "Stopped by {signal} before a session was started.",
        "ja": "セッション開始前に {signal} で停止しました。",
    },
    "security.output_failed": {
        "en": "Cannot write to {stream}: {reason} (the session files are complete)",
        "ja": "{stream} に書き込めません: {reason}（セッションのファイルは保存済みです）",
    },
    "security.stdout_closed": {
        "en": "Standard output is closed: nowhere to print the result (run without `>&-`).",
        "ja": "標準出力が閉じられているため結果を出力できません（`>&-` を付けずに実行してください）。",
    },
    "security.searxng_url": {
        "en": "Invalid setting RESEARCH_SEARXNG_URL: '{value}' is not an http(s) URL",
        "ja": "設定 RESEARCH_SEARXNG_URL が不正です: '{value}' は http(s) の URL ではありません",
    },
    "security.docs_missing": {
        "en": "Invalid setting RESEARCH_DOCS_DIR (--docs): {path} does not exist",
        "ja": "設定 RESEARCH_DOCS_DIR（--docs）が不正です: {path} は存在しません",
    },
    "security.docs_not_folder": {
        "en": "Invalid setting RESEARCH_DOCS_DIR (--docs): {path} is a file, not a folder",
        "ja": "設定 RESEARCH_DOCS_DIR（--docs）が不正です: {path} はファイルで、フォルダーではありません",
    },
    "security.config_not_file": {
        "en": "Invalid setting RESEARCH_CONFIG: {path} is not a file",
        "ja": "設定 RESEARCH_CONFIG が不正です: {path} はファイルではありません",
    },
    "security.sandbox_unavailable": {
        "en": "Invalid setting RESEARCH_SANDBOX={sandbox}: {reason}",
        "ja": "設定 RESEARCH_SANDBOX={sandbox} が使えません: {reason}",
    },
}
