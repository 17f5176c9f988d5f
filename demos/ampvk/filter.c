/* ampvk filter: being written. */
#include "tool.h"

int ampvk_filter_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return tool_error("filter", "not built yet");
}
