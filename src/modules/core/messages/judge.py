"""Messages about the judge of uncertain claims (``judge.*``): the report's note, a judge
that is missing or unreadable, and `research doctor`'s line (modules/llm/judge.py)."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    "judge.note_checker": {
        "en": "Judge: {model}, a grounded fact-checking model, decided the claims the cheap checks left open, one "
              "sentence at a time against the passages it cites; Japanese sentences went to {japanese} with the "
              "judge prompt (the checker is trained on English).",
        "ja": "判定: 簡易チェックで決まらなかった主張は、根拠照合専用モデル {model} が1文ずつ引用箇所と照合して判定しました。"
              "日本語の文は {japanese}（判定用プロンプト）が判定しました（照合モデルは英語で学習されています）。",
    },
    "judge.note_checker_all": {
        "en": "Judge: {model}, a grounded fact-checking model, decided the claims the cheap checks left open, one "
              "sentence at a time against the passages it cites (Japanese sentences too: RESEARCH_JUDGE_JA).",
        "ja": "判定: 簡易チェックで決まらなかった主張は、根拠照合専用モデル {model} が1文ずつ引用箇所と照合して判定しました"
              "（RESEARCH_JUDGE_JA により日本語の文も含む）。",
    },
    "judge.note_prompt": {
        "en": "Judge: the drafting model {model} with the judge prompt decided the claims the cheap checks left open. "
              "A model made for this is one command away: ollama pull bespoke-minicheck",
        "ja": "判定: 簡易チェックで決まらなかった主張は、回答を書いたモデル {model} が判定用プロンプトで判定しました。"
              "専用の照合モデルは ollama pull bespoke-minicheck で導入できます。",
    },
    "judge.untrusted": {
        "en": "The judge {model} told supported from unsupported claims in only {accuracy} of the {items} checks "
              "it was measured on (balanced accuracy; {threshold} needed), so it decided nothing: sentences the "
              "quick checks could not decide are marked \"not checked\". A model made for this: "
              "ollama pull bespoke-minicheck",
        "ja": "判定モデル {model} は測定用の {items} 件で裏付けの有無を {accuracy} しか見分けられませんでした"
              "（バランス精度、必要なのは {threshold}）。そのため判定には使わず、簡易チェックで決まらなかった文は"
              "「未確認」としました。専用の照合モデルは ollama pull bespoke-minicheck で導入できます。",
    },
    "judge.measuring": {
        "en": "Measuring the judge {model} on up to {items} labelled checks before its verdicts count (once per model)…",
        "ja": "判定モデル {model} を、判定に使う前にラベル付きの確認用データ（最大 {items} 件）で測定しています（モデルごとに一度だけ）…",
    },
    "judge.note_measured": {
        "en": "Measured before use on the project's {items} labelled checks (English and Japanese): balanced "
              "accuracy {accuracy}.",
        "ja": "使用前に本プロジェクトのラベル付き確認用データ {items} 件（英語・日本語）で測定: バランス精度 {accuracy}。",
    },
    "judge.missing": {
        "en": "The judge model {model} (RESEARCH_JUDGE_MODEL) is not installed in Ollama (ollama pull {model}); "
              "the drafting model {drafting} judged instead.",
        "ja": "判定モデル {model}（RESEARCH_JUDGE_MODEL）が Ollama にありません（ollama pull {model}）。"
              "代わりに回答を書いたモデル {drafting} が判定しました。",
    },
    "judge.unreadable": {
        "en": "The judge {model} gave no readable Yes/No for {count} sentence(s) (e.g. \"{reply}\"); they are marked "
              "\"not checked\".",
        "ja": "判定モデル {model} が {count} 文について読み取れる Yes/No を返しませんでした（例: \"{reply}\"）。"
              "それらは「未確認」としました。",
    },
    "judge.unreadable_choice": {
        "en": "The judge {model} named no statement (A, B or C) for {count} sentence(s) (e.g. \"{reply}\"); they are "
              "marked \"not checked\".",
        "ja": "判定モデル {model} が {count} 文について選択肢（A・B・C）を答えませんでした（例: \"{reply}\"）。"
              "それらは「未確認」としました。",
    },
    "judge.note_choice": {
        "en": "Judge: the drafting model {model} decided the claims the cheap checks left open by choosing, for each, "
              "between the claim and its negation as the passage reads, twice with the two swapped; only the same "
              "choice both times counts (it measured too low when asked for verdicts). A model made for this is one "
              "command away: ollama pull bespoke-minicheck",
        "ja": "判定: 簡易チェックで決まらなかった主張は、回答を書いたモデル {model} が、主張とその否定のどちらを文章が"
              "裏付けるかを順序を入れ替えて2回選び、2回とも同じ選択のときだけ判定としました（判定を直接答えさせる方式では"
              "測定結果が低かったため）。専用の照合モデルは ollama pull bespoke-minicheck で導入できます。",
    },
    "judge.call_failed": {
        "en": "The judge {model} failed for {count} sentence(s) ({reason}); they are marked \"not checked\".",
        "ja": "判定モデル {model} の呼び出しが {count} 文で失敗しました（{reason}）。それらは「未確認」としました。",
    },
    "model.capped": {
        "en": "The model wrote to its cap of {tokens} tokens in the {node} step without finishing ({count} "
              "time(s)); the reply was cut there instead of running on, and only what it finished was used.",
        "ja": "{node} の段階でモデルが上限の {tokens} トークンまで書いても終わりませんでした（{count} 回）。"
              "そこで打ち切り、書き終えた部分だけを使いました。",
    },
    "model.repeating": {
        "en": "The model began writing the same thing over and over in the {node} step ({count} time(s)); "
              "the reply was stopped there instead of running on to its cap, and only what came before was used.",
        "ja": "{node} の段階でモデルが同じ内容を繰り返し書き始めました（{count} 回）。上限まで待たずにそこで止め、"
              "それより前の部分だけを使いました。",
    },
    "verifier.loop_nothing_to_settle": {
        "en": "No further search round: every claim left out was settled by the sources read (shown false, or "
              "judged against passages holding all it says), or no query could aim at it",
        "ja": "追加の検索は行いません。採用しなかった主張はすべて読んだ出典で決着したか（誤りと判明、または必要な語句を"
              "すべて含む文章で判定済み）、それを狙う検索語を作れませんでした",
    },
    "doctor.check.judge": {"en": "Judge", "ja": "判定モデル"},
    "doctor.check.judge_quality": {"en": "Judge measured", "ja": "判定モデルの測定"},
    "doctor.judge_trusted": {
        "en": "{model}: balanced accuracy {accuracy} on the {items} labelled checks (English and Japanese; "
              "{threshold} needed), {seconds} s: its verdicts count",
        "ja": "{model}: ラベル付き確認用データ {items} 件（英語・日本語）でバランス精度 {accuracy}（必要なのは {threshold}）、"
              "{seconds} 秒。判定に使います",
    },
    "doctor.judge_untrusted": {
        "en": "{model}: balanced accuracy {accuracy} on the {items} labelled checks (English and Japanese; "
              "{threshold} needed): it decides nothing, and sentences the quick checks leave open are marked "
              "\"not checked\"",
        "ja": "{model}: ラベル付き確認用データ {items} 件（英語・日本語）でバランス精度 {accuracy}（必要なのは {threshold}）。"
              "判定には使わず、簡易チェックで決まらない文は「未確認」になります",
    },
    "doctor.judge_by_choice": {
        "en": " (asked to choose between each claim and its negation, twice with the two swapped: asked for verdicts "
              "it measured lower)",
        "ja": "（各主張とその否定のどちらかを、順序を入れ替えて2回選ばせる方式。判定を直接答えさせる方式では測定結果が"
              "低かったため）",
    },
    "doctor.judge_better": {
        "en": ". A model made for judging does better: ollama pull {checker}",
        "ja": "。判定専用のモデルの方が適しています: ollama pull {checker}",
    },
    "doctor.judge_checker": {
        "en": "{model}: a grounded fact-checking model judges English sentences; Japanese: {japanese}",
        "ja": "{model}: 根拠照合専用モデルが英語の文を判定します。日本語の文: {japanese}",
    },
    "doctor.judge_prompt": {
        "en": "the drafting model {model} with the judge prompt. For a model made for the job: "
              "ollama pull bespoke-minicheck",
        "ja": "回答を書いたモデル {model} が判定用プロンプトで判定します。専用の照合モデルは "
              "ollama pull bespoke-minicheck で導入できます。",
    },
    "doctor.judge_chosen_prompt": {
        "en": "the drafting model {model} with the judge prompt (RESEARCH_JUDGE_MODEL)",
        "ja": "回答を書いたモデル {model} が判定用プロンプトで判定します（RESEARCH_JUDGE_MODEL）。",
    },
    "doctor.judge_missing": {
        "en": "RESEARCH_JUDGE_MODEL={model} is not installed (ollama pull {model}); the drafting model {drafting} "
              "judges instead",
        "ja": "RESEARCH_JUDGE_MODEL={model} がインストールされていません（ollama pull {model}）。代わりに "
              "{drafting} が判定します。",
    },
    # --- the guard model that screens page text (modules/llm/guard.py) ---
    "guard.not_answered": {
        "en": "The guard model {model} gave no Yes/No for {count} of {total} passage(s) ({reason}); the grammar's "
              "screening stands for them.",
        "ja": "ガードモデル {model} が {total} 件中 {count} 件の文に Yes/No を返しませんでした（{reason}）。"
              "それらは文法による検査の判断のままです。",
    },
    "doctor.check.guard": {"en": "Guard", "ja": "ガードモデル"},
    "doctor.guard_installed": {
        "en": "{model}: asked the jailbreak risk of the page passages the injection screen flags or finds borderline",
        "ja": "{model}: 注入検査が検出した文や判断の際どい文について、ジェイルブレイクの危険を判定します",
    },
    "doctor.guard_missing": {
        "en": "none installed: page text is screened by the grammar alone. For a second opinion from a guard model: "
              "ollama pull granite3-guardian (Apache-2.0)",
        "ja": "未導入です。ページ本文は文法による検査だけで確認します。ガードモデルによる再確認には "
              "ollama pull granite3-guardian（Apache-2.0）で導入できます。",
    },
}
