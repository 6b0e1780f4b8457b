/* lz4gate kshim: the kernel's string functions are the C library's. */
#ifndef LZ4GATE_KSHIM_STRING_H
#define LZ4GATE_KSHIM_STRING_H

#include <linux/types.h>
#include <string.h>

#endif
