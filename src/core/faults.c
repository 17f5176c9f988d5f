/* The fault counter of AMPVK_FAULT_INJECTION builds (core/faults.h): the test hooks
 * declared in tests/faults.h, exported from the library in these builds only. */
#include <stdatomic.h>
#include <stdint.h>

#include "core/core.h"

/* The test hooks (declared for tests in tests/faults.h). */
void amp_fault_arm(uint64_t n);
void amp_fault_arm_from(uint64_t n);
void amp_fault_disarm(void);
uint64_t amp_fault_count(void);
void amp_fault_lose_device(void);
void amp_fault_refuse_submissions(int n);

static atomic_uint_fast64_t calls;  /* fallible calls since the last arm */
static atomic_uint_fast64_t target; /* the call that fails (0: none) */
static atomic_bool persistent;      /* every call after the target fails too */
static atomic_bool lose_next;       /* the next queue submission reports a lost device */
static atomic_int refusals;         /* queue submissions still to refuse */

/* Arms the nth fallible call from now (0: none), restarting the count. */
static void arm(uint64_t n, bool from)
{
    atomic_store(&target, 0);
    atomic_store(&calls, 0);
    atomic_store(&persistent, from);
    atomic_store(&target, n);
}

/* Makes the nth fallible call from now fail (n >= 1; 0 disarms) and restarts the count. */
void amp_fault_arm(uint64_t n) { arm(n, false); }

/* Makes the nth fallible call from now and every later one fail, until disarmed
 * (queue submissions only as the nth). */
void amp_fault_arm_from(uint64_t n) { arm(n, true); }

/* No call fails from now on; the count goes on. */
void amp_fault_disarm(void) { atomic_store(&target, 0); }

/* The fallible calls since the last arm (the armed one included, once reached). */
uint64_t amp_fault_count(void) { return atomic_load(&calls); }

/* The next queue submission, on any device, reports VK_ERROR_DEVICE_LOST without
 * submitting anything. */
void amp_fault_lose_device(void) { atomic_store(&lose_next, true); }

/* The next n queue submissions, on any device, report VK_ERROR_OUT_OF_HOST_MEMORY
 * without submitting anything. */
void amp_fault_refuse_submissions(int n) { atomic_store(&refusals, n); }

/* Counts a fallible call: true when it is the target, or after it with persist. */
static bool count_call(bool persist)
{
    uint64_t n = atomic_fetch_add(&calls, 1) + 1, t = atomic_load(&target);
    return t && (n == t || (persist && n > t && atomic_load(&persistent)));
}

bool amp__fault_hit(void) { return count_call(true); }

bool amp__fault_refuse(void)
{
    bool hit = count_call(false);
    for (int n = atomic_load(&refusals); !hit && n > 0;)
        hit = atomic_compare_exchange_weak(&refusals, &n, n - 1);
    return hit;
}

bool amp__fault_lose(void) { return atomic_exchange(&lose_next, false); }
