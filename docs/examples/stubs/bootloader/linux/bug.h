/* Stub of the boot loader header <linux/bug.h>: see boot_env.h. */
#include "../boot_env.h"
