/* The fault-injection hooks of an AMPVK_FAULT_INJECTION build (src/core/faults.c),
 * for tests only: they are not part of ampvk's API and other builds do not have
 * them. Fallible calls are the library's host allocations (malloc, calloc,
 * realloc) and its Vulkan calls that allocate, create or submit. */
#ifndef AMPVK_TEST_FAULTS_H
#define AMPVK_TEST_FAULTS_H

#include <stdint.h>

/* Makes the nth fallible call from now fail (n >= 1; 0 disarms) and restarts the
 * count. Host allocations return NULL, Vulkan calls an error (out of memory, a
 * failed map, an exhausted descriptor pool). */
void amp_fault_arm(uint64_t n);
/* Makes the nth fallible call from now and every later one fail, until disarmed
 * (memory that stays exhausted). A queue submission fails only as the nth: one
 * refused twice loses the device (amp_fault_refuse_submissions tests that). */
void amp_fault_arm_from(uint64_t n);
/* No call fails from now on. */
void amp_fault_disarm(void);
/* The fallible calls since the last arm: below n, the armed fault was not reached. */
uint64_t amp_fault_count(void);
/* The next queue submission, on any device, reports VK_ERROR_DEVICE_LOST without
 * submitting anything. */
void amp_fault_lose_device(void);
/* The next n queue submissions, on any device, report VK_ERROR_OUT_OF_HOST_MEMORY
 * without submitting anything (ampvk tries a refused submission once more). */
void amp_fault_refuse_submissions(int n);

#endif
