/*
 * compiler_process.c - the compiler's process tree (compiler_process.h):
 *
 *   caller --fork--> watchdog --fork--> driver (cc, its own process group)
 *                                         `--> cc1, as, ld (the same group)
 *
 * How each way of dying is noticed, on Linux:
 * - the caller dies (SIGKILL included): the watchdog has asked for SIGUSR1
 *   when its parent dies (PR_SET_PDEATHSIG, checked against getppid() for
 *   a death before the request) and kills the driver's group;
 * - the caller's terminal sends SIGHUP, SIGINT, SIGQUIT or SIGTERM to the
 *   caller's process group: the watchdog is in it and passes the signal on
 *   to the compiler's group (as the compiler got it when it was in the
 *   caller's group), unless the caller ignores that signal;
 * - the watchdog itself is killed: the driver has asked for SIGKILL when
 *   its parent dies (its own children then survive: only a signal to the
 *   watchdog alone does that);
 * - the driver ends, however: the watchdog kills what is left of its group
 *   before it reaps the driver (waitid with WNOWAIT keeps the group's id
 *   from being reused).
 * A subreaper (PR_SET_CHILD_SUBREAPER) was not chosen: it would keep the
 * orphans as the caller's children, but nothing kills them once the
 * caller is gone. Elsewhere than Linux the watchdog still ends what the
 * driver leaves, but nothing follows the caller's death.
 *
 * Both forks of the caller make async-signal-safe calls only (the caller
 * may have threads), setrlimit, waitid and prctl being plain system calls.
 */
#define _GNU_SOURCE /* pipe2 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include "jit/compiler_process.h"

extern char **environ;

/* What the forks tell the caller through the report pipe: the driver that
 * could not start (its errno), then the watchdog's last word, the
 * driver's wait status (or the errno of a failed fork or wait). */
enum { REPORT_START_FAILED = 1, REPORT_STATUS = 2 };
typedef struct report {
    int kind, value;
} report;

/* The signals the watchdog passes on to the compiler's group. */
static const int forwarded[] = {SIGHUP, SIGINT, SIGQUIT, SIGTERM};
#define N_FORWARDED (int)(sizeof forwarded / sizeof forwarded[0])
/* The watchdog's signal for its parent's death. */
#define CALLER_DIED SIGUSR1

/* The signal the watchdog has yet to pass on (0: none). Its handlers run
 * only inside sigsuspend: every signal is blocked elsewhere. */
static volatile sig_atomic_t to_forward;

static void note_signal(int sig)
{
    to_forward = sig == CALLER_DIED ? SIGKILL : sig;
}

static void note_child(int sig)
{
    (void)sig; /* only wakes sigsuspend */
}

static void send_report(int fd, int kind, int value)
{
    report r = {kind, value};
    (void)!write(fd, &r, sizeof r);
}

/* Lowers a resource limit of this process to value (RLIM_INFINITY: leaves
 * it); the hard limit to value + slack, so that a process that survives
 * the soft limit's signal is killed. 0, or -1 with errno. */
static int lower_limit(int resource, rlim_t value, rlim_t slack)
{
    struct rlimit now;
    if (value == RLIM_INFINITY) return 0;
    if (getrlimit(resource, &now) != 0) return -1;
    if (now.rlim_max == RLIM_INFINITY || now.rlim_max > value + slack)
        now.rlim_max = value + slack;
    now.rlim_cur = value < now.rlim_max ? value : now.rlim_max;
    return setrlimit(resource, &now);
}

/* The driver: a group of its own, dies with the watchdog, the default
 * handling of every signal not ignored and an empty mask, the limits,
 * /dev/null in and the log out; execs program or reports why not. */
static void run_driver(const char *program, char *const argv[], int null_fd,
                       int log_fd, int report_fd, pid_t watchdog_pid,
                       const pagani_compiler_limits *limits)
{
    struct sigaction default_action;
    sigset_t none;

    setpgid(0, 0);
#ifdef __linux__
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != watchdog_pid)
        _exit(127);
#else
    (void)watchdog_pid;
#endif
    memset(&default_action, 0, sizeof default_action);
    default_action.sa_handler = SIG_DFL;
    for (int sig = 1; sig < NSIG; sig++) {
        struct sigaction now;
        if (sigaction(sig, NULL, &now) == 0 && now.sa_handler != SIG_IGN)
            sigaction(sig, &default_action, NULL);
    }
    if (lower_limit(RLIMIT_AS, limits->memory_bytes, 0) == 0 &&
        lower_limit(RLIMIT_CPU, limits->cpu_seconds, 1) == 0 &&
        dup2(null_fd, 0) >= 0 && dup2(log_fd, 1) >= 0 &&
        dup2(log_fd, 2) >= 0) {
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        execve(program, argv, environ);
    }
    send_report(report_fd, REPORT_START_FAILED, errno);
    _exit(127);
}

/* The watchdog (started with every signal blocked): starts the driver,
 * passes signals on to its group until it ends, kills what is left of the
 * group, and reports the driver's wait status. */
static void run_watchdog(const char *program, char *const argv[],
                         int null_fd, int log_fd, int report_fd, pid_t caller,
                         const pagani_compiler_limits *limits)
{
    struct sigaction action;
    sigset_t wait_mask;
    siginfo_t info;
    pid_t self = getpid(), driver;
    int status;

    memset(&action, 0, sizeof action);
    sigfillset(&action.sa_mask);
    sigfillset(&wait_mask);
    action.sa_handler = note_signal;
    for (int i = 0; i < N_FORWARDED; i++) {
        struct sigaction now;
        if (sigaction(forwarded[i], NULL, &now) == 0 &&
            now.sa_handler != SIG_IGN) {
            sigaction(forwarded[i], &action, NULL);
            sigdelset(&wait_mask, forwarded[i]);
        }
    }
    sigaction(CALLER_DIED, &action, NULL);
    sigdelset(&wait_mask, CALLER_DIED);
    action.sa_handler = note_child;
    sigaction(SIGCHLD, &action, NULL);
    sigdelset(&wait_mask, SIGCHLD);
#ifdef __linux__
    if (prctl(PR_SET_PDEATHSIG, CALLER_DIED) != 0 || getppid() != caller)
        _exit(127);
#else
    (void)caller;
#endif
    driver = fork();
    if (driver == 0)
        run_driver(program, argv, null_fd, log_fd, report_fd, self, limits);
    if (driver < 0) {
        send_report(report_fd, REPORT_START_FAILED, errno);
        _exit(127);
    }
    setpgid(driver, driver); /* as the driver does: whichever runs first */
    for (;;) {
        memset(&info, 0, sizeof info);
        if (waitid(P_PID, (id_t)driver, &info,
                   WEXITED | WNOHANG | WNOWAIT) != 0 && errno != EINTR) {
            send_report(report_fd, REPORT_START_FAILED, errno);
            break;
        }
        if (to_forward) {
            kill(-driver, to_forward);
            to_forward = 0;
        }
        if (info.si_pid == driver) break;
        sigsuspend(&wait_mask);
    }
    kill(-driver, SIGKILL); /* the driver is a zombie: its group id holds */
    while (waitpid(driver, &status, 0) < 0)
        if (errno != EINTR) _exit(127);
    send_report(report_fd, REPORT_STATUS, status);
    _exit(0);
}

/* Reads the forks' reports until the watchdog's last: 0 with the driver's
 * wait status, or an errno. */
static int read_reports(int fd, int *status)
{
    int err = 0;
    report r;
    for (;;) {
        ssize_t got = read(fd, &r, sizeof r);
        if (got < 0 && errno == EINTR) continue;
        if (got != (ssize_t)sizeof r) return err ? err : ECHILD;
        if (r.kind == REPORT_STATUS) {
            *status = r.value;
            return err;
        }
        if (!err) err = r.value;
    }
}

int pagani_run_compiler(const char *program, char *const argv[],
                        const char *log_path,
                        const pagani_compiler_limits *limits, int *status)
{
    sigset_t all, old;
    pid_t caller = getpid(), pid = -1;
    int null_fd, log_fd, report_fds[2] = {-1, -1}, err = 0, watchdog_status;
    null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    log_fd = open(log_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (null_fd < 0 || log_fd < 0 || pipe2(report_fds, O_CLOEXEC) != 0) {
        err = errno;
    } else {
        sigfillset(&all);
        pthread_sigmask(SIG_SETMASK, &all, &old);
        pid = fork();
        if (pid == 0)
            run_watchdog(program, argv, null_fd, log_fd, report_fds[1],
                         caller, limits);
        if (pid < 0) err = errno;
        pthread_sigmask(SIG_SETMASK, &old, NULL);
    }
    if (report_fds[1] >= 0) close(report_fds[1]);
    if (pid > 0) {
        err = read_reports(report_fds[0], status);
        while (waitpid(pid, &watchdog_status, 0) < 0 && errno == EINTR)
            ;
    }
    if (report_fds[0] >= 0) close(report_fds[0]);
    if (log_fd >= 0) close(log_fd);
    if (null_fd >= 0) close(null_fd);
    errno = err;
    return err ? -1 : 0;
}
