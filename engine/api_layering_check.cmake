# The shell and the benchmark use the engine through its public API only.
#
#   cmake -DROOT=<repository root> -P engine/api_layering_check.cmake
#
# Fails when a file under engine/shell/ or engine/bench/ includes an
# "engine/..." header that is neither a public header (one that exists under
# engine/include/, e.g. "engine/database.h") nor one of its own folder's
# headers ("engine/shell/shell.h" from engine/shell/, "engine/bench/timing.h"
# from engine/bench/). Their unit tests (*_test.cc) are not checked.
#
#   cmake -DSELF_TEST=ON -DWORK=<scratch folder> -P engine/api_layering_check.cmake
#
# proves that the check fails: it writes a small tree with one bad include
# under WORK, runs the check on it (which must fail and name the file and the
# header), removes the bad file and runs it again (which must pass).
cmake_minimum_required(VERSION 3.25)

if(SELF_TEST)
  if(NOT WORK)
    message(FATAL_ERROR "SELF_TEST needs -DWORK=<scratch folder>")
  endif()
  file(REMOVE_RECURSE "${WORK}")
  file(WRITE "${WORK}/engine/include/engine/database.h" "#pragma once\n")
  file(WRITE "${WORK}/engine/shell/shell.h" "#pragma once\n#include \"engine/database.h\"\n")
  file(WRITE "${WORK}/engine/shell/shell.cc"
       "#include \"engine/shell/shell.h\"\n#include <string>\n#include \"engine/database.h\"\n")
  file(WRITE "${WORK}/engine/bench/good.cc" "#include <engine/database.h>\n")
  file(WRITE "${WORK}/engine/shell/shell_test.cc" "#include \"engine/testing/temp_dir.h\"\n")
  file(WRITE "${WORK}/engine/bench/bad.cc"
       "#include \"engine/database.h\"\n  #  include \"engine/storage/pager.h\"\n")
  execute_process(COMMAND "${CMAKE_COMMAND}" -DROOT=${WORK} -P "${CMAKE_CURRENT_LIST_FILE}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc EQUAL 0)
    message(FATAL_ERROR "the check passed on a tree with a bad include:\n${out}${err}")
  endif()
  if(NOT err MATCHES "engine/bench/bad.cc:2: engine/storage/pager.h")
    message(FATAL_ERROR "the check failed without naming the bad include:\n${out}${err}")
  endif()
  file(REMOVE "${WORK}/engine/bench/bad.cc")
  execute_process(COMMAND "${CMAKE_COMMAND}" -DROOT=${WORK} -P "${CMAKE_CURRENT_LIST_FILE}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the check failed on a tree without a bad include:\n${out}${err}")
  endif()
  file(REMOVE_RECURSE "${WORK}")
  message(STATUS "self-test: a bad include fails the check, a clean tree passes it")
  return()
endif()

if(NOT ROOT)
  message(FATAL_ERROR "usage: cmake -DROOT=<repository root> -P ${CMAKE_CURRENT_LIST_FILE}")
endif()
if(NOT IS_DIRECTORY "${ROOT}/engine/include/engine")
  message(FATAL_ERROR "no public headers: ${ROOT}/engine/include/engine is missing")
endif()

set(include_re "^[ \t]*#[ \t]*include[ \t]*[\"<](engine/[^\">]*)[\">]")
set(bad "")
set(n 0)
foreach(component IN ITEMS shell bench)
  file(GLOB_RECURSE files "${ROOT}/engine/${component}/*.h" "${ROOT}/engine/${component}/*.cc"
       "${ROOT}/engine/${component}/*.cpp")
  list(LENGTH files count)
  if(count EQUAL 0)
    message(FATAL_ERROR "no sources found under ${ROOT}/engine/${component}")
  endif()
  math(EXPR n "${n} + ${count}")
  # Their unit tests (*_test.cc) are separate targets: like every engine
  # test, they may use internals (engine/testing/).
  list(FILTER files EXCLUDE REGEX "_test\\.(cc|cpp)$")
  foreach(f IN LISTS files)
    file(RELATIVE_PATH rel "${ROOT}" "${f}")
    # One list item a line: ';' and '[' ']' would split or join items.
    file(READ "${f}" text)
    string(REGEX REPLACE "[][;]" "_" text "${text}")
    string(REPLACE "\n" ";" lines "${text}")
    set(line_no 0)
    foreach(line IN LISTS lines)
      math(EXPR line_no "${line_no} + 1")
      if(NOT line MATCHES "${include_re}")
        continue()
      endif()
      set(header "${CMAKE_MATCH_1}")
      if(EXISTS "${ROOT}/engine/include/${header}" AND NOT IS_DIRECTORY
                                                       "${ROOT}/engine/include/${header}")
        continue()  # a public header
      endif()
      string(FIND "${header}" "engine/${component}/" own)
      if(own EQUAL 0)
        continue()  # the component's own header
      endif()
      list(APPEND bad "${rel}:${line_no}: ${header}")
    endforeach()
  endforeach()
endforeach()

if(bad)
  list(JOIN bad "\n  " listing)
  message(FATAL_ERROR
          "engine/shell and engine/bench may include only the public headers of "
          "engine/include/engine/ (and their own folder's); engine internals included:\n"
          "  ${listing}")
endif()
message(STATUS "checked ${n} shell and bench files: only public engine headers are included")
