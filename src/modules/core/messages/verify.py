"""Messages of ``research verify`` (``verify.*``) and of the verifier's report labels (``verifier.*``)."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    "verify.usage": {
        "en": "usage: research verify ANSWER.md --source FILE [--source FILE ...] [--session ID] [--no-judge] [--json] [--lang ja|en]"
              " | research verify --batch IN.jsonl [--no-judge]",
        "ja": "使い方: research verify 回答.md --source ファイル [--source ファイル ...] [--session ID] [--no-judge] [--json] [--lang ja|en]"
              " | research verify --batch 入力.jsonl [--no-judge]",
    },
    "verify.no_answer": {"en": "Give the answer file to check, or --batch IN.jsonl.", "ja": "確認する回答ファイルか --batch 入力.jsonl を指定してください。"},
    "verify.no_sources": {
        "en": "Give at least one --source FILE (or --session ID) to check the answer against.",
        "ja": "照合に使う --source ファイル（または --session ID）を1つ以上指定してください。",
    },
    "verify.unreadable": {"en": "Cannot read {path}: {reason}", "ja": "{path} を読めません: {reason}"},
    "verify.url_unsupported": {
        "en": "URL sources are not supported yet ({url}): save the page and pass the file.",
        "ja": "URLの出典にはまだ対応していません（{url}）。ページを保存してファイルを指定してください。",
    },
    "verify.parse_failed": {"en": "Could not read source {path}: {reason}", "ja": "出典 {path} を読み取れませんでした: {reason}"},
    "verify.bad_line": {"en": "Line {line} of {path} is not a valid input object: {reason}", "ja": "{path} の{line}行目は正しい入力ではありません: {reason}"},
    "verify.judge_unavailable": {
        "en": "The model judge could not run ({reason}); uncertain claims are marked \"not checked\".",
        "ja": "モデルによる判定を実行できませんでした（{reason}）。不確かな主張は「未確認」と表示します。",
    },
    "verify.col_claim": {"en": "Claim", "ja": "主張"},
    "verify.col_verdict": {"en": "Verdict", "ja": "判定"},
    "verify.col_source": {"en": "Source", "ja": "出典"},
    "verify.col_evidence": {"en": "Evidence", "ja": "根拠"},
    "verify.col_reason": {"en": "Reason", "ja": "理由"},
    # The verdicts' names are ``verdict.*`` (core/i18n.py): one name per state everywhere.
    "verifier.flag_not_checked": {"en": "(not checked)", "ja": "（未確認）"},
    "verifier.language_not_rewritten": {
        "en": "{count} sentence(s) of this report are not in English and could not be rewritten ({reason}); "
              "the final answer leaves them out: {examples}",
        "ja": "このレポートの{count}文は日本語ではなく、書き直せませんでした（{reason}）。最終的な回答からは除きます: {examples}",
    },
    "verifier.language_from_sources": {
        "en": "{count} sentence(s) the model wrote in another language and could not rewrite were replaced by "
              "the sentence their cited source says it with in English (checked like the others).",
        "ja": "モデルが別の言語で書き、書き直せなかった{count}文は、引用した出典が日本語で同じことを述べている文に置き換えました（他の文と同じく検証済み）。",
    },
    "verifier.cross_language_not_translated": {
        "en": "{count} claim(s) in another language than their sources could not be translated for checking "
              "({reason}); they are marked \"not checked\".",
        "ja": "出典と異なる言語の主張{count}件を、検証のために翻訳できませんでした（{reason}）。これらは「未確認」と表示します。",
    },
    "verifier.cross_language_unfaithful": {
        "en": "{count} claim(s) in another language than their sources were not checked: the model's translation "
              "changed a figure, a name, a denial or a status word (e.g. \"{example}\").",
        "ja": "出典と異なる言語の主張{count}件は検証しませんでした。モデルの翻訳で数値・名前・否定・状態を表す語が変わったためです（例:「{example}」）。",
    },
    "verifier.rewrite_no_reply": {"en": "the model gave no usable rewrite", "ja": "モデルから使える書き直しが返りませんでした"},
    # Why a sentence got its verdict, for people (research verify's reason column, the MCP text).
    "verify.why": {"en": "why: {reason}", "ja": "理由: {reason}"},
    "verify.evidence_line": {"en": "evidence [{label}]: {evidence}", "ja": "根拠 [{label}]: {evidence}"},
    "verify.reason.supported": {"en": "the source says the same", "ja": "出典が同じことを述べている"},
    "verify.reason.number_mismatch": {"en": "a number differs from the source", "ja": "数値が出典と異なる"},
    "verify.reason.number_missing": {"en": "the source does not give this number", "ja": "出典にこの数値がない"},
    "verify.reason.another_instance": {"en": "the source gives this figure for another one (another election, edition or year)",
                                       "ja": "出典がこの数値を挙げているのは別の回・年のこと"},
    "verify.reason.missing_term": {"en": "a key term is not in the source", "ja": "重要な語が出典にない"},
    "verify.reason.said_of_another": {"en": "the source says this of another subject",
                                      "ja": "出典はこれを別の対象について述べている"},
    "verify.reason.negation": {"en": "the source says the opposite", "ja": "出典は逆のことを述べている"},
    "verify.reason.link_unstated": {"en": "the source states both facts but never links them as the sentence does",
                                    "ja": "出典は両方の事実を述べているが、文のようには結び付けていない"},
    "verify.reason.status": {"en": "the source gives it another status (experimental, default, deprecated…)",
                             "ja": "出典は別の位置づけ（実験的・既定・非推奨など）を述べている"},
    "verify.reason.nothing_to_compare": {"en": "nothing in the source to compare with", "ja": "出典に比べられる記述がない"},
    "verify.reason.partial_overlap": {"en": "the source says only part of it", "ja": "出典は一部しか述べていない"},
    "verify.reason.roles_unconfirmed": {"en": "who did what is not confirmed by the source",
                                        "ja": "誰が何をしたかを出典で確認できない"},
    "verify.reason.unrelated": {"en": "the source is about something else", "ja": "出典は別の内容"},
    "verify.reason.added": {"en": "most of what it says is in none of the sources it cites",
                            "ja": "主張の大半が引用した出典のどこにも書かれていない"},
    # what the structure checks found
    "verify.reason.role_swap": {"en": "the source has who did what to whom the other way round",
                                "ja": "出典では誰が何をしたかが逆になっている"},
    "verify.reason.role_unclear": {"en": "the source may give these roles to others; the judge decides",
                                   "ja": "出典では役割が異なる可能性があり、判定モデルが判断"},
    "verify.reason.contrast": {"en": "the source says something that excludes it (another colour, posture, person…)",
                               "ja": "出典は両立しない別の内容を述べている（色・姿勢・人物など）"},
    "verify.reason.hedge_dropped": {"en": "the source only says it is reported or possible",
                                    "ja": "出典は伝聞や可能性として述べているだけ"},
    "verify.reason.hedge_added": {"en": "the claim hedges what the source states", "ja": "主張は出典の断定をぼかしている"},
    "verify.reason.limiter_added": {"en": "the claim adds a limit (only) the source does not give",
                                    "ja": "主張は出典にない限定（だけ・のみ）を加えている"},
    "verify.reason.or_added": {"en": "the claim gives alternatives the source does not", "ja": "主張は出典にない選択肢（か）を加えている"},
    "verify.reason.or_dropped": {"en": "the source gives alternatives; the claim states one", "ja": "出典は選択肢を挙げているが主張は一方だけを述べている"},
    "verify.reason.field_contradicted": {"en": "the record's yes/no field says the other", "ja": "記録の項目（はい/いいえ）が逆を示している"},
    "verify.reason.uncited": {"en": "the judge found support, but the sentence cites no source",
                              "ja": "判定モデルは裏付けを認めたが、文に出典の引用がない"},
    "verify.reason.field_unknown": {"en": "the record leaves this field empty", "ja": "記録のこの項目は空欄"},
    "verify.reason.misquoted": {"en": "the words in quotation marks are not the source's own words",
                                "ja": "かぎかっこ内の語句が出典の文言どおりではない"},
    "verify.reason.cross_language": {"en": "the source is in another language; the judge decides",
                                     "ja": "出典が別の言語のため判定モデルが判断"},
    "verify.reason.judge": {"en": "decided by the model judge", "ja": "判定モデルによる判断"},
    "verify.reason.not_checked": {"en": "no judge ran", "ja": "判定モデルを使わず"},
    "verify.reason.citation_invalid": {"en": "the cited source does not exist", "ja": "引用した出典が存在しない"},
    "verify.reason.no_sources": {"en": "no source could be read", "ja": "読み込めた出典がない"},
    "verifier.redrafting": {
        "en": "Revising the {count} {count:sentence|sentences} the sources did not support",
        "ja": "資料で裏付けられなかった {count} 文を書き直しています",
    },
    "verifier.loop_no_gain": {
        "en": "Another search round would not help: the last one did not raise the share of supported claims",
        "ja": "前回の追加検索で裏付けのある主張の割合が上がらなかったため、これ以上の検索は行いません",
    },
    "verify.file_too_large": {
        "en": "Too large to check: {what} ({path}) has more than {limit} characters. Split it, or check fewer sources.",
        "ja": "大きすぎて検証できません: {what}（{path}）は {limit} 文字を超えています。分割するか、出典を減らしてください。",
    },
    "verify.line_too_large": {
        "en": "Too large to check: line {line} of {path} has more than {limit} characters.",
        "ja": "大きすぎて検証できません: {path} の{line}行目は {limit} 文字を超えています。",
    },
    "verify.too_large": {
        "en": "Too large to check: {what} has {size} characters (the limit is {limit}). Split it, or check fewer sources.",
        "ja": "大きすぎて検証できません: {what} は {size} 文字です（上限 {limit}）。分割するか、出典を減らしてください。",
    },
}
