#define _DEFAULT_SOURCE
#include "isolate.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

const char *verdict_name(enum verdict v)
{
    static const char *const names[] = { "pass", "FAIL", "CRASH", "TIMEOUT", "n/a" };
    return (unsigned)v < sizeof names / sizeof names[0] ? names[v] : "?";
}

static void read_all(int fd, char *buf, size_t cap)
{
    size_t n = 0;
    ssize_t r;
    while (n + 1 < cap && (r = read(fd, buf + n, cap - 1 - n)) > 0)
        n += (size_t)r;
    buf[n] = 0;
    /* drain the rest so the child never blocks on a full pipe */
    {
        char sink[4096];
        while (read(fd, sink, sizeof sink) > 0)
            ;
    }
}

/* First line of text containing needle, copied to out. */
static int first_line_with(const char *text, const char *needle, char *out, size_t cap)
{
    const char *hit = strstr(text, needle), *start, *end;
    if (!hit)
        return 0;
    for (start = hit; start > text && start[-1] != '\n'; start--)
        ;
    end = strchr(hit, '\n');
    if (!end)
        end = hit + strlen(hit);
    snprintf(out, cap, "%.*s", (int)(end - start), start);
    return 1;
}

#ifdef LZ4GATE_GCOV
void __gcov_dump(void);
#endif

isolate_result isolate_run(check_fn fn, const void *arg, unsigned timeout, int no_fork)
{
    isolate_result r;
    int msg_pipe[2], err_pipe[2], status;
    pid_t pid;
    char msg[512], err[16384];

    memset(&r, 0, sizeof r);
    if (no_fork) {
        r.verdict = fn(arg, r.evidence, sizeof r.evidence) ? V_FAIL : V_PASS;
        return r;
    }
    fflush(stdout);
    fflush(stderr);
    if (pipe(msg_pipe) || pipe(err_pipe)) {
        perror("pipe");
        exit(2);
    }
    pid = fork();
    if (pid < 0) {
        perror("fork");
        exit(2);
    }
    if (pid == 0) {
        int failed;
        char m[512] = "";
        close(msg_pipe[0]);
        close(err_pipe[0]);
        dup2(err_pipe[1], 2);
        if (timeout)
            alarm(timeout);
        failed = fn(arg, m, sizeof m);
        /* The verdict travels through the pipe: no exit code is trusted,
         * since sanitizers choose their own. */
        if (write(msg_pipe[1], failed ? "F" : "P", 1) != 1 ||
            (failed && write(msg_pipe[1], m, strlen(m)) < 0))
            _exit(3);
#ifdef LZ4GATE_GCOV
        __gcov_dump();   /* _exit skips the coverage writer */
#endif
        _exit(0);
    }
    close(msg_pipe[1]);
    close(err_pipe[1]);
    read_all(msg_pipe[0], msg, sizeof msg);
    read_all(err_pipe[0], err, sizeof err);
    close(msg_pipe[0]);
    close(err_pipe[0]);
    waitpid(pid, &status, 0);

    first_line_with(err, "runtime error:", r.ubsan, sizeof r.ubsan);
    if (msg[0] == 'P' && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        r.verdict = V_PASS;
    } else if (msg[0] == 'F' && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        r.verdict = V_FAIL;
        snprintf(r.evidence, sizeof r.evidence, "%s", msg + 1);
    } else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) {
        r.verdict = V_TIMEOUT;
        snprintf(r.evidence, sizeof r.evidence, "no result after %u s", timeout);
    } else {
        r.verdict = V_CRASH;
        if (!first_line_with(err, "ERROR: AddressSanitizer", r.evidence, sizeof r.evidence) &&
            !first_line_with(err, "runtime error:", r.evidence, sizeof r.evidence)) {
            if (WIFSIGNALED(status))
                snprintf(r.evidence, sizeof r.evidence, "killed by signal %d (%s)",
                         WTERMSIG(status), strsignal(WTERMSIG(status)));
            else
                snprintf(r.evidence, sizeof r.evidence, "exit status %d, no verdict",
                         WEXITSTATUS(status));
        }
    }
    return r;
}
