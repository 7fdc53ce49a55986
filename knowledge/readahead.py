"""Reading an import's sources ahead of the writer: in a thread for small sources, in a process for large ones.

SQLite's full-text indexing takes one core for the whole import. Parsing, cutting and digesting
pages is Python, and in a thread it holds the GIL the writer needs between rows; in a second
process it runs beside the writer on the other core. Starting that process costs about a second,
so only sources of at least ``PROCESS_MIN_BYTES`` are read there.

Both readers keep memory bounded (a fixed number of batches in flight) and raise the reader's
error in the consumer. The process reader hands bad-line reports and progress back with each batch.
"""

from __future__ import annotations

import contextlib
import importlib
import pickle
import queue
import subprocess
import sys
import threading
from collections.abc import Callable, Generator, Iterator
from pathlib import Path
from typing import IO, Any, TypeVar

from knowledge.pages import Page

T = TypeVar("T")
PROCESS_MIN_BYTES = 64 << 20  # sources this large (in file bytes) are read in a process of their own

BadLine = Callable[[str, int, str], None]
Progress = Callable[[int], None]
# (files, formats, bad, progress or None, max_line_bytes) -> (page, digest) of every source page
SourceReader = Callable[[list[Path], list[str], BadLine, Progress | None, int], Iterator[tuple[Page, int]]]


def read_ahead(items: Iterator[T], chunk: int = 64, depth: int = 64) -> Generator[T, None, None]:
    """Run ``items`` in a thread, ahead of the consumer: parsing overlaps SQLite, which releases the GIL.

    Memory stays bounded (``chunk * depth`` items in flight); an error in the reader is raised here.
    """
    q: queue.Queue[list[T] | BaseException | None] = queue.Queue(maxsize=depth)
    stop = threading.Event()

    def produce() -> None:
        try:
            batch: list[T] = []
            for item in items:
                batch.append(item)
                if len(batch) >= chunk:
                    q.put(batch)
                    batch = []
                    if stop.is_set():
                        return
            q.put(batch)
            q.put(None)
        except BaseException as e:  # handed to the consumer, which raises it
            q.put(e)

    thread = threading.Thread(target=produce, name="kb-import-reader", daemon=True)
    thread.start()
    try:
        while (item := q.get()) is not None:
            if isinstance(item, BaseException):
                raise item
            yield from item
    finally:
        stop.set()
        while thread.is_alive():  # unblock a reader waiting on a full queue
            with contextlib.suppress(queue.Empty):
                q.get(timeout=0.05)
        thread.join()


def _child_main(job: dict[str, Any]) -> None:
    """The reader process (see ``read_in_process``): batches of pages, pickled to stdout, until the end or an error."""
    module_name, _, attr = job["reader"].partition(":")
    reader: SourceReader = getattr(importlib.import_module(module_name), attr)
    out = sys.stdout.buffer
    pages: list[tuple[str, tuple[str, ...], tuple[str, ...], int]] = []
    bad: list[tuple[str, int, str]] = []
    progressed = 0

    def on_bad(source: str, line: int, reason: str) -> None:
        bad.append((source, line, reason))

    def on_progress(amount: int) -> None:
        nonlocal progressed
        progressed += amount

    def send(item: object) -> None:
        pickle.dump(item, out, protocol=pickle.HIGHEST_PROTOCOL)

    try:
        shown = on_progress if job["progress"] else None
        for page, digest in reader(job["files"], job["formats"], on_bad, shown, job["max_line_bytes"]):
            pages.append((page.title, page.passages, page.aliases, digest))
            if len(pages) >= job["chunk"]:
                send((pages, bad, progressed))
                pages, bad, progressed = [], [], 0
        send((pages, bad, progressed))
        send(None)
    except (KeyboardInterrupt, BrokenPipeError):  # the parent stopped reading, or has the interrupt too
        return
    except Exception as e:
        try:
            send(e)
        except Exception:  # an error that does not pickle still stops the import, by its text
            send(RuntimeError(f"{type(e).__name__}: {e}"))
    out.flush()


def read_in_process(
    reader: str,
    files: list[Path],
    formats: list[str],
    bad: BadLine,
    progress: Progress | None,
    max_line_bytes: int,
    chunk: int = 256,
    depth: int = 16,
) -> Iterator[tuple[Page, int]]:
    """The ``reader`` (``"module:function"``, a ``SourceReader``) run in a separate Python process.

    Yields its ``(page, digest)`` pairs in order; bad lines and progress are reported here, batch by
    batch. The process is started with this interpreter and this ``sys.path``, and does not
    re-import ``__main__``, so any caller may use it. Memory stays bounded: at most ``depth``
    batches of ``chunk`` pages wait here, and beyond them the reader blocks on a full pipe. An error
    in the reader (a line over the cap, an unreadable file) is raised here.
    """
    boot = (
        "import pickle, sys; job = pickle.load(sys.stdin.buffer); sys.path[:0] = job['path']; "
        "from knowledge.readahead import _child_main; _child_main(job)"
    )
    proc = subprocess.Popen([sys.executable, "-c", boot], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None
    job = {
        "path": [p for p in sys.path if p],
        "reader": reader,
        "files": files,
        "formats": formats,
        "max_line_bytes": max_line_bytes,
        "progress": progress is not None,
        "chunk": chunk,
    }
    finished = False
    # Batches are unpickled in a thread, ``depth`` ahead: the child never waits on a full pipe while
    # the writer is busy in SQLite, and the writer rarely waits for the child's next batch.
    batches = read_ahead(_unpickled(proc.stdout), chunk=1, depth=depth)
    try:
        pickle.dump(job, proc.stdin, protocol=pickle.HIGHEST_PROTOCOL)
        proc.stdin.close()
        while True:
            try:
                item = next(batches)
            except EOFError:
                raise RuntimeError(f"the import's reader process ended early (exit code {proc.wait()})") from None
            if item is None:
                finished = True
                break
            if isinstance(item, BaseException):
                raise item
            pages, bad_lines, progressed = item
            for source, line, reason in bad_lines:
                bad(source, line, reason)
            if progress is not None and progressed:
                progress(progressed)
            for title, passages, aliases, digest in pages:
                yield Page(title, passages, aliases), digest
    finally:
        if not finished:
            proc.kill()  # first: the thread may be waiting on the pipe, and reads its end now
        batches.close()
        proc.stdout.close()
        proc.wait()


def _unpickled(stream: IO[bytes]) -> Iterator[Any]:
    """The objects pickled onto ``stream``, up to and including the reader's end mark or error."""
    while True:
        item = pickle.load(stream)
        yield item
        if item is None or isinstance(item, BaseException):
            return
