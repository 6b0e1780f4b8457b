/*
 * make_vectors: writes lz4gate's known-answer vectors (corpus/vectors/).
 *
 *   make_vectors DIR        (python3 -m harness vectors --write DIR)
 *
 * Each vector is one LZ4 block in its own file <id>.lz4, from the
 * catalogues of catalogue.h: generated (ref_gen_block), edge (hand-made
 * valid blocks at the places decoders get wrong), dictionary, and invalid
 * (hand-made blocks for every ref_status error class a block can produce,
 * and the profile-dependent ones, including the shared malformed-block
 * table of malformed_blocks.c).
 *
 * For every vector, DIR/index.json records the capacity to decode with,
 * the dictionary file if any, and the expected result under the strict and
 * the compatible profile (ref/profile.c), for a whole-block decode and for a
 * partial decode with target = capacity; the expected output is given by
 * size and SHA-256. Expectations come from two independent sources that
 * must agree, or nothing is written (vector_add.h): the vector's own
 * construction, and ref_decode under both profiles. When the profiles
 * disagree the entry carries "acceptable" with the rule
 * (ref_profile_rule_for) that allows it.
 *
 * Deterministic: fixed seeds, no time, no addresses, the same bytes on
 * 32- and 64-bit hosts, so the committed files regenerate byte-identically
 * (python3 -m harness vectors --check corpus/vectors). Files in DIR named
 * *.lz4 or *.dict that this run did not write are removed.
 */
#include <stdio.h>
#include <string.h>

#include "catalogue.h"
#include "sha256.h"
#include "vector_files.h"
#include "vector_index.h"

int main(int argc, char **argv)
{
    if (argc != 2 || argv[1][0] == '-') {
        fprintf(stderr, "usage: %s DIR\n", argv[0]);
        return 2;
    }
    files_open_dir(argv[1]);
    if (!sha256_self_test())
        die("SHA-256 self-test failed");
    generated_vectors();
    edge_vectors();
    dict_vectors();
    invalid_vectors();
    index_write();
    files_remove_stale();
    printf("make_vectors: %zu vectors (%u generated), %zu files, %zu bytes in %s\n",
           index_count(), generated_count(), files_count(), files_bytes(), files_dir());
    return 0;
}
