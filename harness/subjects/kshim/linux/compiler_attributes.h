/* lz4gate kshim: the kernel splits attributes over two headers. */
#include <linux/compiler_types.h>
