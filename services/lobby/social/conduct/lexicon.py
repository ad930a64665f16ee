"""The filter's own word lists (PCG-3), beside the maintained LDNOOBW list it reads first.

Each list says why it exists. Entries are written plainly; the filter folds them the way
it folds messages (:func:`language.fold`).

**Ambiguous words, and why they are masked.** Some words are innocent in one sense and a
slur or an insult in another; at a card table the other sense is the one people type:

- ``finocchio`` is fennel, and a slur for a gay man. Masked: nobody needs fennel at a
  card table, and the slur is the one a moderator would be asked about.
- ``dick`` is a name, and an insult. Masked, in chat and in nicknames: a player is called
  by their nickname, not in chat text, and ``Dick`` as a nickname reads as the insult.
  Words that merely start with it (``Dickens``) pass.
- ``troia`` is a town of Apulia and Troy, and a vulgar insult. Masked, for the insult.
- ``scopare`` is to sweep, and the vulgar verb; masked (the list's sense). ``scopa``, the
  game, and ``scopone`` pass.
- ``minchiate`` is a Florentine tarot game, and vulgar for "nonsense"; masked.
- ``dio cane`` can be read as "dog god"; in Italian it is a blasphemy first.

**Words let through** (:data:`ORDINARY_WORDS`): the Italian list holds everyday words that
are vulgar only in some mouths (``pesce``, ``regina``, ``venire``); a card table says
"regina di cuori" far more often than anyone means harm by it.
"""

from __future__ import annotations

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
        "girl on", "hot chick", "big black", "hard core", "huge fat", "how to kill",
        "how to murder", "god damn", "dog style", "goo girl",
    }
)  # fmt: skip

# Italian blasphemy, which Italian card rooms sanction first (the LDNOOBW list lacks it).
BLASPHEMY = (
    "porco dio", "porcodio", "porcoddio", "dio porco", "dio cane", "diocane", "dio can",
    "dio bestia", "dio boia", "dio maiale", "dio merda", "dio ladro", "dio infame",
    "dio bastardo", "dio schifoso", "dio lurido", "dio serpente", "dio animale",
    "dio stronzo", "dio porcello", "dio santo porco", "porca madonna", "madonna puttana",
    "madonna troia", "madonna maiala", "madonna cagna", "madonna porca", "porco cristo",
    "cristo porco", "cristo cane", "porco gesù", "gesù porco", "porco il signore",
    "dio lupo", "dio caro porco", "ostia di dio",
)  # fmt: skip

# Threats and incitement to self-harm: the words may be plain, the message is not.
THREATS = (
    "kill yourself", "kill urself", "kill ur self", "kill yoself", "kys", "go kill yourself",
    "hang yourself", "die in a fire", "drink bleach", "i will kill you", "i'll kill you",
    "ill kill you", "gonna kill you", "i hope you die", "hope you die", "neck yourself",
    "ammazzati", "ti ammazzo", "ti uccido", "ucciditi", "impiccati", "suicidati",
    "ti sgozzo", "vai a morire", "spero che muori", "spero che crepi", "spero che tu muoia",
    "ti spacco la faccia", "so dove abiti", "ti vengo a prendere", "buttati da un ponte",
)  # fmt: skip

# Forms the list lacks: transpositions and short forms people type.
VARIANTS = (
    "fcuk", "fuk", "fck", "fuq", "phuck", "fukk", "fuckin", "vaffa", "fanculo",
    "affanculo", "kazzo", "sticazzi", "cojone", "cojoni", "minchione", "stronza",
    "stronzata", "puttaniere", "bitchass", "dumbass", "jackass", "wtf", "stfu", "cazzaro",
)  # fmt: skip

# Ambiguous words masked on purpose; see the module docstring for why.
AMBIGUOUS = ("finocchio", "finocchi", "dick", "troia")

# Stems no innocent word of either language holds, found anywhere inside a word
# (``rompicoglioni``, ``cazzone``, ``fuckyou``) save in :data:`INNOCENT_HOSTS`.
STRONG_STEMS = (
    "fuck", "fcuk", "cazzo", "vaffanculo", "fanculo", "stronz", "coglion",
    "merda", "minchia", "bitch", "asshole", "porcodio", "diocane", "motherf",
)  # fmt: skip

# Innocent words that hold a strong stem.
INNOCENT_HOSTS = (
    "cazzotto", "cazzotti", "cazzottone", "scazzottata", "scazzottate", "scazzottarsi",
    "puttanesca", "puttanesche",
)  # fmt: skip

# Innocent words that read as a list word once repeated letters are squeezed (``coon``
# and ``con``, the Italian "with"; a slur and the country Niger) or that a list word's
# inflection would catch. The slurs are still caught, with their doubled letters
# (DOUBLED_SLURS).
INNOCENT_WORDS = (
    "con", "niger", "cummings", "dicker", "dickers",
    # First names whose letters squeeze into a list entry ("boob" reads "bob", "titties"
    # "tities"): a player called Bob or Titti is not swearing, and "boob" itself, with
    # its doubled letter, is still caught (DOUBLED_SLURS).
    "bob", "bobs", "bobo", "boby", "titi",
)  # fmt: skip

# Slurs that squeeze to an innocent word of INNOCENT_WORDS, matched whole with their
# doubled letters instead (a regular expression over letters, runs kept to two).
DOUBLED_SLURS = r"(?:nigg(?:er|a|ah|uh|az)s?|coons?|boobs?|boobies)"

# What may follow a vulgar word run together with it (``fuckyou``, ``vaffanculote``).
FILLERS = (
    "you", "u", "ya", "off", "yourself", "urself", "te", "ti", "tu", "voi", "tutti",
    "lui", "lei", "loro", "all", "them", "him", "her", "it", "this", "that", "me",
)  # fmt: skip

# Letters Unicode's confusables table does not read as Latin ones but people do.
EXTRA_LOOKALIKES = {
    "\u03bc": "u",  # greek small letter mu: fμck
    "\u03b5": "e",  # greek small letter epsilon
    "\u03ba": "k",  # greek small letter kappa
    "\u03c4": "t",  # greek small letter tau
    "\u03c7": "x",  # greek small letter chi
    "\u03b7": "n",  # greek small letter eta
    "\u03b6": "z",  # greek small letter zeta
    "\u03b2": "b",  # greek small letter beta
    "\u0432": "b",  # cyrillic small letter ve
    "\u043a": "k",  # cyrillic small letter ka
    "\u043d": "h",  # cyrillic small letter en
    "\u043c": "m",  # cyrillic small letter em
    "\u0442": "t",  # cyrillic small letter te
    "\u044c": "b",  # cyrillic small letter soft sign
    "\u0438": "u",  # cyrillic small letter i, which looks like a Latin u upside down
}
