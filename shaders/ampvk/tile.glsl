// ampvk kernel library: tiles, tile_static memory and barriers (C++ AMP section 1).
//
// A tiled kernel is written as void kernel(tiled_index_N idx). Its fields, each
// with component 0 most significant like index_N:
//   idx.global       the thread's position in the whole domain
//   idx.local        its position inside its tile
//   idx.tile         the tile's position in the grid of tiles
//   idx.tile_origin  the global position of the tile's first thread (tile * tile_extent)
// tile_extent is the tile's size (a constant). Declare memory shared by the
// threads of one tile at global scope: `tile_static float cache[16][16];`.
//
// Barriers: every thread of the tile must reach the same barrier.
//   tile_barrier_wait()                            = wait with all memory fence
//   tile_barrier_wait_with_all_memory_fence()      orders global and tile_static memory
//   tile_barrier_wait_with_global_memory_fence()   orders global (array/texture) memory
//   tile_barrier_wait_with_tile_static_memory_fence()  orders tile_static memory
// Fences without a barrier (this thread's accesses only):
//   all_memory_fence(), global_memory_fence(), tile_static_memory_fence()
#ifndef AMPVK_TILE_GLSL
#define AMPVK_TILE_GLSL

#define tile_static shared

struct tiled_index_1 { int global; int local; int tile; int tile_origin; };
struct tiled_index_2 { ivec2 global; ivec2 local; ivec2 tile; ivec2 tile_origin; };
struct tiled_index_3 { ivec3 global; ivec3 local; ivec3 tile; ivec3 tile_origin; };

// Fences: make this thread's earlier writes visible to the tile (tile_static) or
// to every thread of the dispatch (global) before its later accesses.
void tile_static_memory_fence() { memoryBarrierShared(); }
void global_memory_fence() { memoryBarrierBuffer(); memoryBarrierImage(); }
void all_memory_fence() { memoryBarrier(); }

// In Vulkan GLSL barrier() already orders tile_static (workgroup) memory among
// the tile's threads; the fences add global memory where C++ AMP asks for it.
void tile_barrier_wait_with_tile_static_memory_fence() { memoryBarrierShared(); barrier(); }
void tile_barrier_wait_with_global_memory_fence() { memoryBarrierBuffer(); memoryBarrierImage(); barrier(); }
void tile_barrier_wait_with_all_memory_fence() { memoryBarrier(); barrier(); }
void tile_barrier_wait() { tile_barrier_wait_with_all_memory_fence(); }

#endif
