/*
 * ampvk-info: lists the accelerators ampvk sees, with their properties, and
 * marks the default one (what AMPVK_DEFAULT_ACCELERATOR or the device types pick).
 * Exits 1 when there is no Vulkan device at all.
 */
#include <stdio.h>

#include "ampvk/ampvk.h"

static const char *yes_no(bool b) { return b ? "yes" : "no"; }

int main(void)
{
    int n = amp_accelerator_count();
    if (n == 0) {
        fprintf(stderr, "ampvk-info: no accelerator: %s\n", amp_last_error());
        return 1;
    }
    amp_accelerator *def = amp_accelerator_default();
    for (int i = 0; i < n; i++) {
        amp_accelerator *acc = amp_accelerator_at(i);
        amp_accelerator_info info;
        if (amp_accelerator_get_info(acc, &info) != AMP_OK) {
            fprintf(stderr, "ampvk-info: accelerator %d: %s\n", i, amp_last_error());
            return 1;
        }
        printf("%c %d: %s\n", acc == def ? '*' : ' ', info.index, info.description);
        printf("    device_path          %s\n", info.device_path);
        printf("    Vulkan version       %u.%u\n", info.version >> 16, info.version & 0xffff);
        printf("    dedicated_memory     %zu KB\n", info.dedicated_memory);
        printf("    double precision     %s\n", yes_no(info.supports_double_precision));
        printf("    cpu shared memory    %s\n", yes_no(info.supports_cpu_shared_memory));
        printf("    emulated             %s\n", yes_no(info.is_emulated));
        printf("    debug (validation)   %s\n", yes_no(info.is_debug));
    }
    printf("* default accelerator%s\n", def ? "" : ": none");
    return 0;
}
