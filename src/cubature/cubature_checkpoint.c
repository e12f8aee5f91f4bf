/*
 * cubature_checkpoint.c - a cubature run's checkpoint (cubature_run.h).
 * The payload:
 *   head: the iteration to run next, K, n, ncomp, groups, the capacity,
 *         whether the list holds split regions' children, its regions,
 *         the integral whose f was not finite (-1);
 *   the regions of each integral in the list (the runs' counts; on an
 *         MPI context this rank's part of them: the context layer's
 *         cubature_counts);
 *   every integral's run (its result pointer left out) and result;
 *   with ncomp > 1 the components' values and errors, the finished
 *         regions' sums, the group weights and reference groups;
 *   the list, in chunks of CHUNK regions (backend.h, export_regions):
 *         corners, widths, and with parents their values.
 * Bytes per region: 16 n + 4 pagani_parent_rows(ncomp) with parents.
 */
#include <stdlib.h>
#include <string.h>
#include "cubature/cubature_run.h"

/* Regions copied between the backend and the payload at once. */
#define CHUNK ((long long)1 << 20)

enum { H_IT, H_K, H_N, H_NCOMP, H_GROUPS, H_CAPACITY, H_PARENTS, H_REGIONS,
       H_NONFINITE, HEAD };

/* The driver's state at the start of an iteration. */
typedef struct cubature_mark {
    long long head[HEAD];     /* the head of the file being resumed */
    int it;
    int nonfinite;
    run *runs;                /* result pointers NULL */
    pagani_result *results;
    double *values, *errors;  /* ncomp > 1: K x C */
    double *finished;         /* K x 2C */
    double *weights;          /* K x groups */
    int *reference;           /* K */
} cubature_mark;

/* The sizes of the mark's vector arrays (0 for a scalar integrand). */
static size_t components_of(const batch_run *b)
{
    return b->ncomp > 1 ? (size_t)b->integrals * (size_t)b->ncomp : 0;
}

static size_t groups_of(const batch_run *b)
{
    return b->ncomp > 1 ? (size_t)b->integrals * (size_t)b->groups : 0;
}

static size_t references_of(const batch_run *b)
{
    return b->ncomp > 1 ? (size_t)b->integrals : 0;
}

/* Each array of the driver's state, as (mark's, batch's, bytes): the
 * order of the payload. */
typedef struct part {
    void *marked, *live;
    size_t bytes;
} part;

#define PARTS 5
static void parts_of(batch_run *b, part *p)
{
    const size_t C = components_of(b);
    cubature_mark *m = b->mark;
    p[0] = (part){m->values, b->values, C * sizeof(double)};
    p[1] = (part){m->errors, b->errors, C * sizeof(double)};
    p[2] = (part){m->finished, b->finished_components, 2 * C * sizeof(double)};
    p[3] = (part){m->weights, b->weights, groups_of(b) * sizeof(double)};
    p[4] = (part){m->reference, b->reference, references_of(b) * sizeof(int)};
}

static int mark_make(batch_run *b)
{
    const size_t K = (size_t)b->integrals, C = components_of(b);
    cubature_mark *m = calloc(1, sizeof *m);

    b->mark = m;
    if (!m) return pagani_fail(b->ctx, PAGANI_ERR_NO_MEMORY, "checkpoint state");
    m->runs = malloc(K * sizeof *m->runs);
    m->results = malloc(K * sizeof *m->results);
    m->values = malloc(C * sizeof(double) + 1);
    m->errors = malloc(C * sizeof(double) + 1);
    m->finished = malloc(2 * C * sizeof(double) + 1);
    m->weights = malloc(groups_of(b) * sizeof(double) + 1);
    m->reference = malloc(references_of(b) * sizeof(int) + 1);
    if (!m->runs || !m->results || !m->values || !m->errors || !m->finished ||
        !m->weights || !m->reference)
        return pagani_fail(b->ctx, PAGANI_ERR_NO_MEMORY, "checkpoint state");
    return PAGANI_OK;
}

void cubature_checkpoint_free(batch_run *b)
{
    cubature_mark *m = b->mark;
    if (b->resume) pagani_state_close(b->ctx, b->resume, PAGANI_ERR_STATE);
    b->resume = NULL;
    pagani_checkpoint_close(&b->checkpoint);
    if (!m) return;
    free(m->runs);
    free(m->results);
    free(m->values);
    free(m->errors);
    free(m->finished);
    free(m->weights);
    free(m->reference);
    free(m);
    b->mark = NULL;
}

/* Makes the mark and reads the head of the file being resumed, if any
 * (this rank's code, before the ranks agree on it). */
static int take_head(batch_run *b)
{
    long long *head;
    int rc = mark_make(b);

    if (rc != PAGANI_OK || !b->resume) return rc;
    head = b->mark->head;
    if (!pagani_state_next(b->resume, head, HEAD * sizeof *head) ||
        head[H_K] != b->integrals || head[H_N] != b->n ||
        head[H_NCOMP] != b->ncomp || head[H_GROUPS] != b->groups ||
        head[H_IT] < 0 || head[H_REGIONS] < 0 ||
        head[H_REGIONS] > head[H_CAPACITY] || head[H_NONFINITE] < -1 ||
        head[H_NONFINITE] >= b->integrals)
        return pagani_fail(b->ctx, PAGANI_ERR_STATE, "checkpoint %s is no "
                           "state of this cubature run (its integrals, "
                           "dimension, components or sizes do not fit)",
                           b->checkpoint.path);
    if (head[H_CAPACITY] > b->capacity)
        return pagani_fail(b->ctx, PAGANI_ERR_STATE, "checkpoint %s holds a "
                           "list of capacity %lld regions; the memory budget "
                           "holds %lld: raise it to resume",
                           b->checkpoint.path, head[H_CAPACITY], b->capacity);
    b->capacity = head[H_CAPACITY]; /* the shares the run had */
    return PAGANI_OK;
}

int cubature_checkpoint_open(batch_run *b, const pagani_integrand *f,
                             const pagani_batch *batch)
{
    int rc;

    pagani_checkpoint_open(&b->checkpoint, b->ctx, f, batch, b->opt);
    if (!b->checkpoint.path) return PAGANI_OK;
    rc = pagani_checkpoint_open_read(b->ctx, &b->checkpoint, &b->resume);
    if (rc != PAGANI_OK) return rc; /* agreed */
    rc = take_head(b);
    if (!b->resume) /* no file on any rank (agreed) */
        return pagani_checkpoint_agree(&b->checkpoint, rc);
    return pagani_checkpoint_agree_resume(&b->checkpoint, rc,
                                          b->mark ? b->mark->head[H_IT] : -1);
}

void cubature_checkpoint_mark(batch_run *b, int it)
{
    cubature_mark *m = b->mark;
    part p[PARTS];

    if (!m) return;
    m->it = it;
    m->nonfinite = b->nonfinite;
    for (int k = 0; k < b->integrals; k++) {
        m->runs[k] = b->runs[k];
        m->runs[k].result = NULL;
        m->results[k] = *b->runs[k].result;
    }
    parts_of(b, p);
    for (int i = 0; i < PARTS; i++)
        if (p[i].bytes) memcpy(p[i].marked, p[i].live, p[i].bytes);
}

/* The regions of each integral in the backend's list into b->counts
 * (the context layer's part of the runs' counts, or the counts), and
 * their total. */
static long long list_counts(batch_run *b)
{
    const pagani_layer *layer = &b->ctx->layer;
    long long total = 0;

    if (layer->cubature_counts)
        layer->cubature_counts(b->ctx, b->counts);
    else
        for (int k = 0; k < b->integrals; k++)
            b->counts[k] = b->mark->runs[k].count;
    for (int k = 0; k < b->integrals; k++) total += b->counts[k];
    return total;
}

/* Payload bytes of `count` regions: boxes, and parents with them. */
static size_t list_bytes(const batch_run *b, long long count, int parents)
{
    const size_t rows = parents ? (size_t)pagani_parent_rows(b->ncomp) : 0;
    return (2 * (size_t)b->n * (size_t)count + rows * (size_t)(count / 2)) *
           sizeof(double);
}

/* A host buffer for a chunk of the list of `total` regions (*chunk of
 * them). */
static double *chunk_buffer(batch_run *b, long long total, long long *chunk)
{
    double *buf;
    *chunk = total < CHUNK ? total : CHUNK;
    buf = malloc(list_bytes(b, *chunk, 1) + 1);
    if (!buf) pagani_fail(b->ctx, PAGANI_ERR_NO_MEMORY, "checkpoint: a chunk "
                          "of %lld regions", *chunk);
    return buf;
}

/* Appends the backend's list to the file, chunk by chunk. */
static int put_list(batch_run *b, pagani_state_writer *w, long long total,
                    int parents)
{
    long long m;
    double *buf = chunk_buffer(b, total, &m);
    int rc = PAGANI_OK;

    if (!buf) return PAGANI_ERR_NO_MEMORY;
    for (long long first = 0; rc == PAGANI_OK && first < total; first += m) {
        const long long count = total - first < m ? total - first : m;
        const size_t nd = (size_t)b->n * (size_t)count;
        rc = b->ops->export_regions(b->ctx->backend_state, first, count, buf,
                                    buf + nd, parents ? buf + 2 * nd : NULL);
        if (rc == PAGANI_OK) pagani_state_append(w, buf, list_bytes(b, count, parents));
    }
    free(buf);
    return rc;
}

/* Writes the marked state and the list as the backend holds it, streamed:
 * a chunk of the list in memory at a time. */
static int write_marked(batch_run *b)
{
    const cubature_mark *m = b->mark;
    const size_t K = (size_t)b->integrals;
    const long long total = list_counts(b);
    const int parents = m->it > 0;
    const long long head[HEAD] = {m->it, b->integrals, b->n, b->ncomp,
                                  b->groups, b->capacity, parents, total,
                                  m->nonfinite};
    size_t bytes = sizeof head +
                   K * (sizeof *b->counts + sizeof *m->runs +
                        sizeof *m->results) +
                   list_bytes(b, total, parents);
    pagani_state_writer *w;
    part p[PARTS];
    int rc;

    parts_of(b, p);
    for (int i = 0; i < PARTS; i++) bytes += p[i].bytes;
    rc = pagani_checkpoint_begin(b->ctx, &b->checkpoint, bytes, &w);
    if (w) {
        pagani_state_append(w, head, sizeof head);
        pagani_state_append(w, b->counts, K * sizeof *b->counts);
        pagani_state_append(w, m->runs, K * sizeof *m->runs);
        pagani_state_append(w, m->results, K * sizeof *m->results);
        for (int i = 0; i < PARTS; i++)
            pagani_state_append(w, p[i].marked, p[i].bytes);
        rc = put_list(b, w, total, parents);
    }
    return pagani_checkpoint_finish(b->ctx, &b->checkpoint, w, rc);
}

int cubature_checkpoint_stopped(batch_run *b)
{
    const cubature_mark *m = b->mark;

    if (!m || b->held) return PAGANI_OK;
    for (int k = 0; k < b->integrals; k++) {
        pagani_status status = b->runs[k].result->status;
        if (m->runs[k].running && !b->runs[k].running &&
            (status == PAGANI_STOPPED || status == PAGANI_MAX_EVALUATIONS)) {
            b->held = 1;
            return write_marked(b);
        }
    }
    return PAGANI_OK;
}

int cubature_checkpoint_due(batch_run *b, int it)
{
    if (!b->mark || b->held || !pagani_checkpoint_due(&b->checkpoint))
        return PAGANI_OK;
    cubature_checkpoint_mark(b, it);
    return write_marked(b);
}

int cubature_checkpoint_end(batch_run *b, int it)
{
    int running = 0;
    for (int k = 0; k < b->integrals; k++) running |= b->runs[k].running;
    if (!b->mark || b->held || !running) return PAGANI_OK;
    cubature_checkpoint_mark(b, it);
    return write_marked(b);
}

/* Takes the list of b->counts' regions from the file into the backend,
 * chunk by chunk. */
static int take_list(batch_run *b, long long total, int parents)
{
    long long m, *counts = b->counts;
    double *buf = chunk_buffer(b, total, &m);
    int rc = PAGANI_OK;

    if (!buf) return PAGANI_ERR_NO_MEMORY;
    for (long long first = 0; rc == PAGANI_OK && first < total; first += m) {
        const long long count = total - first < m ? total - first : m;
        const size_t nd = (size_t)b->n * (size_t)count;
        if (!pagani_state_next(b->resume, buf, list_bytes(b, count, parents))) {
            rc = pagani_fail(b->ctx, PAGANI_ERR_STATE, "checkpoint %s is "
                             "truncated in its region list",
                             b->checkpoint.path);
            break;
        }
        rc = b->ops->import_regions(b->ctx->backend_state, counts, first, count,
                                    buf, buf + nd, parents ? buf + 2 * nd : NULL);
    }
    if (rc == PAGANI_OK && total == 0) /* an empty list: its counts */
        rc = b->ops->import_regions(b->ctx->backend_state, counts, 0, 0, buf,
                                    buf, NULL);
    free(buf);
    return rc;
}

/* Whether the list's counts (b->counts) fit the list of `total` regions
 * (even ones with parents: pairs of siblings) and, on one process, are
 * the runs' counts (on MPI a rank holds a part of them). */
static int counts_fit(const batch_run *b, long long total, int parents)
{
    const int whole = !b->ctx->layer.cubature_counts;
    long long sum = 0;
    for (int k = 0; k < b->integrals; k++) {
        long long c = b->counts[k];
        if (c < 0 || (parents && c % 2) || c > total - sum ||
            (whole && c != b->runs[k].count))
            return 0;
        sum += c;
    }
    return sum == total;
}

/* cubature_checkpoint_resume of a file, before the ranks agree on its
 * code. */
static int resume_file(batch_run *b, int *it)
{
    pagani_state_reader *in = b->resume;
    const long long *head = b->mark->head;
    part p[PARTS];
    int ok, rc = PAGANI_OK;

    ok = pagani_state_next(in, b->counts,
                           (size_t)b->integrals * sizeof *b->counts) &&
         pagani_state_next(in, b->mark->runs, (size_t)b->integrals * sizeof(run)) &&
         pagani_state_next(in, b->mark->results,
                           (size_t)b->integrals * sizeof(pagani_result));
    parts_of(b, p);
    for (int i = 0; ok && i < PARTS; i++) {
        ok = pagani_state_next(in, p[i].marked, p[i].bytes);
        if (ok && p[i].bytes) memcpy(p[i].live, p[i].marked, p[i].bytes);
    }
    for (int k = 0; ok && k < b->integrals; k++) {
        pagani_result *res = b->runs[k].result;
        b->runs[k] = b->mark->runs[k];
        b->runs[k].result = res;
        *res = b->mark->results[k];
    }
    ok = ok && counts_fit(b, head[H_REGIONS], (int)head[H_PARENTS]);
    if (ok) rc = take_list(b, head[H_REGIONS], (int)head[H_PARENTS]);
    if (rc == PAGANI_OK && !ok)
        rc = pagani_fail(b->ctx, PAGANI_ERR_STATE, "checkpoint %s is no state "
                         "of this cubature run (its regions or sizes do not "
                         "fit the batch)", b->checkpoint.path);
    b->resume = NULL;
    rc = pagani_state_close(b->ctx, in, rc); /* the checksum, at last */
    if (rc != PAGANI_OK) return rc;
    b->nonfinite = (int)head[H_NONFINITE];
    *it = (int)head[H_IT];
    return PAGANI_OK;
}

int cubature_checkpoint_resume(batch_run *b, int *it)
{
    int rc;

    *it = -1;
    if (!b->resume) return PAGANI_OK;
    rc = pagani_checkpoint_agree(&b->checkpoint, resume_file(b, it));
    if (rc != PAGANI_OK) {
        *it = -1;
        for (int k = 0; k < b->integrals; k++)
            memset(b->runs[k].result, 0, sizeof(pagani_result));
    }
    return rc;
}
