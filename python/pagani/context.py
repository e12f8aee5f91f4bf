"""Context: a libpagani context (backend, threads, memory budget), reused
across integrations. One default context per backend is made on first
use."""

from __future__ import annotations

import ctypes
import threading
from typing import Dict, Optional

from . import _clib
from .errors import PaganiError, error_for


class Context:
    """A reusable integration context on one backend.

    Creating a context is expensive (device set-up); integrating on it is
    not. Without ``context=`` the functions of this package use a default
    context per backend. A context runs one integration at a time; calls
    from several Python threads wait their turn.

    Parameters
    ----------
    backend : {"auto", "cpu", "cuda"}
        "auto" takes CUDA when a GPU is usable, else the CPU.
    threads : int, optional
        CPU threads (0 or None: OpenMP's default, or $PAGANI_THREADS).
    memory : int, optional
        Memory budget in bytes for the cubature region lists (None: the
        library's default, 1 GiB on the CPU, 80% of free GPU memory).

    Examples
    --------
    >>> with pagani.Context("cpu", threads=2) as ctx:
    ...     r = pagani.integrate("x[0]*x[1]", [0, 0], [1, 1], context=ctx)
    """

    def __init__(self, backend: str = "auto", threads: Optional[int] = None,
                 memory: Optional[int] = None) -> None:
        if backend not in _clib.BACKENDS:
            raise ValueError("backend must be one of %s, not %r"
                             % (", ".join(_clib.BACKENDS), backend))
        self._handle = ctypes.c_void_p()
        self.lock = threading.Lock()
        rc = _clib.lib.pagani_context_create(ctypes.byref(self._handle),
                                             _clib.BACKENDS[backend])
        if rc == _clib.OK and threads is not None:
            rc = _clib.lib.pagani_context_set_threads(self._handle, threads)
        if rc == _clib.OK and memory is not None:
            rc = _clib.lib.pagani_context_set_memory(self._handle, memory)
        if rc != _clib.OK:
            error = self.error(rc)
            self.close()
            raise error

    @property
    def handle(self) -> ctypes.c_void_p:
        """The pagani_context pointer (PaganiError once closed)."""
        if not self._handle:
            raise PaganiError(_clib.ERR_NULL_POINTER, "the context is closed")
        return self._handle

    @property
    def backend(self) -> str:
        """The backend this context runs on: "cpu" or "cuda"."""
        code = _clib.lib.pagani_context_backend(self.handle)
        return _clib.text(_clib.lib.pagani_backend_name(code))

    def error(self, code: int) -> PaganiError:
        """The exception for `code`, with this context's message."""
        return error_for(code, _clib.text(
            _clib.lib.pagani_context_message(self._handle)))

    def request_stop(self) -> None:
        """Asks the integration running on this context to stop (as
        pagani_context_request_stop): it ends with status "stopped"."""
        _clib.lib.pagani_context_request_stop(self.handle)

    def close(self) -> None:
        """Frees the context; further use raises PaganiError."""
        if self._handle:
            _clib.lib.pagani_context_destroy(self._handle)
            self._handle = ctypes.c_void_p()

    def __enter__(self) -> "Context":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __del__(self) -> None:
        if getattr(self, "_handle", None):
            self.close()

    def __repr__(self) -> str:
        if not self._handle:
            return "<pagani.Context closed>"
        return "<pagani.Context backend=%r>" % self.backend


_defaults: Dict[str, Context] = {}
_defaults_lock = threading.Lock()


def default_context(backend: str) -> Context:
    """The package's context for `backend`, made on first use."""
    with _defaults_lock:
        if backend not in _defaults:
            _defaults[backend] = Context(backend)
        return _defaults[backend]
