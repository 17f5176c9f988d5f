# Writes a C file defining `const uint32_t NAME[]` (and NAME_size in bytes) with the
# words of a SPIR-V file. Usage: cmake -DIN=x.spv -DOUT=x.c -DNAME=symbol -P embed_spirv.cmake
# One regular expression turns the file's hex into little-endian words (a loop over
# the words took half a minute for the larger shaders); OUT is always written, so its
# time stamp is newer than IN's and the build does not run this again.
file(READ "${IN}" hex HEX)
string(LENGTH "${hex}" len)
math(EXPR bytes "${len} / 2")
# little-endian bytes b0 b1 b2 b3 -> 0xb3b2b1b0u, eight words a line
string(REGEX REPLACE "(..)(..)(..)(..)" "0x\\4\\3\\2\\1u," words "${hex}")
string(REGEX REPLACE "((0x[0-9a-f]+u,)(0x[0-9a-f]+u,)(0x[0-9a-f]+u,)(0x[0-9a-f]+u,)(0x[0-9a-f]+u,)(0x[0-9a-f]+u,)(0x[0-9a-f]+u,)(0x[0-9a-f]+u,))"
       "\\1\n    " words "${words}")
file(WRITE "${OUT}" "/* Generated from ${IN} by cmake/embed_spirv.cmake. Do not edit. */\n#include <stddef.h>\n#include <stdint.h>\nconst uint32_t ${NAME}[] = {\n    ${words}};\nconst size_t ${NAME}_size = ${bytes};\n")
