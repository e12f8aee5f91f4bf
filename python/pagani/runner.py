"""Runs a blocking library call so that Ctrl-C reaches Python: the call
runs in a worker thread (ctypes releases the GIL during it) while the
calling thread waits with a timeout, where KeyboardInterrupt is
delivered; then the context is asked to stop, the worker waited for, and
KeyboardInterrupt raised. The context stays usable.

The wait is on an Event the worker sets when the call has returned, not
on Thread.join: a join interrupted by KeyboardInterrupt can leave
Thread.is_alive() False while the thread still runs (CPython 3.11)."""

from __future__ import annotations

import threading
from typing import Callable, List

from .context import Context

_POLL_SECONDS = 0.05


def run_stoppable(context: Context, call: Callable[[], int]) -> int:
    """The return code of call(), run on `context`."""
    outcome: List[object] = []
    returned = threading.Event()

    def work() -> None:
        try:
            outcome.append(call())
        except BaseException as error:  # re-raised below
            outcome.append(error)
        finally:
            returned.set()

    worker = threading.Thread(target=work, name="pagani", daemon=True)
    with context.lock:
        worker.start()
        try:
            while not returned.wait(_POLL_SECONDS):
                pass
        except KeyboardInterrupt:
            context.request_stop()
            _wait_regardless(returned)
            raise
    if isinstance(outcome[0], BaseException):
        raise outcome[0]
    return outcome[0]  # type: ignore[return-value]


def _wait_regardless(returned: threading.Event) -> None:
    """Waits for the call to return even through further Ctrl-C: the
    library reads the caller's arrays until it does."""
    while not returned.is_set():
        try:
            returned.wait(_POLL_SECONDS)
        except KeyboardInterrupt:
            pass
