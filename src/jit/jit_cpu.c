/*
 * jit_cpu.c - run-time compilation of integrand source for the CPU: the
 * system C compiler builds a shared object, which is cached on disk under a
 * hash of everything that determines it and then loaded with dlopen.
 *
 * Concurrency: each build happens in a private directory (mkdtemp) and its
 * product is moved into place with rename(), which is atomic, so processes
 * sharing a cache never see a half-written object. The compiler runs with
 * posix_spawn, its output going to a log file: the library prints nothing.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>
#include "jit/jit_cpu.h"
#include "jit/source_env.h"

#ifndef PAGANI_DEFAULT_CC
#define PAGANI_DEFAULT_CC "cc"
#endif

extern char **environ;

#define STR_(x) #x
#define STR(x) STR_(x)
#define LIBRARY_VERSION STR(PAGANI_VERSION_MAJOR) "." \
    STR(PAGANI_VERSION_MINOR) "." STR(PAGANI_VERSION_PATCH)

/* Flags between the compiler's name and "-o"; part of the cache key. */
static const char *const cc_flags[] = {
    "-O2", "-fPIC", "-shared", "-std=gnu99", "-fno-math-errno"
};
#define N_FLAGS (sizeof cc_flags / sizeof cc_flags[0])
#define MAX_CC_WORDS 32
#define MAX_LOG 16384

unsigned long long pagani_hash64(unsigned long long hash, const void *data,
                                 size_t size)
{
    const unsigned char *b = data;
    for (size_t i = 0; i < size; i++) {
        hash ^= b[i];
        hash *= 0x100000001b3ULL;
    }
    return hash;
}

/* A malloc'd "a" "b" "c" (b and c may be ""). */
static char *join(const char *a, const char *b, const char *c)
{
    size_t la = strlen(a), lb = strlen(b), lc = strlen(c);
    char *s = malloc(la + lb + lc + 1);
    if (!s) return NULL;
    memcpy(s, a, la);
    memcpy(s + la, b, lb);
    memcpy(s + la + lb, c, lc + 1);
    return s;
}

/* mkdir -p (mode 0700 for what it creates); then whether we can write. */
static int writable_dir(char *path)
{
    for (char *s = path + 1; *s; s++) {
        if (*s != '/') continue;
        *s = '\0';
        mkdir(path, 0700);
        *s = '/';
    }
    mkdir(path, 0700);
    return access(path, W_OK | X_OK) == 0;
}

/* $TMPDIR/pagani-UID, accepted only when it is a directory of ours that no
 * one else can write (others could plant objects we would load). */
static char *private_temp_dir(void)
{
    const char *tmp = getenv("TMPDIR");
    char name[64];
    struct stat st;
    char *dir;

    snprintf(name, sizeof name, "/pagani-%lu", (unsigned long)getuid());
    dir = join(tmp && *tmp ? tmp : "/tmp", name, "");
    if (!dir) return NULL;
    mkdir(dir, 0700);
    if (lstat(dir, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == getuid() &&
        (st.st_mode & 022) == 0 && access(dir, W_OK | X_OK) == 0)
        return dir;
    free(dir);
    return NULL;
}

char *pagani_cache_dir(pagani_context *ctx)
{
    const char *env = getenv("PAGANI_CACHE_DIR");
    char *dir = NULL;

    if (env && *env) dir = join(env, "", "");
    else if ((env = getenv("XDG_CACHE_HOME")) && *env)
        dir = join(env, "/pagani", "");
    else if ((env = getenv("HOME")) && *env)
        dir = join(env, "/.cache/pagani", "");
    if (dir && writable_dir(dir)) return dir;
    free(dir);
    if ((dir = private_temp_dir())) return dir;
    pagani_fail(ctx, PAGANI_ERR_SYSTEM, "no writable cache directory for "
                "compiled integrands (set PAGANI_CACHE_DIR)");
    return NULL;
}

/* Splits the compiler command (PAGANI_CC may be "ccache gcc -m64") into
 * words in buf; returns the word count, 0 when empty or too long. */
static int split_words(char *buf, char **words)
{
    int count = 0;
    for (char *s = strtok(buf, " \t"); s; s = strtok(NULL, " \t")) {
        if (count == MAX_CC_WORDS) return 0;
        words[count++] = s;
    }
    return count;
}

/* The key of the cached object: unit, compiler, flags, library version
 * and machine, each followed by a NUL so that fields cannot run together. */
static unsigned long long cache_key(const char *unit, const char *cc)
{
    struct utsname u;
    unsigned long long h = PAGANI_HASH64_INIT;
    h = pagani_hash64(h, unit, strlen(unit) + 1);
    h = pagani_hash64(h, cc, strlen(cc) + 1);
    for (size_t i = 0; i < N_FLAGS; i++)
        h = pagani_hash64(h, cc_flags[i], strlen(cc_flags[i]) + 1);
    h = pagani_hash64(h, LIBRARY_VERSION, sizeof LIBRARY_VERSION);
    if (uname(&u) == 0) h = pagani_hash64(h, u.machine, strlen(u.machine) + 1);
    return h;
}

static int write_file(const char *path, const char *text)
{
    size_t len = strlen(text);
    FILE *fp = fopen(path, "w");
    if (!fp) return -1;
    if (fwrite(text, 1, len, fp) != len) {
        fclose(fp);
        return -1;
    }
    return fclose(fp) == 0 ? 0 : -1;
}

/* The first MAX_LOG bytes of a file, malloc'd and NUL-terminated. */
static char *read_log(const char *path)
{
    char *log = calloc(MAX_LOG + 1, 1);
    FILE *fp = fopen(path, "r");
    size_t len = 0;
    if (log && fp) len = fread(log, 1, MAX_LOG, fp);
    if (fp) fclose(fp);
    while (log && len > 0 && (log[len - 1] == '\n' || log[len - 1] == ' '))
        log[--len] = '\0';
    return log;
}

/* Runs argv with stdout and stderr into log_path; returns the exit status
 * (>= 0), or -1 with errno set when it could not run or was killed. */
static int run_logged(char *const argv[], const char *log_path)
{
    posix_spawn_file_actions_t fa;
    pid_t pid;
    int status, err;
    int fd = open(log_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

    if (fd < 0) return -1;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, fd, 1);
    posix_spawn_file_actions_adddup2(&fa, fd, 2);
    err = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fd);
    if (err) {
        errno = err;
        return -1;
    }
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return -1;
    if (!WIFEXITED(status)) {
        errno = EINTR;
        return -1;
    }
    return WEXITSTATUS(status);
}

/* Compiles unit into `target` (renamed into place). */
static int build(pagani_context *ctx, const char *dir, const char *unit,
                 char *cc, const char *target)
{
    char *tmp = join(dir, "/.build-XXXXXX", "");
    char *src = NULL, *obj = NULL, *log = NULL, *argv[MAX_CC_WORDS + N_FLAGS + 5];
    int rc = PAGANI_ERR_NO_MEMORY, words, exit_code;
    char *cc_name = join(cc, "", "");

    if (!tmp || !cc_name) goto done;
    if (!mkdtemp(tmp)) {
        rc = pagani_fail(ctx, PAGANI_ERR_SYSTEM, "cannot create a build "
                         "directory in %s: %s", dir, strerror(errno));
        goto done;
    }
    src = join(tmp, "/unit.c", "");
    obj = join(tmp, "/unit.so", "");
    log = join(tmp, "/unit.log", "");
    if (!src || !obj || !log) goto cleanup;
    if (write_file(src, unit) != 0) {
        rc = pagani_fail(ctx, PAGANI_ERR_SYSTEM, "cannot write %s: %s", src,
                         strerror(errno));
        goto cleanup;
    }
    words = split_words(cc, argv);
    if (words == 0) {
        rc = pagani_fail(ctx, PAGANI_ERR_SYSTEM, "the C compiler command "
                         "\"%s\" is empty or too long (PAGANI_CC)", cc_name);
        goto cleanup;
    }
    for (size_t i = 0; i < N_FLAGS; i++) argv[words++] = (char *)cc_flags[i];
    argv[words++] = "-o";
    argv[words++] = obj;
    argv[words++] = src;
    argv[words++] = "-lm";
    argv[words] = NULL;

    exit_code = run_logged(argv, log);
    if (exit_code < 0) {
        rc = pagani_fail(ctx, PAGANI_ERR_SYSTEM, "cannot run the C compiler "
                         "\"%s\": %s (set PAGANI_CC)", cc_name, strerror(errno));
    } else if (exit_code != 0) {
        char *text = read_log(log);
        if (exit_code == 127 && text && !text[0]) /* exec failed in the child */
            rc = pagani_fail(ctx, PAGANI_ERR_SYSTEM, "cannot run the C "
                             "compiler \"%s\" (set PAGANI_CC)", cc_name);
        else
            rc = pagani_fail(ctx, PAGANI_ERR_COMPILE, "integrand source did "
                             "not compile (%s):\n%s", cc_name,
                             text ? text : "");
        free(text);
    } else if (rename(obj, target) != 0) {
        rc = pagani_fail(ctx, PAGANI_ERR_SYSTEM, "cannot move the compiled "
                         "integrand to %s: %s", target, strerror(errno));
    } else {
        rc = PAGANI_OK;
    }
cleanup:
    if (src) unlink(src);
    if (obj) unlink(obj);
    if (log) unlink(log);
    rmdir(tmp);
done:
    if (rc == PAGANI_ERR_NO_MEMORY)
        pagani_fail(ctx, rc, "out of memory compiling an integrand");
    free(tmp);
    free(src);
    free(obj);
    free(log);
    free(cc_name);
    return rc;
}

/* dlopen + dlsym; returns 0, or -1 with the reason in ctx's message. */
static int open_object(pagani_context *ctx, const char *path, void **module,
                       pagani_function *entry)
{
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    void *sym;
    if (!handle) {
        const char *why = dlerror();
        pagani_fail(ctx, PAGANI_ERR_SYSTEM, "cannot load %s: %s", path,
                    why ? why : "unknown error");
        return -1;
    }
    sym = dlsym(handle, PAGANI_HOST_ENTRY);
    if (!sym) {
        pagani_fail(ctx, PAGANI_ERR_SYSTEM, "%s has no " PAGANI_HOST_ENTRY,
                    path);
        dlclose(handle);
        return -1;
    }
    *module = handle;
    /* POSIX guarantees object and function pointers convert (dlsym). */
    memcpy(entry, &sym, sizeof *entry);
    return 0;
}

int pagani_jit_cpu_load(pagani_context *ctx, const char *unit, void **module,
                        pagani_function *entry)
{
    const char *env = getenv("PAGANI_CC");
    char *cc = join(env && *env ? env : PAGANI_DEFAULT_CC, "", "");
    char *dir = NULL, *target = NULL, name[40];
    int rc;

    *module = NULL;
    *entry = NULL;
    if (!cc) return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "out of memory");
    dir = pagani_cache_dir(ctx);
    if (!dir) {
        free(cc);
        return PAGANI_ERR_SYSTEM;
    }
    snprintf(name, sizeof name, "/cpu-%016llx.so", cache_key(unit, cc));
    target = join(dir, name, "");
    if (!target) {
        rc = pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "out of memory");
    } else if (access(target, R_OK) == 0 &&
               open_object(ctx, target, module, entry) == 0) {
        rc = PAGANI_OK; /* cache hit */
    } else {
        /* A miss, or a cached object that would not load: (re)build. */
        rc = build(ctx, dir, unit, cc, target);
        if (rc == PAGANI_OK && open_object(ctx, target, module, entry) != 0)
            rc = PAGANI_ERR_SYSTEM;
    }
    if (rc == PAGANI_OK) pagani_clear_message(ctx);
    free(cc);
    free(dir);
    free(target);
    return rc;
}

void pagani_jit_cpu_unload(void *module)
{
    if (module) dlclose(module);
}
