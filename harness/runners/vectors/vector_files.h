/*
 * vector_files.h: the files make_vectors writes into its output directory
 * (one <id>.lz4 per vector, the dictionaries, index.json), and the removal
 * of the *.lz4 / *.dict files of an earlier run that this run did not write.
 */
#ifndef LZ4GATE_VECTOR_FILES_H
#define LZ4GATE_VECTOR_FILES_H

#include <stddef.h>
#include <stdint.h>

/* Print "make_vectors: ..." and exit with status 1. */
void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* The directory (created if missing). */
void files_open_dir(const char *dir);
const char *files_dir(void);

/* Write DIR/name; dies on error. */
void files_write(const char *name, const void *data, size_t n);

/* Write a dictionary file once; a second use must have the same content. */
void files_use_dict(const char *name, const uint8_t *data, size_t len);

/* Remove the *.lz4 and *.dict files of DIR that this run did not write. */
void files_remove_stale(void);

/* Files written so far, and their bytes. */
size_t files_count(void);
size_t files_bytes(void);

#endif /* LZ4GATE_VECTOR_FILES_H */
