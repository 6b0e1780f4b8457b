/* Stub of a file system header the LZ4 copy includes: nothing is needed
 * from it in user space (see zfs_context.h). */
