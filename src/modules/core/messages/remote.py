"""Messages of a run that goes through a team's `research serve` (``remote.*``): following a
queued run again after a blip, ``research attach``, and the server's sessions read from the CLI."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    # --- the service (its MCP tools and its API) ---------------------------------
    "remote.queued": {
        "en": "Queued as run {run_id} (if the connection drops, follow it again: research attach {run_id}, "
              "or the run tool)",
        "ja": "実行番号 {run_id} として受け付けました（接続が切れたら research attach {run_id} "
              "または run ツールで続きを追えます）",
    },
    "remote.queued_here": {
        "en": "Queued as run {run_id} (if this stops, follow it again: research attach {run_id})",
        "ja": "実行番号 {run_id} として受け付けました（途中で止まったら research attach {run_id} で続きを追えます）",
    },
    "remote.following": {"en": "Following run {run_id}", "ja": "実行番号 {run_id} の続きを表示します"},
    "remote.db_retrying": {
        "en": "The database is not answering; trying again (run {run_id} is kept)…",
        "ja": "データベースが応答しません。再試行しています（実行番号 {run_id} は保持されています）…",
    },
    "remote.db_lost": {
        "en": "The database did not answer for {seconds} s. Run {run_id} is kept: follow it again with "
              "research attach {run_id} or the run tool.",
        "ja": "データベースが {seconds} 秒応答しませんでした。実行番号 {run_id} は保持されています。"
              "research attach {run_id} または run ツールで続きを追えます。",
    },
    "remote.unknown_run": {
        "en": "No run {run_id} among this token's runs.",
        "ja": "このトークンの実行に番号 {run_id} はありません。",
    },
    "remote.run_failed": {
        "en": "Run {run_id} failed: {reason}",
        "ja": "実行番号 {run_id} は失敗しました: {reason}",
    },
    # --- the client (research "…" and research attach with RESEARCH_SERVER) -----
    "remote.server_retrying": {
        "en": "Lost contact with the research server ({reason}); trying again in {seconds} s (run {run_id} goes on "
              "there)…",
        "ja": "調査サーバーとの接続が切れました（{reason}）。{seconds} 秒後に再試行します"
              "（実行番号 {run_id} はサーバーで続いています）…",
    },
    "remote.submit_retrying": {
        "en": "The research server did not answer ({reason}); asking again in {seconds} s (the question is "
              "queued once, however often it is asked)…",
        "ja": "調査サーバーが応答しませんでした（{reason}）。{seconds} 秒後にもう一度送ります"
              "（何度送っても受け付けられるのは一度だけです）…",
    },
    "remote.reason_database": {"en": "its database is not answering", "ja": "サーバーのデータベースが応答しません"},
    "remote.server_lost": {
        "en": "The research server at {url} did not answer for {seconds} s ({reason}). Run {run_id} goes on there: "
              "research attach {run_id}",
        "ja": "{url} の調査サーバーが {seconds} 秒応答しませんでした（{reason}）。実行番号 {run_id} は"
              "サーバーで続いています: research attach {run_id}",
    },
    "remote.detached": {
        "en": "Stopped following run {run_id}; it goes on on the server. Follow it again: research attach {run_id} "
              "(or stop it: research cancel {run_id})",
        "ja": "実行番号 {run_id} の表示をやめました。サーバーでは続いています。続きを見るには: research attach {run_id}"
              "（止めるには: research cancel {run_id}）",
    },
    "remote.needs_server": {
        "en": "research {command} needs RESEARCH_SERVER (the address of the team's research serve).",
        "ja": "research {command} には RESEARCH_SERVER（チームの research serve のアドレス）が必要です。",
    },
    "remote.bad_run_id": {
        "en": "A run id is a number, as in \"Queued as run 12\": research {command} 12",
        "ja": "実行番号は数字です（「実行番号 12 として受け付けました」なら research {command} 12）。",
    },
    "remote.no_last_run": {
        "en": "No run was submitted from here yet: give its number, research {command} 12",
        "ja": "ここから送った実行はまだありません。番号を指定してください: research {command} 12",
    },
    # --- research cancel [N] and the cancel tool ---------------------------------
    "remote.cancelled_waiting": {
        "en": "Run {run_id} cancelled; it had not started.",
        "ja": "実行番号 {run_id} を取り消しました（まだ始まっていませんでした）。",
    },
    "remote.cancelled_running": {
        "en": "Run {run_id} cancelled; its session {session_id} is kept as far as it got. Continue it: "
              "research --resume {session_id}",
        "ja": "実行番号 {run_id} を取り消しました。セッション {session_id} は途中まで残っています。"
              "続けるには: research --resume {session_id}",
    },
    "remote.cancel_too_late": {
        "en": "Run {run_id} has already ended ({status}): nothing to cancel.",
        "ja": "実行番号 {run_id} はすでに終わっています（{status}）。取り消すものはありません。",
    },
    "remote.bad_answer": {
        "en": "The research server at {url} sent an answer this client cannot read ({reason}).",
        "ja": "{url} の調査サーバーの応答を読めませんでした（{reason}）。",
    },
    "remote.sessions_where": {"en": "Sessions on {url}", "ja": "{url} のセッション"},
    "remote.files_failed": {
        "en": "Cannot write the report files into {path}: {reason}",
        "ja": "レポートのファイルを {path} に書けません: {reason}",
    },
    "remote.rm_local_only": {
        "en": "research sessions rm removes local sessions only; the server keeps its own (unset RESEARCH_SERVER "
              "to remove a local one).",
        "ja": "research sessions rm はローカルのセッションだけを削除します。サーバーのセッションはサーバーが"
              "保持します（ローカルのものを消すには RESEARCH_SERVER を外してください）。",
    },
    "remote.unknown_session": {
        "en": "No session {session_id} among this token's sessions on {url}.",
        "ja": "{url} のこのトークンのセッションに {session_id} はありません。",
    },
    # --- research sessions open without a viewer ----------------------------------
    "remote.no_viewer": {
        "en": "No viewer could open it here (no display, or no PDF viewer installed); open the path above yourself.",
        "ja": "ここでは開けるビューアーがありません（画面がないか、PDF ビューアーがありません）。"
              "上のパスを自分で開いてください。",
    },
}
