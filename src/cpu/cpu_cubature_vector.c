/*
 * cpu_cubature_vector.c - what the OpenMP backend's cubature keeps for a
 * vector integrand (backend.h, "Vector integrands"): every region's
 * components' values and errors, their parents' values, the integrals'
 * group weights, and the component sums of classify and filter_split, each
 * formed tile by tile and merged in tile order like the scalar sums.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cpu/cpu_cubature.h"
#include "rules/component_norm.h"

void cpu_vector_free(cpu_cubature *c)
{
    free(c->comp_value);
    free(c->comp_error);
    free(c->comp_parent);
    free(c->weights);
    free(c->reference);
    free(c->tile_components);
    c->comp_value = c->comp_error = c->comp_parent = NULL;
    c->weights = NULL;
    c->reference = NULL;
    c->tile_components = NULL;
    c->allocated_components = 0;
}

size_t cpu_vector_bytes_per_region(int ncomp)
{
    /* V_c, E_c, and a parent V_c per pair */
    return ncomp > 1 ? (size_t)ncomp * (2 * sizeof(double) + sizeof(double) / 2)
                     : 0;
}

int cpu_vector_setup(cpu_state *s, const cubature_job *job)
{
    cpu_cubature *c = s->cubature;
    const size_t cap = (size_t)job->capacity, C = (size_t)job->ncomp;
    size_t most_tiles = cap / CPU_TILE + (size_t)job->integrals + 1;

    c->ncomp = job->ncomp;
    free(c->weights);
    free(c->reference);
    free(c->tile_components);
    c->weights = NULL;
    c->reference = NULL;
    c->tile_components = NULL;
    if (job->ncomp == 1) return PAGANI_OK;
    c->norm = job->norm;
    c->group_size = pagani_group_size(job->norm, job->ncomp);
    c->groups = job->ncomp / c->group_size;
    if (c->allocated_components < C * cap) {
        free(c->comp_value);
        free(c->comp_error);
        free(c->comp_parent);
        c->comp_value = malloc(C * cap * sizeof(double));
        c->comp_error = malloc(C * cap * sizeof(double));
        c->comp_parent = malloc(C * (cap / 2 + 1) * sizeof(double));
        c->allocated_components = C * cap;
    }
    c->weights = malloc((size_t)job->integrals * c->groups * sizeof(double));
    c->reference = calloc((size_t)job->integrals, sizeof(int));
    c->tile_components = malloc(most_tiles * 2 * C * sizeof(double));
    if (!c->comp_value || !c->comp_error || !c->comp_parent || !c->weights ||
        !c->reference || !c->tile_components) {
        cpu_vector_free(c);
        return pagani_fail(s->ctx, PAGANI_ERR_NO_MEMORY, "the components of "
                           "%lld regions (%d each)", job->capacity, job->ncomp);
    }
    for (size_t g = 0; g < (size_t)job->integrals * c->groups; g++)
        c->weights[g] = 1.0;
    return PAGANI_OK;
}

int cpu_vector_set_weights(void *state, const double *weights,
                           const int *reference)
{
    cpu_cubature *c = ((cpu_state *)state)->cubature;
    memcpy(c->weights, weights, (size_t)c->integrals * c->groups * sizeof *weights);
    memcpy(c->reference, reference, (size_t)c->integrals * sizeof *reference);
    return PAGANI_OK;
}

/* Region i's pair (V, E) from its components, with its integral's
 * weights. */
static void make_pair(cpu_cubature *c, long long i, int k)
{
    pagani_region_pair(c->norm, c->ncomp, c->weights + (size_t)k * c->groups,
                       c->reference[k], c->comp_value + i, c->comp_error + i,
                       c->capacity, &c->value[i], &c->error[i]);
}

void cpu_store_region(cpu_cubature *c, long long i, const double *value,
                      const double *error)
{
    const size_t cap = (size_t)c->capacity;
    if (c->ncomp == 1) {
        c->value[i] = value[0];
        c->error[i] = error[0];
        return;
    }
    for (int k = 0; k < c->ncomp; k++) {
        c->comp_value[k * cap + i] = value[k];
        c->comp_error[k * cap + i] = error[k];
    }
    make_pair(c, i, c->owner[c->cur][i]);
}

void cpu_vector_two_level(cpu_cubature *c, long long start, long long end,
                          int k)
{
    const size_t cap = (size_t)c->capacity, half = cap / 2 + 1;
    for (int comp = 0; comp < c->ncomp; comp++) {
        const double *v = c->comp_value + comp * cap;
        double *e = c->comp_error + comp * cap;
        const double *parent = c->comp_parent + comp * half;
        for (long long j = start / 2; j < end / 2; j++)
            cpu_two_level(v + 2 * j, e + 2 * j, parent[j], NULL);
    }
    for (long long i = start; i < end; i++) make_pair(c, i, k);
}

/* Whether filter_split keeps region i at threshold t. */
static int kept(const cpu_cubature *c, long long i, double t)
{
    return c->active[i] && c->error[i] > t;
}

void cpu_vector_tile_sums(cpu_cubature *c, long long t, const double *threshold)
{
    const size_t cap = (size_t)c->capacity, C = (size_t)c->ncomp;
    const int k = c->tile_owner[t];
    double *out = c->tile_components + 2 * C * t;

    for (size_t comp = 0; comp < C; comp++) {
        const double *v = c->comp_value + comp * cap;
        const double *e = c->comp_error + comp * cap;
        double sv = 0.0, se = 0.0;
        for (long long i = c->tile_start[t]; i < cpu_tile_end(c, t, k); i++) {
            if (threshold && kept(c, i, *threshold)) continue;
            sv += v[i];
            se += e[i];
        }
        out[2 * comp] = sv;
        out[2 * comp + 1] = se;
    }
}

void cpu_vector_merge(const cpu_cubature *c, int k, double *out)
{
    const size_t C2 = 2 * (size_t)c->ncomp;
    for (size_t j = 0; j < C2; j++) out[j] = 0.0;
    for (long long t = c->first_tile[k]; t < c->first_tile[k + 1]; t++)
        for (size_t j = 0; j < C2; j++) out[j] += c->tile_components[C2 * t + j];
}

void cpu_vector_parent(cpu_cubature *c, long long i, long long j)
{
    const size_t cap = (size_t)c->capacity, half = cap / 2 + 1;
    for (int comp = 0; comp < c->ncomp; comp++)
        c->comp_parent[comp * half + j] = c->comp_value[comp * cap + i];
}
