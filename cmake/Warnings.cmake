# Warning flags shared by every target of the tree.
add_library(project_warnings INTERFACE)
target_compile_options(project_warnings INTERFACE -Wall -Wextra)
if(PERFCI_WERROR)
  target_compile_options(project_warnings INTERFACE -Werror)
endif()
# gcc 12 with -fsanitize=address at -O1 reports -Wmaybe-uninitialized inside
# libstdc++'s own <regex> and <functional> (known false positives: the
# sanitizer's instrumentation hides the initialisation from the analysis).
# The release build keeps the warning.
if(PERFCI_SANITIZE AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  target_compile_options(project_warnings INTERFACE -Wno-maybe-uninitialized)
endif()

# The product's own code (perfci's stages and command, the engine library,
# its shell and its benchmark) also refuses a declaration that shadows
# another: cheap there, and a shadowed name in the measured code is a bug
# waiting. Tests keep project_warnings (gtest's macros declare names freely).
add_library(product_warnings INTERFACE)
target_link_libraries(product_warnings INTERFACE project_warnings)
target_compile_options(product_warnings INTERFACE -Wshadow)
