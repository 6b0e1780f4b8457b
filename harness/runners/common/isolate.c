/* Running a check in a child process (isolate.h). */
#define _DEFAULT_SOURCE
#include "isolate.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

/* A class travels through the pipe in one byte. */
_Static_assert(FAIL_CLASS_COUNT <= 256, "fail classes must fit a byte");

const char *verdict_name(enum verdict v)
{
    static const char *const names[] = { "pass", "FAIL", "CRASH", "TIMEOUT", "n/a" };
    return (unsigned)v < sizeof names / sizeof names[0] ? names[v] : "?";
}

/*
 * What a child writes to a pipe, kept within a bound: the first HEAD bytes
 * and the last TAIL bytes. The parent reads both of the child's pipes as
 * the data comes (poll), so a child that writes more than a pipe holds to
 * one of them never blocks on it; the rest is read and dropped. A
 * sanitizer report is at the end of stderr, a check's own early output at
 * its start: the runners look for the first report line in both.
 */
#define HEAD 16384
#define TAIL 16384

typedef struct capture {
    int fd;                /* -1 at end of file */
    char head[HEAD];
    size_t head_len;
    char tail[TAIL];       /* ring: byte i of what came after the head at tail[i % TAIL] */
    size_t tail_total;
} capture;

static void take(capture *c, const char *p, size_t n)
{
    size_t h = n < HEAD - c->head_len ? n : HEAD - c->head_len;
    memcpy(c->head + c->head_len, p, h);
    c->head_len += h;
    for (p += h, n -= h; n; p++, n--)
        c->tail[c->tail_total++ % TAIL] = *p;
}

/* Read what is there; at end of file (or error) close the pipe. */
static void read_some(capture *c)
{
    char chunk[4096];
    ssize_t r = read(c->fd, chunk, sizeof chunk);
    if (r > 0) {
        take(c, chunk, (size_t)r);
    } else if (r == 0 || errno != EINTR) {
        close(c->fd);
        c->fd = -1;
    }
}

/* Both pipes until the child has closed both (it exits, or is killed). */
static void read_both(capture *a, capture *b)
{
    while (a->fd >= 0 || b->fd >= 0) {
        struct pollfd fds[2];
        int n = 0, i;
        capture *of[2];
        if (a->fd >= 0) { fds[n].fd = a->fd; fds[n].events = POLLIN; of[n++] = a; }
        if (b->fd >= 0) { fds[n].fd = b->fd; fds[n].events = POLLIN; of[n++] = b; }
        if (poll(fds, (nfds_t)n, -1) < 0) {
            if (errno == EINTR)
                continue;
            perror("poll");
            exit(2);
        }
        for (i = 0; i < n; i++)
            if (fds[i].revents)
                read_some(of[i]);
    }
}

/* The captured text, NUL-terminated, into out (HEAD + TAIL + 2 bytes): the
 * head, then the tail from its first whole line when bytes were dropped
 * between them. */
static void captured_text(const capture *c, char *out)
{
    size_t n = c->head_len, kept = c->tail_total < TAIL ? c->tail_total : TAIL, i;
    size_t first = c->tail_total - kept;
    memcpy(out, c->head, n);
    if (c->tail_total > TAIL) {
        /* dropped bytes: start the tail at a line start */
        while (kept && c->tail[first % TAIL] != '\n')
            first++, kept--;
        out[n++] = '\n';
    }
    for (i = 0; i < kept; i++)
        out[n++] = c->tail[(first + i) % TAIL];
    out[n] = 0;
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

#define STEP "lz4gate-step "

void isolate_step(const char *fmt, ...)
{
    char line[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    fprintf(stderr, STEP "%s\n", line);
    fflush(stderr);
}

/* The text of the last step line (isolate_step) in text, or "". */
static void last_step(const char *text, char *out, size_t cap)
{
    const char *hit = NULL, *p = text, *end;
    while ((p = strstr(p, STEP)) != NULL) {
        if (p == text || p[-1] == '\n')
            hit = p + strlen(STEP);
        p += strlen(STEP);
    }
    out[0] = '\0';
    if (hit) {
        end = strchr(hit, '\n');
        snprintf(out, cap, "%.*s", (int)(end ? end - hit : (long)strlen(hit)), hit);
    }
}

/* A crash's report for the reader: the last step line, the buffer map
 * lines (guard.h) and the sanitizer's report from its ERROR line on, as
 * much as fits. */
static void keep_report(const char *text, char *out, size_t cap)
{
    const char *line = text, *error = strstr(text, "ERROR: ");
    char step[256];
    size_t used = 0;
    out[0] = '\0';
    last_step(text, step, sizeof step);
    if (step[0])
        used = (size_t)snprintf(out, cap, STEP "%s\n", step);
    while (line && *line) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) + 1 : strlen(line);
        if (!strncmp(line, "lz4gate-buffer ", 15) && used + len < cap) {
            memcpy(out + used, line, len);
            used += len;
        }
        line = end ? end + 1 : NULL;
    }
    if (error) {
        while (error > text && error[-1] != '\n')
            error--;
        snprintf(out + used, cap - used, "%s", error);
    }
}

#ifdef LZ4GATE_GCOV
void __gcov_dump(void);
#endif

/* In the child: run the check and send its verdict; never returns. */
static void run_child(check_fn fn, const void *arg, unsigned timeout, int msg_fd, int err_fd)
{
    check_result res;
    char m[512] = "";
    char head[2];
    dup2(err_fd, 2);
    if (timeout)
        alarm(timeout);
    res = fn(arg, m, sizeof m);
    /* The verdict travels through the pipe: no exit code is trusted,
     * since sanitizers choose their own. 'P', or 'F', the class's code in
     * one byte, and the message. */
    head[0] = check_failed(res) ? 'F' : 'P';
    head[1] = (char)(unsigned char)res.cls;
    if (write(msg_fd, head, check_failed(res) ? 2 : 1) != (check_failed(res) ? 2 : 1) ||
        (check_failed(res) && write(msg_fd, m, strlen(m)) < 0))
        _exit(3);
#ifdef LZ4GATE_GCOV
    __gcov_dump();   /* _exit skips the coverage writer */
#endif
    _exit(0);
}

static char err_text[HEAD + TAIL + 2];
static int last_status;

const char *isolate_last_stderr(void)
{
    return err_text;
}

int isolate_last_status(void)
{
    return last_status;
}

/* A check's failure must name a class of fail_class.h: one that does not
 * is a defect of the runner, never a result (a verdict is never guessed). */
static enum fail_class named_class(enum fail_class cls)
{
    if (!fail_class_name(cls)) {
        fprintf(stderr, "isolate: a check failed with class %d, which fail_class.h does "
                "not have (a defect of lz4gate's runner)\n", (int)cls);
        exit(2);
    }
    return cls;
}

/* r from how the child ended (status), its verdict message (msg_text: 'P',
 * or 'F', the class's code in one byte and the message) and its stderr
 * (err_text). */
static void classify(isolate_result *r, int status, const char *msg_text, unsigned timeout)
{
    first_line_with(err_text, "runtime error:", r->ubsan, sizeof r->ubsan);
    if (msg_text[0] == 'P' && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        r->verdict = V_PASS;
    } else if (msg_text[0] == 'F' && msg_text[1] && WIFEXITED(status) &&
               WEXITSTATUS(status) == 0) {
        r->verdict = V_FAIL;
        r->cls = named_class((enum fail_class)(unsigned char)msg_text[1]);
        snprintf(r->evidence, sizeof r->evidence, "%s", msg_text + 2);
    } else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) {
        r->verdict = V_TIMEOUT;
        snprintf(r->evidence, sizeof r->evidence, "no result after %u s", timeout);
    } else {
        char step[256];
        r->verdict = V_CRASH;
        keep_report(err_text, r->report, sizeof r->report);
        last_step(err_text, step, sizeof step);
        if (!first_line_with(err_text, "ERROR: AddressSanitizer", r->evidence, sizeof r->evidence) &&
            !first_line_with(err_text, "runtime error:", r->evidence, sizeof r->evidence)) {
            if (WIFSIGNALED(status))
                snprintf(r->evidence, sizeof r->evidence, "killed by signal %d (%s)",
                         WTERMSIG(status), strsignal(WTERMSIG(status)));
            else
                snprintf(r->evidence, sizeof r->evidence, "exit status %d, no verdict",
                         WEXITSTATUS(status));
        }
        if (step[0]) {
            size_t used = strlen(r->evidence);
            snprintf(r->evidence + used, sizeof r->evidence - used, " (at: %s)", step);
        }
    }
}

isolate_result isolate_run(check_fn fn, const void *arg, unsigned timeout, int no_fork)
{
    static capture msg, err;          /* static: 64 KiB is a lot of stack */
    static char msg_text[HEAD + TAIL + 2];
    isolate_result r;
    int msg_pipe[2], err_pipe[2], status;
    pid_t pid;

    memset(&r, 0, sizeof r);
    err_text[0] = '\0';
    last_status = 0;
    if (no_fork) {
        check_result res = fn(arg, r.evidence, sizeof r.evidence);
        r.verdict = check_failed(res) ? V_FAIL : V_PASS;
        if (check_failed(res))
            r.cls = named_class(res.cls);
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
        close(msg_pipe[0]);
        close(err_pipe[0]);
        run_child(fn, arg, timeout, msg_pipe[1], err_pipe[1]);
    }
    close(msg_pipe[1]);
    close(err_pipe[1]);
    memset(&msg, 0, sizeof msg);
    memset(&err, 0, sizeof err);
    msg.fd = msg_pipe[0];
    err.fd = err_pipe[0];
    read_both(&msg, &err);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    captured_text(&msg, msg_text);
    captured_text(&err, err_text);
    last_status = WIFSIGNALED(status) ? -WTERMSIG(status) : WEXITSTATUS(status);

    classify(&r, status, msg_text, timeout);
    return r;
}

/*
 * isolate_each: one worker process runs jobs one after another until a job
 * does not pass silently; then this process starts a fresh worker at the
 * next job. Starting a process costs more than most checks (a fork of a
 * sanitizer runtime, and under qemu-i386 much more), so a run of N checks
 * costs one fork plus one per check that failed, crashed, timed out or
 * wrote to stderr, instead of N. A job's stderr goes to a file rewound
 * before each job, so it is that job's alone; a shared page says which job
 * the worker is in, so a crash or a hang is that job's result.
 * LZ4GATE_FORK_EACH=1 forks once per job instead (isolate_run), the mode a
 * test compares this one with.
 */
enum { NO_JOB = -1 };

struct worker_state {
    long running;       /* the job the worker is in, or NO_JOB */
    long next;          /* the first job whose result was not reported */
};

/* The job's stderr file into err_text (head and tail, as the pipes keep). */
static void read_err_file(int fd)
{
    static capture c;
    char chunk[4096];
    off_t at = 0;
    ssize_t got;
    memset(&c, 0, sizeof c);
    while ((got = pread(fd, chunk, sizeof chunk, at)) > 0) {
        take(&c, chunk, (size_t)got);
        at += got;
    }
    captured_text(&c, err_text);
}

/* Only buffer-map (guard.h) and step lines on stderr: nothing that asks for
 * a fresh process. */
static int quiet_stderr(const char *text)
{
    while (*text) {
        const char *end = strchr(text, '\n');
        if (strncmp(text, "lz4gate-buffer ", 15) != 0 && strncmp(text, STEP, strlen(STEP)))
            return 0;
        if (!end)
            break;
        text = end + 1;
    }
    return 1;
}

static isolate_result not_run(void)
{
    isolate_result r;
    memset(&r, 0, sizeof r);
    r.verdict = V_NOT_APPLICABLE;
    return r;
}

/* In the worker: jobs from `first` on, until one does not pass silently. */
static void run_worker(const isolate_job *jobs, size_t n, size_t first, isolate_done_fn done,
                       void *ctx, struct worker_state *st, int err_fd)
{
    size_t k;
    dup2(err_fd, 2);
    for (k = first; k < n; k++) {
        isolate_result r = not_run();
        char m[512] = "", text[sizeof m + 2];
        check_result res = CHECK_PASS;
        last_status = 0;
        err_text[0] = '\0';
        if (jobs[k].fn) {
            if (ftruncate(2, 0) != 0 || lseek(2, 0, SEEK_SET) != 0)
                _exit(3);
            st->running = (long)k;
            if (jobs[k].timeout)
                alarm(jobs[k].timeout);
            res = jobs[k].fn(jobs[k].arg, m, sizeof m);
            alarm(0);
            read_err_file(2);
            /* the pipe's message, as run_child writes it */
            text[0] = check_failed(res) ? 'F' : 'P';
            text[1] = check_failed(res) ? (char)(unsigned char)res.cls : '\0';
            snprintf(text + 2, sizeof text - 2, "%s", m);
            classify(&r, 0, text, jobs[k].timeout);
        }
        done(k, &r, ctx);
        fflush(stdout);
        st->running = NO_JOB;
        st->next = (long)k + 1;
        if (r.verdict != V_PASS && r.verdict != V_NOT_APPLICABLE)
            break;
        if (r.verdict == V_PASS && !quiet_stderr(err_text))
            break;
    }
    _exit(0);
}

static void each_forking(const isolate_job *jobs, size_t n, isolate_done_fn done, void *ctx,
                         int no_fork)
{
    size_t k;
    for (k = 0; k < n; k++) {
        isolate_result r = jobs[k].fn ? isolate_run(jobs[k].fn, jobs[k].arg, jobs[k].timeout,
                                                    no_fork) : not_run();
        done(k, &r, ctx);
        fflush(stdout);
    }
}

void isolate_each(const isolate_job *jobs, size_t n, isolate_done_fn done, void *ctx,
                  int no_fork)
{
    const char *each = getenv("LZ4GATE_FORK_EACH");
    struct worker_state *st;
    FILE *err_file;
    size_t next = 0;

#ifdef LZ4GATE_GCOV
    each = "1";     /* every check's coverage is written, even before a crash */
#endif
    if (no_fork || (each && *each == '1')) {
        each_forking(jobs, n, done, ctx, no_fork);
        return;
    }
    st = mmap(NULL, sizeof *st, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    err_file = tmpfile();
    if (st == MAP_FAILED || !err_file) {
        perror("isolate: shared page or stderr file");
        exit(2);
    }
    while (next < n) {
        int status;
        pid_t pid;
        st->running = NO_JOB;
        st->next = (long)next;
        fflush(stdout);
        fflush(stderr);
        pid = fork();
        if (pid < 0) {
            perror("fork");
            exit(2);
        }
        if (pid == 0)
            run_worker(jobs, n, next, done, ctx, st, fileno(err_file));
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
            ;
        if (st->running != NO_JOB) {
            /* the worker ended inside a job: that job's result */
            isolate_result r = not_run();
            size_t k = (size_t)st->running;
            read_err_file(fileno(err_file));
            last_status = WIFSIGNALED(status) ? -WTERMSIG(status) : WEXITSTATUS(status);
            classify(&r, status, "", jobs[k].timeout);
            done(k, &r, ctx);
            fflush(stdout);
            next = k + 1;
        } else if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && (size_t)st->next > next) {
            next = (size_t)st->next;
        } else {
            fprintf(stderr, "isolate: the worker stopped outside a check after job %ld "
                    "(status %d)\n", st->next, status);
            exit(2);
        }
    }
    fclose(err_file);
    munmap(st, sizeof *st);
}
