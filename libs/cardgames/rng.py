"""Deterministic, auditable randomness: every shuffle of every table comes from here.

The algorithm is deliberately simple so that an auditor can re-implement it in any
language from this description and reproduce every deal from the revealed seed:

1. Draw ``k`` (k = 0, 1, 2, ...) is the 32-byte digest ``SHA-256(seed || k)`` where ``k``
   is encoded as 8 bytes, big-endian. The first 8 bytes of the digest, read as a
   big-endian unsigned integer, give ``x`` in ``[0, 2**64)``.
2. ``randbelow(n)`` rejects ``x`` while ``x >= 2**64 - (2**64 mod n)`` (so every result is
   equally likely) and returns ``x mod n``. Each rejected draw consumes a counter value.
3. ``shuffle(cards)`` is Fisher-Yates from the end: for ``i = len-1`` down to ``1``,
   ``j = randbelow(i + 1)`` and swap positions ``i`` and ``j``. Position 0 is the top of
   the resulting pile.

The generator's whole state is ``(seed, counter)``, so it is copied with the game state
and replay needs nothing else. No clock, no process-wide random state.
"""

from __future__ import annotations

import hashlib
import struct
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")

_SPACE = 1 << 64
_U64 = struct.Struct(">Q")
"""An unsigned 64-bit big-endian integer: the counter's encoding and the draw's reading."""
_LIMITS = tuple(_SPACE - (_SPACE % n) if n else 0 for n in range(256))
"""Rejection limits for the bounds of every deck-sized shuffle, computed once."""


@dataclass(slots=True)
class SeededRandom:
    """Counter-mode SHA-256 generator; see the module docstring for the exact algorithm."""

    seed: bytes
    counter: int = 0

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``[0, n)``."""
        if n <= 0:
            raise ValueError("randbelow needs a positive bound")
        limit = _SPACE - (_SPACE % n)
        seed = self.seed
        while True:
            digest = hashlib.sha256(seed + _U64.pack(self.counter)).digest()
            self.counter += 1
            x: int = _U64.unpack_from(digest)[0]
            if x < limit:
                return x % n

    def shuffle(self, items: list[T]) -> None:
        """Shuffle ``items`` in place by Fisher-Yates from the end.

        Exactly ``randbelow(i + 1)`` for each ``i``, inlined: dealing is on every game's
        path and this is most of its cost.
        """
        seed, counter = self.seed, self.counter
        sha256, pack, unpack, limits = hashlib.sha256, _U64.pack, _U64.unpack_from, _LIMITS
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = limits[n] if n < 256 else _SPACE - (_SPACE % n)
            while True:
                x: int = unpack(sha256(seed + pack(counter)).digest())[0]
                counter += 1
                if x < limit:
                    break
            j = x % n
            items[i], items[j] = items[j], items[i]
        self.counter = counter

    def copy(self) -> SeededRandom:
        return SeededRandom(self.seed, self.counter)
