"""Runs a blocking library call so that Ctrl-C reaches Python: the call
runs in a worker thread (ctypes releases the GIL during it) while the
calling thread waits with a timeout, where KeyboardInterrupt is
delivered; then the context is asked to stop, the worker joined, and
KeyboardInterrupt raised. The context stays usable."""

from __future__ import annotations

import threading
from typing import Callable, List

from .context import Context

_POLL_SECONDS = 0.05


def run_stoppable(context: Context, call: Callable[[], int]) -> int:
    """The return code of call(), run on `context`."""
    outcome: List[object] = []

    def work() -> None:
        try:
            outcome.append(call())
        except BaseException as error:  # re-raised below
            outcome.append(error)

    worker = threading.Thread(target=work, name="pagani", daemon=True)
    with context.lock:
        worker.start()
        try:
            while worker.is_alive():
                worker.join(_POLL_SECONDS)
        except KeyboardInterrupt:
            context.request_stop()
            _join_regardless(worker)
            raise
    if isinstance(outcome[0], BaseException):
        raise outcome[0]
    return outcome[0]  # type: ignore[return-value]


def _join_regardless(worker: threading.Thread) -> None:
    """Joins the worker even through further Ctrl-C: the library reads
    the caller's arrays until it returns."""
    while worker.is_alive():
        try:
            worker.join(_POLL_SECONDS)
        except KeyboardInterrupt:
            pass
