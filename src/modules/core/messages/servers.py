"""Messages of the MCP servers and their clients (servers/, modules/clients/, cli/mcp_command.py)."""

MESSAGES: dict[str, dict[str, str]] = {
    "servers.websearch_crashed": {
        "en": "The web-search server ({command}) stopped again after a restart ({reason}); this step was not "
        "completed. The session is kept and can be resumed with research --resume.",
        "ja": "ウェブ検索サーバー（{command}）が再起動後にも停止しました（{reason}）。この手順は完了していません。"
        "セッションは保存されており、research --resume で再開できます。",
    },
    "servers.bad_cache_dir": {
        "en": "Cannot use --cache-dir {path}: {reason}",
        "ja": "--cache-dir {path} を使用できません: {reason}",
    },
    "servers.parser_no_sandbox": {
        "en": "No sandbox can run here ({reason}); the parser server refuses to parse untrusted documents "
        "with network access. Install bubblewrap, or pass --no-sandbox to run it unsandboxed anyway.",
        "ja": "ここではサンドボックスを使えません（{reason}）。パーサーサーバーはネットワークに接続できる状態で"
        "信頼できない文書を解析しません。bubblewrap をインストールするか、承知の上で --no-sandbox を指定してください。",
    },
    "servers.parser_unsandboxed": {
        "en": "WARNING: research mcp parser runs WITHOUT a sandbox (--no-sandbox): documents are parsed with "
        "network access and the user's file rights.",
        "ja": "警告: research mcp parser はサンドボックスなしで動作します（--no-sandbox）。文書はネットワークと"
        "ユーザーのファイル権限を持つプロセスで解析されます。",
    },
    # --- what the web-search server says about its engines (servers/web/engines/) -------
    # The server writes these in English (other MCP hosts read them); our client says them
    # in the user's language (localise_note in modules/clients/web_search_client.py), so
    # every template here is read back by its English text: keep the English unambiguous.
    "servers.engine.unavailable": {"en": "{engine} unavailable: {reason}", "ja": "{engine} を使えません: {reason}"},
    "servers.engine.crashed": {"en": "{engine} failed unexpectedly: {reason}",
                               "ja": "{engine} が予期せず失敗しました: {reason}"},
    "servers.engine.instead": {
        "en": "results from {engine} instead (RESEARCH_SEARCH_FALLBACK is on)",
        "ja": "代わりに {engine} の結果を使いました（RESEARCH_SEARCH_FALLBACK がオン）",
    },
    "servers.engine.no_fallback": {
        "en": "no other engine was asked (RESEARCH_SEARCH_FALLBACK is off)",
        "ja": "ほかの検索エンジンには問い合わせていません（RESEARCH_SEARCH_FALLBACK がオフ）",
    },
    "servers.reason.url_refused": {"en": "{engine} URL refused: {detail}", "ja": "{engine} の URL を拒否しました: {detail}"},
    "servers.reason.unreachable": {"en": "{engine} at {where} is unreachable ({error})",
                                   "ja": "{engine}（{where}）に接続できません（{error}）"},
    "servers.reason.rate_limited": {"en": "{engine} rate-limited the search (HTTP 429)",
                                    "ja": "{engine} が検索を制限しました（HTTP 429）"},
    "servers.reason.rate_limited_plain": {"en": "{engine} rate-limited the search",
                                          "ja": "{engine} が検索を制限しました"},
    "servers.reason.http_status": {"en": "{engine} answered HTTP {status}", "ja": "{engine} が HTTP {status} を返しました"},
    "servers.reason.not_json": {"en": "{engine} answered with something that is not JSON",
                                "ja": "{engine} の応答が JSON ではありません"},
    "servers.reason.too_large": {"en": "{engine} answered more than {limit} KiB (once decompressed); not read",
                                 "ja": "{engine} の応答が {limit} KiB を超えました（展開後）。読み込みませんでした"},
    "servers.reason.bad_encoding": {"en": "{engine} answered in an encoding not read here: {detail}",
                                    "ja": "{engine} の応答は読み込めない符号化です: {detail}"},
    "servers.reason.json_refused": {
        "en": "{engine} refused the JSON format (enable `json` under search.formats)",
        "ja": "{engine} が JSON 形式を拒否しました（settings.yml の search.formats に json を加えてください）",
    },
    "servers.reason.no_results_list": {"en": "{engine} answered JSON without a results list",
                                       "ja": "{engine} の JSON 応答に結果の一覧がありません"},
    "servers.reason.upstream": {"en": "{engine}'s upstream engines did not answer ({names})",
                                "ja": "{engine} の上流の検索エンジンが応答しませんでした（{names}）"},
    "servers.reason.timed_out": {"en": "{engine} timed out ({detail})", "ja": "{engine} がタイムアウトしました（{detail}）"},
    "servers.reason.failed": {"en": "{engine} failed: {detail}", "ja": "{engine} が失敗しました: {detail}"},
    "servers.reason.not_configured": {"en": "{engine} is selected but {setting} is not set",
                                      "ja": "{engine} が選ばれていますが {setting} が設定されていません"},
    "servers.reason.docs_missing": {"en": "the documents folder {path} does not exist",
                                    "ja": "文書フォルダ {path} が存在しません"},
    # Files of the documents folder the local engine could not read: what they hold is in no answer.
    "servers.reason.documents_skipped": {
        "en": "files of the documents folder not read ({count}): {detail}",
        "ja": "読み込めなかった文書フォルダのファイル（{count} 件）: {detail}",
    },
    "servers.reason.no_document_read": {
        "en": "none of the {total} files of the documents folder could be read: {detail}",
        "ja": "文書フォルダの {total} 件のファイルをどれも読み込めませんでした: {detail}",
    },
    # Why a search site could not be reached, in plain words (engines/duckduckgo.plain_reason).
    "servers.reason.no_dns": {"en": "cannot look up {where} (no network or no DNS)",
                              "ja": "{where} の名前を引けません（ネットワークか DNS がありません）"},
    "servers.reason.no_connection": {"en": "cannot connect to {where}", "ja": "{where} に接続できません"},
    "servers.reason.too_slow": {"en": "{where} did not answer in time", "ja": "{where} が時間内に応答しませんでした"},
}
