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
}
