"""Messages of the terminal's account of a run: failures as they happen, the
closing summary, sessions, `research config`, `--output` and doctor's search checks."""

MESSAGES: dict[str, dict[str, str]] = {
    # --- the REPL ----------------------------------------------------------------------
    "repl.depth_current": {
        "en": "Depth: {depth} (change it with /depth {choices})",
        "ja": "調査の深さ: {depth}（/depth {choices} で変更できます）",
    },
    "repl.plan_current_on": {"en": "Plan review is on (change it with /plan on|off)",
                             "ja": "計画の確認: オン（/plan on|off で変更できます）"},
    "repl.plan_current_off": {"en": "Plan review is off (change it with /plan on|off)",
                              "ja": "計画の確認: オフ（/plan on|off で変更できます）"},
    "repl.help.clear": {"en": "clear the screen (the conversation goes on; /new starts over)",
                        "ja": "画面を消去（会話は続きます。やり直すには /new）"},
    # --- during a run -----------------------------------------------------------------
    "terminal.servers_starting": {
        "en": "Starting the search and parser servers…",
        "ja": "検索サーバーとパーサーサーバーを起動中…",
    },
    "terminal.indexing_documents": {
        "en": "Indexing your documents: {done} of {total} {total:file|files} read (each file once; later runs reuse the index)",
        "ja": "資料フォルダーを索引付け中: {total} 件中 {done} 件を読み込み済み（各ファイル一度だけ。次回からは索引を再利用します）",
    },
    "terminal.engine_note": {
        "en": "Search engines: {note}",
        "ja": "検索エンジン: {note}",
    },
    "terminal.search_failed": {
        "en": "Search failed for {count} of {total} {total:query|queries}: {reason}",
        "ja": "{total} 件中 {count} 件のクエリで検索に失敗しました: {reason}",
    },
    "terminal.search_failed_note": {
        "en": "Search failed for {count} {count:query|queries}: {reason}",
        "ja": "{count} 件のクエリで検索に失敗しました: {reason}",
    },
    "terminal.search_tool_missing": {
        "en": "The web-search MCP server '{server}' has no tool '{tool}' (its tools: {tools}); nothing was "
        "searched. Use a server that offers {tool}, or unset RESEARCH_MCP_CONFIG.",
        "ja": "ウェブ検索 MCP サーバー「{server}」にはツール「{tool}」がありません（あるツール: {tools}）。"
        "何も検索していません。{tool} を持つサーバーを使うか、RESEARCH_MCP_CONFIG を外してください。",
    },
    "terminal.no_tools": {"en": "none", "ja": "なし"},
    # --- planning, as it goes (nodes/input.py) ---
    "plan.asking": {"en": "Asking the model for a plan of {low}–{high} sub-questions…",
                    "ja": "モデルに {low}〜{high} 個のサブ質問の計画を求めています…"},
    "plan.asking_again": {"en": "The plan has {count} {count:sub-question|sub-questions}; asking once more for at least {low}…",
                          "ja": "計画のサブ質問は {count} 個でした。{low} 個以上になるよう、もう一度求めています…"},
    "plan.timed_out": {"en": "Planning stopped after {seconds} s; the question itself is searched as it stands.",
                       "ja": "計画を {seconds} 秒で打ち切りました。質問そのものをそのまま検索します。"},
    "plan.planned": {"en": "Planned {count} {count:sub-question|sub-questions}, {queries} {queries:search|searches} ({languages})",
                     "ja": "サブ質問 {count} 個、検索 {queries} 件を計画しました（{languages}）"},
    "plan.fewer_sub_questions": {
        "en": "The model planned {count} {count:sub-question|sub-questions}, also when asked again ({depth} asks for "
        "{low}–{high}); the research goes on with {count}.",
        "ja": "モデルが計画したサブ質問は {count} 個でした（{depth} では {low}〜{high} 個。再度求めても同じ）。{count} 個で調査を続けます。",
    },
    "terminal.config_unknown_key": {
        "en": "Unknown setting '{name}' in the config file {path}; `research config` lists the settings.",
        "ja": "設定ファイル {path} に不明な設定 '{name}' があります。設定の一覧は `research config` で確認できます。",
    },
    "terminal.config_unknown_key_hint": {
        "en": "Unknown setting '{name}' in the config file {path} (did you mean '{suggestion}'?).",
        "ja": "設定ファイル {path} に不明な設定 '{name}' があります（'{suggestion}' のことですか？）。",
    },
    "doctor.verbose_settings": {
        "en": "Checked with: Ollama {host}, model {model}, engine {engine} (SearXNG {searxng}), sandbox {sandbox}, "
        "sessions {sessions}",
        "ja": "確認した設定: Ollama {host}、モデル {model}、エンジン {engine}（SearXNG {searxng}）、サンドボックス {sandbox}、"
        "セッション {sessions}",
    },
    "terminal.help_unknown": {
        "en": "No help for '{topic}'. Topics: {topics} (or `research --help`).",
        "ja": "'{topic}' のヘルプはありません。トピック: {topics}（または `research --help`）。",
    },
    "terminal.read_failed": {
        "en": "{count} of {total} {total:source|sources} could not be read: {reason}",
        "ja": "{total} 件中 {count} 件のソースを読み込めませんでした: {reason}",
    },
    "terminal.step_skipped": {
        "en": "skipped: no source was read",
        "ja": "読み込めたソースがないため省略",
    },
    "terminal.search_unreachable": {
        # Also said with --docs, where no network is involved: the check names both cases.
        "en": "No search engine could be reached, so nothing was searched (exit 5). `research doctor` checks the "
        "engine: the network for a web engine, the folder for --docs; README: \"When search fails\".",
        "ja": "検索エンジンに接続できず、何も検索できませんでした（終了コード 5）。`research doctor` で"
        "エンジンを確認してください（ウェブ検索ならネットワーク、--docs なら文書フォルダ。README の「When search fails」）。",
    },
    "terminal.language_left": {
        "en": "Some sentences are not in {language} and could not be rewritten; the report's notes say which.",
        "ja": "{language} 以外の文が残り、書き直せませんでした。レポートの注記に記載しています。",
    },
    "terminal.budget_stopped": {
        "en": "The {budget} budget ran out; the report uses what was found until then.",
        "ja": "{budget} の予算を使い切りました。レポートはそれまでに得た内容で作成しています。",
    },
    "terminal.draft_progress": {"en": "draft: {chars} characters", "ja": "下書き: {chars} 文字"},
    "terminal.checked_answer": {
        "en": "The checked answer (as in report.md):",
        "ja": "検証済みの回答（report.md と同じ）:",
    },
    "terminal.resume_options_kept": {
        "en": "Resumed with the options the session started with, not this command's: {options}",
        "ja": "このコマンドの設定ではなく、セッション開始時の設定で再開します: {options}",
    },
    "terminal.resuming_at": {
        "en": "Resuming session {session_id} at step \"{step}\"",
        "ja": "セッション {session_id} を「{step}」の手順から再開します",
    },
    "terminal.interrupted_kept": {
        "en": "Stopped by {signal}. Session {session_id} keeps the finished steps ({steps}); "
        "continue it with `research --resume {session_id}`",
        "ja": "{signal} で停止しました。セッション {session_id} は完了した手順（{steps}）を保持しています。"
        "`research --resume {session_id}` で再開できます",
    },
    "terminal.no_steps": {"en": "none yet", "ja": "まだなし"},
    "terminal.summary": {  # {counts}: verdict.counts, the one wording of the verdicts
        "en": "{sources} {sources:source|sources} read · {counts} · {loops} verification {loops:loop|loops} · {seconds:.0f} s",
        "ja": "読み込んだソース {sources} 件 · {counts} · 検証ループ {loops} 回 · {seconds:.0f} 秒",
    },
    "terminal.summary_unverified": {
        "en": "{sources} {sources:source|sources} read · no claims were checked · {seconds:.0f} s",
        "ja": "読み込んだソース {sources} 件 · 検証した主張なし · {seconds:.0f} 秒",
    },
    # --- sessions ---------------------------------------------------------------------
    "terminal.sessions_where": {"en": "Sessions in {path}", "ja": "セッションの場所: {path}"},
    "terminal.status_interrupted": {"en": "interrupted", "ja": "中断"},
    "terminal.status_search_failed": {"en": "search failed", "ja": "検索失敗"},
    "terminal.resume_these": {
        "en": "Interrupted: continue with `research --resume ID` (e.g. research --resume {session_id})",
        "ja": "中断したセッションは `research --resume ID` で再開できます（例: research --resume {session_id}）",
    },
    "terminal.rm_confirm": {
        "en": "Delete session {session_id} ({question})? [y/N] ",
        "ja": "セッション {session_id}（{question}）を削除しますか？ [y/N] ",
    },
    "terminal.rm_needs_yes": {
        "en": "Not deleting {session_id}: there is no terminal to confirm on; pass -y to delete without asking.",
        "ja": "{session_id} は削除しません。確認できる端末がありません。確認なしで削除するには -y を付けてください。",
    },
    "terminal.rm_kept": {"en": "Kept session {session_id}.", "ja": "セッション {session_id} は残しました。"},
    "terminal.progress_so_far": {
        "en": "Session {session_id} is {status} (no report yet); its progress so far. "
        "Continue with `research --resume {session_id}`",
        "ja": "セッション {session_id} は{status}です（レポートはまだありません）。ここまでの経過を示します。"
        "`research --resume {session_id}` で再開できます",
    },
    # A run still going (its lock is held): resuming it would be refused, so none is suggested.
    "terminal.progress_running": {
        "en": "Session {session_id} is still running (no report yet); its progress so far. "
        "Its report will be at {report}",
        "ja": "セッション {session_id} は実行中です（レポートはまだありません）。ここまでの経過を示します。"
        "レポートは {report} に作成されます",
    },
    # --- --output ---------------------------------------------------------------------
    "terminal.output_written": {"en": "Copied to {path}", "ja": "{path} にコピーしました"},
    "terminal.output_failed": {
        "en": "Cannot write --output {path}: {reason}",
        "ja": "--output {path} に書き込めません: {reason}",
    },
    # --- research config ----------------------------------------------------------------
    "terminal.config_title": {"en": "Effective settings", "ja": "有効な設定"},
    "terminal.config_col_setting": {"en": "Setting", "ja": "設定"},
    "terminal.config_col_value": {"en": "Value", "ja": "値"},
    "terminal.config_col_source": {"en": "From", "ja": "由来"},
    "terminal.config_file": {"en": "Config file: {path} ({state})", "ja": "設定ファイル: {path}（{state}）"},
    "terminal.config_file_found": {"en": "found", "ja": "あり"},
    "terminal.config_file_missing": {"en": "not present", "ja": "なし"},
    "terminal.config_sessions": {"en": "Sessions folder: {path}", "ja": "セッションフォルダ: {path}"},
    "terminal.source_default": {"en": "default", "ja": "既定値"},
    "terminal.source_env": {"en": "environment {name}", "ja": "環境変数 {name}"},
    "terminal.source_file": {"en": "config file", "ja": "設定ファイル"},
    # --- doctor -----------------------------------------------------------------------
    "terminal.doctor_tools": {"en": "Search tools", "ja": "検索ツール"},
    "terminal.doctor_tools_ok": {"en": "{server} offers {tools}", "ja": "{server} は {tools} を提供しています"},
    "terminal.doctor_tools_missing": {
        "en": "{server} lacks {missing} (it has: {tools})",
        "ja": "{server} には {missing} がありません（あるツール: {tools}）",
    },
    "terminal.doctor_search": {"en": "Test search", "ja": "テスト検索"},
    "terminal.doctor_search_ok": {
        "en": "\"{query}\": {count} {count:result|results} from {engine}",
        "ja": "「{query}」: {engine} から {count} 件",
    },
    "terminal.doctor_search_notes": {"en": "{detail} (notes: {notes})", "ja": "{detail}（注記: {notes}）"},
    "terminal.doctor_search_failed": {"en": "the test search failed: {reason}", "ja": "テスト検索に失敗しました: {reason}"},
    # --- research config init (cli/config_command.py) ---
    "config.template_head": {
        "en": "research's config file, written by `research config init`.\nEvery setting is commented out at its "
              "default: remove the # in front of one to set it.\nA flag beats an environment variable "
              "(RESEARCH_<NAME>), which beats this file. `research config` shows what is in effect.",
        "ja": "research の設定ファイル（`research config init` で作成）。\nどの設定も既定値のままコメントにしてあります。"
              "使う設定の行頭の # を外してください。\n優先順位はフラグ、環境変数（RESEARCH_<NAME>）、このファイルの順です。"
              "`research config` で有効な値を確認できます。",
    },
    "config.template_machine": {"en": "this machine", "ja": "このマシンの設定"},
    "config.written": {"en": "Wrote {path}: every setting in it is commented out at its default; edit it to set one.",
                       "ja": "{path} を作成しました。どの設定も既定値のままコメントにしてあります。使う設定を編集してください。"},
    "config.exists": {"en": "{path} exists already; it is kept. Replace it with `research config init --force`.",
                      "ja": "{path} はすでにあるため、そのままにしました。置き換えるには `research config init --force` を使ってください。"},
    "config.not_a_file": {"en": "{path} is not a plain file; nothing was written.",
                          "ja": "{path} は通常のファイルではないため、書き込みませんでした。"},
    "config.not_written": {"en": "Cannot write {path}: {reason}", "ja": "{path} を書き込めません: {reason}"},
    "doctor.search_offline_hint": {
        "en": "No network? Research your own documents: research --engine local --docs DIR \"…\"",
        "ja": "ネットワークがない場合は自分の文書で調べられます: research --engine local --docs フォルダー \"…\"",
    },
    "terminal.doctor_search_skipped": {"en": "no test query was sent (--offline)",
                                       "ja": "テスト検索はしていません（--offline）"},
    "terminal.doctor_judge_licence": {
        "en": "Bespoke-MiniCheck's weights are licensed CC BY-NC 4.0 (no commercial use); for a team's or a "
              "company's server, IBM Granite Guardian (Apache-2.0) judges instead: ollama pull granite3-guardian:8b "
              "and RESEARCH_JUDGE_MODEL=granite3-guardian:8b",
        "ja": "Bespoke-MiniCheck の重みは CC BY-NC 4.0（商用利用不可）です。チームや企業のサーバーでは IBM Granite "
              "Guardian（Apache-2.0）で判定できます: ollama pull granite3-guardian:8b と "
              "RESEARCH_JUDGE_MODEL=granite3-guardian:8b",
    },
    # The words in doctor's status column, as the README quotes them ("the rows say fail").
    "terminal.doctor_status.ok": {"en": "ok", "ja": "OK"},
    "terminal.doctor_status.warn": {"en": "warning", "ja": "注意"},
    "terminal.doctor_status.fail": {"en": "fail", "ja": "失敗"},
    "terminal.doctor_status.skip": {"en": "skipped", "ja": "省略"},
}
