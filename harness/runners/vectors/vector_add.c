/* Recording one known-answer vector (vector_add.h). */
#include "vector_add.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "buf.h"
#include "checks.h"
#include "defined_prefix.h"
#include "jsonl.h"
#include "ref_calls.h"
#include "sha256.h"
#include "vector_files.h"
#include "vector_index.h"

static const char *const profile_names[2] = { "strict", "compatible" };

/* Decode blk (partial: target = cap); out_copy, when given, receives the
 * cap-byte output buffer (the caller frees it). */
static outcome decode_with(const uint8_t *blk, size_t blen, size_t cap, const uint8_t *dict,
                           size_t dict_len, ref_profile profile, int partial,
                           uint8_t **out_copy)
{
    outcome o;
    uint8_t *out = xmalloc(cap);
    o.r = ref_decode_with(blk, blen, out, cap, dict, dict_len, profile, partial, cap);
    o.sha[0] = 0;
    if (o.r.status == REF_OK)
        sha256_hex(out, o.r.written, o.sha);
    if (out_copy)
        *out_copy = out;
    else
        free(out);
    return o;
}

/* The whole-block result of one profile against the design. */
static void check_design(const char *id, ref_profile prof, const outcome *o,
                         const uint8_t *out, const design *want)
{
    ref_status ws = prof == REF_PROFILE_STRICT ? want->strict : want->compatible;
    if (o->r.status != ws)
        die("%s: designed to give %s under the %s profile, ref_decode says %s "
            "(check %s, input position %zu)", id, ref_status_name(ws), profile_names[prof],
            ref_status_name(o->r.status), ref_check_name(o->r.failed_check), o->r.consumed);
    if (o->r.status != REF_OK)
        return;
    if (!want->output)
        die("%s: accepted under the %s profile but has no designed output", id,
            profile_names[prof]);
    if (o->r.written != want->output_len || memcmp(out, want->output, want->output_len) != 0)
        die("%s: ref_decode (%s) output differs from the designed output (%zu vs %zu bytes)",
            id, profile_names[prof], o->r.written, want->output_len);
}

/* "flags": [...] of the entry, counted; "malformed" last when not well formed. */
static void jw_flags(buf *b, const char *flags, int well_formed)
{
    char flagbuf[512], *tok, *save = NULL;
    int first = 1;
    jw_printf(b, ",\n      \"flags\": [");
    snprintf(flagbuf, sizeof flagbuf, "%s", flags);
    for (tok = strtok_r(flagbuf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        jw_printf(b, "%s", first ? "" : ", ");
        json_append_string(b, tok);
        index_count_flag(tok);
        first = 0;
    }
    if (!well_formed) {
        jw_printf(b, "%s\"malformed\"", first ? "" : ", ");
        index_count_flag("malformed");
    }
    jw_printf(b, "]");
}

void add_vector(const char *id, const char *comment, const char *flags, const uint8_t *blk,
                size_t blen, size_t cap, const char *dict_name, const uint8_t *dict,
                size_t dict_len, const design *want)
{
    buf b = { NULL, 0, 0 };
    char file[96], malformed_json[256] = "";
    outcome whole[2], part[2];
    int prof, well_formed = 0;

    if (strlen(id) > 64 || strspn(id, "abcdefghijklmnopqrstuvwxyz0123456789-_+") != strlen(id))
        die("bad vector id '%s'", id);
    if (index_has(id))
        die("duplicate vector id %s", id);

    for (prof = 0; prof < 2; prof++) {
        uint8_t *out;
        whole[prof] = decode_with(blk, blen, cap, dict, dict_len, (ref_profile)prof, 0, &out);
        check_design(id, (ref_profile)prof, &whole[prof], out, want);
        free(out);
        index_count_status((ref_profile)prof, whole[prof].r.status);
        if (cap > 0)
            part[prof] = decode_with(blk, blen, cap, dict, dict_len, (ref_profile)prof, 1,
                                     NULL);
        if (decode_with(blk, blen, AMPLE_CAPACITY, dict, dict_len, (ref_profile)prof, 0,
                        NULL).r.status == REF_OK)
            well_formed = 1;
    }
    if (!well_formed && cap > 0) {
        uint8_t *pre = xmalloc(cap);
        size_t n = defined_prefix(blk, blen, cap, dict, dict_len, pre);
        char sha[65];
        sha256_hex(pre, n, sha);
        snprintf(malformed_json, sizeof malformed_json,
                 "\"malformed\": {\"prefix_size\": %zu, \"prefix_sha256\": \"%s\"}", n, sha);
        free(pre);
    }

    snprintf(file, sizeof file, "%s.lz4", id);
    files_write(file, blk, blen);

    jw_printf(&b, "    {\n      \"id\": \"%s\",\n      \"file\": \"%s\",\n      \"size\": %zu,"
                  "\n      \"comment\": ", id, file, blen);
    json_append_string(&b, comment);
    jw_flags(&b, flags, well_formed);
    jw_printf(&b, ",\n      \"capacity\": %zu", cap);
    if (dict_name) {
        files_use_dict(dict_name, dict, dict_len);
        jw_printf(&b, ",\n      \"dict\": \"%s\",\n      \"dict_size\": %zu", dict_name,
                  dict_len);
    }
    jw_expected(&b, "expected", id, &whole[0], &whole[1], NULL);
    if (cap > 0)
        jw_expected(&b, "expected_partial", id, &part[0], &part[1],
                    malformed_json[0] ? malformed_json : NULL);
    jw_printf(&b, "\n    }");
    index_add(id, &b);
}
