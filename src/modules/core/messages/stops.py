"""Messages about a run stopped from outside (a signal) and output streams that fail
(a closed pipe, a full disk). Keys: ``stop.`` and ``output.``."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    "stop.interrupted": {
        "en": "Stopped by {signal}. Session {session_id} keeps what it had; "
        "continue it with `research --resume {session_id}`",
        "ja": "{signal} で停止しました。セッション {session_id} はここまでの内容を保持しています。"
        "`research --resume {session_id}` で再開できます",
    },
    "stop.interrupted_early": {
        "en": "Stopped by {signal} before a session was started.",
        "ja": "セッション開始前に {signal} で停止しました。",
    },
    "output.failed": {
        "en": "Cannot write to {stream}: {reason} (the session files are complete)",
        "ja": "{stream} に書き込めません: {reason}（セッションのファイルは保存済みです）",
    },
    "output.stdout_closed": {
        "en": "Standard output is closed: nowhere to print the result (run without `>&-`).",
        "ja": "標準出力が閉じられているため結果を出力できません（`>&-` を付けずに実行してください）。",
    },
    "output.stdout_failed": {
        "en": "Cannot write to stdout: {reason}",
        "ja": "標準出力に書き込めません: {reason}",
    },
    "output.stderr_failed": {
        "en": "Cannot write progress to stderr ({reason}); session {session_id} stopped and is kept: "
        "continue it with `research --resume {session_id}`",
        "ja": "stderr に進行状況を書き込めません（{reason}）。セッション {session_id} を停止して保持しました。"
        "`research --resume {session_id}` で再開できます",
    },
}
