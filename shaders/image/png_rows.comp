// The image layer's: PNG's row filtering of a 2-D texture on the device, for
// amp_texture_save (src/image/png_rows.c records it, src/image/png_write.c codes the
// result on the host). The texture is read through
// the uint view of its channels (an RGB8 texture's RGBA8 image: its first three),
// as bytes in PNG's order (16-bit samples big-endian). The stream is PNG's: each row
// a filter type byte, then the row's bytes filtered by it (PNG specification, 9).
// Three kernels, by define:
//   AMP_PNG_TYPES  a work group a row: each filter's sum of |filtered byte read as
//                  signed| over the whole row; the least (the first of equals) into
//                  the row's type word.
//   AMP_PNG_ROWS   an invocation a word of the stream: its four bytes.
//   AMP_PNG_COUNT  a work group 1024 bytes of the stream (which lie in one block of
//                  `block` bytes, a multiple of 1024): each byte value's count, and
//                  (the 257th) how many of them end 9 equal bytes, added into the
//                  block's 257 counts: the host codes a block with few such places
//                  as literals of those frequencies, without reading its bytes.
// The buffer: the stream's words from 0, the rows' types from word types_at, the
// blocks' counts (zeroed before) from word counts_at.
#version 460
layout(set = 0, binding = 0) uniform usampler2D src;
layout(set = 0, binding = 2, std430) buffer stream_t { uint word[]; };
layout(local_size_x = 256) in;

// image: width, height, channels, bytes a channel; at: types_at, counts_at, stream
// bytes, block bytes; row: bytes a row (the type byte not counted), bytes a pixel
layout(push_constant) uniform push_t {
    uvec4 image;
    uvec4 at;
    uvec4 row;
};

// byte k of row y as PNG stores it; 0 above the first row and left of the first pixel
uint sample_byte(int y, int k)
{
    if (y < 0 || k < 0) return 0u;
    uint bpp = row.y, b = image.w;
    uint texel = uint(k) / bpp, within = uint(k) - texel * bpp, ch = within / b;
    uint v = texelFetch(src, ivec2(int(texel), y), 0)[ch];
    return b == 2u && within == ch * 2u ? v >> 8 : v & 255u;
}

// the byte x under filter f, with a (left), b (above) and c (above left)
uint filter_byte(uint f, uint x, uint a, uint b, uint c)
{
    if (f == 0u) return x;
    if (f == 1u) return (x - a) & 255u;
    if (f == 2u) return (x - b) & 255u;
    if (f == 3u) return (x - ((a + b) >> 1)) & 255u;
    int p = int(a) + int(b) - int(c);
    int pa = abs(p - int(a)), pb = abs(p - int(b)), pc = abs(p - int(c));
    return (x - (pa <= pb && pa <= pc ? a : pb <= pc ? b : c)) & 255u;
}

// byte k of row y under filter f (the neighbours it needs fetched)
uint filtered(uint f, int y, int k)
{
    int bpp = int(row.y);
    uint x = sample_byte(y, k), a = f == 0u || f == 2u ? 0u : sample_byte(y, k - bpp);
    uint b = f < 2u ? 0u : sample_byte(y - 1, k), c = f < 4u ? 0u : sample_byte(y - 1, k - bpp);
    return filter_byte(f, x, a, b, c);
}

// |byte read as signed|
uint cost_of(uint v) { return v < 128u ? v : 256u - v; }

#if defined(AMP_PNG_TYPES)
shared uint sums[5][256];

void main()
{
    int y = int(gl_WorkGroupID.y);
    uint lid = gl_LocalInvocationID.x;
    uint s[5] = uint[5](0u, 0u, 0u, 0u, 0u);
    for (uint k = lid; k < row.x; k += 256u) {
        int bpp = int(row.y), kk = int(k);
        uint x = sample_byte(y, kk), a = sample_byte(y, kk - bpp), b = sample_byte(y - 1, kk),
             c = sample_byte(y - 1, kk - bpp);
        for (uint f = 0u; f < 5u; f++) s[f] += cost_of(filter_byte(f, x, a, b, c));
    }
    for (int f = 0; f < 5; f++) sums[f][lid] = s[f];
    barrier();
    for (uint half_ = 128u; half_ > 0u; half_ >>= 1) {
        if (lid < half_)
            for (int f = 0; f < 5; f++) sums[f][lid] += sums[f][lid + half_];
        barrier();
    }
    if (lid == 0u) {
        uint best = 0u;
        for (uint f = 1u; f < 5u; f++)
            if (sums[f][0] < sums[best][0]) best = f;
        word[at.x + uint(y)] = best;
    }
}
#elif defined(AMP_PNG_ROWS)
void main()
{
    uint words = (at.z + 3u) / 4u, line = row.x + 1u;
    for (uint g = gl_GlobalInvocationID.x; g < words; g += gl_NumWorkGroups.x * 256u) {
        uint w = 0u;
        for (uint j = 0u; j < 4u; j++) {
            uint i = 4u * g + j;
            if (i >= at.z) break;
            uint y = i / line, k = i - y * line;
            uint f = word[at.x + y];
            uint v = k == 0u ? f : filtered(f, int(y), int(k) - 1);
            w |= v << (8u * j);
        }
        word[g] = w;
    }
}
#else
shared uint counts[257];

uint stream_byte(uint i) { return word[i >> 2] >> (8u * (i & 3u)) & 255u; }

void main()
{
    uint lid = gl_LocalInvocationID.x, groups = (at.z + 1023u) / 1024u;
    for (uint grp = gl_WorkGroupID.x; grp < groups; grp += gl_NumWorkGroups.x) {
        counts[lid] = 0u;
        if (lid == 0u) counts[256] = 0u;
        barrier();
        uint first = grp * 1024u, ends = 0u;
        for (uint j = 0u; j < 4u; j++) {
            uint i = first + 4u * lid + j;
            if (i >= at.z) break;
            uint v = stream_byte(i);
            atomicAdd(counts[v], 1u);
            if (i >= 8u) {
                bool run = true;
                for (uint d = 1u; d <= 8u && run; d++) run = stream_byte(i - d) == v;
                if (run) ends++;
            }
        }
        if (ends > 0u) atomicAdd(counts[256], ends);
        barrier();
        uint base = at.y + first / at.w * 257u;
        if (counts[lid] > 0u) atomicAdd(word[base + lid], counts[lid]);
        if (lid == 0u && counts[256] > 0u) atomicAdd(word[base + 256u], counts[256]);
        barrier();
    }
}
#endif
