/* Stub of the boot loader header <image.h>: see boot_env.h. */
#include "boot_env.h"
