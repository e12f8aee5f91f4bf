/*
 * compiler_process.h - runs the system C compiler as a process tree that
 * never outlives its caller and whose memory and CPU time are bounded.
 *
 * The compiler driver (cc) starts children of its own (cc1, as, ld); a
 * parent-death signal on the driver alone leaves them running when the
 * caller is killed. So the driver runs in a process group of its own,
 * under a small watchdog process (a fork of the caller, which execs
 * nothing) that kills the whole group when the caller dies, when the
 * caller's terminal signals reach it, and when the driver ends (anything
 * it left behind). See compiler_process.c for how each death is noticed.
 */
#ifndef PAGANI_COMPILER_PROCESS_H
#define PAGANI_COMPILER_PROCESS_H

#include <sys/resource.h>

/* Limits of every process of the compiler (setrlimit in the driver, which
 * its children inherit): address space in bytes and CPU seconds each;
 * RLIM_INFINITY for none. */
typedef struct pagani_compiler_limits {
    rlim_t memory_bytes;
    rlim_t cpu_seconds;
} pagani_compiler_limits;

/* Runs program (argv, the caller's environment) with stdin from /dev/null
 * and stdout and stderr into log_path, a new file, under limits, and waits
 * for it: 0 with the driver's wait status in *status, or -1 with errno
 * set when it could not be started (execve's errno included) or waited
 * for. Signals are
 * blocked around the fork, so that no handler of the caller's runs in the
 * watchdog or the compiler. */
int pagani_run_compiler(const char *program, char *const argv[],
                        const char *log_path,
                        const pagani_compiler_limits *limits, int *status);

#endif /* PAGANI_COMPILER_PROCESS_H */
