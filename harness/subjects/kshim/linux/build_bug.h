/* lz4gate kshim: compile-time assertions. */
#ifndef LZ4GATE_KSHIM_BUILD_BUG_H
#define LZ4GATE_KSHIM_BUILD_BUG_H

#define BUILD_BUG_ON(cond) \
	do { _Static_assert(!(cond), "BUILD_BUG_ON(" #cond ")"); } while (0)
#define BUILD_BUG_ON_MSG(cond, msg) \
	do { _Static_assert(!(cond), msg); } while (0)
#define BUILD_BUG_ON_ZERO(e) ((int)(sizeof(struct { int : (-!!(e)); })))
#define BUILD_BUG() BUILD_BUG_ON(1)
#ifndef static_assert
#define static_assert(expr, ...) _Static_assert(expr, "" __VA_ARGS__)
#endif

#endif
