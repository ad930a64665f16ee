"""Deterministic, auditable randomness: every shuffle of every table comes from here.

The algorithm is deliberately simple so that an auditor can re-implement it in any
language from this description and reproduce every deal from the revealed seed:

1. Block ``b`` (b = 0, 1, 2, ...) is the 32-byte digest ``SHA-256(seed || b)`` where ``b``
   is encoded as 8 bytes, big-endian. It holds eight draws: draw ``k`` is bytes
   ``4*(k mod 8)`` to ``4*(k mod 8) + 3`` of block ``k div 8``, read as a big-endian
   unsigned integer ``x`` in ``[0, 2**32)``.
2. ``randbelow(n)``, for ``1 <= n <= 2**32``, rejects ``x`` while
   ``x >= 2**32 - (2**32 mod n)`` (so every result is equally likely) and returns
   ``x mod n``. Each rejected draw uses up a draw.
3. ``shuffle(cards)`` is Fisher-Yates from the end: for ``i = len-1`` down to ``1``,
   ``j = randbelow(i + 1)`` and swap positions ``i`` and ``j``. Position 0 is the top of
   the resulting pile.

The generator's whole state is ``(seed, counter)`` (the index of the next draw), so it is
copied with the game state and replay needs nothing else. No clock, no process-wide
random state. Eight 32-bit draws per digest keep a 108-card deal at 14 hashes; card
games never need a bound anywhere near 2**32.
"""

from __future__ import annotations

import hashlib
import importlib
import struct
from collections.abc import Callable
from typing import Any, Final, TypeVar

T = TypeVar("T")

_SPACE: Final = 1 << 32
_BLOCK: Final = struct.Struct(">8I")
"""A block's eight draws: unsigned 32-bit big-endian integers."""
_INDEX: Final = struct.Struct(">Q")
"""A block number: 8 bytes, big-endian."""


def _sha256() -> Callable[[bytes], Any]:
    """CPython's own SHA-256 where the interpreter has it (``_sha256`` up to 3.11,
    ``_sha2`` after): the same digest as OpenSSL's (``hashlib.sha256``, the fallback),
    without OpenSSL's set-up of every hash, which costs more than hashing a block this
    short (a 52-card deal hashes seven)."""
    for module in ("_sha256", "_sha2"):
        try:
            builtin: Callable[[bytes], Any] = importlib.import_module(module).sha256
        except (ImportError, AttributeError):
            continue
        return builtin
    return hashlib.sha256  # pragma: no cover - an interpreter built without either


_SHA256: Final = _sha256()
_LIMITS: Final = tuple(_SPACE - (_SPACE % n) if n else 0 for n in range(512))
"""Rejection limits for deck-sized bounds, computed once."""


class SeededRandom:
    """Counter-mode SHA-256 generator; see the module docstring for the exact algorithm."""

    __slots__ = ("counter", "seed")

    def __init__(self, seed: bytes, counter: int = 0) -> None:
        self.seed = seed
        self.counter = counter

    def __repr__(self) -> str:
        return f"SeededRandom(seed={self.seed!r}, counter={self.counter})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SeededRandom):
            return NotImplemented
        return self.seed == other.seed and self.counter == other.counter

    def __reduce__(self) -> tuple[type[SeededRandom], tuple[bytes, int]]:
        """Pickled and copied through the constructor, which compiled classes need."""
        return SeededRandom, (self.seed, self.counter)

    def _block(self, number: int) -> tuple[int, ...]:
        draws: tuple[int, ...] = _BLOCK.unpack(_SHA256(self.seed + _INDEX.pack(number)).digest())
        return draws

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``[0, n)``, for ``1 <= n <= 2**32``."""
        if not 0 < n <= _SPACE:
            raise ValueError(f"randbelow needs a bound from 1 to 2**32, not {n}")
        limit = _SPACE - (_SPACE % n)
        while True:
            x = self._block(self.counter >> 3)[self.counter & 7]
            self.counter += 1
            if x < limit:
                return x % n

    def shuffle(self, items: list[T]) -> None:
        """Shuffle ``items`` in place by Fisher-Yates from the end.

        Exactly ``randbelow(i + 1)`` for each ``i``, with each block hashed once: dealing
        is on every game's path and this is most of its cost.
        """
        if len(items) > _SPACE:
            raise ValueError("shuffle supports at most 2**32 items")
        counter = self.counter
        block: tuple[int, ...] = ()
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = _LIMITS[n] if n < 512 else _SPACE - (_SPACE % n)
            while True:
                if not block or counter & 7 == 0:  # hashed when first needed, never ahead
                    block = self._block(counter >> 3)
                x = block[counter & 7]
                counter += 1
                if x < limit:
                    break
            j = x % n
            items[i], items[j] = items[j], items[i]
        self.counter = counter

    def copy(self) -> SeededRandom:
        return SeededRandom(self.seed, self.counter)
