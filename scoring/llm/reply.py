"""What one judge call returned: the text, and what it cost."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class JudgeReply:
    """A judge's reply with what it cost: tokens of the prompt and of the reply, and money when known."""

    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float | None = None

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens
