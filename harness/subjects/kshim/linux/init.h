/* lz4gate kshim: section annotations are no-ops in userspace. */
#ifndef LZ4GATE_KSHIM_INIT_H
#define LZ4GATE_KSHIM_INIT_H

#define __init
#define __exit
#define __initdata
#define __initconst
#define __exitdata

#endif
