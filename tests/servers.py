"""Servers a fault test owns and kills for real: its own embedded broker or valkey on a port of its own,
``kill -9`` (:func:`kill`) and ``SIGSTOP`` / ``SIGCONT`` (:func:`frozen`). The fixtures ``own_broker`` and
``own_valkey`` (tests/conftest.py) hand one out and always leave it stopped, a frozen one resumed first."""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path

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
    """``server`` stopped with ``SIGSTOP`` until the block ends: its connections stay open, nothing answers.

    The block starts only once every thread of the process has stopped: ``kill`` returns when the signal is
    queued, and on a busy machine a broker thread already running could still answer a request sent just after
    (CI on 682ed24: the first of three records sent after the freeze was acknowledged)."""
    assert server.proc is not None, f"{server.name} is not running"
    os.kill(server.proc.pid, signal.SIGSTOP)
    try:
        wait_stopped(server.proc.pid)
        yield
    finally:
        os.kill(server.proc.pid, signal.SIGCONT)


def thread_states(pid: int) -> list[str]:
    """The scheduler state letter of every thread of ``pid`` (``T``: stopped by a signal)."""
    states = []
    for stat in Path(f"/proc/{pid}/task").glob("*/stat"):
        with contextlib.suppress(OSError):  # a thread that ended meanwhile
            states.append(stat.read_text().rsplit(")", 1)[1].split()[0])
    return states


def wait_stopped(pid: int, timeout: float = 10.0) -> None:
    """Return once every thread of ``pid`` is stopped; AssertionError after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while True:
        states = thread_states(pid)
        if states and all(state in "Tt" for state in states):
            return
        assert time.monotonic() < deadline, f"process {pid} did not stop within {timeout} s: {states}"
        time.sleep(0.001)
