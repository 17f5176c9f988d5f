#version 450
// cv2.equalizeHist of a 1-component unorm source with L + 1 codes (SRC_LEVELS), or
// of component 0 of a gray + alpha source (alpha kept). A work group of 256 invocations
// takes a band of 256 columns and ROWS rows, a column an invocation.
// Pass 0 counts the codes into h[0..L] of the scratch buffer (zeroed): 8-bit codes into
// the group's shared counts first, then added to the buffer's (a group's 256 adds; groups of
// 16 x 128 texels had made about a million into the same 256 words for a 4K image).
// Pass 2 maps every texel through the table. For 8-bit codes every group of pass 2 makes
// the table itself from the counts (equalize_parallel: a scan of 256 counts, a code an
// invocation), so there is no pass 1 between them, nor its barrier. Wider codes (16 bits)
// count into the buffer alone and take pass 1 (one work group, one invocation of it) to
// make the table h[L+1 ..] as OpenCV does. (Three passes of 16 x 128 texels a group
// were about twice as slow: docs/perf.md.)
#include "filter.glsl"
layout(local_size_x = 256) in;
layout(set = 0, binding = 3, std430) buffer Scratch { uint h[]; } S;

#define ROWS EQUALIZE_ROWS // rows of a group's band
shared uint local_h[256];
// At most 256 codes (8 bits): counts and the table work on them in local_h.
bool small_codes() { return SRC_LEVELS <= 255.0; }

// The code of texel t's gray.
uint code_of(vec4 t) { return uint(floor(clamp(t.x, 0.0, 1.0) * SRC_LEVELS + 0.5)); }

// This invocation's column and the band's first row.
ivec2 band_start() { return ivec2(int(gl_WorkGroupID.x) * 256 + int(gl_LocalInvocationIndex), int(gl_WorkGroupID.y) * ROWS); }

void count()
{
    bool small = small_codes();
    uint lid = gl_LocalInvocationIndex;
    if (small) local_h[lid] = 0u;
    barrier();
    ivec2 p = band_start();
    int rows = min(ROWS, P.size.y - p.y);
    for (int r = 0; r < rows && p.x < P.size.x; r++) {
        uint c = code_of(texelFetch(src, p + ivec2(0, r), 0));
        if (small) atomicAdd(local_h[c], 1u);
        else atomicAdd(S.h[c], 1u);
    }
    barrier();
    if (small && local_h[lid] != 0u) atomicAdd(S.h[lid], local_h[lid]);
}

// The count of code j: 8-bit counts from local_h, where table() gathers them first (a
// single invocation reading the scratch buffer waits on each load in turn).
uint count_of(uint j) { return small_codes() ? local_h[j] : S.h[j]; }
#define EQ_COUNT(j) count_of(j)
#define EQ_STORE(j, code) S.h[uint(SRC_LEVELS) + 1u + (j)] = (code)
#include "equalize.glsl"

// Pass 1 (wider codes): the table into the buffer, by one invocation.
void table()
{
    if (gl_LocalInvocationIndex == 0u) equalize_table(uint(SRC_LEVELS), uint(P.size.x) * uint(P.size.y));
}

shared uint first_code;
// equalize_table's table of 8-bit codes made by the group, code j by invocation j, into
// local_h: the first code counted is the least j of a count, the cumulative counts an
// inclusive scan of local_h (whose entries up to that first code are 0, so that the
// first's own count is its cumulative one). The same numbers, and the same float
// operations on them, as equalize_table's.
void equalize_parallel(uint L, uint total)
{
    uint j = gl_LocalInvocationIndex;
    uint n = j <= L ? S.h[j] : 0u;
    local_h[j] = n;
    if (j == 0u) first_code = L;
    barrier();
    if (n != 0u) atomicMin(first_code, j);
    for (uint d = 1u; d < 256u; d <<= 1) {
        uint add = j >= d ? local_h[j - d] : 0u;
        barrier();
        local_h[j] += add;
        barrier();
    }
    uint i = first_code, first = local_h[i], sum = local_h[j] - first;
    bool one = first == total;
    uint code = j <= i || one ? (one ? i : 0u) : equalized_code(sum, equalize_scale(L, total - first), L);
    barrier();
    local_h[j] = code;
    barrier();
}

void main()
{
    uint L = uint(SRC_LEVELS);
    if (PASS == 0) {
        count();
    } else if (PASS == 1) {
        table();
    } else {
        if (small_codes()) equalize_parallel(L, uint(P.size.x) * uint(P.size.y));
        ivec2 p = band_start();
        int rows = min(ROWS, P.size.y - p.y);
        for (int r = 0; r < rows && p.x < P.size.x; r++) {
            ivec2 q = p + ivec2(0, r);
            vec4 t = texelFetch(src, q, 0);
            uint c = code_of(t), mapped = small_codes() ? local_h[c] : S.h[L + 1u + c];
            store(q, vec4(float(mapped) / SRC_LEVELS, t.y, 0.0, 0.0));
        }
    }
}
