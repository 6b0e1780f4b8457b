/* lz4gate kshim: configuration the kernel would get from Kconfig/arch. */
#ifndef LZ4GATE_KSHIM_KCONFIG_H
#define LZ4GATE_KSHIM_KCONFIG_H

#if __SIZEOF_POINTER__ == 8
#  ifndef CONFIG_64BIT
#    define CONFIG_64BIT 1
#  endif
#endif

/* The kernel defines exactly one of these (asm/byteorder.h). The values
 * match glibc's <endian.h>, so both may be seen without a redefinition. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#  ifndef __LITTLE_ENDIAN
#    define __LITTLE_ENDIAN 1234
#  endif
#elif defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#  ifndef __BIG_ENDIAN
#    define __BIG_ENDIAN 4321
#  endif
#else
#  error "kshim: unknown byte order"
#endif

#endif
