# ASan + UBSan for the test build. Applied globally so that every library a
# test links is instrumented the same way.
if(PERFCI_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer
                      -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()
