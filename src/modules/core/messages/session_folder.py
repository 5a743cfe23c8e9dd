"""Messages about a session folder read as data from someone else: what is refused
before it is read or resumed, and a folder another process is using."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    "session_folder.checkpoint_untrusted": {
        "en": "Refusing to resume: the session's checkpoint names '{name}', which this program never writes "
        "(the folder may have been edited). Nothing was run; the report files can still be read.",
        "ja": "再開を拒否しました: セッションのチェックポイントに、このプログラムが書き込まない型 '{name}' があります"
        "（フォルダーが編集された可能性があります）。何も実行していません。レポートは引き続き読めます。",
    },
    "session_folder.checkpoint_foreign": {
        "en": "Refusing to resume: the checkpoint belongs to session '{found}', not to this folder's session.",
        "ja": "再開を拒否しました: チェックポイントはこのフォルダーのセッションではなく '{found}' のものです。",
    },
    "session_folder.locked": {
        "en": "Session {session_id} is in use by another research process; wait for it to finish or stop it first.",
        "ja": "セッション {session_id} は別の research プロセスが使用中です。終了を待つか、先に停止してください。",
    },
    "session_folder.unsafe_file": {
        "en": "Refusing to use session {session_id}: its '{name}' is a symbolic link or not a regular file "
        "(the folder may have been edited). Nothing was read or written through it.",
        "ja": "セッション {session_id} の使用を拒否しました: '{name}' がシンボリックリンクか通常のファイルではありません"
        "（フォルダーが編集された可能性があります）。それを通して読み書きはしていません。",
    },
    "session_folder.bad_state": {
        "en": "Refusing to resume: the session's checkpoint holds {what}, which this program never writes "
        "(the folder may have been edited). Nothing was read or run.",
        "ja": "再開を拒否しました: セッションのチェックポイントに、このプログラムが書き込まない {what} があります"
        "（フォルダーが編集された可能性があります）。何も読み込み・実行していません。",
    },
    "session_folder.bad_schema": {
        "en": "Refusing to resume: the session's checkpoints.sqlite defines the {kind} '{name}', which this "
        "program never creates (the folder may have been edited). Nothing was read or run.",
        "ja": "再開を拒否しました: セッションの checkpoints.sqlite に、このプログラムが作らない {kind} '{name}' があります"
        "（フォルダーが編集された可能性があります）。何も読み込み・実行していません。",
    },
    "session_folder.link_removed": {
        "en": "Removed the link {session_id} (it pointed elsewhere; what it pointed to was left alone).",
        "ja": "リンク {session_id} を削除しました（リンク先には触れていません）。",
    },
    "session_folder.running": {
        "en": "Session {session_id} is running now; stop it first (Ctrl-C in its terminal), then remove it.",
        "ja": "セッション {session_id} は実行中です。先に停止（その端末で Ctrl-C）してから削除してください。",
    },
    "session_folder.damaged": {
        "en": "damaged",
        "ja": "破損",
    },
}
