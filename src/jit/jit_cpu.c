/*
 * jit_cpu.c - run-time compilation of integrand source for the CPU: the
 * system C compiler (C++ for the gradient's units) builds a shared object
 * in a private build folder; the object is loaded with dlopen and kept in
 * the on-disk cache (jit_cache.h) under a key of everything that
 * determines it.
 *
 * The compiler runs as a process tree of its own (compiler_process.h)
 * that dies with the caller on Linux, under limits of memory and CPU time
 * (PAGANI_CC_MEMORY, PAGANI_CC_SECONDS); its output goes to a log file:
 * the library prints nothing. Messages name the build folder nowhere.
 * Every way out of a build removes its build folder; one left by a killed
 * process is swept by a later compilation (jit_cache.h).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>
#include "jit/compiler_limits.h"
#include "jit/jit_cache.h"
#include "jit/jit_cpu.h"
#include "jit/source_env.h"

#ifndef PAGANI_DEFAULT_CC
#define PAGANI_DEFAULT_CC "cc"
#endif
#ifndef PAGANI_DEFAULT_CXX
#define PAGANI_DEFAULT_CXX "c++"
#endif

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
    "-Wl,-z,defs", NULL
};
/* The same for C++ (the gradient's dual numbers), where an undeclared
 * function and implicit int are errors already. */
static const char *const cxx_flags[] = {
    "-O2", "-fPIC", "-shared", "-std=gnu++14", "-fno-math-errno",
    "-Werror=return-type", "-Werror=array-bounds", "-Werror=uninitialized",
    "-Wl,-z,defs", NULL
};
#define MAX_FLAGS 16
#define MAX_CC_WORDS 32

/* A language the host compiles: its compiler's variable and default, its
 * flags (NULL-terminated), its name in messages and its file's suffix. */
typedef struct language {
    const char *variable;
    const char *fallback;
    const char *const *flags;
    const char *name;
    const char *suffix;
} language;

static const language c_language = {
    "PAGANI_CC", PAGANI_DEFAULT_CC, cc_flags, "C", ".c"
};
static const language cxx_language = {
    "PAGANI_CXX", PAGANI_DEFAULT_CXX, cxx_flags, "C++", ".cc"
};
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
static pagani_cache_key cache_key(const char *unit, const char *cc,
                                  const language *lang)
{
    struct utsname u;
    pagani_cache_key key;
    pagani_cache_key_init(&key);
    pagani_cache_key_add_string(&key, unit);
    pagani_cache_key_add_string(&key, cc);
    for (size_t i = 0; lang->flags[i]; i++)
        pagani_cache_key_add_string(&key, lang->flags[i]);
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

/* The log at log_path (up to MAX_LOG bytes, trailing blanks dropped)
 * with every mention of the build folder `folder` cut out, so that no
 * message shows where the cache is; NULL when it cannot be read. */
static char *read_log(const char *log_path, const char *folder)
{
    char *log = read_file(log_path, MAX_LOG, NULL), *at;
    size_t len, cut = strlen(folder) + 1; /* the folder and its '/' */

    if (!log) return NULL;
    while ((at = strstr(log, folder)) && at[cut - 1] == '/')
        memmove(at, at + cut, strlen(at + cut) + 1);
    for (len = strlen(log);
         len > 0 && (log[len - 1] == '\n' || log[len - 1] == ' '); len--)
        log[len - 1] = '\0';
    return log;
}

/* The code for a compiler run in `folder` that ended with wait status
 * `status` and did not succeed, with its message: the log, and the
 * limits when they may have stopped it (the compiler failed otherwise
 * than by its usual exit status 1 for errors, or its log names no line of
 * the source). */
static int compiler_failure(pagani_context *ctx, const language *lang,
                            const char *cc, int status,
                            const char *log_path, const char *folder,
                            const pagani_compiler_limits *limits)
{
    char *log, limits_note[320] = "";
    int rc;

    if (WIFSIGNALED(status))
        return pagani_fail(ctx, PAGANI_ERR_SYSTEM, "the %s compiler \"%s\" "
                           "was killed by signal %d (%s)", lang->name, cc,
                           WTERMSIG(status), strsignal(WTERMSIG(status)));
    log = read_log(log_path, folder);
    if (!WIFEXITED(status) || WEXITSTATUS(status) == 127) {
        rc = pagani_fail(ctx, PAGANI_ERR_SYSTEM, "the %s compiler \"%s\" "
                         "could not run (set %s): %s", lang->name, cc,
                         lang->variable, log ? log : "");
        free(log);
        return rc;
    }
    if (WEXITSTATUS(status) != 1 || !log || !strstr(log, "integrand:")) {
        limits_note[0] = '\n';
        pagani_compiler_limits_describe(limits, limits_note + 1,
                                        sizeof limits_note - 1);
    }
    rc = pagani_fail(ctx, PAGANI_ERR_COMPILE, "integrand source did not "
                     "compile (%s):\n%s%s", cc, log ? log : "", limits_note);
    free(log);
    return rc;
}

/* Runs the compiler cc in `folder` on src into obj, its messages into the
 * new file log; PAGANI_OK or the failure's code. */
static int compile(pagani_context *ctx, const language *lang, const char *cc,
                   const char *folder, const char *src, const char *obj,
                   const char *log)
{
    char *words = strdup(cc), *argv[MAX_CC_WORDS + MAX_FLAGS + 5];
    char *program = NULL;
    pagani_compiler_limits limits;
    int count, status, rc;

    if (!words) {
        rc = pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "out of memory");
        goto done;
    }
    count = split_words(words, argv);
    if (count == 0) {
        rc = pagani_fail(ctx, PAGANI_ERR_SYSTEM, "the %s compiler command "
                         "\"%s\" is empty or too long (%s)", lang->name, cc,
                         lang->variable);
        goto done;
    }
    if ((rc = pagani_compiler_limits_read(ctx, &limits)) != PAGANI_OK)
        goto done;
    for (size_t i = 0; lang->flags[i]; i++)
        argv[count++] = (char *)lang->flags[i];
    argv[count++] = "-o";
    argv[count++] = (char *)obj;
    argv[count++] = (char *)src;
    argv[count++] = "-lm";
    argv[count] = NULL;

    if (!(program = find_program(argv[0])) ||
        pagani_run_compiler(program, argv, log, &limits, &status) != 0)
        rc = pagani_fail(ctx, PAGANI_ERR_SYSTEM, "cannot run the %s compiler "
                         "\"%s\": %s (set %s)", lang->name, cc,
                         strerror(errno), lang->variable);
    else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        rc = compiler_failure(ctx, lang, cc, status, log, folder, &limits);
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
                 const char *unit, const language *lang, const char *cc,
                 void **module, void *entry, char **code, size_t *size)
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
    src = pagani_path_join(name, "/integrand-wrapper", lang->suffix);
    obj = pagani_path_join(name, "/unit.so", "");
    log = pagani_path_join(name, "/unit.log", "");
    if (!src || !obj || !log)
        rc = pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "out of memory");
    else if (write_new_file(src, unit) != 0)
        rc = pagani_fail(ctx, PAGANI_ERR_SYSTEM, "cannot write %s: %s", src,
                         strerror(errno));
    else
        rc = compile(ctx, lang, cc, name, src, obj, log);
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

/* pagani_jit_cpu_load and pagani_jit_cpu_load_cxx, for language lang. */
static int load(pagani_context *ctx, const language *lang, const char *unit,
                void **module, void *entry)
{
    const char *env = getenv(lang->variable), *tmp = getenv("TMPDIR");
    const char *cc = env && *env ? env : lang->fallback;
    pagani_cache_key key = cache_key(unit, cc, lang);
    char *dir = pagani_cache_dir(), *path = NULL, *code = NULL;
    size_t size = 0;
    int rc;

    *module = NULL;
    memset(entry, 0, sizeof(pagani_function));
    if (!dir) {
        /* Nothing can be cached: build in a private temporary folder. */
        rc = build(ctx, tmp && *tmp ? tmp : "/tmp", "pagani-build-XXXXXX",
                   unit, lang, cc, module, entry, NULL, NULL);
    } else if (!(path = pagani_cache_entry_path(dir, "cpu-", &key, ".so"))) {
        rc = pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "out of memory");
    } else if (pagani_cache_read(path, &key, NULL, NULL) &&
               open_object(ctx, path, module, entry) == 0) {
        rc = PAGANI_OK; /* a valid cache entry */
    } else {
        /* A miss, or an entry that is not valid or would not load. */
        pagani_cache_sweep(dir);
        rc = build(ctx, dir, ".build-XXXXXX", unit, lang, cc, module, entry,
                   &code, &size);
        if (rc == PAGANI_OK) pagani_cache_write(dir, path, &key, code, size);
    }
    if (rc == PAGANI_OK) pagani_clear_message(ctx);
    free(code);
    free(dir);
    free(path);
    return rc;
}

int pagani_jit_cpu_load(pagani_context *ctx, const char *unit, void **module,
                        void *entry)
{
    return load(ctx, &c_language, unit, module, entry);
}

int pagani_jit_cpu_load_cxx(pagani_context *ctx, const char *unit,
                            void **module, void *entry)
{
    return load(ctx, &cxx_language, unit, module, entry);
}

void pagani_jit_cpu_unload(void *module)
{
    if (module) dlclose(module);
}
