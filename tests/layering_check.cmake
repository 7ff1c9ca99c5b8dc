# The include rules of perfci/, checked on every build and by ctest:
#   1. nothing under perfci/ includes engine/ (perfci is a tool for any
#      Google Benchmark project; the engine is only one of its users);
#   2. perfci's stages stack one way: a file in stage S may include
#      "perfci/T/..." only when T comes before S in PERFCI_STAGES (or is S).
#      A backward include (stats/ including report/, say) stops the build.
# Usage: cmake -DROOT=<source root> -P layering_check.cmake
# The stages and their order are in perfci/stages.cmake.

if(NOT ROOT)
  message(FATAL_ERROR "layering_check: pass -DROOT=<source root>")
endif()
# The stage order is the tree's own unless STAGES_FILE names another (the
# test of this check runs it on a deliberately broken copy).
if(NOT STAGES_FILE)
  set(STAGES_FILE "${ROOT}/perfci/stages.cmake")
endif()
include("${STAGES_FILE}")

function(stage_rank stage out)
  list(FIND PERFCI_STAGES "${stage}" rank)
  set(${out} ${rank} PARENT_SCOPE)
endfunction()

# The stage of a path relative to perfci/ ("stats/verdict.h" -> stats).
function(stage_of rel out)
  if(rel MATCHES "^([a-z_]+)/")
    set(${out} "${CMAKE_MATCH_1}" PARENT_SCOPE)
    return()
  endif()
  foreach(entry IN LISTS PERFCI_TOP_FILES)
    string(REPLACE "=" ";" kv "${entry}")
    list(GET kv 0 file)
    list(GET kv 1 stage)
    if(rel STREQUAL file)
      set(${out} "${stage}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  set(${out} "" PARENT_SCOPE)
endfunction()

file(GLOB_RECURSE files RELATIVE "${ROOT}/perfci" "${ROOT}/perfci/*.h" "${ROOT}/perfci/*.cc"
     "${ROOT}/perfci/*.cpp")
list(LENGTH files n)
if(n EQUAL 0)
  message(FATAL_ERROR "layering_check: no perfci sources found under ${ROOT}/perfci")
endif()

set(problems "")
set(includes 0)
foreach(rel IN LISTS files)
  stage_of("${rel}" stage)
  stage_rank("${stage}" rank)
  if(rank LESS 0)
    list(APPEND problems "perfci/${rel}: not in any stage (add its folder to PERFCI_STAGES)")
    continue()
  endif()
  file(STRINGS "${ROOT}/perfci/${rel}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*[\"<](engine|perfci)/")
  foreach(line IN LISTS lines)
    math(EXPR includes "${includes} + 1")
    if(line MATCHES "[\"<]engine/")
      list(APPEND problems "perfci/${rel}: includes an engine/ header (${line})")
      continue()
    endif()
    if(NOT line MATCHES "[\"<]perfci/([^\">]+)[\">]")
      continue()
    endif()
    set(target "${CMAKE_MATCH_1}")
    stage_of("${target}" to)
    stage_rank("${to}" to_rank)
    if(to_rank LESS 0)
      list(APPEND problems "perfci/${rel}: includes perfci/${target}, which is in no stage")
    elseif(to_rank GREATER rank)
      list(APPEND problems
           "perfci/${rel} (stage ${stage}) includes perfci/${target} (stage ${to}, a later one)")
    endif()
  endforeach()
endforeach()

if(problems)
  list(JOIN problems "\n  " text)
  message(FATAL_ERROR "layering_check: backward includes in perfci/ (stage order: ${PERFCI_STAGES}):\n  ${text}")
endif()
message(STATUS "layering_check: ${n} perfci files, ${includes} perfci/engine includes, all one way "
               "(${PERFCI_STAGES}); none includes engine/")
