/*
 * test_cache.c - the on-disk cache of compiled integrands and the build of
 * a CPU object, against damaged, planted and untrusted files: an entry is
 * used only when it is a regular file of the user's, not writable by group
 * or others, whose trailer matches its key and code; a damaged or foreign
 * entry is rebuilt (the integral is right, nothing crashes); untrusted
 * folders are not used; writes never go through a planted symlink; build
 * folders do not outlive a failed or killed compilation (stale ones are
 * swept), and the compiler dies with its process; on a GPU, the same for
 * NVRTC's images and source checks (SKIP without one). Everything runs in
 * a private temporary folder; alarm() turns a hang into a failure.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "pagani.h"
#include "internal.h"
#include "jit/jit_cache.h"
#include "tap.h"

static char root[] = "/tmp/pagani-test-cache-XXXXXX";

/* root/name, in a static buffer reused after eight more calls. */
static const char *under(const char *name)
{
    static char buf[8][4096];
    static int next;
    char *s = buf[next++ % 8];
    snprintf(s, sizeof buf[0], "%s/%s", root, name);
    return s;
}

/* Entries of dir whose name starts with prefix and ends with suffix; -1
 * when dir cannot be read. The last one found goes to path, if given. */
static int count_entries(const char *dir, const char *prefix,
                         const char *suffix, char *path, size_t size)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int count = 0;
    if (!d) return -1;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name), ls = strlen(suffix);
        if (strncmp(e->d_name, prefix, strlen(prefix)) != 0 || len < ls ||
            strcmp(e->d_name + len - ls, suffix) != 0)
            continue;
        if (path) snprintf(path, size, "%s/%s", dir, e->d_name);
        count++;
    }
    closedir(d);
    return count;
}

static long long file_size(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0 ? (long long)st.st_size : -1;
}

/* Copies a file; 0 on success. */
static int copy_file(const char *from, const char *to)
{
    char buf[65536];
    size_t got;
    int ok = 1;
    FILE *in = fopen(from, "rb"), *out = in ? fopen(to, "wb") : NULL;
    while (in && out && (got = fread(buf, 1, sizeof buf, in)) > 0)
        ok &= fwrite(buf, 1, got, out) == got;
    if (in) fclose(in);
    if (out) ok &= fclose(out) == 0;
    return in && out && ok ? 0 : -1;
}

/* Sets path's times to `seconds` ago. */
static void make_old(const char *path, int seconds)
{
    struct timeval tv[2];
    gettimeofday(&tv[0], NULL);
    tv[0].tv_sec -= seconds;
    tv[1] = tv[0];
    utimes(path, tv);
}

/* Creates an executable shell script at path. */
static void write_script(const char *path, const char *text)
{
    FILE *fp = fopen(path, "w");
    if (fp) {
        fputs(text, fp);
        fclose(fp);
    }
    chmod(path, 0700);
}

/* Whether source (n = 1) compiles and computes truth(x) = x + shift at
 * x = 0.25. */
static int integrand_right(pagani_context *ctx, const char *source,
                           double shift)
{
    pagani_integrand *f = NULL;
    double x = 0.25;
    int rc = pagani_integrand_from_source(ctx, &f, 1, source, NULL, 0);
    int ok = rc == PAGANI_OK && f && f->function(&x, 1, NULL) == x + shift;
    if (rc != PAGANI_OK)
        tap_diag("%s: %s", pagani_strerror(rc), pagani_context_message(ctx));
    pagani_integrand_destroy(f);
    return ok;
}

/* Builds, with cc, a shared object at `object` whose constructor creates
 * the file `mark`; 0 on success. */
static int build_planted(const char *object, const char *mark)
{
    char cmd[9000];
    FILE *fp = fopen(under("ctor.c"), "w");
    if (!fp) return -1;
    fprintf(fp, "#include <stdio.h>\n"
            "__attribute__((constructor)) static void ran(void)\n"
            "{ FILE *f = fopen(\"%s\", \"w\"); if (f) fclose(f); }\n", mark);
    fclose(fp);
    snprintf(cmd, sizeof cmd, "cc -shared -fPIC -o '%s' '%s' 2>/dev/null",
             object, under("ctor.c"));
    return system(cmd);
}

/* Whether dir holds nothing but . and .. */
static int empty_folder(const char *dir)
{
    return count_entries(dir, "", "", NULL, 0) == 2;
}

static int remove_entry(const char *path, const struct stat *st, int flag,
                        struct FTW *ftw)
{
    (void)st; (void)flag; (void)ftw;
    return remove(path);
}

/* ---- the cache module ------------------------------------------------ */

static void test_entries(void)
{
    const char *dir = under("unit"), *path = under("unit/entry.bin");
    const char *other = under("unit/victim"), *link_path = under("unit/link");
    char code[5000], *back = NULL, tmp[4200];
    pagani_cache_key key, wrong;
    size_t size = 0;
    long long full;
    struct stat st;
    int fd, written, planted;

    for (size_t i = 0; i < sizeof code; i++) code[i] = (char)(i * 7 + 1);
    mkdir(dir, 0700);
    pagani_cache_key_init(&key);
    pagani_cache_key_add_string(&key, "some source");
    wrong = key;
    pagani_cache_key_add_string(&wrong, "");

    tap_ok(pagani_cache_write(dir, path, &key, code, sizeof code) == 0 &&
           pagani_cache_read(path, &key, &back, &size) == 1 &&
           size == sizeof code && memcmp(back, code, size) == 0 &&
           stat(path, &st) == 0 && (st.st_mode & 077) == 0 &&
           count_entries(dir, ".tmp-", "", NULL, 0) == 0,
           "cache entry: written (mode 0600, no temporary left) and read "
           "back");
    free(back);
    full = file_size(path);
    tap_ok(pagani_cache_read(path, &wrong, NULL, NULL) == 0,
           "an entry of another key is not valid");

    copy_file(path, other);
    tap_ok(truncate(path, full - 1) == 0 &&
               pagani_cache_read(path, &key, NULL, NULL) == 0,
           "an entry one byte short is not valid");
    tap_ok(truncate(path, full / 2) == 0 &&
               pagani_cache_read(path, &key, NULL, NULL) == 0,
           "an entry cut in half is not valid");
    copy_file(other, path);
    fd = open(path, O_WRONLY);
    written = fd >= 0 && pwrite(fd, "X", 1, 100) == 1;
    if (fd >= 0) close(fd);
    tap_ok(written && pagani_cache_read(path, &key, NULL, NULL) == 0,
           "an entry with one byte of code changed is not valid");

    copy_file(other, path);
    chmod(path, 0664);
    tap_ok(pagani_cache_read(path, &key, NULL, NULL) == 0,
           "a group-writable entry is not trusted");
    chmod(path, 0600);
    tap_ok(pagani_cache_read(path, &key, NULL, NULL) == 1,
           "the same entry, mode 0600, is valid");

    /* `other` holds a valid entry: only the symlink makes it invalid. */
    unlink(link_path);
    tap_ok(symlink(other, link_path) == 0 &&
               pagani_cache_read(link_path, &key, NULL, NULL) == 0,
           "a symlink to a valid entry is not followed");
    unlink(link_path);
    mkfifo(link_path, 0600);
    tap_ok(pagani_cache_read(link_path, &key, NULL, NULL) == 0,
           "a FIFO is not an entry (and does not block)");
    unlink(link_path);

    if (geteuid() == 0) {
        tap_ok(chown(other, 65534, 65534) == 0 &&
                   pagani_cache_read(other, &key, NULL, NULL) == 0,
               "a valid entry owned by another user is not trusted");
    } else {
        tap_skip("not root: cannot make a file of another user");
    }

    /* Planted symlinks, at the old predictable temporary name and at the
     * entry's own name, must not be written through. */
    unlink(other);
    copy_file(path, other);
    chmod(other, 0600);
    full = file_size(other);
    snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
    planted = symlink(other, tmp) == 0;
    unlink(path);
    planted = planted && symlink(other, path) == 0;
    tap_ok(planted && pagani_cache_write(dir, path, &wrong, "new", 3) == 0 &&
           lstat(path, &st) == 0 && S_ISREG(st.st_mode) &&
           file_size(other) == full &&
           pagani_cache_read(other, &key, NULL, NULL) == 1 &&
           pagani_cache_read(path, &wrong, NULL, NULL) == 1,
           "writing an entry replaces a planted symlink, never its target");
}

/* ---- entries of compiled integrands ---------------------------------- */

static void test_damaged(pagani_context *ctx)
{
    const long long cuts[3] = {1000, 4096, -2};
    char dir[4096], entry[4200], planted[4300];
    long long full;
    struct stat st1, st2;

    snprintf(dir, sizeof dir, "%s", under("damaged"));
    setenv("PAGANI_CACHE_DIR", dir, 1);
    integrand_right(ctx, "x[0] + 0.5", 0.5);
    full = count_entries(dir, "cpu-", ".so", entry, sizeof entry) == 1 ?
           file_size(entry) : -1;
    for (int i = 0; i < 3; i++) {
        long long cut = cuts[i] > 0 ? cuts[i] : full / 2;
        tap_ok(full > 4096 && truncate(entry, cut) == 0 &&
               integrand_right(ctx, "x[0] + 0.5", 0.5) &&
               file_size(entry) == full,
               "an entry truncated to %lld of %lld bytes is rebuilt, and the "
               "integrand is right", cut, full);
    }

    /* Another integrand's object under this name. */
    snprintf(planted, sizeof planted, "%s.other", entry);
    rename(entry, planted);
    integrand_right(ctx, "x[0] + 0.75", 0.75);
    count_entries(dir, "cpu-", ".so", planted, sizeof planted);
    copy_file(planted, entry);
    stat(entry, &st1);
    tap_ok(integrand_right(ctx, "x[0] + 0.5", 0.5) && stat(entry, &st2) == 0 &&
           st1.st_ino != st2.st_ino,
           "another integrand's object under the entry's name is not used "
           "(rebuilt, and the integrand is right)");

    /* A planted object whose constructor would show that it ran. */
    if (build_planted(entry, under("ran")) != 0) {
        tap_skip("cannot build the planted object with cc");
    } else {
        tap_ok(integrand_right(ctx, "x[0] + 0.5", 0.5) &&
               access(under("ran"), F_OK) != 0,
               "a planted object under the entry's name is not loaded (its "
               "constructor did not run)");
    }
}

/* ---- which folders are trusted --------------------------------------- */

static void test_folders(pagani_context *ctx)
{
    char fallback[4200], sub[4200];
    int planted;

    snprintf(fallback, sizeof fallback, "%s/pagani-%lu", root,
             (unsigned long)geteuid());

    mkdir(under("open"), 0700);
    chmod(under("open"), 0777);
    setenv("PAGANI_CACHE_DIR", under("open"), 1);
    tap_ok(integrand_right(ctx, "x[0] + 1.5", 1.5) &&
           empty_folder(under("open")) &&
           count_entries(fallback, "cpu-", ".so", NULL, 0) == 1,
           "a world-writable cache folder (0777) is not used: the entry "
           "goes to $TMPDIR/pagani-UID");

    mkdir(under("shared"), 0700);
    chmod(under("shared"), 01777);
    setenv("PAGANI_CACHE_DIR", under("shared"), 1);
    snprintf(sub, sizeof sub, "%s/pagani-%lu", under("shared"),
             (unsigned long)geteuid());
    tap_ok(integrand_right(ctx, "x[0] + 2.5", 2.5) &&
           count_entries(under("shared"), "cpu-", "", NULL, 0) == 0 &&
           count_entries(sub, "cpu-", ".so", NULL, 0) == 1,
           "a sticky shared folder (1777) is used through its private "
           "subfolder pagani-UID");

    mkdir(under("shared2"), 0700);
    chmod(under("shared2"), 01777);
    mkdir(under("elsewhere"), 0700);
    snprintf(sub, sizeof sub, "%s/pagani-%lu", under("shared2"),
             (unsigned long)geteuid());
    planted = symlink(under("elsewhere"), sub) == 0;
    setenv("PAGANI_CACHE_DIR", under("shared2"), 1);
    tap_ok(planted && integrand_right(ctx, "x[0] + 3.5", 3.5) &&
           empty_folder(under("elsewhere")) &&
           count_entries(fallback, "cpu-", ".so", NULL, 0) == 2,
           "a symlink planted as the private subfolder is not followed");

    /* No trusted folder at all: build in a private temporary folder. */
    setenv("PAGANI_CACHE_DIR", under("open"), 1);
    setenv("TMPDIR", under("open"), 1);
    tap_ok(integrand_right(ctx, "x[0] + 4.5", 4.5) &&
           empty_folder(under("open")),
           "with no trusted folder the integrand compiles and nothing is "
           "left behind");
    setenv("TMPDIR", root, 1);
}

/* ---- build folders --------------------------------------------------- */

static void test_builds(pagani_context *ctx)
{
    pagani_integrand *f = NULL;
    char dir[4096];
    int rc;

    snprintf(dir, sizeof dir, "%s", under("builds"));
    setenv("PAGANI_CACHE_DIR", dir, 1);
    rc = pagani_integrand_from_source(ctx, &f, 1, "x[0] +* 1", NULL, 0);
    tap_ok(rc == PAGANI_ERR_COMPILE &&
           count_entries(dir, ".build-", "", NULL, 0) == 0 &&
           count_entries(dir, "cpu-", "", NULL, 0) == 0,
           "a compile error leaves no build folder and no object");

    mkdir(under("builds/.build-stale"), 0700);
    write_script(under("builds/.build-stale/unit.c"), "x");
    make_old(under("builds/.build-stale"), 2 * PAGANI_CACHE_STALE_SECONDS);
    mkdir(under("builds/.build-fresh"), 0700);
    write_script(under("builds/.tmp-stale"), "x");
    make_old(under("builds/.tmp-stale"), 2 * PAGANI_CACHE_STALE_SECONDS);
    write_script(under("builds/.tmp-fresh"), "x");
    tap_ok(integrand_right(ctx, "x[0] + 5.5", 5.5) &&
           access(under("builds/.build-stale"), F_OK) != 0 &&
           access(under("builds/.tmp-stale"), F_OK) != 0 &&
           access(under("builds/.build-fresh"), F_OK) == 0 &&
           access(under("builds/.tmp-fresh"), F_OK) == 0,
           "a compilation sweeps build folders and temporaries older than "
           "%d s, and keeps younger ones", PAGANI_CACHE_STALE_SECONDS);
    rmdir(under("builds/.build-fresh"));
    unlink(under("builds/.tmp-fresh"));

    write_script(under("killed-cc"), "#!/bin/sh\nkill -KILL $$\n");
    setenv("PAGANI_CC", under("killed-cc"), 1);
    rc = pagani_integrand_from_source(ctx, &f, 1, "x[0] + 6.5", NULL, 0);
    unsetenv("PAGANI_CC");
    tap_ok(rc == PAGANI_ERR_SYSTEM &&
           strstr(pagani_context_message(ctx), "signal 9") &&
           count_entries(dir, ".build-", "", NULL, 0) == 0,
           "a compiler killed by a signal: PAGANI_ERR_SYSTEM naming it, no "
           "build folder left (%s)", pagani_context_message(ctx));
}

/* ---- the CUDA backend's entries (NVRTC images) ----------------------- */

/* Creates source (n = 2) on ctx and integrates it over the unit square
 * with cubature; whether the value is `truth` to 1e-10. */
static int cuda_right(pagani_context *ctx, const char *source, double truth)
{
    pagani_integrand *f = NULL;
    pagani_options opt = pagani_options_default(PAGANI_CUBATURE);
    double lo[2] = {0.0, 0.0}, hi[2] = {1.0, 1.0};
    pagani_result r;
    int rc = pagani_integrand_from_source(ctx, &f, 2, source, NULL, 0);

    opt.epsrel = 1e-10;
    if (rc == PAGANI_OK) rc = pagani_integrate(ctx, f, lo, hi, &opt, &r);
    if (rc != PAGANI_OK)
        tap_diag("%s: %s", pagani_strerror(rc), pagani_context_message(ctx));
    pagani_integrand_destroy(f);
    return rc == PAGANI_OK && fabs(r.value - truth) <= 1e-10 * truth;
}

/* The same checks of entries, and of source, on the GPU (SKIP without). */
static void test_cuda(void)
{
    const char *a = "x[0] * x[1]", *b = "x[0] + x[1]";
    pagani_context *ctx = NULL;
    pagani_integrand *f = (pagani_integrand *)&f;
    char dir[4096], entry[4200], other[4300];
    long long full;
    struct stat st;
    int rc = pagani_context_create(&ctx, PAGANI_BACKEND_CUDA);

    if (rc != PAGANI_OK) {
        tap_skip("no CUDA backend here (%s)", pagani_strerror(rc));
        pagani_context_destroy(ctx);
        return;
    }
    snprintf(dir, sizeof dir, "%s", under("cuda"));
    setenv("PAGANI_CACHE_DIR", dir, 1);
    tap_ok(cuda_right(ctx, a, 0.25) &&
           count_entries(dir, "cuda-", ".bin", entry, sizeof entry) == 1,
           "CUDA: an integrand compiles, integrates, and is cached");
    full = file_size(entry);
    tap_ok(truncate(entry, full / 2) == 0 && cuda_right(ctx, a, 0.25) &&
               file_size(entry) == full,
           "CUDA: an entry cut in half is rebuilt, and the integral is right");
    snprintf(other, sizeof other, "%s.a", entry);
    rename(entry, other);
    cuda_right(ctx, b, 1.0);
    count_entries(dir, "cuda-", ".bin", entry, sizeof entry);
    rename(other, entry); /* a's image under b's name */
    chmod(entry, 0600);
    tap_ok(cuda_right(ctx, b, 1.0),
           "CUDA: another integrand's image under the entry's name is not "
           "used");
    chmod(entry, 0666);
    tap_ok(cuda_right(ctx, b, 1.0) && stat(entry, &st) == 0 &&
           (st.st_mode & 022) == 0,
           "CUDA: a world-writable entry is not trusted (rebuilt)");

    rc = pagani_integrand_from_source(ctx, &f, 2, "if (x[0] > 2) return 1;",
                                      NULL, 0);
    tap_ok(rc == PAGANI_ERR_COMPILE && f == NULL &&
           strstr(pagani_context_message(ctx), "missing return"),
           "CUDA: a path without a return value does not compile (%s)",
           pagani_context_message(ctx));
    rc = pagani_integrand_from_source(ctx, &f, 2, "double s;\n"
                                      "return s + x[0];", NULL, 0);
    tap_ok(rc == PAGANI_ERR_COMPILE &&
           strstr(pagani_context_message(ctx), "integrand(2)"),
           "CUDA: a variable read before it is set does not compile");
    rc = pagani_integrand_from_source(ctx, &f, 2, "p[0] * x[2]", NULL, 0);
    tap_ok(rc == PAGANI_ERR_COMPILE,
           "CUDA: x[2] with n = 2 is refused as on the CPU");
    rc = pagani_integrand_from_source(ctx, &f, 2, "p[0] * x[0]", NULL, 0);
    tap_ok(rc == PAGANI_ERR_PARAMS,
           "CUDA: p with no parameter block is refused as on the CPU");
    pagani_context_destroy(ctx);
}

/* Whether process pid has ended (gone, or a zombie). */
static int process_ended(pid_t pid)
{
    char path[64], state = '?';
    FILE *fp;
    snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
    if (!(fp = fopen(path, "r"))) return kill(pid, 0) != 0;
    if (fscanf(fp, "%*d (%*[^)]) %c", &state) != 1) state = '?';
    fclose(fp);
    return state == 'Z' || state == 'X';
}

/* A compiler outlives no process: kill the process that runs it. */
static void test_orphan(void)
{
#ifdef __linux__
    char script[8400];
    pid_t child, cc = 0;
    FILE *fp;
    int waited;

    snprintf(script, sizeof script, "#!/bin/sh\necho $$ > %s.tmp\n"
             "mv %s.tmp %s\nexec sleep 60\n", under("cc-pid"),
             under("cc-pid"), under("cc-pid"));
    write_script(under("sleepy-cc"), script);
    child = fork();
    if (child == 0) {
        pagani_context *ctx = NULL;
        pagani_integrand *f = NULL;
        setenv("PAGANI_CC", under("sleepy-cc"), 1);
        setenv("PAGANI_CACHE_DIR", under("orphan"), 1);
        pagani_context_create(&ctx, PAGANI_BACKEND_CPU);
        pagani_integrand_from_source(ctx, &f, 1, "x[0]", NULL, 0);
        _exit(0);
    }
    for (waited = 0; waited < 200 && !cc; waited++) {
        usleep(50000);
        if ((fp = fopen(under("cc-pid"), "r"))) {
            long pid = 0;
            if (fscanf(fp, "%ld", &pid) == 1) cc = (pid_t)pid;
            fclose(fp);
        }
    }
    if (child > 0) {
        kill(child, SIGKILL);
        waitpid(child, NULL, 0);
    }
    for (waited = 0; cc > 0 && waited < 100 && !process_ended(cc); waited++)
        usleep(50000);
    tap_ok(cc > 0 && process_ended(cc),
           "the compiler dies with the process that started it (pid %ld)",
           (long)cc);
    if (cc > 0 && !process_ended(cc)) kill(cc, SIGKILL);
#else
    tap_skip("PR_SET_PDEATHSIG is Linux only");
#endif
}

int main(void)
{
    pagani_context *ctx = NULL;
    int rc;

    alarm(tap_hang_seconds()); /* a hang fails the test instead of stalling
                                  the suite */
    if (!mkdtemp(root)) return tap_skip_all("cannot create a temp dir");
    setenv("TMPDIR", root, 1);
    unsetenv("PAGANI_CC");

    test_orphan(); /* first: it forks, and no threads are running yet */
    test_entries();
    rc = pagani_context_create(&ctx, PAGANI_BACKEND_CPU);
    tap_ok(rc == PAGANI_OK && ctx, "CPU context");
    if (rc == PAGANI_OK) {
        test_damaged(ctx);
        test_folders(ctx);
        test_builds(ctx);
    }
    pagani_context_destroy(ctx);
    test_cuda();
    nftw(root, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    tap_done();
    return tap_exit_code();
}
