/* Fault injection, in AMPVK_FAULT_INJECTION builds only (core.h includes this when
 * AMPVK_FAULTS is defined; other builds never see it). Every host allocation of
 * src/ (malloc, calloc, realloc, and so amp__strdup) and every Vulkan call that
 * allocates, creates or submits goes through one counter of fallible calls, so a
 * test can make the Nth of them fail (tests/faults.h: amp_fault_arm) and check
 * that each failure path returns a clean error, frees what it made and leaves the
 * library usable. A queue submission can also be made to report a lost device
 * (amp_fault_lose_device). The third-party code compiled into the library (stb)
 * includes its headers before this one and is left alone. Not installed. */
#ifndef AMPVK_FAULTS_H
#define AMPVK_FAULTS_H

#include <stdlib.h>
#include <string.h>
#include <vulkan/vulkan.h>

/* Counts a fallible call: true when it is the one armed to fail (or a later one, with
 * memory armed to stay exhausted). */
AMP_HIDDEN bool amp__fault_hit(void);
/* Counts a queue submission: true when it is the armed call itself or one of the
 * refusals asked for (amp_fault_refuse_submissions). A refused submission loses its
 * work, so exhausted memory does not refuse them: the device lives on to be tested. */
AMP_HIDDEN bool amp__fault_refuse(void);
/* True once after amp_fault_lose_device: the submission it answers reports a lost device. */
AMP_HIDDEN bool amp__fault_lose(void);

/* A host allocation that fails (NULL, its input untouched) when the fault hits. */
#define AMP__FAULT_ALLOC(call) (amp__fault_hit() ? NULL : (call))
/* A Vulkan call that returns `failure` instead of running when the fault hits. */
#define AMP__FAULT_VK(failure, call) (amp__fault_hit() ? (failure) : (call))

/* A function-like macro does not expand inside its own expansion: the inner names
 * are the real functions. */
#define malloc(n) AMP__FAULT_ALLOC(malloc(n))
#define calloc(n, size) AMP__FAULT_ALLOC(calloc(n, size))
#define realloc(p, n) AMP__FAULT_ALLOC(realloc(p, n))

#define vkCreateInstance(...) AMP__FAULT_VK(VK_ERROR_OUT_OF_HOST_MEMORY, vkCreateInstance(__VA_ARGS__))
#define vkCreateDevice(...) AMP__FAULT_VK(VK_ERROR_OUT_OF_HOST_MEMORY, vkCreateDevice(__VA_ARGS__))
#define vkAllocateMemory(...) AMP__FAULT_VK(VK_ERROR_OUT_OF_DEVICE_MEMORY, vkAllocateMemory(__VA_ARGS__))
#define vkMapMemory(...) AMP__FAULT_VK(VK_ERROR_MEMORY_MAP_FAILED, vkMapMemory(__VA_ARGS__))
#define vkCreateBuffer(...) AMP__FAULT_VK(VK_ERROR_OUT_OF_HOST_MEMORY, vkCreateBuffer(__VA_ARGS__))
#define vkBindBufferMemory(...) AMP__FAULT_VK(VK_ERROR_OUT_OF_DEVICE_MEMORY, vkBindBufferMemory(__VA_ARGS__))
#define vkCreateImage(...) AMP__FAULT_VK(VK_ERROR_OUT_OF_HOST_MEMORY, vkCreateImage(__VA_ARGS__))
#define vkBindImageMemory(...) AMP__FAULT_VK(VK_ERROR_OUT_OF_DEVICE_MEMORY, vkBindImageMemory(__VA_ARGS__))
#define vkCreateImageView(...) AMP__FAULT_VK(VK_ERROR_OUT_OF_HOST_MEMORY, vkCreateImageView(__VA_ARGS__))
#define vkCreateBufferView(...) AMP__FAULT_VK(VK_ERROR_OUT_OF_HOST_MEMORY, vkCreateBufferView(__VA_ARGS__))
#define vkCreateSampler(...) AMP__FAULT_VK(VK_ERROR_OUT_OF_HOST_MEMORY, vkCreateSampler(__VA_ARGS__))
#define vkCreateCommandPool(...) AMP__FAULT_VK(VK_ERROR_OUT_OF_HOST_MEMORY, vkCreateCommandPool(__VA_ARGS__))
#define vkAllocateCommandBuffers(...) \
    AMP__FAULT_VK(VK_ERROR_OUT_OF_HOST_MEMORY, vkAllocateCommandBuffers(__VA_ARGS__))
#define vkBeginCommandBuffer(...) AMP__FAULT_VK(VK_ERROR_OUT_OF_HOST_MEMORY, vkBeginCommandBuffer(__VA_ARGS__))
#define vkCreateDescriptorPool(...) AMP__FAULT_VK(VK_ERROR_OUT_OF_HOST_MEMORY, vkCreateDescriptorPool(__VA_ARGS__))
#define vkAllocateDescriptorSets(...) \
    AMP__FAULT_VK(VK_ERROR_OUT_OF_POOL_MEMORY, vkAllocateDescriptorSets(__VA_ARGS__))
#define vkCreateDescriptorSetLayout(...) \
    AMP__FAULT_VK(VK_ERROR_OUT_OF_HOST_MEMORY, vkCreateDescriptorSetLayout(__VA_ARGS__))
#define vkCreatePipelineLayout(...) AMP__FAULT_VK(VK_ERROR_OUT_OF_HOST_MEMORY, vkCreatePipelineLayout(__VA_ARGS__))
#define vkCreateShaderModule(...) AMP__FAULT_VK(VK_ERROR_OUT_OF_HOST_MEMORY, vkCreateShaderModule(__VA_ARGS__))
#define vkCreateComputePipelines(...) \
    AMP__FAULT_VK(VK_ERROR_OUT_OF_HOST_MEMORY, vkCreateComputePipelines(__VA_ARGS__))
#define vkCreatePipelineCache(...) AMP__FAULT_VK(VK_ERROR_OUT_OF_HOST_MEMORY, vkCreatePipelineCache(__VA_ARGS__))
#define vkGetPipelineCacheData(...) AMP__FAULT_VK(VK_ERROR_OUT_OF_HOST_MEMORY, vkGetPipelineCacheData(__VA_ARGS__))
#define vkCreateSemaphore(...) AMP__FAULT_VK(VK_ERROR_OUT_OF_HOST_MEMORY, vkCreateSemaphore(__VA_ARGS__))
#define vkQueueSubmit(...)                                                                                      \
    (amp__fault_lose()     ? VK_ERROR_DEVICE_LOST                                                               \
     : amp__fault_refuse() ? VK_ERROR_OUT_OF_HOST_MEMORY                                                        \
                           : vkQueueSubmit(__VA_ARGS__))

#endif
