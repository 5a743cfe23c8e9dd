"""The options of a run (modules/core/run_options.py): each option's help text, read by
`--help`, the research tools' schema and the README's table, and what a bad value says."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    # --- one help text per option: run_option.<name> ---
    "run_option.language": {"en": "answer language (default: detect from the question)",
                            "ja": "回答の言語（既定: 質問から判定）"},
    "run_option.model": {"en": "Ollama model", "ja": "Ollama のモデル"},
    "run_option.search_engine": {"en": "search engine", "ja": "検索エンジン"},
    "run_option.docs_dir": {"en": "folder of your own documents (.md, .txt, .html, .pdf): searched instead of the web "
                                  "unless --engine names an engine",
                            "ja": "自分の文書のフォルダー（.md、.txt、.html、.pdf）。--engine でエンジンを指定しない限り、"
                                  "ウェブの代わりにこれを検索する"},
    "run_option.max_verification_loops": {"en": "follow-up search rounds for unsupported claims",
                                          "ja": "裏付けのない主張のための追加検索の回数"},
    "run_option.depth": {"en": "quick: one search round; standard: planned sub-questions; deep: one more "
                               "verification loop",
                         "ja": "quick: 検索1回、standard: 計画したサブ質問、deep: 検証ループを1回追加"},
    "run_option.review_plan": {"en": "stop after planning to review the sub-questions (needs a terminal)",
                               "ja": "計画の後で止まり、サブ質問を確認する（端末が必要）"},
    "run_option.max_sources": {"en": "read at most this many sources; then no more searching",
                               "ja": "読む出典の上限。達したらそれ以上検索しない"},
    "run_option.max_llm_tokens": {"en": "stop at this many model tokens (prompt and answer) and write the report",
                                  "ja": "モデルのトークン数（プロンプトと回答）の上限。達したらレポートを作成"},
    "run_option.max_seconds": {"en": "stop after this many seconds of work and write the report",
                               "ja": "作業時間（秒）の上限。達したらレポートを作成"},
    "run_option.since": {"en": "use only sources dated this year or later, by the latest date in the address "
                               "(/2019/05/) or labelled at the top of the page (Published: …); a source with no "
                               "known date is kept",
                         "ja": "この年以降の日付の出典だけを使う。日付はアドレス（/2019/05/）かページ冒頭の表示"
                               "（公開日: …）の最も新しいもの。日付の分からない出典は残す"},
    "run_option.default": {"en": "default {value}", "ja": "既定 {value}"},
    # --- what a tool caller reads beside a capped option ---
    "run_option.tool_capped": {"en": "(at most the server's own limit)", "ja": "（サーバー自身の上限まで）"},
    # --- a bad value: "{flag}: '{value}' …", then what the option takes ---
    "run_option.bad_value": {"en": "{flag}: '{value}' is not valid; give {expected}.",
                             "ja": "{flag}: '{value}' は使えません。{expected}を指定してください。"},
    "run_option.expect_one_of": {"en": "one of {choices}", "ja": "{choices} のいずれか"},
    "run_option.expect_whole": {"en": "a whole number", "ja": "整数"},
    "run_option.expect_number": {"en": "a number", "ja": "数値"},
    "run_option.expect_text": {"en": "a non-empty value", "ja": "空でない値"},
    "run_option.expect_from_to": {"en": "{kind} from {low} to {high}", "ja": "{low}〜{high} の{kind}"},
    "run_option.expect_at_least": {"en": "{kind} of at least {low}", "ja": "{low} 以上の{kind}"},
    "run_option.expect_above": {"en": "{kind} above {low}", "ja": "{low} より大きい{kind}"},
    # --- --since: sources dated before the year ---
    "run_option.dated_before": {"en": "dated {dated}, before --since {year}: not used",
                                "ja": "{dated} 年の資料（--since {year} より前）のため使いません"},
    "progress.dated_before": {
        "en": "{count} of {total} {total:source|sources} dated before {year} left out (--since {year})",
        "ja": "{total} 件中 {count} 件の出典は {year} 年より前の日付のため除外しました（--since {year}）",
    },
}
