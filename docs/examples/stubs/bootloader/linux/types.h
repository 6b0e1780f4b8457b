/* Stub of the boot loader header <linux/types.h>: see boot_env.h. */
#include "../boot_env.h"
