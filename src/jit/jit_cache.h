/*
 * jit_cache.h - the on-disk cache of compiled integrands, shared by the
 * CPU's shared objects (jit_cpu.c) and the CUDA backend's NVRTC images
 * (gpu/jit/cuda_module.c).
 *
 * The folder. The first of $PAGANI_CACHE_DIR, $XDG_CACHE_HOME/pagani and
 * $HOME/.cache/pagani that is set is created when missing (mode 0700) and
 * used when it is a folder of the current user that group and others
 * cannot write. A shared folder that is sticky and owned by root or the
 * user (mode 1777, like /tmp) is used through a private subfolder,
 * pagani-UID, created 0700 and accepted only when lstat shows a folder of
 * the user's (not a symlink) that group and others cannot write. Any
 * other folder (group- or world-writable and not sticky, another user's,
 * not writable) is not trusted: the cache moves to the private subfolder
 * $TMPDIR/pagani-UID (or /tmp/pagani-UID), and when that fails too
 * nothing is cached (code is compiled in a private temporary folder).
 *
 * An entry is one file: the compiled code followed by a trailer holding a
 * magic string, the entry's 128-bit key (a hash of everything that
 * determines the code), the code's size and a 128-bit hash of the code. It
 * is used only when it is a regular file (opened with O_NOFOLLOW), owned
 * by the user, not writable by group or others, and its trailer matches
 * the key, the file's size and the code; anything else (a truncated file,
 * another integrand's object under this name, a planted file, a symlink)
 * is a miss, and the entry is rebuilt and replaced. Entries are written
 * to a mkstemp temporary (.tmp-XXXXXX, O_EXCL: never through a planted
 * symlink) in the same folder, fsync'ed, then renamed into place, so a
 * reader never sees a partial entry. Build folders (.build-XXXXXX) and
 * temporaries that a killed process left behind are removed by the next
 * compilation once they are PAGANI_CACHE_STALE_SECONDS old.
 *
 * The hash is FNV-1a in two lanes: it detects damage and mix-ups, it is
 * not a defence against someone who can write the folder (the ownership
 * and permission checks are).
 */
#ifndef PAGANI_JIT_CACHE_H
#define PAGANI_JIT_CACHE_H

#include <stddef.h>

/* Build folders and temporaries older than this (in seconds, by their
 * modification time) belong to a process that died: one hour. */
#define PAGANI_CACHE_STALE_SECONDS 3600

/* A 128-bit key or content hash: init, then add the fields in order. */
typedef struct pagani_cache_key {
    unsigned long long h[2];
} pagani_cache_key;

void pagani_cache_key_init(pagani_cache_key *key);
void pagani_cache_key_add(pagani_cache_key *key, const void *data, size_t size);
/* Adds text with its terminating NUL, so that fields cannot run together. */
void pagani_cache_key_add_string(pagani_cache_key *key, const char *text);

/* The cache folder by the rules above, as a malloc'd path; NULL when
 * nothing can be cached (not an error) or memory ran out. */
char *pagani_cache_dir(void);

/* dir/PREFIX<32 hex digits of key>SUFFIX, malloc'd (NULL: no memory). */
char *pagani_cache_entry_path(const char *dir, const char *prefix,
                              const pagani_cache_key *key, const char *suffix);

/* Checks the entry at path against key by the rules above. Returns 1 when
 * it is valid, with *code (malloc'd, NUL-terminated beyond *size) holding
 * its code when code is not NULL; 0 otherwise (missing, invalid or out of
 * memory). */
int pagani_cache_read(const char *path, const pagani_cache_key *key,
                      char **code, size_t *size);

/* Stores code (size bytes) as the entry at path, a file of dir. Returns 0,
 * or -1 with errno set (nothing is left behind). */
int pagani_cache_write(const char *dir, const char *path,
                       const pagani_cache_key *key, const void *code,
                       size_t size);

/* Removes the user's stale build folders and temporaries from dir. */
void pagani_cache_sweep(const char *dir);

/* A malloc'd "a" "b" "c" (b and c may be ""), for paths; NULL when memory
 * ran out. */
char *pagani_path_join(const char *a, const char *b, const char *c);

/* Removes the folder at path and the files in it (not subfolders). */
void pagani_remove_folder(const char *path);

#endif /* PAGANI_JIT_CACHE_H */
