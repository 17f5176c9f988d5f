# Checks that a file is one valid JSON object on one line, with CMake's own parser
# (string(JSON), CMake 3.19), so that the tool tests need no python:
#
#   cmake -DFILE=PATH [-DKEYS=PATH,...] [-DEQUAL=PATH=VALUE,...] -P json_check.cmake
#
# KEYS   paths that must be in the object: keys and array indices joined by /
#        (first_difference/x, max_diff/R)
# EQUAL  paths and the values they must have (result=different,first_difference/x=5);
#        (CMake reads true and false as ON and OFF; null is null)
cmake_minimum_required(VERSION 3.19)

file(READ "${FILE}" doc)
string(STRIP "${doc}" doc)
if(NOT doc MATCHES "^{.*}$" OR doc MATCHES "\n")
  message(FATAL_ERROR "${FILE} is not one JSON object on one line:\n${doc}")
endif()
# string(JSON) reads the first value and ignores what follows it: inside an array,
# anything after the object is a syntax error or a second element.
string(JSON n ERROR_VARIABLE err LENGTH "[${doc}]")
if(err)
  message(FATAL_ERROR "${FILE} is not valid JSON: ${err}\n${doc}")
elseif(NOT n EQUAL 1)
  message(FATAL_ERROR "${FILE} holds more than one JSON value:\n${doc}")
endif()

# get(OUT PATH): the value at PATH, or a fatal error naming it.
function(get out path)
  string(REPLACE "/" ";" parts "${path}")
  string(JSON value ERROR_VARIABLE err GET "${doc}" ${parts})
  if(err)
    message(FATAL_ERROR "${FILE} has no ${path}: ${err}\n${doc}")
  endif()
  set(${out} "${value}" PARENT_SCOPE)
endfunction()

string(REPLACE "," ";" keys "${KEYS}")
foreach(path IN LISTS keys)
  get(value "${path}")
endforeach()
string(REPLACE "," ";" pairs "${EQUAL}")
foreach(pair IN LISTS pairs)
  string(FIND "${pair}" "=" eq)
  string(SUBSTRING "${pair}" 0 ${eq} path)
  math(EXPR from "${eq} + 1")
  string(SUBSTRING "${pair}" ${from} -1 want)
  get(value "${path}")
  if(want STREQUAL "null")
    string(REPLACE "/" ";" parts "${path}")
    string(JSON value TYPE "${doc}" ${parts}) # GET reads null as ""
    string(TOLOWER "${value}" value)
  endif()
  if(NOT value STREQUAL want)
    message(FATAL_ERROR "${FILE}: ${path} is '${value}', expected '${want}'")
  endif()
endforeach()
message("${FILE}: valid JSON")
