/* The element type table (see include/ampvk/types.h). */
#include "ampvk/types.h"

#include <string.h>

static const char *const scalar_names[] = {NULL, "int", "uint", "float", "double", "norm", "unorm"};
static const size_t scalar_sizes[] = {0, 4, 4, 4, 8, 4, 4};

amp_scalar amp_type_scalar(amp_type t)
{
    int s = (int)t >> 3, n = (int)t & 7;
    return (s >= AMP_SCALAR_INT && s <= AMP_SCALAR_UNORM && n >= 1 && n <= 4) ? (amp_scalar)s : AMP_SCALAR_NONE;
}

int amp_type_components(amp_type t) { return amp_type_scalar(t) ? (int)t & 7 : 0; }

size_t amp_type_size(amp_type t) { return scalar_sizes[amp_type_scalar(t)] * (size_t)amp_type_components(t); }

const char *amp_type_name(amp_type t)
{
    /* Names are built once into a static table indexed by the type value. */
    static const char *const names[] = {
#define AMP__NAMES(s) s, s "_2", s "_3", s "_4", NULL, NULL, NULL, NULL
        "struct", NULL, NULL, NULL, NULL, NULL, NULL, NULL,
        AMP__NAMES("int"), AMP__NAMES("uint"), AMP__NAMES("float"),
        AMP__NAMES("double"), AMP__NAMES("norm"), AMP__NAMES("unorm")
#undef AMP__NAMES
    };
    if (t == AMP_TYPE_STRUCT) return "struct";
    if (!amp_type_scalar(t)) return "invalid";
    return names[(int)t - 1]; /* entry s*8 + (n-1) for type s<<3|n */
}

amp_type amp_type_from_name(const char *name)
{
    if (!name) return AMP_TYPE_STRUCT;
    for (int s = AMP_SCALAR_INT; s <= AMP_SCALAR_UNORM; s++) {
        size_t len = strlen(scalar_names[s]);
        if (strncmp(name, scalar_names[s], len) != 0) continue;
        if (name[len] == 0) return (amp_type)AMP_MAKE_TYPE(s, 1);
        if (name[len] == '_' && name[len + 1] >= '2' && name[len + 1] <= '4' && name[len + 2] == 0)
            return (amp_type)AMP_MAKE_TYPE(s, name[len + 1] - '0');
    }
    return AMP_TYPE_STRUCT;
}
