"""The fault helpers of tests/servers.py keep their word: a frozen process runs nothing until it is resumed."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from factsentry import embedded
from tests.servers import frozen, thread_states

# Four threads each bumping a counter file of their own as fast as they can: any that still runs shows.
BUSY = """
import pathlib, sys, threading
def spin(i):
    path = pathlib.Path(sys.argv[1]) / str(i)
    n = 0
    while True:
        n += 1
        path.write_text(str(n))
for i in range(4):
    threading.Thread(target=spin, args=(i,), daemon=True).start()
threading.Event().wait()
"""


def counters(folder: Path) -> dict[str, int]:
    """Each thread's file's last change: its content can read empty between the truncation and the write of
    ``write_text`` (CI on 0784a74 read all four empty before and after), its modification time cannot go back."""
    return {p.name: p.stat().st_mtime_ns for p in sorted(folder.iterdir())}


def test_a_frozen_process_has_every_thread_stopped_and_runs_on_after(tmp_path: Path) -> None:
    server = embedded.ServerProcess(name="busy", argv=[sys.executable, "-c", BUSY, str(tmp_path)], port=0)
    server.proc = subprocess.Popen(server.argv)
    try:
        deadline = time.monotonic() + 10
        while len(list(tmp_path.iterdir())) < 4:
            assert time.monotonic() < deadline, "the busy threads did not start"
            time.sleep(0.01)
        with frozen(server):
            states = thread_states(server.proc.pid)
            assert len(states) == 5 and set(states) <= {"T", "t"}, states  # the main thread and the four
            before = counters(tmp_path)
            time.sleep(0.2)
            assert counters(tmp_path) == before  # nothing ran while frozen
        time.sleep(0.2)
        assert counters(tmp_path) != before  # and it runs on once resumed
    finally:
        server.proc.kill()
        server.proc.wait(10)
