"""Vulgar language in chat (PCG-3), Italian and English, seen through the usual disguises.

The words come from a maintained list (LDNOOBW, as shipped by ``glin-profanity``), never
from a list typed here. What this module adds is the seeing: a message is folded to plain
lower-case letters (accents dropped, digits and symbols read as the letters they stand
for), letters spelt one at a time with separators are joined back, and repeated letters
are squeezed, so ``C.4.Z.Z.0``, ``caaazzo`` and ``cazzò`` are all ``cazzo``. Words are
matched whole (a town like Cazzago or Scunthorpe is not a word of the list), and an
Italian word also with its inflected endings (``stronzi``, ``coglionate``).

The Italian list is broad: it holds everyday words that are vulgar only in some mouths
(``pesce``, ``regina``, ``venire``). ``ORDINARY_WORDS`` names those the filter lets pass,
because a card table says "regina di cuori" far more often than anyone means harm by it.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from importlib import resources

LANGUAGES = ("italian", "english")

# Words of the lists that are also plain vocabulary at a card table; never filtered.
ORDINARY_WORDS = frozenset(
    {
        # Italian
        "balle", "bagnarsi", "battere", "biga", "cadavere", "cagna", "cammello", "cappella",
        "carciofo", "carità", "cozza", "duro", "fava", "grilletto", "guanto", "lumaca",
        "mannaggia", "manico", "monta", "montare", "nudo", "palle", "patacca", "pesce",
        "pipa", "pipì", "pistola", "pompa", "porca", "porca miseria", "quaglia", "regina",
        "rizzarsi", "sbattere", "sbattersi", "sega", "spagnola", "tirare", "uccello",
        "vacca", "venire", "lecchino", "ruffiano", "femminuccia", "guardone", "cacca",
        "nave scuola", "buona donna", "ingoio", "tarzanello", "zio cantante",
        # English
        "bs", "mf", "sex", "sexy", "escort", "domination", "suck", "sucks", "kinky",
        "nude", "butt", "hoe", "poof", "scat", "snatch", "swinger", "grope", "tied up",
    }
)  # fmt: skip

# Characters that stand in for letters in disguised writing.
_LOOKALIKES = str.maketrans(
    {
        "0": "o", "1": "i", "2": "z", "3": "e", "4": "a", "5": "s", "6": "g", "7": "t",
        "8": "b", "9": "g", "@": "a", "$": "s", "!": "i", "|": "i", "+": "t", "€": "e",
        "£": "l", "¢": "c", "*": "u",
    }
)  # fmt: skip

# Italian endings an inflected word may carry beyond the stem its list entry gives.
_ENDINGS = ("a", "e", "i", "o", "ata", "ate", "one", "oni", "ona", "ello", "etti")

_TOKEN = re.compile(r"\S+")


class Policy(StrEnum):
    """What a table or room does with a vulgar message: hide the words, or refuse it."""

    MASK = "mask"
    REFUSE = "refuse"


@dataclass(frozen=True, slots=True)
class Verdict:
    """The words found (as the list spells them) and the message with them masked."""

    found: tuple[str, ...]
    masked: str

    @property
    def clean(self) -> bool:
        return not self.found


def fold(text: str) -> str:
    """Lower case, no accents, look-alike symbols read as letters, runs squeezed."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    letters = plain.translate(_LOOKALIKES)
    kept = re.sub(r"[^a-z]", "", letters)
    return re.sub(r"(.)\1+", r"\1", kept)


@cache
def _lexicon() -> tuple[frozenset[str], frozenset[str]]:
    """Folded single words and folded phrases (spaces removed) from the lists."""
    words: set[str] = set()
    phrases: set[str] = set()
    data = resources.files("glin_profanity").joinpath("data", "dictionaries")
    for language in LANGUAGES:
        entries = json.loads(data.joinpath(f"{language}.json").read_text("utf-8"))["words"]
        for entry in entries:
            if entry in ORDINARY_WORDS:
                continue
            folded = fold(entry)
            if len(folded) < 3:
                continue
            (phrases if " " in entry.strip() else words).add(folded)
    return frozenset(words), frozenset(phrases)


@cache
def _stems() -> frozenset[str]:
    words, _ = _lexicon()
    return frozenset(w for w in words if len(w) >= 5)


def _is_bad(folded: str) -> bool:
    words, _ = _lexicon()
    if folded in words or (folded.endswith("i") and folded[:-1] + "o" in words):
        return True
    stems = _stems()
    for ending in _ENDINGS:
        if folded.endswith(ending) and len(folded) > len(ending):
            base = folded[: -len(ending)]
            if base in words or any(base + vowel in stems for vowel in "aeio"):
                return True
    return False


def _spans(text: str) -> list[tuple[int, int]]:
    """Word spans, with runs of one-letter pieces (``c a z z o``, ``c.a.z``) joined."""
    spans: list[tuple[int, int]] = []
    run: list[tuple[int, int]] = []
    for match in _TOKEN.finditer(text):
        pieces = [m.span() for m in re.finditer(r"[^\W_]+|[@$!|+*€£¢]+", match.group())]
        if len(fold(match.group())) <= 1 or (
            len(pieces) > 2 and all(b - a == 1 for a, b in pieces)
        ):
            run.append(match.span())
            continue
        if run:
            spans.append((run[0][0], run[-1][1]))
            run = []
        spans.append(match.span())
    if run:
        spans.append((run[0][0], run[-1][1]))
    return spans


def judge(text: str) -> Verdict:
    """The vulgar words of ``text`` and the text with each of them masked by asterisks."""
    found: list[str] = []
    masked = list(text)
    spans = _spans(text)
    _, phrases = _lexicon()
    covered = 0
    for index, (start, end) in enumerate(spans):
        if start < covered:
            continue
        folded = fold(text[start:end])
        hit = bool(folded) and _is_bad(folded)
        if not hit and index + 1 < len(spans):
            pair = fold(text[start : spans[index + 1][1]])
            if pair in phrases:
                hit, end = True, spans[index + 1][1]
        if hit:
            found.append(text[start:end])
            covered = end
            for i in range(start, end):
                if not text[i].isspace():
                    masked[i] = "*"
    return Verdict(tuple(found), "".join(masked))
