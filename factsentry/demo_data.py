"""The demo conversations: biographies an LLM might write about people who share a name.

Each is served by its own mock model (litellm ``mock_response``), so the demo needs no API key.
The texts are ours; the facts behind them are in the demo knowledge base (``knowledge/demo``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Conversation:
    model: str
    name: str
    question: str
    answer: str
    note: str


CONVERSATIONS = (
    Conversation(
        model="demo-merged-bio",
        name="Dick Hanley",
        question="Tell me a bio of Dick Hanley.",
        answer=(
            "Dick Hanley was an American swimmer born in 1936. He competed for the United States at the 1956 "
            "Summer Olympics in Melbourne, where he won a silver medal in the 4×200-metre freestyle relay. "
            "He later became a football coach, leading the Haskell Institute from 1922 to 1926 and Northwestern "
            "University from 1927 to 1934. During the Second World War he served in the United States Marine Corps. "
            "Hanley died in 1970."
        ),
        note="one biography that merges two people (the D-FActScore paper's Figure 1 case)",
    ),
    Conversation(
        model="demo-single-bio",
        name="John Stewart",
        question="Who was the singer John Stewart?",
        answer=(
            "John Stewart was an American folk singer and songwriter. He was born in 1939 in San Diego, California. "
            "In 1961 he joined the Kingston Trio, replacing Dave Guard, and he stayed with the group until 1967. "
            "He wrote the song Daydream Believer, which became a number-one hit for the Monkees."
        ),
        note="a faithful single biography",
    ),
    Conversation(
        model="demo-two-bios",
        name="Joseph F. Smith",
        question="Tell me about Joseph F. Smith.",
        answer=(
            "There are two notable people named Joseph F. Smith. The first Joseph F. Smith was the sixth president "
            "of the Church of Jesus Christ of Latter-day Saints; he was born in 1838 at Far West, Missouri, and led "
            "the church from 1901 until his death in 1918. The other Joseph F. Smith was an American politician from "
            "Philadelphia. He was a member of the Democratic Party and served in the United States House of "
            "Representatives from 1981 to 1983."
        ),
        note="two separate biographies, each one right",
    ),
    Conversation(
        model="demo-wrong-date",
        name="John Hemming",
        question="Give me a short bio of the explorer John Hemming.",
        answer=(
            "John Hemming is a British explorer and historian of Latin America. He was born in 1935 in Vancouver, "
            "Canada. He was director of the Royal Geographical Society from 1975 to 1996. He wrote The Conquest of "
            "the Incas, which was first published in 1982."
        ),
        note="one wrong date (the book appeared in 1970)",
    ),
)


def model_list() -> dict[str, Any]:
    """A litellm ``model_list`` with one mocked model per conversation."""
    return {
        "model_list": [
            {
                "model_name": c.model,
                "litellm_params": {"model": "openai/gpt-4o-mini", "api_key": "demo-no-key", "mock_response": c.answer},
            }
            for c in CONVERSATIONS
        ]
    }
