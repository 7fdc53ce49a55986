"""Servers a fault test owns and kills for real: its own embedded broker or valkey on a port of its own,
``kill -9`` (:func:`kill`) and ``SIGSTOP`` / ``SIGCONT`` (:func:`frozen`). The fixtures ``own_broker`` and
``own_valkey`` (tests/conftest.py) hand one out and always leave it stopped, a frozen one resumed first."""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Iterator

from factsentry import embedded


@contextlib.contextmanager
def owned(server: embedded.ServerProcess) -> Iterator[embedded.ServerProcess]:
    """``server`` started until the block ends, then stopped (resumed first if a test left it frozen)."""
    server.start()
    try:
        yield server
    finally:
        if server.proc is not None and server.proc.poll() is None:
            os.kill(server.proc.pid, signal.SIGCONT)
        server.stop()


def kill(server: embedded.ServerProcess) -> None:
    """``kill -9`` of ``server``, returning once it is gone (``server.start()`` brings it back on its port)."""
    assert server.proc is not None, f"{server.name} is not running"
    server.proc.kill()
    server.proc.wait(10)


@contextlib.contextmanager
def frozen(server: embedded.ServerProcess) -> Iterator[None]:
    """``server`` stopped with ``SIGSTOP`` until the block ends: its connections stay open, nothing answers."""
    assert server.proc is not None, f"{server.name} is not running"
    os.kill(server.proc.pid, signal.SIGSTOP)
    try:
        yield
    finally:
        os.kill(server.proc.pid, signal.SIGCONT)
