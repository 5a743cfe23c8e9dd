"""Messages of `research serve` (``serve.*``): the HTTP service, its tokens and workers,
and `research "…"` when it submits to a server (RESEARCH_SERVER)."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    "serve.needs_database": {
        "en": "set RESEARCH_DATABASE_URL=postgresql://… first: the workers share the run queue and the sessions "
              "there (see docs/scale.md).",
        "ja": "先に RESEARCH_DATABASE_URL=postgresql://… を設定してください。ワーカーは実行待ちの列と"
              "セッションをそこで共有します（docs/scale.md 参照）。",
    },
    "serve.database_unreachable": {
        "en": "Cannot reach the database in RESEARCH_DATABASE_URL: {reason}",
        "ja": "RESEARCH_DATABASE_URL のデータベースに接続できません: {reason}",
    },
    "serve.listening": {
        "en": "Serving research over MCP (Streamable HTTP) at {url} with {workers} worker(s). Stop with Ctrl-C.",
        "ja": "MCP（Streamable HTTP）で調査を提供しています: {url}（ワーカー {workers} 個）。Ctrl-C で停止します。",
    },
    "serve.public_host": {
        "en": "Warning: listening on {host}, beyond this machine. Tokens travel in clear over plain HTTP: put the "
              "service behind HTTPS (a reverse proxy) before others use it.",
        "ja": "警告: {host} で待ち受けており、このマシンの外から接続できます。平文の HTTP ではトークンが"
              "そのまま流れます。他の人が使う前に HTTPS（リバースプロキシ）の後ろに置いてください。",
    },
    "serve.no_tokens": {
        "en": "No tokens yet in {path}: every request will be refused (401). Add one: research serve token add NAME",
        "ja": "{path} にトークンがまだありません。すべての要求は拒否されます（401）。"
              "追加: research serve token add 名前",
    },
    "serve.port_in_use": {"en": "Cannot listen on {host}:{port}: {reason}", "ja": "{host}:{port} で待ち受けできません: {reason}"},
    "serve.worker_started": {"en": "Worker {worker} is waiting for runs.", "ja": "ワーカー {worker} が実行待ちです。"},
    # --- a worker's lines for the operator (stderr, through the log: RESEARCH_LOG_LEVEL) ---
    "worker.line": {"en": "worker {worker}: {line}", "ja": "ワーカー {worker}: {line}"},
    "worker.reconnecting": {"en": "the queue's database failed ({reason}); connecting again",
                            "ja": "キューのデータベースでエラーが起きました（{reason}）。接続し直します"},
    "worker.handed_back_silent": {"en": "handed back runs of silent workers: jobs {jobs}, runs {runs}",
                                  "ja": "応答のないワーカーの実行をキューに戻しました: ジョブ {jobs}、実行 {runs}"},
    "worker.claimed": {"en": "claimed run {run_id} (claim {claims})",
                       "ja": "実行番号 {run_id} を引き受けました（{claims} 回目）"},
    "worker.left_run": {"en": "left run {run_id} after {seconds} s", "ja": "実行番号 {run_id} を {seconds} 秒で離れました"},
    "worker.left_behind": {"en": "run {run_id} did not stop within {seconds} s; left behind (its writes are fenced)",
                           "ja": "実行番号 {run_id} が {seconds} 秒以内に止まりませんでした。そのまま離れます"
                                 "（その書き込みは遮断されています）"},
    "worker.session_held": {"en": "run {run_id}: its session is still held by an earlier claim; handing it back",
                            "ja": "実行番号 {run_id}: セッションがまだ以前の引き受けに使われています。キューに戻します"},
    "worker.index_row_kept": {"en": "could not remove the index row of {session_id}: {reason}",
                              "ja": "{session_id} の索引の行を削除できませんでした: {reason}"},
    "worker.removed_unrecorded": {"en": "removed session {session_id}, an unrecorded earlier attempt of run {run_id}",
                                  "ja": "実行番号 {run_id} の記録されなかった以前の試行のセッション {session_id} を削除しました"},
    "worker.hand_back_failed": {"en": "could not hand run {run_id} back: {reason}",
                                "ja": "実行番号 {run_id} をキューに戻せませんでした: {reason}"},
    "worker.unhandled": {"en": "an error no task handled: {message}: {reason}",
                         "ja": "どのタスクも処理しなかったエラー: {message}: {reason}"},
    "serve.sessions_folder_unlocked": {
        "en": "The sessions folder {path} is on {fstype} ({option}): its locks do not hold across hosts, so two "
              "workers could write one session. Mount it with server-side locks (NFS: without nolock or "
              "local_lock) or use a local folder (see docs/scale.md).",
        "ja": "セッションフォルダー {path} は {fstype}（{option}）上にあり、ロックがホストをまたいで効かないため、"
              "二つのワーカーが同じセッションに書き込むおそれがあります。サーバー側ロックでマウントする"
              "（NFS なら nolock や local_lock なし）か、ローカルのフォルダーを使ってください（docs/scale.md 参照）。",
    },
    "serve.worker_restarted": {
        "en": "Worker process {pid} exited (code {code}); starting another.",
        "ja": "ワーカープロセス {pid} が終了しました（終了コード {code}）。新しく起動します。",
    },
    "serve.tokens_unreadable": {
        "en": "Cannot read the tokens file {path} ({reason}).",
        "ja": "トークンファイル {path} を読めません（{reason}）。",
    },
    "serve.token_bad_name": {
        "en": "A token needs a name of 1 to {limit} characters (who or what uses it).",
        "ja": "トークンには 1〜{limit} 文字の名前（使う人や用途）が必要です。",
    },
    "serve.token_name_taken": {
        "en": "A token named {name!r} exists already; revoke it first or pick another name.",
        "ja": "{name!r} という名前のトークンは既にあります。先に取り消すか、別の名前にしてください。",
    },
    "serve.token_unknown": {"en": "No token with id or name {ref!r}.", "ja": "ID または名前が {ref!r} のトークンはありません。"},
    "serve.token_added": {
        "en": "Token {token_id} ({name}) added. It is shown this once; give it to its user as "
              "`Authorization: Bearer <token>`:",
        "ja": "トークン {token_id}（{name}）を追加しました。表示はこの一度だけです。"
              "`Authorization: Bearer <トークン>` として利用者に渡してください:",
    },
    "serve.token_revoked": {"en": "Token {token_id} ({name}) revoked.", "ja": "トークン {token_id}（{name}）を取り消しました。"},
    "serve.token_list_empty": {"en": "No tokens in {path}.", "ja": "{path} にトークンはありません。"},
    # --- the service's tool answers ---------------------------------------------
    "serve.queue_full": {
        "en": "This token already has {waiting} runs queued or running (limit {limit}). Wait for one to finish.",
        "ja": "このトークンでは既に {waiting} 件の調査が待機中または実行中です（上限 {limit} 件）。"
              "どれかが終わるまでお待ちください。",
    },
    "serve.queued": {"en": "Queued as run {run_id}", "ja": "実行番号 {run_id} として受け付けました"},
    "serve.started": {"en": "Started by worker {worker}", "ja": "ワーカー {worker} が開始しました"},
    "serve.taken_over": {
        "en": "Worker {worker} took the run over and resumes it from its last checkpoint",
        "ja": "ワーカー {worker} が引き継ぎ、最後のチェックポイントから再開します",
    },
    "serve.unknown_session": {
        "en": "No session {session_id} among this token's sessions.",
        "ja": "このトークンのセッションに {session_id} はありません。",
    },
    "serve.run_cancelled": {"en": "Run {run_id} was cancelled.", "ja": "実行番号 {run_id} は取り消されました。"},
    "serve.run_failed": {"en": "Research failed: {reason}", "ja": "調査に失敗しました: {reason}"},
    # --- research "…" with RESEARCH_SERVER --------------------------------------
    "serve.client_no_token": {
        "en": "RESEARCH_SERVER is set but RESEARCH_SERVER_TOKEN is not: ask the server's admin for a token.",
        "ja": "RESEARCH_SERVER が設定されていますが RESEARCH_SERVER_TOKEN がありません。"
              "サーバーの管理者にトークンを依頼してください。",
    },
    "serve.client_refused": {
        "en": "The research server at {url} refused the token (401): check RESEARCH_SERVER_TOKEN.",
        "ja": "{url} の調査サーバーがトークンを拒否しました（401）。RESEARCH_SERVER_TOKEN を確認してください。",
    },
    "serve.client_too_large": {
        "en": "The research server at {url} sent more than {limit} MB in one response; nothing of it was printed.",
        "ja": "{url} の調査サーバーが1回の応答で {limit} MB を超えるデータを送ってきたため、何も表示しませんでした。",
    },
    "serve.client_unreachable": {
        "en": "Cannot reach the research server at {url}: {reason}",
        "ja": "{url} の調査サーバーに接続できません: {reason}",
    },
}
