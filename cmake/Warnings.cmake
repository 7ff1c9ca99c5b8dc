# Warning flags shared by every target of the tree.
add_library(project_warnings INTERFACE)
target_compile_options(project_warnings INTERFACE -Wall -Wextra)
if(PERFCI_WERROR)
  target_compile_options(project_warnings INTERFACE -Werror)
endif()
