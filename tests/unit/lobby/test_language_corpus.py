"""The chat filter (PCG-3) measured on a corpus: precision and recall over every line.

``data/chat_corpus.tsv`` holds vulgar lines as written, their evasions (spacing, symbols,
look-alike letters of other scripts, words run together), Italian blasphemy, threats, and
innocent lines, many of which hold a vulgar word's letters (Scunthorpe, cazzuola,
Fucecchio). The figures printed here are the ones the README quotes.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from tavolo.lobby.social.conduct.language import judge

CORPUS = Path(__file__).parent / "data" / "chat_corpus.tsv"
MIN_PRECISION = 0.97
MIN_RECALL = 0.97


def _corpus() -> list[tuple[str, str, str]]:
    rows = []
    for raw in CORPUS.read_text("utf-8").splitlines():
        if not raw.strip() or raw.startswith("#"):
            continue
        label, kind, line = raw.split("\t", 2)
        assert label in ("vulgar", "clean"), raw
        rows.append((label, kind, line))
    return rows


def test_the_corpus_is_large_and_balanced() -> None:
    """At least 200 lines, vulgar and innocent both well represented (PCG-3)."""
    labels = Counter(label for label, _, _ in _corpus())
    assert sum(labels.values()) >= 200
    assert min(labels.values()) >= 100


def test_precision_and_recall_on_the_corpus() -> None:
    """PCG-3: the filter catches vulgar lines and their evasions, and lets innocent ones
    through; the figures are printed per kind and in total."""
    caught: Counter[str] = Counter()
    total: Counter[str] = Counter()
    missed: list[str] = []
    alarms: list[str] = []
    for label, kind, line in _corpus():
        flagged = bool(judge(line).found)
        total[kind] += 1
        caught[kind] += flagged
        if label == "vulgar" and not flagged:
            missed.append(line)
        if label == "clean" and flagged:
            alarms.append(line)
    vulgar = sum(n for kind, n in total.items() if kind != "innocent")
    true_positives = vulgar - len(missed)
    precision = true_positives / (true_positives + len(alarms))
    recall = true_positives / vulgar
    by_kind = ", ".join(f"{k} {caught[k]}/{total[k]} flagged" for k in sorted(total))
    print(
        f"\nchat filter on {sum(total.values())} lines: precision {precision:.3f},"
        f" recall {recall:.3f} ({by_kind}); missed {missed}; false alarms {alarms}"
    )
    assert precision >= MIN_PRECISION, alarms
    assert recall >= MIN_RECALL, missed


@pytest.mark.parametrize(
    "line",
    ["va f f a n c u l o", "ca zzo", "vaf fanculo", "f*u*c*k", "fμck", "f\u03c5ck", "\u0441azzo",
     "fuckyou", "vaffanculoStronzo", "cazzone", "coglioneria", "fcuk", "porco dio",
     "dio cane", "kill yourself"],
)  # fmt: skip
def test_the_reported_evasions_are_masked_whole(line: str) -> None:
    """PCG-3: each evasion seen getting through is now masked, every letter of it."""
    verdict = judge(f"ok {line} ok")
    assert verdict.masked == "ok " + "".join(" " if c == " " else "*" for c in line) + " ok"


VULGAR_WORDS = ("cazzo", "stronzo", "vaffanculo", "coglione", "puttana", "merda", "minchia",
                "fuck", "shit", "bitch", "asshole")  # fmt: skip
LOOKALIKES = {"a": "\u0430", "o": "\u043e", "e": "\u0435", "c": "\u0441", "p": "\u0440"}
GREEK = {"o": "\u03bf", "u": "\u03c5", "i": "\u03b9", "a": "\u03b1"}
LEET = {"o": "0", "a": "4", "e": "3", "i": "1", "s": "$"}


def _first_vowel_starred(word: str) -> str:
    index = next(i for i, c in enumerate(word) if c in "aeiou")
    return word[:index] + "*" + word[index + 1 :]


TRANSFORMS = {
    "as is": lambda w: w,
    "upper": str.upper,
    "title": str.title,
    "spaced": " ".join,
    "dotted": ".".join,
    "underscored": "_".join,
    "starred between": "*".join,
    "leet": lambda w: w.translate(str.maketrans(LEET)),
    "cyrillic": lambda w: w.translate(str.maketrans(LOOKALIKES)),
    "greek": lambda w: w.translate(str.maketrans(GREEK)),
    "stretched": lambda w: "".join(c * 3 if c in "aeiou" else c for c in w),
    "a vowel starred": _first_vowel_starred,
    "run together": lambda w: f"{w}you",
    "inside a sentence": lambda w: f"ma che {w} dici",
}


@pytest.mark.parametrize("word", VULGAR_WORDS)
def test_pcg_3_every_word_in_every_disguise_and_every_split_is_caught(word: str) -> None:
    """Each vulgar word through each disguise, and cut in two at every place."""
    missed = [name for name, change in TRANSFORMS.items() if judge(change(word)).clean]
    missed += [f"cut {i}" for i in range(1, len(word)) if judge(f"{word[:i]} {word[i:]}").clean]
    assert not missed, missed


INNOCENT_WORDS = ("Scunthorpe", "cazzuola", "ficcanaso", "analisi", "Cazzago", "Fucecchio",
                  "cocktail", "cazzotto", "puttanesca", "classe", "assist", "Dickens",
                  "Penistone", "Sussex", "disputando", "con")  # fmt: skip
PLAIN = ("as is", "upper", "title", "inside a sentence")


@pytest.mark.parametrize("word", INNOCENT_WORDS)
def test_innocent_words_pass_in_every_plain_writing(word: str) -> None:
    alarms = [name for name in PLAIN if not judge(TRANSFORMS[name](word.lower())).clean]
    assert not alarms, alarms
