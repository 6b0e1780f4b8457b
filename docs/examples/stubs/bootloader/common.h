/* Stub of the boot loader header <common.h>: see boot_env.h. */
#include "boot_env.h"
