"""The English the checker and the knowledge store read with, as data in one place: folding, month and
number words, pronouns, name titles and suffixes, and the stop-word lists (each named for what it is
used for: they differ on purpose, and the stance model's features were trained on one of them)."""

from vocabulary.english import (
    FEMALE_PRONOUNS,
    FUNCTION_WORDS,
    MALE_PRONOUNS,
    MONTH_NUMBERS,
    MONTHS,
    NAME_SUFFIXES,
    NEGATIONS,
    NUMBER_WORDS,
    PERSONAL_PRONOUNS,
    PRIVATIVES,
    RETRIEVAL_STOPWORDS,
    ROLE_STOPWORDS,
    STANCE_STOPWORDS,
    SUBJECT_PRONOUNS,
    THIRD_PERSON_SINGULAR,
    TITLES,
)
from vocabulary.fold import fold_ascii, fold_claim, fold_name, fold_words

__all__ = [
    "FEMALE_PRONOUNS",
    "FUNCTION_WORDS",
    "MALE_PRONOUNS",
    "MONTHS",
    "MONTH_NUMBERS",
    "NAME_SUFFIXES",
    "NEGATIONS",
    "NUMBER_WORDS",
    "PERSONAL_PRONOUNS",
    "PRIVATIVES",
    "RETRIEVAL_STOPWORDS",
    "ROLE_STOPWORDS",
    "STANCE_STOPWORDS",
    "SUBJECT_PRONOUNS",
    "THIRD_PERSON_SINGULAR",
    "TITLES",
    "fold_ascii",
    "fold_claim",
    "fold_name",
    "fold_words",
]
