/*
 * test_compiler.c - the C compiler that integrand source runs: its whole
 * process tree (cc and cc1) dies with the process that started it, and
 * its memory and CPU time are bounded (PAGANI_CC_MEMORY,
 * PAGANI_CC_SECONDS), with the limit named when it stopped a compile.
 * Runs in a private cache directory.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "pagani.h"
#include "tap.h"

/* Source whose preprocessing takes cc1 hours of CPU time: the #if
 * expression expands to 2^40 terms. With -ftrack-macro-expansion=0 GCC
 * keeps no record of each expansion, so its memory stays small (about
 * 20 MB) while it runs. */
static char slow_source[2048];
#define SLOW_CC "cc -ftrack-macro-expansion=0"

/* Source whose compilation needs about 450 MB (an array of 2^20 doubles
 * written out by the preprocessor). */
static char big_source[2048];

static void make_sources(void)
{
    size_t at = 0;
    at += (size_t)snprintf(slow_source + at, sizeof slow_source - at,
                           "#define A0 1\n");
    for (int k = 1; k <= 40; k++)
        at += (size_t)snprintf(slow_source + at, sizeof slow_source - at,
                               "#define A%d (A%d + A%d)\n", k, k - 1, k - 1);
    snprintf(slow_source + at, sizeof slow_source - at,
             "#if A40\n#endif\nreturn x[0];\n");
    at = (size_t)snprintf(big_source, sizeof big_source, "#define B0 1.0\n");
    for (int k = 1; k <= 20; k++)
        at += (size_t)snprintf(big_source + at, sizeof big_source - at,
                               "#define B%d B%d, B%d\n", k, k - 1, k - 1);
    snprintf(big_source + at, sizeof big_source - at,
             "static const double t[] = {B20};\nreturn t[12345] * x[0];\n");
}

/* One process as /proc/PID/stat shows it. */
typedef struct proc_info {
    pid_t pid, ppid, pgrp;
    char comm[32], state;
} proc_info;

/* Every process (up to max) into procs; the count. */
static int list_processes(proc_info *procs, int max)
{
    DIR *d = opendir("/proc");
    struct dirent *e;
    int count = 0;
    if (!d) return 0;
    while (count < max && (e = readdir(d))) {
        char path[300];
        FILE *fp;
        proc_info *p = &procs[count];
        long pid, ppid, pgrp;
        if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
        snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        if (!(fp = fopen(path, "r"))) continue;
        if (fscanf(fp, "%ld (%31[^)]) %c %ld %ld", &pid, p->comm, &p->state,
                   &ppid, &pgrp) == 5) {
            p->pid = (pid_t)pid;
            p->ppid = (pid_t)ppid;
            p->pgrp = (pid_t)pgrp;
            count++;
        }
        fclose(fp);
    }
    closedir(d);
    return count;
}

/* Whether procs[i] descends from ancestor. */
static int descends(const proc_info *procs, int count, int i, pid_t ancestor)
{
    for (int depth = 0; depth < 64; depth++) {
        pid_t parent = procs[i].ppid;
        if (parent == ancestor) return 1;
        for (i = 0; i < count && procs[i].pid != parent; i++)
            ;
        if (i == count) return 0;
    }
    return 0;
}

/* Whether pid is gone or a zombie. */
static int process_ended(pid_t pid)
{
    char path[64], state = '?';
    FILE *fp;
    snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
    if (!(fp = fopen(path, "r"))) return 1;
    if (fscanf(fp, "%*d (%*[^)]) %c", &state) != 1) state = '?';
    fclose(fp);
    return state == 'Z' || state == 'X';
}

/* Live processes (not zombies) of process group pgrp. */
static int live_in_group(proc_info *procs, int max, pid_t pgrp)
{
    int count = list_processes(procs, max), live = 0;
    for (int i = 0; i < count; i++)
        if (procs[i].pgrp == pgrp && procs[i].state != 'Z') live++;
    return live;
}

#define MAX_PROCS 65536
#define MAX_TREE 64

/* A child process compiles slow source; once cc1 runs, the child is
 * killed with SIGKILL: every process of the compiler's tree ends (within
 * a bound that only a survivor reaches: cc1 alone would run for hours). */
static void test_dies_with_caller(void)
{
    static proc_info procs[MAX_PROCS];
    pid_t tree[MAX_TREE], cc1 = 0, group = 0, child;
    int ntree = 0, waited, survivors = 0;

    child = fork();
    if (child == 0) {
        pagani_context *ctx = NULL;
        pagani_integrand *f = NULL;
        setenv("PAGANI_CC", SLOW_CC, 1);
        setenv("PAGANI_CC_SECONDS", "3600", 1);
        pagani_context_create(&ctx, PAGANI_BACKEND_CPU);
        pagani_integrand_from_source(ctx, &f, 1, slow_source, NULL, 0);
        _exit(0);
    }
    /* Up to 5 minutes for the compiler to start on a loaded machine. */
    for (waited = 0; child > 0 && !cc1 && waited < 6000; waited++) {
        int count = list_processes(procs, MAX_PROCS);
        for (int i = 0; i < count; i++) {
            if (!descends(procs, count, i, child)) continue;
            if (strcmp(procs[i].comm, "cc1") == 0) {
                cc1 = procs[i].pid;
                group = procs[i].pgrp;
            }
        }
        if (cc1)
            for (int i = 0; i < count && ntree < MAX_TREE; i++)
                if (descends(procs, count, i, child)) tree[ntree++] = procs[i].pid;
        if (!cc1) usleep(50000);
    }
    if (child > 0) {
        kill(child, SIGKILL);
        waitpid(child, NULL, 0);
    }
    if (!cc1) {
        tap_skip("no cc1 appeared under the compiling process (cc is not "
                 "GCC?)");
        return;
    }
    tap_ok(group != getpgrp(), "the compiler runs in a process group of its "
           "own (%ld; the caller's is %ld)", (long)group, (long)getpgrp());
    /* A minute: the group is killed at once, cc1 alone would run on. */
    for (waited = 0; waited < 1200; waited++) {
        survivors = 0;
        for (int i = 0; i < ntree; i++) survivors += !process_ended(tree[i]);
        if (group != getpgrp())
            survivors += live_in_group(procs, MAX_PROCS, group);
        if (!survivors) break;
        usleep(50000);
    }
    tap_ok(survivors == 0, "SIGKILL of the caller ends the compiler's whole "
           "tree (%d processes, cc1 %ld): %d survive", ntree, (long)cc1,
           survivors);
    for (int i = 0; i < ntree; i++)
        if (!process_ended(tree[i])) kill(tree[i], SIGKILL);
}

/* Compiles source with the given limits (NULL: the default); its code. */
static int compile_with(pagani_context *ctx, const char *source,
                        const char *cc, const char *memory,
                        const char *seconds)
{
    pagani_integrand *f = NULL;
    int rc;
    setenv("PAGANI_CC", cc, 1);
    if (memory) setenv("PAGANI_CC_MEMORY", memory, 1);
    if (seconds) setenv("PAGANI_CC_SECONDS", seconds, 1);
    rc = pagani_integrand_from_source(ctx, &f, 1, source, NULL, 0);
    pagani_integrand_destroy(f);
    unsetenv("PAGANI_CC");
    unsetenv("PAGANI_CC_MEMORY");
    unsetenv("PAGANI_CC_SECONDS");
    return rc;
}

/* A compile stopped by a limit: PAGANI_ERR_COMPILE, and the message
 * names the variable and the limit. */
static void check_stopped(pagani_context *ctx, int rc, const char *variable,
                          const char *limit, const char *name)
{
    const char *msg = pagani_context_message(ctx);
    if (!tap_ok(rc == PAGANI_ERR_COMPILE && strstr(msg, variable) &&
                strstr(msg, limit), "%s: PAGANI_ERR_COMPILE naming the "
                "limit", name))
        tap_diag("rc %d: %s", rc, msg);
}

static void test_limits(pagani_context *ctx)
{
    int rc;

    rc = compile_with(ctx, slow_source, SLOW_CC, NULL, "1");
    check_stopped(ctx, rc, "PAGANI_CC_SECONDS", "CPU time limit of 1 s",
                  "PAGANI_CC_SECONDS=1 stops an endless compile");
    rc = compile_with(ctx, "x[0] * 0.25", "cc", "256", NULL);
    if (!tap_ok(rc == PAGANI_OK, "PAGANI_CC_MEMORY=256 leaves room for a "
                "small integrand"))
        tap_diag("rc %d: %s", rc, pagani_context_message(ctx));
    rc = compile_with(ctx, big_source, "cc", "256", NULL);
    check_stopped(ctx, rc, "PAGANI_CC_MEMORY", "memory limit of 256 MiB",
                  "PAGANI_CC_MEMORY=256 stops a compile that needs 450 MB");

    rc = compile_with(ctx, "x[0] * 0.5", "cc", "2G", NULL);
    tap_ok(rc == PAGANI_ERR_OPTION &&
           strstr(pagani_context_message(ctx), "PAGANI_CC_MEMORY = \"2G\""),
           "PAGANI_CC_MEMORY=2G: PAGANI_ERR_OPTION naming it");
    rc = compile_with(ctx, "x[0] * 0.75", "cc", NULL, "-1");
    tap_ok(rc == PAGANI_ERR_OPTION &&
           strstr(pagani_context_message(ctx), "PAGANI_CC_SECONDS"),
           "PAGANI_CC_SECONDS=-1: PAGANI_ERR_OPTION naming it");
}

static int remove_entry(const char *path, const struct stat *st, int flag,
                        struct FTW *ftw)
{
    (void)st; (void)flag; (void)ftw;
    return remove(path);
}

int main(void)
{
    char root[] = "/tmp/pagani-test-compiler-XXXXXX", cache[4096];
    pagani_context *ctx = NULL;
    int rc;

    alarm(900); /* a hang fails the test instead of stalling the suite */
    if (!mkdtemp(root)) return tap_skip_all("cannot create a temp dir");
    snprintf(cache, sizeof cache, "%s/cache", root);
    setenv("PAGANI_CACHE_DIR", cache, 1);
    setenv("TMPDIR", root, 1);
    unsetenv("PAGANI_CC_MEMORY");
    unsetenv("PAGANI_CC_SECONDS");
    make_sources();

#ifdef __linux__
    test_dies_with_caller(); /* first: it forks, and no threads run yet */
#else
    tap_skip("the compiler follows its caller's death on Linux only");
#endif
    rc = pagani_context_create(&ctx, PAGANI_BACKEND_CPU);
    tap_ok(rc == PAGANI_OK && ctx, "CPU context");
    if (rc == PAGANI_OK) test_limits(ctx);
    pagani_context_destroy(ctx);
    nftw(root, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    tap_done();
    return tap_exit_code();
}
