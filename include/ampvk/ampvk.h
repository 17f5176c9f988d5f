/*
 * ampvk.h: the umbrella header of ampvk, C++ AMP for C11 on Vulkan.
 *
 *   ampvk/errors.h       status codes, amp_last_error(), the log callback
 *   ampvk/shape.h        extent and index
 *   ampvk/types.h        element types
 *   ampvk/accelerator.h  accelerators, accelerator_views, futures
 *   ampvk/array.h        arrays, array_views, copies
 *   ampvk/texture.h      textures, texture views, samplers
 *   ampvk/kernel.h       GLSL kernels and parallel_for_each
 *   ampvk/image.h        PNG and HDR files, golden-image comparison
 *   ampvk/filter.h       built-in image filters (OpenCV's), chains
 *   ampvk/interop.h      the application's VkDevice, images and buffers, semaphores
 *
 * A first program:
 *
 *     int a[] = {1, 2, 3, 4, 5}, b[] = {6, 7, 8, 9, 10}, s[5];
 *     amp_array_view *va = amp_array_view_create_const(amp_extent1(5), AMP_INT, 0, a);
 *     ...
 *     amp_parallel_for_each(NULL, amp_extent1(5), k, AMP_ARGS(...));
 *     amp_array_view_synchronize(vs);   // s = {7, 9, 11, 13, 15}
 */
#ifndef AMPVK_AMPVK_H
#define AMPVK_AMPVK_H

#include "ampvk/errors.h"
#include "ampvk/shape.h"
#include "ampvk/types.h"
#include "ampvk/accelerator.h"
#include "ampvk/array.h"
#include "ampvk/texture.h"
#include "ampvk/kernel.h"
#include "ampvk/image.h"
#include "ampvk/filter.h"
#include "ampvk/interop.h"

#define AMPVK_VERSION_MAJOR 0
#define AMPVK_VERSION_MINOR 1
#define AMPVK_VERSION_PATCH 0

#endif
