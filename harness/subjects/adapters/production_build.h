/*
 * Force-included (-include) before every subject source file: afl-clang-fast
 * and OSS-Fuzz's CFLAGS define FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION,
 * under which upstream lz4frame.c skips its magic-number and checksum
 * checks. lz4gate tests the code as shipped; a -U on the command line is not
 * enough, as afl-clang-fast appends its -D after the caller's flags.
 */
#undef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
