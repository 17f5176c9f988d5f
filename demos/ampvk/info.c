/* ampvk info: being written. */
#include "tool.h"

int ampvk_info_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return tool_error("info", "not built yet");
}
