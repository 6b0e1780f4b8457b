/* Stub of the boot loader header <linux/kernel.h>: see boot_env.h. */
#include "../boot_env.h"
