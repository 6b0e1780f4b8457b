/* lz4gate kshim: min/max. Like the kernel's, min()/max() warn when the two
 * operands have different types (comparison of distinct pointer types)
 * and evaluate each operand once. Temporaries get unique names
 * (__COUNTER__), so the macros nest without shadowing. */
#ifndef LZ4GATE_KSHIM_MINMAX_H
#define LZ4GATE_KSHIM_MINMAX_H

#define __kshim_paste_(a, b) a##b
#define __kshim_paste(a, b) __kshim_paste_(a, b)
#define __kshim_uid(prefix) __kshim_paste(prefix, __COUNTER__)

#define __kshim_cmp(x, y, op, a, b) __extension__ ({ \
	__typeof__(x) a = (x); \
	__typeof__(y) b = (y); \
	(void)(&a == &b); \
	a op b ? a : b; })

#define __kshim_cmp_t(type, x, y, op, a, b) __extension__ ({ \
	type a = (x); \
	type b = (y); \
	a op b ? a : b; })

#define min(x, y) __kshim_cmp(x, y, <, __kshim_uid(__kmin_x), \
			      __kshim_uid(__kmin_y))
#define max(x, y) __kshim_cmp(x, y, >, __kshim_uid(__kmax_x), \
			      __kshim_uid(__kmax_y))
#define min_t(type, x, y) __kshim_cmp_t(type, x, y, <, \
			      __kshim_uid(__kmin_x), __kshim_uid(__kmin_y))
#define max_t(type, x, y) __kshim_cmp_t(type, x, y, >, \
			      __kshim_uid(__kmax_x), __kshim_uid(__kmax_y))
#define min3(x, y, z) min((__typeof__(x))min(x, y), z)
#define max3(x, y, z) max((__typeof__(x))max(x, y), z)
#define clamp(val, lo, hi) min((__typeof__(val))max(val, lo), hi)
#define clamp_t(type, val, lo, hi) min_t(type, max_t(type, val, lo), hi)

#endif
