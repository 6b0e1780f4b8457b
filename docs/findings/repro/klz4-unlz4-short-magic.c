/* lz4gate finding KLZ4-UNLZ4-SHORT-MAGIC: unlz4() in buffer mode reads the
 * 4-byte magic number without checking that the buffer holds 4 bytes.
 * Written for lz4gate (our own code). Exit: 1 defect shown, 0 not shown,
 * 2 could not run. Build (see docs/findings/KLZ4-UNLZ4-SHORT-MAGIC.md):
 *   cc -std=gnu11 -fno-strict-aliasing -I<lz4gate>/harness/subjects/kshim
 *      -I<tree>/include repro.c <tree>/lib/decompress_unlz4.c
 *      <tree>/lib/lz4/lz4_decompress.c
 * The 1-byte input is placed just before an inaccessible page: reading
 * past it faults in a child process. */
#define _DEFAULT_SOURCE 1
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/types.h>
#include <linux/decompress/unlz4.h>

static void on_error(char *msg)
{
	printf("  unlz4 error(): %s\n", msg);
}

/* Kernels before 3.19 declared int sizes and callbacks: build with
 * -DREPRO_UNLZ4_INT for them. */
#ifdef REPRO_UNLZ4_INT
typedef int len_t;
#else
typedef long len_t;
#endif

int main(void)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned char *area, *in, *out;
	len_t pos = 0;
	int status, ret;
	pid_t pid;

	area = mmap(NULL, 2 * (size_t)page, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	out = malloc(1 << 16);
	if (area == MAP_FAILED || !out || mprotect(area + page, (size_t)page, PROT_NONE)) {
		printf("could not run: no guard page\n");
		return 2;
	}
	in = area + page - 1;
	in[0] = 0x02;   /* the first byte of the legacy magic 02 21 4C 18 */
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		printf("could not run: fork failed\n");
		return 2;
	}
	if (pid == 0) {
		ret = unlz4(in, 1, NULL, NULL, out, &pos, on_error);
		printf("  unlz4 on a 1-byte buffer returned %d without reading past it\n", ret);
		fflush(stdout);
		_exit(ret < 0 ? 0 : 3);
	}
	if (waitpid(pid, &status, 0) != pid) {
		printf("could not run: waitpid failed\n");
		return 2;
	}
	if (WIFSIGNALED(status) && (WTERMSIG(status) == SIGSEGV || WTERMSIG(status) == SIGBUS)) {
		printf("DEFECT shown: unlz4(in, 1, ...) read past its 1-byte input "
		       "(signal %d at the guard page)\n", WTERMSIG(status));
		return 1;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		printf("not shown: the short buffer is rejected without reading past it\n");
		return 0;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 3) {
		printf("DEFECT shown: a 1-byte buffer was accepted as a stream\n");
		return 1;
	}
	printf("could not run: child ended with status %d\n", status);
	return 2;
}
