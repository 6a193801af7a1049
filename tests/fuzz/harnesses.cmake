# The libFuzzer harnesses over the engine (clang only), included by two trees: tests/fuzz's own
# project (long runs, tests/fuzz/README.md) and the main project with ATTENTION_FUZZERS=ON, the
# sanitizer tree of build-scripts/test-sanitizers.sh, where the engine's libraries compiled once
# for ASan + UBSan serve both the GoogleTest suites and the harnesses.
#
# The engine's libraries and the harnesses get libFuzzer's coverage counters (fuzzer-no-link);
# only the harnesses link libFuzzer's main. In a test binary the counters go unread (the
# sanitizer runtime has no-op hooks for them).
foreach(library attention attention_train)
  target_compile_options(${library} PRIVATE -fsanitize=fuzzer-no-link)
endforeach()
file(GLOB harness_sources CONFIGURE_DEPENDS "${CMAKE_CURRENT_LIST_DIR}/*_fuzzer.cpp")
foreach(source ${harness_sources})
  get_filename_component(harness ${source} NAME_WE)  # tokenize_fuzzer, run_fuzzer, ...
  add_executable(${harness} ${source})
  target_link_libraries(${harness} PRIVATE attention_train)
  target_compile_options(${harness} PRIVATE -fsanitize=fuzzer-no-link -Wall -Wextra -Werror)
  target_link_options(${harness} PRIVATE -fsanitize=fuzzer)
endforeach()
