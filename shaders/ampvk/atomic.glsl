// ampvk kernel library: atomics (C++ AMP section 1) on int and uint elements of
// array_views, and on tile_static variables. dest is an element, such as
// hist(bin) or counts[3]; each returns the value dest held before.
//   atomic_fetch_add(dest, v)  atomic_fetch_sub(dest, v)
//   atomic_fetch_inc(dest)     atomic_fetch_dec(dest)
//   atomic_fetch_max(dest, v)  atomic_fetch_min(dest, v)
//   atomic_fetch_and(dest, v)  atomic_fetch_or(dest, v)   atomic_fetch_xor(dest, v)
//   atomic_exchange(dest, v)   (int, uint, and float where the device has
//                               shaderBufferFloat32Atomics; AMP_HAS_FLOAT_ATOMICS)
//   atomic_compare_exchange(dest, expected, v): if dest == expected, stores v and
//       returns true; otherwise returns false. Either way expected receives the
//       value dest held (as C++ AMP's *expected_value).
// They are macros: GLSL passes function arguments by copy, which is not atomic.
#ifndef AMPVK_ATOMIC_GLSL
#define AMPVK_ATOMIC_GLSL

#define atomic_fetch_add(dest, v) atomicAdd(dest, v)
#define atomic_fetch_sub(dest, v) atomicAdd(dest, -(v))
#define atomic_fetch_inc(dest) atomicAdd(dest, 1)
#define atomic_fetch_dec(dest) atomicAdd(dest, -1)
#define atomic_fetch_max(dest, v) atomicMax(dest, v)
#define atomic_fetch_min(dest, v) atomicMin(dest, v)
#define atomic_fetch_and(dest, v) atomicAnd(dest, v)
#define atomic_fetch_or(dest, v) atomicOr(dest, v)
#define atomic_fetch_xor(dest, v) atomicXor(dest, v)
#define atomic_exchange(dest, v) atomicExchange(dest, v)

bool amp_exchanged(inout int expected, int old) { bool ok = old == expected; expected = old; return ok; }
bool amp_exchanged(inout uint expected, uint old) { bool ok = old == expected; expected = old; return ok; }
#define atomic_compare_exchange(dest, expected, v) amp_exchanged(expected, atomicCompSwap(dest, expected, v))

#endif
