"""StopWords (modules/parsing/stop_words.py): the jusText stop words the parser's fork server
shares, held as arrays, must answer every membership question as a set of the same words."""

from __future__ import annotations

import pytest

from research.modules.parsing.stop_words import StopWords


class _OneHash(str):
    """A word whose hash is every other such word's: the lookup must compare the words."""

    def __hash__(self) -> int:
        return 7


def test_the_words_are_held_once_each_and_answer_as_their_set() -> None:
    words = ["the", "und", "les", "и", "не", "ও", "ἀλλά", "the", "und"]
    held = StopWords([words[:4], words[4:]])
    assert len(held) == 7 and sorted(held) == sorted(set(words))
    assert all(word in held for word in words)
    for absent in ("The", "th", "thee", "un", "les ", "", "и и", 7, None, b"the"):
        assert absent not in held


def test_words_of_one_hash_are_told_apart_by_their_letters() -> None:
    held = StopWords([[_OneHash("alpha"), _OneHash("beta")], [_OneHash("beta"), _OneHash("gamma"), "delta"]])
    assert all(_OneHash(word) in held for word in ("alpha", "beta", "gamma"))
    assert _OneHash("epsilon") not in held and "delta" in held and "alpha" not in held
    assert len(held) == 4 and sorted(held) == ["alpha", "beta", "delta", "gamma"]


def test_nothing_is_held_by_an_empty_set() -> None:
    held = StopWords([[], []])
    assert len(held) == 0 and not held and "the" not in held and list(held) == []


def test_a_word_with_a_newline_is_refused() -> None:
    # The words are kept one a line: a newline inside one would make two.
    with pytest.raises(ValueError):
        StopWords([["the", "a\nb"]])
