"""Yes/no questions and the yes or no an answer opens with (modules/text/questions.py).

The questions are the project's own and those its users asked in earlier sessions (the GIL
question of issue 44, the bench_answers.py set); each kind is checked in both languages."""

import pytest

from research.modules.text.questions import (answer_word, answers_another_question, answers_the_other_way, as_statement,
                                             asks_for_a_name_or_value, is_yes_no)


@pytest.mark.parametrize("question, language, expected", [
    ("Is the GIL gone in Python 3.14?", "en", True),
    ("Does Ollama listen on port 11434 by default?", "en", True),
    ("Can LangGraph resume a run from a checkpoint?", "en", True),
    ("What is PEP 703 and when did Python get free-threading?", "en", False),
    ("Which port does Ollama listen on locally?", "en", False),
    ("Is the default port 11434 or 8080?", "en", False),  # a choice, not a yes or a no
    ("Python 3.14でGILはなくなりましたか？", "ja", True),
    ("GILはなくなった？", "ja", True),
    ("富士山は活火山ですか", "ja", True),
    ("富士山の最後の噴火はいつ？", "ja", False),
    ("量子ビットとは？", "ja", False),
    ("日本の再生可能エネルギーの内訳は？", "ja", False),
    ("なぜ富士山は噴火するのですか？", "ja", False),
    # PubMedQA PQA-L titles (pubmedqa/dev.json: 23348330, 15137012, and two more of its questions):
    # a title, then the question put to it.
    ("Nasal fractures:  is closed reduction satisfying?", "en", True),
    ("Ovarian torsion in children: is oophorectomy necessary?", "en", True),
    ("Human papillomavirus and pterygium. Is the virus a risk factor?", "en", True),
    ("Aripiprazole: a new risk factor for pathological gambling?", "en", True),
    ("Is aneurysm repair justified for the patients aged 80 or older after aneurysmal subarachnoid hemorrhage?",
     "en", True),  # "or older" offers no second answer
    # The real 1.5B model's sub-question (PubMedQA 11334578, `research bench pubmedqa --seed 104`): whether there is any.
    ("Are there any studies or reports that discuss the awareness of pharmaceutical expenditure?", "en", True),
    ("Is surgery or radiotherapy better for elderly patients?", "en", False),
    ("LangGraph: what is it?", "en", False),
    ("Mount Fuji: height?", "en", False),
])
def test_a_yes_no_question_is_told_from_one_that_asks_for_something(question, language, expected):
    assert is_yes_no(question, language) is expected


def test_the_statement_a_yes_no_question_puts():
    assert as_statement("Is the GIL gone in Python 3.14?", "en") == "the GIL gone in Python 3.14"
    assert as_statement("Python 3.14でGILはなくなりましたか？", "ja") == "Python 3.14でGILはなくなりました"
    assert as_statement("Ovarian torsion in children: is oophorectomy necessary?", "en") == "oophorectomy necessary"
    # JSQuAD v1.3 valid a10336p8q3 (the bench's sample, seed 59) ends its question with a full stop.
    assert as_statement("中国大陸方面と日本列島・朝鮮半島方面でせめぎ合う気団は同じか。", "ja") \
        == "中国大陸方面と日本列島・朝鮮半島方面でせめぎ合う気団は同じ"


@pytest.mark.parametrize("sentence, expected", [
    ("No. The default build still has the GIL [S1].", ("No", True, "The default build still has the GIL [S1].")),
    ("Yes, the free-threaded build is supported.", ("Yes", False, "the free-threaded build is supported.")),
    ("はい、富士山は活火山です。", ("はい", False, "富士山は活火山です。")),
    ("いいえ。GILは既定のビルドに残っています。", ("いいえ", True, "GILは既定のビルドに残っています。")),
    ("No data on the 1707 eruption survives.", None),  # "No" as a word of the sentence
    ("Nobody measured it.", None),
])
def test_the_answer_word_a_sentence_opens_with(sentence, expected):
    assert answer_word(sentence) == expected


@pytest.mark.parametrize("question, sentence, language, expected", [
    # Qwen2.5-Coder-1.5B's sentence under the GIL question (docs/benchmarks.md, issue 44): its
    # words are the source's, its "Yes" says the GIL is gone.
    ("Is the GIL gone in Python 3.14?", "Yes, the GIL is still enabled by default in Python 3.14 [S1].", "en", True),
    ("Is the GIL gone in Python 3.14?", "No, the GIL is still enabled by default in Python 3.14 [S1].", "en", False),
    ("Is the GIL gone in Python 3.14?", "Yes, the GIL is gone in Python 3.14.", "en", False),
    ("Is the free-threaded build the default build in Python 3.14?",
     "No, the free-threaded build is the default build in Python 3.14.", "en", True),
    ("Is the free-threaded build the default build in Python 3.14?",
     "No, the free-threaded build is still not the default build in Python 3.14.", "en", False),
    ("Is the free-threaded build the default build in Python 3.14?",
     "Yes, the free-threaded build is not the default build in Python 3.14.", "en", True),
    ("Does exercise during pregnancy prevent postnatal depression?",
     "No, exercise during pregnancy does not prevent postnatal depression.", "en", False),
    ("Does exercise during pregnancy prevent postnatal depression?",
     "No, exercise during pregnancy prevents postnatal depression.", "en", True),
    # What the alignment cannot place is left as written: another subject, a pronoun, another version.
    ("Is the GIL gone in Python 3.14?", "Yes, it is still enabled by default.", "en", False),
    ("Is the GIL gone in Python 3.14?", "Yes, the GIL is still enabled by default in Python 3.13.", "en", False),
    ("What changed in Python 3.14?", "Yes, the GIL is still enabled by default in Python 3.14.", "en", False),
    ("富士山は活火山ですか", "いいえ、富士山は活火山です。", "ja", True),
    ("富士山は活火山ですか", "はい、富士山は活火山ではありません。", "ja", True),
    ("富士山は活火山ですか", "はい、富士山は活火山です。", "ja", False),
    ("Python 3.14でGILは削除されましたか？", "はい、Python 3.14ではGILは既定で有効です。", "ja", True),
    ("Python 3.14でGILは削除されましたか？", "いいえ、Python 3.14ではGILは既定で有効です。", "ja", False),
    # A word swapped for its opposite: the real 1.5B model's headline to a JSQuAD v1.3 valid
    # question (a10336p8q3, `research bench jsquad --sample 5 --seed 59`), its page saying 「…せめぎ合う気団が異なる」.
    ("中国大陸方面と日本列島・朝鮮半島方面でせめぎ合う気団は同じか。",
     "はい、中国大陸方面と日本列島・朝鮮半島方面でせめぎ合う気団は異なる[S1]。", "ja", True),
    ("中国大陸方面と日本列島・朝鮮半島方面でせめぎ合う気団は同じか。",
     "いいえ、中国大陸方面と日本列島・朝鮮半島方面でせめぎ合う気団は異なる[S1]。", "ja", False),
    ("中国大陸方面と日本列島・朝鮮半島方面でせめぎ合う気団は同じか。",
     "はい、中国大陸方面と日本列島・朝鮮半島方面でせめぎ合う気団は同じです。", "ja", False),
    ("Are the air masses over China and over Japan the same?",
     "Yes, the air masses over China and over Japan are different.", "en", True),
    ("Are the air masses over China and over Japan the same?",
     "No, the air masses over China and over Japan are different.", "en", False),
    ("Did sales increase in 2023?", "Yes, sales decreased in 2023.", "en", True),
    ("Did sales increase in 2023?", "No, sales decreased in 2023.", "en", False),
    # Denied as well ("not different"), or said of another year: nothing is sure.
    ("Are the air masses over China and over Japan the same?",
     "Yes, the air masses over China and over Japan are not different.", "en", False),
    ("Did sales increase in 2023?", "Yes, sales decreased in 2022.", "en", False),
])
def test_a_yes_or_no_the_rest_of_its_sentence_answers_the_other_way(question, sentence, language, expected):
    assert answers_the_other_way(question, sentence, language) is expected


@pytest.mark.parametrize("question, language, expected", [
    # JSQuAD v1.3 valid questions (issue 45's bench) and the project's own.
    ("日本共産党の本部の設計者の名は何か", "ja", True),
    ("国内で自国通貨のキープと同じように流通している通貨は何か", "ja", True),
    ("委員長と常任委員会が選出のはどこで？", "ja", True),
    ("富士山の最後の噴火はいつ？", "ja", True),
    ("量子ビットとは何か", "ja", False),
    ("富士山が静かな理由は？", "ja", False),
    ("日本の再生可能エネルギーの内訳は？", "ja", False),
    # 何 before the noun it asks the name of (JSQuAD v1.3 valid a13221p19q4, `research bench jsquad --seed 91`).
    ("ムビンダからガボンのモアンダまでは1959年に世界最長のロープウェイである何ロープウェイが開通している？", "ja", True),
    ("コンゴ共和国の公用語は何語か", "ja", True),
    ("富士山は何県にあるか", "ja", True),
    ("なぜ何もしなかったのか", "ja", False),
    ("何故富士山は高いのか", "ja", False),
    ("Who designed the headquarters?", "en", True),
    ("Which port does Ollama listen on locally?", "en", True),
    ("What is the name of the designer?", "en", True),
    ("What is the backstory of the bridge?", "en", False),
    ("What are the main reasons for inflation?", "en", False),
])
def test_a_question_for_a_name_or_a_value_is_told_from_one_for_an_explanation(question, language, expected):
    assert asks_for_a_name_or_value(question, language) is expected


@pytest.mark.parametrize("question, sentence, language, expected", [
    # PubMedQA 10732884's question (quoted), Qwen2.5-Coder-1.5B's sentence: it answers whether
    # angiography is done, not whether it affects mortality.
    ("Does coronary angiography before emergency aortic surgery affect in-hospital mortality?",
     "Yes, coronary angiography is performed before emergency aortic surgery.", "en", True),
    ("Does coronary angiography before emergency aortic surgery affect in-hospital mortality?",
     "No, coronary angiography does not affect in-hospital mortality after emergency aortic surgery.", "en", False),
    # PubMedQA 19155657's question and the model's "Yes" on a sentence about event risk.
    ("Does accompanying metabolic syndrome contribute to heart dimensions in hypertensive patients?",
     "Yes, metabolic syndrome is associated with increased risk for cardiovascular events.", "en", True),
    # Three terms are too few to tell, and its last word, "satisfying", is said as "satisfactory".
    ("Nasal fractures: is closed reduction satisfying?",
     "Yes, closed reduction is generally considered satisfactory for nasal fractures.", "en", False),
    ("Python 3.14でフリースレッド版は既定のビルドになりましたか？",
     "はい、Python 3.14でフリースレッド版は既定のビルドになりました。", "ja", False),
    ("Python 3.14でフリースレッド版は既定のビルドになりましたか？", "はい、Python 3.14が公開されました。", "ja", True),
    ("What is the height of Mount Fuji?", "Yes, Mount Fuji is 3,776 m high.", "en", False),  # not a yes/no question
    # PubMedQA 20488985 (`research bench pubmedqa --sample 4 --seed 61`, the real 1.5B model): a yes
    # that there are equations, to whether they are applicable (its abstract: a new one was needed).
    ("Estimation of basal metabolic rate in Chinese: are the current prediction equations applicable?",
     "Yes, there are current prediction equations for basal metabolic rate in Chinese [S1].", "en", True),
    ("Estimation of basal metabolic rate in Chinese: are the current prediction equations applicable?",
     "No, the current prediction equations are not applicable to Chinese adults [S1].", "en", False),
    # What is said of the subject ends the question only where no place or time follows it.
    ("Is the GIL gone in Python 3.14?", "No. The default build still has the GIL [S1].", "en", False),
])
def test_a_yes_or_no_on_words_that_leave_out_what_was_asked(question, sentence, language, expected):
    assert answers_another_question(question, sentence, language) is expected
