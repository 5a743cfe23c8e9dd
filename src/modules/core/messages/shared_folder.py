"""Messages for issue 22: a session folder from someone else is data. Keys are prefixed
``shared_folder.`` so no other area can collide."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    "shared_folder.unsafe_file": {
        "en": "Refusing to use session {session_id}: its '{name}' is a symbolic link or not a regular file "
        "(the folder may have been edited). Nothing was read or written through it.",
        "ja": "セッション {session_id} の使用を拒否しました: '{name}' がシンボリックリンクか通常のファイルではありません"
        "（フォルダーが編集された可能性があります）。それを通して読み書きはしていません。",
    },
    "shared_folder.bad_state": {
        "en": "Refusing to resume: the session's checkpoint holds {what}, which this program never writes "
        "(the folder may have been edited). Nothing was read or run.",
        "ja": "再開を拒否しました: セッションのチェックポイントに、このプログラムが書き込まない {what} があります"
        "（フォルダーが編集された可能性があります）。何も読み込み・実行していません。",
    },
    "shared_folder.link_removed": {
        "en": "Removed the link {session_id} (it pointed elsewhere; what it pointed to was left alone).",
        "ja": "リンク {session_id} を削除しました（リンク先には触れていません）。",
    },
    "shared_folder.running": {
        "en": "Session {session_id} is running now; stop it first (Ctrl-C in its terminal), then remove it.",
        "ja": "セッション {session_id} は実行中です。先に停止（その端末で Ctrl-C）してから削除してください。",
    },
    "shared_folder.damaged": {
        "en": "damaged",
        "ja": "破損",
    },
}
