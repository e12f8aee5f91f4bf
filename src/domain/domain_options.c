/*
 * domain_options.c - the options of the map of unbounded axes
 * (pagani_options.domain_map, domain_centers, domain_scales; domain.h)
 * checked for n axes.
 */
#include <math.h>
#include "domain/domain.h"

int pagani_domain_check(pagani_context *ctx, int n, const pagani_options *opt)
{
    if (opt->domain_map != PAGANI_MAP_RATIONAL &&
        opt->domain_map != PAGANI_MAP_EXPONENTIAL)
        return pagani_fail(ctx, PAGANI_ERR_OPTION, "domain_map must be "
                           "PAGANI_MAP_RATIONAL (0) or PAGANI_MAP_EXPONENTIAL "
                           "(1), got %d", (int)opt->domain_map);
    for (int i = 0; i < n; i++) {
        if (opt->domain_centers && !isfinite(opt->domain_centers[i]))
            return pagani_fail(ctx, PAGANI_ERR_OPTION, "domain_centers[%d] "
                               "must be finite (got %g)", i,
                               opt->domain_centers[i]);
        if (opt->domain_scales && !(opt->domain_scales[i] >= 0.0 &&
                                    isfinite(opt->domain_scales[i])))
            return pagani_fail(ctx, PAGANI_ERR_OPTION, "domain_scales[%d] "
                               "must be 0 (domain_scale) or a finite length "
                               "> 0 (got %g)", i, opt->domain_scales[i]);
    }
    return PAGANI_OK;
}
