"""Nicknames (PCG-1): what is allowed, and when two nicknames count as the same one.

A nickname is unique regardless of case and of look-alike characters, so nobody can
pose as ``Mario`` with ``MARIO``, with ``Mario`` spelt with a Cyrillic a (U+0430), or
with ``Mari0``. Each nickname has a *skeleton*, stored under a UNIQUE index; two
nicknames with the same skeleton cannot both exist.

The skeleton, in order:

1. NFKC normalisation: compatibility forms fold to their plain letter (a full-width
   M, U+FF2D, becomes ``M``; the ligature U+FB01 becomes ``fi``; a superscript two
   becomes ``2``).
2. Case folding (``str.casefold``): ``MARIO``, ``Mario`` and ``mario`` meet; German
   sharp s meets ``ss``.
3. A confusables map (``_CONFUSABLES`` below, each entry named) for the look-alikes that
   matter in practice, applied character by character: the Cyrillic and Greek letters
   that pass for Latin ones in either case (Cyrillic a, e, o, p, c, x, y, i, j, s and the
   capitals that look like B, H, K, M, T; Greek omicron, alpha, epsilon, iota, kappa, nu,
   rho, tau, upsilon, chi ...), the digits ``0`` → ``o``, ``1`` → ``l``, ``5`` → ``s``,
   and ``i`` → ``l``.
4. Two-letter look-alikes: ``rn`` → ``m``, ``vv`` → ``w``.

Why ``i`` joins ``l``: capital ``I`` and lowercase ``l`` are the classic pair, and since
case is ignored, ``I`` is the same nickname as ``i``; so ``i``, ``I``, ``l``, ``L`` and
``1`` share one skeleton letter. The price is that ``nick`` and ``nlck`` collide, which we
accept: refusing a near-identical nickname is the safe side.

This is deliberately smaller than Unicode's full UTS #39 confusables table (thousands
of entries, most of them symbols a nickname cannot contain): nicknames here are 3 to 20
letters, digits, ``_`` or ``-``, and the map covers the scripts whose letters pass as
Latin. Accents stay significant (``José`` and ``Jose`` are different nicknames), because
an accent is visible.

A new nickname is also held to the chat's language filter (PCG-3): ``Cazzo``, ``str0nz0``
or ``Vaffanculo`` are refused at registration, with every disguise the filter sees. Names
that read as the platform's staff (``Moderatore``, ``admin_``, ``Supporto``) are reserved
for the accounts the operator creates, so nobody poses as a moderator in a room. Both are
checked when an account is created, never at login: a name accepted once keeps working.
"""

from __future__ import annotations

import unicodedata

from tavolo.lobby.social.conduct.language import fold, judge
from tavolo.servicekit.errors import InvalidArgument

MIN_LENGTH = 3
MAX_LENGTH = 20

# Single characters (already case-folded) -> the Latin letter they pass for.
_CONFUSABLES: dict[str, str] = {
    "0": "o",
    "1": "l",
    "5": "s",
    "i": "l",
    "\u0131": "l",  # latin small letter dotless i
    "\u0430": "a",  # cyrillic small letter a
    "\u0432": "b",  # cyrillic small letter ve
    "\u0435": "e",  # cyrillic small letter ie
    "\u0451": "e",  # cyrillic small letter io
    "\u0437": "3",  # cyrillic small letter ze
    "\u043a": "k",  # cyrillic small letter ka
    "\u043c": "m",  # cyrillic small letter em
    "\u043d": "h",  # cyrillic small letter en
    "\u043e": "o",  # cyrillic small letter o
    "\u0440": "p",  # cyrillic small letter er
    "\u0441": "c",  # cyrillic small letter es
    "\u0442": "t",  # cyrillic small letter te
    "\u0443": "y",  # cyrillic small letter u
    "\u0445": "x",  # cyrillic small letter ha
    "\u0455": "s",  # cyrillic small letter dze
    "\u0456": "l",  # cyrillic small letter byelorussian-ukrainian i
    "\u0457": "l",  # cyrillic small letter yi
    "\u0458": "j",  # cyrillic small letter je
    "\u04bb": "h",  # cyrillic small letter shha
    "\u0501": "d",  # cyrillic small letter komi de
    "\u051b": "q",  # cyrillic small letter qa
    "\u051d": "w",  # cyrillic small letter we
    "\u04cf": "l",  # cyrillic small letter palochka
    "\u044c": "b",  # cyrillic small letter soft sign
    "\u03b1": "a",  # greek small letter alpha
    "\u03b2": "b",  # greek small letter beta
    "\u03b5": "e",  # greek small letter epsilon
    "\u03b6": "z",  # greek small letter zeta
    "\u03b7": "n",  # greek small letter eta
    "\u03b9": "l",  # greek small letter iota
    "\u03ba": "k",  # greek small letter kappa
    "\u03bc": "u",  # greek small letter mu
    "\u03bd": "v",  # greek small letter nu
    "\u03bf": "o",  # greek small letter omicron
    "\u03c1": "p",  # greek small letter rho
    "\u03c4": "t",  # greek small letter tau
    "\u03c5": "u",  # greek small letter upsilon
    "\u03c7": "x",  # greek small letter chi
    "\u03f2": "c",  # greek lunate sigma symbol
}

_PAIRS: tuple[tuple[str, str], ...] = (("rn", "m"), ("vv", "w"))

_PUNCTUATION = frozenset("_-")
_EDGE_DIGITS = "0123456789_-"

# What a staff account's name may say and a player's may not, folded like chat (so
# ``Adm1n``, ``MODERATORE`` and ``m0d3r4t0r`` all read as staff).
STAFF_WORDS = (
    "admin", "amministra", "moderat", "operator", "operatore", "staff", "support",
    "assistenza", "helpdesk", "sysop", "ufficial", "official", "tavolo", "gestore",
)  # fmt: skip


def normalise(raw: str) -> str:
    """The nickname as it will be shown: NFKC form, trimmed; refused if not allowed.

    Allowed: 3 to 20 characters, each a letter or digit (of any script) or ``_``/``-``.
    """
    if not isinstance(raw, str):
        raise InvalidArgument(
            "a nickname is text",
            reason="NICKNAME_INVALID",
            metadata={"min_length": MIN_LENGTH, "max_length": MAX_LENGTH},
        )
    nickname = unicodedata.normalize("NFKC", raw).strip()
    if not nickname:
        raise InvalidArgument(
            "choose a nickname: 3 to 20 letters, digits, '_' or '-'",
            reason="NICKNAME_INVALID",
            metadata={"min_length": MIN_LENGTH, "max_length": MAX_LENGTH},
        )
    if not MIN_LENGTH <= len(nickname) <= MAX_LENGTH:
        raise InvalidArgument(
            f"a nickname has {MIN_LENGTH} to {MAX_LENGTH} characters; {nickname!r} has"
            f" {len(nickname)}",
            reason="NICKNAME_INVALID",
            metadata={"min_length": MIN_LENGTH, "max_length": MAX_LENGTH},
        )
    for char in nickname:
        if char in _PUNCTUATION:
            continue
        category = unicodedata.category(char)
        if not (category.startswith("L") or category == "Nd"):
            if char.isspace():
                shown = "a space"
            elif char.isprintable():
                shown = repr(char)
            else:
                shown = f"the invisible character U+{ord(char):04X}"
            raise InvalidArgument(
                f"a nickname may hold only letters, digits, '_' and '-'; {shown} is not allowed",
                reason="NICKNAME_INVALID",
                metadata={"min_length": MIN_LENGTH, "max_length": MAX_LENGTH},
            )
    if all(char in _PUNCTUATION for char in nickname):
        raise InvalidArgument(
            "a nickname needs at least one letter or digit",
            reason="NICKNAME_INVALID",
            metadata={"min_length": MIN_LENGTH, "max_length": MAX_LENGTH},
        )
    return nickname


def check_acceptable(nickname: str) -> None:
    """Refuse a new nickname that reads as vulgar language or as the platform's staff."""
    readings = (
        nickname,
        nickname.replace("_", " ").replace("-", " "),
        nickname.strip(_EDGE_DIGITS),
    )
    if any(not judge(reading).clean for reading in readings):
        raise InvalidArgument(
            f"the nickname {nickname!r} reads as vulgar language, which nicknames may not"
            " hold (the chat's filter, PCG-3): choose another one",
            reason="NICKNAME_VULGAR",
            metadata={"nickname": nickname},
        )
    folded = fold(nickname)
    staff = next((word for word in STAFF_WORDS if fold(word) in folded), None)
    if staff is not None:
        raise InvalidArgument(
            f"the nickname {nickname!r} is reserved: names that read as staff ({staff!r})"
            " are kept for the platform's moderators and operators; choose another one",
            reason="NICKNAME_RESERVED",
            metadata={"nickname": nickname},
        )


def skeleton(nickname: str) -> str:
    """The key two nicknames share when they look alike (see the module docstring)."""
    folded = unicodedata.normalize("NFKC", nickname).casefold()
    # casefold can produce new compatibility forms only in rare cases; normalise again.
    folded = unicodedata.normalize("NFKC", folded)
    mapped = "".join(_CONFUSABLES.get(char, char) for char in folded)
    for pair, single in _PAIRS:
        mapped = mapped.replace(pair, single)
    return mapped


def same_nickname(a: str, b: str) -> bool:
    """True when ``a`` and ``b`` cannot both be taken."""
    return skeleton(a) == skeleton(b)
