/*
 * jit_cache.c - the on-disk cache of compiled integrands: where it lives
 * and which folders are trusted, the key hash, and entries checked on
 * reading and written atomically (the rules are in jit_cache.h).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "file_io.h"
#include "jit/jit_cache.h"

#define FNV_OFFSET 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL
/* Where the second lane of a key starts: the first's, xor this. */
#define SECOND_LANE 0x9e3779b97f4a7c15ULL

#define TRAILER_MAGIC "PAGANI-CACHE-2\n"
/* The largest entry read back (a shared object or a cubin is far less). */
#define MAX_ENTRY (1ULL << 30)
#define CHUNK 65536

/* What follows the code in an entry file. */
typedef struct trailer {
    char magic[16];               /* TRAILER_MAGIC and a NUL */
    unsigned long long key[2];    /* the entry's key */
    unsigned long long size;      /* bytes of code before the trailer */
    unsigned long long sum[2];    /* the code's hash */
} trailer;

/* ---- keys ------------------------------------------------------------ */

void pagani_cache_key_init(pagani_cache_key *key)
{
    key->h[0] = FNV_OFFSET;
    key->h[1] = FNV_OFFSET ^ SECOND_LANE;
}

void pagani_cache_key_add(pagani_cache_key *key, const void *data, size_t size)
{
    const unsigned char *b = data;
    for (int lane = 0; lane < 2; lane++) {
        unsigned long long h = key->h[lane];
        for (size_t i = 0; i < size; i++) {
            h ^= b[i];
            h *= FNV_PRIME;
        }
        key->h[lane] = h;
    }
}

void pagani_cache_key_add_string(pagani_cache_key *key, const char *text)
{
    pagani_cache_key_add(key, text, strlen(text) + 1);
}

/* ---- the folder ------------------------------------------------------ */

char *pagani_path_join(const char *a, const char *b, const char *c)
{
    size_t la = strlen(a), lb = strlen(b), lc = strlen(c);
    char *s = malloc(la + lb + lc + 1);
    if (!s) return NULL;
    memcpy(s, a, la);
    memcpy(s + la, b, lb);
    memcpy(s + la + lb, c, lc + 1);
    return s;
}

/* Whether st is a folder of this user's that group and others cannot
 * write. */
static int private_folder(const struct stat *st)
{
    return S_ISDIR(st->st_mode) && st->st_uid == geteuid() &&
           (st->st_mode & (S_IWGRP | S_IWOTH)) == 0;
}

/* Whether st is a shared folder in which only an entry's owner can remove
 * or rename it: sticky, and owned by root or this user (like /tmp). */
static int sticky_folder(const struct stat *st)
{
    return S_ISDIR(st->st_mode) && (st->st_mode & S_ISVTX) &&
           (st->st_uid == 0 || st->st_uid == geteuid());
}

/* mkdir -p, mode 0700 for the folders it creates. */
static void make_path(char *path)
{
    for (char *s = path + 1; *s; s++) {
        if (*s != '/') continue;
        *s = '\0';
        mkdir(path, 0700);
        *s = '/';
    }
    mkdir(path, 0700);
}

/* parent/pagani-UID, created 0700 when missing, when lstat shows a private
 * folder (so not a symlink) that we can write; else NULL. */
static char *private_subfolder(const char *parent)
{
    char name[64];
    struct stat st;
    char *dir;

    snprintf(name, sizeof name, "/pagani-%lu", (unsigned long)geteuid());
    if (!(dir = pagani_path_join(parent, name, ""))) return NULL;
    mkdir(dir, 0700);
    if (lstat(dir, &st) == 0 && private_folder(&st) &&
        access(dir, W_OK | X_OK) == 0)
        return dir;
    free(dir);
    return NULL;
}

/* The cache folder at path (malloc'd, freed here), created when missing:
 * path itself when it is private, its private subfolder when it is a
 * sticky shared folder, else NULL. */
static char *cache_folder_at(char *path)
{
    struct stat st;
    char *dir = NULL;

    make_path(path);
    if (stat(path, &st) == 0) {
        if (private_folder(&st) && access(path, W_OK | X_OK) == 0)
            return path;
        if (sticky_folder(&st)) dir = private_subfolder(path);
    }
    free(path);
    return dir;
}

char *pagani_cache_dir(void)
{
    const char *env = getenv("PAGANI_CACHE_DIR");
    char *dir = NULL;
    struct stat st;

    if (env && *env) dir = strdup(env);
    else if ((env = getenv("XDG_CACHE_HOME")) && *env)
        dir = pagani_path_join(env, "/pagani", "");
    else if ((env = getenv("HOME")) && *env)
        dir = pagani_path_join(env, "/.cache/pagani", "");
    if (dir && (dir = cache_folder_at(dir))) return dir;

    env = getenv("TMPDIR");
    if (!env || !*env) env = "/tmp";
    if (stat(env, &st) == 0 && (private_folder(&st) || sticky_folder(&st)))
        return private_subfolder(env);
    return NULL;
}

char *pagani_cache_entry_path(const char *dir, const char *prefix,
                              const pagani_cache_key *key, const char *suffix)
{
    size_t len = strlen(dir) + strlen(prefix) + 32 + strlen(suffix) + 2;
    char *path = malloc(len);
    if (path)
        snprintf(path, len, "%s/%s%016llx%016llx%s", dir, prefix, key->h[0],
                 key->h[1], suffix);
    return path;
}

/* ---- entries --------------------------------------------------------- */

/* Hashes the first size bytes of fd, keeping them in *code when code is
 * not NULL; 0, or -1 when they could not be read (or memory ran out). */
static int hash_code(int fd, size_t size, pagani_cache_key *sum, char **code)
{
    char *buf = malloc(code ? size + 1 : CHUNK);
    size_t done = 0;

    if (!buf) return -1;
    pagani_cache_key_init(sum);
    while (done < size) {
        size_t step = size - done < CHUNK ? size - done : CHUNK;
        char *at = code ? buf + done : buf;
        if (pagani_read_upto(fd, at, step) != step) {
            free(buf);
            return -1;
        }
        pagani_cache_key_add(sum, at, step);
        done += step;
    }
    if (code) {
        buf[size] = '\0';
        *code = buf;
    } else {
        free(buf);
    }
    return 0;
}

/* The trailer of key and code. */
static trailer make_trailer(const pagani_cache_key *key, const void *code,
                            size_t size)
{
    trailer t;
    pagani_cache_key sum;

    memset(&t, 0, sizeof t);
    memcpy(t.magic, TRAILER_MAGIC, sizeof TRAILER_MAGIC);
    t.key[0] = key->h[0];
    t.key[1] = key->h[1];
    t.size = size;
    pagani_cache_key_init(&sum);
    pagani_cache_key_add(&sum, code, size);
    t.sum[0] = sum.h[0];
    t.sum[1] = sum.h[1];
    return t;
}

int pagani_cache_read(const char *path, const pagani_cache_key *key,
                      char **code, size_t *size)
{
    /* O_NONBLOCK: a FIFO at path must not block the open. */
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    trailer t;
    pagani_cache_key sum;
    char *text = NULL;
    int valid;

    if (fd < 0) return 0;
    valid = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
            st.st_uid == geteuid() &&
            (st.st_mode & (S_IWGRP | S_IWOTH)) == 0 &&
            (unsigned long long)st.st_size >= sizeof t &&
            (unsigned long long)st.st_size - sizeof t <= MAX_ENTRY &&
            pread(fd, &t, sizeof t, st.st_size - (off_t)sizeof t) ==
                (ssize_t)sizeof t &&
            memcmp(t.magic, TRAILER_MAGIC, sizeof TRAILER_MAGIC) == 0 &&
            t.key[0] == key->h[0] && t.key[1] == key->h[1] &&
            t.size == (unsigned long long)st.st_size - sizeof t &&
            hash_code(fd, (size_t)t.size, &sum, code ? &text : NULL) == 0 &&
            sum.h[0] == t.sum[0] && sum.h[1] == t.sum[1];
    close(fd);
    if (valid && code) {
        *code = text;
        *size = (size_t)t.size;
    } else {
        free(text);
    }
    return valid;
}

int pagani_cache_write(const char *dir, const char *path,
                       const pagani_cache_key *key, const void *code,
                       size_t size)
{
    char *tmp = pagani_path_join(dir, "/.tmp-XXXXXX", "");
    trailer t = make_trailer(key, code, size);
    int fd, err;

    if (!tmp) {
        errno = ENOMEM;
        return -1;
    }
    fd = mkstemp(tmp); /* O_EXCL, mode 0600 */
    if (fd < 0) {
        err = errno;
        free(tmp);
        errno = err;
        return -1;
    }
    if (pagani_write_all(fd, code, size) == 0 &&
        pagani_write_all(fd, &t, sizeof t) == 0 &&
        fsync(fd) == 0 && close(fd) == 0) {
        fd = -1;
        if (rename(tmp, path) == 0) {
            free(tmp);
            return 0;
        }
    }
    err = errno;
    if (fd >= 0) close(fd);
    unlink(tmp);
    free(tmp);
    errno = err;
    return -1;
}

/* ---- leftovers ------------------------------------------------------- */

void pagani_remove_folder(const char *path)
{
    DIR *d = opendir(path);
    struct dirent *e;

    if (d) {
        while ((e = readdir(d)))
            if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
                unlinkat(dirfd(d), e->d_name, 0);
        closedir(d);
    }
    rmdir(path);
}

void pagani_cache_sweep(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    struct stat st;
    time_t now = time(NULL);

    if (!d) return;
    while ((e = readdir(d))) {
        int build = strncmp(e->d_name, ".build-", 7) == 0;
        char *path;
        if (!build && strncmp(e->d_name, ".tmp-", 5) != 0) continue;
        if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
            st.st_uid != geteuid() ||
            now - st.st_mtime < PAGANI_CACHE_STALE_SECONDS)
            continue;
        if (build && S_ISDIR(st.st_mode) &&
            (path = pagani_path_join(dir, "/", e->d_name))) {
            pagani_remove_folder(path);
            free(path);
        } else if (!build && S_ISREG(st.st_mode)) {
            unlinkat(dirfd(d), e->d_name, 0);
        }
    }
    closedir(d);
}
