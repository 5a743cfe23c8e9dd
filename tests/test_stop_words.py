"""StopWords (modules/parsing/stop_words.py): the jusText stop words the parser's fork server
shares, held as their hashes, must answer every membership question as a set of the same words
(but for two words of one 64-bit hash, which it cannot tell apart: documented there)."""

from __future__ import annotations

from research.modules.parsing.stop_words import StopWords


class _OneHash(str):
    """A word whose hash is every other such word's."""

    def __hash__(self) -> int:
        return 7


def test_the_words_are_held_once_each_and_answer_as_their_set() -> None:
    words = ["the", "und", "les", "и", "не", "ও", "ἀλλά", "the", "und"]
    held = StopWords([words[:4], words[4:]])
    assert len(held) == 7
    assert all(word in held for word in words)
    for absent in ("The", "th", "thee", "un", "les ", "", "и и", "a\nb", 7, None, b"the"):
        assert absent not in held


def test_many_words_in_one_bucket_are_each_found() -> None:
    # 200,000 words in 65,536 buckets: every bucket holds several, and a lookup must read them all.
    words = [f"w{n}" for n in range(200_000)]
    held = StopWords([words[:120_000], words[80_000:]])
    assert len(held) == 200_000
    assert all(word in held for word in words[::7])
    assert not any(f"x{n}" in held for n in range(0, 200_000, 7))


def test_words_of_one_hash_are_one_entry() -> None:
    # What the hashes cannot tell (1 in 10**14 for real words): the cost of not keeping the words.
    held = StopWords([[_OneHash("alpha"), _OneHash("beta")], ["delta"]])
    assert len(held) == 2 and _OneHash("gamma") in held and "delta" in held and "alpha" not in held


def test_nothing_is_held_by_an_empty_set() -> None:
    held = StopWords([[], []])
    assert len(held) == 0 and not held and "the" not in held
