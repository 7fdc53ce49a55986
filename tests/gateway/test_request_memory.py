"""A finished request leaves nothing behind in the gateway's state (issue 31: a 30-minute soak grew the gateway
by ~480 bytes a request; the publisher kept every acknowledged request id, up to 100,000 of them)."""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Any

from tests.gateway.conftest import FAITHFUL, MERGED, StartStack, ask

OBSERVE = {"default": {"mode": "observe", "threshold": 0.75, "timeout_s": 60}}  # a header makes it block
CONTAINERS = (dict, list, set, frozenset, tuple, deque)


def strings_held(root: object, limit: int = 200_000) -> set[str]:
    """Every string reachable from ``root`` through containers and the attributes of objects of our own
    packages (``gateway``, ``bus``): the per-request records a long-running gateway could pile up."""
    seen: set[int] = set()
    found: set[str] = set()
    todo: list[Any] = [root]
    while todo and len(seen) < limit:
        obj = todo.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if isinstance(obj, str):
            found.add(obj)
        elif isinstance(obj, dict):
            todo.extend(obj.keys())
            todo.extend(obj.values())
        elif isinstance(obj, CONTAINERS):
            todo.extend(obj)
        elif type(obj).__module__.split(".")[0] in ("gateway", "bus") and hasattr(obj, "__dict__"):
            todo.extend(vars(obj).values())
    return found


async def test_finished_requests_leave_no_request_id_in_the_gateway_state(start_stack: StartStack) -> None:
    gw = await start_stack(OBSERVE, publish_ack_timeout_s=60)  # a loaded machine acknowledges late
    asked = await asyncio.gather(
        *(ask(gw, conv, **{"x-factsentry-policy": "block"}) for conv in [MERGED, FAITHFUL] * 4),
        *(ask(gw, conv) for conv in [MERGED, FAITHFUL] * 2),
    )
    ids = {request_id for request_id, _, _ in asked}
    assert len(ids) == 12 and all(request_id.startswith("fs-") for request_id in ids)
    statuses = [headers["x-factsentry-status"] for _, _, headers in asked[:8]]
    assert statuses == ["checked"] * 8  # the block requests waited for their verdicts
    publisher = gw.gateway.publisher
    await publisher.flush()  # the observe requests' generations are acknowledged too
    assert not publisher.pending and gw.gateway.listener.waiting == 0
    await gw.gateway.decisions.drain()
    held = strings_held(gw.gateway)
    assert "mock-lean" in held  # the walk reaches the gateway's configuration
    assert ids & held == set()
