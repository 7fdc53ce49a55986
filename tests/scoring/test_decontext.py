"""Decontextualisation: a fact whose subject is a pronoun is rewritten with its group's name, and a contraction
the pronoun carried is spelled out, since no page writes "Loureiro'd"."""

from __future__ import annotations

import pytest

from scoring.decontext import decontextualize


@pytest.mark.parametrize(
    ("fact", "subject", "named"),
    [
        # "'d" before a participle is "had", before a bare verb "would"
        ("He'd ticked off nine of the fourteen peaks.", "He", "Kari Berg had ticked off nine of the fourteen peaks."),
        ("She'd won the cup twice.", "She", "Kari Berg had won the cup twice."),
        ("He'd rather climb alone.", "He", "Kari Berg would rather climb alone."),
        # "'s" after a subject pronoun is "has" before a participle, else "is"
        ("She's been a judge since 2011.", "She", "Kari Berg has been a judge since 2011."),
        ("He's run its technology side ever since.", "He", "Kari Berg has run its technology side ever since."),
        ("She's a judge in Quebec.", "She", "Kari Berg is a judge in Quebec."),
        ("He'll retire in 2025.", "He", "Kari Berg will retire in 2025."),
        # look-alikes: a possessive subject keeps its "'s", and a fact without a contraction is only renamed
        ("His father's farm was sold.", "His father", "Kari Berg's father's farm was sold."),
        ("He ticked off nine peaks.", "He", "Kari Berg ticked off nine peaks."),
    ],
)
def test_a_pronouns_contraction_is_spelled_out(fact: str, subject: str, named: str) -> None:
    assert decontextualize(fact, subject, "Kari Berg") == named


@pytest.mark.parametrize("name", [r"R\'eunion Maillefer", r"\item Maillefer", "Maillefer \\1", r"C:\new Berg"])
def test_a_name_is_put_in_as_written_not_read_as_a_replacement_template(name: str) -> None:
    # LaTeX escapes and backslashes in a name read from an answer once crashed the whole check (re.error)
    assert decontextualize("He was born in 1954.", "He", name) == f"{name} was born in 1954."
