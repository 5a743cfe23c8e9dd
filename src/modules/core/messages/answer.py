"""Messages of the answer a person reads (``answer.*``): what the program writes into the
answer itself where the sources gave nothing, and the report's note on what it left out
(workflow/answer.py)."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    "answer.not_given": {
        "en": "The sources read do not answer this: {question}",
        "ja": "読み込んだ出典には、この点についての記述がありませんでした: {question}",
    },
    # A yes/no question whose headline the sources contradict: said first, with their words.
    "answer.sources_say_otherwise": {
        "en": "According to the sources read, «{evidence}» [{label}]; the draft said otherwise (“{claim}”), and that "
              "was taken out.",
        "ja": "読み込んだ出典によれば «{evidence}»[{label}]。下書きの「{claim}」は出典と食い違うため除きました。",
    },
    # No sentence of the draft could be checked: what the sources say of the question, quoted.
    "answer.nothing_drafted": {
        "en": "The model wrote no answer; of the question the sources read say: «{evidence}» [{label}]",
        "ja": "モデルは回答を書きませんでした。読み込んだ出典は質問について次のように述べています: «{evidence}» [{label}]",
    },
    "answer.empty_draft": {
        "en": "The model wrote no answer, asked twice: the Summary quotes what the sources read say of the question.",
        "ja": "モデルは2回依頼しても回答を書きませんでした。結論には、読み込んだ出典が質問について述べている箇所を引用しています。",
    },
    "answer.sources_say_of_it": {
        # Never opening with "No": to a yes/no question that reads as the answer.
        "en": "The draft's sentences could not be checked against the sources read; of the question they say: "
              "«{evidence}» [{label}]",
        "ja": "下書きの文はどれも出典で確認できませんでした。質問について、出典にはこうあります: «{evidence}»[{label}]",
    },
    # A checked sentence leads the Summary that neither gives the figure the question names nor names
    # what it asks: before it, the sources' words on the question, or that they do not answer it.
    "answer.sources_say_of_it_beside": {
        "en": "No checked sentence of the draft answers the question; of it the sources read say: «{evidence}» [{label}]",
        "ja": "下書きの確認できた文は質問に答えていません。質問について、出典にはこうあります: «{evidence}»[{label}]",
    },
    # A sub-question whose draft sentences were all taken out, which a sentence of the sources answers.
    "answer.sources_say_of_the_sub_question": {
        "en": "No checked sentence of the draft answers this; of it the sources read say: «{evidence}» [{label}]",
        "ja": "下書きにはこの点を確認できた文がありません。この点について、出典にはこうあります: «{evidence}»[{label}]",
    },
    "answer.beside_the_question": {
        "en": "The sources read do not answer the question directly; what they confirm of the draft follows.",
        "ja": "読み込んだ出典は質問に直接答えていません。以下は下書きの文のうち出典で確認できたものです。",
    },
    # Nothing checked and no sentence of the sources on the question: before the draft's undecided
    # sentences, which stay marked. Never opening with "No" (read as the answer to a yes/no question).
    "answer.undecided_follows": {
        "en": "The sources read do not answer the question directly; what the draft said of it follows, not checked.",
        "ja": "読み込んだ出典は質問に直接答えていません。以下は下書きの文で、出典で確認できていません。",
    },
    # A source's words quoted in another language than the answer's, with their translation after them.
    "answer.quote_translated": {"en": "{quote} (in English: “{translation}”)", "ja": "{quote}（訳: {translation}）"},
    "answer.no_direct_answer": {
        "en": "The sources read do not answer the question directly; no checked sentence could be given here.",
        "ja": "読み込んだ出典は質問に直接答えていないため、ここに示せる確認済みの文はありません。",
    },
    "answer.left_out": {
        "en": "Left out of the answer: {details}. The doubtful claims are listed under the verification with "
              "the passage that decided them.",
        "ja": "回答から除いたもの: {details}。疑わしい主張は、判断の根拠となった箇所とともに検証の節に示しています。",
    },
    "answer.reason.contradicted": {"en": "{count} contradicted by their source", "ja": "出典と矛盾 {count} 件"},
    "answer.reason.not_supported": {"en": "{count} not supported", "ja": "裏付けなし {count} 件"},
    "answer.reason.partly_supported": {"en": "{count} partly supported", "ja": "一部のみ裏付け {count} 件"},
    "answer.reason.not_checked": {"en": "{count} not checked, their passage not giving their figure or what they speak of",
                                  "ja": "未確認で、引用箇所に数値または対象が書かれていないもの {count} 件"},
    "answer.reason.uncited": {"en": "{count} citing no source", "ja": "出典の引用なし {count} 件"},
    "answer.reason.wrong_language": {"en": "{count} not in the report's language",
                                     "ja": "レポートの言語でない文 {count} 件"},
    "answer.reason.off_topic": {"en": "{count} about another topic", "ja": "質問と別の話題 {count} 件"},
    "answer.reason.duplicate": {"en": "{count} repeated", "ja": "重複 {count} 件"},
    "answer.reason.question_restated": {"en": "{count} not checked that only said the yes/no question back as its answer",
                                        "ja": "質問をそのまま答えとして言い直しただけの未確認の文 {count} 件"},
    "answer.reason.said_both_ways": {"en": "{count} not checked whose opposite the draft also said",
                                     "ja": "下書きがその反対も述べていた未確認の文 {count} 件"},
    "answer.reason.not_a_claim": {"en": "{count} not a claim (page titles, prompt text, headings, fragments)",
                                  "ja": "主張でない文 {count} 件（ページ題名・プロンプトの文・見出し・断片）"},
    "answer.corrected": {
        "en": "Corrected from the source: {count} value(s) the cited passage gives differently",
        "ja": "出典に合わせて訂正: 引用箇所と異なっていた値 {count} 件",
    },
}
