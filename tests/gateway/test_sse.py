"""SSE helpers: text released as chunks must join back to exactly the text."""

from __future__ import annotations

import pytest

from gateway import sse


@pytest.mark.parametrize(
    ("text", "pieces"),
    [
        ("One sentence.", ["One sentence."]),
        ("A b. C d!\n\nE f? G", ["A b.", " C d!", "\n\nE f?", " G"]),
        ("No end mark", ["No end mark"]),
        ("Dr. Smith left.  Then", ["Dr.", " Smith left.", "  Then"]),
    ],
)
def test_text_chunks_split_by_sentence_and_join_back(text: str, pieces: list[str]) -> None:
    chunks = sse.text_chunks(text, request_id="r1", model="m", finish_reason="content_filter")
    contents = [c["choices"][0]["delta"].get("content") for c in chunks]
    assert contents[:-1] == pieces
    assert "".join(contents[:-1]) == text
    assert chunks[0]["choices"][0]["delta"]["role"] == "assistant"
    assert chunks[-1]["choices"][0] == {"index": 0, "delta": {}, "finish_reason": "content_filter"}
    assert {c["id"] for c in chunks} == {"r1"}


@pytest.mark.parametrize(
    ("chunk", "text"),
    [
        ({"choices": [{"delta": {"content": "hi"}}]}, "hi"),
        ({"choices": [{"delta": {"role": "assistant"}}]}, ""),
        ({"choices": []}, ""),
        ({"usage": {"total_tokens": 3}}, ""),
    ],
)
def test_delta_text(chunk: dict[str, object], text: str) -> None:
    assert sse.delta_text(chunk) == text
