/*
 * domain_map.c - the change of variables of unbounded axes (domain.h),
 * written once: compiled here for the host wrappers and kept as text for
 * the generated source of compiled integrands (CPU and GPU).
 */
#include <math.h>
#include "domain/domain.h"

/* The code and its text from one spelling: DOMAIN_CODE compiles its
 * argument and keeps it, as written, in pagani_domain_map_text. */
#define DOMAIN_CODE(...) \
    __VA_ARGS__ const char pagani_domain_map_text[] = #__VA_ARGS__;
#define PAGANI_DOMAIN_FN

DOMAIN_CODE(
PAGANI_DOMAIN_FN double pagani_domain_map(const double *h, int n,
                                          const double *t, double *x)
{
    double jacobian = 1.0;
    for (int i = 0; i < n; i++) {
        const double kind = h[4 + 3 * i], end = h[5 + 3 * i];
        const double scale = h[6 + 3 * i], u = t[i];
        if (kind == 0.0) {
            x[i] = u;
        } else if (kind == 4.0) {
            const int m = (int)scale;
            const double *knots = h + (int)end, *xs = knots + m + 1;
            int j = 0;
            while (j < m - 1 && u >= knots[j + 1]) j++;
            x[i] = xs[j] + (u - knots[j]) * ((xs[j + 1] - xs[j]) /
                                             (knots[j + 1] - knots[j]));
            jacobian *= (xs[j + 1] - xs[j]) / (knots[j + 1] - knots[j]);
        } else if (kind == 3.0) {
            const double d = 1.0 - u * u;
            x[i] = end + scale * u / d;
            jacobian *= scale * (1.0 + u * u) / (d * d);
        } else if (kind >= 5.0) {
            const double y = -scale * log(fabs(u));
            x[i] = kind == 5.0 || (kind == 7.0 && u > 0.0) ? end + y : end - y;
            jacobian *= scale / fabs(u);
        } else {
            const double d = 1.0 - u, y = scale * u / d;
            x[i] = kind == 1.0 ? end + y : end - y;
            jacobian *= scale / (d * d);
        }
        if (!isfinite(x[i])) return 0.0;
    }
    return isfinite(jacobian) ? jacobian : 0.0;
}
)
