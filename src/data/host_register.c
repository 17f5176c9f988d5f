/* Host memory registration (see amp_host_register in include/ampvk/array.h): the
 * application's memory pinned for a device, which transfers then read and write in
 * place. */
#include "data/data.h"

/* The device of acc (NULL: the default accelerator's), for the host registrations. */
static amp__device *registry_device(amp_accelerator *acc)
{
    if (!acc && !(acc = amp_accelerator_default())) return NULL;
    return amp__accelerator_device(acc);
}

amp_status amp_host_register(amp_accelerator *acc, void *ptr, size_t bytes)
{
    if (!ptr || !bytes)
        return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_host_register: %s", ptr ? "0 bytes" : "NULL memory");
    amp__device *d = registry_device(acc);
    if (!d) return amp_last_status();
    amp__lock(d);
    amp_status s = amp__device_check(d);
    if (s == AMP_OK) s = amp__host_register(d, ptr, bytes);
    amp__unlock(d);
    return s;
}

amp_status amp_host_unregister(amp_accelerator *acc, void *ptr)
{
    if (!ptr) return amp__fail(AMP_ERROR_INVALID_ARGUMENT, "amp_host_unregister: NULL memory");
    amp__device *d = registry_device(acc);
    if (!d) return amp_last_status();
    amp__lock(d);
    /* a texture copy recorded from or into the range may still run: waited for once the
       range may go */
    amp_status s = amp__host_unregister_check(d, ptr);
    if (s == AMP_OK) s = amp__device_idle(d);
    if (s == AMP_OK || s == AMP_ERROR_DEVICE_LOST) s = amp__host_unregister(d, ptr);
    amp__unlock(d);
    return s;
}
