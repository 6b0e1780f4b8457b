/* lz4gate finding ULZ4-LZ4F-ALLOCFAIL-REUSE: an LZ4F compression context
 * whose state could not be reallocated (a level change from fast to HC, the
 * allocation fails, LZ4F_compressBegin reports allocation_failed) keeps the
 * record of its old, freed state; the next frame at a fast level takes that
 * record as "a state of the right size exists" and uses the NULL pointer.
 * Written for lz4gate (our own code). Exit: 1 defect shown, 0 not shown,
 * 2 could not run. Build (see docs/findings/ULZ4-LZ4F-ALLOCFAIL-REUSE.md):
 *   lz4 1.9.4 and later (a custom allocator, LZ4F_createCompressionContext_advanced):
 *     cc -I<tree>/lib repro.c <tree>/lib/lz4frame.c <tree>/lib/lz4.c
 *        <tree>/lib/lz4hc.c <tree>/lib/xxhash.c      (or: cc repro.c -llz4)
 *   earlier releases (the failing allocation is a malloc/calloc wrapper):
 *     the same, plus -Wl,--wrap=malloc,--wrap=calloc */
#define _POSIX_C_SOURCE 200809L
#define LZ4F_STATIC_LINKING_ONLY
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lz4.h"
#include "lz4frame.h"

#if defined(LZ4_VERSION_NUMBER) && LZ4_VERSION_NUMBER >= 10904
#define REPRO_CUSTOM_MEM 1
#endif

#define DATA_SIZE 100000

static int fail_next;           /* the next allocation the library makes fails */
static int failed_one;          /* ... and it did */
static const char *volatile step = "setup";

static int take_failure(void)
{
	if (!fail_next)
		return 0;
	fail_next = 0;
	failed_one = 1;
	return 1;
}

#if defined(REPRO_CUSTOM_MEM)
static void *my_alloc(void *opaque, size_t n)
{
	(void)opaque;
	return take_failure() ? NULL : malloc(n);
}

static void *my_calloc(void *opaque, size_t n)
{
	(void)opaque;
	return take_failure() ? NULL : calloc(1, n);
}

static void my_free(void *opaque, void *p)
{
	(void)opaque;
	free(p);
}
#else
/* -Wl,--wrap=malloc,--wrap=calloc: the library's malloc and calloc calls
 * come here. */
void *__real_malloc(size_t n);
void *__real_calloc(size_t k, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t k, size_t n);
void *__wrap_malloc(size_t n) { return take_failure() ? NULL : __real_malloc(n); }
void *__wrap_calloc(size_t k, size_t n) { return take_failure() ? NULL : __real_calloc(k, n); }
#endif

static void say(const char *s) { ssize_t r = write(1, s, strlen(s)); (void)r; }

/* A NULL dereference ends the run here (async-signal-safe output only). */
static void on_segv(int sig, siginfo_t *si, void *uc)
{
	char hex[2 + 2 * sizeof(void *) + 1];
	unsigned long a = (unsigned long)si->si_addr;
	int i;
	(void)sig;
	(void)uc;
	hex[0] = '0';
	hex[1] = 'x';
	for (i = 0; i < (int)(2 * sizeof(void *)); i++)
		hex[2 + i] = "0123456789abcdef"[(a >> (4 * (2 * sizeof(void *) - 1 - i))) & 15];
	hex[sizeof hex - 1] = 0;
	say("  SIGSEGV in ");
	say(step);
	say(", fault address ");
	say(hex);
	say(a < 0x100000 ? " (a NULL-based state)\n" : "\n");
	say("DEFECT shown: the context's state pointer is NULL after the failed "
	    "allocation, and the library dereferences it\n");
	_exit(1);
}

/* One frame of data at level on cctx: its size, or an LZ4F error code. */
static size_t one_frame(LZ4F_compressionContext_t cctx, int level, const char *data,
			char *dst, size_t cap)
{
	LZ4F_preferences_t prefs;
	size_t hdr, body, end;
	memset(&prefs, 0, sizeof(prefs));
	prefs.compressionLevel = level;
	step = level >= 3 ? "LZ4F_compressBegin (HC level)" : "LZ4F_compressBegin (fast level)";
	hdr = LZ4F_compressBegin(cctx, dst, cap, &prefs);
	if (LZ4F_isError(hdr))
		return hdr;
	step = "LZ4F_compressUpdate";
	body = LZ4F_compressUpdate(cctx, dst + hdr, cap - hdr, data, DATA_SIZE, NULL);
	if (LZ4F_isError(body))
		return body;
	step = "LZ4F_compressEnd";
	end = LZ4F_compressEnd(cctx, dst + hdr + body, cap - hdr - body, NULL);
	if (LZ4F_isError(end))
		return end;
	step = "after the frame";
	return hdr + body + end;
}

/* Whether frame[0..len) decodes to data. */
static int decodes(const char *frame, size_t len, const char *data)
{
	LZ4F_decompressionContext_t dctx;
	static char out[DATA_SIZE + 1];
	size_t in = len, outn = sizeof(out), r;
	if (LZ4F_isError(LZ4F_createDecompressionContext(&dctx, LZ4F_VERSION)))
		return 0;
	r = LZ4F_decompress(dctx, out, &outn, frame, &in, NULL);
	LZ4F_freeDecompressionContext(dctx);
	return !LZ4F_isError(r) && r == 0 && in == len && outn == DATA_SIZE &&
	       memcmp(out, data, DATA_SIZE) == 0;
}

int main(void)
{
	static char data[DATA_SIZE], dst[2 * DATA_SIZE + 1024];
	LZ4F_compressionContext_t cctx;
	struct sigaction sa;
	size_t r;
	int i;

	for (i = 0; i < DATA_SIZE; i++)     /* compressible text-like bytes */
		data[i] = "lz4gate allocation failure reuse "[(i * 7 + i / 97) % 33];
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_segv;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
#if defined(REPRO_CUSTOM_MEM)
	{
		LZ4F_CustomMem mem;
		mem.customAlloc = my_alloc;
		mem.customCalloc = my_calloc;
		mem.customFree = my_free;
		mem.opaqueState = NULL;
		cctx = LZ4F_createCompressionContext_advanced(mem, LZ4F_VERSION);
		printf("context: LZ4F_createCompressionContext_advanced (custom allocator)\n");
	}
#else
	if (LZ4F_isError(LZ4F_createCompressionContext(&cctx, LZ4F_VERSION)))
		cctx = NULL;
	printf("context: LZ4F_createCompressionContext (malloc/calloc wrapped)\n");
#endif
	if (!cctx) {
		printf("could not run: no compression context\n");
		return 2;
	}
	/* 1. A frame at a fast level: the context gets a fast state. */
	r = one_frame(cctx, 1, data, dst, sizeof(dst));
	if (LZ4F_isError(r)) {
		printf("could not run: the level-1 frame failed: %s\n", LZ4F_getErrorName(r));
		return 2;
	}
	printf("frame 1, level 1: %u bytes\n", (unsigned)r);
	/* 2. A frame at an HC level: the state must grow; that allocation fails. */
	printf("frame 2, level 9, the next allocation fails:\n");
	fflush(stdout);
	fail_next = 1;
	r = one_frame(cctx, 9, data, dst, sizeof(dst));
	fail_next = 0;
	if (!failed_one && !LZ4F_isError(r)) {
		/* r123: the (fast-only) state is part of the context */
		printf("  a frame: it allocated nothing that could fail\n");
		printf("not shown: the context holds its state, no allocation to fail\n");
		LZ4F_freeCompressionContext(cctx);
		return 0;
	}
	if (!failed_one) {
		printf("could not run: the level-9 frame failed without an allocation failing\n");
		return 2;
	}
	printf("  %s\n", LZ4F_isError(r) ? LZ4F_getErrorName(r) : "a frame (the failure was absorbed)");
	/* 3. The same context at a fast level again (a caller retrying with a
	 * cheaper level after the error is the natural reaction). */
	printf("frame 3, level 1, the same context:\n");
	fflush(stdout);
	r = one_frame(cctx, 1, data, dst, sizeof(dst));
	if (LZ4F_isError(r)) {
		printf("  %s\n", LZ4F_getErrorName(r));
		printf("not shown: the context reports an error instead of using a NULL state\n");
		LZ4F_freeCompressionContext(cctx);
		return 0;
	}
	LZ4F_freeCompressionContext(cctx);
	if (!decodes(dst, r, data)) {
		printf("  %u bytes that do not decode to the data\n", (unsigned)r);
		printf("DEFECT shown: after the failed allocation the context makes a "
		       "corrupt frame\n");
		return 1;
	}
	printf("  %u bytes, decodes to the data\n", (unsigned)r);
	printf("not shown: the context recovered after the failed allocation\n");
	return 0;
}
