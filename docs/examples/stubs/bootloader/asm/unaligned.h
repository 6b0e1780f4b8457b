/* Stub of the boot loader header <asm/unaligned.h>: see boot_env.h. */
#include "../boot_env.h"
