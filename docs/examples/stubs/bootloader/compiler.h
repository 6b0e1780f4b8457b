/* Stub of the boot loader header <compiler.h>: see boot_env.h. */
#include "boot_env.h"
