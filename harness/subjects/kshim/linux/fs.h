/* lz4gate kshim: included by linux/decompress/mm.h; nothing is used. */
#ifndef LZ4GATE_KSHIM_FS_H
#define LZ4GATE_KSHIM_FS_H
#include <linux/types.h>
#endif
