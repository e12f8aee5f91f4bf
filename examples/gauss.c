/*
 * gauss.c - the README's first program: a 5-D Gaussian to 6 digits with
 * PAGANI cubature, on the GPU when one is usable, else on the CPU.
 * Build: cc gauss.c $(pkg-config --cflags --libs pagani)
 */
#include <stdio.h>
#include <pagani.h>

PAGANI_INTEGRAND(gauss, {            /* one body: host function + source */
    double s = 0.0;
    for (int i = 0; i < n; i++) s += (x[i] - 0.5) * (x[i] - 0.5);
    return exp(-625.0 * s);
})

int main(void)
{
    pagani_context *ctx;
    pagani_integrand *f = NULL;
    pagani_result r;
    double lo[5] = {0, 0, 0, 0, 0}, hi[5] = {1, 1, 1, 1, 1};
    int rc;

    if (pagani_context_create(&ctx, PAGANI_BACKEND_AUTO) != PAGANI_OK) return 1;
    rc = pagani_integrand_create(ctx, &f, 5, &gauss);
    if (rc == PAGANI_OK) {
        pagani_options opt = pagani_options_default(PAGANI_CUBATURE);
        opt.epsrel = 1e-6;
        rc = pagani_integrate(ctx, f, lo, hi, &opt, &r);
    }
    if (rc != PAGANI_OK)
        fprintf(stderr, "%s: %s\n", pagani_strerror(rc),
                pagani_context_message(ctx));
    else
        printf("%.15g +- %.2g (%s, %s on %s)\n", r.value, r.error,
               pagani_status_name(r.status), pagani_method_name(r.method),
               pagani_backend_name(r.backend));
    pagani_integrand_destroy(f);
    pagani_context_destroy(ctx);
    return rc != PAGANI_OK;
}
