/*
 * cpu_cubature_hold.c - the OpenMP backend's hold_split (backend.h), the
 * split of worst-first refinement: the kept regions of the largest errors
 * split, the other kept regions wait in the list with their results.
 *
 * Three passes over the tiles: count what each tile splits and holds;
 * write the children and the held regions' boxes into the other buffer
 * and the held regions' results into the stash (the results live in one
 * buffer, read at the old places by this pass); then the stash into the
 * new places. The held regions of an integral follow its children, and
 * an integral holds an even number of them, so that every stretch starts
 * at an even place and the children's pairs stay aligned for the
 * two-level error.
 *
 * Before it, kept_errors copies an integral's kept errors for the
 * driver's choice of the held (src/cubature/worst_select.h).
 */
#include <math.h>
#include <stdlib.h>
#include "cpu/cpu_cubature.h"

/* A held region's results in flight. */
struct cpu_held {
    double value, error, check_diff, check_var;
    int axis;
    unsigned char sign;
};

void cpu_hold_free(cpu_cubature *c)
{
    free(c->stash);
    c->stash = NULL;
    c->stash_size = 0;
}

/* Grows the stash to hold `count` regions (doubling: rarely); 0 when
 * memory is out. */
static int stash_reserve(cpu_cubature *c, size_t count)
{
    struct cpu_held *more;
    if (count <= c->stash_size) return 1;
    if (count < 2 * c->stash_size) count = 2 * c->stash_size;
    more = realloc(c->stash, count * sizeof *more);
    if (!more) return 0;
    c->stash = more;
    c->stash_size = count;
    return 1;
}

enum fate { DROP, SPLIT, HOLD };

/* The split's limits of one integral (hold_split's arguments). */
typedef struct hold_limits {
    double threshold, split_above, largest;
} hold_limits;

static hold_limits limits_of(int k, const double *thresholds,
                             const double *split_above, const double *hold_largest)
{
    return (hold_limits){thresholds[k], split_above[k], hold_largest[k]};
}

/* What the split does with region i within its integral's limits;
 * `odd`: a region split in any case (the last of an odd number held), or
 * -1. */
static enum fate fate_of(const cpu_cubature *c, long long i, hold_limits l,
                         long long odd)
{
    if (!c->active[i] || !(c->error[i] > l.threshold)) return DROP;
    if (c->error[i] > l.split_above || i == odd || (c->job_probes && !c->probed[i]) ||
        (l.largest > 0 && fabs(c->value[i]) > l.largest))
        return SPLIT;
    return HOLD;
}

/* Makes integral k hold an even number of regions: when it holds an odd
 * number, its last held region splits instead (moved between its tile's
 * counts). Returns that region, or -1. */
static long long even_out(cpu_cubature *c, int k, long long held, hold_limits l)
{
    if (held % 2 == 0) return -1;
    for (long long t = c->first_tile[k + 1] - 1; t >= c->first_tile[k]; t--)
        for (long long i = cpu_tile_end(c, t, k) - 1; i >= c->tile_start[t]; i--)
            if (fate_of(c, i, l, -1) == HOLD) {
                c->tile_held[t]--;
                c->tile_kept[t]++;
                return i;
            }
    return -1; /* not reached: it holds one */
}

/* Region i's box and owner to place p of the other buffer, its results
 * to the stash's entry g. */
static void hold_region(cpu_cubature *c, long long i, long long p, long long g)
{
    const int nxt = 1 - c->cur;
    const size_t cap = (size_t)c->capacity;
    for (int d = 0; d < c->n; d++) {
        c->lower[nxt][d * cap + p] = c->lower[c->cur][d * cap + i];
        c->width[nxt][d * cap + p] = c->width[c->cur][d * cap + i];
    }
    c->owner[nxt][p] = c->owner[c->cur][i];
    c->stash[g] = (struct cpu_held){c->value[i], c->error[i], c->check_diff[i],
                                    c->check_var[i], c->axis[i], c->error_sign[i]};
}

/* The stash's entry g into place p of the results. */
static void place_held(cpu_cubature *c, long long g, long long p)
{
    const struct cpu_held *h = &c->stash[g];
    c->value[p] = h->value;
    c->error[p] = h->error;
    c->check_diff[p] = h->check_diff;
    c->check_var[p] = h->check_var;
    c->axis[p] = h->axis;
    c->error_sign[p] = h->sign;
    c->bad_point[p] = -1; /* a region with one ended its integral */
    c->held[p] = 1;
    c->probed[p] = 1;
}

/* Exclusive scans of the counts into places: per tile, its first pair of
 * children, its first held region's place and its first stash entry.
 * Returns the regions of the new list. */
static long long scan_places(cpu_cubature *c, long long *new_counts,
                             long long *held_total)
{
    long long total = 0;
    *held_total = 0;
    for (int k = 0; k < c->integrals; k++) {
        long long held = 0;
        const long long split = cpu_tile_scan(c->tile_kept, c->first_tile[k],
                                              c->first_tile[k + 1], total / 2) - total / 2;
        for (long long t = c->first_tile[k]; t < c->first_tile[k + 1]; t++) {
            long long n = c->tile_held[t];
            c->tile_held[t] = total + 2 * split + held;
            c->tile_stash[t] = *held_total + held;
            held += n;
        }
        new_counts[k] = 2 * split + held;
        total += new_counts[k];
        *held_total += held;
    }
    return total;
}

int cpu_hold_split(void *state, const double *thresholds,
                   const double *split_above, const double *hold_largest,
                   long long *new_counts, long long *held_checked)
{
    cpu_state *s = state;
    cpu_cubature *c = s->cubature;
    const double work = (double)cpu_total_regions(c);
    long long *odd = c->held_odd, total, held_total;

    if (c->ncomp > 1)
        return pagani_fail(s->ctx, PAGANI_ERR_OPTION, "worst-first refinement "
                           "takes scalar integrands only");
#pragma omp parallel for schedule(static) num_threads(cpu_team(s, work))
    for (long long t = 0; t < c->tiles; t++) {
        int k = c->tile_owner[t];
        long long split = 0, held = 0;
        for (long long i = c->tile_start[t]; i < cpu_tile_end(c, t, k); i++) {
            enum fate f =
                fate_of(c, i, limits_of(k, thresholds, split_above, hold_largest), -1);
            split += f == SPLIT;
            held += f == HOLD;
        }
        c->tile_kept[t] = split;
        c->tile_held[t] = held;
    }
    for (int k = 0; k < c->integrals; k++) {
        long long held = 0;
        for (long long t = c->first_tile[k]; t < c->first_tile[k + 1]; t++)
            held += c->tile_held[t];
        odd[k] = even_out(c, k, held,
                          limits_of(k, thresholds, split_above, hold_largest));
    }
    total = scan_places(c, new_counts, &held_total);
    if (total > c->capacity)
        return pagani_fail(s->ctx, PAGANI_ERR_NO_MEMORY,
                           "split into %lld regions exceeds the capacity %lld",
                           total, c->capacity);
    if (!stash_reserve(c, (size_t)held_total))
        return pagani_fail(s->ctx, PAGANI_ERR_NO_MEMORY,
                           "the results of %lld held regions", held_total);
#pragma omp parallel for schedule(static) num_threads(cpu_team(s, work))
    for (long long t = 0; t < c->tiles; t++) {
        int k = c->tile_owner[t];
        long long j = c->tile_kept[t], p = c->tile_held[t], g = c->tile_stash[t];
        for (long long i = c->tile_start[t]; i < cpu_tile_end(c, t, k); i++) {
            enum fate f = fate_of(c, i, limits_of(k, thresholds, split_above, hold_largest),
                                  odd[k]);
            if (f == SPLIT) cpu_split_region(c, i, j++);
            if (f == HOLD) hold_region(c, i, p++, g++);
        }
    }
#pragma omp parallel for schedule(static) num_threads(cpu_team(s, work))
    for (long long t = 0; t < c->tiles; t++) {
        long long end = t + 1 < c->tiles ? c->tile_stash[t + 1] : held_total;
        for (long long g = c->tile_stash[t]; g < end; g++)
            place_held(c, g, c->tile_held[t] + (g - c->tile_stash[t]));
    }
    c->cur = 1 - c->cur;
    c->has_parents = 1;
    for (int k = 0; k < c->integrals; k++) c->counts[k] = new_counts[k];
    cpu_make_tiles(c);
    for (int k = 0; k < c->integrals; k++) {
        long long start = c->first_region[k] + c->counts[k];
        held_checked[k] = 0;
        for (long long i = start - 1; i >= c->first_region[k] && c->held[i]; i--)
            held_checked[k] += (c->error_sign[i] & PAGANI_SIGN_CHECKED) != 0;
    }
    return PAGANI_OK;
}

int cpu_kept_errors(void *state, int k, double above, double *errors,
                    long long *count)
{
    cpu_state *s = state;
    cpu_cubature *c = s->cubature;
    long long first = c->first_tile[k], tiles = c->first_tile[k + 1] - first;
    long long *start = c->tile_kept + first;
    const int team = cpu_team(s, (double)c->counts[k]);

#pragma omp parallel for schedule(static) num_threads(team)
    for (long long t = 0; t < tiles; t++) {
        long long n = 0;
        for (long long i = c->tile_start[first + t]; i < cpu_tile_end(c, first + t, k); i++)
            n += c->active[i] && c->error[i] > above;
        start[t] = n;
    }
    *count = cpu_tile_scan(start, 0, tiles, 0);
#pragma omp parallel for schedule(static) num_threads(team)
    for (long long t = 0; t < tiles; t++) {
        long long j = start[t];
        for (long long i = c->tile_start[first + t]; i < cpu_tile_end(c, first + t, k); i++)
            if (c->active[i] && c->error[i] > above) errors[j++] = c->error[i];
    }
    return PAGANI_OK;
}
