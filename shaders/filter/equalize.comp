#version 450
// cv2.equalizeHist of a 1-component unorm source with L + 1 codes (SRC_LEVELS), or
// of component 0 of a gray + alpha source (alpha kept):
// pass 0 counts the codes into h[0..L] of the scratch buffer (zeroed), pass 1 (one
// work group, one invocation of it after the gather) turns the counts into the table
// h[L+1 ..] as OpenCV does, pass 2
// maps every texel through it.
#include "filter.glsl"
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 3, std430) buffer Scratch { uint h[]; } S;

#define ROWS 8
shared uint local_h[256];
// At most 256 codes (8 bits): counts and the table pass work on them in local_h.
bool small_codes() { return SRC_LEVELS <= 255.0; }

uint code_at(ivec2 p) { return uint(floor(clamp(texelFetch(src, p, 0).x, 0.0, 1.0) * SRC_LEVELS + 0.5)); }

void count()
{
    bool small = small_codes();
    uint lid = gl_LocalInvocationIndex;
    if (small) local_h[lid] = 0u;
    barrier();
    ivec2 base = ivec2(gl_WorkGroupID.xy) * ivec2(16, 16 * ROWS) + ivec2(gl_LocalInvocationID.xy);
    for (int r = 0; r < ROWS; r++) {
        ivec2 p = base + ivec2(0, 16 * r);
        if (p.x >= P.size.x || p.y >= P.size.y) continue;
        uint c = code_at(p);
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

void table()
{
    uint lid = gl_LocalInvocationIndex;
    if (small_codes()) local_h[lid] = S.h[lid]; // 256 invocations
    barrier();
    if (lid == 0u) equalize_table(uint(SRC_LEVELS), uint(P.size.x) * uint(P.size.y));
}

void main()
{
    if (PASS == 0) count();
    else if (PASS == 1) table();
    else {
        ivec2 p = ivec2(gl_GlobalInvocationID.xy);
        if (outside(p)) return;
        uint L = uint(SRC_LEVELS);
        store(p, vec4(float(S.h[L + 1u + code_at(p)]) / SRC_LEVELS, texelFetch(src, p, 0).y, 0.0, 0.0));
    }
}
