/* lz4gate kshim: compiler attributes and annotations used by kernel code. */
#ifndef LZ4GATE_KSHIM_COMPILER_TYPES_H
#define LZ4GATE_KSHIM_COMPILER_TYPES_H

#include <linux/kconfig.h>
/* The C library headers come first so that their own definitions of
 * names like __always_inline are in place before ours are considered. */
#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <string.h>

#ifndef __always_inline
#define __always_inline inline __attribute__((__always_inline__))
#endif
#define noinline        __attribute__((__noinline__))
#define __noreturn      __attribute__((__noreturn__))
#define __packed        __attribute__((__packed__))
#define __aligned(x)    __attribute__((__aligned__(x)))
#define __maybe_unused  __attribute__((__unused__))
#define __always_unused __attribute__((__unused__))
#define __used          __attribute__((__used__))
#define __must_check    __attribute__((__warn_unused_result__))
#define __pure          __attribute__((__pure__))
#define __cold          __attribute__((__cold__))
#define __weak          __attribute__((__weak__))
#define __printf(a, b)  __attribute__((__format__(printf, a, b)))
#define notrace
#define __visible
#define __section(s)    __attribute__((__section__(s)))

#if defined(__has_attribute)
#  if __has_attribute(__fallthrough__)
#    define fallthrough __attribute__((__fallthrough__))
#  endif
#endif
#ifndef fallthrough
#  define fallthrough do {} while (0)  /* fallthrough */
#endif

/* sparse / static-analysis annotations */
#define __user
#define __kernel
#define __iomem
#define __force
#define __bitwise
#define __safe
#define __nocast
#define __rcu
#define __percpu
#define __private
#define __acquires(x)
#define __releases(x)
#define __acquire(x)    ((void)0)
#define __release(x)    ((void)0)
#define __must_hold(x)
#define __cond_lock(x, c) (c)

#endif
