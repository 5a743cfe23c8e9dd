"""Messages about settings checked before a run starts (each names the setting and
what is wrong with it)."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    "setting.bad_value": {
        "en": "Invalid setting {name}={value}: {reason}",
        "ja": "設定 {name}={value} が不正です: {reason}",
    },
    "setting.searxng_url": {
        "en": "Invalid setting RESEARCH_SEARXNG_URL: '{value}' is not an http(s) URL",
        "ja": "設定 RESEARCH_SEARXNG_URL が不正です: '{value}' は http(s) の URL ではありません",
    },
    "setting.docs_missing": {
        "en": "Invalid setting RESEARCH_DOCS_DIR (--docs): {path} does not exist",
        "ja": "設定 RESEARCH_DOCS_DIR（--docs）が不正です: {path} は存在しません",
    },
    "setting.docs_not_folder": {
        "en": "Invalid setting RESEARCH_DOCS_DIR (--docs): {path} is a file, not a folder",
        "ja": "設定 RESEARCH_DOCS_DIR（--docs）が不正です: {path} はファイルで、フォルダーではありません",
    },
    "setting.docs_empty": {
        "en": "The documents folder {path} (--docs) has no file this program can read "
        "(.txt, .md, .html, .pdf); add some, or search the web without --docs.",
        "ja": "文書フォルダー {path}（--docs）に読めるファイル（.txt、.md、.html、.pdf）がありません。"
        "ファイルを追加するか、--docs を付けずにウェブを検索してください。",
    },
    "setting.config_not_file": {
        "en": "Invalid setting RESEARCH_CONFIG: {path} is not a file",
        "ja": "設定 RESEARCH_CONFIG が不正です: {path} はファイルではありません",
    },
    "setting.sandbox_unavailable": {
        "en": "Invalid setting RESEARCH_SANDBOX={sandbox}: {reason}",
        "ja": "設定 RESEARCH_SANDBOX={sandbox} が使えません: {reason}",
    },
}
