"""What the knowledge store hands to scoring: entities (page titles) and passages."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class EntityRef(BaseModel):
    """One entity of the knowledge store: a page title split into base name and disambiguator.

    >>> EntityRef(title="Dick Hanley (swimmer)", base_name="Dick Hanley", disambiguator="swimmer")
    EntityRef(title='Dick Hanley (swimmer)', base_name='Dick Hanley', disambiguator='swimmer', aliases=[], score=0.0)
    """

    model_config = ConfigDict(frozen=True)

    title: str
    base_name: str
    disambiguator: str | None = None
    aliases: list[str] = []
    score: float = 0.0


class Passage(BaseModel):
    """A passage of one entity's page; ``score`` is the retrieval score (higher is better)."""

    model_config = ConfigDict(frozen=True)

    title: str
    text: str
    passage_id: int | None = None
    score: float = 0.0
