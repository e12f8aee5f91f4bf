/*
 * names.c - the names of codes, statuses, methods and backends, and the
 * version: plain tables that every layer may use (the drivers name the
 * backend in their messages), so they sit below api.c.
 */
#include "internal.h"

const char *pagani_strerror(int code)
{
    switch (code) {
    case PAGANI_OK: return "success";
    case PAGANI_ERR_NULL_POINTER: return "a required pointer argument is NULL";
    case PAGANI_ERR_DIMENSION: return "dimension out of range";
    case PAGANI_ERR_BOUNDS: return "invalid integration bounds";
    case PAGANI_ERR_TOLERANCE: return "invalid tolerance";
    case PAGANI_ERR_OPTION: return "invalid option";
    case PAGANI_ERR_NO_FORM: return "the integrand has no form this backend can run";
    case PAGANI_ERR_COMPILE: return "integrand source did not compile";
    case PAGANI_ERR_NONFINITE: return "the integrand returned NaN or infinity";
    case PAGANI_ERR_NO_MEMORY: return "out of memory";
    case PAGANI_ERR_BACKEND_UNAVAILABLE: return "backend unavailable";
    case PAGANI_ERR_CUDA: return "CUDA error";
    case PAGANI_ERR_CONTEXT_MISMATCH: return "integrand belongs to another context";
    case PAGANI_ERR_SYSTEM: return "system error";
    case PAGANI_ERR_PARAMS: return "the parameter block does not fit the source";
    case PAGANI_ERR_COMPONENTS: return "the components do not fit (ncomp, entry or norm)";
    case PAGANI_ERR_STOPPED: return "stopped on request before the call could finish";
    case PAGANI_ERR_ABORTED: return "the integrand's block function returned non-zero";
    case PAGANI_ERR_STATE: return "the checkpoint file does not fit this integration";
    default: return "unknown error code";
    }
}

const char *pagani_status_name(pagani_status status)
{
    switch (status) {
    case PAGANI_CONVERGED: return "converged";
    case PAGANI_MAX_ITERATIONS: return "iteration limit reached";
    case PAGANI_MAX_EVALUATIONS: return "evaluation limit reached";
    case PAGANI_OUT_OF_CAPACITY: return "memory budget exhausted";
    case PAGANI_NO_PROGRESS: return "no further progress possible";
    case PAGANI_CHI2_TOO_LARGE: return "iterations inconsistent (chi2/dof too large)";
    case PAGANI_NO_SIGNAL: return "no signal: all samples zero or without variance";
    case PAGANI_STOPPED: return "stopped (progress callback or stop request)";
    case PAGANI_HEAVY_TAIL: return "heavy tail: f J unbounded, the error is the tail's bound";
    default: return "unknown status";
    }
}

const char *pagani_method_name(pagani_method method)
{
    switch (method) {
    case PAGANI_AUTO: return "auto";
    case PAGANI_CUBATURE: return "cubature";
    case PAGANI_VEGAS: return "vegas";
    case PAGANI_QMC: return "qmc";
    default: return "unknown";
    }
}

const char *pagani_auto_reason_name(int reason)
{
    switch (reason) {
    case PAGANI_AUTO_NOT_USED: return "not used";
    case PAGANI_AUTO_LOW_DIMENSION: return "low dimension";
    case PAGANI_AUTO_SMOOTH: return "smooth";
    case PAGANI_AUTO_ROUGH: return "rough";
    case PAGANI_AUTO_NO_SIGNAL: return "no signal";
    default: return "unknown";
    }
}

const char *pagani_backend_name(pagani_backend backend)
{
    switch (backend) {
    case PAGANI_BACKEND_AUTO: return "auto";
    case PAGANI_BACKEND_CPU: return "cpu";
    case PAGANI_BACKEND_CUDA: return "cuda";
    default: return "unknown";
    }
}

const char *pagani_version(void) { return PACKAGE_VERSION; }
