/* Adding the rows of a hand-made catalogue (catalogue.h). */
#include "catalogue.h"

#include <stdio.h>

#include "vector_add.h"
#include "vector_files.h"

void add_handmade_table(const handmade_vector *rows, size_t n, const char *dict_name,
                        const uint8_t *dict, size_t dict_len)
{
    bld b = bld_new(dict, dict_len);
    size_t i;
    for (i = 0; i < n; i++) {
        const handmade_vector *v = &rows[i];
        design d;
        size_t cap;
        if (v->recipe[0].op != BLD_SAME_AS_ABOVE) {
            bld_free(&b);
            b = bld_new(dict, dict_len);
            bld_apply(&b, v->recipe, BLD_MAX_STEPS);
        } else if (i == 0) {
            die("%s: SAME_AS_ABOVE in the first row", v->id);
        }
        cap = v->cap.kind == CAP_FIXED ? v->cap.value : b.out.n + v->cap.value;
        d.strict = v->strict;
        d.compatible = v->compatible;
        d.output = b.out.p ? b.out.p : (const uint8_t *)"";
        d.output_len = b.out.n;
        add_vector(v->id, v->comment, v->flags, b.blk.p, b.blk.n, cap, dict_name, dict,
                   dict_len, &d);
        if (v->also_larger) {
            char id[96], comment[512], flags[256];
            snprintf(id, sizeof id, "%s-cap+%zu", v->id, v->also_larger);
            snprintf(comment, sizeof comment, "%s; capacity %zu bytes larger than the output",
                     v->comment, v->also_larger);
            snprintf(flags, sizeof flags, "%s capacity_larger", v->flags);
            add_vector(id, comment, flags, b.blk.p, b.blk.n, cap + v->also_larger, dict_name,
                       dict, dict_len, &d);
        }
    }
    bld_free(&b);
}
