"""Messages for issue 22's edges: output streams that go nowhere, settings checked up
front, an empty --docs folder. Keys are prefixed ``edges.`` so no other area can collide."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    "edges.stdout_failed": {
        "en": "Cannot write to stdout: {reason}",
        "ja": "標準出力に書き込めません: {reason}",
    },
    "edges.stderr_failed": {
        "en": "Cannot write progress to stderr ({reason}); session {session_id} stopped and is kept: "
        "continue it with `research --resume {session_id}`",
        "ja": "stderr に進行状況を書き込めません（{reason}）。セッション {session_id} を停止して保持しました。"
        "`research --resume {session_id}` で再開できます",
    },
    "edges.bad_setting": {
        "en": "Invalid setting {name}={value}: {reason}",
        "ja": "設定 {name}={value} が不正です: {reason}",
    },
    "edges.docs_empty": {
        "en": "The documents folder {path} (--docs) has no file this program can read "
        "(.txt, .md, .html, .pdf); add some, or search the web without --docs.",
        "ja": "文書フォルダー {path}（--docs）に読めるファイル（.txt、.md、.html、.pdf）がありません。"
        "ファイルを追加するか、--docs を付けずにウェブを検索してください。",
    },
    "edges.verify_too_large": {
        "en": "Too large to check: {what} has {size} characters (the limit is {limit}). Split it, or check fewer sources.",
        "ja": "大きすぎて検証できません: {what} は {size} 文字です（上限 {limit}）。分割するか、出典を減らしてください。",
    },
}
