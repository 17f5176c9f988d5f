/* ampvk diff: being written. */
#include "tool.h"

int ampvk_diff_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return tool_error("diff", "not built yet");
}
