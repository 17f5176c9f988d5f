# Runs one command of the ampvk tool for ctest and checks what it did:
#
#   cmake [-DEXPECT=N] [-DJSON=ON] [-DKEYS=PATH,...] [-DZERO=PATH,...] [-DSTDOUT=REGEX] [-DSTDERR=REGEX]
#         -P ampvk_tool.cmake -- COMMAND [ARGS...]
#
# EXPECT  the exit status the command must have (default 0)
# JSON    stdout must be one JSON object on one line (tests/tool/json_check.cmake)
# KEYS    with JSON: paths that must be in it, keys and array indices joined by /
#         (accelerators/0/max_image_dimension_2d)
# ZERO    with JSON: paths whose value must be 0 (validation_messages)
# STDOUT, STDERR  regular expressions the command's output must match
# Needs nothing beyond CMake 3.19 (string(JSON)).
cmake_minimum_required(VERSION 3.19)

set(cmd "")
set(take OFF)
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(i RANGE ${last})
  if(take)
    list(APPEND cmd "${CMAKE_ARGV${i}}")
  elseif(CMAKE_ARGV${i} STREQUAL "--")
    set(take ON)
  endif()
endforeach()
if(NOT cmd)
  message(FATAL_ERROR "usage: cmake [-DEXPECT=N] [-DJSON=ON] [-DKEYS=...] -P ampvk_tool.cmake -- COMMAND [ARGS...]")
endif()
if(NOT DEFINED EXPECT)
  set(EXPECT 0)
endif()

execute_process(COMMAND ${cmd} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(REPLACE ";" " " shown "${cmd}")
message("$ ${shown}\n--- stdout:\n${out}--- stderr:\n${err}--- exit status ${rc}")
if(NOT rc STREQUAL "${EXPECT}")
  message(FATAL_ERROR "exit status ${rc}, expected ${EXPECT}")
endif()
if(DEFINED STDOUT AND NOT out MATCHES "${STDOUT}")
  message(FATAL_ERROR "stdout does not match '${STDOUT}'")
endif()
if(DEFINED STDERR AND NOT err MATCHES "${STDERR}")
  message(FATAL_ERROR "stderr does not match '${STDERR}'")
endif()

if(JSON)
  # tests/tool/json_check.cmake's checks on stdout; ZERO becomes its EQUAL path=0
  string(RANDOM LENGTH 12 tag)
  set(FILE "${CMAKE_CURRENT_BINARY_DIR}/ampvk_tool_${tag}.json")
  file(WRITE "${FILE}" "${out}")
  set(EQUAL "")
  if(DEFINED ZERO)
    string(REPLACE "," "=0," EQUAL "${ZERO}=0")
  endif()
  include(${CMAKE_CURRENT_LIST_DIR}/tool/json_check.cmake)
  file(REMOVE "${FILE}")
endif()
