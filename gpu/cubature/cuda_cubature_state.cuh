/*
 * cuda_cubature_state.cuh - the cubature state of the CUDA backend: an
 * integrand's compiled kernels, the slab and what setup carves from it,
 * the rule on the device, and the helpers that size, carve, grow and free
 * them. Included by cuda_cubature.cu only, after its constants and the
 * kernels' headers.
 */

/* ---- state ----------------------------------------------------------- */

/* An integrand's compiled kernels (device_module[mapped][PAGANI_CUBATURE]):
 * the evaluate kernel, which runs the probes too, cubature_evaluate.cuh's, or
 * cubature_evaluate_vector.cuh's for one of several components; and for
 * a scalar integrand the randomized check, cubature_check.cuh's, and the
 * graded pass, cubature_evaluate.cuh's graded instance. */
typedef struct cuda_integrand {
    cuda_module *module; /* first: cuda_integrand_release frees it */
    cudaKernel_t kernel[3]; /* evaluate, check, evaluate_graded */
} cuda_integrand;

struct cuda_cubature {
    /* the slab and what setup carved from it */
    void *slab;
    size_t slab_bytes;
    int n;
    long long capacity;        /* regions */
    long long stride;          /* entries of a box list: >= capacity / 2 */
    double *lower[2];          /* lower corners, and per axis how often */
    short *level[2];           /* the initial width was halved */
    signed char *parent_axis[2];
    int cur;
    int implicit;              /* list cur holds parents (after a split) */
    int axial;                 /* the job's probes: axial ones on every
                                  region (rules/probe.h) */
    double *value, *error, *parent;
    signed char *axis;
    unsigned char *active;
    unsigned char *error_sign; /* rules/error_sign.h */
    double *check_diff;        /* a checked region's V - M and its; from
                                  the evaluate kernel to the graded pass,
                                  which precede the check kernel, the
                                  graded list (cu_evaluate) */
    double *check_var;         /* variance (rules/random_check.h) */
    int *scan;                 /* capacity + 1 */
    void *temp;                /* CUB's scratch: the scan, the sorts */
    size_t temp_bytes;
    csum *partials[2];         /* tile partials of alternate levels */
    long long most_tiles;      /* tiles of one level, at most */
    char *sort_scratch;        /* the sort's arrays (sort_pointers), or NULL:
                                  they overlay the free box list */
    /* the batch block: per integral (K = integrals) */
    void *batch;
    size_t batch_bytes;
    int integrals;
    int *offsets;              /* the layout's rows (batch_layout.h) */
    double *initial;           /* initial widths [k * n + d] */
    unsigned long long *nonfinite; /* NaN report per integral */
    unsigned long long *graded_calls; /* f's calls of the graded pass per
                                         integral, then (graded_count)
                                         two counts of the regions the
                                         evaluate kernel flagged, used in
                                         turn (graded_turn): each plain
                                         pass zeroes these calls and the
                                         other count, so no memset runs */
    unsigned int *graded_count;
    int graded_turn;           /* the count this iteration's passes use */
    double *evaluate_thresholds; /* what evaluate's kernels compare E with:
                                    probe_below, probe_relative per integral,
                                    then check_above per integral */
    double *thresholds;
    int *query_integrals;      /* a threshold search step's queries */
    double *query_thresholds;
    classify_request *requests;
    unsigned int *ticket;      /* threshold_kernel's, 0 between launches */
    unsigned int *tickets;     /* classify_kernel's per integral, likewise */
    char *params;              /* parameter blocks, params_stride apart */
    unsigned long long params_stride;
    /* per-integral results: mapped pinned memory (results_dev its device
     * address), else a device buffer copied to results_host */
    void *results_host, *results_dev;
    size_t results_bytes;
    int results_mapped;
    /* host, per integral */
    size_t host_integrals;     /* what these hold */
    long long *counts;         /* regions */
    long long *active_counts;  /* from classify, -1: unknown */
    double *device_thresholds; /* the last threshold counted on the device */
    long long *device_counts;  /* and its count, -1: none */
    int *layout;               /* the layout (batch_layout.h) */
    int levels;
    int layout_stale;          /* not yet on the device (one integral: kernels
                                  need it there only for a few steps) */
    double *initial_host;
    double *evaluate_thresholds_host;
    long long count;           /* regions in the list */
    /* Threshold statistics of integrals of up to HOST_STATS_MAX regions:
     * the sorted errors, tile prefix sums and carries, made once per
     * classify, on the device and, for a list of up to HOST_STATS_MAX
     * regions, copied to the host (pinned). */
    double *host_sorted;
    size_t host_sorted_doubles;
    int sorted_at;             /* SORTED_NONE, SORTED_ON_DEVICE or
                                  SORTED_ON_HOST (and on the device) */
    int sorted_wanted;         /* this iteration's statistics read it */
    int sort_ahead;            /* the last iteration's did: classify makes
                                  it in its own wait */
    /* Checkpoints: the host staging of a chunk of the list (pinned,
     * cuda_cubature_checkpoint.cuh), made by the first export or import
     * and grown for a larger chunk. */
    void *staging;
    size_t staging_bytes;
    /* the rule */
    double *consts;            /* PAGANI_EVC_SIZE */
    double *rows;              /* the explicit points' rows, then the tuples */
    int *tuples;
    size_t points_bytes;
    pagani_packed_rule packed;
    int have_packed;
    const pagani_rule *rule;
    cudaKernel_t evaluate;
    cudaKernel_t check;        /* the randomized check (scalar integrands) */
    cudaKernel_t evaluate_graded; /* the graded pass (scalar integrands) */
    cubature_vector vec;       /* an integrand of several components */
};

static size_t align_up(size_t x)
{
    return (x + 255) & ~(size_t)255;
}

/* Bytes of one box list (lower corners, levels, split axes). */
static size_t box_list_bytes(int n, long long stride)
{
    size_t entries = (size_t)n * (size_t)stride;
    return align_up(entries * sizeof(double)) + align_up(entries * sizeof(short)) +
           align_up((size_t)stride);
}

/* Bytes of the sort's arrays: three of doubles and one of ints. */
static size_t sort_bytes(long long capacity)
{
    return 3 * align_up((size_t)capacity * sizeof(double)) +
           align_up((size_t)capacity * sizeof(int));
}

/* Lays the slab out from base (NULL: only measures): two box lists of
 * `stride` entries (parents), per region of the capacity its value, error,
 * axis, flag and scan slot, per pair the parent's value, the tile
 * partials, CUB's scratch, and the sort's arrays unless a box list can
 * hold them (sort_scratch NULL then). */
static size_t carve(cuda_cubature *c, char *base, int n, long long capacity,
                    long long stride, long long most_tiles, size_t temp)
{
    size_t at = 0, entries = (size_t)n * (size_t)stride;
    const int dedicated = box_list_bytes(n, stride) < sort_bytes(capacity);
#define CARVE(ptr, type, bytes)                                              \
    do {                                                                     \
        if (base) (ptr) = (type)(base + at);                                 \
        at += align_up(bytes);                                               \
    } while (0)
    for (int b = 0; b < 2; b++) {
        CARVE(c->lower[b], double *, entries * sizeof(double));
        CARVE(c->level[b], short *, entries * sizeof(short));
        CARVE(c->parent_axis[b], signed char *, (size_t)stride);
    }
    CARVE(c->value, double *, (size_t)capacity * sizeof(double));
    CARVE(c->error, double *, (size_t)capacity * sizeof(double));
    CARVE(c->parent, double *, (size_t)stride * sizeof(double));
    CARVE(c->axis, signed char *, (size_t)capacity);
    CARVE(c->active, unsigned char *, (size_t)capacity);
    CARVE(c->error_sign, unsigned char *, (size_t)capacity);
    CARVE(c->check_diff, double *, (size_t)capacity * sizeof(double));
    CARVE(c->check_var, double *, (size_t)capacity * sizeof(double));
    CARVE(c->scan, int *, ((size_t)capacity + 1) * sizeof(int));
    CARVE(c->partials[0], csum *, (size_t)most_tiles * sizeof(csum));
    CARVE(c->partials[1], csum *, (size_t)most_tiles * sizeof(csum));
    CARVE(c->temp, void *, temp);
    if (base) c->sort_scratch = NULL;
    if (dedicated) CARVE(c->sort_scratch, char *, sort_bytes(capacity));
#undef CARVE
    return at;
}

/* The sort's arrays: three of doubles (keys, then the sorted errors and
 * the prefix sums, pitch *pitch bytes) and one of ints, in the dedicated
 * scratch or in the box list that is not current (free from classify to
 * filter_split, which writes it). */
static void sort_pointers(const cuda_cubature *c, double **rows, size_t *pitch, int **index)
{
    char *base = c->sort_scratch ? c->sort_scratch : (char *)c->lower[1 - c->cur];
    *pitch = align_up((size_t)c->capacity * sizeof(double));
    *rows = (double *)base;
    *index = (int *)(base + 3 * *pitch);
}

static size_t cu_bytes_per_region(void *state, int n, int ncomp)
{
    (void)state;
    return (size_t)n * (sizeof(double) + sizeof(short)) /* parents' lower and
                                                           levels; 2 lists */
           + 1                              /* parents' split axis */
           + 4 * sizeof(double)             /* value, error, check */
           + sizeof(double) / 2             /* parent value per pair */
           + 3 + sizeof(int)                /* axis, active, error sign,
                                               scan */
           + 1                              /* tile partials */
           + (n < 6 ? 3 * sizeof(double) + sizeof(int) : 0) /* the sort's
                                         arrays, unless a box list holds them */
           + 5                              /* alignment and CUB scratch */
           + vector_bytes_per_region(ncomp); /* several components */
}

size_t cuda_cubature_bytes_held(const cuda_state *st)
{
    return st->cubature ? st->cubature->slab_bytes + st->cubature->batch_bytes : 0;
}

/* The host's arrays per integral. */
static void free_host_integrals(cuda_cubature *c)
{
    free(c->counts);
    free(c->active_counts);
    free(c->device_thresholds);
    free(c->device_counts);
    free(c->layout);
    free(c->initial_host);
    free(c->evaluate_thresholds_host);
    c->counts = c->active_counts = c->device_counts = NULL;
    c->device_thresholds = c->initial_host = c->evaluate_thresholds_host = NULL;
    c->layout = NULL;
    c->host_integrals = 0;
}

/* The per-integral results buffer (both forms). */
static void free_results(cuda_cubature *c)
{
    if (c->results_host) cudaFreeHost(c->results_host);
    if (!c->results_mapped) cudaFree(c->results_dev);
    c->results_host = c->results_dev = NULL;
    c->results_bytes = 0;
}

void cuda_cubature_free(cuda_state *st)
{
    cuda_cubature *c = st->cubature;
    if (!c) return;
    cudaFree(c->slab);
    cudaFree(c->batch);
    cudaFree(c->consts);
    cudaFree(c->rows);
    vector_free(&c->vec);
    free_results(c);
    if (c->host_sorted) cudaFreeHost(c->host_sorted);
    if (c->staging) cudaFreeHost(c->staging);
    free_host_integrals(c);
    pagani_packed_rule_free(&c->packed);
    free(c);
    st->cubature = NULL;
}

/* The state and its rule constants. */
static int make_state(cuda_state *st)
{
    cuda_cubature *c = (cuda_cubature *)calloc(1, sizeof *c);
    cudaError_t err;

    if (!c) return pagani_fail(st->ctx, PAGANI_ERR_NO_MEMORY, "CUDA cubature state");
    err = cudaMalloc((void **)&c->consts, PAGANI_EVC_SIZE * sizeof(double));
    if (err != cudaSuccess) {
        free(c);
        return cuda_fail(st->ctx, err, "cudaMalloc (rule constants)");
    }
    st->cubature = c;
    return PAGANI_OK;
}

/* Threads per region: 32 (the fastest per point when the GPU is full), more
 * while the regions alone would leave it idle (first iterations), up to 256
 * and to 4 points a thread. PAGANI_CUDA_EVAL_THREADS overrides. A region's
 * sums depend on it, and it depends on the region count only: the results
 * stay deterministic. Rules of fewer than 128 points (n <= 3 and the
 * degree-7 rules up to n = 5) always get 32: then a batch gives each
 * integral the bits it gets alone. */
static int threads_per_region(const cuda_state *st, long long count, int npoints)
{
    const long long fill = (long long)st->sm_count * 1024;
    int t = 32;
    if (st->eval_threads) return st->eval_threads;
    while (t < 256 && t * count < fill && t * 4 <= npoints) t *= 2;
    return t;
}

/* Reallocates the device buffer *buf of *bytes when it holds less than
 * `need` (its contents are not kept). */
static int grow(cuda_state *st, void **buf, size_t *bytes, size_t need)
{
    if (need <= *bytes) return PAGANI_OK;
    cudaFree(*buf);
    *buf = NULL;
    *bytes = 0;
    CUDA_TRY(st->ctx, cudaMalloc(buf, need));
    *bytes = need;
    return PAGANI_OK;
}

/* Packs and uploads the job's rule unless the same (n, degree) is there. */
static int upload_rule(cuda_state *st, const pagani_rule *rule)
{
    cuda_cubature *c = st->cubature;
    pagani_context *ctx = st->ctx;
    size_t bytes;
    int rc;

    if (c->have_packed && c->packed.n == rule->n && c->packed.degree == rule->degree)
        return PAGANI_OK;
    if (c->have_packed) pagani_packed_rule_free(&c->packed);
    c->have_packed = 0;
    rc = pagani_packed_rule_make(rule, &c->packed);
    if (rc == -2) return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "packed rule");
    if (rc != 0)
        return pagani_fail(ctx, PAGANI_ERR_OPTION, "the degree-%d rule for n = %d "
                           "does not fit the CUDA backend's rule layout",
                           rule->degree, rule->n);
    {
        size_t ne = (size_t)c->packed.shape.nexplicit;
        size_t row_bytes = PAGANI_ROW_TABLE(rule->n, ne) * sizeof(double);
        size_t rows = align_up(row_bytes);
        bytes = rows + ne * sizeof(int);
        if ((rc = grow(st, (void **)&c->rows, &c->points_bytes, bytes)) != PAGANI_OK)
            return rc;
        c->tuples = (int *)((char *)c->rows + rows);
        if (ne) {
            CUDA_TRY(ctx, cudaMemcpyAsync(c->rows, c->packed.rows, row_bytes,
                                          cudaMemcpyHostToDevice, st->stream));
            CUDA_TRY(ctx, cudaMemcpyAsync(c->tuples, c->packed.tuples, ne * sizeof(int),
                                          cudaMemcpyHostToDevice, st->stream));
        }
    }
    /* From pageable memory these copies return once the data is staged. */
    CUDA_TRY(ctx, cudaMemcpyAsync(c->consts, c->packed.consts, sizeof c->packed.consts,
                                  cudaMemcpyHostToDevice, st->stream));
    c->have_packed = 1;
    return PAGANI_OK;
}
