# Every C source is clang-formatted (.clang-format; Debian 12's
# clang-format 14, which scripts/test installs): the check fails on the
# first file that clang-format would change.  Other versions format some
# constructs differently, so the test skips with another major version.
find_program(RS_CLANG_FORMAT NAMES clang-format-14 clang-format)
if(RS_CLANG_FORMAT)
  file(GLOB_RECURSE _fmt_src CONFIGURE_DEPENDS
       ${CMAKE_SOURCE_DIR}/compiler/*.[ch] ${CMAKE_SOURCE_DIR}/generator/*.[ch]
       ${CMAKE_SOURCE_DIR}/mutators/*.[ch] ${CMAKE_SOURCE_DIR}/harnesses/*.[ch]
       ${CMAKE_SOURCE_DIR}/tools/*.[ch] ${CMAKE_SOURCE_DIR}/targets/*.[ch]
       ${CMAKE_SOURCE_DIR}/tests/*.[ch])
  add_test(NAME format
           COMMAND sh -c "\"$0\" --version | grep -q 'version 14\\.' || { echo 'SKIP: clang-format 14 needed'; exit 77; }; exec \"$0\" --dry-run -Werror \"$@\""
                   ${RS_CLANG_FORMAT} ${_fmt_src})
  set_tests_properties(format PROPERTIES SKIP_RETURN_CODE 77)
endif()
