/*
 * cuda_cubature_vector.cuh - the host side of cubature_vector.cuh: the
 * vector arrays (in the slab), set_weights, and the steps classify and
 * filter_split add for an integrand of several components. Included by cuda_cubature.cu
 * only, after the helpers it uses (align_up, grow, all_tiles,
 * ensure_layout).
 */

#define VECTOR_SMEM_BUDGET (96 * 1024) /* an evaluate block's, at most */

/* Lays the vector arrays out from base (NULL: only measures). */
static size_t vector_carve(cubature_vector *v, char *base, long long capacity,
                           long long stride, long long most_tiles,
                           int integrals)
{
    const size_t C = (size_t)v->ncomp, k = (size_t)integrals;
    size_t at = 0;
#define CARVE(ptr, type, bytes)                                              \
    do {                                                                     \
        if (base) (ptr) = (type)(base + at);                                 \
        at += align_up(bytes);                                               \
    } while (0)
    CARVE(v->value, double *, (size_t)capacity * C * sizeof(double));
    CARVE(v->error, double *, (size_t)capacity * C * sizeof(double));
    CARVE(v->parent, double *, (size_t)stride * C * sizeof(double));
    CARVE(v->tile_sums, double *, (size_t)most_tiles * 2 * C * sizeof(double));
    CARVE(v->sums, double *, k * 2 * C * sizeof(double));
    CARVE(v->weights, double *, k * (size_t)v->groups * sizeof(double));
    CARVE(v->reference, int *, k * sizeof(int));
#undef CARVE
    return at;
}

/* Evaluate launches: as many regions (warps) a block as VECTOR_SMEM_BUDGET
 * holds, up to 4 (cubature_evaluate_vector.cuh's shared memory). */
static int vector_plan_evaluate(cuda_state *st, cubature_vector *v, int n,
                                int nweights, cudaKernel_t kernel)
{
    const size_t rows = ((size_t)PAGANI_PROBE_AXIAL_ROWS(n) + 31) / 32 * 32,
                 C = (size_t)v->ncomp;
    const size_t region = (C * (rows + 1) + 2 * C + rows / 2) * sizeof(double);
    const size_t tuples = 5 * (size_t)nweights * sizeof(double);

    v->regions_per_block = 4;
    while (v->regions_per_block > 1 &&
           tuples + v->regions_per_block * region > VECTOR_SMEM_BUDGET)
        v->regions_per_block /= 2;
    v->shared = tuples + v->regions_per_block * region;
    if (v->shared > 48 * 1024)
        CUDA_TRY(st->ctx,
                 cudaKernelSetAttributeForDevice(
                     kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                     (int)v->shared, st->device));
    return PAGANI_OK;
}

/* The bytes of the vector arrays of a job (0 for one component), after
 * the scalar lists in one slab: the job's components, norm and groups
 * into v, the layout measured. */
static size_t vector_measure(cubature_vector *v, const cubature_job *job,
                             long long stride, long long most_tiles)
{
    v->ncomp = job->ncomp;
    if (job->ncomp == 1) return 0;
    v->norm = job->norm;
    v->groups = job->ncomp / pagani_group_size(job->norm, job->ncomp);
    return vector_carve(v, NULL, job->capacity, stride, most_tiles,
                        job->integrals);
}

/* The vector arrays of a job of several components from `base` (the
 * slab past the scalar lists), the host's arrays, every weight 1 and
 * reference 0 (until set_weights). */
static int vector_setup(cuda_state *st, const cubature_job *job, char *base,
                        long long stride, long long most_tiles, int nweights,
                        cudaKernel_t kernel)
{
    cubature_vector *v = &st->cubature->vec;
    const int K = job->integrals;
    int rc;

    if (job->ncomp == 1) return PAGANI_OK;
    vector_carve(v, base, job->capacity, stride, most_tiles, K);
    if ((size_t)K > v->host_integrals) {
        free(v->host_sums);
        free(v->host_requests);
        v->host_integrals = 0;
        v->host_sums = (double *)malloc((size_t)K * 2 * PAGANI_MAX_COMPONENTS *
                                        sizeof(double));
        v->host_requests =
            (classify_request *)malloc((size_t)K * sizeof(classify_request));
        if (!v->host_sums || !v->host_requests)
            return pagani_fail(st->ctx, PAGANI_ERR_NO_MEMORY,
                               "the component sums "
                               "of %d integrals",
                               K);
        v->host_integrals = (size_t)K;
    }
    {
        const size_t nw = (size_t)K * v->groups;
        double *ones = (double *)malloc(nw * sizeof(double));
        if (!ones)
            return pagani_fail(st->ctx, PAGANI_ERR_NO_MEMORY, "group weights");
        for (size_t g = 0; g < nw; g++) ones[g] = 1.0;
        rc = cudaMemcpyAsync(v->weights, ones, nw * sizeof(double),
                             cudaMemcpyHostToDevice, st->stream) == cudaSuccess
                 ? PAGANI_OK
                 : cuda_fail(st->ctx, cudaGetLastError(),
                             "cudaMemcpyAsync (weights)");
        free(ones);
        if (rc != PAGANI_OK) return rc;
    }
    CUDA_TRY(st->ctx, cudaMemsetAsync(v->reference, 0, (size_t)K * sizeof(int),
                                      st->stream));
    return vector_plan_evaluate(st, v, job->n, nweights, kernel);
}

/* cubature_ops.set_weights: the integrals' group weights and reference
 * groups, to the device (copies from pageable memory: staged before the
 * call returns, no wait). */
static int cu_set_weights(void *state, const double *weights,
                          const int *reference)
{
    cuda_state *st = (cuda_state *)state;
    cuda_cubature *c = st->cubature;
    cubature_vector *v = &c->vec;

    if (v->ncomp == 1) return PAGANI_OK;
    CUDA_TRY(st->ctx,
             cudaMemcpyAsync(v->weights, weights,
                             (size_t)c->integrals * v->groups * sizeof(double),
                             cudaMemcpyHostToDevice, st->stream));
    CUDA_TRY(st->ctx, cudaMemcpyAsync(v->reference, reference,
                                      (size_t)c->integrals * sizeof(int),
                                      cudaMemcpyHostToDevice, st->stream));
    return PAGANI_OK;
}

/* evaluate for several components: the rule and the probes in one launch
 * of cubature_evaluate_vector.cuh's kernel, a warp a region (`probing`:
 * the vertex probes run; single_*: the one integral's thresholds; with
 * several, probes: their device copy). */
static int vector_evaluate(cuda_state *st, pagani_eval_shape shape, int probing,
                           const double *probes, double single_below,
                           double single_relative)
{
    cuda_cubature *c = st->cubature;
    cubature_vector *v = &c->vec;
    const int groups = v->regions_per_block;
    const double *lower = c->lower[c->cur];
    const short *level = c->level[c->cur];
    const signed char *parent_axis = c->parent_axis[c->cur];
    long long stride = c->stride, count = c->count;
    int integrals = c->integrals;
    unsigned long long params_stride = c->params_stride;
    void *args[] = {&lower, &level, &parent_axis, &stride, &count, &c->offsets,
                    &integrals, &c->initial, &c->rows, &c->tuples, &c->consts,
                    &shape, &c->params, &params_stride, &c->value, &c->error,
                    &c->axis, &c->nonfinite, &v->value, &v->error, &v->weights,
                    &v->reference, &v->norm, &c->axial, &probing, &probes,
                    &single_below, &single_relative};

    shape.tpr = 32;
    CUDA_TRY(st->ctx,
             cudaLaunchKernel((const void *)c->evaluate,
                              dim3((unsigned)((count + groups - 1) / groups)),
                              dim3(32 * groups), args, v->shared, st->stream));
    return PAGANI_OK;
}

/* Before classify: the two-level error of every component (where the
 * requests ask for it; their device copy, with several integrals, is
 * made here), and the requests classify_kernel is to apply: the same
 * without has_parents, which is done (in v->host_requests). */
static int vector_two_level(cuda_state *st, const classify_request *requests,
                            const classify_request **for_classify)
{
    cuda_cubature *c = st->cubature;
    cubature_vector *v = &c->vec;
    const int K = c->integrals;
    const classify_request *device_requests = K > 1 ? c->requests : NULL;
    tiling tl = all_tiles(c, 0);

    if (device_requests)
        CUDA_TRY(st->ctx, cudaMemcpyAsync(c->requests, requests,
                                          (size_t)K * sizeof *requests,
                                          cudaMemcpyHostToDevice, st->stream));
    vector_two_level_kernel<<<tile_blocks(tl.tiles), RED_THREADS, 0,
                              st->stream>>>(
        tl, device_requests, requests[0], v->ncomp, v->norm, v->groups,
        v->weights, v->reference, v->value, v->error, v->parent, c->value,
        c->error);
    CUDA_TRY(st->ctx, cudaGetLastError());
    for (int k = 0; k < K; k++) {
        v->host_requests[k] = requests[k];
        v->host_requests[k].has_parents = 0;
    }
    *for_classify = v->host_requests;
    return PAGANI_OK;
}

/* The component sums of `a` (its mode) for every integral k that takes
 * part (every one, or with `asked` those it asks to classify), into
 * out[2 * (k * ncomp + c)] (host; others left as they are): two launches
 * and one wait; an integral without regions gets zeros. */
static int vector_sums(cuda_state *st, vector_sum_args a,
                       const classify_request *asked, double *out)
{
    cuda_cubature *c = st->cubature;
    cubature_vector *v = &c->vec;
    const int K = c->integrals;
    const size_t width = 2 * (size_t)v->ncomp;
    tiling tl = all_tiles(c, 0);
    int rc;

    if (c->count > 0) {
        if ((rc = ensure_layout(st)) != PAGANI_OK) return rc;
        a.ncomp = v->ncomp;
        a.active = c->active;
        a.error = c->error;
        a.comp_value = v->value;
        a.comp_error = v->error;
        vector_tile_sums_kernel<<<tile_blocks(tl.tiles), RED_THREADS, 0,
                                  st->stream>>>(tl, a, v->tile_sums);
        CUDA_TRY(st->ctx, cudaGetLastError());
        vector_merge_kernel<<<(unsigned)K, RED_THREADS, 0, st->stream>>>(
            tl, a, v->tile_sums, v->sums);
        CUDA_TRY(st->ctx, cudaGetLastError());
        CUDA_TRY(st->ctx, cudaMemcpyAsync(v->host_sums, v->sums,
                                          (size_t)K * width * sizeof(double),
                                          cudaMemcpyDeviceToHost, st->stream));
        CUDA_TRY(st->ctx, cudaStreamSynchronize(st->stream));
    }
    for (int k = 0; k < K; k++) {
        if (asked && !asked[k].classify) continue;
        if (c->count > 0 && c->counts[k] > 0)
            memcpy(out + k * width, v->host_sums + k * width,
                   width * sizeof(double));
        else
            memset(out + k * width, 0, width * sizeof(double));
    }
    return PAGANI_OK;
}

/* classify's components: the sums of V_c and E_c of every classified
 * integral (requests as the caller gave them). */
static int vector_classify_sums(cuda_state *st,
                                const classify_request *requests,
                                double *components)
{
    vector_sum_args a;
    memset(&a, 0, sizeof a);
    a.mode = VECTOR_SUM_CLASSIFY;
    a.requests = st->cubature->integrals > 1 ? st->cubature->requests : NULL;
    a.single = requests[0];
    return vector_sums(st, a, requests, components);
}

/* filter_split's finished: the sums over the regions the split drops,
 * before the thresholds change the active flags (mark_kept_kernel). */
static int vector_finished_sums(cuda_state *st, const double *thresholds,
                                double *finished)
{
    cuda_cubature *c = st->cubature;
    vector_sum_args a;

    memset(&a, 0, sizeof a);
    a.mode = VECTOR_SUM_DROPPED;
    a.single_threshold = thresholds[0];
    if (c->integrals > 1) {
        CUDA_TRY(st->ctx, cudaMemcpyAsync(c->thresholds, thresholds,
                                          (size_t)c->integrals * sizeof(double),
                                          cudaMemcpyHostToDevice, st->stream));
        a.thresholds = c->thresholds;
    }
    return vector_sums(st, a, NULL, finished);
}

/* filter_split's parents: every kept region's V_c for the next two-level
 * error (after the scan of the kept flags). */
static int vector_parents(cuda_state *st, const kept_flag &keep)
{
    cuda_cubature *c = st->cubature;
    cubature_vector *v = &c->vec;

    vector_parent_kernel<<<
        (unsigned)((c->count + RED_THREADS - 1) / RED_THREADS), RED_THREADS, 0,
        st->stream>>>(c->count, v->ncomp, c->scan, keep, v->value, v->parent);
    CUDA_TRY(st->ctx, cudaGetLastError());
    return PAGANI_OK;
}
