"""integrate() and integrate_batch(): one library call each, on a worker
thread so that Ctrl-C stops it (runner.py)."""

from __future__ import annotations

import ctypes
from typing import Any, Callable, Optional, Sequence, Tuple, Union

import numpy as np

from . import _clib
from .context import Context, default_context
from .errors import BoundsError, NonFiniteError
from .gradient import Gradient_t, GradientLayout, layout
from .integrands import (Integrand, compiled_address, from_callable,
                         from_compiled, from_gradient_source, from_source)
from .options import make_options, note_vegas_grid
from .progress import Progress
from .result import BatchResult, Result
from .runner import run_stoppable

Integrand_t = Union[str, Callable[..., Any], Any]
ArrayLike = Union[Sequence[float], np.ndarray]

_DOUBLES = ctypes.POINTER(ctypes.c_double)


def _doubles(array: np.ndarray) -> Any:
    return array.ctypes.data_as(_DOUBLES)


def _box(lower: ArrayLike, upper: ArrayLike) -> Tuple[np.ndarray,
                                                      np.ndarray]:
    lo = np.ascontiguousarray(lower, dtype=np.float64)
    hi = np.ascontiguousarray(upper, dtype=np.float64)
    if lo.shape != hi.shape or lo.ndim not in (1, 2) or lo.shape[-1] < 1:
        raise BoundsError(_clib.ERR_BOUNDS,
                          "lower and upper must be sequences of one length "
                          "(the dimension), or (K, n) arrays in a batch; "
                          "got shapes %s and %s" % (lo.shape, hi.shape))
    return lo, hi


def _params(params: Optional[ArrayLike], ndim: int) -> Optional[np.ndarray]:
    if params is None:
        return None
    array = np.array(params, dtype=np.float64, ndmin=ndim, order="C")
    if array.ndim != ndim:
        raise ValueError("params must be a %d-D array of floats, got shape %s"
                         % (ndim, array.shape))
    array.flags.writeable = False
    return array


def _context(f: Integrand_t, backend: str,
             context: Optional[Context]) -> Context:
    if context is not None:
        return context
    if backend == "auto" and not isinstance(f, str):
        backend = "cpu"  # host forms run on the CPU backend only
    return default_context(backend)


def _make_integrand(f: Integrand_t, context: Context, n: int,
                    ncomp: Optional[int], params: Optional[np.ndarray],
                    grad: Optional[GradientLayout] = None) -> Integrand:
    if grad is not None:
        return from_gradient_source(context, f, n, ncomp, params, grad.which)
    if isinstance(f, str):
        return from_source(context, f, n, ncomp, params)
    address = compiled_address(f)
    if address is not None:
        return from_compiled(context, address, n, ncomp, params)
    if callable(f):
        return from_callable(context, f, n, ncomp, params)
    raise TypeError("f must be C source (str), a Python callable or a "
                    "compiled callback, not %s" % type(f).__name__)


def _run(context: Context, integrand: Integrand, progress: Any,
         options: _clib.Options, call: Callable[[], int]) -> int:
    """Runs call() with the progress callback installed; re-raises what a
    Python callback raised; returns the library's code."""
    display = Progress(progress, integrand)
    display.install(options)
    try:
        rc = run_stoppable(context, call)
    finally:
        display.close()
    if integrand.exception is not None:
        _, error, traceback = integrand.exception
        integrand.exception = None
        raise error.with_traceback(traceback)
    return rc


def integrate(f: Integrand_t, lower: ArrayLike, upper: ArrayLike, *,
              method: str = "auto", backend: str = "auto",
              epsrel: float = 1e-3, epsabs: float = 0.0,
              params: Optional[ArrayLike] = None,
              ncomp: Optional[int] = None,
              gradient: Gradient_t = False,
              max_evaluations: Optional[int] = None,
              seed: Optional[int] = None, rule: Optional[int] = None,
              norm: Optional[str] = None, progress: Any = None,
              context: Optional[Context] = None, **options: Any) -> Result:
    """Integrate f over the box [lower[0], upper[0]] x ... x [lower[n-1],
    upper[n-1]].

    Parameters
    ----------
    f : str, callable or compiled callback
        What to integrate, in one of three forms:

        - C source (str), exactly as the ``pagani`` command takes it: an
          expression (``"exp(-x[0]*x[0])"``) or a function body with
          ``return``. It sees ``x`` (the point), ``n``, ``p`` (params as
          doubles) and <math.h>. With ``ncomp`` it is a body writing
          ``f[0]`` .. ``f[ncomp-1]``. Compiled once (cached on disk) and
          run on the GPU or the CPU.
        - A Python callable ``f(x)``, or ``f(x, params)`` when params is
          given: x is a read-only float64 array of shape (npoints, n); it
          returns an array of shape (npoints,), or (npoints, ncomp) with
          ``ncomp``. It is called with blocks of points (vectorized, CPU
          backend). An exception it raises stops the integration at once
          and is re-raised here; so is a returned array of the wrong
          shape or dtype (TypeError, ValueError).
        - A compiled callback with the C signature ``double f(const double
          *x, int n, const void *params)`` (``void f(const double *x, int
          n, const void *params, double *f)`` with ``ncomp``): a ctypes
          function pointer, a ``numba.cfunc`` or a
          ``scipy.LowLevelCallable``. CPU backend, no Python in the loop.
    lower, upper : sequence of float
        The box; their common length is the dimension n. A bound may be
        -inf or inf: the library maps an unbounded axis onto a finite
        interval (options ``domain_map``, "rational" by default or
        "exponential"; ``domain_scale``, the map's length, default 1, or
        ``domain_scales``, one per axis; ``domain_centers``, one per axis,
        where an axis over the whole line is centred, default 0: put it at
        f's peak and the scale at 2 to 3 widths of its decay; README
        "Domains and singularities").
    method : {"auto", "cubature", "vegas", "qmc"}
        "cubature" (deterministic adaptive cubature, n <= 20), "vegas"
        (m-Cubes Monte Carlo), "qmc" (randomly shifted lattice sequences).
        "auto" takes cubature up to 12 dimensions; above, QMC or Vegas as
        a small pilot QMC sample shows f smooth or rough; the result says
        which ran and why (``auto_reason``).
    backend : {"auto", "cpu", "cuda"}
        Where to run when no ``context`` is given: "auto" takes CUDA when
        a GPU is usable and f is source, else the CPU.
    epsrel : float
        Relative tolerance (default 1e-3).
    epsabs : float
        Absolute tolerance (default 0.0, as the C library's default: a run
        converges by the relative tolerance unless you ask for an absolute
        one). The run converges when the error is at most
        max(epsrel * abs(value), epsabs); both 0 raises OptionError.
    params : sequence of float, optional
        The parameter block: ``p[k]`` in source, the second argument of a
        Python callable, the ``params`` pointer of a compiled callback.
    ncomp : int, optional
        Components of a vector integrand (1..64); value and error are then
        arrays of length ncomp.
    gradient : bool or sequence of int
        True: also integrate the derivatives of f (C source) by every
        parameter, differentiated from the source itself (README,
        "Gradients"); a sequence: by the parameters of those indices.
        They are integrated with the value, on one partition or with the
        same points, each meeting the tolerance, and come back as the
        result's ``gradient`` and ``gradient_error``, arrays of shape (m,)
        ((ncomp, m) with ncomp). What cannot be differentiated (floor, a
        cast to int, ...) raises CompileError naming it.
    max_evaluations : int, optional
        Stop after about this many evaluations (then status "evaluation limit
        reached"); default: the backend's budget, 1e9
        evaluations on the CPU and 1e12 on the GPU.
    seed : int, optional
        Monte Carlo seed (default 1: runs are reproducible).
    rule : int, optional
        Cubature rule degree: 7, 9, 11 (n = 3) or 13 (n = 2); default the
        best for n.
    norm : {"individual", "paired", "l2", "l1", "max"}, optional
        How a vector integrand's component errors are judged (default
        "individual": every component meets the tolerance).
    progress : bool or callable, optional
        True shows a progress bar (tqdm where installed, else a line on
        stderr); a callable is called once per iteration with (iteration,
        active, value, error) and stops the run by returning True.
    context : Context, optional
        The context to run on (default: one per backend, made once).
    **options
        The other pagani_options fields: max_iterations, initial_splits,
        vegas_calls, vegas_adjust_iterations, vegas_bins, vegas_alpha,
        vegas_beta, chi2_max, qmc_shifts, qmc_initial_points,
        qmc_transform, mc_sigmas, domain_scale; ``domain_map``,
        ``domain_scales`` and ``domain_centers`` (above); ``breaks``, one
        sequence of coordinates per axis where f has a kink or jump
        (cubature: the first split's faces fall on them; Vegas and QMC
        ignore them); ``strategy``, cubature's refinement: "auto" (the
        default: "worst" on the CPU with one component, else "breadth"),
        "breadth" (every region not finished splits in every iteration)
        or "worst" (the regions of the largest errors split, the others
        wait; CPU only); and the flags as booleans:
        no_relerr_filter (for sign-changing f), vegas_plus, vegas_1d,
        no_probes; ``state``, a checkpoint file (a path: the run writes
        its state there every ``state_interval`` seconds, default 600,
        and when it ends unconverged, and resumes from it when it exists;
        QMC, Vegas (vegas_plus too) and cubature so far; a file of another
        integral raises StateError); ``vegas_grid``, a pagani.VegasGrid: a
        Vegas run starts from it once filled, and leaves its final grid
        there (a warm start for the next point of a scan).
        An unknown keyword raises TypeError.

    Returns
    -------
    Result
        value, error, status, converged, evaluations, regions, iterations,
        chi2_dof, method, backend, seconds (and gradient, gradient_error
        with ``gradient``).

    Raises
    ------
    CompileError
        The source did not compile (``.lines``: the lines the compiler
        names).
    OptionError, BoundsError
        A bad option or tolerance; a bad box.
    ParamsError
        The source reads a p[k] the parameter block does not have.
    NonFiniteError
        f returned NaN or infinity (the message names the point).
    KeyboardInterrupt
        Ctrl-C: the run is stopped within the work in flight; the context
        stays usable.

    Notes
    -----
    ``converged`` is True only when the reported error meets the
    tolerance; every other status still carries the best estimate and an
    honest error. What the error is depends on the method:

    - cubature: an estimate from the rules' null rules, refined by
      parent/child comparison and checked by probes next to region
      vertices (not a bound, but no false convergence was found in the
      library's 1,050-instance Genz sweep);
    - vegas and qmc: one standard deviation of a statistical estimate:
      the true error exceeds it in about a third of runs (mc_sigmas=2
      asks for two standard deviations to meet the tolerance).

    Examples
    --------
    >>> r = pagani.integrate("exp(-x[0]*x[0] - x[1]*x[1])", [0, 0], [1, 1])
    >>> r.value, r.converged
    (0.557746285351..., True)
    """
    lo, hi = _box(lower, upper)
    if lo.ndim != 1:
        raise BoundsError(_clib.ERR_BOUNDS, "lower and upper must be 1-D "
                          "(use integrate_batch for several boxes)")
    block = _params(params, 1)
    grad = layout(f, gradient, ncomp, block)
    ctx = _context(f, backend, context)
    opt = make_options(method, epsrel, epsabs, max_evaluations, seed, rule,
                       norm, lo.size, options)
    it = _make_integrand(f, ctx, lo.size, ncomp, block, grad)
    width = ncomp if grad is None else grad.total
    try:
        out = _clib.ResultStruct()
        if width is None:
            rc = _run(ctx, it, progress, opt, lambda: _clib.lib.pagani_integrate(
                ctx.handle, it.handle, _doubles(lo), _doubles(hi),
                ctypes.byref(opt), ctypes.byref(out)))
            values = errors = None
        else:
            values, errors = np.empty(width), np.empty(width)
            rc = _run(ctx, it, progress, opt,
                      lambda: _clib.lib.pagani_integrate_vector(
                          ctx.handle, it.handle, _doubles(lo), _doubles(hi),
                          ctypes.byref(opt), ctypes.byref(out),
                          _doubles(values), _doubles(errors)))
        if rc != _clib.OK:
            raise ctx.error(rc)
        note_vegas_grid(options, out.method)
        if grad is not None:
            return Result.from_struct(out, *grad.split(values, errors))
        return Result.from_struct(out, values, errors)
    finally:
        it.destroy()


def integrate_batch(f: Integrand_t, lower: ArrayLike, upper: ArrayLike,
                    params: ArrayLike, **kwargs: Any) -> BatchResult:
    """Integrate one integrand for K parameter blocks (and boxes) in one
    library call (pagani_integrate_batch).

    Parameters
    ----------
    f : str, callable or compiled callback
        As for `integrate`; it sees integral k's parameters.
    lower, upper : array_like
        One box (n,) for every integral, or one per integral, (K, n).
    params : array_like, shape (K, m)
        Integral k's parameter block is params[k].
    **kwargs
        The keyword arguments of `integrate` (method, backend, epsrel,
        epsabs, ncomp, ..., context and the options), and
        ``batch_warm_stride``, m >= 2: a Vegas batch whose neighbours are
        nearby integrals (a scan) runs its pilots, integrals 0, m, 2m,
        ..., cold first, then every other integral from its nearest
        pilot's final grid with one adjusting iteration (16, the library's
        PAGANI_BATCH_WARM_STRIDE, is the measured choice; 0, the default:
        every integral cold).

    Returns
    -------
    BatchResult
        Arrays value, error, status, converged, evaluations of length K
        ((K, ncomp) for value and error with ncomp; with ``gradient``,
        gradient and gradient_error of shape (K, m) or (K, ncomp, m),
        every integral's gradient from the one call); ``res[k]`` is integral
        k's Result, equal to what `integrate` returns for it (seconds is
        the batch's time).

    Raises
    ------
    NonFiniteError
        f returned NaN or infinity in some integral; the others ran to
        their end and the exception's ``result`` holds every result.
    The other exceptions of `integrate`.
    """
    blocks = _params(params, 2)
    count, width = blocks.shape
    lo, hi = _box(lower, upper)
    stride = 0 if lo.ndim == 1 else lo.shape[1]
    if lo.ndim == 2 and lo.shape[0] != count:
        raise BoundsError(_clib.ERR_BOUNDS, "%d boxes for %d parameter "
                          "blocks" % (lo.shape[0], count))
    n = lo.shape[-1]
    ncomp = kwargs.pop("ncomp", None)
    grad = layout(f, kwargs.pop("gradient", False), ncomp, blocks)
    progress = kwargs.pop("progress", None)
    ctx = _context(f, kwargs.pop("backend", "auto"),
                   kwargs.pop("context", None))
    opt = make_options(kwargs.pop("method", "auto"),
                       kwargs.pop("epsrel", 1e-3), kwargs.pop("epsabs", 0.0),
                       kwargs.pop("max_evaluations", None),
                       kwargs.pop("seed", None), kwargs.pop("rule", None),
                       kwargs.pop("norm", None), n, kwargs)
    it = _make_integrand(f, ctx, n, ncomp, blocks[0] if width else None,
                         grad)
    ncomp = ncomp if grad is None else grad.total
    try:
        out = (_clib.ResultStruct * count)()
        head = (ctx.handle, it.handle, count,
                blocks.ctypes.data_as(ctypes.c_void_p), width * 8,
                _doubles(lo), _doubles(hi), stride, ctypes.byref(opt), out)
        if ncomp is None:
            rc = _run(ctx, it, progress, opt,
                      lambda: _clib.lib.pagani_integrate_batch(*head))
            values = errors = [None] * count
        else:
            values, errors = np.empty((count, ncomp)), np.empty((count, ncomp))
            rc = _run(ctx, it, progress, opt,
                      lambda: _clib.lib.pagani_integrate_batch_vector(
                          *head, _doubles(values), _doubles(errors)))
        if rc not in (_clib.OK, _clib.ERR_NONFINITE):
            raise ctx.error(rc)
        if rc == _clib.OK:
            note_vegas_grid(kwargs, out[0].method)
        result = BatchResult([
            Result.from_struct(out[k], values[k], errors[k]) if grad is None
            else Result.from_struct(out[k], *grad.split(values[k], errors[k]))
            for k in range(count)])
        if rc == _clib.ERR_NONFINITE:
            error = ctx.error(rc)
            assert isinstance(error, NonFiniteError)
            error.result = result
            raise error
        return result
    finally:
        it.destroy()
