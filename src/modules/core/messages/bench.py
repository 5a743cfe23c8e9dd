"""Messages of `research bench` (cli/bench.py, orchestrator/bench/). Keys: ``bench.``."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    # --- bad input: one line, exit 2 ---
    "bench.unknown_set": {
        "en": "Unknown question set '{name}'; the sets are: {sets}",
        "ja": "問題セット「{name}」はありません。使えるセット: {sets}",
    },
    "bench.no_file": {
        "en": "No set file at {path} (give the set's file with --data)",
        "ja": "{path} にセットのファイルがありません（--data でセットのファイルを指定してください）",
    },
    "bench.no_data": {
        "en": "Give the set's file with --data FILE, or fetch it once with: research bench {set} --fetch",
        "ja": "--data FILE でセットのファイルを指定するか、先に research bench {set} --fetch で取得してください",
    },
    # --- --fetch: exit 1 when it cannot be done ---
    "bench.fetch_failed": {
        "en": "Could not fetch {url}: {reason} (offline, give the set's file with --data)",
        "ja": "{url} を取得できませんでした: {reason}（オフラインでは --data でセットのファイルを指定してください）",
    },
    "bench.fetch_wrong_hash": {
        "en": "Refused {url}: its sha256 is {got}…, not the pinned {expected}…; the file was not kept",
        "ja": "{url} を拒否しました: sha256 が固定値 {expected}… ではなく {got}… です。このファイルは保存していません",
    },
    "bench.fetch_with_data": {
        "en": "--fetch fetches the set into your cache; it does not take --data",
        "ja": "--fetch はセットをキャッシュに取得するオプションです。--data とは一緒に使えません",
    },
    "bench.fetched": {
        "en": "Set {set}: {path} ({downloaded} files downloaded, sha256 checked)\n"
              "Licence: {licence}\nAttribution: {attribution}\nRun it with: research bench {set} --sample 30",
        "ja": "セット {set}: {path}（{downloaded} ファイルを取得、sha256 を確認済み）\n"
              "ライセンス: {licence}\n出典: {attribution}\n実行: research bench {set} --sample 30",
    },
    "bench.help_fetch": {
        "en": "fetch the set's files (pinned address and sha256) into your cache, show their licence, and stop; "
              "later runs without --data read them from there",
        "ja": "セットのファイル（固定したアドレスと sha256）をキャッシュに取得し、ライセンスを表示して終了します。"
              "以降は --data なしでそこから読みます",
    },
    "bench.malformed": {
        "en": "{path} is not a file of this set: {reason}",
        "ja": "{path} はこのセットの形式のファイルではありません: {reason}",
    },
    "bench.bad_number": {
        "en": "{flag} takes a whole number of at least {least}, not '{value}'",
        "ja": "{flag} には {least} 以上の整数を指定してください（「{value}」は使えません）",
    },
    # --- --help ---
    "bench.help": {
        "en": "Run whole research runs over a question set whose pages are fixed, offline, and grade the answers.",
        "ja": "ページが固定された問題セットで調査を最後まで実行し（オフライン）、回答を採点します。",
    },
    "bench.help_set": {
        "en": "the question set: pubmedqa (English, yes/no/maybe) or jsquad (Japanese, answer spans)",
        "ja": "問題セット: pubmedqa（英語、yes/no/maybe）または jsquad（日本語、回答スパン）",
    },
    "bench.help_data": {
        "en": "the set's file in its original format (PubMedQA ori_pqal.json, JSQuAD SQuAD JSON); "
              "default: the one --fetch put in your cache",
        "ja": "元の形式のセットのファイル（PubMedQA の ori_pqal.json、JSQuAD の SQuAD 形式 JSON）。"
              "既定: --fetch でキャッシュに取得したもの",
    },
    "bench.help_sample": {
        "en": "ask N questions drawn with --seed (default: all)",
        "ja": "--seed で選んだ N 問だけを実行（既定: 全問）",
    },
    "bench.help_seed": {"en": "the seed of the sample (default 0)", "ja": "抽出の乱数シード（既定 0）"},
    "bench.help_timeout": {
        "en": "seconds one question may take before it is recorded as failed (default {default:g})",
        "ja": "1 問にかけられる秒数。超えると失敗として記録します（既定 {default:g}）",
    },
    "bench.help_json": {
        "en": "print the summary as one JSON object on stdout",
        "ja": "集計を 1 つの JSON オブジェクトとして標準出力に出す",
    },
    # --- progress and results ---
    "bench.starting": {
        "en": "Bench {set}: {questions} questions, {pages} pages in the corpus, model {model}; folder {folder}",
        "ja": "ベンチ {set}: {questions} 問、コーパス {pages} ページ、モデル {model}。フォルダ {folder}",
    },
    "bench.resuming": {
        "en": "Questions already done by an earlier run of this bench: {done}; going on from there",
        "ja": "このベンチの以前の実行で {done} 問が済んでいます。続きから実行します",
    },
    "bench.progress": {
        "en": "[{done}/{planned}] {mark} {item}  accuracy so far {percent} ({correct}/{done}), {left} left",
        "ja": "[{done}/{planned}] {mark} {item}  ここまでの正答率 {percent}（{correct}/{done}）、残り {left}",
    },
    "bench.interrupted": {
        "en": "Bench stopped by {signal} after {done} of {planned} questions; run the same command to go on.",
        "ja": "{signal} でベンチを停止しました（{planned} 問中 {done} 問済み）。同じコマンドで続きから再開できます。",
    },
    "bench.written": {"en": "Results: {path}", "ja": "結果: {path}"},
    # --- the table and the report ---
    "bench.report_title": {"en": "Bench {set} — {model}", "ja": "ベンチ {set} — {model}"},
    "bench.report_accuracy_rule": {
        "en": "Accuracy counts every question asked: a run that failed or timed out is wrong. "
              "The first draft is graded the same way as the final, checked answer.",
        "ja": "正答率は出題したすべての問題で数えます（失敗・時間切れの実行は不正解）。"
              "最初の草稿も最終回答（検証済み）と同じ方法で採点します。",
    },
    "bench.col_figure": {"en": "Figure", "ja": "項目"},
    "bench.col_value": {"en": "Value", "ja": "値"},
    "bench.row_accuracy": {"en": "Accuracy (final answer)", "ja": "正答率（最終回答）"},
    "bench.row_completed": {"en": "Runs completed", "ja": "完了した実行"},
    "bench.row_draft_accuracy": {"en": "Accuracy of the first draft", "ja": "最初の草稿の正答率"},
    "bench.row_verification_changed": {
        "en": "Verification changed the answer", "ja": "検証で回答が変わった実行"},
    "bench.changed_value": {
        "en": "{changed}/{completed} runs (draft wrong → final right {helped}, draft right → final wrong {hurt})",
        "ja": "{completed} 件中 {changed} 件（草稿で誤り→最終で正解 {helped} 件、草稿で正解→最終で誤り {hurt} 件）",
    },
    "bench.row_seconds": {"en": "Seconds per question (median / p90)", "ja": "1 問あたりの秒数（中央値 / p90）"},
    "bench.row_tokens": {"en": "Model tokens per question (median / total)", "ja": "1 問あたりのトークン（中央値 / 合計）"},
    "bench.row_supported": {"en": "Claims supported", "ja": "裏付けのある主張"},
    "bench.row_citations": {
        "en": "Citations of the first drafts that name a source read", "ja": "最初の草稿の引用のうち読んだ出典を指すもの"},
    "bench.row_own_page": {
        "en": "Runs that read the page that answers the question", "ja": "答えのあるページを読んだ実行"},
    "bench.row_answer_chars": {"en": "Answer length, characters (median)", "ja": "回答の長さ（文字数の中央値）"},
    "bench.row_corpus": {"en": "Corpus searched", "ja": "検索したコーパス"},
    "bench.corpus_value": {
        "en": "{pages} pages (indexed in {seconds} s before the first question)",
        "ja": "{pages} ページ（最初の問題の前に {seconds} 秒で索引付け）",
    },
    "bench.row_read_how": {
        "en": "How the yes/no/maybe was read", "ja": "yes/no/maybe の読み取り方"},
    "bench.chart_final": {"en": "final answer", "ja": "最終回答"},
    "bench.chart_draft": {"en": "first draft", "ja": "最初の草稿"},
    "bench.chart_axis": {"en": "accuracy, % (95 % Wilson interval)", "ja": "正答率 %（Wilson 95% 区間）"},
    "bench.chart_alt": {"en": "Accuracy with its 95 % interval per configuration",
                        "ja": "構成ごとの正答率と 95% 区間"},
    "bench.wrong_heading": {"en": "Questions it got wrong ({count})", "ja": "不正解の問題（{count} 問）"},
    "bench.wrong_none": {"en": "None.", "ja": "ありません。"},
    "bench.wrong_more": {
        "en": "… and {count} more (results.jsonl has every question).",
        "ja": "…ほか {count} 問（全問は results.jsonl にあります）。",
    },
    "bench.gold": {"en": "gold", "ja": "正解"},
    "bench.predicted": {"en": "read from the answer", "ja": "回答から読み取った値"},
    "bench.own_page_missed": {"en": "its page was not read", "ja": "答えのあるページは読まれていません"},
    "bench.answer": {"en": "answer", "ja": "回答"},
}
