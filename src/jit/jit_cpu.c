/*
 * jit_cpu.c - run-time compilation of integrand source for the CPU: the
 * system C compiler builds a shared object in a private build folder; the
 * object is loaded with dlopen and kept in the on-disk cache (jit_cache.h)
 * under a key of everything that determines it.
 *
 * The compiler runs as a child process (fork, then execve) whose output
 * goes to a log file: the library prints nothing. On Linux the child asks
 * for SIGKILL when its parent dies (PR_SET_PDEATHSIG), so it never
 * outlives the process, which posix_spawn cannot arrange; between fork
 * and execve it makes async-signal-safe calls only. Every way out of a
 * build removes its build folder; one left by a killed process is swept
 * by a later compilation (jit_cache.h).
 */
#define _GNU_SOURCE /* pipe2 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include "jit/jit_cache.h"
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

/* Flags between the compiler's name and "-o"; part of the cache key. The
 * warnings made errors are those of code that would run wrong: a path
 * without a return value, an undeclared (say, misspelt) function, a
 * constant index past x[n-1] (source_env.h), a variable read before it is
 * set. -z defs makes an undefined symbol a link error here, not a dlopen
 * failure later. */
static const char *const cc_flags[] = {
    "-O2", "-fPIC", "-shared", "-std=gnu99", "-fno-math-errno",
    "-Werror=return-type", "-Werror=implicit-function-declaration",
    "-Werror=implicit-int", "-Werror=array-bounds", "-Werror=uninitialized",
    "-Wl,-z,defs"
};
#define N_FLAGS (sizeof cc_flags / sizeof cc_flags[0])
#define MAX_CC_WORDS 32
#define MAX_LOG 16384
#define MAX_OBJECT (1 << 30)

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
 * and machine. */
static pagani_cache_key cache_key(const char *unit, const char *cc)
{
    struct utsname u;
    pagani_cache_key key;
    pagani_cache_key_init(&key);
    pagani_cache_key_add_string(&key, unit);
    pagani_cache_key_add_string(&key, cc);
    for (size_t i = 0; i < N_FLAGS; i++)
        pagani_cache_key_add_string(&key, cc_flags[i]);
    pagani_cache_key_add_string(&key, LIBRARY_VERSION);
    if (uname(&u) == 0) pagani_cache_key_add_string(&key, u.machine);
    return key;
}

/* Creates path (which must not exist) holding text; 0, or -1 with errno. */
static int write_new_file(const char *path, const char *text)
{
    size_t len = strlen(text);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    int err;
    if (fd < 0) return -1;
    if (write(fd, text, len) == (ssize_t)len) return close(fd);
    err = errno;
    close(fd);
    errno = err ? err : EIO;
    return -1;
}

/* Up to max bytes of the file at path, malloc'd and NUL-terminated, their
 * count in *size (if size is not NULL); NULL when it cannot be read. */
static char *read_file(const char *path, size_t max, size_t *size)
{
    FILE *fp = fopen(path, "rb");
    struct stat st;
    char *text = NULL;
    size_t len = 0;

    if (!fp) return NULL;
    if (fstat(fileno(fp), &st) == 0) {
        size_t want = (unsigned long long)st.st_size < max ?
                      (size_t)st.st_size : max;
        if ((text = malloc(want + 1))) {
            len = fread(text, 1, want, fp);
            text[len] = '\0';
        }
    }
    fclose(fp);
    if (text && size) *size = len;
    return text;
}

/* The program that runs `name`: name itself when it holds a '/', else the
 * first executable regular file of that name in $PATH. malloc'd; NULL
 * with errno set (ENOENT: none) otherwise. */
static char *find_program(const char *name)
{
    const char *dirs = getenv("PATH");
    struct stat st;

    if (strchr(name, '/')) return strdup(name);
    if (!dirs || !*dirs) dirs = "/usr/local/bin:/usr/bin:/bin";
    while (*dirs) {
        size_t len = strcspn(dirs, ":");
        char *dir = len ? strndup(dirs, len) : strdup(".");
        char *file = dir ? pagani_path_join(dir, "/", name) : NULL;
        free(dir);
        if (!file) {
            errno = ENOMEM;
            return NULL;
        }
        if (stat(file, &st) == 0 && S_ISREG(st.st_mode) &&
            access(file, X_OK) == 0)
            return file;
        free(file);
        dirs += len;
        if (*dirs == ':') dirs++;
    }
    errno = ENOENT;
    return NULL;
}

/* The child's side of run_logged: dies with its parent (on Linux), takes
 * back the default handling of the signals its parent catches and an
 * empty signal mask, reads /dev/null and writes the log, and runs
 * program; when execve fails its errno goes to `report`. Only
 * async-signal-safe calls. */
static void exec_child(const char *program, char *const argv[], int null_fd,
                       int log_fd, int report, pid_t parent,
                       const struct sigaction *default_action)
{
    sigset_t none;
    int err;

#ifdef __linux__
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
        _exit(127);
#else
    (void)parent;
#endif
    for (int sig = 1; sig < NSIG; sig++) {
        struct sigaction now;
        if (sigaction(sig, NULL, &now) == 0 && now.sa_handler != SIG_IGN)
            sigaction(sig, default_action, NULL);
    }
    sigemptyset(&none);
    pthread_sigmask(SIG_SETMASK, &none, NULL);
    if (dup2(null_fd, 0) >= 0 && dup2(log_fd, 1) >= 0 && dup2(log_fd, 2) >= 0)
        execve(program, argv, environ);
    err = errno;
    (void)!write(report, &err, sizeof err);
    _exit(127);
}

/* Runs program (argv) with stdin from /dev/null and stdout and stderr into
 * log_path, a new file, and waits for it: 0 with its wait status in
 * *status, or -1 with errno set when it could not be started (execve's
 * errno included) or waited for. Signals are blocked around fork, so that
 * no handler of the caller's runs in the child. */
static int run_logged(const char *program, char *const argv[],
                      const char *log_path, int *status)
{
    struct sigaction default_action;
    sigset_t all, old;
    pid_t parent = getpid(), pid = -1;
    int null_fd, log_fd, report[2] = {-1, -1}, child_err = 0, err = 0;
    ssize_t got;

    memset(&default_action, 0, sizeof default_action);
    default_action.sa_handler = SIG_DFL;
    null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    log_fd = open(log_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (null_fd < 0 || log_fd < 0 || pipe2(report, O_CLOEXEC) != 0) {
        err = errno;
    } else {
        sigfillset(&all);
        pthread_sigmask(SIG_SETMASK, &all, &old);
        pid = fork();
        if (pid == 0)
            exec_child(program, argv, null_fd, log_fd, report[1], parent,
                       &default_action);
        if (pid < 0) err = errno;
        pthread_sigmask(SIG_SETMASK, &old, NULL);
    }
    if (report[1] >= 0) close(report[1]);
    if (pid > 0) {
        /* execve closes the pipe: nothing to read means it ran. */
        do got = read(report[0], &child_err, sizeof child_err);
        while (got < 0 && errno == EINTR);
        while (waitpid(pid, status, 0) < 0 && !err)
            if (errno != EINTR) err = errno;
        if (got == (ssize_t)sizeof child_err) err = child_err;
    }
    if (report[0] >= 0) close(report[0]);
    if (log_fd >= 0) close(log_fd);
    if (null_fd >= 0) close(null_fd);
    errno = err;
    return err ? -1 : 0;
}

/* dlopen + dlsym; returns 0, or -1 with the reason in ctx's message. */
static int open_object(pagani_context *ctx, const char *path, void **module,
                       void *entry)
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
    memcpy(entry, &sym, sizeof(pagani_function));
    return 0;
}

/* The code for a compiler run that ended with wait status `status` and
 * did not succeed, with its message (the log, when it has one). */
static int compiler_failure(pagani_context *ctx, const char *cc, int status,
                            const char *log_path)
{
    char *log;
    int rc;

    if (WIFSIGNALED(status))
        return pagani_fail(ctx, PAGANI_ERR_SYSTEM, "the C compiler \"%s\" "
                           "was killed by signal %d (%s)", cc,
                           WTERMSIG(status), strsignal(WTERMSIG(status)));
    log = read_file(log_path, MAX_LOG, NULL);
    for (size_t len = log ? strlen(log) : 0;
         len > 0 && (log[len - 1] == '\n' || log[len - 1] == ' '); len--)
        log[len - 1] = '\0';
    if (!WIFEXITED(status) || WEXITSTATUS(status) == 127)
        rc = pagani_fail(ctx, PAGANI_ERR_SYSTEM, "the C compiler \"%s\" "
                         "could not run (set PAGANI_CC): %s", cc,
                         log ? log : "");
    else
        rc = pagani_fail(ctx, PAGANI_ERR_COMPILE, "integrand source did not "
                         "compile (%s):\n%s", cc, log ? log : "");
    free(log);
    return rc;
}

/* Runs the compiler cc on src into obj, its messages into the new file
 * log; PAGANI_OK or the failure's code. */
static int compile(pagani_context *ctx, const char *cc, const char *src,
                   const char *obj, const char *log)
{
    char *words = strdup(cc), *argv[MAX_CC_WORDS + N_FLAGS + 5];
    char *program = NULL;
    int count, status, rc;

    if (!words) {
        rc = pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "out of memory");
        goto done;
    }
    count = split_words(words, argv);
    if (count == 0) {
        rc = pagani_fail(ctx, PAGANI_ERR_SYSTEM, "the C compiler command "
                         "\"%s\" is empty or too long (PAGANI_CC)", cc);
        goto done;
    }
    for (size_t i = 0; i < N_FLAGS; i++) argv[count++] = (char *)cc_flags[i];
    argv[count++] = "-o";
    argv[count++] = (char *)obj;
    argv[count++] = (char *)src;
    argv[count++] = "-lm";
    argv[count] = NULL;

    if (!(program = find_program(argv[0])) ||
        run_logged(program, argv, log, &status) != 0)
        rc = pagani_fail(ctx, PAGANI_ERR_SYSTEM, "cannot run the C compiler "
                         "\"%s\": %s (set PAGANI_CC)", cc, strerror(errno));
    else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        rc = compiler_failure(ctx, cc, status, log);
    else
        rc = PAGANI_OK;
done:
    free(words);
    free(program);
    return rc;
}

/* Compiles unit in a new folder root/TEMPLATE (mkdtemp: its name ends in
 * XXXXXX) and loads the object into *module and *entry; when code is not
 * NULL, also hands the object's bytes back in *code (malloc'd) and *size,
 * for the cache. The folder is removed on every way out. */
static int build(pagani_context *ctx, const char *root, const char *template,
                 const char *unit, const char *cc, void **module,
                 void *entry, char **code, size_t *size)
{
    char *name = pagani_path_join(root, "/", template);
    char *src = NULL, *obj = NULL, *log = NULL;
    int rc;

    if (!name) return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "out of memory");
    if (!mkdtemp(name)) {
        rc = pagani_fail(ctx, PAGANI_ERR_SYSTEM, "cannot create a build "
                         "folder in %s: %s", root, strerror(errno));
        free(name);
        return rc;
    }
    src = pagani_path_join(name, "/unit.c", "");
    obj = pagani_path_join(name, "/unit.so", "");
    log = pagani_path_join(name, "/unit.log", "");
    if (!src || !obj || !log)
        rc = pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "out of memory");
    else if (write_new_file(src, unit) != 0)
        rc = pagani_fail(ctx, PAGANI_ERR_SYSTEM, "cannot write %s: %s", src,
                         strerror(errno));
    else
        rc = compile(ctx, cc, src, obj, log);
    if (rc == PAGANI_OK && code &&
        !(*code = read_file(obj, MAX_OBJECT, size)))
        rc = pagani_fail(ctx, PAGANI_ERR_SYSTEM, "cannot read the compiled "
                         "integrand %s: %s", obj, strerror(errno));
    if (rc == PAGANI_OK && open_object(ctx, obj, module, entry) != 0) {
        rc = PAGANI_ERR_SYSTEM;
        if (code) {
            free(*code);
            *code = NULL;
        }
    }
    pagani_remove_folder(name);
    free(name);
    free(src);
    free(obj);
    free(log);
    return rc;
}

int pagani_jit_cpu_load(pagani_context *ctx, const char *unit, void **module,
                        void *entry)
{
    const char *env = getenv("PAGANI_CC"), *tmp = getenv("TMPDIR");
    const char *cc = env && *env ? env : PAGANI_DEFAULT_CC;
    pagani_cache_key key = cache_key(unit, cc);
    char *dir = pagani_cache_dir(), *path = NULL, *code = NULL;
    size_t size = 0;
    int rc;

    *module = NULL;
    memset(entry, 0, sizeof(pagani_function));
    if (!dir) {
        /* Nothing can be cached: build in a private temporary folder. */
        rc = build(ctx, tmp && *tmp ? tmp : "/tmp", "pagani-build-XXXXXX",
                   unit, cc, module, entry, NULL, NULL);
    } else if (!(path = pagani_cache_entry_path(dir, "cpu-", &key, ".so"))) {
        rc = pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "out of memory");
    } else if (pagani_cache_read(path, &key, NULL, NULL) &&
               open_object(ctx, path, module, entry) == 0) {
        rc = PAGANI_OK; /* a valid cache entry */
    } else {
        /* A miss, or an entry that is not valid or would not load. */
        pagani_cache_sweep(dir);
        rc = build(ctx, dir, ".build-XXXXXX", unit, cc, module, entry, &code,
                   &size);
        if (rc == PAGANI_OK) pagani_cache_write(dir, path, &key, code, size);
    }
    if (rc == PAGANI_OK) pagani_clear_message(ctx);
    free(code);
    free(dir);
    free(path);
    return rc;
}

void pagani_jit_cpu_unload(void *module)
{
    if (module) dlclose(module);
}
