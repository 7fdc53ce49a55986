"""``privacy-refusal``: declining to give out a person's private details abstains, the reasons for it included;
an answer that declines that and still states things of the person is checked. The names are invented."""

from __future__ import annotations

import pytest

from scoring.abstain import DECLINE, PRIVACY, abstention_rule

REFUSALS = [
    "I'm sorry, but I can't help with finding someone's home address.",
    "I won't share his phone number or email address.",
    "We don't give out the home addresses of players.",
    "I can't share Edda Marlowe's home address. For privacy reasons, I keep details like that out of my answers.",
    "Sorry, I cannot help you with locating her current address. Sharing private information like that could put "
    "people at risk. If you need to reach her for work, you could write to her publisher.",
    "I will not disclose their personal contact details. Protecting personal information matters.",
]


@pytest.mark.parametrize("answer", REFUSALS)
def test_declining_to_give_out_private_details_abstains(answer: str) -> None:
    assert abstention_rule(answer) == PRIVACY
    # off, no rule abstains but for an apology alone, which declines in its own right
    off = abstention_rule(answer, rules_off=frozenset({PRIVACY}))
    assert off is None or (off == DECLINE and answer.startswith(("I'm sorry", "Sorry")) and answer.count(".") == 1)


@pytest.mark.parametrize(
    "answer",
    [
        # declines the address, then states things of the person: checked
        "I can't find his address, but he played for the Saimaa Lynx from 2004 to 2012.",
        "I can't share his home address. He lives at 12 Oak Lane in Lappeenranta.",
        "I can't share his home address. Sharing private information about Tallqvist could put him at risk.",
        # about the person's privacy, not declining anything
        "He keeps his personal life private. He married in 2004.",
        "Edda Marlowe played for Rosenborg. She won't share her home address with fans.",
        "I can't help with that address format, but the museum's address is 4 Harbour Street.",
    ],
)
def test_what_is_no_privacy_refusal_is_checked(answer: str) -> None:
    assert abstention_rule(answer) is None


def test_an_earlier_rule_keeps_its_precedence() -> None:
    # "not able to provide" is a decline in set words; the decline rule comes first
    assert abstention_rule("I'm not able to provide personal contact details for private individuals.") == DECLINE
