/*
 * dual_text.c - the dual numbers of the gradient (dual_text.h): C++ text
 * that both the host C++ compiler and NVRTC compile, so the derivatives
 * are the same on every backend.
 */
#include "gradient/dual_text.h"

const char pagani_dual_text[] =
    "struct pagani_dual {\n"
    "    double v, d[PAGANI_GRADIENT_M];\n"
    "    PAGANI_DUAL_MEMBER pagani_dual() {}\n"
    "    PAGANI_DUAL_MEMBER pagani_dual(double a) : v(a)\n"
    "    { for (int j = 0; j < PAGANI_GRADIENT_M; j++) d[j] = 0.0; }\n"
    "    PAGANI_DUAL_MEMBER explicit operator double() const { return v; }\n"
    "    pagani_dual *operator&() = delete;\n"
    "    const pagani_dual *operator&() const = delete;\n"
    "    PAGANI_DUAL_MEMBER pagani_dual &operator+=(const pagani_dual &b)\n"
    "    { v += b.v; for (int j = 0; j < PAGANI_GRADIENT_M; j++) d[j] += b.d[j]; return *this; }\n"
    "    PAGANI_DUAL_MEMBER pagani_dual &operator-=(const pagani_dual &b)\n"
    "    { v -= b.v; for (int j = 0; j < PAGANI_GRADIENT_M; j++) d[j] -= b.d[j]; return *this; }\n"
    "    PAGANI_DUAL_MEMBER pagani_dual &operator*=(const pagani_dual &b)\n"
    "    { for (int j = 0; j < PAGANI_GRADIENT_M; j++) d[j] = d[j] * b.v + v * b.d[j];\n"
    "      v *= b.v; return *this; }\n"
    "    PAGANI_DUAL_MEMBER pagani_dual &operator/=(const pagani_dual &b)\n"
    "    { v /= b.v; for (int j = 0; j < PAGANI_GRADIENT_M; j++) d[j] = (d[j] - v * b.d[j]) / b.v;\n"
    "      return *this; }\n"
    "    PAGANI_DUAL_MEMBER pagani_dual &operator++() { v += 1.0; return *this; }\n"
    "    PAGANI_DUAL_MEMBER pagani_dual &operator--() { v -= 1.0; return *this; }\n"
    "    PAGANI_DUAL_MEMBER pagani_dual operator++(int) { pagani_dual r = *this; v += 1.0; return r; }\n"
    "    PAGANI_DUAL_MEMBER pagani_dual operator--(int) { pagani_dual r = *this; v -= 1.0; return r; }\n"
    "};\n"
    "/* not a number, in the value and every derivative: a component the\n"
    " * integrand leaves unset */\n"
    "PAGANI_DUAL_FN pagani_dual pagani_dual_nan()\n"
    "{ pagani_dual r(log(0.0) * 0.0); for (int j = 0; j < PAGANI_GRADIENT_M; j++) r.d[j] = r.v; return r; }\n"
    "PAGANI_DUAL_FN pagani_dual operator+(pagani_dual a, const pagani_dual &b) { return a += b; }\n"
    "PAGANI_DUAL_FN pagani_dual operator-(pagani_dual a, const pagani_dual &b) { return a -= b; }\n"
    "PAGANI_DUAL_FN pagani_dual operator*(pagani_dual a, const pagani_dual &b) { return a *= b; }\n"
    "PAGANI_DUAL_FN pagani_dual operator/(pagani_dual a, const pagani_dual &b) { return a /= b; }\n"
    "PAGANI_DUAL_FN pagani_dual operator+(const pagani_dual &a) { return a; }\n"
    "PAGANI_DUAL_FN pagani_dual operator-(const pagani_dual &a)\n"
    "{ pagani_dual r(-a.v); for (int j = 0; j < PAGANI_GRADIENT_M; j++) r.d[j] = -a.d[j]; return r; }\n"
    "PAGANI_DUAL_FN bool operator<(const pagani_dual &a, const pagani_dual &b) { return a.v < b.v; }\n"
    "PAGANI_DUAL_FN bool operator>(const pagani_dual &a, const pagani_dual &b) { return a.v > b.v; }\n"
    "PAGANI_DUAL_FN bool operator<=(const pagani_dual &a, const pagani_dual &b) { return a.v <= b.v; }\n"
    "PAGANI_DUAL_FN bool operator>=(const pagani_dual &a, const pagani_dual &b) { return a.v >= b.v; }\n"
    "PAGANI_DUAL_FN bool operator==(const pagani_dual &a, const pagani_dual &b) { return a.v == b.v; }\n"
    "PAGANI_DUAL_FN bool operator!=(const pagani_dual &a, const pagani_dual &b) { return a.v != b.v; }\n"
    "PAGANI_DUAL_FN bool operator!(const pagani_dual &a) { return !a.v; }\n"
    "/* g(a) with g's value and derivative at a.v: the chain rule */\n"
    "PAGANI_DUAL_FN pagani_dual pagani_chain(const pagani_dual &a, double value, double slope)\n"
    "{ pagani_dual r(value);\n"
    "  for (int j = 0; j < PAGANI_GRADIENT_M; j++) r.d[j] = a.d[j] != 0.0 ? slope * a.d[j] : 0.0;\n"
    "  return r; }\n"
    "/* g(a, b) with its value and partial derivatives */\n"
    "PAGANI_DUAL_FN pagani_dual pagani_chain2(const pagani_dual &a, const pagani_dual &b,\n"
    "                                          double value, double da, double db)\n"
    "{ pagani_dual r(value);\n"
    "  for (int j = 0; j < PAGANI_GRADIENT_M; j++)\n"
    "      r.d[j] = (a.d[j] != 0.0 ? da * a.d[j] : 0.0) + (b.d[j] != 0.0 ? db * b.d[j] : 0.0);\n"
    "  return r; }\n"
    "/* the digamma function psi = (ln Gamma)', which <math.h> lacks: the\n"
    " * reflection formula below 0, the recurrence up to 10, then the\n"
    " * asymptotic series */\n"
    "PAGANI_DUAL_FN double pagani_digamma(double x)\n"
    "{ double s = 0.0, t;\n"
    "  if (x <= 0.0 && x == floor(x)) return log(0.0) * 0.0;\n"
    "  if (x < 0.0) return pagani_digamma(1.0 - x) - 3.14159265358979323846 / tan(3.14159265358979323846 * x);\n"
    "  for (; x < 10.0; x += 1.0) s -= 1.0 / x;\n"
    "  t = 1.0 / (x * x);\n"
    "  return s + log(x) - 0.5 / x - t * (1.0 / 12 - t * (1.0 / 120 - t * (1.0 / 252 -\n"
    "         t * (1.0 / 240 - t * (1.0 / 132 - t * (691.0 / 32760 - t / 12.0))))));\n"
    "}\n"
    "PAGANI_DUAL_FN pagani_dual sqrt(const pagani_dual &a) { double s = sqrt(a.v); return pagani_chain(a, s, 0.5 / s); }\n"
    "PAGANI_DUAL_FN pagani_dual cbrt(const pagani_dual &a) { double s = cbrt(a.v); return pagani_chain(a, s, 1.0 / (3.0 * s * s)); }\n"
    "PAGANI_DUAL_FN pagani_dual exp(const pagani_dual &a) { double e = exp(a.v); return pagani_chain(a, e, e); }\n"
    "PAGANI_DUAL_FN pagani_dual exp2(const pagani_dual &a) { double e = exp2(a.v); return pagani_chain(a, e, 0.69314718055994530942 * e); }\n"
    "PAGANI_DUAL_FN pagani_dual expm1(const pagani_dual &a) { return pagani_chain(a, expm1(a.v), exp(a.v)); }\n"
    "PAGANI_DUAL_FN pagani_dual log(const pagani_dual &a) { return pagani_chain(a, log(a.v), 1.0 / a.v); }\n"
    "PAGANI_DUAL_FN pagani_dual log2(const pagani_dual &a) { return pagani_chain(a, log2(a.v), 1.0 / (0.69314718055994530942 * a.v)); }\n"
    "PAGANI_DUAL_FN pagani_dual log10(const pagani_dual &a) { return pagani_chain(a, log10(a.v), 1.0 / (2.30258509299404568402 * a.v)); }\n"
    "PAGANI_DUAL_FN pagani_dual log1p(const pagani_dual &a) { return pagani_chain(a, log1p(a.v), 1.0 / (1.0 + a.v)); }\n"
    "PAGANI_DUAL_FN pagani_dual sin(const pagani_dual &a) { return pagani_chain(a, sin(a.v), cos(a.v)); }\n"
    "PAGANI_DUAL_FN pagani_dual cos(const pagani_dual &a) { return pagani_chain(a, cos(a.v), -sin(a.v)); }\n"
    "PAGANI_DUAL_FN pagani_dual tan(const pagani_dual &a) { double t = tan(a.v); return pagani_chain(a, t, 1.0 + t * t); }\n"
    "PAGANI_DUAL_FN pagani_dual asin(const pagani_dual &a) { return pagani_chain(a, asin(a.v), 1.0 / sqrt(1.0 - a.v * a.v)); }\n"
    "PAGANI_DUAL_FN pagani_dual acos(const pagani_dual &a) { return pagani_chain(a, acos(a.v), -1.0 / sqrt(1.0 - a.v * a.v)); }\n"
    "PAGANI_DUAL_FN pagani_dual atan(const pagani_dual &a) { return pagani_chain(a, atan(a.v), 1.0 / (1.0 + a.v * a.v)); }\n"
    "PAGANI_DUAL_FN pagani_dual sinh(const pagani_dual &a) { return pagani_chain(a, sinh(a.v), cosh(a.v)); }\n"
    "PAGANI_DUAL_FN pagani_dual cosh(const pagani_dual &a) { return pagani_chain(a, cosh(a.v), sinh(a.v)); }\n"
    "PAGANI_DUAL_FN pagani_dual tanh(const pagani_dual &a) { double t = tanh(a.v); return pagani_chain(a, t, 1.0 - t * t); }\n"
    "PAGANI_DUAL_FN pagani_dual asinh(const pagani_dual &a) { return pagani_chain(a, asinh(a.v), 1.0 / sqrt(a.v * a.v + 1.0)); }\n"
    "PAGANI_DUAL_FN pagani_dual acosh(const pagani_dual &a) { return pagani_chain(a, acosh(a.v), 1.0 / sqrt(a.v * a.v - 1.0)); }\n"
    "PAGANI_DUAL_FN pagani_dual atanh(const pagani_dual &a) { return pagani_chain(a, atanh(a.v), 1.0 / (1.0 - a.v * a.v)); }\n"
    "PAGANI_DUAL_FN pagani_dual erf(const pagani_dual &a) { return pagani_chain(a, erf(a.v), 1.12837916709551257390 * exp(-a.v * a.v)); }\n"
    "PAGANI_DUAL_FN pagani_dual erfc(const pagani_dual &a) { return pagani_chain(a, erfc(a.v), -1.12837916709551257390 * exp(-a.v * a.v)); }\n"
    "PAGANI_DUAL_FN pagani_dual tgamma(const pagani_dual &a) { double g = tgamma(a.v); return pagani_chain(a, g, g * pagani_digamma(a.v)); }\n"
    "PAGANI_DUAL_FN pagani_dual lgamma(const pagani_dual &a) { return pagani_chain(a, lgamma(a.v), pagani_digamma(a.v)); }\n"
    "PAGANI_DUAL_FN pagani_dual fabs(const pagani_dual &a) { return pagani_chain(a, fabs(a.v), (a.v > 0.0) - (a.v < 0.0)); }\n"
    "PAGANI_DUAL_FN pagani_dual j0(const pagani_dual &a) { return pagani_chain(a, j0(a.v), -j1(a.v)); }\n"
    "PAGANI_DUAL_FN pagani_dual j1(const pagani_dual &a) { double j = j1(a.v); return pagani_chain(a, j, j0(a.v) - (a.v != 0.0 ? j / a.v : 0.5)); }\n"
    "PAGANI_DUAL_FN pagani_dual y0(const pagani_dual &a) { return pagani_chain(a, y0(a.v), -y1(a.v)); }\n"
    "PAGANI_DUAL_FN pagani_dual y1(const pagani_dual &a) { double y = y1(a.v); return pagani_chain(a, y, y0(a.v) - y / a.v); }\n"
    "PAGANI_DUAL_FN pagani_dual jn(int k, const pagani_dual &a) { return pagani_chain(a, jn(k, a.v), k == 0 ? -j1(a.v) : 0.5 * (jn(k - 1, a.v) - jn(k + 1, a.v))); }\n"
    "PAGANI_DUAL_FN pagani_dual yn(int k, const pagani_dual &a) { return pagani_chain(a, yn(k, a.v), k == 0 ? -y1(a.v) : 0.5 * (yn(k - 1, a.v) - yn(k + 1, a.v))); }\n"
    "PAGANI_DUAL_FN pagani_dual ldexp(const pagani_dual &a, int e) { return pagani_chain(a, ldexp(a.v, e), ldexp(1.0, e)); }\n"
    "PAGANI_DUAL_FN pagani_dual scalbn(const pagani_dual &a, int e) { return pagani_chain(a, scalbn(a.v, e), scalbn(1.0, e)); }\n"
    "PAGANI_DUAL_FN pagani_dual pow(const pagani_dual &a, double b) { return pagani_chain(a, pow(a.v, b), b == 0.0 ? 0.0 : b * pow(a.v, b - 1.0)); }\n"
    "PAGANI_DUAL_FN pagani_dual pow(double a, const pagani_dual &b) { double r = pow(a, b.v); return pagani_chain(b, r, r * log(a)); }\n"
    "PAGANI_DUAL_FN pagani_dual pow(const pagani_dual &a, const pagani_dual &b)\n"
    "{ double r = pow(a.v, b.v);\n"
    "  return pagani_chain2(a, b, r, b.v == 0.0 ? 0.0 : b.v * pow(a.v, b.v - 1.0), r * log(a.v)); }\n"
    "PAGANI_DUAL_FN pagani_dual pow(const pagani_dual &a, int b) { return pow(a, (double)b); }\n"
    "PAGANI_DUAL_FN pagani_dual atan2(const pagani_dual &y, const pagani_dual &x)\n"
    "{ double q = x.v * x.v + y.v * y.v; return pagani_chain2(y, x, atan2(y.v, x.v), x.v / q, -y.v / q); }\n"
    "PAGANI_DUAL_FN pagani_dual hypot(const pagani_dual &a, const pagani_dual &b)\n"
    "{ double h = hypot(a.v, b.v); return pagani_chain2(a, b, h, h > 0.0 ? a.v / h : 0.0, h > 0.0 ? b.v / h : 0.0); }\n"
    "PAGANI_DUAL_FN pagani_dual fmin(const pagani_dual &a, const pagani_dual &b) { return b.v < a.v ? b : a; }\n"
    "PAGANI_DUAL_FN pagani_dual fmax(const pagani_dual &a, const pagani_dual &b) { return b.v > a.v ? b : a; }\n"
    "PAGANI_DUAL_FN pagani_dual fdim(const pagani_dual &a, const pagani_dual &b) { return a.v > b.v ? a - b : pagani_dual(0.0); }\n"
    "PAGANI_DUAL_FN pagani_dual fma(const pagani_dual &a, const pagani_dual &b, const pagani_dual &c) { return a * b + c; }\n";

const pagani_dual_refusal pagani_dual_refused[] = {
    {"floor", "const pagani_dual &"},
    {"ceil", "const pagani_dual &"},
    {"trunc", "const pagani_dual &"},
    {"round", "const pagani_dual &"},
    {"rint", "const pagani_dual &"},
    {"nearbyint", "const pagani_dual &"},
    {"lround", "const pagani_dual &"},
    {"llround", "const pagani_dual &"},
    {"lrint", "const pagani_dual &"},
    {"llrint", "const pagani_dual &"},
    {"logb", "const pagani_dual &"},
    {"ilogb", "const pagani_dual &"},
    {"fmod", "const pagani_dual &, const pagani_dual &"},
    {"remainder", "const pagani_dual &, const pagani_dual &"},
    {"copysign", "const pagani_dual &, const pagani_dual &"},
    {"nextafter", "const pagani_dual &, const pagani_dual &"},
    {"nexttoward", "const pagani_dual &, const pagani_dual &"},
    {"remquo", "const pagani_dual &, const pagani_dual &, int *"},
    {"modf", "const pagani_dual &, pagani_dual *"},
    {"frexp", "const pagani_dual &, int *"},
    {NULL, NULL}
};
