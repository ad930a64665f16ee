"""Vulgar language in chat and nicknames (PCG-3), Italian and English, seen through the
usual disguises.

The words come from a maintained list (LDNOOBW, as shipped by ``glin-profanity``), plus
what that list lacks and an Italian card room sanctions first: blasphemy (``porco dio``,
``dio cane`` ...) and threats (``kill yourself``, ``ti ammazzo``) — :mod:`.lexicon`.

What this module adds is the seeing. Each whitespace-separated chunk of a message is
folded to plain lower-case letters: NFKC, look-alike letters of other scripts read as the
Latin ones (Unicode's confusables, via ``confusable-homoglyphs``, so a Cyrillic es or a
Greek upsilon is a Latin letter), accents dropped, digits and symbols read as the letters
they stand for, symbols inside a chunk dropped (``c.a.z.z.o``), an asterisk tried as a
hidden vowel (``f*ck``), repeated letters squeezed (``caaazzo``). Then:

- chunks are joined back within a window of :data:`WINDOW` chunks, so spacing does not
  hide a word (``va f f a n c u l o``, ``ca zzo``, ``vaf fanculo``);
- a word is matched whole, with an Italian inflected ending (``stronzi``, ``coglionate``),
  or followed by another vulgar word or a filler (``fuckyou``, ``vaffanculoStronzo``);
- a few *strong* stems, which no innocent Italian or English word contains, are found
  anywhere inside a word (``rompicoglioni``, ``cazzone``, ``coglioneria``), except in the
  innocent words named in :data:`lexicon.INNOCENT_HOSTS` (``cazzotto``, ``puttanesca``).

Everything else is matched at the start of a word, which is what lets a town like
Cazzago, Fucecchio or Scunthorpe, and ``cazzuola``, ``ficcanaso``, ``analisi`` or
``cocktail`` through. Ambiguous words and why they are masked: :mod:`.lexicon`.
"""

from __future__ import annotations

import itertools
import json
import re
import unicodedata
from dataclasses import dataclass
from enum import StrEnum
from functools import cache, lru_cache
from importlib import resources

from confusable_homoglyphs import confusables

from tavolo.lobby.social.conduct import lexicon

LANGUAGES = ("italian", "english")
WINDOW = 12  # chunks joined back at most: the longest word spelt one letter at a time
MAX_JOINED = 30  # letters a joined window may hold
MAX_STARS = 2  # asterisks tried as vowels; more are only removed
VERDICTS_KEPT = 1 << 16  # folded words whose verdict is remembered (bounded: chat is endless)

# Characters that stand in for letters in disguised writing ('*' is handled apart).
_LOOKALIKES = str.maketrans(
    {
        "0": "o", "1": "i", "2": "z", "3": "e", "4": "a", "5": "s", "6": "g", "7": "t",
        "8": "b", "9": "g", "@": "a", "$": "s", "!": "i", "|": "i", "+": "t", "€": "e",
        "£": "l", "¢": "c",
    }
)  # fmt: skip

# Italian endings an inflected word may carry beyond the stem its list entry gives.
_ENDINGS = (
    "a", "e", "i", "o", "ata", "ate", "one", "oni", "ona", "ello", "etti", "eria", "erie",
    "uto", "uta", "ate", "ino", "ina", "accio", "acci", "ers", "er", "s", "ing", "ed", "y",
)  # fmt: skip

_PUNCTUATION_EDGES = re.compile(r"^[\"'«¿¡(\[]+|[\"'»?.,;:)\]]+$|!+$")
_CHUNK = re.compile(r"\S+")
# Slurs whose squeezed form is an innocent word (``niger``, ``con``): matched with their
# doubled letters, whole.
_DOUBLED = re.compile(lexicon.DOUBLED_SLURS)
_VOWELS = "aeiou"


class Policy(StrEnum):
    """What a table or room does with a vulgar message: hide the words, or refuse it."""

    MASK = "mask"
    REFUSE = "refuse"


@dataclass(frozen=True, slots=True)
class Verdict:
    """The words found (as the text spells them) and the text with them masked."""

    found: tuple[str, ...]
    masked: str

    @property
    def clean(self) -> bool:
        return not self.found


@cache
def _latin_lookalikes() -> dict[str, str]:
    """Each non-Latin character Unicode's confusables table reads as one ASCII letter or
    digit, with the few look-alikes that table leaves out (:data:`lexicon.EXTRA_LOOKALIKES`)."""
    found: dict[str, str] = {}
    for char, homoglyphs in confusables.confusables_data.items():
        if len(char) != 1 or char.isascii():
            continue
        for glyph in homoglyphs:
            latin = glyph["c"]
            if len(latin) == 1 and latin.isascii() and latin.isalnum():
                found[char] = latin
                break
    found.update(lexicon.EXTRA_LOOKALIKES)
    return found


def _plain(text: str) -> str:
    """NFKC, look-alikes to Latin, lower case, no accents, symbols read as letters; what
    is left is letters, ``*`` and separators."""
    lookalikes = _latin_lookalikes()
    mapped = "".join(lookalikes.get(ch, ch) for ch in unicodedata.normalize("NFKC", text))
    decomposed = unicodedata.normalize("NFKD", mapped.casefold())
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return bare.translate(_LOOKALIKES)


def _squeeze(letters: str) -> str:
    return re.sub(r"(.)\1+", r"\1", letters)


def fold(text: str) -> str:
    """Lower case, no accents, look-alikes read as letters, symbols dropped, runs squeezed."""
    return _squeeze(re.sub(r"[^a-z]", "", _plain(text)))


def _capped(chunk: str) -> str:
    """The chunk's letters with runs kept to two: where a doubled letter is the slur's."""
    plain = re.sub(r"[^a-z]", "", _plain(_PUNCTUATION_EDGES.sub("", chunk) or chunk))
    return re.sub(r"(.)\1{2,}", r"\1\1", plain)


def _readings(chunk: str) -> frozenset[str]:
    """The folded ways to read a chunk: asterisks dropped, or each standing for a vowel."""
    plain = re.sub(r"[^a-z*]", "", _plain(_PUNCTUATION_EDGES.sub("", chunk) or chunk))
    found = {_squeeze(plain.replace("*", ""))}
    stars = plain.count("*")
    if 0 < stars <= MAX_STARS:
        for vowels in itertools.product(_VOWELS, repeat=stars):
            filled = plain
            for vowel in vowels:
                filled = filled.replace("*", vowel, 1)
            found.add(_squeeze(filled))
    return frozenset(r for r in found if r)


@cache
def _lexicon() -> frozenset[str]:
    """Every folded word and phrase (spaces removed) to match, ordinary words left out."""
    words: set[str] = set()
    data = resources.files("glin_profanity").joinpath("data", "dictionaries")
    entries: list[str] = []
    for language in LANGUAGES:
        entries += json.loads(data.joinpath(f"{language}.json").read_text("utf-8"))["words"]
    entries += [*lexicon.BLASPHEMY, *lexicon.THREATS, *lexicon.VARIANTS, *lexicon.AMBIGUOUS]
    for entry in entries:
        if entry in lexicon.ORDINARY_WORDS:
            continue
        folded = fold(entry)
        if len(folded) >= 3:
            words.add(folded)
    return frozenset(words)


@cache
def _strong() -> frozenset[str]:
    return frozenset(fold(stem) for stem in lexicon.STRONG_STEMS)


@cache
def _innocent_hosts() -> frozenset[str]:
    return frozenset(fold(word) for word in lexicon.INNOCENT_HOSTS)


@cache
def _fillers() -> frozenset[str]:
    return frozenset(fold(word) for word in lexicon.FILLERS)


@cache
def _innocent_words() -> frozenset[str]:
    return frozenset(fold(word) for word in lexicon.INNOCENT_WORDS)


def _whole(word: str) -> bool:
    """A word of the list, or one with an inflected ending on a list word's stem."""
    if word in _innocent_words():
        return False
    words = _lexicon()
    if word in words:
        return True
    strong = _strong()
    for ending in _ENDINGS:
        if word.endswith(ending) and len(word) > len(ending) + 2:
            base = word[: -len(ending)]
            if base in words or base in strong:
                return True
            for vowel in "aeio":
                stem = base + vowel
                if stem in words and (len(stem) >= 5 or stem in strong):
                    return True
    return False


@lru_cache(maxsize=VERDICTS_KEPT)
def is_vulgar(word: str, *, inside: bool = True) -> bool:
    """Whether a folded word is vulgar: whole, inflected, run together with another vulgar
    word or a filler, or (``inside``) holding a strong stem anywhere."""
    if len(word) < 3:
        return False
    if _whole(word):
        return True
    for cut in range(3, len(word) - 1):
        head, tail = word[:cut], word[cut:]
        exact = head in _lexicon() and head not in _innocent_words()
        if exact and (tail in _fillers() or is_vulgar(tail, inside=False)):
            return True
    if inside and word not in _innocent_hosts():
        return any(stem in word for stem in _strong())
    return False


def _chunk_vulgar(readings: frozenset[str], *, alone: bool) -> bool:
    return any(is_vulgar(r, inside=alone) for r in readings)


def judge(text: str) -> Verdict:
    """The vulgar words of ``text`` and the text with each of them masked by asterisks."""
    chunks = [
        (m.start(), m.end(), _readings(m.group()), _capped(m.group()))
        for m in _CHUNK.finditer(text)
    ]
    found: list[str] = []
    masked = list(text)
    index = 0
    while index < len(chunks):
        hit = _longest_hit(chunks, index)
        if hit == 0:
            index += 1
            continue
        start, end = chunks[index][0], chunks[index + hit - 1][1]
        found.append(text[start:end])
        for i in range(start, end):
            if not text[i].isspace():
                masked[i] = "*"
        index += hit
    return Verdict(tuple(found), "".join(masked))


Chunk = tuple[int, int, frozenset[str], str]


def _longest_hit(chunks: list[Chunk], index: int) -> int:
    """How many chunks from ``index`` on make the longest vulgar run (0: none)."""
    best = 0
    joined: frozenset[str] = frozenset({""})
    capped = ""
    for width in range(1, min(WINDOW, len(chunks) - index) + 1):
        _, _, readings, letters = chunks[index + width - 1]
        if not readings:
            break
        joined = frozenset(_squeeze(a + b) for a in joined for b in readings)
        capped += letters
        if min(len(j) for j in joined) > MAX_JOINED:
            break
        if _chunk_vulgar(joined, alone=width == 1) or _DOUBLED.fullmatch(capped):
            best = width
    return best
