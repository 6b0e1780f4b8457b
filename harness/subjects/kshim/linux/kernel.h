/* lz4gate kshim: the parts of <linux/kernel.h> that library code uses. */
#ifndef LZ4GATE_KSHIM_KERNEL_H
#define LZ4GATE_KSHIM_KERNEL_H

#include <linux/compiler.h>
#include <linux/types.h>
#include <linux/bitops.h>
#include <linux/build_bug.h>
#include <linux/minmax.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Logging compiles away: subjects must not print in the harness. The
 * arguments are still type-checked via a never-called printf. */
#define __kshim_nolog(...) \
	do { if (0) __builtin_printf(__VA_ARGS__); } while (0)
#define printk(...)   __kshim_nolog(__VA_ARGS__)
#define pr_emerg(...) __kshim_nolog(__VA_ARGS__)
#define pr_err(...)   __kshim_nolog(__VA_ARGS__)
#define pr_warn(...)  __kshim_nolog(__VA_ARGS__)
#define pr_info(...)  __kshim_nolog(__VA_ARGS__)
#define pr_debug(...) __kshim_nolog(__VA_ARGS__)

#endif
