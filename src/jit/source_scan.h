/*
 * source_scan.h - what the library checks in integrand source before it
 * compiles or runs it, the same for every backend.
 *
 * pagani_source_scan reads the source as C tokens (line splices joined,
 * comments and string and character literals skipped) and follows C's
 * scopes far enough to tell a name the source declares from the names
 * the environment gives it (x, p, params, and f in a vector form): a
 * local `double p = 1;` (in any block, a for header included) hides the
 * parameter block until its block ends, and a member (s.p, s->p, a
 * designator .p) is never it. Where the scan cannot follow the code (a
 * declaration hidden in a macro, a for body without braces after its
 * first statement) it takes a name for the environment's: it may refuse
 * valid source, never let a read of a missing block through.
 */
#ifndef PAGANI_SOURCE_SCAN_H
#define PAGANI_SOURCE_SCAN_H

/* What pagani_source_scan found; lines count from 1 in the user's text,
 * 0 meaning "nowhere". */
typedef struct pagani_source_facts {
    int is_body;            /* names `return`: a function body */
    int params_line;        /* first line that reads the environment's p
                               or params */
    int bad_x_line;         /* first x[K] with K outside 0..n-1 ... */
    long long bad_x;        /* ... and its K */
    int p_line;             /* the literal p[K] that needs the largest
                               block (the first negative K, if any) ... */
    long long p_index;      /* ... and its K */
    int bad_f_line;         /* vector forms: first f[K] with K outside */
    long long bad_f;        /* 0..ncomp-1, and its K */
    int include_line;       /* first directive that reads a file:
                               #include, #include_next, #import, #embed,
                               #pragma GCC dependency */
    int statement_line;     /* first declaration or statement of a source
                               without `return` (no longer one
                               expression), 0 for a body */
} pagani_source_facts;

/* Scans source for an integrand of n coordinates (ncomp: 0 for the scalar
 * form, else the vector form's components, whose f[K] is checked). Only
 * literal indices count (x[2], p [0x1]). Returns 0, or -1 when memory ran
 * out. */
int pagani_source_scan(const char *source, int n, int ncomp,
                       pagani_source_facts *facts);

#endif /* PAGANI_SOURCE_SCAN_H */
