# Writes a C file holding the kernel library's GLSL files (shaders/ampvk) and the
# library's own kernels compiled at run time (shaders/image) as strings.
# Usage: cmake -DOUT=file.c -DROOT=shaders -P embed_glsl.cmake
include(${CMAKE_CURRENT_LIST_DIR}/c_string.cmake)
file(GLOB_RECURSE files RELATIVE "${ROOT}" "${ROOT}/ampvk/*.glsl" "${ROOT}/image/*.glsl")
list(SORT files)
set(body "/* Generated from shaders/ampvk and shaders/image by cmake/embed_glsl.cmake. Do not edit. */\n#include \"kernel/kernel_internal.h\"\n\nconst amp__glsl_file amp__glsl_library[] = {\n")
set(count 0)
foreach(f ${files})
  ampvk_c_string("${ROOT}/${f}" chunks)
  string(APPEND body "    {\"${f}\",${chunks}},\n")
  math(EXPR count "${count} + 1")
endforeach()
string(APPEND body "};\nconst int amp__glsl_library_count = ${count};\n")
# written even when unchanged: a time stamp older than an input would run this again
file(WRITE "${OUT}" "${body}")
