/* lz4gate kshim: module metadata emits nothing. */
#ifndef LZ4GATE_KSHIM_MODULE_H
#define LZ4GATE_KSHIM_MODULE_H

#include <linux/export.h>
#include <linux/init.h>

#define MODULE_LICENSE(s)     _Static_assert(1, s)
#define MODULE_DESCRIPTION(s) _Static_assert(1, s)
#define MODULE_AUTHOR(s)      _Static_assert(1, s)
#define MODULE_VERSION(s)     _Static_assert(1, s)
#define MODULE_ALIAS(s)       _Static_assert(1, s)
#define MODULE_SOFTDEP(s)     _Static_assert(1, s)
#define MODULE_IMPORT_NS(ns)  _Static_assert(1, #ns)
#define module_init(fn)       extern __typeof__(fn) fn
#define module_exit(fn)       extern __typeof__(fn) fn
#define THIS_MODULE           ((void *)0)

#endif
