// ampvk kernel library: index and extent, ranks 1 to 3.
//
// As on the host, component 0 is the most significant: for rank 2, idx[0] (idx.x)
// is the row and idx[1] (idx.y) the column. index_1/extent_1 are int, rank 2 is
// ivec2 and rank 3 ivec3, so the usual GLSL arithmetic and comparisons apply.
#ifndef AMPVK_SHAPE_GLSL
#define AMPVK_SHAPE_GLSL

#define index_1 int
#define index_2 ivec2
#define index_3 ivec3
#define extent_1 int
#define extent_2 ivec2
#define extent_3 ivec3

// Row-major linear position of i in an array view with element offset o and
// strides s (elements between neighbours of dimension 0 and 1); the last
// dimension is contiguous.
int amp_linear(int i, int o, ivec2 s) { return o + i; }
int amp_linear(ivec2 i, int o, ivec2 s) { return o + i.x * s.x + i.y; }
int amp_linear(ivec3 i, int o, ivec2 s) { return o + i.x * s.x + i.y * s.y + i.z; }

// Number of elements of an extent.
int extent_size(int e) { return e; }
int extent_size(ivec2 e) { return e.x * e.y; }
int extent_size(ivec3 e) { return e.x * e.y * e.z; }

// True if 0 <= i < e in every component.
bool extent_contains(int e, int i) { return i >= 0 && i < e; }
bool extent_contains(ivec2 e, ivec2 i) { return all(greaterThanEqual(i, ivec2(0))) && all(lessThan(i, e)); }
bool extent_contains(ivec3 e, ivec3 i) { return all(greaterThanEqual(i, ivec3(0))) && all(lessThan(i, e)); }

#endif
