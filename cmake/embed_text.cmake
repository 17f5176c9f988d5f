# Writes a C file defining `const char NAME[]` with the contents of a text file.
# Usage: cmake -DIN=file.glsl -DOUT=file.c -DNAME=symbol -P embed_text.cmake
include(${CMAKE_CURRENT_LIST_DIR}/c_string.cmake)
ampvk_c_string("${IN}" chunks)
file(WRITE "${OUT}.tmp" "/* Generated from ${IN} by cmake/embed_text.cmake. Do not edit. */\nconst char ${NAME}[] =${chunks};\n")
configure_file("${OUT}.tmp" "${OUT}" COPYONLY)
