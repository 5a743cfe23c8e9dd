"""A model's translation of a claim stands for it in the checks only where it keeps what they
decide on (modules/text/translation_check.py): the claims are of the kind the real 1.5B model
writes in Japanese on the English free-threading page (issue 44), the translations written here."""

from __future__ import annotations

import pytest

from research.modules.text.translation_check import unfaithful, with_figures_of

GIL_JA = "Python 3.14の標準ビルドでは、GILは既定で引き続き有効です。"


@pytest.mark.parametrize(("original", "translation", "target"), [
    (GIL_JA, "In the standard build of Python 3.14, the GIL is still enabled by default.", "en"),
    ("PEP 703は2023年に承認された。", "PEP 703 was accepted in 2023.", "en"),
    # The real 1.5B model's Japanese headline: 「なくなりました」 is "gone" (removed) in both.
    ("はい、Python 3.14ではGILはなくなりました。", "Yes, the GIL is gone in Python 3.14.", "en"),
    ("はい、Python 3.14ではGILはなくなりました。", "Yes, Python 3.14 has no GIL (Global Interpreter Lock).", "en"),
    ("The GIL is not removed in CPython 3.14.", "CPython 3.14ではGILは削除されていない。", "ja"),
    # A plain English name may be written in katakana; an identifier stays as written.
    ("Tokyo hosts the PyCon JP 2025 conference.", "東京ではPyCon JP 2025が開催される。", "ja"),
    # 「一つ」 is "one of": no figure either must keep.
    ("現在、横浜港は日本最大級のコンテナ港の一つである。",
     "Today, the Port of Yokohama is one of Japan's largest container ports.", "en"),
])
def test_a_translation_that_keeps_figures_names_denials_and_statuses_stands(original, translation, target):
    assert unfaithful(original, translation, target) is None


@pytest.mark.parametrize(("original", "translation", "target", "reason"), [
    (GIL_JA, "", "en", "empty"),
    (GIL_JA, "Python 3.14の標準ビルドでは、GILは既定で有効です。", "en", "language"),
    (GIL_JA, "In the standard build of Python 3.13, the GIL is still enabled by default.", "en", "figures"),
    ("LangGraphは2024年に公開された。", "The library was released in 2024.", "en", "names"),  # the name lost
    (GIL_JA, "In the standard build of Python 3.14, the GIL is not enabled by default.", "en", "polarity"),
    ("Python 3.14ではフリースレッド版は実験的です。", "In Python 3.14 the free-threaded build is officially supported.",
     "en", "status"),
    ("The GIL is still enabled by default in CPython 3.14.", "Python 3.14では、GILは既定で引き続き有効です。", "ja", "names"),
    ("The free-threaded build is not the default in 3.14.", "3.14ではフリースレッド版が既定です。", "ja", "polarity"),
    # The real 1.5B model's translation added a denial the sentence does not make.
    ("Python 3.14ではGILは、スレッド間のデータ共有を抑制し、スレッド間の通信を加速させました。",
     "Python 3.14 has no GIL (Global Interpreter Lock), it suppresses thread-to-thread data sharing and accelerates "
     "thread-to-thread communication.", "en", "polarity"),
    ("Python 3.14ではGILは削除されていない。", "The GIL is gone in Python 3.14.", "en", "polarity"),
    ("横浜港には3つのコンテナ埠頭がある。", "The Port of Yokohama has one container terminal.", "en", "figures"),
])
def test_a_translation_that_changes_what_the_checks_read_does_not_stand(original, translation, target, reason):
    assert unfaithful(original, translation, target) == reason


@pytest.mark.parametrize(("original", "translation", "restored"), [
    # A model that "corrects" a figure while translating: the claim's own year is what gets checked.
    ("横浜港は1852年に外国貿易に開かれた。", "The Port of Yokohama opened to foreign trade in 1859.",
     "The Port of Yokohama opened to foreign trade in 1852."),
    ("富士山の標高は3,776メートルである。", "Mount Fuji is 3,767 m high.", "Mount Fuji is 3,776 m high."),
    ("The GIL is still enabled by default in Python 3.14.", "Python 3.13では、GILは既定で引き続き有効です。",
     "Python 3.14では、GILは既定で引き続き有効です。"),
    # Nothing to put back plainly: two figures changed, a figure dropped, a figure written twice, a multiplier.
    ("PEP 703は2023年に承認され、3.13は2024年に出た。", "PEP 703 was accepted in 2021 and 3.13 came out in 2022.", None),
    ("横浜港は1859年に開かれた。", "The Port of Yokohama opened long ago.", None),
    ("横浜港は1852年に開かれた。", "In 1859 the port opened; 1859 was a busy year.", None),
    ("来場者は2万人だった。", "There were 30,000 visitors.", None),
])
def test_a_figure_a_translation_changed_is_put_back_as_the_claim_writes_it(original, translation, restored):
    assert with_figures_of(original, translation) == restored
    if restored is not None:
        assert unfaithful(original, restored, "ja" if original.isascii() else "en") is None
