// ampvk kernel library: what every kernel gets. The runtime includes this file
// before the user's code; it pulls in each part of the library.
#ifndef AMPVK_GLSL
#define AMPVK_GLSL
#include "shape.glsl"
#include "tile.glsl"
#include "atomic.glsl"
#include "texture.glsl"
#endif
