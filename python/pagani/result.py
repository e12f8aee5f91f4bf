"""Result and BatchResult: what integrate() and integrate_batch() return."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, List, Optional, Union

import numpy as np

from . import _clib

Value = Union[float, np.ndarray]


@dataclass(frozen=True)
class Result:
    """The outcome of one integration.

    Attributes
    ----------
    value, error : float or numpy.ndarray
        The estimate and its estimated absolute error (arrays of length
        ncomp for a vector integrand).
    status : str
        The library's status name: "converged", or why the run ended
        before the tolerance was met (the estimate is still the best one).
    converged : bool
        Whether the requested tolerance was met (status "converged").
    evaluations, regions, iterations : int
        Integrand evaluations, cubature regions evaluated (Vegas: sub-cubes
        per iteration) and iterations.
    chi2_dof : float
        Monte Carlo: chi-squared per degree of freedom of the iterations
        (0 for cubature).
    method, backend : str
        What ran ("cubature", "vegas", "qmc"; "cpu", "cuda").
    seconds : float
        Wall time of the library call (a batch's whole time).
    by_epsabs : bool
        Converged by the absolute tolerance epsabs, not by epsrel.
    auto_reason : str
        Why method="auto" chose what ran ("low dimension": cubature;
        "smooth": QMC; "rough" or "no signal": Vegas, from a pilot QMC
        sample), "not used" when the method was named.
    gradient, gradient_error : numpy.ndarray or None
        With integrate(..., gradient=...): the derivatives of the value by
        the parameters and their errors, shape (m,) ((ncomp, m) for a
        vector integrand); else None.
    """

    value: Value
    error: Value
    status: str
    converged: bool
    evaluations: int
    regions: int
    iterations: int
    chi2_dof: float
    method: str
    backend: str
    seconds: float
    by_epsabs: bool = False
    auto_reason: str = "not used"
    gradient: Optional[np.ndarray] = None
    gradient_error: Optional[np.ndarray] = None

    @classmethod
    def from_struct(cls, r: _clib.ResultStruct,
                    values: Optional[Value] = None,
                    errors: Optional[Value] = None,
                    gradient: Optional[np.ndarray] = None,
                    gradient_error: Optional[np.ndarray] = None) -> "Result":
        return cls(
            gradient=gradient, gradient_error=gradient_error,
            value=r.value if values is None else values,
            error=r.error if errors is None else errors,
            status=_clib.text(_clib.lib.pagani_status_name(r.status)),
            converged=r.status == _clib.CONVERGED,
            evaluations=r.evaluations, regions=r.regions,
            iterations=r.iterations, chi2_dof=r.chi2_dof,
            method=_clib.text(_clib.lib.pagani_method_name(r.method)),
            backend=_clib.text(_clib.lib.pagani_backend_name(r.backend)),
            seconds=r.seconds, by_epsabs=bool(r.by_epsabs),
            auto_reason=_clib.text(_clib.lib.pagani_auto_reason_name(r.auto_reason)))

    def __repr__(self) -> str:
        return ("Result(value=%s, error=%s, status=%r, method=%r, "
                "backend=%r, evaluations=%d, iterations=%d, seconds=%.3g)"
                % (_show(self.value), _show(self.error, ".3g"), self.status,
                   self.method, self.backend, self.evaluations,
                   self.iterations, self.seconds))


def _show(value: Value, spec: str = ".15g") -> str:
    if isinstance(value, np.ndarray):
        return "[" + ", ".join(format(v, spec) for v in value) + "]"
    return format(value, spec)


class BatchResult:
    """The K results of integrate_batch, as arrays of length K (value and
    error (K, ncomp) for a vector integrand); ``res[k]`` is the Result of
    integral k.

    Attributes
    ----------
    value, error : numpy.ndarray
    status : numpy.ndarray of str
    converged : numpy.ndarray of bool
    evaluations : numpy.ndarray of int64
    gradient, gradient_error : numpy.ndarray or None
        With ``gradient``: (K, m) or (K, ncomp, m); else None.
    """

    def __init__(self, results: List[Result]) -> None:
        self._results = results
        self.value = np.array([r.value for r in results], dtype=float)
        self.error = np.array([r.error for r in results], dtype=float)
        self.status = np.array([r.status for r in results], dtype=str)
        self.converged = np.array([r.converged for r in results], dtype=bool)
        self.evaluations = np.array([r.evaluations for r in results],
                                    dtype=np.int64)
        graded = bool(results) and results[0].gradient is not None
        self.gradient = np.array([r.gradient for r in results]) \
            if graded else None
        self.gradient_error = np.array([r.gradient_error for r in results]) \
            if graded else None

    def __len__(self) -> int:
        return len(self._results)

    def __getitem__(self, k: int) -> Result:
        return self._results[k]

    def __iter__(self) -> Iterator[Result]:
        return iter(self._results)

    def __repr__(self) -> str:
        return ("BatchResult(%d integrals, %d converged, evaluations=%d, "
                "seconds=%.3g)" % (len(self), int(self.converged.sum()),
                                   int(self.evaluations.sum()),
                                   self._results[0].seconds
                                   if self._results else 0.0))
