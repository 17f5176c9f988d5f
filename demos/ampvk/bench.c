/* ampvk bench: being written. */
#include "tool.h"

int ampvk_bench_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return tool_error("bench", "not built yet");
}
